/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/raw/writer.go at go1.27.3: the binary (wire) writer.
 *
 * Output is buffered (64 KiB) and pushed to the sink on flush, on free, and when the buffer
 * fills. As in Go, only len(spec.Args) arguments are written, then (for Stack) every value
 * after them as frames, then (for HasData events) the data length and bytes. Where Go would
 * panic (an event type outside the writer's version, fewer args than the spec) this returns
 * GTR_E_USAGE. */
#include <inttypes.h>

#include "gtr/raw.h"
#include "mem.h"
#include "raw_priv.h"

#define FLUSH_AT (64u << 10)

struct gtr_raw_writer {
    gtr_alloc alc;
    gtr_sink sink;
    gtr_go_version v;
    size_t nspecs;
    gtr_buf buf;
};

static gtr_status flush(gtr_raw_writer *w, gtr_err *err)
{
    return gtr__sink_flush(w->sink, &w->buf, err);
}

gtr_status gtr_raw_writer_new(gtr_sink sink, gtr_go_version v, const gtr_alloc *alc,
                              gtr_raw_writer **out, gtr_err *err)
{
    if (out == NULL || sink.write == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_raw_writer_new: NULL argument");
    *out = NULL;
    const gtr_alloc *a = gtr__alloc_or_libc(alc);
    gtr_raw_writer *w = gtr__calloc(a, 1, sizeof *w);
    if (w == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    w->alc = *a;
    w->sink = sink;
    w->v = v;
    w->nspecs = gtr_go_version_nspecs(v);
    gtr_buf_init(&w->buf, &w->alc);
    char hdr[GTR_HEADER_MAX];
    gtr_buf_append(&w->buf, hdr, gtr_header_format(v, hdr));
    if (gtr_buf_status(&w->buf) != GTR_OK) {
        gtr_raw_writer_free(w);
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    }
    *out = w;
    return GTR_OK;
}

gtr_status gtr_raw_writer_write(gtr_raw_writer *w, const gtr_raw_event *ev, gtr_err *err)
{
    if (w == NULL || ev == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_raw_writer_write: NULL argument");
    if (ev->version != (unsigned)w->v)
        /* Go: fmt.Errorf("mismatched version between writer (go 1.%d) and event
         * (go 1.%d)", w.v, e.Version) */
        return gtr_err_setf(err, GTR_E_USAGE,
                            "mismatched version between writer (go 1.%u) and event (go 1.%u)",
                            (unsigned)w->v, (unsigned)ev->version);
    if (ev->type >= w->nspecs)
        /* Go panics: index out of range. */
        return gtr_err_setf(err, GTR_E_USAGE, "event type %u is not in go 1.%u's table",
                            (unsigned)ev->type, (unsigned)w->v);
    const gtr_event_spec *spec = gtr_spec(ev->type);
    if (ev->nargs < spec->nargs)
        /* Go panics: slice bounds out of range. */
        return gtr_err_setf(err, GTR_E_USAGE, "event has %zu args, its spec needs %u",
                            ev->nargs, (unsigned)spec->nargs);
    gtr_buf_putc(&w->buf, (char)ev->type);
    for (size_t i = 0; i < spec->nargs; i++)
        gtr_buf_put_uvarint(&w->buf, ev->args[i]);
    if (spec->is_stack) {
        for (size_t i = spec->nargs; i < ev->nargs; i++)
            gtr_buf_put_uvarint(&w->buf, ev->args[i]);
    }
    if (spec->has_data) {
        gtr_buf_put_uvarint(&w->buf, ev->data_len);
        gtr_buf_append(&w->buf, ev->data, ev->data_len);
    }
    if (gtr_buf_status(&w->buf) != GTR_OK)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    if (w->buf.len >= FLUSH_AT)
        return flush(w, err);
    return GTR_OK;
}

gtr_status gtr_raw_writer_flush(gtr_raw_writer *w, gtr_err *err)
{
    if (w == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_raw_writer_flush: NULL argument");
    return flush(w, err);
}

void gtr_raw_writer_free(gtr_raw_writer *w)
{
    if (w == NULL)
        return;
    flush(w, NULL);
    gtr_alloc a = w->alc;
    gtr_buf_free(&w->buf);
    gtr__free(&a, w);
}
