/* SPDX-License-Identifier: BSD-3-Clause */
/* test_judge.c: Go's golden judgment (tgen/judge.h) and the one fixture-holding repair the
 * reducer makes for it (reduce_prepend_generation). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gtr/raw.h"
#include "reduce.h"
#include "tgen/fixture.h"
#include "tgen/judge.h"
#include "tgen/tgen.h"

/* wire_of generates t and returns its trace's wire bytes in out. */
static void wire_of(tgen_trace *t, gtr_buf *out)
{
    gtr_buf text = {0};
    gtr_err err = GTR_ERR_INIT;
    tgen_fixture *f;
    if (tgen_generate(t, &text, &err) < 0)
        fail_msg("generate: %s", err.msg);
    if (tgen_fixture_parse("t.test", text.data, text.len, &f, &err) < 0)
        fail_msg("parse: %s", err.msg);
    size_t n;
    const uint8_t *w = tgen_fixture_trace(f, &n);
    gtr_buf_append(out, w, n);
    tgen_fixture_free(f);
    gtr_buf_free(&text);
    tgen_trace_free(t);
}

static void judge(const gtr_buf *w, tgen_verdict *v)
{
    assert_int_equal(tgen_judge((const uint8_t *)w->data, w->len, NULL, NULL, v), GTR_OK);
}

/* check runs the golden check of verdict v under "SUCCESS" (pattern NULL) or FAILURE pattern. */
static gtr_status check(const tgen_verdict *v, const char *pattern, unsigned *failures,
                        gtr_err *err)
{
    tgen_expect *e;
    if (pattern == NULL)
        assert_int_equal(tgen_expect_new_success(&e, NULL), GTR_OK);
    else
        assert_int_equal(tgen_expect_new_failure(pattern, strlen(pattern), &e, NULL), GTR_OK);
    gtr_status st = tgen_verdict_check(v, e, failures, err);
    tgen_expect_free(e);
    return st;
}

/* A go1.22 generation: a running goroutine creates one with a stack whose second frame has
 * no PC (the validator's "missing information"); if broken, a thread with neither proc nor
 * goroutine then stops a goroutine (a reader error). */
static void invalid_stack_trace(gtr_buf *out, bool broken)
{
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_gen *g = tgen_generation(t, 1);
    static const tgen_frame frames[2] = {{0x1000, "main.main", "main.go", 10},
                                         {0, "main.f", "main.go", 20}};
    tgen_batch *b = tgen_batch_new(g, 0, 10);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "GoCreate", TG_G(2), TG_NOSTACK, TG_STACK(frames, 2));
    if (broken) {
        tgen_batch *b1 = tgen_batch_new(g, 1, 100);
        tgen_event(b1, "GoStop", TG_STR("x"), TG_NOSTACK);
    }
    wire_of(t, out);
}

static void test_judge_validator_error_before_reader_error_fails_the_fixture(void **state)
{
    gtr_buf w = {0};
    tgen_verdict v;
    unsigned failures;
    gtr_err err = GTR_ERR_INIT;
    (void)state;
    invalid_stack_trace(&w, true);
    judge(&w, &v);
    assert_int_equal(v.end, TGEN_END_READ);
    assert_int_equal(v.invalid, 1);
    assert_non_null(strstr(v.valid_err.msg, "invalid stack frame"));
    assert_false(tgen_verdict_clean(&v));
    assert_false(tgen_verdict_first_sync_artifact(&v));
    /* Even an expectation matching the reader error fails: the validator's error comes first. */
    assert_true(check(&v, "expected a proc", &failures, &err) < 0);
    assert_int_equal(failures, 1);
    assert_non_null(strstr(err.msg, "invalid stack frame"));
    /* And one that does not match fails twice. */
    assert_true(check(&v, "^no such error$", &failures, &err) < 0);
    assert_int_equal(failures, 2);
    assert_non_null(strstr(err.msg, "invalid stack frame"));
    gtr_buf_free(&w);
}

static void test_judge_validator_only_failure_fails_success_and_failure(void **state)
{
    gtr_buf w = {0};
    tgen_verdict v;
    unsigned failures;
    gtr_err err = GTR_ERR_INIT;
    (void)state;
    invalid_stack_trace(&w, false);
    judge(&w, &v);
    assert_int_equal(v.end, TGEN_END_EOF);
    assert_int_equal(v.invalid, 1);
    assert_true(v.events > 3);
    assert_true(check(&v, NULL, &failures, &err) < 0);
    assert_int_equal(failures, 1);
    assert_non_null(strstr(err.msg, "invalid stack frame"));
    assert_true(check(&v, "invalid stack frame", &failures, &err) < 0);
    assert_int_equal(failures, 2);
    gtr_buf_free(&w);
}

static void test_judge_clean_trace_and_header_error(void **state)
{
    gtr_buf w = {0};
    tgen_verdict v;
    unsigned failures;
    gtr_err err = GTR_ERR_INIT;
    (void)state;
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_batch *b = tgen_batch_new(tgen_generation(t, 1), 0, 10);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    wire_of(t, &w);
    judge(&w, &v);
    assert_true(tgen_verdict_clean(&v));
    assert_int_equal(check(&v, NULL, &failures, &err), GTR_OK);
    assert_int_equal(failures, 0);
    assert_true(check(&v, "x", &failures, &err) < 0);
    assert_string_equal(err.msg,
                        "expected error while reading the trace: want something matching \"x\", "
                        "got none");
    gtr_buf_reset(&w);
    gtr_buf_puts(&w, "not a trace at all");
    judge(&w, &v);
    assert_int_equal(v.end, TGEN_END_HEADER);
    assert_int_equal(v.events, 0);
    assert_int_equal(check(&v, "not a Go execution trace", &failures, &err), GTR_OK);
    gtr_buf_free(&w);
}

/* A go1.25 trace whose first generation has no clock snapshot cannot be read: Go emits Sync 1 without
 * a clock snapshot, the validator rejects it, then the reader's error follows. */
static void test_judge_go125_first_generation_error_and_its_repair(void **state)
{
    gtr_buf w = {0}, fixed = {0};
    tgen_verdict v;
    unsigned failures;
    gtr_err err = GTR_ERR_INIT;
    (void)state;
    static const char text[] = "Trace Go1.25\n"
                               "EventBatch gen=1 m=0 time=10 size=4\n"
                               "ProcStatus dt=1 p=0 pstatus=1\n"
                               "EventBatch gen=1 m=18446744073709551615 time=0 size=5\n"
                               "Frequency freq=15625000\n";
    assert_int_equal(gtr_raw_text_to_wire(text, strlen(text), &w, NULL), GTR_OK);
    judge(&w, &v);
    assert_int_equal(v.end, TGEN_END_READ);
    assert_int_equal(v.invalid, 1);
    assert_int_equal(v.valid_at, 0);
    assert_string_equal(v.valid_err.msg, "sync 1 has no clock snapshot");
    assert_true(tgen_verdict_first_sync_artifact(&v));
    const char *re = "no frequency event found";
    assert_non_null(strstr(v.end_err.msg, re));
    assert_true(check(&v, re, &failures, &err) < 0);   /* no fixture holds it as it stands */
    /* Behind a synthesised first generation, the same error passes the golden check. */
    assert_int_equal(reduce_prepend_generation((const uint8_t *)w.data, w.len, &fixed, NULL),
                     GTR_OK);
    judge(&fixed, &v);
    assert_int_equal(v.invalid, 0);
    assert_int_equal(v.end, TGEN_END_READ);
    assert_non_null(strstr(v.end_err.msg, re));
    assert_int_equal(check(&v, re, &failures, &err), GTR_OK);
    /* The repair alone (no body) is a valid trace, for every version. */
    static const gtr_go_version versions[] = {GTR_GO122, GTR_GO123, GTR_GO125, GTR_GO126};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        char hdr[16] = {0};
        snprintf(hdr, sizeof hdr, "go 1.%d trace", (int)versions[i]);
        gtr_buf_reset(&fixed);
        assert_int_equal(reduce_prepend_generation((const uint8_t *)hdr, 16, &fixed, NULL),
                         GTR_OK);
        judge(&fixed, &v);
        if (!tgen_verdict_clean(&v))
            fail_msg("go1.%d: %s%s", (int)versions[i], v.end_err.msg, v.valid_err.msg);
    }
    gtr_buf_free(&w);
    gtr_buf_free(&fixed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_judge_validator_error_before_reader_error_fails_the_fixture),
        cmocka_unit_test(test_judge_validator_only_failure_fails_success_and_failure),
        cmocka_unit_test(test_judge_clean_trace_and_header_error),
        cmocka_unit_test(test_judge_go125_first_generation_error_and_its_repair),
    };
    return cmocka_run_group_tests_name("judge", tests, NULL, NULL);
}
