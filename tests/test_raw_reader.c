/* SPDX-License-Identifier: BSD-3-Clause */
/* test_raw_reader.c: the wire reader and writer (raw.Reader, raw.Writer, raw.Event):
 * a table of inputs whose text output and error Go's raw.Reader + TextWriter produced
 * (gtroracle bytes2text), truncation of a real trace at every byte offset, allocation
 * bounds for absurd lengths, and the writer's Go behaviours. */
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
    size_t in_len;
    const char *err; /* NULL: Go ended cleanly */
    const char *out; /* Go's text output (written before any error) */
} wire_case;

/* Generated from gtroracle bytes2text (Go 1.27.3's raw.Reader and raw.TextWriter). */
static const wire_case wire_cases[] = {
    {"ev_batch",
     "go 1.22 trace\x00\x00\x00\x01\x01\x02\x03\x04", 21,
     NULL,
     "Trace Go1.22\nEventBatch gen=1 m=2 time=3 size=4\n"},
    {"ev_exp_batch",
     "go 1.26 trace\x00\x00\x00""1\x01\x01\x02\x03\x03""abc", 25,
     NULL,
     "Trace Go1.26\nExperimentalBatch exp=1 gen=1 m=2 time=3\n\tdata=\"abc\"\n"},
    {"ev_exp_batch_go123",
     "go 1.23 trace\x00\x00\x00""1\x00\x01\x02\x03\x00", 22,
     NULL,
     "Trace Go1.23\nExperimentalBatch exp=0 gen=1 m=2 time=3\n"},
    {"ev_overflow",
     "go 1.26 trace\x00\x00\x00\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 27,
     "binary: varint overflows a 64-bit integer",
     "Trace Go1.26\n"},
    {"ev_overflow11",
     "go 1.26 trace\x00\x00\x00\x10\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x00", 28,
     "binary: varint overflows a 64-bit integer",
     "Trace Go1.26\n"},
    {"ev_stack",
     "go 1.26 trace\x00\x00\x00\x03\x07\x02\x01\x02\x03\x04\x05\x06\x07\x08", 27,
     NULL,
     "Trace Go1.26\nStack id=7 nframes=2\n\tpc=1 func=2 file=3 line=4\n\tpc=5 func=6 file=7 line=8\n"},
    {"ev_stack_huge",
     "go 1.26 trace\x00\x00\x00\x03\x07\x80\x80\x80\x80\x80 \x01\x02\x03\x04\x05", 29,
     NULL,
     "Trace Go1.26\n"},
    {"ev_stack_huge2",
     "go 1.26 trace\x00\x00\x00\x03\x07\x80\x80\x80\x80\x80 \x01\x02\x03\x04\x85", 29,
     "unexpected EOF",
     "Trace Go1.26\n"},
    {"ev_stack_neg",
     "go 1.26 trace\x00\x00\x00\x03\x07\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01\x02", 29,
     NULL,
     "Trace Go1.26\nStack id=7 nframes=9223372036854775808\nStacks\n"},
    {"ev_string",
     "go 1.26 trace\x00\x00\x00\x05\x01\x05h\xffl\x00o\x05\x02\x00", 27,
     NULL,
     "Trace Go1.26\nString id=1\n\tdata=\"h\\xffl\\x00o\"\nString id=2\n"},
    {"ev_string_huge_len",
     "go 1.26 trace\x00\x00\x00\x05\x01\x80\x80\x80\x80\x80 abc", 27,
     NULL,
     "Trace Go1.26\n"},
    {"ev_string_neg_len",
     "go 1.26 trace\x00\x00\x00\x05\x01\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01\x04", 29,
     NULL,
     "Trace Go1.26\nString id=1\nStrings\n"},
    {"ev_string_trunc_data",
     "go 1.26 trace\x00\x00\x00\x05\x01\x05hel", 22,
     NULL,
     "Trace Go1.26\n"},
    {"ev_string_trunc_len",
     "go 1.26 trace\x00\x00\x00\x05\x01", 18,
     NULL,
     "Trace Go1.26\n"},
    {"ev_trunc_at_arg",
     "go 1.26 trace\x00\x00\x00\x10\x05", 18,
     NULL,
     "Trace Go1.26\n"},
    {"ev_trunc_mid_varint",
     "go 1.26 trace\x00\x00\x00\x10\x85", 18,
     "unexpected EOF",
     "Trace Go1.26\n"},
    {"ev_type0",
     "go 1.26 trace\x00\x00\x00\x00", 17,
     "invalid event type: 0",
     "Trace Go1.26\n"},
    {"ev_type127",
     "go 1.26 trace\x00\x00\x00\x7f", 17,
     NULL,
     "Trace Go1.26\n\n"},
    {"ev_type128_go125",
     "go 1.25 trace\x00\x00\x00\x80", 17,
     "invalid event type: 128",
     "Trace Go1.25\n"},
    {"ev_type137",
     "go 1.26 trace\x00\x00\x00\x89", 17,
     "invalid event type: 137",
     "Trace Go1.26\n"},
    {"ev_type45_go122",
     "go 1.22 trace\x00\x00\x00-", 17,
     "invalid event type: 45",
     "Trace Go1.22\n"},
    {"ev_type53",
     "go 1.26 trace\x00\x00\x00""55", 18,
     NULL,
     "Trace Go1.26\n\n\n"},
    {"h_11_empty",
     "go 1.11 trace\x00\x00\x00", 16,
     NULL,
     "Trace Go1.11\n"},
    {"h_11_ev",
     "go 1.11 trace\x00\x00\x00\x01", 17,
     "invalid event type: 1",
     "Trace Go1.11\n"},
    {"h_24",
     "go 1.24 trace\x00\x00\x00", 16,
     "unknown or unsupported trace version go 1.24",
     ""},
    {"h_4294967295",
     "go 1.4294967295 trace\x00\x00\x00", 24,
     "unknown or unsupported trace version go 1.4294967295",
     ""},
    {"h_5",
     "go 1.5 trace\x00\x00\x00", 15,
     "unknown or unsupported trace version go 1.5",
     ""},
    {"h_bad_utf8",
     "go\xff""1.22 trace\x00\x00\x00", 16,
     "bad file format: not a Go execution trace?",
     ""},
    {"h_cr",
     "go 1.\r22 trace\x00\x00\x00", 17,
     NULL,
     "Trace Go1.22\n"},
    {"h_crlf",
     "go 1.\r\n22 trace\x00\x00\x00", 18,
     "bad file format: not a Go execution trace?",
     ""},
    {"h_empty",
     "", 0,
     "bad file format: not a Go execution trace?",
     ""},
    {"h_ideo",
     "go\xe3\x80\x80""1.22\xe2\x80\x83trace\x00\x00\x00", 20,
     NULL,
     "Trace Go1.22\n"},
    {"h_leading_zero",
     "go 1.0022 trace\x00\x00\x00", 18,
     NULL,
     "Trace Go1.22\n"},
    {"h_max32_plus22",
     "go 1.4294967296 trace\x00\x00\x00", 24,
     "bad file format: not a Go execution trace?",
     ""},
    {"h_minus",
     "go 1.-22 trace\x00\x00\x00", 17,
     "bad file format: not a Go execution trace?",
     ""},
    {"h_nbsp",
     "go\xc2\xa0""1.22 trace\x00\x00\x00", 17,
     NULL,
     "Trace Go1.22\n"},
    {"h_nel",
     "go\xc2\x85""1.22 trace\x00\x00\x00", 17,
     NULL,
     "Trace Go1.22\n"},
    {"h_newline",
     "go\n1.22 trace\x00\x00\x00", 16,
     "bad file format: not a Go execution trace?",
     ""},
    {"h_newline2",
     "go 1.\n22 trace\x00\x00\x00", 17,
     "bad file format: not a Go execution trace?",
     ""},
    {"h_nospace",
     "go 1.22trace\x00\x00\x00", 15,
     "bad file format: not a Go execution trace?",
     ""},
    {"h_nulls_missing",
     "go 1.22 trace", 13,
     "bad file format: not a Go execution trace?",
     ""},
    {"h_ok",
     "go 1.22 trace\x00\x00\x00", 16,
     NULL,
     "Trace Go1.22\n"},
    {"h_overflow32",
     "go 1.4294967318 trace\x00\x00\x00", 24,
     "bad file format: not a Go execution trace?",
     ""},
    {"h_overflow64",
     "go 1.99999999999999999999999 trace\x00\x00\x00", 37,
     "bad file format: not a Go execution trace?",
     ""},
    {"h_plus",
     "go 1.+22 trace\x00\x00\x00", 17,
     "bad file format: not a Go execution trace?",
     ""},
    {"h_space_before_num",
     "go 1. \t22 trace\x00\x00\x00", 18,
     NULL,
     "Trace Go1.22\n"},
    {"h_spaces",
     "go   1.22   trace\x00\x00\x00", 20,
     NULL,
     "Trace Go1.22\n"},
    {"h_tabs",
     "go\t1.22\x0b\x0ctrace\x00\x00\x00", 17,
     NULL,
     "Trace Go1.22\n"},
    {"h_trailing_space_eof",
     "go 1.22 ", 8,
     "bad file format: not a Go execution trace?",
     ""},
    {"h_trunc",
     "go 1.26 trace\x00\x00", 15,
     "bad file format: not a Go execution trace?",
     ""},
};

/* bytes2text runs the wire reader into a text writer, like gotrace raw bytes2text. Returns
 * the final status (GTR_OK at a clean end) with err filled. */
static gtr_status bytes2text(const void *in_bytes, size_t n, const gtr_alloc *alc, gtr_buf *out,
                             gtr_err *err)
{
    gtr_input *in = NULL;
    gtr_status st = gtr_input_open_memory(in_bytes, n, alc, &in, err);
    if (st != GTR_OK)
        return st;
    gtr_raw_reader *r = NULL;
    gtr_text_writer *w = NULL;
    if ((st = gtr_raw_reader_new(in, alc, &r, err)) != GTR_OK)
        goto done;
    if ((st = gtr_text_writer_new(gtr_sink_buf(out), gtr_raw_reader_version(r), alc, &w, err)) !=
        GTR_OK)
        goto done;
    gtr_raw_event ev;
    while ((st = gtr_raw_reader_next(r, &ev, err)) == GTR_OK) {
        if ((st = gtr_text_writer_write(w, &ev, err)) != GTR_OK)
            break;
    }
    if (st == GTR_EOF)
        st = GTR_OK;
    gtr_status fst = gtr_text_writer_flush(w, NULL);
    if (st == GTR_OK)
        st = fst;
done:
    gtr_text_writer_free(w);
    gtr_raw_reader_free(r);
    gtr_input_free(in);
    return st;
}

static void test_raw_reader_go_table_matches(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof wire_cases / sizeof wire_cases[0]; i++) {
        const wire_case *c = &wire_cases[i];
        gtr_buf out;
        gtr_buf_init(&out, NULL);
        gtr_err err = GTR_ERR_INIT;
        gtr_err_clear(&err);
        gtr_status st = bytes2text(c->in, c->in_len, NULL, &out, &err);
        if (c->err == NULL) {
            if (st != GTR_OK)
                fail_msg("%s: unexpected error %s", c->name, err.msg);
        } else {
            if (st >= 0)
                fail_msg("%s: expected error %s", c->name, c->err);
            if (strcmp(err.msg, c->err) != 0)
                fail_msg("%s: error %s, Go says %s", c->name, err.msg, c->err);
        }
        size_t want = strlen(c->out);
        if (out.len != want || (want > 0 && memcmp(out.data, c->out, want) != 0))
            fail_msg("%s: output differs:\n%s\nGo:\n%s", c->name, out.data ? out.data : "",
                     c->out);
        gtr_buf_free(&out);
    }
}

/* A counting allocator: tracks the largest single request and the live total. */
typedef struct {
    size_t max_request;
} count_ctx;

static void *c_malloc(void *ctx, size_t n)
{
    count_ctx *c = ctx;
    if (n > c->max_request)
        c->max_request = n;
    return malloc(n ? n : 1);
}

static void *c_realloc(void *ctx, void *p, size_t n)
{
    count_ctx *c = ctx;
    if (n > c->max_request)
        c->max_request = n;
    return realloc(p, n ? n : 1);
}

static void c_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static void test_raw_reader_absurd_lengths_allocate_little(void **state)
{
    (void)state;
    /* nframes = 2^40 and a data length of 2^40, with a few bytes behind them. */
    static const char stack[] =
        "go 1.26 trace\0\0\0\x03\x07\x80\x80\x80\x80\x80\x20\x01\x02\x03\x04";
    static const char data[] = "go 1.26 trace\0\0\0\x05\x01\x80\x80\x80\x80\x80\x20" "abc";
    const struct {
        const char *b;
        size_t n;
    } in[] = {{stack, sizeof stack - 1}, {data, sizeof data - 1}};
    for (size_t i = 0; i < 2; i++) {
        count_ctx c = {0};
        gtr_alloc a = {c_malloc, c_realloc, c_free, &c};
        gtr_buf out;
        gtr_buf_init(&out, NULL);
        gtr_err err = GTR_ERR_INIT;
        /* Go reads to the end of input and reports io.EOF: a clean (empty) end. */
        assert_int_equal(bytes2text(in[i].b, in[i].n, &a, &out, &err), GTR_OK);
        assert_string_equal(out.data, "Trace Go1.26\n");
        assert_true(c.max_request < (1u << 20));
        gtr_buf_free(&out);
    }
}

static uint8_t *slurp_gz(const char *path, size_t *n)
{
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_path(path, NULL, &in, &err), GTR_OK);
    char *data = NULL;
    *n = 0;
    assert_int_equal(gtr_input_read_all(in, &data, n, &err), GTR_OK);
    gtr_input_free(in);
    return (uint8_t *)data;
}

static void test_raw_reader_truncated_at_every_offset_never_crashes(void **state)
{
    (void)state;
    size_t n;
    uint8_t *trace =
        slurp_gz(GTR_SOURCE_DIR "/corpus/real/go1.22-testprog-annotations-stress.trace.gz", &n);
    assert_true(n > 1000);
    gtr_buf full;
    gtr_buf_init(&full, NULL);
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(bytes2text(trace, n, NULL, &full, &err), GTR_OK);
    size_t clean = 0, failed = 0;
    gtr_buf out;
    gtr_buf_init(&out, NULL);
    for (size_t k = 0; k <= n; k++) {
        gtr_buf_reset(&out);
        gtr_err_clear(&err);
        /* A heap copy of exactly k bytes, so ASan sees any over-read. */
        uint8_t *cut = malloc(k ? k : 1);
        memcpy(cut, trace, k);
        gtr_status st = bytes2text(cut, k, NULL, &out, &err);
        free(cut);
        if (k < 16) {
            assert_int_equal(st, GTR_E_FORMAT);
            assert_string_equal(err.msg, "bad file format: not a Go execution trace?");
            continue;
        }
        /* The events read are a prefix of the full trace's events. */
        assert_true(out.len <= full.len);
        assert_memory_equal(out.data, full.data, out.len);
        if (st == GTR_OK) {
            clean++;
        } else {
            assert_int_equal(st, GTR_E_FORMAT);
            assert_string_equal(err.msg, "unexpected EOF");
            failed++;
        }
    }
    /* Cuts between or inside arguments: both kinds must have happened. */
    assert_true(clean > 100 && failed > 100);
    gtr_buf_free(&out);
    gtr_buf_free(&full);
    free(trace);
}

static void test_raw_writer_writes_spec_args_frames_and_data(void **state)
{
    (void)state;
    gtr_buf b;
    gtr_buf_init(&b, NULL);
    gtr_raw_writer *w = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_raw_writer_new(gtr_sink_buf(&b), GTR_GO126, NULL, &w, &err), GTR_OK);
    /* GoStart with a surplus fourth arg: Go writes only len(spec.Args). */
    const uint64_t go_start[] = {1, 2, 300, 99};
    gtr_raw_event ev = {.version = GTR_GO126, .type = GTR_EV_GO_START, .args = go_start,
                        .nargs = 4};
    assert_int_equal(gtr_raw_event_encoded_size(&ev), 1 + 1 + 1 + 2 + 1);
    assert_int_equal(gtr_raw_writer_write(w, &ev, &err), GTR_OK);
    /* A stack: every value after the spec args is a frame value. */
    const uint64_t stack[] = {7, 1, 0x401000, 2, 3, 128};
    gtr_raw_event st = {.version = GTR_GO126, .type = GTR_EV_STACK, .args = stack, .nargs = 6};
    assert_int_equal(gtr_raw_event_encoded_size(&st), 1 + 1 + 1 + 4 + 1 + 1 + 2);
    assert_int_equal(gtr_raw_writer_write(w, &st, &err), GTR_OK);
    /* A string with data, and one without: the length is always written. */
    const uint64_t sid[] = {5};
    gtr_raw_event s = {.version = GTR_GO126, .type = GTR_EV_STRING, .args = sid, .nargs = 1,
                       .data = (const uint8_t *)"hi", .data_len = 2, .has_data_field = true};
    assert_int_equal(gtr_raw_event_encoded_size(&s), 1 + 1 + 1 + 2);
    assert_int_equal(gtr_raw_writer_write(w, &s, &err), GTR_OK);
    gtr_raw_event e = {.version = GTR_GO126, .type = GTR_EV_STRING, .args = sid, .nargs = 1};
    assert_int_equal(gtr_raw_writer_write(w, &e, &err), GTR_OK);
    assert_int_equal(gtr_raw_writer_flush(w, &err), GTR_OK);
    static const char want[] = "go 1.26 trace\0\0\0"
                               "\x10\x01\x02\xac\x02"
                               "\x03\x07\x01\x80\xa0\x80\x02\x02\x03\x80\x01"
                               "\x05\x05\x02hi"
                               "\x05\x05\x00";
    assert_int_equal(b.len, sizeof want - 1);
    assert_memory_equal(b.data, want, sizeof want - 1);

    /* Mismatched version: Go's message. */
    gtr_raw_event old = ev;
    old.version = GTR_GO122;
    assert_int_equal(gtr_raw_writer_write(w, &old, &err), GTR_E_USAGE);
    assert_string_equal(err.msg,
                        "mismatched version between writer (go 1.26) and event (go 1.22)");
    /* Too few args (Go panics): refused. */
    gtr_raw_event few = ev;
    few.nargs = 2;
    assert_int_equal(gtr_raw_writer_write(w, &few, &err), GTR_E_USAGE);
    gtr_raw_writer_free(w);
    gtr_buf_free(&b);

    /* Type outside the writer version's table (Go panics): refused. */
    gtr_buf_init(&b, NULL);
    assert_int_equal(gtr_raw_writer_new(gtr_sink_buf(&b), GTR_GO122, NULL, &w, &err), GTR_OK);
    gtr_raw_event sw = {.version = GTR_GO122, .type = GTR_EV_GO_SWITCH, .args = go_start,
                        .nargs = 4};
    assert_int_equal(gtr_raw_writer_write(w, &sw, &err), GTR_E_USAGE);
    gtr_raw_writer_free(w);
    assert_int_equal(b.len, 16); /* just the header, flushed by free */
    gtr_buf_free(&b);
}

static void test_raw_event_string_formats_like_go(void **state)
{
    (void)state;
    gtr_buf b;
    gtr_buf_init(&b, NULL);
    const uint64_t stack[] = {7, 2, 1, 2, 3, 4, 5, 6, 7, 8};
    gtr_raw_event st = {.version = GTR_GO122, .type = GTR_EV_STACK, .args = stack, .nargs = 10};
    assert_int_equal(gtr_raw_event_string(&st, &b), GTR_OK);
    assert_string_equal(b.data, "Stack id=7 nframes=2\n\tpc=1 func=2 file=3 line=4\n\tpc=5 "
                                "func=6 file=7 line=8");
    gtr_buf_reset(&b);
    const uint64_t sid[] = {1};
    gtr_raw_event s = {.version = GTR_GO122, .type = GTR_EV_STRING, .args = sid, .nargs = 1,
                       .data = (const uint8_t *)"", .data_len = 0, .has_data_field = true};
    assert_int_equal(gtr_raw_event_string(&s, &b), GTR_OK);
    assert_string_equal(b.data, "String id=1\n\tdata=\"\"");
    gtr_buf_reset(&b);
    s.has_data_field = false; /* Go's nil Data: no data line */
    assert_int_equal(gtr_raw_event_string(&s, &b), GTR_OK);
    assert_string_equal(b.data, "String id=1");
    gtr_buf_reset(&b);
    gtr_raw_event bad = {.version = GTR_GO122, .type = GTR_EV_GO_SWITCH, .args = sid, .nargs = 1};
    assert_int_equal(gtr_raw_event_string(&bad, &b), GTR_E_USAGE);
    gtr_buf_free(&b);
}

static void test_raw_reader_errors_are_sticky(void **state)
{
    (void)state;
    static const char in_bytes[] = "go 1.22 trace\0\0\0\x2d\x10\x01\x02\x03";
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(in_bytes, sizeof in_bytes - 1, NULL, &in, &err),
                     GTR_OK);
    gtr_raw_reader *r = NULL;
    assert_int_equal(gtr_raw_reader_new(in, NULL, &r, &err), GTR_OK);
    assert_int_equal(gtr_raw_reader_version(r), GTR_GO122);
    gtr_raw_event ev;
    assert_int_equal(gtr_raw_reader_next(r, &ev, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "invalid event type: 45");
    gtr_err_clear(&err);
    assert_int_equal(gtr_raw_reader_next(r, &ev, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "invalid event type: 45");
    gtr_raw_reader_free(r);
    gtr_input_free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_reader_go_table_matches),
        cmocka_unit_test(test_raw_reader_absurd_lengths_allocate_little),
        cmocka_unit_test(test_raw_reader_truncated_at_every_offset_never_crashes),
        cmocka_unit_test(test_raw_writer_writes_spec_args_frames_and_data),
        cmocka_unit_test(test_raw_event_string_formats_like_go),
        cmocka_unit_test(test_raw_reader_errors_are_sticky),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
