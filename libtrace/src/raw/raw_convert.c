/* SPDX-License-Identifier: BSD-3-Clause */
/* raw_convert.c: whole-trace conversions between the text and the wire formats (gtr/raw.h),
 * the loop of Go's testdata/cmd/gotraceraw over a buffer. */
#include "gtr/raw.h"

gtr_status gtr_raw_text_to_wire(const char *text, size_t len, gtr_buf *wire, gtr_err *err)
{
    gtr_input *in = NULL;
    gtr_text_reader *tr = NULL;
    gtr_raw_writer *w = NULL;
    gtr_status st;

    if ((st = gtr_input_open_memory_plain(len > 0 ? text : "", len, NULL, &in, err)) < 0 ||
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

gtr_status gtr_raw_wire_to_text(const uint8_t *data, size_t size, gtr_buf *text, gtr_err *err)
{
    gtr_input *in = NULL;
    gtr_raw_reader *rr = NULL;
    gtr_text_writer *w = NULL;
    gtr_status st;

    if ((st = gtr_input_open_memory_plain(size > 0 ? data : (const uint8_t *)"", size, NULL,
                                          &in, err)) < 0 ||
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
