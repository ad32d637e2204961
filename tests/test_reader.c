/* SPDX-License-Identifier: BSD-3-Clause */
/* test_reader.c: the high-level reader on crafted wire-format traces: generation
 * boundaries (spill before Go 1.26, end-of-generation after), the deferred spill error,
 * Sync events, CPU samples, the time fix-up, table ID validation and every error path of
 * batches, tables and the frontier. Each expected message and event count is Go 1.27.3's
 * (see test_reader_util.h for replaying the inputs through Go's reader). */
#include "test_reader_util.h"

#include "base.h"

#define SYNC GTR_EV_SYNC_EVENT

/* gen1_prelude: the frequency batch and, on M 0 at timestamp 100, P 0 running and G 1
 * running; more events can follow in t's current batch before tb_batch(t, gen, 0, 100). */
static void gen_prelude(tb *t, uint64_t gen)
{
    tb_freq(t, gen);
    TB_EV(t, GTR_EV_PROC_STATUS, 1, 0, GTR_PSTATUS_RUNNING);
    TB_EV(t, GTR_EV_GO_STATUS, 1, 1, 0, GTR_GSTATUS_RUNNING);
}

/* ---- Headers. ---- */

static void test_reader_v1_trace_fails(void **state)
{
    (void)state;
    static const char hdr[16] = "go 1.11 trace\0\0";
    rd_result res;
    rd_bytes("v1", hdr, sizeof hdr, &res);
    /* The v1 path (test_tracev1_*): a header alone has no frequency event, as Go says. */
    assert_int_equal(res.st, GTR_E_FORMAT);
    assert_string_equal(res.err.msg, "no EvFrequency event");
}

static void test_reader_header_only_fails_after_sync(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    rd_result res;
    rd_trace("header-only-122", &t, &res);
    rd_expect_error(&res, 1, "no frequency event found");
    tb_free(&t);

    tb_init(&t, 26);
    rd_trace("header-only-126", &t, &res);
    rd_expect_eof(&res, 1);
    assert_int_equal(res.type[0], SYNC);
    tb_free(&t);
}

/* ---- One and two generations. ---- */

static void test_reader_one_generation_ok(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    gen_prelude(&t, 1);
    TB_EV(&t, GTR_EV_HEAP_ALLOC, 2, 4096);
    tb_batch(&t, 1, 0, 100);
    rd_result res;
    rd_trace("one-gen", &t, &res);
    rd_expect_eof(&res, 5);
    /* Sync at freq*minTs: the frequency batch's timestamp 0 does not count as a minimum. */
    assert_int_equal(res.type[0], SYNC);
    assert_int_equal(res.time[0], 6400);
    assert_int_equal(res.arg0[0], 1);
    assert_int_equal(res.type[1], GTR_EV_PROC_STATUS);
    assert_int_equal(res.time[1], 6464);
    assert_int_equal(res.type[2], GTR_EV_GO_STATUS);
    assert_int_equal(res.time[2], 6528);
    assert_int_equal(res.type[3], GTR_EV_HEAP_ALLOC);
    assert_int_equal(res.time[3], 6656);
    assert_int_equal(res.arg0[3], 4096);
    /* The final Sync comes one nanosecond after the last event. */
    assert_int_equal(res.type[4], SYNC);
    assert_int_equal(res.time[4], 6657);
    assert_int_equal(res.arg0[4], 2);
    tb_free(&t);
}

static void test_reader_equal_times_strictly_increase(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    gen_prelude(&t, 1);
    TB_EV(&t, GTR_EV_HEAP_ALLOC, 0, 1);
    TB_EV(&t, GTR_EV_HEAP_ALLOC, 0, 2);
    tb_batch(&t, 1, 0, 100);
    rd_result res;
    rd_trace("equal-times", &t, &res);
    rd_expect_eof(&res, 6);
    assert_int_equal(res.time[3], res.time[2] + 1);
    assert_int_equal(res.time[4], res.time[2] + 2);
    tb_free(&t);
}

static void test_reader_two_generations_spill_ok(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    gen_prelude(&t, 1);
    tb_batch(&t, 1, 0, 100);
    /* Generation 2 starts with its M batch: that batch is spilled while reading gen 1. */
    TB_EV(&t, GTR_EV_PROC_STATUS, 1, 0, GTR_PSTATUS_RUNNING);
    TB_EV(&t, GTR_EV_GO_STATUS, 1, 1, 0, GTR_GSTATUS_RUNNING);
    tb_batch(&t, 2, 0, 200);
    tb_freq(&t, 2);
    rd_result res;
    rd_trace("two-gens-spill", &t, &res);
    rd_expect_eof(&res, 7);
    const uint8_t want[7] = {SYNC, GTR_EV_PROC_STATUS, GTR_EV_GO_STATUS, SYNC,
                             GTR_EV_PROC_STATUS, GTR_EV_GO_STATUS, SYNC};
    for (size_t i = 0; i < 7; i++)
        assert_int_equal(res.type[i], want[i]);
    assert_int_equal(res.arg0[3], 2);
    /* Gen 2's minimum timestamp is its frequency batch's 0 (read after the spilled batch),
     * so its Sync is moved to just after the last event. */
    assert_int_equal(res.time[3], res.time[2] + 1);
    assert_int_equal(res.arg0[6], 3);
    tb_free(&t);
}

static void test_reader_two_generations_end_of_generation_ok(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 26);
    for (uint64_t gen = 1; gen <= 2; gen++) {
        tb_sync(&t, gen, 1000 * (gen - 1) + 50);
        TB_EV(&t, GTR_EV_PROC_STATUS, 1, 0, GTR_PSTATUS_RUNNING);
        tb_batch(&t, gen, 0, 1000 * (gen - 1) + 100);
        tb_end_of_generation(&t);
    }
    rd_result res;
    rd_trace("two-gens-eog", &t, &res);
    rd_expect_eof(&res, 5);
    const uint8_t want[5] = {SYNC, GTR_EV_PROC_STATUS, SYNC, GTR_EV_PROC_STATUS, SYNC};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(res.type[i], want[i]);
    assert_int_equal(res.time[0], 3200);
    assert_int_equal(res.time[2], 1050 * 64);
    tb_free(&t);
}

static void test_reader_truncated_generation_fails(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 26);
    tb_sync(&t, 1, 50);
    TB_EV(&t, GTR_EV_PROC_STATUS, 1, 0, GTR_PSTATUS_RUNNING);
    tb_batch(&t, 1, 0, 100);
    rd_result res;
    rd_trace("truncated-gen", &t, &res);
    rd_expect_error(&res, 1, "incomplete generation found; trace likely truncated");
    assert_int_equal(res.type[0], SYNC);
    tb_free(&t);
}

/* A generation that fails to read after a good one: the good one's events, a Sync without
 * a table, then the error (Go's readGenErr). */
static void test_reader_second_generation_error_after_sync(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 26);
    tb_sync(&t, 1, 50);
    TB_EV(&t, GTR_EV_PROC_STATUS, 1, 0, GTR_PSTATUS_RUNNING);
    tb_batch(&t, 1, 0, 100);
    tb_end_of_generation(&t);
    tb_sync(&t, 2, 150);
    tb_sync(&t, 2, 160);
    tb_end_of_generation(&t);
    rd_result res;
    rd_trace("second-gen-error", &t, &res);
    rd_expect_error(&res, 3, "found multiple frequency events");
    assert_int_equal(res.type[2], SYNC);
    assert_int_equal(res.arg0[2], 2);
    assert_int_equal(res.time[2], res.time[1] + 1);
    tb_free(&t);
}

static void test_reader_interleaved_generations_fail(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 26);
    tb_sync(&t, 1, 50);
    TB_EV(&t, GTR_EV_PROC_STATUS, 1, 0, GTR_PSTATUS_RUNNING);
    tb_batch(&t, 2, 0, 100);
    rd_result res;
    rd_trace("interleaved", &t, &res);
    rd_expect_error(&res, 1,
                    "broken trace: missing end-of-generation event, or generations are "
                    "interleaved");
    tb_free(&t);
}

static void test_reader_generation_zero_fails(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 26);
    tb_sync(&t, 0, 50);
    tb_end_of_generation(&t);
    rd_result res;
    rd_trace("gen-zero-126", &t, &res);
    rd_expect_error(&res, 1, "invalid generation number 0");
    tb_free(&t);

    tb_init(&t, 22);
    tb_freq(&t, 0);
    rd_trace("gen-zero-122", &t, &res);
    rd_expect_error(&res, 1, "invalid generation number 0");
    tb_free(&t);
}

static void test_reader_generations_out_of_order_fail(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    tb_freq(&t, 1);
    tb_freq(&t, 3);
    rd_result res;
    rd_trace("gens-out-of-order", &t, &res);
    rd_expect_error(&res, 1, "generations out of order");
    tb_free(&t);
}

/* The deferred spill error: the generation read so far is delivered, then a Sync, then the
 * error reading the next generation's first batch. */
static void test_reader_spill_error_comes_after_generation(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    gen_prelude(&t, 1);
    tb_batch(&t, 1, 0, 100);
    tb_out_raw(&t, "\x07", 1);
    rd_result res;
    rd_trace("spill-error", &t, &res);
    rd_expect_error(&res, 4, "expected batch event, got event 7");
    assert_int_equal(res.type[3], SYNC);
    tb_free(&t);
}

/* Go's fixture go122-fail-first-gen-first: the first generation fails to order before the
 * broken second generation's error is reported. */
static void test_reader_fail_first_gen_first(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    tb_freq(&t, 1);
    TB_EV(&t, GTR_EV_GO_CREATE, 0, 1, 0, 0);
    tb_batch(&t, 1, 0, 0);
    tb_batch_sized(&t, 2, 0, 0, 50);
    rd_result res;
    rd_trace("fail-first-gen-first", &t, &res);
    rd_expect_error(&res, 1, "expected a proc but didn't have one");
    tb_free(&t);

    /* Without the ordering error the truncated batch is reported, after two Syncs. */
    tb_init(&t, 22);
    tb_freq(&t, 1);
    tb_batch_sized(&t, 2, 0, 0, 50);
    rd_trace("spill-truncated-batch", &t, &res);
    rd_expect_error(&res, 2, "failed to read full batch: read 0 but wanted 50");
    tb_free(&t);
}

static void test_reader_first_batch_error_fails_after_sync(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    tb_out_raw(&t, "\x07", 1);
    rd_result res;
    rd_trace("first-batch-error", &t, &res);
    rd_expect_error(&res, 1, "expected batch event, got event 7");
    tb_free(&t);
}

/* ---- Batch headers. ---- */

static void test_reader_batch_header_errors(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        const char *bytes;
        size_t len;
        const char *msg;
    } cases[] = {
        {"batch-size-too-big", "\x01\x01\x00\x00\x81\x80\x04", 7,
         "invalid batch size 65537, maximum is 65536"},
        {"batch-short", "\x01\x01\x00\x00\x0a\x08\x01\x02", 8,
         "failed to read full batch: read 3 but wanted 10"},
        {"batch-no-m", "\x01\x01", 2, "error reading batch M ID: EOF"},
        {"batch-cut-gen", "\x01\x81", 2, "error reading batch gen: unexpected EOF"},
        {"batch-ts-overflow", "\x01\x01\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 13,
         "error reading batch timestamp: binary: varint overflows a 64-bit integer"},
        {"batch-no-size", "\x01\x01\x00\x00", 4, "error reading batch size: EOF"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb t;
        tb_init(&t, 22);
        tb_out_raw(&t, cases[i].bytes, cases[i].len);
        rd_result res;
        rd_trace(cases[i].name, &t, &res);
        if (cases[i].msg == NULL)
            rd_expect_eof(&res, 1);
        else
            rd_expect_error(&res, 1, cases[i].msg);
        tb_free(&t);
    }
}

/* Go takes an end of input right after an ExperimentalBatch byte for a clean end. */
static void test_reader_eof_after_experimental_byte_is_clean_end(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 23);
    gen_prelude(&t, 1);
    tb_batch(&t, 1, 0, 100);
    tb_out_raw(&t, "\x31", 1);
    rd_result res;
    rd_trace("eof-after-exp-byte", &t, &res);
    rd_expect_eof(&res, 4);
    tb_free(&t);
}

static void test_reader_experimental_batches_reach_table(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 23);
    gen_prelude(&t, 1);
    tb_batch(&t, 1, 0, 100);
    tb_raw(&t, "abc", 3);
    tb_exp_batch(&t, GTR_EXP_ALLOC_FREE, 1, 7, 100);
    tb_raw(&t, "de", 2);
    tb_exp_batch(&t, GTR_EXP_ALLOC_FREE, 1, 8, 100);
    rd_dump("exp-batches", t.out.data, t.out.len);
    gtr_input *in;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(t.out.data, t.out.len, NULL, &in, &err), GTR_OK);
    gtr_reader *r;
    assert_int_equal(gtr_reader_new(in, NULL, &r, &err), GTR_OK);
    assert_int_equal(gtr_reader_go_version(r), GTR_GO123);
    gtr_event ev;
    assert_int_equal(gtr_reader_next(r, &ev, &err), GTR_OK);
    assert_int_equal(ev.type_, SYNC);
    const gtr__exp_batch *eb;
    assert_int_equal(gtr__evt_exp_batches(ev.table_, GTR_EXP_ALLOC_FREE, &eb), 2);
    assert_int_equal(eb[0].thread, 7);
    assert_memory_equal(eb[0].data, "abc", 3);
    assert_int_equal(eb[1].thread, 8);
    assert_int_equal(eb[1].len, 2);
    assert_memory_equal(eb[1].data, "de", 2);
    assert_int_equal(gtr__evt_exp_batches(ev.table_, GTR_EXP_NONE, &eb), 0);
    gtr_reader_free(r);
    gtr_input_free(in);
    tb_free(&t);
}

/* An event batch whose data starts with the EndOfGeneration byte is taken for the end of
 * the generation (Go 1.26+); before Go 1.26 Go reports it as an internal error. */
static void test_reader_end_of_generation_byte_in_batch(void **state)
{
    (void)state;
    tb t;
    rd_result res;

    tb_init(&t, 22);
    tb_freq(&t, 1);
    TB_EV(&t, GTR_EV_END_OF_GENERATION, 1);
    tb_batch(&t, 1, 0, 0);
    rd_trace("eog-byte-122", &t, &res);
    rd_expect_error(&res, 1, "internal error: unexpectedly processing EndOfGeneration; broken "
                             "trace?");
    tb_free(&t);

    tb_init(&t, 26);
    tb_sync(&t, 1, 10);
    TB_EV(&t, GTR_EV_PROC_STATUS, 1, 0, GTR_PSTATUS_RUNNING);
    tb_batch(&t, 1, 0, 20);
    TB_EV(&t, GTR_EV_END_OF_GENERATION, 1);
    tb_batch(&t, 1, 0, 30);
    tb_sync(&t, 2, 40);
    tb_end_of_generation(&t);
    rd_trace("eog-byte-126", &t, &res);
    rd_expect_eof(&res, 4);
    tb_free(&t);
}

/* Experiments the format does not know are kept too, under their number, as Go's reader
 * keeps them (Go's Sync String() then panics indexing its experiment names; ours must not
 * crash). */
static void test_reader_unknown_experiment_kept(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 23);
    gen_prelude(&t, 1);
    tb_batch(&t, 1, 0, 100);
    tb_raw(&t, "xyz", 3);
    tb_exp_batch(&t, 7, 1, 4, 100);
    rd_dump("unknown-exp", t.out.data, t.out.len);
    gtr_input *in;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(t.out.data, t.out.len, NULL, &in, &err), GTR_OK);
    gtr_reader *r;
    assert_int_equal(gtr_reader_new(in, NULL, &r, &err), GTR_OK);
    gtr_event ev;
    /* A NULL err is accepted. */
    assert_int_equal(gtr_reader_next(r, &ev, NULL), GTR_OK);
    const gtr__exp_batch *eb;
    assert_int_equal(gtr__evt_exp_batches(ev.table_, 7, &eb), 1);
    assert_int_equal(eb[0].thread, 4);
    assert_memory_equal(eb[0].data, "xyz", 3);
    assert_int_equal(gtr__evt_exp_batches(ev.table_, 300, &eb), 0);
    size_t n = 1;
    gtr_status st;
    while ((st = gtr_reader_next(r, &ev, NULL)) == GTR_OK)
        n++;
    assert_int_equal(st, GTR_EOF);
    assert_int_equal(n, 4);
    assert_int_equal(gtr_reader_next(r, &ev, &err), GTR_EOF);
    assert_string_equal(err.msg, "EOF");
    gtr_reader_free(r);
    gtr_input_free(in);
    tb_free(&t);
}

static void test_reader_null_arguments_fail(void **state)
{
    (void)state;
    gtr_err err = GTR_ERR_INIT;
    gtr_reader *r = NULL;
    assert_int_equal(gtr_reader_new(NULL, NULL, &r, &err), GTR_E_USAGE);
    assert_null(r);
    gtr_event ev;
    assert_int_equal(gtr_reader_next(NULL, &ev, &err), GTR_E_USAGE);
    gtr_reader_free(NULL);
}

/* ---- Tables. ---- */

static void test_reader_string_batch_errors(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        const char *data;   /* after the Strings byte */
        size_t len;
        const char *msg;
    } cases[] = {
        {"strings-wrong-event", "\x03\x01", 2, "expected string event, got 3"},
        {"strings-too-long", "\x05\x01\x81\x08", 4, "invalid string size 1025, maximum is 1024"},
        {"strings-short", "\x05\x01\x05" "ab", 5, "failed to read full string: read 2 but wanted 5"},
        /* A bare EOF inside a table batch is Go's io.EOF: the trace just ends. */
        {"strings-no-id", "\x05", 1, NULL},
        {"strings-cut-len", "\x05\x01\x80", 3, "unexpected EOF"},
        {"strings-dup", "\x05\x01\x03" "foo\x05\x01\x03" "bar", 12,
         "multiple strings with the same ID: id=1, new=bar, existing=foo"},
        {"strings-id-zero", "\x05\x00\x01x", 4,
         "multiple strings with the same ID: id=0, new=x, existing="},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb t;
        tb_init(&t, 22);
        tb_freq(&t, 1);
        TB_EV0(&t, GTR_EV_STRINGS);
        tb_raw(&t, cases[i].data, cases[i].len);
        tb_batch(&t, 1, 0, 0);
        rd_result res;
        rd_trace(cases[i].name, &t, &res);
        if (cases[i].msg == NULL)
            rd_expect_eof(&res, 1);
        else
            rd_expect_error(&res, 1, cases[i].msg);
        tb_free(&t);
    }
}

static void test_reader_stack_batch_errors(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        const char *data;   /* after the Stacks byte */
        size_t len;
        const char *msg;
    } cases[] = {
        {"stacks-wrong-event", "\x05\x01", 2, "expected stack event, got 5"},
        {"stacks-too-deep", "\x03\x01\x81\x01", 4, "invalid stack size 129, maximum is 128"},
        {"stacks-cut-file", "\x03\x04\x01\x10\x00", 5,
         "reading frame 1's fileID for stack 4: EOF"},
        {"stacks-cut-line", "\x03\x04\x02\x10\x00\x00\x01\x11\x00\x00\x80", 11,
         "reading frame 2's line for stack 4: unexpected EOF"},
        {"stacks-dup", "\x03\x01\x01\x01\x00\x00\x00\x03\x01\x02\x01\x00\x00\x00\x00\x00\x00\x00",
         18, "multiple trace.stacks with the same ID: id=1, new=\t0x1\n\t0x0\n, existing=\t0x1\n"},
        {"stacks-bad-func", "\x03\x01\x01\x10\x09\x00\x00", 7,
         "found invalid func string ID 9 for stack 1"},
        {"stacks-bad-file", "\x03\x01\x01\x10\x00\x09\x00", 7,
         "found invalid file string ID 9 for stack 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb t;
        tb_init(&t, 22);
        tb_freq(&t, 1);
        TB_EV0(&t, GTR_EV_STACKS);
        tb_raw(&t, cases[i].data, cases[i].len);
        tb_batch(&t, 1, 0, 0);
        rd_result res;
        rd_trace(cases[i].name, &t, &res);
        if (cases[i].msg == NULL)
            rd_expect_eof(&res, 1);
        else
            rd_expect_error(&res, 1, cases[i].msg);
        tb_free(&t);
    }
}

static void test_reader_cpu_sample_batch_errors(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        const char *data;   /* after the CPUSamples byte */
        size_t len;
        const char *msg;
    } cases[] = {
        {"cpu-wrong-event", "\x03", 1, "expected CPU sample event, got 3"},
        {"cpu-cut", "\x07\x01\x00\x00", 4, NULL},
        {"cpu-cut-varint", "\x07\x01\x00\x00\x00\x80", 6, "unexpected EOF"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb t;
        tb_init(&t, 22);
        tb_freq(&t, 1);
        TB_EV0(&t, GTR_EV_CPU_SAMPLES);
        tb_raw(&t, cases[i].data, cases[i].len);
        tb_batch(&t, 1, 0, 0);
        rd_result res;
        rd_trace(cases[i].name, &t, &res);
        if (cases[i].msg == NULL)
            rd_expect_eof(&res, 1);
        else
            rd_expect_error(&res, 1, cases[i].msg);
        tb_free(&t);
    }
}

static void test_reader_sync_batch_errors(void **state)
{
    (void)state;
    tb t;
    rd_result res;

    tb_init(&t, 22);
    tb_freq(&t, 1);
    tb_freq(&t, 1);
    rd_trace("two-freqs", &t, &res);
    rd_expect_error(&res, 1, "found multiple frequency events");
    tb_free(&t);

    tb_init(&t, 22);
    TB_EV(&t, GTR_EV_FREQUENCY, 15625000);
    TB_EV(&t, GTR_EV_CLOCK_SNAPSHOT, 1, 2, 3, 4);
    tb_batch(&t, 1, 0, 0);
    rd_trace("snapshot-before-125", &t, &res);
    rd_expect_error(&res, 1, "expected frequency or clock snapshot event, got 51");
    tb_free(&t);

    tb_init(&t, 25);
    tb_sync(&t, 1, 10);
    TB_EV0(&t, GTR_EV_SYNC);
    TB_EV(&t, GTR_EV_CLOCK_SNAPSHOT, 1, 2, 3, 4);
    tb_batch(&t, 1, 0, 10);
    rd_trace("two-snapshots", &t, &res);
    rd_expect_error(&res, 1, "found multiple clock snapshot events");
    tb_free(&t);

    tb_init(&t, 25);
    TB_EV0(&t, GTR_EV_SYNC);
    TB_EV(&t, GTR_EV_FREQUENCY, 15625000);
    tb_batch(&t, 1, 0, 10);
    rd_trace("no-snapshot", &t, &res);
    rd_expect_error(&res, 1, "no clock snapshot event found");
    tb_free(&t);

    tb_init(&t, 25);
    TB_EV0(&t, GTR_EV_SYNC);
    TB_EV(&t, GTR_EV_PROCS_CHANGE, 1, 2, 0);
    tb_batch(&t, 1, 0, 10);
    rd_trace("sync-bad-event", &t, &res);
    rd_expect_error(&res, 1, "expected frequency or clock snapshot event, got 9");
    tb_free(&t);

    tb_init(&t, 22);
    TB_EV0(&t, GTR_EV_FREQUENCY);
    tb_raw(&t, "\x80", 1);
    tb_batch(&t, 1, 0, 0);
    rd_trace("freq-cut", &t, &res);
    rd_expect_error(&res, 1, "unexpected EOF");
    tb_free(&t);
}

/* ---- Events. ---- */

static void test_reader_event_decode_errors(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int version;
        const char *data;
        size_t len;
        const char *msg;
    } cases[] = {
        {"event-invalid-type", 22, "\xc8\x01", 2, "found invalid event type: 200"},
        {"event-untimed", 22, "\x3c\x01", 2, "found event without a timestamp: type=60"},
        {"event-frequency-125", 25, "\x08\x01", 2, "found event without a timestamp: type=8"},
        {"event-bad-ts", 22, "\x0b\x80", 2, "found invalid uvarint for timestamp"},
        {"event-bad-arg", 22, "\x0d\x01\x00", 3, "found invalid uvarint"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb t;
        tb_init(&t, cases[i].version);
        if (cases[i].version >= 25)
            tb_sync(&t, 1, 10);
        else
            tb_freq(&t, 1);
        tb_raw(&t, cases[i].data, cases[i].len);
        tb_batch(&t, 1, 0, 100);
        rd_result res;
        rd_trace(cases[i].name, &t, &res);
        rd_expect_error(&res, 0, cases[i].msg);
        tb_free(&t);
    }
}

/* prelude_then_fails reads a go1.22 trace of gen_prelude and one event of type with args on
 * M 0, and expects reading to end with msg after the prelude's three events (Sync and two
 * statuses). PRELUDE_THEN_FAILS passes the arguments as a list. */
static void prelude_then_fails(const char *name, const char *msg, uint8_t type,
                               const uint64_t *args, size_t n)
{
    tb t;
    rd_result res;
    tb_init(&t, 22);
    gen_prelude(&t, 1);
    tb_evv(&t, type, args, n);
    tb_batch(&t, 1, 0, 100);
    rd_trace(name, &t, &res);
    rd_expect_error(&res, 3, msg);
    tb_free(&t);
}
#define PRELUDE_THEN_FAILS(name, msg, type, ...)                                               \
    prelude_then_fails((name), (msg), (type), (const uint64_t[]){__VA_ARGS__},                \
                       sizeof((const uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t))

static void test_reader_invalid_table_ids_fail(void **state)
{
    (void)state;
    PRELUDE_THEN_FAILS("invalid-string-id",
                       "found invalid string ID 99 for event GoLabel",
                       GTR_EV_GO_LABEL, 1, 99);

    PRELUDE_THEN_FAILS("invalid-stack-id",
                       "found invalid stack ID 7 for event STWBegin",
                       GTR_EV_STW_BEGIN, 1, 0, 7);

    /* GoCreate names two stacks: its own (checked first, as Go's spec lists it) and the new
     * goroutine's. */
    PRELUDE_THEN_FAILS("invalid-new-stack-id",
                       "found invalid stack ID 8 for event GoCreate",
                       GTR_EV_GO_CREATE, 1, 5, 8, 0);

    PRELUDE_THEN_FAILS("invalid-both-stack-ids",
                       "found invalid stack ID 9 for event GoCreate",
                       GTR_EV_GO_CREATE, 1, 5, 8, 9);
}

/* The ordering checks the table IDs of what it queues (Go's ReadEvent checks each event it
 * returns): the types it advances inline with their ID arguments written in, the others from
 * the spec. The error comes in the event's place: after the events queued before it, and
 * after an error reading the next event of its M (Go's ReadEvent returns that first). */
static void test_reader_invalid_table_ids_of_queued_events_fail(void **state)
{
    (void)state;
    tb t;
    rd_result res;

    PRELUDE_THEN_FAILS("invalid-go-stop-stack",
                       "found invalid stack ID 7 for event GoStop",
                       GTR_EV_GO_STOP, 1, 0, 7);

    /* The validator takes a GoStop's and a GoBlock's reason as checked here: it does not
     * look it up again (validate.c, validate_transition). */
    PRELUDE_THEN_FAILS("invalid-go-stop-reason",
                       "found invalid string ID 6 for event GoStop",
                       GTR_EV_GO_STOP, 1, 6, 0);

    PRELUDE_THEN_FAILS("invalid-go-block-reason",
                       "found invalid string ID 5 for event GoBlock",
                       GTR_EV_GO_BLOCK, 1, 5, 0);

    /* A stack ID is checked before a string ID. */
    PRELUDE_THEN_FAILS("invalid-go-block-stack-and-reason",
                       "found invalid stack ID 4 for event GoBlock",
                       GTR_EV_GO_BLOCK, 1, 5, 4);

    /* (A region's name the ordering looks up itself: "invalid string ID %v for %v event".) */
    PRELUDE_THEN_FAILS("invalid-region-stack",
                       "found invalid stack ID 4 for event UserRegionBegin",
                       GTR_EV_USER_REGION_BEGIN, 1, 0, 0, 4);

    /* In its place among the events the ordering queued ahead. */
    tb_init(&t, 22);
    gen_prelude(&t, 1);
    for (uint64_t seq = 1; seq <= 6; seq++) {
        TB_EV(&t, GTR_EV_GO_STOP, 1, 0, 0);
        TB_EV(&t, GTR_EV_GO_START, 1, 1, seq);
    }
    TB_EV(&t, GTR_EV_GO_STOP, 1, 0, 9);
    TB_EV(&t, GTR_EV_GO_START, 1, 1, 7);
    tb_batch(&t, 1, 0, 100);
    rd_trace("invalid-id-after-queued", &t, &res);
    rd_expect_error(&res, 15, "found invalid stack ID 9 for event GoStop");
    tb_free(&t);

    /* The next event of the M cannot be read: that error is the one. */
    tb_init(&t, 22);
    gen_prelude(&t, 1);
    TB_EV(&t, GTR_EV_GO_STOP, 1, 0, 7);
    tb_raw(&t, "\x0d\x01", 2);
    tb_batch(&t, 1, 0, 100);
    rd_trace("invalid-id-then-bad-event", &t, &res);
    rd_expect_error(&res, 3, "found invalid uvarint");
    tb_free(&t);

    /* Advanced past a head that cannot advance (the reader's advance of the rest). */
    tb_init(&t, 22);
    gen_prelude(&t, 1);
    TB_EV(&t, GTR_EV_GO_STOP, 1, 0, 8);
    tb_batch(&t, 1, 0, 100);
    TB_EV(&t, GTR_EV_GO_START, 1, 5, 1);
    tb_batch(&t, 1, 1, 50);
    rd_trace("invalid-id-advancing-the-rest", &t, &res);
    rd_expect_error(&res, 3, "found invalid stack ID 8 for event GoStop");
    tb_free(&t);
}

static void test_reader_failed_to_advance_dumps_state(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    gen_prelude(&t, 1);
    TB_EV(&t, GTR_EV_GO_START, 1, 5, 1);
    tb_batch(&t, 1, 0, 100);
    rd_result res;
    rd_trace("failed-to-advance", &t, &res);
    rd_expect_error(&res, 3,
                    "broken trace: failed to advance: frontier:\n[gen=1]\n\n"
                    "M 0 [GoStart time=6592 g=5 g_seq=1]\n\n"
                    "G 1 [status=Running seq=0 (gen=1)]\n\n"
                    "P 0 [status=Running seq=0 (gen=1)]\n\n"
                    "M 0 [g=1 p=0]\n\n"
                    "GC 0 Undetermined\n\n");
    assert_int_equal(res.st, GTR_E_ORDER);
    tb_free(&t);
}

/* read_ahead_trace starts a version-v trace with gen_prelude, G 2 waiting when g2_waiting,
 * then n HeapAllocs on M 0, one tick apart; the caller adds the rest of the batch. */
static void read_ahead_trace(tb *t, int v, bool g2_waiting, uint64_t n)
{
    tb_init(t, v);
    gen_prelude(t, 1);
    if (g2_waiting)
        TB_EV(t, GTR_EV_GO_STATUS, 1, 2, UINT64_MAX, GTR_GSTATUS_WAITING);
    for (uint64_t i = 0; i < n; i++)
        TB_EV(t, GTR_EV_HEAP_ALLOC, 1, 1000 + i);
}

/* The reader orders up to 64 events ahead of the caller (advance_ahead): an error met there
 * must come after exactly the events Go's ReadEvent returns before it, one call at a time.
 * The events of the step that failed are not among them, even when that step queued several
 * before its cursor failed to decode the next event. */
static void test_reader_error_after_events_read_ahead(void **state)
{
    (void)state;
    tb t;
    rd_result res;

    /* A decode error after 150 events of the same M: several fills of the queue. The last
     * HeapAlloc is not returned: its step is the one that reads the bad event. */
    read_ahead_trace(&t, 22, false, 150);
    tb_raw(&t, "\x0d\x01\x00", 3);
    tb_batch(&t, 1, 0, 100);
    rd_trace("read-ahead-decode-error", &t, &res);
    rd_expect_error(&res, 152, "found invalid uvarint");
    tb_free(&t);

    /* An ordering error after 150 events: a second ProcStop, the P already stopped. */
    read_ahead_trace(&t, 22, false, 150);
    TB_EV(&t, GTR_EV_GO_STOP, 1, 0, 0);
    TB_EV(&t, GTR_EV_PROC_STOP, 1);
    TB_EV(&t, GTR_EV_PROC_STOP, 1);
    tb_batch(&t, 1, 0, 100);
    rd_trace("read-ahead-order-error", &t, &res);
    rd_expect_error(&res, 155, "event ProcStop for proc (-1) that doesn't exist");
    tb_free(&t);

    /* A GoSwitch queues three events (GoUnblock, GoBlock, GoStart), then its cursor fails to
     * decode the next event: the step fails, and none of the three is returned. */
    read_ahead_trace(&t, 23, true, 10);
    TB_EV(&t, GTR_EV_GO_SWITCH, 1, 2, 1);
    tb_raw(&t, "\x0d\x01\x00", 3);
    tb_batch(&t, 1, 0, 100);
    rd_trace("read-ahead-switch-then-decode-error", &t, &res);
    rd_expect_error(&res, 14, "found invalid uvarint");
    tb_free(&t);

    /* The same GoSwitch with the next event whole: all three come out. */
    read_ahead_trace(&t, 23, true, 10);
    TB_EV(&t, GTR_EV_GO_SWITCH, 1, 2, 1);
    TB_EV(&t, GTR_EV_HEAP_ALLOC, 1, 7);
    tb_batch(&t, 1, 0, 100);
    rd_trace("read-ahead-switch-ok", &t, &res);
    rd_expect_eof(&res, 19);
    tb_free(&t);
}

static void test_reader_cpu_samples_injected_by_time(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    gen_prelude(&t, 1);
    TB_EV(&t, GTR_EV_HEAP_ALLOC, 10, 1);
    tb_batch(&t, 1, 0, 100);
    /* Samples at timestamps 105 and 90 (sorted on reading), and one with the stack 0. */
    TB_EV0(&t, GTR_EV_CPU_SAMPLES);
    TB_EV(&t, GTR_EV_CPU_SAMPLE, 105, 0, 0, 1, 0);
    TB_EV(&t, GTR_EV_CPU_SAMPLE, 90, 3, 2, 0, 0);
    tb_batch(&t, 1, 0, 0);
    rd_result res;
    rd_trace("cpu-samples", &t, &res);
    rd_expect_eof(&res, 7);
    const uint8_t want[7] = {SYNC, GTR_EV_CPU_SAMPLE, GTR_EV_PROC_STATUS, GTR_EV_GO_STATUS,
                             GTR_EV_CPU_SAMPLE, GTR_EV_HEAP_ALLOC, SYNC};
    for (size_t i = 0; i < 7; i++)
        assert_int_equal(res.type[i], want[i]);
    assert_int_equal(res.time[1], 90 * 64);
    assert_int_equal(res.time[4], 105 * 64);
    tb_free(&t);
}

/* CPU samples between the events of two Ms, none at an event's time: the reader orders
 * ahead of the caller (advance_ahead), but stops where Go's next ReadEvent would inject a
 * sample, so every event comes out in time order (the order Go's reader gives). */
static void test_reader_cpu_samples_between_read_ahead_events(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    tb_freq(&t, 1);
    /* M 0 from tick 100: P 0 and G 1 running, then a HeapAlloc every 4 ticks (104, 108, ...). */
    TB_EV(&t, GTR_EV_PROC_STATUS, 0, 0, GTR_PSTATUS_RUNNING);
    TB_EV(&t, GTR_EV_GO_STATUS, 0, 1, 0, GTR_GSTATUS_RUNNING);
    for (uint64_t i = 0; i < 60; i++)
        TB_EV(&t, GTR_EV_HEAP_ALLOC, 4, i);
    tb_batch(&t, 1, 0, 100);
    /* M 1 from tick 101: P 1 running, then a HeapAlloc every 4 ticks (105, 109, ...). */
    TB_EV(&t, GTR_EV_PROC_STATUS, 0, 1, GTR_PSTATUS_RUNNING);
    for (uint64_t i = 0; i < 60; i++)
        TB_EV(&t, GTR_EV_HEAP_ALLOC, 4, 1000 + i);
    tb_batch(&t, 1, 1, 101);
    /* 40 samples at ticks 4k+2, in runs and alone, out of order on the wire. */
    static const uint16_t ks[40] = {26, 27, 28, 29, 30, 31, 32, 33, 90, 25, 40, 41, 50, 52,
                                    54, 56, 58, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70,
                                    71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82};
    TB_EV0(&t, GTR_EV_CPU_SAMPLES);
    for (size_t i = 0; i < 40; i++)
        TB_EV(&t, GTR_EV_CPU_SAMPLE, 4 * (uint64_t)ks[i] + 2, 0, 0, 1, 0);
    tb_batch(&t, 1, 0, 0);
    rd_result res;
    rd_trace("cpu-samples-between-read-ahead", &t, &res);
    rd_expect_eof(&res, 1 + 62 + 61 + 40 + 1);
    /* In time order, every event keeps its own time (64 ns a tick): one out of order would
     * have been moved to just after the one before it. (The GoStatus shares P 0's tick, and
     * the Syncs have times of their own.) */
    size_t nsamples = 0;
    for (size_t i = 3; i + 1 < res.n; i++) {
        assert_int_equal(res.time[i] % 64, 0);
        assert_true(res.time[i] > res.time[i - 1]);
        nsamples += res.type[i] == GTR_EV_CPU_SAMPLE;
    }
    assert_int_equal(nsamples, 40);
    tb_free(&t);
}

/* ---- Go's FuzzReader crashers: each ends in EOF or Go's error, never a crash. ---- */

/* A Frequency of 0 makes Go's frequency +Inf (1/(0/1e9)), with no division by zero here.
 * Go's reader (the oracle) on this input: "Sync Time=1 N=1", "Sync Time=2 N=2", then
 * "error reading batch size: EOF". */
static void test_reader_zero_frequency_matches_go(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/fuzz/regressions/reader/frequency-zero-float-divide",
             GTR_SOURCE_DIR);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    unsigned char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    rd_result res;
    rd_bytes("frequency-zero", buf, n, &res);
    assert_int_equal(res.n, 2);
    assert_int_equal(res.type[0], GTR_EV_SYNC_EVENT);
    assert_int_equal(res.time[0], 1);
    assert_int_equal(res.type[1], GTR_EV_SYNC_EVENT);
    assert_int_equal(res.time[1], 2);
    assert_true(res.st < 0);
    assert_string_equal(res.err.msg, "error reading batch size: EOF");
}

static void test_reader_go_fuzz_crashers_match_go(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        size_t nevents;
        const char *msg;   /* NULL: EOF */
    } cases[] = {
        {"0cb1786dee0f090b", 1, "expected frequency or clock snapshot event, got 48"},
        {"1e45307d5b2ec36d", 1, "expected frequency or clock snapshot event, got 48"},
        {"2b05796f9b2fc48d", 1, "expected frequency or clock snapshot event, got 48"},
        {"2b9be9aebe08d511", 1, "expected frequency or clock snapshot event, got 48"},
        {"344331b314da0b08", 1, "expected frequency or clock snapshot event, got 48"},
        {"365d7b5b633b3f97", 1, "expected frequency or clock snapshot event, got 48"},
        {"4055b17cae1a3443", 1, "unexpected event type 36"},   /* go 1.11: FutileWakeup */
        {"4d9ddc909984e871", 1, "expected frequency or clock snapshot event, got 48"},
        {"56f073e57903588c", 1, "expected frequency or clock snapshot event, got 48"},
        {"9d6ee7d3ddf8d566", 1, "expected frequency or clock snapshot event, got 48"},
        {"aeb749b6bc317b66", 1, "expected frequency or clock snapshot event, got 48"},
        {"closing-unknown-region", 5, NULL},
        {"d478e18d2d6756b7", 1, "expected frequency or clock snapshot event, got 48"},
        {"d91203cd397aa0bc", 1, "expected frequency or clock snapshot event, got 48"},
        {"invalid-proc-state", 1, "invalid status for proc 0: 69"},
        {"large-id", 2, NULL},
        {"malformed-timestamp", 0, "found invalid uvarint for timestamp"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/fuzz/regressions/reader/go-%s", GTR_SOURCE_DIR,
                 cases[i].name);
        FILE *f = fopen(path, "rb");
        if (f == NULL)
            fail_msg("cannot open %s", path);
        unsigned char buf[4096];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        rd_result res;
        rd_bytes(cases[i].name, buf, n, &res);
        print_message("%s: %zu events, %s\n", cases[i].name, res.n, res.err.msg);
        if (cases[i].msg == NULL) {
            rd_expect_eof(&res, cases[i].nevents);
        } else {
            assert_true(res.st < 0);
            assert_string_equal(res.err.msg, cases[i].msg);
            assert_int_equal(res.n, cases[i].nevents);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_v1_trace_fails),
        cmocka_unit_test(test_reader_zero_frequency_matches_go),
        cmocka_unit_test(test_reader_header_only_fails_after_sync),
        cmocka_unit_test(test_reader_one_generation_ok),
        cmocka_unit_test(test_reader_equal_times_strictly_increase),
        cmocka_unit_test(test_reader_two_generations_spill_ok),
        cmocka_unit_test(test_reader_two_generations_end_of_generation_ok),
        cmocka_unit_test(test_reader_truncated_generation_fails),
        cmocka_unit_test(test_reader_second_generation_error_after_sync),
        cmocka_unit_test(test_reader_interleaved_generations_fail),
        cmocka_unit_test(test_reader_generation_zero_fails),
        cmocka_unit_test(test_reader_generations_out_of_order_fail),
        cmocka_unit_test(test_reader_spill_error_comes_after_generation),
        cmocka_unit_test(test_reader_fail_first_gen_first),
        cmocka_unit_test(test_reader_first_batch_error_fails_after_sync),
        cmocka_unit_test(test_reader_batch_header_errors),
        cmocka_unit_test(test_reader_eof_after_experimental_byte_is_clean_end),
        cmocka_unit_test(test_reader_experimental_batches_reach_table),
        cmocka_unit_test(test_reader_end_of_generation_byte_in_batch),
        cmocka_unit_test(test_reader_unknown_experiment_kept),
        cmocka_unit_test(test_reader_null_arguments_fail),
        cmocka_unit_test(test_reader_string_batch_errors),
        cmocka_unit_test(test_reader_stack_batch_errors),
        cmocka_unit_test(test_reader_cpu_sample_batch_errors),
        cmocka_unit_test(test_reader_sync_batch_errors),
        cmocka_unit_test(test_reader_event_decode_errors),
        cmocka_unit_test(test_reader_invalid_table_ids_fail),
        cmocka_unit_test(test_reader_invalid_table_ids_of_queued_events_fail),
        cmocka_unit_test(test_reader_failed_to_advance_dumps_state),
        cmocka_unit_test(test_reader_error_after_events_read_ahead),
        cmocka_unit_test(test_reader_cpu_samples_injected_by_time),
        cmocka_unit_test(test_reader_cpu_samples_between_read_ahead_events),
        cmocka_unit_test(test_reader_go_fuzz_crashers_match_go),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
