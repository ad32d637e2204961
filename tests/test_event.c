/* SPDX-License-Identifier: BSD-3-Clause */
/* test_event.c: the event API against vectors Go produced (event_vectors.h): String() of
 * every kind, state and enum, every accessor's wrong-kind error, stacks, syncs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "event_testutil.h"
#include "gtr/event.h"

static void assert_buf_eq(const gtr_buf *b, const char *want, const char *what, size_t i)
{
    const char *got = b->data != NULL ? b->data : "";
    if (strcmp(got, want) != 0) {
        print_error("%s %zu:\n got: %s\nwant: %s\n", what, i, got, want);
        fail();
    }
}

static void test_event_string_every_kind_matches_go(void **state)
{
    gtr_buf b = {0};
    (void)state;
    for (size_t i = 0; i < NELEM(string_vectors); i++) {
        const vec_event *v = &string_vectors[i];
        gtr__ev_table *t = vec_table(v);
        gtr_event e = vec_make_event(v, t);
        gtr_buf_reset(&b);
        assert_int_equal(gtr_event_string(&e, &b), GTR_OK);
        assert_buf_eq(&b, v->want, "string vector", i);
        gtr__evt_free(t);
    }
    gtr_buf_free(&b);
}

static void test_event_enum_strings_match_go(void **state)
{
    gtr_buf b = {0};
    (void)state;
    for (size_t i = 0; i < NELEM(enum_vectors); i++) {
        const vec_enum *v = &enum_vectors[i];
        const char *got = NULL;
        gtr_value val;
        gtr_buf_reset(&b);
        switch (v->what) {
        case 'K': got = gtr_event_kind_string((gtr_event_kind)v->n); break;
        case 'G': got = gtr_go_state_string((gtr_go_state)v->n); break;
        case 'P': got = gtr_proc_state_string((gtr_proc_state)v->n); break;
        case 'R': got = gtr_resource_kind_string((gtr_resource_kind)v->n); break;
        case 'g': got = gtr_go_state_executing((gtr_go_state)v->n) ? "true" : "false"; break;
        case 'p': got = gtr_proc_state_executing((gtr_proc_state)v->n) ? "true" : "false"; break;
        case 'r': gtr_resource_id_string(gtr_make_resource_goroutine(v->n), &b); break;
        case 'q': gtr_resource_id_string(gtr_make_resource_proc(v->n), &b); break;
        case 't': gtr_resource_id_string(gtr_make_resource_thread(v->n), &b); break;
        case 'n': gtr_resource_id_string((gtr_resource_id){GTR_RESOURCE_NONE, 0}, &b); break;
        case 'u':
            val = gtr_uint64_value((uint64_t)v->n);
            gtr_value_string(&val, &b);
            break;
        case 's':
            val = gtr_string_value("str\"ing", 7);
            gtr_value_string(&val, &b);
            break;
        case 'b':
            val = (gtr_value){GTR_VALUE_BAD, 0, {NULL, 0}};
            gtr_value_string(&val, &b);
            break;
        case 'S': {
            vec_event ve = {.table = 1, .type = GTR_EV_CPU_SAMPLE, .args = {(uint64_t)v->n}};
            gtr__ev_table *t = vec_table(&ve);
            gtr_event e = vec_make_event(&ve, t);
            gtr_stack_string(gtr_event_stack(&e), &b);
            gtr__evt_free(t);
            break;
        }
        default: fail();
        }
        if (got != NULL)
            gtr_buf_puts(&b, got);
        assert_buf_eq(&b, v->want, "enum vector", i);
    }
    gtr_buf_free(&b);
}

/* ---- wrong-kind errors: each accessor called on the wrong event returns GTR_E_USAGE with
 * Go's panic text. ---- */

static const char *panic_msg(const char *name)
{
    for (size_t i = 0; i < NELEM(panic_vectors); i++)
        if (strcmp(panic_vectors[i].name, name) == 0)
            return panic_vectors[i].msg;
    fail_msg("no panic vector %s", name);
    return NULL;
}

static gtr_event sync_event(void)
{
    return gtr__make_event(NULL, -1, -1, -1, GTR_EV_SYNC_EVENT, 1);
}

#define EXPECT_USAGE(call, name)                                  \
    do {                                                          \
        gtr_err err_ = GTR_ERR_INIT;                                             \
        gtr_err_clear(&err_);                                     \
        assert_int_equal((call), GTR_E_USAGE);                    \
        assert_string_equal(err_.msg, panic_msg(name));           \
    } while (0)
#define E (&err_)

static void test_event_metric_wrong_kind_fails(void **state)
{
    gtr_event e = sync_event();
    gtr_metric m;
    (void)state;
    EXPECT_USAGE(gtr_event_metric(&e, &m, E), "Metric");
}

static void test_event_label_wrong_kind_fails(void **state)
{
    gtr_event e = sync_event();
    gtr_label l;
    (void)state;
    EXPECT_USAGE(gtr_event_label(&e, &l, E), "Label");
}

static void test_event_range_wrong_kind_fails(void **state)
{
    gtr_event e = sync_event();
    gtr_range r;
    (void)state;
    EXPECT_USAGE(gtr_event_range(&e, &r, E), "Range");
}

static void test_event_range_attributes_wrong_kind_fails(void **state)
{
    gtr_event e = sync_event();
    gtr_range_attribute a[GTR_MAX_RANGE_ATTRIBUTES];
    size_t n;
    (void)state;
    EXPECT_USAGE(gtr_event_range_attributes(&e, a, &n, E), "RangeAttributes");
    /* A RangeBegin is a Range but has no attributes to ask for. */
    e = gtr__make_event(NULL, 1, 1, 1, GTR_EV_GC_BEGIN, 1);
    EXPECT_USAGE(gtr_event_range_attributes(&e, a, &n, E), "RangeAttributes");
}

static void test_event_task_wrong_kind_fails(void **state)
{
    gtr_event e = sync_event();
    gtr_task t;
    (void)state;
    EXPECT_USAGE(gtr_event_task(&e, &t, E), "Task");
}

static void test_event_region_wrong_kind_fails(void **state)
{
    gtr_event e = sync_event();
    gtr_region r;
    (void)state;
    EXPECT_USAGE(gtr_event_region(&e, &r, E), "Region");
}

static void test_event_log_wrong_kind_fails(void **state)
{
    gtr_event e = sync_event();
    gtr_log l;
    (void)state;
    EXPECT_USAGE(gtr_event_log(&e, &l, E), "Log");
}

static void test_event_state_transition_wrong_kind_fails(void **state)
{
    gtr_event e = sync_event();
    gtr_state_transition s;
    (void)state;
    EXPECT_USAGE(gtr_event_state_transition(&e, &s, E), "StateTransition");
}

static void test_event_sync_wrong_kind_fails(void **state)
{
    gtr_event e = gtr__make_event(NULL, 1, 2, 3, GTR_EV_HEAP_ALLOC, 1);
    gtr_sync s;
    (void)state;
    EXPECT_USAGE(gtr_event_sync(&e, &s, E), "Sync");
}

static void test_event_experimental_wrong_kind_fails(void **state)
{
    gtr_event e = sync_event();
    gtr_experimental_event x;
    (void)state;
    EXPECT_USAGE(gtr_event_experimental(&e, &x, E), "Experimental");
}

static void test_event_experimental_arg_value_out_of_bounds_fails(void **state)
{
    gtr_event e = gtr__make_event(NULL, 1, 2, 3, GTR_EV_SPAN_FREE, 1);
    gtr_experimental_event x;
    gtr_value v;
    (void)state;
    e.args_[0] = 9;
    assert_int_equal(gtr_event_experimental(&e, &x, NULL), GTR_OK);
    assert_string_equal(x.name, "SpanFree");
    assert_string_equal(x.experiment, "AllocFree");
    assert_int_equal(x.nargs, 1);
    assert_int_equal(gtr_experimental_arg_value(&x, 0, &v, NULL), GTR_OK);
    assert_int_equal(v.kind, GTR_VALUE_UINT64);
    assert_int_equal(v.u64, 9);
    EXPECT_USAGE(gtr_experimental_arg_value(&x, 1, &v, E), "ArgValue");
    EXPECT_USAGE(gtr_experimental_arg_value(&x, -1, &v, E), "ArgValueNeg");
}

static void test_event_state_transition_wrong_resource_fails(void **state)
{
    gtr_state_transition p = gtr_make_proc_state_transition(4, GTR_PROC_IDLE, GTR_PROC_RUNNING);
    gtr_state_transition g = gtr_make_go_state_transition(4, GTR_GO_RUNNABLE, GTR_GO_RUNNING);
    gtr_go_state gf, gt;
    gtr_proc_state pf, pt;
    (void)state;
    EXPECT_USAGE(gtr_state_transition_goroutine(&p, &gf, &gt, E), "StateTransitionGoroutine");
    EXPECT_USAGE(gtr_state_transition_proc(&g, &pf, &pt, E), "StateTransitionProc");
    assert_int_equal(gtr_state_transition_goroutine(&g, &gf, &gt, NULL), GTR_OK);
    assert_int_equal(gf, GTR_GO_RUNNABLE);
    assert_int_equal(gt, GTR_GO_RUNNING);
    assert_int_equal(gtr_state_transition_proc(&p, &pf, &pt, NULL), GTR_OK);
    assert_int_equal(pf, GTR_PROC_IDLE);
    assert_int_equal(pt, GTR_PROC_RUNNING);
}

static void test_event_resource_id_wrong_kind_fails(void **state)
{
    gtr_goid g;
    gtr_procid p;
    gtr_threadid m;
    (void)state;
    EXPECT_USAGE(gtr_resource_id_goroutine(gtr_make_resource_proc(1), &g, E), "ResourceGoroutine");
    EXPECT_USAGE(gtr_resource_id_proc(gtr_make_resource_thread(1), &p, E), "ResourceProc");
    EXPECT_USAGE(gtr_resource_id_thread((gtr_resource_id){GTR_RESOURCE_NONE, 0}, &m, E),
                 "ResourceThread");
    assert_int_equal(gtr_resource_id_thread(gtr_make_resource_thread(7), &m, NULL), GTR_OK);
    assert_int_equal(m, 7);
}

static void test_event_value_uint64_wrong_kind_fails(void **state)
{
    gtr_value v = gtr_string_value("x", 1);
    uint64_t u;
    (void)state;
    EXPECT_USAGE(gtr_value_uint64(&v, &u, E), "ValueUint64");
}

/* ---- details ---- */

static void test_event_go_status_bad_status_fails(void **state)
{
    gtr_event e = gtr__make_event(NULL, -1, -1, 3, GTR_EV_GO_STATUS, 1);
    gtr_state_transition s;
    gtr_err err = GTR_ERR_INIT;
    (void)state;
    e.args_[2] = 7; /* not a tracev2.GoStatus: Go indexes past its 5-entry table */
    assert_int_equal(gtr_event_state_transition(&e, &s, &err), GTR_E_USAGE);
    assert_string_equal(err.msg, "runtime error: index out of range [7] with length 5");
}

static void test_event_sync_null_table_has_no_snapshot(void **state)
{
    gtr_event e = gtr__make_event(NULL, -1, -1, -1, GTR_EV_SYNC_EVENT, 5);
    gtr_sync s;
    (void)state;
    e.args_[0] = 4;
    assert_int_equal(gtr_event_get_kind(&e), GTR_EVENT_SYNC);
    assert_int_equal(gtr_event_sync(&e, &s, NULL), GTR_OK);
    assert_int_equal(s.n, 4);
    assert_false(s.has_clock_snapshot);
    assert_int_equal(gtr_sync_experimental_batch_count(&s, GTR_EXP_ALLOC_FREE), 0);
    assert_true(gtr_stack_is_none(gtr_event_stack(&e)));
}

static void test_event_sync_experimental_batches_listed(void **state)
{
    vec_event v = {.table = 1, .type = GTR_EV_SYNC_EVENT, .args = {1}};
    gtr__ev_table *t = vec_table(&v);
    gtr_event e = vec_make_event(&v, t);
    static const uint8_t data[] = {1, 2, 3};
    gtr_experimental_batch b;
    gtr_sync s;
    gtr_err err = GTR_ERR_INIT;
    (void)state;
    assert_int_equal(gtr__evt_add_exp_batch(t, GTR_EXP_ALLOC_FREE, 42, data, 3, true, &err),
                     GTR_OK);
    assert_int_equal(gtr_event_sync(&e, &s, NULL), GTR_OK);
    assert_int_equal(gtr_sync_experimental_batch_count(&s, GTR_EXP_ALLOC_FREE), 1);
    assert_int_equal(gtr_sync_experimental_batch(&s, GTR_EXP_ALLOC_FREE, 0, &b, NULL), GTR_OK);
    assert_int_equal(b.thread, 42);
    assert_int_equal(b.len, 3);
    assert_memory_equal(b.data, data, 3);
    assert_int_equal(gtr_sync_experimental_batch(&s, GTR_EXP_ALLOC_FREE, 1, &b, &err),
                     GTR_E_USAGE);
    assert_string_equal(err.msg, "runtime error: index out of range [1] with length 1");
    gtr__evt_free(t);
}

static void test_event_stack_frames_accessed_by_index(void **state)
{
    vec_event v = {.table = 1, .type = GTR_EV_GO_STATUS_STACK, .args = {13, 3, UINT64_C(2) << 32 | 1, 5}};
    gtr__ev_table *t = vec_table(&v);
    gtr_event e = vec_make_event(&v, t);
    gtr_stack s = gtr_event_stack(&e);
    gtr_frame f;
    gtr_err err = GTR_ERR_INIT;
    (void)state;
    assert_false(gtr_stack_is_none(s));
    assert_int_equal(gtr_stack_len(s), 2);
    assert_int_equal(gtr_stack_frame(s, 0, &f, NULL), GTR_OK);
    assert_int_equal(f.pc, 0x1234);
    assert_int_equal(f.line, 10);
    assert_int_equal(f.func.len, 9);
    assert_memory_equal(f.func.data, "main.main", 9);
    assert_memory_equal(f.file.data, "/tmp/main.go", 12);
    /* A PC without a frame is a zero frame, as Go's map lookup gives. */
    assert_int_equal(gtr_stack_frame(s, 1, &f, NULL), GTR_OK);
    assert_int_equal(f.pc, 0);
    assert_int_equal(f.func.len, 0);
    assert_int_equal(gtr_stack_frame(s, 2, &f, &err), GTR_E_USAGE);
    assert_string_equal(err.msg, "runtime error: index out of range [2] with length 2");
    /* An ID missing from the table is Go's mustGet panic. */
    s.id_ = 99;
    assert_int_equal(gtr_stack_len(s), 0);
    assert_int_equal(gtr_stack_frame(s, 0, &f, &err), GTR_E_USAGE);
    assert_string_equal(err.msg, "expected id 99 in trace.stack table");
    gtr__evt_free(t);
}

static void test_event_missing_string_fails(void **state)
{
    vec_event v = {.table = 1, .type = GTR_EV_USER_LOG, .args = {1, 10, 77, 0}};
    gtr__ev_table *t = vec_table(&v);
    gtr_event e = vec_make_event(&v, t);
    gtr_log l;
    gtr_err err = GTR_ERR_INIT;
    gtr_buf b = {0};
    (void)state;
    assert_int_equal(gtr_event_log(&e, &l, &err), GTR_E_USAGE);
    assert_string_equal(err.msg, "expected id 77 in string table");
    assert_int_equal(gtr_event_string(&e, &b), GTR_E_USAGE);
    gtr_buf_free(&b);
    gtr__evt_free(t);
}

static void test_event_range_stw_name_is_computed(void **state)
{
    vec_event v = {.table = 1, .type = GTR_EV_STW_END, .g = 9, .args = {7}};
    gtr__ev_table *t = vec_table(&v);
    gtr_event e = vec_make_event(&v, t);
    gtr_range r;
    (void)state;
    assert_int_equal(gtr_event_range(&e, &r, NULL), GTR_OK);
    assert_int_equal(gtr_range_name(&r).len, strlen("stop-the-world (GC sweep termination)"));
    assert_string_equal(gtr_range_name(&r).data, "stop-the-world (GC sweep termination)");
    assert_int_equal(r.scope.kind, GTR_RESOURCE_GOROUTINE);
    assert_int_equal(r.scope.id, 9);
    gtr__evt_free(t);
}

/* range_name_is: the name of r is want (whole, and no more). */
static void range_name_is(const gtr_range *r, const char *want)
{
    gtr_str name = gtr_range_name(r);
    assert_int_equal(name.len, strlen(want));
    assert_memory_equal(name.data, want, name.len);
}

/* A range copied by assignment or memcpy gives its name from the copy: the made name of a
 * stop-the-world range lives in the copy's own buffer, so the original may be overwritten;
 * a static name is the same string in every copy. */
static void test_event_range_copy_keeps_its_name(void **state)
{
    vec_event stw = {.table = 1, .type = GTR_EV_STW_BEGIN, .g = 9, .args = {7}};
    vec_event gc = {.table = 1, .type = GTR_EV_GC_BEGIN};
    gtr__ev_table *t = vec_table(&stw);
    gtr_event e = vec_make_event(&stw, t);
    gtr_range *r = malloc(sizeof *r);
    gtr_range assigned, copied;
    (void)state;
    assert_non_null(r);
    assert_int_equal(gtr_event_range(&e, r, NULL), GTR_OK);
    assigned = *r;
    memcpy(&copied, r, sizeof copied);
    memset(r, 'x', sizeof *r);   /* the original, overwritten (freed only at the end) */
    range_name_is(&assigned, "stop-the-world (GC sweep termination)");
    range_name_is(&copied, "stop-the-world (GC sweep termination)");
    assert_int_equal(copied.scope.kind, GTR_RESOURCE_GOROUTINE);
    assert_int_equal(copied.scope.id, 9);
    free(r);

    e = vec_make_event(&gc, t);
    assert_int_equal(gtr_event_range(&e, &copied, NULL), GTR_OK);
    assigned = copied;
    memset(&copied, 0, sizeof copied);
    range_name_is(&assigned, "GC concurrent mark phase");
    gtr__evt_free(t);
}

static void test_event_wall_time_formats_like_go(void **state)
{
    gtr_clock_snapshot c = {0, 0, 0, 0};
    gtr_buf b = {0};
    (void)state;
    c.wall_sec = -1;
    c.wall_nsec = 500;
    assert_int_equal(gtr_clock_snapshot_wall_string(&c, &b), GTR_OK);
    assert_string_equal(b.data, "1969-12-31T23:59:59.0000005Z");
    gtr_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_string_every_kind_matches_go),
        cmocka_unit_test(test_event_enum_strings_match_go),
        cmocka_unit_test(test_event_metric_wrong_kind_fails),
        cmocka_unit_test(test_event_label_wrong_kind_fails),
        cmocka_unit_test(test_event_range_wrong_kind_fails),
        cmocka_unit_test(test_event_range_attributes_wrong_kind_fails),
        cmocka_unit_test(test_event_task_wrong_kind_fails),
        cmocka_unit_test(test_event_region_wrong_kind_fails),
        cmocka_unit_test(test_event_log_wrong_kind_fails),
        cmocka_unit_test(test_event_state_transition_wrong_kind_fails),
        cmocka_unit_test(test_event_sync_wrong_kind_fails),
        cmocka_unit_test(test_event_experimental_wrong_kind_fails),
        cmocka_unit_test(test_event_experimental_arg_value_out_of_bounds_fails),
        cmocka_unit_test(test_event_state_transition_wrong_resource_fails),
        cmocka_unit_test(test_event_resource_id_wrong_kind_fails),
        cmocka_unit_test(test_event_value_uint64_wrong_kind_fails),
        cmocka_unit_test(test_event_go_status_bad_status_fails),
        cmocka_unit_test(test_event_sync_null_table_has_no_snapshot),
        cmocka_unit_test(test_event_sync_experimental_batches_listed),
        cmocka_unit_test(test_event_stack_frames_accessed_by_index),
        cmocka_unit_test(test_event_missing_string_fails),
        cmocka_unit_test(test_event_range_stw_name_is_computed),
        cmocka_unit_test(test_event_range_copy_keeps_its_name),
        cmocka_unit_test(test_event_wall_time_formats_like_go),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
