/* SPDX-License-Identifier: BSD-3-Clause */
/* test_testgen.c: the tgen DSL: interning, batch sizes, argument checking, the generation
 * layout of each format version, timestamps and expectations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "budget_alloc.h"
#include "gtr/raw.h"
#include "tgen/tgen.h"

/* generate runs tgen_generate and returns the whole .test text (caller frees). */
static char *generate(tgen_trace *t, gtr_status want, gtr_err *err)
{
    gtr_buf out = {0};
    gtr_status st;
    gtr_err_clear(err);
    st = tgen_generate(t, &out, err);
    assert_int_equal(st, want);
    if (st < 0) {
        gtr_buf_free(&out);
        return NULL;
    }
    return gtr_buf_take(&out, NULL);
}

/* trace_section returns the text after "-- trace --\n" in a generated file. */
static const char *trace_section(const char *file)
{
    const char *p = strstr(file, "-- trace --\n");
    assert_non_null(p);
    return p + strlen("-- trace --\n");
}

/* expect_error generates t and checks that it fails with exactly msg. */
static void expect_error(tgen_trace *t, const char *msg)
{
    gtr_err err = GTR_ERR_INIT;
    assert_null(generate(t, GTR_E_USAGE, &err));
    assert_string_equal(err.msg, msg);
    assert_int_equal(tgen_trace_status(t, &err), GTR_E_USAGE);
    assert_string_equal(err.msg, msg);
}

static tgen_batch *running_g1(tgen_trace *t, uint64_t gen, uint64_t time)
{
    tgen_gen *g = tgen_generation(t, gen);
    tgen_batch *b = tgen_batch_new(g, 0, time);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    return b;
}

static void test_testgen_string_interning_ids_in_first_use_order(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_gen *g = tgen_generation(t, 1);
    (void)state;
    assert_int_equal(tgen_string(g, ""), 0);
    assert_int_equal(tgen_string(g, "b"), 1);
    assert_int_equal(tgen_string(g, "a"), 2);
    assert_int_equal(tgen_string(g, "b"), 1);
    assert_int_equal(tgen_string_n(g, "a\0b", 3), 3);
    assert_int_equal(tgen_string_n(g, "a\0c", 3), 4);
    assert_int_equal(tgen_string_n(g, "a\0b", 3), 3);
    /* Each generation has its own table. */
    assert_int_equal(tgen_string(tgen_generation(t, 2), "a"), 1);
    assert_int_equal(tgen_trace_status(t, NULL), GTR_OK);
    tgen_trace_free(t);
}

static void test_testgen_stack_interning_compares_every_frame(void **state)
{
    static const tgen_frame a[] = {{1, "f", "f.go", 10}, {2, "main", "m.go", 3}};
    static const tgen_frame b[] = {{1, "f", "f.go", 10}, {2, "main", "m.go", 4}};
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_gen *g = tgen_generation(t, 1);
    (void)state;
    assert_int_equal(tgen_stack(g, NULL, 0), 0);
    assert_int_equal(tgen_stack(g, a, 2), 1);
    assert_int_equal(tgen_stack(g, b, 2), 2);
    assert_int_equal(tgen_stack(g, a, 1), 3);
    assert_int_equal(tgen_stack(g, a, 2), 1);
    assert_int_equal(tgen_trace_status(t, NULL), GTR_OK);
    tgen_trace_free(t);
}

static void test_testgen_stack_frames_interned_after_other_strings(void **state)
{
    static const tgen_frame fr[] = {{0x100, "main.f", "/x.go", 7}};
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_batch *b = running_g1(t, 1, 0);
    gtr_err err = GTR_ERR_INIT;
    char *out;
    (void)state;
    tgen_event(b, "GoStop", TG_STR("why"), TG_STACK(fr, 1));
    tgen_event(b, "ProcStop");
    out = generate(t, GTR_OK, &err);
    assert_non_null(strstr(out, "Stack id=1 nframes=1\n\tpc=256 func=2 file=3 line=7\n"));
    assert_non_null(strstr(out, "String id=1\n\tdata=\"why\"\nString id=2\n\tdata=\"main.f\"\n"
                                "String id=3\n\tdata=\"/x.go\"\n"));
    free(out);
    tgen_trace_free(t);
}

static void test_testgen_stack_too_big_fails(void **state)
{
    tgen_frame fr[33];
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_batch *b = running_g1(t, 1, 0);
    (void)state;
    for (size_t i = 0; i < 33; i++)
        fr[i] = (tgen_frame){i + 1, "f", "f.go", i};
    assert_int_not_equal(tgen_stack(tgen_generation(t, 2), fr, 32), 0);
    tgen_event(b, "GoStop", TG_STR("x"), TG_STACK(fr, 33));
    expect_error(t, "stack too big for test");
    tgen_trace_free(t);
}

/* check_batch_sizes reads the text trace back and checks that every batch's size field is the
 * encoded size of the events that follow it. Returns the number of batches. */
static size_t check_batch_sizes(const char *text)
{
    gtr_input *in = NULL;
    gtr_text_reader *r = NULL;
    gtr_raw_event ev;
    gtr_err err = GTR_ERR_INIT;
    gtr_status st;
    uint64_t want = 0, got = 0;
    size_t nbatches = 0;
    bool open = false;

    assert_int_equal(gtr_input_open_memory(text, strlen(text), NULL, &in, &err), GTR_OK);
    assert_int_equal(gtr_text_reader_new(in, NULL, &r, &err), GTR_OK);
    while ((st = gtr_text_reader_next(r, &ev, &err)) == GTR_OK) {
        if (ev.type == GTR_EV_EVENT_BATCH || ev.type == GTR_EV_END_OF_GENERATION) {
            if (open)
                assert_int_equal(got, want);
            open = ev.type == GTR_EV_EVENT_BATCH;
            if (open) {
                nbatches++;
                want = ev.args[3];
                got = 0;
            }
            continue;
        }
        assert_true(open);
        got += gtr_raw_event_encoded_size(&ev);
    }
    assert_int_equal(st, GTR_EOF);
    if (open)
        assert_int_equal(got, want);
    gtr_text_reader_free(r);
    gtr_input_free(in);
    return nbatches;
}

static void test_testgen_batch_sizes_equal_encoded_size(void **state)
{
    static const tgen_frame fr[] = {{0xdeadbeef, "main.main", "/a/very/long/path.go", 100000}};
    gtr_go_version versions[] = {GTR_GO122, GTR_GO123, GTR_GO125, GTR_GO126};
    (void)state;
    for (size_t v = 0; v < 4; v++) {
        tgen_trace *t = tgen_trace_new(versions[v], NULL);
        tgen_batch *b = running_g1(t, 1, 1000);
        gtr_err err = GTR_ERR_INIT;
        char *out;
        if (versions[v] >= GTR_GO125)
            tgen_sync(tgen_generation(t, 2), 1000000000, 500000, 1u << 20,
                      TGEN_WALL(1767225600, 5));
        tgen_event(b, "UserTaskBegin", TG_TASK(300), TG_TASK(0), TG_STR("t\xc3\xa9\xff"),
                   TG_STACK(fr, 1));
        tgen_event(b, "HeapAlloc", TG_VALUE(UINT64_MAX));
        tgen_event(b, "GoStop", TG_STR(""), TG_NOSTACK);
        out = generate(t, GTR_OK, &err);
        assert_true(check_batch_sizes(trace_section(out)) >= 4);
        free(out);
        tgen_trace_free(t);
    }
}

static void test_testgen_strings_batch_split_past_half_max_size(void **state)
{
    char s[32];
    size_t split, whole;
    gtr_err err = GTR_ERR_INIT;
    char *out;
    (void)state;
    for (int ignore = 0; ignore < 2; ignore++) {
        tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
        tgen_gen *g = tgen_generation(t, 1);
        if (ignore)
            tgen_ignore_string_batch_size_limit(g);
        for (int i = 0; i < 4000; i++) {
            snprintf(s, sizeof s, "string number %d", i);
            tgen_string(g, s);
        }
        out = generate(t, GTR_OK, &err);
        if (ignore)
            whole = check_batch_sizes(trace_section(out));
        else
            split = check_batch_sizes(trace_section(out));
        free(out);
        tgen_trace_free(t);
    }
    /* Frequency, Stacks and one Strings batch; ~84 KiB of strings split in 3. */
    assert_int_equal(whole, 3);
    assert_int_equal(split, 5);
}

static void test_testgen_event_unknown_name_fails(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_batch *b = running_g1(t, 1, 0);
    (void)state;
    tgen_event(b, "GoSwitch", TG_G(2), TG_SEQ(1)); /* Go 1.23 */
    expect_error(t, "invalid or unknown event GoSwitch");
    tgen_trace_free(t);
}

static void test_testgen_event_arity_names_event(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_batch *b = tgen_batch_new(tgen_generation(t, 1), 0, 0);
    (void)state;
    tgen_event(b, "ProcStatus", TG_P(0));
    expect_error(t, "expected 2 args for ProcStatus, got 1");
    tgen_trace_free(t);
}

static void test_testgen_event_arg_kind_names_event_and_argument(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_batch *b = running_g1(t, 1, 0);
    (void)state;
    tgen_event(b, "GoStart", TG_G(2), TG_G(1));
    expect_error(t, "GoStart: argument 2 (g_seq) takes TG_SEQ, got TG_G");
    tgen_trace_free(t);
}

static void test_testgen_event_unsupported_arg_type_fails(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_batch *b = tgen_batch_new(tgen_generation(t, 1), 0, 0);
    (void)state;
    tgen_event(b, "Frequency", TG_VALUE(1));
    expect_error(t, "unsupported arg type \"freq\" for spec \"freq\"");
    tgen_trace_free(t);
}

static void test_testgen_raw_arity_checked_except_stack(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_batch *b = tgen_batch_new(tgen_generation(t, 1), 0, 0);
    gtr_err err = GTR_ERR_INIT;
    char *out;
    (void)state;
    tgen_raw(b, GTR_EV_STACK, 1, 1, 10, 0, 0, 5); /* id, nframes, one frame */
    assert_int_equal(tgen_trace_status(t, NULL), GTR_OK);
    tgen_raw(b, GTR_EV_PROC_STATUS, 1, 0);
    expect_error(t, "expected 3 args for ProcStatus, got 2");
    tgen_trace_free(t);

    t = tgen_trace_new(GTR_GO122, NULL);
    tgen_trace_raw(t, GTR_EV_FREQUENCY);
    expect_error(t, "expected 1 args for Frequency, got 0");
    tgen_trace_free(t);

    t = tgen_trace_new(GTR_GO122, NULL);
    tgen_trace_raw(t, GTR_EV_CLOCK_SNAPSHOT, 1, 2, 3, 4); /* Go 1.25 */
    expect_error(t, "tgen: invalid event type 51 for go1.22 traces");
    tgen_trace_free(t);

    /* Raw events are written as given: dt included, the clock untouched. */
    t = tgen_trace_new(GTR_GO122, NULL);
    b = tgen_batch_new(tgen_generation(t, 1), 0, 7);
    tgen_raw(b, GTR_EV_PROC_STATUS, 40, 0, GTR_PSTATUS_IDLE);
    out = generate(t, GTR_OK, &err);
    assert_non_null(strstr(out, "EventBatch gen=1 m=0 time=7 size=4\nProcStatus dt=40 p=0 "
                                "pstatus=2\nEventBatch gen=1 m=18446744073709551615 time=0 "));
    free(out);
    tgen_trace_free(t);
}

static void test_testgen_errors_are_sticky_first_wins(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_batch *b = tgen_batch_new(tgen_generation(t, 1), 0, 0);
    (void)state;
    tgen_event(b, "NoSuchEvent");
    tgen_event(b, "ProcStatus");
    tgen_expect_failure(t, "(");
    assert_int_equal(tgen_string(tgen_generation(t, 2), "x"), 0);
    expect_error(t, "invalid or unknown event NoSuchEvent");
    tgen_trace_free(t);
}

static void test_testgen_sync_mono_wall_rejected_before_go125(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO123, NULL);
    tgen_gen *g = tgen_generation(t, 1);
    (void)state;
    tgen_sync(g, 1000, 10, 0, TGEN_WALL_ZERO);
    assert_int_equal(tgen_trace_status(t, NULL), GTR_OK);
    tgen_sync(g, 1000, 10, 0, TGEN_WALL(0, 0)); /* the Unix epoch is not the zero time */
    expect_error(t, "mono and wall args are not supported in go1.23 traces");
    tgen_trace_free(t);
}

static void test_testgen_layout_go122_frequency_after_batches(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_batch *b = running_g1(t, 1, 5);
    gtr_err err = GTR_ERR_INIT;
    char *out;
    (void)state;
    tgen_event(b, "GoStop", TG_STR("x"), TG_NOSTACK);
    tgen_sync(tgen_generation(t, 2), 100, 3, 0, TGEN_WALL_ZERO);
    out = generate(t, GTR_OK, &err);
    assert_string_equal(out,
                        "-- expect --\n"
                        "SUCCESS\n"
                        "-- trace --\n"
                        "Trace Go1.22\n"
                        "EventBatch gen=1 m=0 time=5 size=13\n"
                        "ProcStatus dt=1 p=0 pstatus=1\n"
                        "GoStatus dt=1 g=1 m=0 gstatus=2\n"
                        "GoStop dt=1 reason_string=1 stack=0\n"
                        "EventBatch gen=1 m=18446744073709551615 time=0 size=5\n"
                        "Frequency freq=15625000\n"
                        "EventBatch gen=1 m=18446744073709551615 time=1 size=1\n"
                        "Stacks\n"
                        "EventBatch gen=1 m=18446744073709551615 time=2 size=5\n"
                        "Strings\n"
                        "String id=1\n"
                        "\tdata=\"x\"\n"
                        "EventBatch gen=2 m=18446744073709551615 time=3 size=2\n"
                        "Frequency freq=100\n"
                        "EventBatch gen=2 m=18446744073709551615 time=4 size=1\n"
                        "Stacks\n"
                        "EventBatch gen=2 m=18446744073709551615 time=5 size=1\n"
                        "Strings\n");
    free(out);
    tgen_trace_free(t);
}

static void test_testgen_layout_go126_sync_first_end_marker_last(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO126, NULL);
    tgen_gen *g = tgen_generation(t, 3);
    tgen_batch *b;
    gtr_err err = GTR_ERR_INIT;
    char *out;
    (void)state;
    tgen_sync(g, 1000, 20, 77, TGEN_WALL(1767225600, 42));
    b = tgen_batch_new(g, 2, 30);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_IDLE));
    tgen_generation(t, 4); /* default sync: time 0, so the batch time wraps */
    out = generate(t, GTR_OK, &err);
    assert_string_equal(out,
                        "-- expect --\n"
                        "SUCCESS\n"
                        "-- trace --\n"
                        "Trace Go1.26\n"
                        "EventBatch gen=3 m=18446744073709551615 time=19 size=13\n"
                        "Sync\n"
                        "Frequency freq=1000\n"
                        "ClockSnapshot dt=1 mono=77 sec=1767225600 nsec=42\n"
                        "EventBatch gen=3 m=2 time=30 size=4\n"
                        "ProcStatus dt=1 p=0 pstatus=2\n"
                        "EventBatch gen=3 m=18446744073709551615 time=21 size=1\n"
                        "Stacks\n"
                        "EventBatch gen=3 m=18446744073709551615 time=22 size=1\n"
                        "Strings\n"
                        "EndOfGeneration\n"
                        "EventBatch gen=4 m=18446744073709551615 time=18446744073709551615 "
                        "size=20\n"
                        "Sync\n"
                        "Frequency freq=15625000\n"
                        "ClockSnapshot dt=1 mono=0 sec=18446744011573954816 nsec=0\n"
                        "EventBatch gen=4 m=18446744073709551615 time=1 size=1\n"
                        "Stacks\n"
                        "EventBatch gen=4 m=18446744073709551615 time=2 size=1\n"
                        "Strings\n"
                        "EndOfGeneration\n");
    free(out);
    tgen_trace_free(t);
}

static void test_testgen_layout_go123_has_no_sync_event(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO123, NULL);
    gtr_err err = GTR_ERR_INIT;
    char *out;
    (void)state;
    running_g1(t, 1, 0);
    out = generate(t, GTR_OK, &err);
    assert_null(strstr(out, "Sync"));
    assert_null(strstr(out, "EndOfGeneration"));
    assert_non_null(strstr(out, "Trace Go1.23\n"));
    free(out);
    tgen_trace_free(t);
}

static void test_testgen_disable_timestamps_zeroes_times(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO125, NULL);
    tgen_batch *b;
    gtr_err err = GTR_ERR_INIT;
    char *out;
    (void)state;
    tgen_disable_timestamps(t);
    b = running_g1(t, 1, 50);
    tgen_event(b, "GoStop", TG_STR("x"), TG_NOSTACK);
    tgen_sync(tgen_generation(t, 1), 1000, 70, 1, TGEN_WALL(1, 1));
    out = generate(t, GTR_OK, &err);
    assert_null(strstr(out, "dt=1"));
    assert_null(strstr(out, " time=1"));
    assert_null(strstr(out, " time=5"));
    assert_null(strstr(out, " time=7"));
    assert_non_null(strstr(out, "EventBatch gen=1 m=0 time=0 size=13\nProcStatus dt=0 p=0 "));
    assert_non_null(strstr(out, "ClockSnapshot dt=0 mono=1 sec=1 nsec=1\n"));
    free(out);
    tgen_trace_free(t);
}

static void test_testgen_expect_failure_quotes_pattern(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    gtr_err err = GTR_ERR_INIT;
    char *out;
    (void)state;
    tgen_expect_failure(t, "a\"b\\.c\t");
    tgen_generation(t, 1);
    out = generate(t, GTR_OK, &err);
    assert_memory_equal(out, "-- expect --\nFAILURE \"a\\\"b\\\\.c\\t\"\n-- trace --\n", 46);
    free(out);
    tgen_expect_success(t);
    out = generate(t, GTR_OK, &err);
    assert_memory_equal(out, "-- expect --\nSUCCESS\n", 21);
    free(out);
    tgen_trace_free(t);
}

static void test_testgen_expect_failure_bad_regexp_fails(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    gtr_err err = GTR_ERR_INIT;
    (void)state;
    tgen_expect_failure(t, "a(b");
    assert_null(generate(t, GTR_E_USAGE, &err));
    assert_string_equal(err.msg, "regexp: Compile(\"a(b\"): error parsing regexp: missing "
                                 "closing ): `a(b`");
    tgen_trace_free(t);
}

static void test_testgen_null_handles_are_ignored(void **state)
{
    (void)state;
    tgen_event(NULL, "ProcStop");
    tgen_raw(NULL, GTR_EV_PROC_STOP, 1);
    tgen_sync(NULL, 1, 1, 1, TGEN_WALL_ZERO);
    assert_int_equal(tgen_string(NULL, "x"), 0);
    assert_null(tgen_batch_new(NULL, 0, 0));
    assert_null(tgen_generation(NULL, 1));
    tgen_trace_free(NULL);
    assert_int_equal(tgen_trace_status(NULL, NULL), GTR_E_NOMEM);
}

static void test_testgen_null_bytes_with_length_fail(void **state)
{
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_batch *b = running_g1(t, 1, 0);
    (void)state;
    tgen_event(b, "GoStop", TG_STRN(NULL, 3), TG_NOSTACK);
    expect_error(t, "tgen: string of 3 bytes given no bytes");
    tgen_trace_free(t);

    t = tgen_trace_new(GTR_GO122, NULL);
    b = running_g1(t, 1, 0);
    tgen_event(b, "GoStop", TG_NOSTR, TG_STACK(NULL, 2));
    expect_error(t, "tgen: stack of 2 frames given no frames");
    tgen_trace_free(t);

    t = tgen_trace_new(GTR_GO122, NULL);
    tgen_trace_raw_data(t, GTR_EV_STRING, NULL, 4, 1);
    expect_error(t, "tgen: String event of 4 data bytes given no bytes");
    tgen_trace_free(t);

    t = tgen_trace_new(GTR_GO122, NULL);
    tgen_trace_raw_data(t, GTR_EV_FREQUENCY, "abc", 3, 1);
    expect_error(t, "tgen: Frequency events carry no data");
    tgen_trace_free(t);
}

static void test_testgen_out_of_memory_is_reported_not_fatal(void **state)
{
    static const tgen_frame fr[] = {{1, "f", "f.go", 1}};
    bool succeeded = false;
    (void)state;
    for (int n = 0; n < 200 && !succeeded; n++) {
        budget bud = {n};
        gtr_alloc alc = budget_alloc(&bud);
        tgen_trace *t = tgen_trace_new(GTR_GO126, &alc);
        gtr_buf out;
        gtr_err err = GTR_ERR_INIT;
        gtr_status st;
        if (t == NULL)
            continue;
        tgen_batch *b = running_g1(t, 1, 0);
        tgen_event(b, "GoStop", TG_STR("x"), TG_STACK(fr, 1));
        tgen_expect_failure(t, "x");
        gtr_buf_init(&out, &alc);
        st = tgen_generate(t, &out, &err);
        assert_true(st == GTR_OK || st == GTR_E_NOMEM);
        succeeded = st == GTR_OK;
        gtr_buf_free(&out);
        tgen_trace_free(t);
    }
    assert_true(succeeded);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_testgen_string_interning_ids_in_first_use_order),
        cmocka_unit_test(test_testgen_stack_interning_compares_every_frame),
        cmocka_unit_test(test_testgen_stack_frames_interned_after_other_strings),
        cmocka_unit_test(test_testgen_stack_too_big_fails),
        cmocka_unit_test(test_testgen_batch_sizes_equal_encoded_size),
        cmocka_unit_test(test_testgen_strings_batch_split_past_half_max_size),
        cmocka_unit_test(test_testgen_event_unknown_name_fails),
        cmocka_unit_test(test_testgen_event_arity_names_event),
        cmocka_unit_test(test_testgen_event_arg_kind_names_event_and_argument),
        cmocka_unit_test(test_testgen_event_unsupported_arg_type_fails),
        cmocka_unit_test(test_testgen_raw_arity_checked_except_stack),
        cmocka_unit_test(test_testgen_errors_are_sticky_first_wins),
        cmocka_unit_test(test_testgen_sync_mono_wall_rejected_before_go125),
        cmocka_unit_test(test_testgen_layout_go122_frequency_after_batches),
        cmocka_unit_test(test_testgen_layout_go126_sync_first_end_marker_last),
        cmocka_unit_test(test_testgen_layout_go123_has_no_sync_event),
        cmocka_unit_test(test_testgen_disable_timestamps_zeroes_times),
        cmocka_unit_test(test_testgen_expect_failure_quotes_pattern),
        cmocka_unit_test(test_testgen_expect_failure_bad_regexp_fails),
        cmocka_unit_test(test_testgen_null_handles_are_ignored),
        cmocka_unit_test(test_testgen_null_bytes_with_length_fail),
        cmocka_unit_test(test_testgen_out_of_memory_is_reported_not_fatal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
