/* SPDX-License-Identifier: BSD-3-Clause */
/* test_text_reader.c: the text reader and writer (raw.TextReader, raw.TextWriter): a table
 * of inputs whose wire output and error message Go's TextReader + raw.Writer produced
 * (gtroracle text2bytes), lines far beyond bufio.Scanner's 64 KiB, the writer's header and
 * its no-data-line quirk, and a text round trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gtr/raw.h"

typedef struct {
    const char *name;
    const char *in;
    const char *err;  /* NULL: Go converted it all */
    const char *out;  /* Go's wire output (written before any error) */
    size_t out_len;
} text_case;

/* Generated from gtroracle text2bytes (Go 1.27.3's raw.TextReader and raw.Writer). */
static const text_case text_cases[] = {
    {"badval",
     "Trace Go1.22\nGoStart dt=1 g=-2 g_seq=3\n",
     "reading args for GoStart: failed to parse argument value \"-2\" for arg \"g\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"badval_range",
     "Trace Go1.22\nGoStart dt=1 g=18446744073709551616 g_seq=3\n",
     "reading args for GoStart: failed to parse argument value \"18446744073709551616\" for arg \"g\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"blank_only",
     "\n\n  \n# c\n",
     "EOF",
     "", 0},
    {"comment_mid",
     "Trace Go1.22\nGoStart dt=1 g=2 # g_seq=3\n",
     "reading args for GoStart: no argument",
     "go 1.22 trace\x00\x00\x00", 16},
    {"crlf",
     "Trace Go1.22\r\nGoStart dt=1 g=2 g_seq=3\r\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x10\x01\x02\x03", 20},
    {"data_back",
     "Trace Go1.22\nString id=1\n data = `raw\\n`  \n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x05\x01\x05raw\\n", 24},
    {"data_bad",
     "Trace Go1.22\nString id=1\n\tdata=\"abc\n",
     "failed to parse data: \"\\tdata=\\\"abc\": invalid syntax",
     "go 1.22 trace\x00\x00\x00", 16},
    {"data_comment_line",
     "Trace Go1.22\nString id=1\n#data=\"a\"\n",
     "unexpected EOF while reading data for String: args=[1]",
     "go 1.22 trace\x00\x00\x00", 16},
    {"data_empty",
     "Trace Go1.22\nString id=1\n\tdata=\"\"\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x05\x01\x00", 19},
    {"data_eof",
     "Trace Go1.22\nString id=1\n",
     "unexpected EOF while reading data for String: args=[1]",
     "go 1.22 trace\x00\x00\x00", 16},
    {"data_eof_comment",
     "Trace Go1.22\nString id=1\n# c\n\n",
     "unexpected EOF while reading data for String: args=[1]",
     "go 1.22 trace\x00\x00\x00", 16},
    {"data_hash",
     "Trace Go1.22\nString id=1\n\tdata=\"a#b\"\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x05\x01\x03""a#b", 22},
    {"data_malformed",
     "Trace Go1.22\nString id=1\n\tdat=\"abc\"\n",
     "malformed data: \"\\tdat=\\\"abc\\\"\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"data_noeq",
     "Trace Go1.22\nString id=1\n\tdata\n",
     "malformed data: \"\\tdata\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"data_octal",
     "Trace Go1.22\nString id=1\n\tdata=\"\\101\\377\\400\"\n",
     "failed to parse data: \"\\tdata=\\\"\\\\101\\\\377\\\\400\\\"\": invalid syntax",
     "go 1.22 trace\x00\x00\x00", 16},
    {"data_octal_ok",
     "Trace Go1.22\nString id=1\n\tdata=\"\\101\\377\"\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x05\x01\x02""A\xff", 21},
    {"data_ok",
     "Trace Go1.22\nString id=1\n\tdata=\"hello\\x00\\u00e9\\U0001F600\\n\"\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x05\x01\rhello\x00\xc3\xa9\xf0\x9f\x98\x80\n", 32},
    {"data_rune",
     "Trace Go1.22\nString id=1\n\tdata='x'\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x05\x01\x01x", 20},
    {"data_utf8",
     "Trace Go1.22\nString id=1\n\tdata=\"\xc3\xbf\xc3\xbe\"\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x05\x01\x04\xc3\xbf\xc3\xbe", 23},
    {"empty",
     "",
     "EOF",
     "", 0},
    {"eq_in_val",
     "Trace Go1.22\nGoStart dt=1 g=2=3 g_seq=3\n",
     "reading args for GoStart: failed to parse argument value \"2=3\" for arg \"g\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"expbatch",
     "Trace Go1.23\nExperimentalBatch exp=1 gen=2 m=3 time=4\n\tdata=\"xyz\"\n",
     NULL,
     "go 1.23 trace\x00\x00\x00""1\x01\x02\x03\x04\x03xyz", 25},
    {"extra",
     "Trace Go1.22\nGoStart dt=1 g=2 g_seq=3 extra\n",
     "reading args for GoStart: encountered unexpected non-space at the end of an event: \" extra\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"extra_comment",
     "Trace Go1.22\nGoStart dt=1 g=2 g_seq=3 # comment\n",
     "reading args for GoStart: encountered unexpected non-space at the end of an event: \" # comment\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"hash_in_tok",
     "Trace Go1.22\nGoStart dt=1 g=2 g_seq=3#x\n",
     "reading args for GoStart: encountered unexpected non-space at the end of an event: \"#x\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"hdr_11",
     "Trace Go1.11\nGoStart dt=1 g=2 g_seq=3\n",
     "unidentified event: GoStart",
     "go 1.11 trace\x00\x00\x00", 16},
    {"hdr_bad",
     "Trace2 Go1.22\n",
     "failed to parse header",
     "", 0},
    {"hdr_comment_first",
     "# hi\n\n   Trace Go1.22\n",
     NULL,
     "go 1.22 trace\x00\x00\x00", 16},
    {"hdr_nohash",
     "Trace#x Go1.22\n",
     "failed to parse header Go version",
     "", 0},
    {"hdr_num",
     "Trace Go1.x22\n",
     "failed to parse header Go version: strconv.ParseUint: parsing \"x22\": invalid syntax",
     "", 0},
    {"hdr_num_empty",
     "Trace Go1.\n",
     "failed to parse header Go version: strconv.ParseUint: parsing \"\": invalid syntax",
     "", 0},
    {"hdr_range",
     "Trace Go1.99999999999999999999\n",
     "failed to parse header Go version: strconv.ParseUint: parsing \"99999999999999999999\": value out of range",
     "", 0},
    {"hdr_range_x",
     "Trace Go1.99999999999999999999x\n",
     "failed to parse header Go version: strconv.ParseUint: parsing \"99999999999999999999x\": value out of range",
     "", 0},
    {"hdr_syn_then_range",
     "Trace Go1.9x9999999999999999999999\n",
     "failed to parse header Go version: strconv.ParseUint: parsing \"9x9999999999999999999999\": invalid syntax",
     "", 0},
    {"hdr_trailing",
     "Trace Go1.22 # comment\n",
     "encountered unexpected non-space at the end of the header: \" # comment\"",
     "", 0},
    {"hdr_trailing2",
     "Trace Go1.22 x\n",
     "encountered unexpected non-space at the end of the header: \" x\"",
     "", 0},
    {"hdr_trailing_sp",
     "Trace Go1.22 \t \xe3\x80\x80\n",
     NULL,
     "go 1.22 trace\x00\x00\x00", 16},
    {"hdr_trunc32",
     "Trace Go1.4294967318\n",
     NULL,
     "go 1.22 trace\x00\x00\x00", 16},
    {"hdr_unknown",
     "Trace Go1.24\n",
     "unknown or unsupported Go version 1.24",
     "", 0},
    {"hdr_ver",
     "Trace Go2.22\n",
     "failed to parse header Go version",
     "", 0},
    {"leading_zero",
     "Trace Go1.022\nGoStart dt=007 g=2 g_seq=3\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x10\x07\x02\x03", 20},
    {"malformed",
     "Trace Go1.22\nGoStart dt=1 g2 g_seq=3\n",
     "reading args for GoStart: malformed argument: \"g2\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"maxval",
     "Trace Go1.22\nGoStart dt=1 g=18446744073709551615 g_seq=3\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x10\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x03", 29},
    {"no_arg",
     "Trace Go1.22\nGoStart dt=1 g=2\n",
     "reading args for GoStart: no argument",
     "go 1.22 trace\x00\x00\x00", 16},
    {"nonl",
     "Trace Go1.22\nGoStart dt=1 g=2 g_seq=3",
     NULL,
     "go 1.22 trace\x00\x00\x00\x10\x01\x02\x03", 20},
    {"ok",
     "Trace Go1.22\nEventBatch gen=1 m=0 time=5 size=3\nGoStart dt=1 g=2 g_seq=3\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x01\x01\x00\x05\x03\x10\x01\x02\x03", 25},
    {"only_eq",
     "Trace Go1.22\nGoStart = g=2 g_seq=3\n",
     "reading args for GoStart: failed to parse argument value \"\" for arg \"\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"plus",
     "Trace Go1.22\nGoStart dt=+7 g=2 g_seq=3\n",
     "reading args for GoStart: failed to parse argument value \"+7\" for arg \"dt\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"raw_data",
     "Trace Go1.22\nString id=1\n\tdata=\"\xff\xfe\"\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x05\x01\x06\xef\xbf\xbd\xef\xbf\xbd", 25},
    {"raw_data2",
     "Trace Go1.22\nString id=1\n\tdata=\"\xff\\n\"\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x05\x01\x04\xef\xbf\xbd\n", 23},
    {"raw_extra",
     "Trace Go1.22\nGoStart dt=1 g=2 g_seq=3 \xff\n",
     "reading args for GoStart: encountered unexpected non-space at the end of an event: \" \\xff\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"raw_rune",
     "Trace Go1.22\nString id=1\n\tdata='\xff'\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x05\x01\x03\xef\xbf\xbd", 22},
    {"raw_unident",
     "Trace Go1.22\nG\xffoo\n",
     "unidentified event: G\xffoo",
     "go 1.22 trace\x00\x00\x00", 16},
    {"rawbyte",
     "Trace Go1.22\nGoStart dt=1 g=2 g_seq=3\n\xff# bad\n",
     "unidentified event: \xff",
     "go 1.22 trace\x00\x00\x00\x10\x01\x02\x03", 20},
    {"span125",
     "Trace Go1.25\nSpan dt=1 id=2 npages=3 type=4\n",
     "unidentified event: Span",
     "go 1.25 trace\x00\x00\x00", 16},
    {"span126",
     "Trace Go1.26\nSpan dt=1 id=2 npages_value=3 kindclass=4\nEndOfGeneration\n",
     NULL,
     "go 1.26 trace\x00\x00\x00\x80\x01\x02\x03\x04""4", 22},
    {"stack",
     "Trace Go1.22\nStacks\nStack id=1 nframes=2\n\tpc=1 func=2 file=3 line=4\n  pc=5 func=6 file=7 line=8 \n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x02\x03\x01\x02\x01\x02\x03\x04\x05\x06\x07\x08", 28},
    {"stack_bad_frame",
     "Trace Go1.22\nStack id=1 nframes=1\n\tpc=1 fun=2 file=3 line=4\n",
     "expected argument \"func\", but got \"fun\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"stack_eof",
     "Trace Go1.22\nStack id=1 nframes=3\n\tpc=1 func=2 file=3 line=4\n",
     "unexpected EOF while reading stack: args=[1 3 1 2 3 4]",
     "go 1.22 trace\x00\x00\x00", 16},
    {"stack_frame_extra",
     "Trace Go1.22\nStack id=1 nframes=1\n\tpc=1 func=2 file=3 line=4 x=5\n",
     "encountered unexpected non-space at the end of an event: \" x=5\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"stack_huge_neg",
     "Trace Go1.22\nStack id=1 nframes=9223372036854775808\nGoStart dt=1 g=2 g_seq=3\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x03\x01\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01\x10\x01\x02\x03", 32},
    {"stack_zero",
     "Trace Go1.22\nStack id=1 nframes=0\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x03\x01\x00", 19},
    {"sync125",
     "Trace Go1.25\nSync\nClockSnapshot dt=1 mono=2 sec=3 nsec=4\n",
     NULL,
     "go 1.25 trace\x00\x00\x00""23\x01\x02\x03\x04", 22},
    {"underscore",
     "Trace Go1.22\nGoStart dt=1_0 g=2 g_seq=3\n",
     "reading args for GoStart: failed to parse argument value \"1_0\" for arg \"dt\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"unicode_space",
     "Trace Go1.22\nGoStart\xc2\xa0""dt=1\xe2\x80\x83g=2\xe3\x80\x80g_seq=3\xc2\x85\n",
     NULL,
     "go 1.22 trace\x00\x00\x00\x10\x01\x02\x03", 20},
    {"unident",
     "Trace Go1.22\nGoSwitch dt=1 g=2 g_seq=3\n",
     "unidentified event: GoSwitch",
     "go 1.22 trace\x00\x00\x00", 16},
    {"unident_utf8",
     "Trace Go1.22\nG\xc3\xbfoo\n",
     "unidentified event: G\xc3\xbfoo",
     "go 1.22 trace\x00\x00\x00", 16},
    {"wrongname",
     "Trace Go1.22\nGoStart dt=1 G=2 g_seq=3\n",
     "reading args for GoStart: expected argument \"g\", but got \"G\"",
     "go 1.22 trace\x00\x00\x00", 16},
    {"wrongname_badval",
     "Trace Go1.22\nGoStart dt=1 G=x g_seq=3\n",
     "reading args for GoStart: failed to parse argument value \"x\" for arg \"G\"",
     "go 1.22 trace\x00\x00\x00", 16},
};

/* text2bytes runs the text reader into a wire writer, like gotrace raw text2bytes. */
static gtr_status text2bytes(const void *text, size_t n, gtr_buf *out, gtr_err *err)
{
    gtr_input *in = NULL;
    gtr_status st = gtr_input_open_memory(text, n, NULL, &in, err);
    if (st != GTR_OK)
        return st;
    gtr_text_reader *r = NULL;
    gtr_raw_writer *w = NULL;
    if ((st = gtr_text_reader_new(in, NULL, &r, err)) != GTR_OK)
        goto done;
    if ((st = gtr_raw_writer_new(gtr_sink_buf(out), gtr_text_reader_version(r), NULL, &w, err)) !=
        GTR_OK)
        goto done;
    gtr_raw_event ev;
    while ((st = gtr_text_reader_next(r, &ev, err)) == GTR_OK) {
        if ((st = gtr_raw_writer_write(w, &ev, err)) != GTR_OK)
            break;
    }
    if (st == GTR_EOF)
        st = GTR_OK;
    gtr_status fst = gtr_raw_writer_flush(w, NULL);
    if (st == GTR_OK)
        st = fst;
done:
    gtr_raw_writer_free(w);
    gtr_text_reader_free(r);
    gtr_input_free(in);
    return st;
}

static void test_text_reader_go_table_matches(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof text_cases / sizeof text_cases[0]; i++) {
        const text_case *c = &text_cases[i];
        gtr_buf out;
        gtr_buf_init(&out, NULL);
        gtr_err err = GTR_ERR_INIT;
        gtr_err_clear(&err);
        gtr_status st = text2bytes(c->in, strlen(c->in), &out, &err);
        if (c->err == NULL) {
            if (st != GTR_OK)
                fail_msg("%s: unexpected error %s", c->name, err.msg);
        } else {
            if (st >= 0)
                fail_msg("%s: expected error %s", c->name, c->err);
            if (strcmp(err.msg, c->err) != 0)
                fail_msg("%s: error %s, Go says %s", c->name, err.msg, c->err);
        }
        if (out.len != c->out_len || (c->out_len > 0 && memcmp(out.data, c->out, c->out_len) != 0))
            fail_msg("%s: wire output differs (%zu bytes, Go %zu)", c->name, out.len, c->out_len);
        gtr_buf_free(&out);
    }
}

static void test_text_reader_lines_under_scanner_limit_are_read(void **state)
{
    (void)state;
    /* A 65,000-byte data line and a 60,000-byte run of spaces inside an event line: long,
     * but under bufio.Scanner's 64 KiB. */
    size_t dn = 65000, sn = 60000;
    gtr_buf text;
    gtr_buf_init(&text, NULL);
    gtr_buf_puts(&text, "Trace Go1.26\nString id=1\n\tdata=\"");
    for (size_t i = 0; i < dn; i++)
        gtr_buf_putc(&text, (char)('a' + i % 26));
    gtr_buf_puts(&text, "\"\nGoStart dt=1");
    for (size_t i = 0; i < sn; i++)
        gtr_buf_putc(&text, ' ');
    gtr_buf_puts(&text, "g=2 g_seq=3\n");
    assert_int_equal(gtr_buf_status(&text), GTR_OK);

    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(text.data, text.len, NULL, &in, &err), GTR_OK);
    gtr_text_reader *r = NULL;
    assert_int_equal(gtr_text_reader_new(in, NULL, &r, &err), GTR_OK);
    assert_int_equal(gtr_text_reader_version(r), GTR_GO126);
    gtr_raw_event ev;
    assert_int_equal(gtr_text_reader_next(r, &ev, &err), GTR_OK);
    assert_int_equal(ev.type, GTR_EV_STRING);
    assert_int_equal(ev.data_len, dn);
    assert_true(ev.has_data_field);
    assert_int_equal(ev.data[dn - 1], 'a' + (dn - 1) % 26);
    assert_int_equal(gtr_text_reader_next(r, &ev, &err), GTR_OK);
    assert_int_equal(ev.type, GTR_EV_GO_START);
    assert_int_equal(ev.nargs, 3);
    assert_true(ev.args[2] == 3);
    assert_int_equal(gtr_text_reader_next(r, &ev, &err), GTR_EOF);
    assert_string_equal(err.msg, "EOF");
    gtr_text_reader_free(r);
    gtr_input_free(in);
    gtr_buf_free(&text);
}

static void test_text_reader_line_over_scanner_limit_fails(void **state)
{
    (void)state;
    /* A 300 KB data line: Go's scanner gives up at 64 KiB (checked with Go's text reader),
     * and so does this reader, with Go's error, repeated after. */
    size_t dn = 300000;
    gtr_buf text;
    gtr_buf_init(&text, NULL);
    gtr_buf_puts(&text, "Trace Go1.26\nString id=1\n\tdata=\"");
    for (size_t i = 0; i < dn; i++)
        gtr_buf_putc(&text, 'a');
    gtr_buf_puts(&text, "\"\n");
    assert_int_equal(gtr_buf_status(&text), GTR_OK);

    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(text.data, text.len, NULL, &in, &err), GTR_OK);
    gtr_text_reader *r = NULL;
    assert_int_equal(gtr_text_reader_new(in, NULL, &r, &err), GTR_OK);
    gtr_raw_event ev;
    assert_int_equal(gtr_text_reader_next(r, &ev, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "bufio.Scanner: token too long");
    assert_int_equal(gtr_text_reader_next(r, &ev, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "bufio.Scanner: token too long");
    gtr_err_clear(&err);
    gtr_text_reader_free(r);
    gtr_input_free(in);
    gtr_buf_free(&text);
}

static void test_text_writer_header_and_data_quirk(void **state)
{
    (void)state;
    gtr_buf b;
    gtr_buf_init(&b, NULL);
    gtr_text_writer *w = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_text_writer_new(gtr_sink_buf(&b), GTR_GO123, NULL, &w, &err), GTR_OK);
    const uint64_t sid[] = {3};
    /* HasData with nil data (what the wire reader yields for an empty string): no data line,
     * as Go does, so the output cannot be read back. */
    gtr_raw_event s = {.version = GTR_GO123, .type = GTR_EV_STRING, .args = sid, .nargs = 1};
    assert_int_equal(gtr_text_writer_write(w, &s, &err), GTR_OK);
    s.data = (const uint8_t *)"a\"\n\x01\xc3\xa9";
    s.data_len = 6;
    s.has_data_field = true;
    assert_int_equal(gtr_text_writer_write(w, &s, &err), GTR_OK);
    gtr_raw_event other = s;
    other.version = GTR_GO122;
    assert_int_equal(gtr_text_writer_write(w, &other, &err), GTR_E_USAGE);
    assert_string_equal(err.msg,
                        "mismatched version between writer (go 1.23) and event (go 1.22)");
    assert_int_equal(gtr_text_writer_flush(w, &err), GTR_OK);
    assert_string_equal(b.data, "Trace Go1.23\nString id=3\nString id=3\n\tdata=\"a\\\"\\n\\x01"
                                "\xc3\xa9\"\n");
    gtr_text_writer_free(w);

    /* The quirk's consequence: reading that output fails like Go's TextReader. */
    gtr_buf out;
    gtr_buf_init(&out, NULL);
    const char *text = "Trace Go1.23\nString id=3\nString id=4\n\tdata=\"x\"\n";
    assert_int_equal(text2bytes(text, strlen(text), &out, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "malformed data: \"String id=4\"");
    gtr_buf_free(&out);
    gtr_buf_free(&b);
}

static void test_text_reader_errors_are_sticky(void **state)
{
    (void)state;
    const char *text = "Trace Go1.22\nBogus\nGoStart dt=1 g=2 g_seq=3\n";
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(text, strlen(text), NULL, &in, &err), GTR_OK);
    gtr_text_reader *r = NULL;
    assert_int_equal(gtr_text_reader_new(in, NULL, &r, &err), GTR_OK);
    gtr_raw_event ev;
    assert_int_equal(gtr_text_reader_next(r, &ev, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "unidentified event: Bogus");
    assert_int_equal(gtr_text_reader_next(r, &ev, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "unidentified event: Bogus");
    gtr_text_reader_free(r);
    gtr_input_free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_reader_go_table_matches),
        cmocka_unit_test(test_text_reader_lines_under_scanner_limit_are_read),
        cmocka_unit_test(test_text_reader_line_over_scanner_limit_fails),
        cmocka_unit_test(test_text_writer_header_and_data_quirk),
        cmocka_unit_test(test_text_reader_errors_are_sticky),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
