/* SPDX-License-Identifier: BSD-3-Clause */
/* check.c: reader + validator over a whole trace (fs/check.h), after Go's testReader in
 * src/internal/trace/reader_test.go at go1.27.3. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fs/check.h"
#include "gtr/input.h"
#include "gtr/raw.h"
#include "gtr/reader.h"
#include "gtr/validate.h"
#include "txtar.h"

gtr_status gtr_fs_check(const uint8_t *data, size_t size, const gtr_alloc *alc, gtr_buf *dump,
                        gtr_fs_result *res)
{
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_validator *v = NULL;
    gtr_status st;

    res->read = res->valid = GTR_OK;
    res->nevents = 0;
    gtr_err_clear(&res->read_err);
    gtr_err_clear(&res->valid_err);
    if ((st = gtr_input_open_memory(data, size, alc, &in, &res->read_err)) < 0 ||
        (st = gtr_reader_new(in, alc, &r, &res->read_err)) < 0) {
        res->read = st;
        goto out;
    }
    if ((st = gtr_validator_new(alc, &v, &res->valid_err)) < 0) {
        res->valid = st;
        goto out;
    }
    gtr_validator_set_go_version(v, gtr_reader_go_version(r));
    for (;;) {
        gtr_event ev;
        st = gtr_reader_next(r, &ev, &res->read_err);
        if (st == GTR_EOF)
            break;
        if (st < 0) {
            res->read = st;
            break;
        }
        res->nevents++;
        if (dump != NULL) {
            gtr_event_string(&ev, dump);
            gtr_buf_putc(dump, '\n');
        }
        if (res->valid == GTR_OK) {
            gtr_status vs = gtr_validator_event(v, &ev, &res->valid_err);
            if (vs < 0)
                res->valid = vs;
        }
    }
out:
    gtr_validator_free(v);
    gtr_reader_free(r);
    gtr_input_free(in);
    if (res->read < 0)
        return res->read;
    if (res->valid < 0)
        return res->valid;
    if (dump != NULL && gtr_buf_status(dump) < 0)
        return GTR_E_NOMEM;
    return GTR_OK;
}

gtr_status gtr_fs_text_to_wire(const char *text, size_t len, gtr_buf *wire, gtr_err *err)
{
    gtr_input *in = NULL;
    gtr_text_reader *tr = NULL;
    gtr_raw_writer *w = NULL;
    gtr_status st;

    if ((st = gtr_input_open_memory(text, len, NULL, &in, err)) < 0 ||
        (st = gtr_text_reader_new(in, NULL, &tr, err)) < 0 ||
        (st = gtr_raw_writer_new(gtr_sink_buf(wire), gtr_text_reader_version(tr), NULL, &w,
                                 err)) < 0)
        goto out;
    for (;;) {
        gtr_raw_event ev;
        st = gtr_text_reader_next(tr, &ev, err);
        if (st == GTR_EOF) {
            st = gtr_raw_writer_flush(w, err);
            break;
        }
        if (st < 0 || (st = gtr_raw_writer_write(w, &ev, err)) < 0)
            break;
    }
out:
    gtr_raw_writer_free(w);
    gtr_text_reader_free(tr);
    gtr_input_free(in);
    return st;
}

gtr_status gtr_fs_wire_to_text(const uint8_t *data, size_t size, gtr_buf *text, gtr_err *err)
{
    gtr_input *in = NULL;
    gtr_raw_reader *rr = NULL;
    gtr_text_writer *w = NULL;
    gtr_status st;

    if ((st = gtr_input_open_memory(data, size, NULL, &in, err)) < 0 ||
        (st = gtr_raw_reader_new(in, NULL, &rr, err)) < 0 ||
        (st = gtr_text_writer_new(gtr_sink_buf(text), gtr_raw_reader_version(rr), NULL, &w,
                                  err)) < 0)
        goto out;
    for (;;) {
        gtr_raw_event ev;
        st = gtr_raw_reader_next(rr, &ev, err);
        if (st == GTR_EOF) {
            st = gtr_text_writer_flush(w, err);
            break;
        }
        if (st < 0 || (st = gtr_text_writer_write(w, &ev, err)) < 0)
            break;
    }
out:
    gtr_text_writer_free(w);
    gtr_raw_reader_free(rr);
    gtr_input_free(in);
    return st;
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

gtr_status gtr_fs_load_trace(const char *path, gtr_buf *wire, gtr_err *err)
{
    if (has_suffix(path, ".test")) {
        txtar_archive *a = txtar_parse_file(path);
        if (a == NULL)
            return gtr_err_setf(err, GTR_E_IO, "open %s: %s", path, strerror(errno));
        const txtar_file *f = txtar_find(a, "trace");
        gtr_status st = f == NULL ? gtr_err_setf(err, GTR_E_FORMAT, "%s: no trace section", path)
                                  : gtr_fs_text_to_wire(f->data, f->data_len, wire, err);
        txtar_free(a);
        return st;
    }
    gtr_input *in = NULL;
    gtr_status st = gtr_input_open_path(path, NULL, &in, err);
    if (st < 0)
        return st;
    char *data = NULL;
    size_t len = 0;
    st = gtr_input_read_all(in, &data, &len, err);
    gtr_input_free(in);
    if (st >= 0 && gtr_buf_append(wire, data, len) < 0)
        st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    free(data);
    return st;
}
