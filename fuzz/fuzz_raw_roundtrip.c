/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_raw_roundtrip.c: the wire format round trip (Go's internal/trace/raw).
 *
 * Input: a wire-format trace, plain or gzip. Oracles:
 *  1. Whatever the raw reader parses (the events before EOF, the first error or a cap of
 *     fuzz_common.h) re-encodes with the raw writer and re-parses to the same events, to a
 *     clean EOF: type, arguments, frames and trailer bytes equal (nil and empty trailers
 *     both encode as length 0, and both come back from the wire reader the same way).
 *  2. The writer's output is the sum of the header and every event's EncodedSize().
 *  3. Encoding is canonical: encoding the re-parsed events again gives the same bytes.
 *  4. raw.Event.String() of an event and of its re-parsed copy are identical. */
#include "fuzz_common.h"

/* read_all parses the wire trace in into l, at most max events. Returns the reader's last
 * status (GTR_EOF for a clean end), GTR_E_LIMIT when the trace has more than max events, or
 * GTR_E_USAGE when the header did not parse. A trace of exactly max events ends in GTR_EOF:
 * the cap is checked by reading one more, so that a long trace's first max events, re-encoded,
 * read back to the clean end they should have. */
static gtr_status read_all(gtr_input *in, fuzz_rawlist *l, size_t max)
{
    gtr_raw_reader *r = NULL;
    gtr_err err = GTR_ERR_INIT;
    gtr_status st = gtr_raw_reader_new(in, NULL, &r, &err);
    if (st != GTR_OK) {
        gtr_err_clear(&err);
        return GTR_E_USAGE;
    }
    l->version = gtr_raw_reader_version(r);
    for (;;) {
        gtr_raw_event ev;
        st = gtr_raw_reader_next(r, &ev, &err);
        if (st != GTR_OK)
            break;
        if (l->n >= max) {
            st = GTR_E_LIMIT;
            break;
        }
        FUZZ_CHECK(ev.version == l->version, "event version is the reader's version");
        FUZZ_CHECK(ev.nargs == 0 || ev.args != NULL, "args present");
        FUZZ_CHECK(ev.data_len == 0 || ev.data != NULL, "data present");
        fuzz_rawlist_add(l, &ev);
    }
    gtr_err_clear(&err);
    gtr_raw_reader_free(r);
    return st;
}

/* check_same_string: String() of entry i of a and of b are identical. */
static void check_same_string(const fuzz_rawlist *a, const fuzz_rawlist *b, size_t i,
                              gtr_buf *scratch, gtr_buf *sa, gtr_buf *sb)
{
    fuzz_rawent ea = fuzz_rawlist_entry(a, i), eb = fuzz_rawlist_entry(b, i);
    gtr_raw_event ev;
    gtr_buf_reset(sa);
    gtr_buf_reset(sb);
    if (fuzz_rawlist_event(a, &ea, scratch, &ev))
        gtr_raw_event_string(&ev, sa);
    if (fuzz_rawlist_event(b, &eb, scratch, &ev))
        gtr_raw_event_string(&ev, sb);
    if (gtr_buf_status(sa) != GTR_OK || gtr_buf_status(sb) != GTR_OK ||
        gtr_buf_status(scratch) != GTR_OK)
        return;
    /* No "not empty" check: Go's raw reader accepts unnamed types below len(Specs())
     * (53..127 in Go 1.26), whose String() is empty. */
    FUZZ_CHECK(sa->len == sb->len &&
                   (sa->len == 0 || memcmp(sa->data, sb->data, sa->len) == 0),
               "String() survives the round trip");
}

/* encode writes l with the raw writer into out; returns false on an allocation failure. */
static bool encode(const fuzz_rawlist *l, gtr_buf *out)
{
    gtr_raw_writer *w = NULL;
    gtr_err err = GTR_ERR_INIT;
    gtr_buf scratch = {0};
    size_t expect = 0;
    char hdr[GTR_HEADER_MAX];
    bool ok = false;
    if (gtr_raw_writer_new(gtr_sink_buf(out), l->version, NULL, &w, &err) != GTR_OK) {
        FUZZ_CHECK(err.code == GTR_E_NOMEM, "the writer accepts the reader's version");
        gtr_err_clear(&err);
        return false;
    }
    expect = gtr_header_format(l->version, hdr);
    for (size_t i = 0; i < l->n; i++) {
        fuzz_rawent e = fuzz_rawlist_entry(l, i);
        gtr_raw_event ev;
        if (!fuzz_rawlist_event(l, &e, &scratch, &ev))
            goto done;
        gtr_status st = gtr_raw_writer_write(w, &ev, &err);
        if (st == GTR_E_NOMEM)
            goto done;
        FUZZ_CHECK(st == GTR_OK, "the writer accepts every event the reader produced");
        expect += gtr_raw_event_encoded_size(&ev);
    }
    if (gtr_raw_writer_flush(w, &err) != GTR_OK || gtr_buf_status(out) != GTR_OK)
        goto done;
    FUZZ_CHECK(out->len == expect, "written size is header + sum of EncodedSize()");
    ok = true;
done:
    gtr_err_clear(&err);
    gtr_raw_writer_free(w);
    gtr_buf_free(&scratch);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT_BYTES)
        return 0;
    fuzz_rawlist first = {0}, second = {0};
    gtr_buf wire2 = {0}, wire3 = {0}, scratch = {0}, s1 = {0}, s2 = {0};
    gtr_input *in = fuzz_input_open(data, size);
    if (in == NULL)
        return 0;
    gtr_status st = read_all(in, &first, FUZZ_MAX_EVENTS);
    gtr_input_free(in);
    if (st == GTR_E_USAGE || !fuzz_rawlist_ok(&first))
        goto done;

    if (!encode(&first, &wire2))
        goto done;
    in = fuzz_input_open((const uint8_t *)wire2.data, wire2.len);
    FUZZ_CHECK(in != NULL, "re-encoded trace opens");
    /* Whatever stopped the first read (an error, the event cap, the decompressed limit), the
     * events it kept are a whole trace of first.n events. */
    st = read_all(in, &second, first.n);
    gtr_input_free(in);
    if (st == GTR_E_NOMEM || !fuzz_rawlist_ok(&second))
        goto done;
    FUZZ_CHECK(st == GTR_EOF, "re-encoded trace parses to a clean EOF");
    FUZZ_CHECK(second.version == first.version, "version survives");
    FUZZ_CHECK(second.n == first.n, "event count survives");
    for (size_t i = 0; i < first.n; i++) {
        FUZZ_CHECK(fuzz_rawlist_same_event(&first, i, &second, i, true), "event survives");
        check_same_string(&first, &second, i, &scratch, &s1, &s2);
    }

    if (!encode(&second, &wire3))
        goto done;
    FUZZ_CHECK(wire3.len == wire2.len && memcmp(wire3.data, wire2.data, wire2.len) == 0,
               "encoding is canonical (idempotent)");
done:
    fuzz_rawlist_free(&first);
    fuzz_rawlist_free(&second);
    gtr_buf_free(&wire2);
    gtr_buf_free(&wire3);
    gtr_buf_free(&scratch);
    gtr_buf_free(&s1);
    gtr_buf_free(&s2);
    return 0;
}
