/* SPDX-License-Identifier: BSD-3-Clause */
/* test_event_make.c: gtr_make_event / gtr_make_stack (Go's MakeEvent, MakeStack) against
 * make_vectors: each case below is built exactly as tests/gen/gtrvec_main.go builds it in Go,
 * and the made event's String(), or the error, must be Go's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "event_testutil.h"
#include "gtr/event.h"

#define S(lit) ((gtr_str){(lit), sizeof(lit) - 1})

static const gtr_frame fr1 = {0x1234, {"main.main", 9}, {"/tmp/main.go", 12}, 10};
static const gtr_frame fr2 = {0x5678, {"runtime.main", 12},
                              {"/usr/lib/go/src/runtime/proc.go", 31}, 283};
static const gtr_frame dup_a = {0x10, {"a", 1}, {"a.go", 4}, 1};
static const gtr_frame dup_b = {0x10, {"b", 1}, {"b.go", 4}, 2};

static gtr_stack stk(gtr_event_builder *b, const gtr_frame *f0, const gtr_frame *f1)
{
    gtr_frame frames[2];
    size_t n = 0;
    gtr_stack s;
    if (f0 != NULL)
        frames[n++] = *f0;
    if (f1 != NULL)
        frames[n++] = *f1;
    assert_int_equal(gtr_make_stack(b, frames, n, &s, NULL), GTR_OK);
    return s;
}

static gtr_event_config cfg(gtr_event_kind kind, gtr_details_kind details)
{
    gtr_event_config c;
    memset(&c, 0, sizeof c);
    c.time = 100;
    c.kind = kind;
    c.goroutine = 1;
    c.proc = 2;
    c.thread = 3;
    c.details = details;
    return c;
}

static gtr_event_config rng(gtr_event_kind kind, gtr_str name, gtr_resource_id scope)
{
    gtr_event_config c = cfg(kind, GTR_DETAILS_RANGE);
    gtr_range_set_name(&c.range, name);
    c.range.scope = scope;
    return c;
}

static gtr_event_config tr(gtr_state_transition t)
{
    gtr_event_config c = cfg(GTR_EVENT_STATE_TRANSITION, GTR_DETAILS_STATE_TRANSITION);
    c.transition = t;
    return c;
}

static gtr_state_transition gst(gtr_goid id, gtr_go_state from, gtr_go_state to)
{
    return gtr_make_go_state_transition(id, from, to);
}

static gtr_state_transition pst(gtr_procid id, gtr_proc_state from, gtr_proc_state to)
{
    return gtr_make_proc_state_transition(id, from, to);
}

/* build_case fills *c for the named case (the Go generator's makeCases). */
static void build_case(const char *name, gtr_event_builder *b, gtr_event_config *c)
{
    const gtr_resource_id none = {GTR_RESOURCE_NONE, 0};
#define CASE(n) else if (strcmp(name, n) == 0)
    if (0) {
    }
    CASE("no_kind") *c = cfg(GTR_EVENT_BAD, GTR_DETAILS_METRIC);
    CASE("incompatible") *c = cfg(GTR_EVENT_METRIC, GTR_DETAILS_LABEL);
    CASE("incompatible_sync") *c = cfg(GTR_EVENT_STACK_SAMPLE, GTR_DETAILS_SYNC);
    CASE("metric_procs") {
        *c = cfg(GTR_EVENT_METRIC, GTR_DETAILS_METRIC);
        c->metric = (gtr_metric){S("/sched/gomaxprocs:threads"), gtr_uint64_value(8)};
        c->stack = stk(b, &fr1, &fr2);
    }
    CASE("metric_heap_alloc") {
        *c = cfg(GTR_EVENT_METRIC, GTR_DETAILS_METRIC);
        c->metric = (gtr_metric){S("/memory/classes/heap/objects:bytes"), gtr_uint64_value(4096)};
    }
    CASE("metric_heap_goal") {
        *c = cfg(GTR_EVENT_METRIC, GTR_DETAILS_METRIC);
        c->metric = (gtr_metric){S("/gc/heap/goal:bytes"), gtr_uint64_value(1u << 30)};
    }
    CASE("metric_string_value") {
        *c = cfg(GTR_EVENT_METRIC, GTR_DETAILS_METRIC);
        c->metric = (gtr_metric){S("/gc/heap/goal:bytes"), gtr_string_value("abc", 3)};
    }
    CASE("metric_unknown_name") {
        *c = cfg(GTR_EVENT_METRIC, GTR_DETAILS_METRIC);
        c->metric = (gtr_metric){S("/foo:bar"), gtr_uint64_value(1)};
    }
    CASE("label") {
        *c = cfg(GTR_EVENT_LABEL, GTR_DETAILS_LABEL);
        c->label = (gtr_label){S("foo\"bar"), gtr_make_resource_goroutine(7)};
    }
    CASE("label_not_goroutine") {
        *c = cfg(GTR_EVENT_LABEL, GTR_DETAILS_LABEL);
        c->label = (gtr_label){S("x"), gtr_make_resource_proc(2)};
    }
    CASE("gc_begin") *c = rng(GTR_EVENT_RANGE_BEGIN, S("GC concurrent mark phase"), none);
    CASE("gc_active") *c = rng(GTR_EVENT_RANGE_ACTIVE, S("GC concurrent mark phase"), none);
    CASE("gc_end") *c = rng(GTR_EVENT_RANGE_END, S("GC concurrent mark phase"), none);
    CASE("gc_bad_scope") *c = rng(GTR_EVENT_RANGE_BEGIN, S("GC concurrent mark phase"),
                                  gtr_make_resource_goroutine(1));
    CASE("sweep_begin") *c = rng(GTR_EVENT_RANGE_BEGIN, S("GC incremental sweep"),
                                 gtr_make_resource_proc(3));
    CASE("sweep_active") *c = rng(GTR_EVENT_RANGE_ACTIVE, S("GC incremental sweep"),
                                  gtr_make_resource_proc(4));
    CASE("sweep_end") *c = rng(GTR_EVENT_RANGE_END, S("GC incremental sweep"),
                               gtr_make_resource_proc(3));
    CASE("sweep_bad_scope") *c = rng(GTR_EVENT_RANGE_END, S("GC incremental sweep"), none);
    CASE("assist_begin") *c = rng(GTR_EVENT_RANGE_BEGIN, S("GC mark assist"),
                                  gtr_make_resource_goroutine(5));
    CASE("assist_active") *c = rng(GTR_EVENT_RANGE_ACTIVE, S("GC mark assist"),
                                   gtr_make_resource_goroutine(6));
    CASE("assist_end") *c = rng(GTR_EVENT_RANGE_END, S("GC mark assist"),
                                gtr_make_resource_goroutine(5));
    CASE("assist_bad_scope") *c = rng(GTR_EVENT_RANGE_END, S("GC mark assist"),
                                      gtr_make_resource_proc(5));
    CASE("stw_begin") *c = rng(GTR_EVENT_RANGE_BEGIN, S("stop-the-world (GC sweep termination)"),
                               gtr_make_resource_goroutine(9));
    CASE("stw_end") *c = rng(GTR_EVENT_RANGE_END, S("stop-the-world ()"),
                             gtr_make_resource_goroutine(9));
    CASE("stw_active") *c = rng(GTR_EVENT_RANGE_ACTIVE, S("stop-the-world (x)"),
                                gtr_make_resource_goroutine(9));
    CASE("stw_bad_scope") *c = rng(GTR_EVENT_RANGE_BEGIN, S("stop-the-world (x)"),
                                   gtr_make_resource_proc(9));
    CASE("stw_newline") *c = rng(GTR_EVENT_RANGE_BEGIN, S("stop-the-world (a\nb)"),
                                 gtr_make_resource_goroutine(9));
    CASE("range_bad_name") *c = rng(GTR_EVENT_RANGE_BEGIN, S("bogus"), none);
    CASE("proc_idle_idle") *c = tr(pst(4, GTR_PROC_IDLE, GTR_PROC_IDLE));
    CASE("proc_start") *c = tr(pst(4, GTR_PROC_IDLE, GTR_PROC_RUNNING));
    CASE("proc_stop") *c = tr(pst(2, GTR_PROC_RUNNING, GTR_PROC_IDLE));
    CASE("proc_steal") *c = tr(pst(4, GTR_PROC_RUNNING, GTR_PROC_IDLE));
    CASE("proc_status") *c = tr(pst(4, GTR_PROC_NOT_EXIST, GTR_PROC_RUNNING));
    CASE("proc_status_undetermined") *c = tr(pst(4, GTR_PROC_UNDETERMINED, GTR_PROC_IDLE));
    CASE("go_status_stack") {
        *c = tr(gst(13, GTR_GO_UNDETERMINED, GTR_GO_RUNNING));
        c->stack = stk(b, &fr1, &fr2);
    }
    CASE("go_status") *c = tr(gst(13, GTR_GO_RUNNABLE, GTR_GO_RUNNABLE));
    CASE("go_create_blocked") {
        *c = tr(gst(11, GTR_GO_NOT_EXIST, GTR_GO_WAITING));
        c->transition.stack = stk(b, &fr2, &fr1);
        c->stack = stk(b, &fr1, NULL);
    }
    CASE("go_create") *c = tr(gst(10, GTR_GO_NOT_EXIST, GTR_GO_RUNNABLE));
    CASE("go_create_syscall") *c = tr(gst(12, GTR_GO_NOT_EXIST, GTR_GO_SYSCALL));
    CASE("go_create_running") *c = tr(gst(12, GTR_GO_NOT_EXIST, GTR_GO_RUNNING));
    CASE("go_start") *c = tr(gst(10, GTR_GO_RUNNABLE, GTR_GO_RUNNING));
    CASE("go_destroy") *c = tr(gst(10, GTR_GO_RUNNING, GTR_GO_NOT_EXIST));
    CASE("go_stop") {
        *c = tr(gst(10, GTR_GO_RUNNING, GTR_GO_RUNNABLE));
        c->transition.reason = S("yield");
        c->stack = stk(b, &fr1, &fr2);
    }
    CASE("go_block") {
        *c = tr(gst(10, GTR_GO_RUNNING, GTR_GO_WAITING));
        c->transition.reason = S("chan receive");
    }
    CASE("go_syscall_begin") *c = tr(gst(10, GTR_GO_RUNNING, GTR_GO_SYSCALL));
    CASE("go_running_undetermined") *c = tr(gst(10, GTR_GO_RUNNING, GTR_GO_UNDETERMINED));
    CASE("go_destroy_syscall") *c = tr(gst(10, GTR_GO_SYSCALL, GTR_GO_NOT_EXIST));
    CASE("go_syscall_end") *c = tr(gst(10, GTR_GO_SYSCALL, GTR_GO_RUNNING));
    CASE("go_syscall_end_blocked") *c = tr(gst(10, GTR_GO_SYSCALL, GTR_GO_RUNNABLE));
    CASE("go_syscall_waiting") *c = tr(gst(10, GTR_GO_SYSCALL, GTR_GO_WAITING));
    CASE("go_unblock") *c = tr(gst(11, GTR_GO_WAITING, GTR_GO_RUNNABLE));
    CASE("go_waiting_running") *c = tr(gst(11, GTR_GO_WAITING, GTR_GO_RUNNING));
    CASE("go_bad_from") *c = tr(gst(11, (gtr_go_state)9, GTR_GO_RUNNING));
    CASE("thread_transition") {
        *c = tr(gst(0, GTR_GO_UNDETERMINED, GTR_GO_UNDETERMINED));
        c->transition.resource = gtr_make_resource_thread(3);
    }
    CASE("none_transition") {
        *c = tr(gst(0, GTR_GO_UNDETERMINED, GTR_GO_UNDETERMINED));
        c->transition.resource = none;
    }
    CASE("sync") {
        *c = cfg(GTR_EVENT_SYNC, GTR_DETAILS_SYNC);
        c->sync.n = 1;
    }
    CASE("sync_snapshot") {
        *c = cfg(GTR_EVENT_SYNC, GTR_DETAILS_SYNC);
        c->sync.n = 2;
        c->sync.has_clock_snapshot = true;
        c->sync.clock = (gtr_clock_snapshot){1000, 1700000000, 5, 7};
    }
    CASE("task_begin") {
        *c = cfg(GTR_EVENT_TASK_BEGIN, GTR_DETAILS_TASK);
        c->task = (gtr_task){5, 2, S("mytask")};
    }
    CASE("task_end") {
        *c = cfg(GTR_EVENT_TASK_END, GTR_DETAILS_TASK);
        c->task = (gtr_task){5, 2, S("mytask")};
    }
    CASE("task_end_empty_type") {
        *c = cfg(GTR_EVENT_TASK_END, GTR_DETAILS_TASK);
        c->task = (gtr_task){6, GTR_NO_TASK, S("")};
    }
    CASE("task_no_task") {
        *c = cfg(GTR_EVENT_TASK_BEGIN, GTR_DETAILS_TASK);
        c->task = (gtr_task){GTR_NO_TASK, 0, S("")};
    }
    CASE("region_begin") {
        *c = cfg(GTR_EVENT_REGION_BEGIN, GTR_DETAILS_REGION);
        c->region = (gtr_region){5, S("region")};
    }
    CASE("region_end") {
        *c = cfg(GTR_EVENT_REGION_END, GTR_DETAILS_REGION);
        c->region = (gtr_region){5, S("region")};
    }
    CASE("log") {
        *c = cfg(GTR_EVENT_LOG, GTR_DETAILS_LOG);
        c->log = (gtr_log){3, S("cat"), S("hello\tworld")};
        c->stack = stk(b, &fr2, NULL);
    }
    CASE("stack_sample") {
        *c = cfg(GTR_EVENT_STACK_SAMPLE, GTR_DETAILS_STACK_SAMPLE);
        c->stack = stk(b, &fr1, &fr2);
    }
    CASE("stack_sample_no_stack") *c = cfg(GTR_EVENT_STACK_SAMPLE, GTR_DETAILS_STACK_SAMPLE);
    CASE("stack_duplicate_pc") {
        *c = cfg(GTR_EVENT_STACK_SAMPLE, GTR_DETAILS_STACK_SAMPLE);
        c->stack = stk(b, &dup_a, &dup_b);
    }
    else fail_msg("no C construction for make case %s", name);
#undef CASE
}

static void test_event_make_every_case_matches_go(void **state)
{
    gtr_event_builder *b;
    gtr_buf out = {0};
    (void)state;
    assert_int_equal(gtr_event_builder_new(NULL, &b, NULL), GTR_OK);
    for (size_t i = 0; i < NELEM(make_vectors); i++) {
        const vec_make *v = &make_vectors[i];
        gtr_event_config c;
        gtr_event e;
        gtr_err err = GTR_ERR_INIT;
        gtr_status st;
        build_case(v->name, b, &c);
        gtr_err_clear(&err);
        st = gtr_make_event(b, &c, &e, &err);
        gtr_buf_reset(&out);
        if (st == GTR_OK)
            assert_int_equal(gtr_event_string(&e, &out), GTR_OK);
        if (v->is_error ? (st != GTR_E_INVALID || strcmp(err.msg, v->want) != 0)
                        : (st != GTR_OK || strcmp(out.data, v->want) != 0)) {
            print_error("make case %s (status %d):\n got: %s\nwant: %s\n", v->name, st,
                        st == GTR_OK ? out.data : err.msg, v->want);
            fail();
        }
    }
    gtr_buf_free(&out);
    gtr_event_builder_free(b);
}

static void test_event_make_bad_status_state_fails(void **state)
{
    gtr_event_builder *b;
    gtr_event_config c = tr(gst(1, GTR_GO_UNDETERMINED, (gtr_go_state)9));
    gtr_event e;
    gtr_err err = GTR_ERR_INIT;
    (void)state;
    assert_int_equal(gtr_event_builder_new(NULL, &b, NULL), GTR_OK);
    /* Go indexes goState2Tracev2GoStatus (6 entries) with the new state and panics. */
    assert_int_equal(gtr_make_event(b, &c, &e, &err), GTR_E_USAGE);
    assert_string_equal(err.msg, "runtime error: index out of range [9] with length 6");
    c = tr(pst(1, GTR_PROC_UNDETERMINED, (gtr_proc_state)7));
    assert_int_equal(gtr_make_event(b, &c, &e, &err), GTR_E_USAGE);
    assert_string_equal(err.msg, "runtime error: index out of range [7] with length 4");
    gtr_event_builder_free(b);
}

static void test_event_make_stack_frames_read_back(void **state)
{
    gtr_event_builder *b;
    gtr_stack s;
    gtr_frame f;
    gtr_frame frames[2] = {fr1, fr2};
    (void)state;
    assert_int_equal(gtr_event_builder_new(NULL, &b, NULL), GTR_OK);
    assert_int_equal(gtr_make_stack(b, frames, 2, &s, NULL), GTR_OK);
    frames[0].func = S("overwritten"); /* the builder copied the strings */
    assert_int_equal(gtr_stack_len(s), 2);
    assert_int_equal(gtr_stack_frame(s, 1, &f, NULL), GTR_OK);
    assert_int_equal(f.pc, 0x5678);
    assert_int_equal(f.line, 283);
    assert_int_equal(gtr_stack_frame(s, 0, &f, NULL), GTR_OK);
    assert_int_equal(f.func.len, 9);
    assert_memory_equal(f.func.data, "main.main", 9);
    gtr_event_builder_free(b);
}

/* A stack of no frames (MakeStack(nil)) as an event's stack, in a builder that has no frames
 * yet: found by fuzz_reader's MakeEvent round trip, where it was NULL + 0 (UBSan). */
static void test_event_make_empty_stack(void **state)
{
    gtr_event_builder *b;
    gtr_stack s;
    gtr_event ev;
    (void)state;
    assert_int_equal(gtr_event_builder_new(NULL, &b, NULL), GTR_OK);
    assert_int_equal(gtr_make_stack(b, NULL, 0, &s, NULL), GTR_OK);
    assert_int_equal(gtr_stack_len(s), 0);
    gtr_event_config c = tr(gst(7, GTR_GO_RUNNING, GTR_GO_WAITING));
    c.stack = s;
    assert_int_equal(gtr_make_event(b, &c, &ev, NULL), GTR_OK);
    assert_int_equal(gtr_stack_len(gtr_event_stack(&ev)), 0);
    gtr_event_builder_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_make_every_case_matches_go),
        cmocka_unit_test(test_event_make_bad_status_state_fails),
        cmocka_unit_test(test_event_make_stack_frames_read_back),
        cmocka_unit_test(test_event_make_empty_stack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
