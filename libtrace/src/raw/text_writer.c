/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/raw/textwriter.go at go1.27.3: the text format writer.
 *
 * Writes "Trace Go1.%d\n" at creation, then each event as raw.Event.String() and a newline
 * (fmt.Fprintln). Output is buffered (64 KiB) and pushed to the sink on flush, on free and
 * when the buffer fills. */
#include "gtr/raw.h"
#include "mem.h"
#include "raw_priv.h"

#define FLUSH_AT (64u << 10)

struct gtr_text_writer {
    gtr_alloc alc;
    gtr_sink sink;
    gtr_go_version v;
    gtr_buf buf;
};

static gtr_status flush(gtr_text_writer *w, gtr_err *err)
{
    return gtr__sink_flush(w->sink, &w->buf, err);
}

gtr_status gtr_text_writer_new(gtr_sink sink, gtr_go_version v, const gtr_alloc *alc,
                               gtr_text_writer **out, gtr_err *err)
{
    if (out == NULL || sink.write == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_text_writer_new: NULL argument");
    *out = NULL;
    const gtr_alloc *a = gtr__alloc_or_libc(alc);
    gtr_text_writer *w = gtr__calloc(a, 1, sizeof *w);
    if (w == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    w->alc = *a;
    w->sink = sink;
    w->v = v;
    gtr_buf_init(&w->buf, &w->alc);
    /* Go: fmt.Fprintf(w, "Trace Go1.%d\n", v) */
    gtr_buf_printf(&w->buf, "Trace Go1.%u\n", (unsigned)v);
    if (gtr_buf_status(&w->buf) != GTR_OK) {
        gtr_text_writer_free(w);
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    }
    *out = w;
    return GTR_OK;
}

gtr_status gtr_text_writer_write(gtr_text_writer *w, const gtr_raw_event *ev, gtr_err *err)
{
    if (w == NULL || ev == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_text_writer_write: NULL argument");
    if (ev->version != (unsigned)w->v)
        /* Go: fmt.Errorf("mismatched version between writer (go 1.%d) and event
         * (go 1.%d)", w.v, e.Version) */
        return gtr_err_setf(err, GTR_E_USAGE,
                            "mismatched version between writer (go 1.%u) and event (go 1.%u)",
                            (unsigned)w->v, (unsigned)ev->version);
    size_t mark = w->buf.len;
    gtr_status st = gtr_raw_event_string(ev, &w->buf);
    if (st == GTR_E_USAGE) {
        w->buf.len = mark;
        if (w->buf.data != NULL)
            w->buf.data[mark] = '\0';
        /* Go panics indexing Specs()[e.Ev] or e.Args. */
        return gtr_err_setf(err, GTR_E_USAGE, "event type %u with %zu args does not fit go 1.%u",
                            (unsigned)ev->type, ev->nargs, (unsigned)w->v);
    }
    gtr_buf_putc(&w->buf, '\n');
    if (gtr_buf_status(&w->buf) != GTR_OK)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    if (w->buf.len >= FLUSH_AT)
        return flush(w, err);
    return GTR_OK;
}

gtr_status gtr_text_writer_flush(gtr_text_writer *w, gtr_err *err)
{
    if (w == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_text_writer_flush: NULL argument");
    return flush(w, err);
}

void gtr_text_writer_free(gtr_text_writer *w)
{
    if (w == NULL)
        return;
    flush(w, NULL);
    gtr_alloc a = w->alc;
    gtr_buf_free(&w->buf);
    gtr__free(&a, w);
}
