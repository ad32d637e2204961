/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_text.c: the text format (Go's raw.TextReader/TextWriter) and Go string quoting.
 *
 * Input: text-format trace bytes ("Trace Go1.22" then one event per line). Oracles:
 *  1. What the text reader parses (events before EOF or the first error) written by the
 *     text writer re-parses to a clean EOF with the same events, data trailers and nil/empty
 *     distinction included.
 *  2. The text writer is canonical: writing the re-parsed events gives identical text.
 *  3. The same events go through the wire writer and wire reader unchanged (the format
 *     conversion `gotrace raw text2bytes` performs).
 *  4. strconv.Quote/Unquote: Unquote(Quote(b)) == b for every trailer and for the input
 *     itself; when the input is a valid literal, Quote(Unquote(input)) unquotes back. */
#include "fuzz_common.h"

/* read_text parses in with the text reader into l. Returns the last status (GTR_EOF at a
 * clean end) or GTR_E_USAGE when the header did not parse. */
static gtr_status read_text(gtr_input *in, fuzz_rawlist *l)
{
    gtr_text_reader *r = NULL;
    gtr_status st = gtr_text_reader_new(in, NULL, &r, NULL);
    if (st != GTR_OK)
        return GTR_E_USAGE;
    l->version = gtr_text_reader_version(r);
    gtr_err err = GTR_ERR_INIT;
    for (;;) {
        gtr_raw_event ev;
        if (l->n >= FUZZ_MAX_EVENTS) {
            st = GTR_E_LIMIT;
            break;
        }
        st = gtr_text_reader_next(r, &ev, &err);
        if (st != GTR_OK) {
            FUZZ_CHECK(st < 0 || st == GTR_EOF, "reader status is OK, EOF or an error");
            FUZZ_CHECK(st == GTR_EOF || err.len != 0, "an error has a message");
            break;
        }
        FUZZ_CHECK(ev.version == l->version, "event version is the reader's version");
        fuzz_rawlist_add(l, &ev);
    }
    gtr_err_clear(&err);
    gtr_text_reader_free(r);
    return st;
}

static gtr_status read_wire(gtr_input *in, fuzz_rawlist *l)
{
    gtr_raw_reader *r = NULL;
    gtr_status st = gtr_raw_reader_new(in, NULL, &r, NULL);
    if (st != GTR_OK)
        return st;
    l->version = gtr_raw_reader_version(r);
    for (;;) {
        gtr_raw_event ev;
        st = gtr_raw_reader_next(r, &ev, NULL);
        if (st != GTR_OK)
            break;
        fuzz_rawlist_add(l, &ev);
    }
    gtr_raw_reader_free(r);
    return st;
}

/* write_events writes l to out with the text writer (text) or the wire writer. Returns
 * false on an allocation failure; any other writer error is an oracle failure. */
static bool write_events(const fuzz_rawlist *l, bool text, gtr_buf *out)
{
    gtr_text_writer *tw = NULL;
    gtr_raw_writer *ww = NULL;
    gtr_buf scratch = {0};
    gtr_err err = GTR_ERR_INIT;
    gtr_status st = text ? gtr_text_writer_new(gtr_sink_buf(out), l->version, NULL, &tw, &err)
                         : gtr_raw_writer_new(gtr_sink_buf(out), l->version, NULL, &ww, &err);
    if (st == GTR_E_NOMEM) {
        gtr_err_clear(&err);
        return false;
    }
    FUZZ_CHECK(st == GTR_OK, "writers accept the text reader's version");
    bool ok = false;
    for (size_t i = 0; i < l->n; i++) {
        fuzz_rawent e = fuzz_rawlist_entry(l, i);
        gtr_raw_event ev;
        if (!fuzz_rawlist_event(l, &e, &scratch, &ev))
            goto done;
        st = text ? gtr_text_writer_write(tw, &ev, &err) : gtr_raw_writer_write(ww, &ev, &err);
        if (st == GTR_E_NOMEM)
            goto done;
        FUZZ_CHECK(st == GTR_OK, "writers accept every event the text reader produced");
    }
    st = text ? gtr_text_writer_flush(tw, &err) : gtr_raw_writer_flush(ww, &err);
    ok = st == GTR_OK && gtr_buf_status(out) == GTR_OK;
done:
    gtr_err_clear(&err);
    gtr_text_writer_free(tw);
    gtr_raw_writer_free(ww);
    gtr_buf_free(&scratch);
    return ok;
}

/* check_quote: Unquote(Quote(s)) == s. */
static void check_quote(const void *s, size_t n, gtr_buf *q, gtr_buf *u)
{
    gtr_buf_reset(q);
    gtr_buf_reset(u);
    if (gtr_go_quote(q, s, n) != GTR_OK)
        return;
    FUZZ_CHECK(q->len >= 2 && q->data[0] == '"' && q->data[q->len - 1] == '"',
               "Quote returns a double-quoted literal");
    gtr_err err = GTR_ERR_INIT;
    gtr_status st = gtr_go_unquote(u, q->data, q->len, &err);
    gtr_err_clear(&err);
    if (st == GTR_E_NOMEM)
        return;
    FUZZ_CHECK(st == GTR_OK, "Unquote accepts what Quote wrote");
    FUZZ_CHECK(u->len == n && (n == 0 || memcmp(u->data, s, n) == 0),
               "Unquote(Quote(s)) == s");
}

static void check_quoting(const uint8_t *data, size_t size, const fuzz_rawlist *l)
{
    gtr_buf q = {0}, u = {0}, u2 = {0};
    for (size_t i = 0; i < l->n; i++) {
        fuzz_rawent e = fuzz_rawlist_entry(l, i);
        if (e.data_len > 0)
            check_quote(l->data.data + e.data_off, e.data_len, &q, &u);
    }
    if (size <= 4096) {
        check_quote(data, size, &q, &u);
        gtr_buf_reset(&u2);
        if (gtr_go_unquote(&u2, (const char *)data, size, NULL) == GTR_OK)
            check_quote(u2.data, u2.len, &q, &u);
    }
    gtr_buf_free(&q);
    gtr_buf_free(&u);
    gtr_buf_free(&u2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT_BYTES)
        return 0;
    fuzz_rawlist first = {0}, second = {0}, wired = {0};
    gtr_buf text2 = {0}, text3 = {0}, wire = {0};
    gtr_input *in = fuzz_input_open(data, size);
    if (in == NULL)
        return 0;
    gtr_status st = read_text(in, &first);
    gtr_input_free(in);
    if (st == GTR_E_USAGE || !fuzz_rawlist_ok(&first))
        goto quoting;

    /* 1. text -> events -> text -> events. */
    if (!write_events(&first, true, &text2))
        goto quoting;
    in = fuzz_input_open((const uint8_t *)text2.data, text2.len);
    FUZZ_CHECK(in != NULL, "written text opens");
    st = read_text(in, &second);
    gtr_input_free(in);
    if (st == GTR_E_NOMEM || !fuzz_rawlist_ok(&second))
        goto quoting;
    FUZZ_CHECK(st == GTR_EOF, "written text parses to a clean EOF");
    FUZZ_CHECK(second.version == first.version, "version survives");
    FUZZ_CHECK(second.n == first.n, "event count survives the text round trip");
    for (size_t i = 0; i < first.n; i++)
        FUZZ_CHECK(fuzz_rawlist_same_event(&first, i, &second, i, true),
                   "event survives the text round trip");

    /* 2. Canonical text. */
    if (!write_events(&second, true, &text3))
        goto quoting;
    FUZZ_CHECK(text3.len == text2.len && memcmp(text3.data, text2.data, text2.len) == 0,
               "the text writer is canonical");

    /* 3. text -> wire -> events. */
    if (!write_events(&first, false, &wire))
        goto quoting;
    in = fuzz_input_open((const uint8_t *)wire.data, wire.len);
    FUZZ_CHECK(in != NULL, "wire bytes open");
    st = read_wire(in, &wired);
    gtr_input_free(in);
    if (st == GTR_E_NOMEM || !fuzz_rawlist_ok(&wired))
        goto quoting;
    FUZZ_CHECK(st == GTR_EOF, "text2bytes output parses to a clean EOF");
    FUZZ_CHECK(wired.n == first.n, "event count survives text2bytes");
    for (size_t i = 0; i < first.n; i++)
        FUZZ_CHECK(fuzz_rawlist_same_event(&first, i, &wired, i, false),
                   "event survives text2bytes");

quoting:
    /* 4. Quote/Unquote. */
    check_quoting(data, size, &first);
    fuzz_rawlist_free(&first);
    fuzz_rawlist_free(&second);
    fuzz_rawlist_free(&wired);
    gtr_buf_free(&text2);
    gtr_buf_free(&text3);
    gtr_buf_free(&wire);
    return 0;
}
