/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_txtar_check.c: a whole `.test` fixture through the golden path (Go's
 * testtrace.ParseFile followed by reader_test.go's testReader), as `gotrace check` runs it.
 *
 * Input: a txtar archive. The golden path is testgen's: tgen_fixture_parse (txtar parse,
 * exactly `expect` then `trace`, text to wire bytes, expectation) and
 * tgen_fixture_check_parsed (reader, validator on every event, Expectation.Check). Beside it
 * the target walks the same steps itself with the lower-level APIs (txtar, text reader, raw
 * writer, tgen_expect, reader, validator) and compares. Oracles beyond "no crash":
 *  - both paths agree on whether the fixture parses, on its wire bytes, on the number of
 *    events read and on whether the check passes;
 *  - every failure carries a message;
 *  - the expectation text tgen_expect_format writes parses back to the same expectation;
 *  - a SUCCESS expectation conforms to a clean read and never to an error. */
#include "fuzz_common.h"
#include "gtr/reader.h"
#include "gtr/validate.h"
#include "tgen/expect.h"
#include "tgen/fixture.h"
#include "txtar.h"

static void check_error(gtr_status st, const gtr_err *err, const char *what)
{
    if (st == GTR_OK || st == GTR_EOF || st == GTR_E_NOMEM)
        return;
    FUZZ_CHECK(st < 0 && err->len != 0, what);
}

/* text_to_wire: ParseFile's conversion loop. Returns GTR_OK or the first error. Go reads the
 * section as text, never gunzipped: gzip magic there is a header error ("failed to parse
 * header"), while gtr_input would decompress it. */
static gtr_status text_to_wire(const txtar_file *f, gtr_buf *wire, gtr_err *err)
{
    if (f->data_len >= 2 && (uint8_t)f->data[0] == 0x1f && (uint8_t)f->data[1] == 0x8b)
        return GTR_E_FORMAT;
    gtr_input *in = fuzz_input_open((const uint8_t *)f->data, f->data_len);
    gtr_text_reader *r = NULL;
    gtr_raw_writer *w = NULL;
    gtr_status st;
    if (in == NULL)
        return GTR_E_NOMEM;
    st = gtr_text_reader_new(in, NULL, &r, err);
    if (st == GTR_OK)
        st = gtr_raw_writer_new(gtr_sink_buf(wire), gtr_text_reader_version(r), NULL, &w, err);
    for (size_t n = 0; st == GTR_OK; n++) {
        gtr_raw_event ev;
        if (n >= FUZZ_MAX_EVENTS) {
            st = GTR_E_LIMIT;
            break;
        }
        st = gtr_text_reader_next(r, &ev, err);
        if (st == GTR_EOF) {
            st = GTR_OK;
            break;
        }
        if (st == GTR_OK)
            st = gtr_raw_writer_write(w, &ev, err);
    }
    if (st == GTR_OK)
        st = gtr_raw_writer_flush(w, err);
    if (st == GTR_OK)
        st = gtr_buf_status(wire);
    check_error(st == GTR_E_LIMIT ? GTR_OK : st, err, "text2bytes error has a message");
    gtr_raw_writer_free(w);
    gtr_text_reader_free(r);
    gtr_input_free(in);
    return st;
}

/* The expectation's own round trip: Format then Parse gives the same kind and pattern. */
static void check_expect_format(const tgen_expect *e)
{
    gtr_buf text = {0};
    tgen_expect *back = NULL;
    gtr_err err = GTR_ERR_INIT;
    if (tgen_expect_format(e, &text) != GTR_OK || gtr_buf_status(&text) != GTR_OK)
        goto done;
    gtr_status st = tgen_expect_parse(text.data, text.len, &back, &err);
    if (st == GTR_E_NOMEM)
        goto done;
    FUZZ_CHECK(st == GTR_OK, "a formatted expectation parses");
    FUZZ_CHECK(tgen_expect_is_failure(back) == tgen_expect_is_failure(e), "kind survives");
    size_t la = 0, lb = 0;
    const char *pa = tgen_expect_pattern(e, &la), *pb = tgen_expect_pattern(back, &lb);
    FUZZ_CHECK((pa == NULL) == (pb == NULL), "pattern presence survives");
    if (pa != NULL)
        FUZZ_CHECK(la == lb && memcmp(pa, pb, la) == 0, "pattern survives");
done:
    gtr_err_clear(&err);
    tgen_expect_free(back);
    gtr_buf_free(&text);
}

/* run_reader: testReader. Returns the reader's final status (GTR_EOF: clean), err its error;
 * *invalid is set when the validator complained about some event, *events counts the events
 * read. */
static gtr_status run_reader(const gtr_buf *wire, gtr_err *err, bool *invalid, uint64_t *events)
{
    gtr_input *in = fuzz_input_open((const uint8_t *)wire->data, wire->len);
    gtr_reader *r = NULL;
    gtr_validator *v = NULL;
    gtr_err verr = GTR_ERR_INIT;
    gtr_status st;
    *invalid = false;
    *events = 0;
    if (in == NULL)
        return GTR_E_NOMEM;
    st = gtr_reader_new(in, NULL, &r, err);
    if (st == GTR_OK && (st = gtr_validator_new(NULL, &v, err)) == GTR_OK) {
        gtr_validator_set_go_version(v, gtr_reader_go_version(r));
        for (size_t n = 0; n < FUZZ_MAX_EVENTS; n++) {
            gtr_event ev;
            st = gtr_reader_next(r, &ev, err);
            if (st != GTR_OK)
                break;
            (*events)++;
            gtr_status vs = gtr_validator_event(v, &ev, &verr);
            check_error(vs, &verr, "validator error has a message");
            if (vs != GTR_OK)
                *invalid = true;
        }
    }
    check_error(st, err, "reader error has a message");
    gtr_err_clear(&verr);
    gtr_validator_free(v);
    gtr_reader_free(r);
    gtr_input_free(in);
    return st;
}

static bool name_is(const txtar_file *f, const char *name)
{
    return f->name_len == strlen(name) && memcmp(f->name, name, f->name_len) == 0;
}

/* own_path walks ParseFile and testReader with the lower-level APIs. Returns GTR_OK when the
 * fixture parsed (wire bytes in *wire), then *passed tells whether the golden check passed
 * and *events how many events were read; GTR_E_LIMIT when a cap cut the walk short. */
static gtr_status own_path(const uint8_t *data, size_t size, gtr_buf *wire, bool *passed,
                           uint64_t *events)
{
    txtar_archive *a = txtar_parse(data, size);
    tgen_expect *exp = NULL;
    gtr_err err = GTR_ERR_INIT, cerr = GTR_ERR_INIT;
    gtr_status st = GTR_E_FORMAT;
    *passed = false;
    if (a == NULL)
        return GTR_E_NOMEM;
    FUZZ_CHECK(a->comment_len == 0 || a->comment != NULL, "comment bytes");
    for (size_t i = 0; i < a->nfiles; i++)
        FUZZ_CHECK(a->files[i].name != NULL && a->files[i].name[a->files[i].name_len] == '\0',
                   "file names are NUL-terminated");
    /* ParseFile: exactly `expect` then `trace` (names may hold NUL bytes: compare lengths). */
    if (a->nfiles != 2 || !name_is(&a->files[0], "expect") || !name_is(&a->files[1], "trace"))
        goto done;
    if ((st = text_to_wire(&a->files[1], wire, &err)) != GTR_OK)
        goto done;
    st = tgen_expect_parse(a->files[0].data, a->files[0].data_len, &exp, &err);
    check_error(st, &err, "expectation error has a message");
    if (st != GTR_OK)
        goto done;
    check_expect_format(exp);

    bool invalid;
    gtr_status rst = run_reader(wire, &err, &invalid, events);
    if (rst == GTR_E_NOMEM || rst == GTR_OK) {   /* OK: stopped at FUZZ_MAX_EVENTS */
        st = GTR_E_LIMIT;
        goto done;
    }
    gtr_status cst = tgen_expect_check(exp, rst == GTR_EOF ? NULL : &err, &cerr);
    check_error(cst, &cerr, "Expectation.Check error has a message");
    if (cst == GTR_E_NOMEM) {
        st = GTR_E_NOMEM;
        goto done;
    }
    if (rst == GTR_EOF)
        FUZZ_CHECK((cst == GTR_OK) == !tgen_expect_is_failure(exp),
                   "a clean read conforms exactly to SUCCESS");
    else if (!tgen_expect_is_failure(exp))
        FUZZ_CHECK(cst == GTR_E_INVALID, "an error never conforms to SUCCESS");
    *passed = cst == GTR_OK && !invalid;
done:
    gtr_err_clear(&err);
    gtr_err_clear(&cerr);
    tgen_expect_free(exp);
    txtar_free(a);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT_BYTES)
        return 0;
    gtr_buf wire = {0};
    bool passed = false;
    uint64_t events = 0;
    gtr_status own = own_path(data, size, &wire, &passed, &events);

    tgen_fixture *f = NULL;
    gtr_err err = GTR_ERR_INIT;
    gtr_status st = tgen_fixture_parse("fuzz.test", data, size, &f, &err);
    check_error(st, &err, "fixture parse error has a message");
    if (own == GTR_E_NOMEM || own == GTR_E_LIMIT || st == GTR_E_NOMEM)
        goto done;
    FUZZ_CHECK((st == GTR_OK) == (own == GTR_OK), "both paths agree on parsing the fixture");
    if (st != GTR_OK)
        goto done;
    size_t len = 0;
    const uint8_t *bytes = tgen_fixture_trace(f, &len);
    FUZZ_CHECK(len == wire.len && (len == 0 || memcmp(bytes, wire.data, len) == 0),
               "both paths make the same wire bytes");
    tgen_check_report rep = {0, 0};
    st = tgen_fixture_check_parsed(f, &rep, &err);
    check_error(st, &err, "golden check failure has a message");
    if (st == GTR_E_NOMEM)
        goto done;
    FUZZ_CHECK(rep.events == events, "both paths read the same number of events");
    FUZZ_CHECK((st == GTR_OK) == passed && (rep.failures == 0) == passed,
               "both paths agree on the verdict");
done:
    gtr_err_clear(&err);
    tgen_fixture_free(f);
    gtr_buf_free(&wire);
    return 0;
}
