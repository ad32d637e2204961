/* SPDX-License-Identifier: BSD-3-Clause */
/* test_order.c: unit tests of the ordering state machine (order.c), driving
 * gtr__ordering_advance directly, as the reader does, with base events over tables built
 * with base.h's constructors. Expected messages were checked against Go's reader (gtroracle) where a wire
 * trace can reach them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base.h"
#include "order.h"

#define NO_M ((gtr_threadid)-1)
#define U64(x) ((uint64_t)(int64_t)(x))
#define NONE UINT64_MAX /* -1 as a wire arg (NoThread, NoGoroutine) */

/* ------------------------------------------------------------------------------------------ */
/* Fixture. */

typedef struct fx {
    gtr__ordering *o;
    gtr__ev_table *evt;  /* the current generation's table */
    gtr__ev_table *evt2; /* a second generation's table, without strings */
    gtr_err err;
    gtr_time now;
} fx;

static gtr__ev_table *new_table(bool with_strings)
{
    gtr__ev_table *t = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr__evt_new(NULL, &t, &err), GTR_OK);
    if (with_strings) {
        assert_int_equal(gtr__evt_add_string(t, 1, "foo", 3, &err), GTR_OK);
        assert_int_equal(gtr__evt_add_string(t, 2, "bar", 3, &err), GTR_OK);
        assert_int_equal(gtr__evt_add_string(t, 3, "my task", 7, &err), GTR_OK);
        /* Stack 4, which some events name: an ID not in the table is an error. */
        assert_int_equal(gtr__evt_add_stack(t, 4, NULL, 0, &err), GTR_OK);
    }
    return t;
}

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    if (f == NULL)
        return -1;
    if (gtr__ordering_new(NULL, &f->o, &f->err) != GTR_OK)
        return -1;
    f->evt = new_table(true);
    f->evt2 = new_table(false);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    gtr__ordering_free(f->o);
    gtr__evt_free(f->evt);
    gtr__evt_free(f->evt2);
    free(f);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Helpers. */

static gtr__base_event mk(uint8_t typ, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
    gtr__base_event e;
    memset(&e, 0, sizeof e);
    e.type = typ;
    e.args[0] = a0;
    e.args[1] = a1;
    e.args[2] = a2;
    e.args[3] = a3;
    return e;
}

#define E0(t) mk((t), 0, 0, 0, 0)
#define E1(t, a) mk((t), (a), 0, 0, 0)
#define E2(t, a, b) mk((t), (a), (b), 0, 0)
#define E3(t, a, b, c) mk((t), (a), (b), (c), 0)

/* order_advance is the reader's step on the ordering: the advance, then the table ID check
 * of what it queued when the advance asks for it. */
static gtr_status order_advance(gtr__ordering *o, gtr__base_event *ev, gtr__ev_table *evt,
                                gtr_threadid m, uint64_t gen, bool *ok, gtr_err *err)
{
    void *mcache = NULL;
    gtr__advanced a;
    gtr__ordering_begin_generation(o, evt, gen);
    gtr_status st = gtr__ordering_advance(o, ev, m, &mcache, &a, err);
    *ok = a.ok;
    if (st == GTR_OK && a.check_ids)
        st = gtr__ordering_check_ids(o, err);
    return st;
}

/* advance: the status and *ok of advancing ev (a copy is kept in *last when not NULL). */
static gtr_status advance(fx *f, gtr__ev_table *evt, gtr_threadid m, uint64_t gen,
                          gtr__base_event ev, bool *ok, gtr__base_event *last)
{
    ev.time = ++f->now;
    gtr_err_clear(&f->err);
    gtr_status st = order_advance(f->o, &ev, evt, m, gen, ok, &f->err);
    if (last != NULL)
        *last = ev;
    return st;
}

static void adv_ok_(fx *f, gtr__ev_table *evt, gtr_threadid m, uint64_t gen,
                    gtr__base_event ev, const char *where)
{
    bool ok = false;
    gtr_status st = advance(f, evt, m, gen, ev, &ok, NULL);
    if (st != GTR_OK || !ok)
        fail_msg("%s: status %d ok %d: %s", where, (int)st, (int)ok, f->err.msg);
}

static void adv_no_(fx *f, gtr__ev_table *evt, gtr_threadid m, uint64_t gen,
                    gtr__base_event ev, const char *where)
{
    bool ok = true;
    gtr_status st = advance(f, evt, m, gen, ev, &ok, NULL);
    if (st != GTR_OK || ok)
        fail_msg("%s: want not advanceable; status %d ok %d: %s", where, (int)st, (int)ok,
                 f->err.msg);
}

static void adv_err_(fx *f, gtr__ev_table *evt, gtr_threadid m, uint64_t gen,
                     gtr__base_event ev, const char *want, const char *where)
{
    bool ok = true;
    gtr_status st = advance(f, evt, m, gen, ev, &ok, NULL);
    if (st != GTR_E_ORDER || ok)
        fail_msg("%s: want error %s; status %d ok %d: %s", where, want, (int)st, (int)ok,
                 f->err.msg);
    if (strcmp(f->err.msg, want) != 0)
        fail_msg("%s: error\n  got  %s\n  want %s", where, f->err.msg, want);
}

#define STR_(x) #x
#define STR(x) STR_(x)
#define WHERE __FILE__ ":" STR(__LINE__)
#define ADV_OK(f, m, gen, ev) adv_ok_((f), (f)->evt, (m), (gen), (ev), WHERE)
#define ADV_NO(f, m, gen, ev) adv_no_((f), (f)->evt, (m), (gen), (ev), WHERE)
#define ADV_ERR(f, m, gen, ev, msg) adv_err_((f), (f)->evt, (m), (gen), (ev), (msg), WHERE)

static gtr_event pop(fx *f)
{
    gtr_event e;
    memset(&e, 0, sizeof e);
    if (!gtr__ordering_next(f->o, &e))
        fail_msg("queue empty");
    return e;
}

static void drain(fx *f)
{
    gtr_event e;
    while (gtr__ordering_next(f->o, &e)) {
    }
}

static void assert_queue_empty(fx *f)
{
    gtr_event e;
    assert_false(gtr__ordering_next(f->o, &e));
}

static void assert_ev(const gtr_event *e, uint8_t typ, gtr_goid g, gtr_procid p,
                      gtr_threadid m)
{
    assert_int_equal(e->type_, typ);
    assert_int_equal(e->g_, g);
    assert_int_equal(e->p_, p);
    assert_int_equal(e->m_, m);
}

/* Common preludes (gen 1 unless said otherwise). */

/* m runs p (Running) and g (Running). */
static void running(fx *f, gtr_threadid m, uint64_t gen, gtr_procid p, gtr_goid g)
{
    ADV_OK(f, m, gen, E2(GTR_EV_PROC_STATUS, U64(p), GTR_PSTATUS_RUNNING));
    ADV_OK(f, m, gen, E3(GTR_EV_GO_STATUS, U64(g), U64(m), GTR_GSTATUS_RUNNING));
    drain(f);
}

/* m runs p and g, and g enters a syscall (P seq 1): p is in ProcSyscall. */
static void in_syscall(fx *f, gtr_threadid m, uint64_t gen, gtr_procid p, gtr_goid g)
{
    running(f, m, gen, p, g);
    ADV_OK(f, m, gen, E2(GTR_EV_GO_SYSCALL_BEGIN, 1, 0));
    drain(f);
}

/* Two threads bound to the same running goroutine g (with procs p0, p1), the goroutine then
 * destroyed on thread m1: thread m0 keeps a G without a state. */
static void stale_goroutine(fx *f, gtr_threadid m0, gtr_threadid m1, gtr_goid g)
{
    running(f, m0, 1, 0, g);
    running(f, m1, 1, 1, g);
    ADV_OK(f, m1, 1, E0(GTR_EV_GO_DESTROY));
    drain(f);
}

/* ------------------------------------------------------------------------------------------ */
/* Dispatch and validateCtx. */

static void test_order_dispatch_unknown_type_fails(void **state)
{
    fx *f = *state;
    ADV_ERR(f, 0, 1, E1(GTR_EV_FREQUENCY, 1), "bad event type found while ordering: 8");
    ADV_ERR(f, 0, 1, E0(GTR_EV_NONE), "bad event type found while ordering: 0");
    ADV_ERR(f, 0, 1, E0(GTR_EV_CLOCK_SNAPSHOT), "bad event type found while ordering: 51");
    ADV_ERR(f, NO_M, 1, E0(200), "bad event type found while ordering: 200");
    assert_queue_empty(f);
}

static void test_order_validate_ctx_each_requirement_fails(void **state)
{
    (void)state;
    gtr_err err = GTR_ERR_INIT;
    enum { N = GTR__MUST_NOT_HAVE, Y = GTR__MAY_HAVE, H = GTR__MUST_HAVE };
    assert_int_equal(gtr__ordering_validate_ctx(-1, -1, -1, H, Y, Y, &err), GTR_E_ORDER);
    assert_string_equal(err.msg, "expected a thread but didn't have one");
    assert_int_equal(gtr__ordering_validate_ctx(-1, -1, 3, N, Y, Y, &err), GTR_E_ORDER);
    assert_string_equal(err.msg, "expected no thread but had one");
    assert_int_equal(gtr__ordering_validate_ctx(-1, -1, 3, H, H, Y, &err), GTR_E_ORDER);
    assert_string_equal(err.msg, "expected a proc but didn't have one");
    assert_int_equal(gtr__ordering_validate_ctx(-1, 0, 3, H, N, Y, &err), GTR_E_ORDER);
    assert_string_equal(err.msg, "expected no proc but had one");
    assert_int_equal(gtr__ordering_validate_ctx(-1, 0, 3, H, H, H, &err), GTR_E_ORDER);
    assert_string_equal(err.msg, "expected a goroutine but didn't have one");
    assert_int_equal(gtr__ordering_validate_ctx(7, 0, 3, H, H, N, &err), GTR_E_ORDER);
    assert_string_equal(err.msg, "expected no goroutine but had one");
    /* Thread is checked first, then proc, then goroutine. */
    assert_int_equal(gtr__ordering_validate_ctx(-1, -1, -1, H, H, H, &err), GTR_E_ORDER);
    assert_string_equal(err.msg, "expected a thread but didn't have one");
    assert_int_equal(gtr__ordering_validate_ctx(-1, -1, 0, H, H, H, &err), GTR_E_ORDER);
    assert_string_equal(err.msg, "expected a proc but didn't have one");
    assert_int_equal(gtr__ordering_validate_ctx(-1, -1, -1, Y, Y, Y, &err), GTR_OK);
    assert_int_equal(gtr__ordering_validate_ctx(0, 0, 0, H, H, H, &err), GTR_OK);
}

static void test_order_validate_ctx_reached_through_advance_fails(void **state)
{
    fx *f = *state;
    /* No thread. */
    ADV_ERR(f, NO_M, 1, E3(GTR_EV_GO_CREATE, 5, 0, 0), "expected a thread but didn't have one");
    /* No proc. */
    ADV_ERR(f, 0, 1, E3(GTR_EV_GO_CREATE, 5, 0, 0), "expected a proc but didn't have one");
    /* No goroutine. */
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING));
    ADV_ERR(f, 0, 1, E2(GTR_EV_GO_STOP, 0, 0), "expected a goroutine but didn't have one");
    /* A goroutine where none is allowed. */
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 1, 0, GTR_GSTATUS_RUNNING));
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_STATUS, 2, NONE, GTR_GSTATUS_RUNNABLE));
    ADV_ERR(f, 0, 1, E2(GTR_EV_GO_START, 2, 1), "expected no goroutine but had one");
}

/* ------------------------------------------------------------------------------------------ */
/* Procs. */

static void test_order_proc_status_first_gen_is_undetermined(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 3, GTR_PSTATUS_RUNNING));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_PROC_STATUS, -1, -1, 0);
    assert_int_equal(e.args_[0], 3);
    assert_int_equal(e.args_[1], GTR_PSTATUS_RUNNING);
    assert_int_equal(e.args_[2], GTR_PROC_UNDETERMINED); /* extra: old state */
    /* The proc is now bound to thread 0. */
    ADV_OK(f, 0, 1, E1(GTR_EV_HEAP_ALLOC, 100));
    e = pop(f);
    assert_ev(&e, GTR_EV_HEAP_ALLOC, -1, 3, 0);
    /* An idle proc does not bind. */
    ADV_OK(f, 1, 1, E2(GTR_EV_PROC_STATUS, 4, GTR_PSTATUS_IDLE));
    e = pop(f);
    assert_int_equal(e.args_[2], GTR_PROC_UNDETERMINED);
    ADV_ERR(f, 1, 1, E1(GTR_EV_HEAP_ALLOC, 100), "expected a proc but didn't have one");
}

static void test_order_proc_status_new_proc_later_gen_is_not_exist(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_IDLE));
    drain(f);
    ADV_OK(f, 0, 2, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_IDLE));
    gtr_event e = pop(f);
    assert_int_equal(e.args_[2], GTR_PROC_IDLE);
    ADV_OK(f, 0, 2, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_SYSCALL));
    e = pop(f);
    assert_int_equal(e.args_[2], GTR_PROC_NOT_EXIST);
    /* Syscall binds like Running. */
    ADV_OK(f, 0, 2, E1(GTR_EV_HEAP_GOAL, 1));
    e = pop(f);
    assert_int_equal(e.p_, 1);
}

static void test_order_proc_status_invalid_status_fails(void **state)
{
    fx *f = *state;
    ADV_ERR(f, 0, 1, E2(GTR_EV_PROC_STATUS, 2, 5), "invalid status for proc 2: 5");
    /* tracev2.ProcStatus is a uint8: 261 is status 5. */
    ADV_ERR(f, 0, 1, E2(GTR_EV_PROC_STATUS, 2, 261), "invalid status for proc 2: 5");
    ADV_ERR(f, 0, 1, E2(GTR_EV_PROC_STATUS, NONE, 9), "invalid status for proc -1: 9");
    /* ProcBad (0) is accepted, as the Undetermined state. */
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 2, GTR_PSTATUS_BAD));
    gtr_event e = pop(f);
    assert_int_equal(e.args_[2], GTR_PROC_UNDETERMINED);
}

static void test_order_proc_status_inconsistent_fails(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING));
    ADV_ERR(f, 1, 2, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_IDLE),
            "inconsistent status for proc 0: old Running vs. new Idle");
    ADV_ERR(f, 1, 2, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_SYSCALL_ABANDONED),
            "inconsistent status for proc 0: old Running vs. new SyscallAbandoned");
}

static void test_order_proc_status_abandoned_in_syscall_is_promoted(void **state)
{
    fx *f = *state;
    in_syscall(f, 0, 1, 0, 1);
    /* Next generation: another thread emits the status of the P still in its syscall. */
    ADV_OK(f, 5, 2, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_SYSCALL_ABANDONED));
    gtr_event e = pop(f);
    /* Emitted in the context the P is bound to. */
    assert_ev(&e, GTR_EV_PROC_STATUS, 1, 0, 0);
    assert_int_equal(e.args_[1], GTR_PSTATUS_SYSCALL);
    assert_int_equal(e.args_[2], GTR_PROC_RUNNING);
    /* Thread 5 did not get the P. */
    ADV_ERR(f, 5, 2, E1(GTR_EV_HEAP_ALLOC, 1), "expected a proc but didn't have one");
}

static void test_order_proc_status_abandoned_twice_is_idle(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_SYSCALL_ABANDONED));
    gtr_event e = pop(f);
    assert_int_equal(e.args_[2], GTR_PROC_UNDETERMINED);
    ADV_OK(f, 0, 2, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_SYSCALL_ABANDONED));
    e = pop(f);
    assert_ev(&e, GTR_EV_PROC_STATUS, -1, -1, 0);
    assert_int_equal(e.args_[1], GTR_PSTATUS_SYSCALL_ABANDONED);
    assert_int_equal(e.args_[2], GTR_PROC_IDLE);
}

static void test_order_proc_status_abandoned_without_thread_fails(void **state)
{
    fx *f = *state;
    /* P0 in a syscall bound to thread 0, which then takes P1: no thread holds P0. */
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_SYSCALL));
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    ADV_ERR(f, 3, 2, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_SYSCALL_ABANDONED),
            "failed to find sched context for proc 0 that's about to be stolen");
}

static void test_order_proc_start_waits_for_status_and_seq(void **state)
{
    fx *f = *state;
    /* No status yet. */
    ADV_NO(f, 0, 1, E2(GTR_EV_PROC_START, 0, 1));
    ADV_OK(f, 1, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_IDLE));
    /* Wrong sequence number. */
    ADV_NO(f, 0, 1, E2(GTR_EV_PROC_START, 0, 2));
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_START, 0, 1));
    drain(f);
    /* Running: can't start again. */
    ADV_NO(f, 2, 1, E2(GTR_EV_PROC_START, 0, 2));
    /* A thread that already has a P waits too. */
    ADV_OK(f, 2, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_IDLE));
    ADV_OK(f, 3, 1, E2(GTR_EV_PROC_STATUS, 2, GTR_PSTATUS_IDLE));
    ADV_NO(f, 0, 1, E2(GTR_EV_PROC_START, 1, 1));
    /* Without a thread. */
    ADV_ERR(f, NO_M, 1, E2(GTR_EV_PROC_START, 2, 1), "expected a thread but didn't have one");
}

static void test_order_proc_start_binds_proc(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 7, GTR_PSTATUS_IDLE));
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_START, 7, 1));
    drain(f);
    ADV_OK(f, 0, 1, E0(GTR_EV_PROC_STOP));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_PROC_STOP, -1, 7, 0);
    /* Idle again, the next start needs seq 2. */
    ADV_NO(f, 0, 1, E2(GTR_EV_PROC_START, 7, 1));
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_START, 7, 2));
}

static void test_order_proc_stop_unknown_proc_fails(void **state)
{
    fx *f = *state;
    ADV_ERR(f, 0, 1, E0(GTR_EV_PROC_STOP), "event ProcStop for proc (-1) that doesn't exist");
}

static void test_order_proc_stop_idle_proc_fails(void **state)
{
    fx *f = *state;
    /* Two threads bound to the same running P; one stops it. */
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 1, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 1, 1, E0(GTR_EV_PROC_STOP));
    ADV_ERR(f, 0, 1, E0(GTR_EV_PROC_STOP),
            "ProcStop event for proc that's not Running or Syscall");
}

static void test_order_proc_steal_from_other_thread_in_syscall(void **state)
{
    fx *f = *state;
    in_syscall(f, 0, 1, 0, 1);
    /* The syscall exit can't advance while the P is in the syscall. */
    ADV_NO(f, 0, 1, E0(GTR_EV_GO_SYSCALL_END_BLOCKED));
    /* Wrong P sequence number. */
    ADV_NO(f, 1, 1, E3(GTR_EV_PROC_STEAL, 0, 3, 0));
    gtr__base_event last;
    bool ok = false;
    assert_int_equal(advance(f, f->evt, 1, 1, E3(GTR_EV_PROC_STEAL, 0, 2, 0), &ok, &last),
                     GTR_OK);
    assert_true(ok);
    assert_int_equal(last.args[3], GTR_PSTATUS_SYSCALL); /* extra: the old status */
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_PROC_STEAL, -1, -1, 1);
    assert_int_equal(e.args_[3], GTR_PSTATUS_SYSCALL);
    /* Thread 0 lost its P: the blocked syscall exit advances now. */
    ADV_OK(f, 0, 1, E0(GTR_EV_GO_SYSCALL_END_BLOCKED));
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_SYSCALL_END_BLOCKED, 1, -1, 0);
    /* The goroutine is runnable, the P idle with seq 2. */
    ADV_OK(f, 1, 1, E2(GTR_EV_PROC_START, 0, 3));
    ADV_OK(f, 1, 1, E2(GTR_EV_GO_START, 1, 1));
    e = pop(f);
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_START, -1, 0, 1);
}

static void test_order_proc_steal_self_acts_as_stop(void **state)
{
    fx *f = *state;
    in_syscall(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, E3(GTR_EV_PROC_STEAL, 0, 2, 0));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_PROC_STEAL, 1, 0, 0);
    ADV_OK(f, 0, 1, E0(GTR_EV_GO_SYSCALL_END_BLOCKED));
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_SYSCALL_END_BLOCKED, 1, -1, 0);
}

static void test_order_proc_steal_self_wrong_proc_fails(void **state)
{
    fx *f = *state;
    in_syscall(f, 0, 1, 0, 1);
    ADV_OK(f, 1, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    ADV_ERR(f, 1, 1, E3(GTR_EV_PROC_STEAL, 0, 2, 1),
            "tried to self-steal proc 0 (thread 1), but got proc 1 instead");
}

static void test_order_proc_steal_unknown_thread_fails(void **state)
{
    fx *f = *state;
    in_syscall(f, 0, 1, 0, 1);
    ADV_ERR(f, 1, 1, E3(GTR_EV_PROC_STEAL, 0, 2, 7), "stole proc from non-existent thread 7");
}

static void test_order_proc_steal_wrong_proc_fails(void **state)
{
    fx *f = *state;
    in_syscall(f, 0, 1, 0, 1);
    /* Thread 2 becomes known (even a refused event creates its state) without a P. */
    ADV_NO(f, 2, 1, E2(GTR_EV_PROC_START, 9, 1));
    ADV_ERR(f, 1, 1, E3(GTR_EV_PROC_STEAL, 0, 2, 2),
            "tried to steal proc 0 from thread 2, but got proc -1 instead");
}

static void test_order_proc_steal_not_in_syscall_waits(void **state)
{
    fx *f = *state;
    ADV_NO(f, 1, 1, E3(GTR_EV_PROC_STEAL, 0, 1, 0)); /* unknown P */
    running(f, 0, 1, 0, 1);
    ADV_NO(f, 1, 1, E3(GTR_EV_PROC_STEAL, 0, 1, 0)); /* P running */
    ADV_ERR(f, NO_M, 1, E2(GTR_EV_GO_SYSCALL_BEGIN, 1, 0),
            "expected a thread but didn't have one");
}

static void test_order_proc_steal_abandoned_ignores_thread(void **state)
{
    fx *f = *state;
    ADV_OK(f, 1, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 3, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_SYSCALL_ABANDONED));
    drain(f);
    /* The thread named (9) is unknown and thread 1 has another P: neither matters. */
    gtr__base_event last;
    bool ok = false;
    assert_int_equal(advance(f, f->evt, 1, 1, E3(GTR_EV_PROC_STEAL, 0, 1, 9), &ok, &last),
                     GTR_OK);
    assert_true(ok);
    assert_int_equal(last.args[3], GTR_PSTATUS_SYSCALL_ABANDONED);
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_PROC_STEAL, -1, 1, 1);
    /* Thread 1 keeps P1. */
    ADV_OK(f, 1, 1, E1(GTR_EV_HEAP_ALLOC, 1));
    e = pop(f);
    assert_int_equal(e.p_, 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Goroutine statuses. */

static void test_order_go_status_packs_old_and_new_state(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 1, 0, GTR_GSTATUS_RUNNING));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_GO_STATUS, -1, -1, 0);
    assert_int_equal(e.args_[2], (uint64_t)GTR_GO_UNDETERMINED << 32 | GTR_GSTATUS_RUNNING);
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_STATUS, 2, NONE, GTR_GSTATUS_WAITING));
    drain(f);
    /* Next generation: the old state is the status' state. The stack variant is the same. */
    ADV_OK(f, NO_M, 2, mk(GTR_EV_GO_STATUS_STACK, 2, NONE, GTR_GSTATUS_WAITING, 4));
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_STATUS_STACK, -1, -1, -1);
    assert_int_equal(e.args_[2], (uint64_t)GTR_GO_WAITING << 32 | GTR_GSTATUS_WAITING);
    assert_int_equal(e.args_[3], 4);
    /* The running goroutine is bound to thread 0. */
    ADV_OK(f, 0, 2, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 0, 2, E3(GTR_EV_GO_STATUS, 1, 0, GTR_GSTATUS_RUNNING));
    ADV_OK(f, 0, 2, E2(GTR_EV_GO_LABEL, 1, 0));
    drain(f);
}

static void test_order_go_status_invalid_status_fails(void **state)
{
    fx *f = *state;
    ADV_ERR(f, 0, 1, E3(GTR_EV_GO_STATUS, 1, 0, 5), "invalid status for goroutine 1: 5");
    ADV_ERR(f, 0, 1, E3(GTR_EV_GO_STATUS, 1, 0, 0x107), "invalid status for goroutine 1: 7");
}

static void test_order_go_status_inconsistent_fails(void **state)
{
    fx *f = *state;
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_STATUS, 1, NONE, GTR_GSTATUS_RUNNABLE));
    ADV_ERR(f, NO_M, 2, E3(GTR_EV_GO_STATUS, 1, NONE, GTR_GSTATUS_WAITING),
            "inconsistent status for goroutine 1: old Runnable vs. new Waiting");
}

static void test_order_go_status_new_goroutine_later_gen_fails(void **state)
{
    fx *f = *state;
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_STATUS, 1, NONE, GTR_GSTATUS_RUNNABLE));
    ADV_ERR(f, NO_M, 2, E3(GTR_EV_GO_STATUS, 9, NONE, GTR_GSTATUS_SYSCALL),
            "found goroutine status for new goroutine after the first generation: id=9 "
            "status=Syscall");
}

static void test_order_go_status_syscall_without_thread_fails(void **state)
{
    fx *f = *state;
    ADV_ERR(f, 0, 1, E3(GTR_EV_GO_STATUS, 1, NONE, GTR_GSTATUS_SYSCALL),
            "found goroutine 1 in syscall without a thread");
}

static void test_order_go_status_syscall_on_other_thread(void **state)
{
    fx *f = *state;
    /* Thread 5 is unseen: the event is the binding one, so its "before" G is none. */
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 1, 5, GTR_GSTATUS_SYSCALL));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_GO_STATUS, -1, -1, 5);
    /* Next generation: thread 5 is known and holds goroutine 1. */
    ADV_OK(f, 0, 2, E3(GTR_EV_GO_STATUS, 1, 5, GTR_GSTATUS_SYSCALL));
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_STATUS, 1, -1, 5);
    /* Thread 0 did not get the goroutine, thread 5 has it. */
    ADV_OK(f, 5, 2, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_SYSCALL));
    ADV_OK(f, 5, 2, E0(GTR_EV_GO_SYSCALL_END));
    drain(f);
    ADV_ERR(f, 0, 2, E2(GTR_EV_GO_SYSCALL_BEGIN, 1, 0), "expected a proc but didn't have one");
}

static void test_order_go_status_syscall_other_thread_mismatch_fails(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 1, 5, GTR_GSTATUS_SYSCALL));
    ADV_ERR(f, 0, 1, E3(GTR_EV_GO_STATUS, 2, 5, GTR_GSTATUS_SYSCALL),
            "inconsistent thread for syscalling goroutine 2: thread has goroutine 1");
}

static void test_order_go_status_syscall_same_thread_later_gen_mismatch_fails(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 1, 0, GTR_GSTATUS_SYSCALL));
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 2, 5, GTR_GSTATUS_SYSCALL));
    /* In the first generation the binding may be new; later it must already exist. */
    ADV_ERR(f, 0, 2, E3(GTR_EV_GO_STATUS, 2, 0, GTR_GSTATUS_SYSCALL),
            "inconsistent thread for syscalling goroutine 2: thread has goroutine 1");
    ADV_OK(f, 0, 2, E3(GTR_EV_GO_STATUS, 1, 0, GTR_GSTATUS_SYSCALL));
}

/* An advance that queues an event naming a stack ID not in the table says so, and the check
 * it asks for (ReadEvent's validateTableIDs) cuts the queue before that event. */
static void test_order_unknown_stack_id_asks_for_the_check(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    drain(f);
    gtr__base_event ev = E3(GTR_EV_GO_CREATE, 2, 0, 0);
    void *mcache = NULL;
    gtr__advanced a;
    assert_int_equal(gtr__ordering_advance(f->o, &ev, 0, &mcache, &a, &f->err), GTR_OK);
    assert_true(a.ok);
    assert_false(a.check_ids);
    assert_non_null(mcache);
    ev = E3(GTR_EV_GO_CREATE, 3, 999, 0);
    assert_int_equal(gtr__ordering_advance(f->o, &ev, 0, &mcache, &a, &f->err), GTR_OK);
    assert_true(a.ok);
    assert_true(a.check_ids);
    assert_int_equal(gtr__ordering_queued(f->o), 2);
    assert_int_equal(gtr__ordering_check_ids(f->o, &f->err), GTR_E_FORMAT);
    assert_string_equal(f->err.msg, "found invalid stack ID 999 for event GoCreate");
    assert_int_equal(gtr__ordering_queued(f->o), 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Goroutine lifecycle. */

static void test_order_go_create_and_run(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE, 2, 0, 0));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_GO_CREATE, 1, 0, 0);
    ADV_ERR(f, 0, 1, E3(GTR_EV_GO_CREATE, 2, 0, 0),
            "tried to create goroutine (2) that already exists");
    /* Runnable: a GoStart with seq 1 advances (on a thread without a goroutine). */
    ADV_OK(f, 1, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    ADV_NO(f, 1, 1, E2(GTR_EV_GO_START, 2, 2));
    ADV_OK(f, 1, 1, E2(GTR_EV_GO_START, 2, 1));
    drain(f);
    ADV_OK(f, 1, 1, E2(GTR_EV_GO_STOP, 0, 0));
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_STOP, 2, 1, 1);
    ADV_OK(f, 1, 1, E2(GTR_EV_GO_START, 2, 2));
    ADV_OK(f, 1, 1, E2(GTR_EV_GO_BLOCK, 0, 0));
    /* Waiting: a GoStart can't advance, a GoUnblock with the next seq can. */
    ADV_NO(f, 1, 1, E2(GTR_EV_GO_START, 2, 3));
    ADV_NO(f, NO_M, 1, E3(GTR_EV_GO_UNBLOCK, 2, 4, 0));
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_UNBLOCK, 2, 3, 0));
    drain(f);
    ADV_OK(f, 1, 1, E2(GTR_EV_GO_START, 2, 4));
    ADV_OK(f, 1, 1, E0(GTR_EV_GO_DESTROY));
    e = pop(f);
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_DESTROY, 2, 1, 1);
    /* Gone: the ID can be created again. */
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE, 2, 0, 0));
}

static void test_order_go_create_blocked_is_waiting(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE_BLOCKED, 2, 0, 0));
    drain(f);
    ADV_NO(f, 0, 1, E2(GTR_EV_GO_START, 2, 1));
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_UNBLOCK, 2, 1, 0));
}

static void test_order_go_create_without_goroutine(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE, 2, 0, 0));
    drain(f);
}

static void test_order_go_create_by_non_running_goroutine_fails(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 1, 0, GTR_GSTATUS_SYSCALL));
    ADV_ERR(f, 0, 1, E3(GTR_EV_GO_CREATE, 2, 0, 0),
            "GoCreate event for goroutine that's not Running");
    ADV_ERR(f, 0, 1, E3(GTR_EV_GO_CREATE_BLOCKED, 2, 0, 0),
            "GoCreateBlocked event for goroutine that's not Running");
}

static void test_order_go_stop_unknown_goroutine_fails(void **state)
{
    fx *f = *state;
    stale_goroutine(f, 0, 1, 1);
    ADV_ERR(f, 0, 1, E2(GTR_EV_GO_STOP, 0, 0),
            "event GoStop for goroutine (1) that doesn't exist");
    ADV_ERR(f, 0, 1, E2(GTR_EV_GO_BLOCK, 0, 0),
            "event GoBlock for goroutine (1) that doesn't exist");
    ADV_ERR(f, 0, 1, E0(GTR_EV_GO_DESTROY), "event GoDestroy for goroutine (1) that doesn't exist");
    ADV_ERR(f, 0, 1, E2(GTR_EV_GO_SYSCALL_BEGIN, 1, 0),
            "event GoSyscallBegin for goroutine (1) that doesn't exist");
    ADV_ERR(f, 0, 1, E0(GTR_EV_GO_SYSCALL_END),
            "event GoSyscallEnd for goroutine (1) that doesn't exist");
    ADV_ERR(f, 0, 1, E0(GTR_EV_GO_SYSCALL_END_BLOCKED),
            "event GoSyscallEndBlocked for goroutine (1) that doesn't exist");
    ADV_ERR(f, 0, 1, E0(GTR_EV_GO_DESTROY_SYSCALL),
            "event GoDestroySyscall for goroutine (1) that doesn't exist");
    ADV_ERR(f, 0, 1, E2(GTR_EV_GO_SWITCH, 2, 1),
            "event GoSwitch for goroutine (1) that doesn't exist");
}

static void test_order_go_stop_not_running_fails(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 1, 0, GTR_GSTATUS_SYSCALL));
    ADV_ERR(f, 0, 1, E2(GTR_EV_GO_BLOCK, 0, 0), "GoBlock event for goroutine that's not Running");
    ADV_ERR(f, 0, 1, E2(GTR_EV_GO_SYSCALL_BEGIN, 1, 0),
            "GoSyscallBegin event for goroutine that's not Running");
    ADV_ERR(f, 0, 1, E2(GTR_EV_GO_SWITCH_DESTROY, 2, 1),
            "GoSwitchDestroy event for goroutine that's not Running");
}

/* ------------------------------------------------------------------------------------------ */
/* GoSwitch. */

static void test_order_go_switch_queues_three_events(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE_BLOCKED, 2, 0, 0));
    drain(f);
    gtr_time t = f->now + 1;
    ADV_OK(f, 0, 1, E2(GTR_EV_GO_SWITCH, 2, 1));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_GO_SWITCH, 1, 0, 0);
    assert_int_equal(e.args_[0], 2);
    assert_int_equal(e.time_, t);
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_BLOCK, 1, 0, 0);
    assert_int_equal(e.args_[0], 0); /* no reason */
    assert_int_equal(e.args_[1], 0); /* no stack */
    assert_int_equal(e.time_, t);
    assert_ptr_equal(e.table_, f->evt);
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_START, -1, 0, 0);
    assert_int_equal(e.args_[0], 2);
    assert_int_equal(e.args_[1], 1);
    assert_int_equal(e.time_, t);
    assert_queue_empty(f);
    /* Goroutine 2 runs on thread 0 now; goroutine 1 is waiting with seq 0. */
    ADV_OK(f, 0, 1, E2(GTR_EV_GO_SWITCH, 1, 1));
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_SWITCH, 2, 0, 0);
    drain(f);
}

static void test_order_go_switch_destroy_queues_destroy(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_STATUS, 2, NONE, GTR_GSTATUS_WAITING));
    drain(f);
    ADV_OK(f, 0, 1, E2(GTR_EV_GO_SWITCH_DESTROY, 2, 1));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_GO_SWITCH_DESTROY, 1, 0, 0);
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_DESTROY, 1, 0, 0);
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_START, -1, 0, 0);
    assert_queue_empty(f);
    /* Goroutine 1 is gone. */
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE, 1, 0, 0));
}

static void test_order_go_switch_not_yet_advanceable(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    /* Unknown target. */
    ADV_NO(f, 0, 1, E2(GTR_EV_GO_SWITCH, 2, 1));
    /* Target runnable, not waiting. */
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_STATUS, 2, NONE, GTR_GSTATUS_RUNNABLE));
    ADV_NO(f, 0, 1, E2(GTR_EV_GO_SWITCH, 2, 1));
    /* Target waiting but the seq does not follow. */
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_STATUS, 3, NONE, GTR_GSTATUS_WAITING));
    drain(f);
    ADV_NO(f, 0, 1, E2(GTR_EV_GO_SWITCH, 3, 2));
    assert_queue_empty(f);
    /* Nothing changed: goroutine 1 still runs. */
    ADV_OK(f, 0, 1, E2(GTR_EV_GO_SWITCH, 3, 1));
    drain(f);
}

/* ------------------------------------------------------------------------------------------ */
/* Syscalls. */

static void test_order_go_syscall_begin_bad_seq_fails(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_ERR(f, 0, 1, E2(GTR_EV_GO_SYSCALL_BEGIN, 5, 0),
            "failed to advance GoSyscallBegin: can't make sequence: 0 (gen=1) -> 5 (gen=1)");
}

static void test_order_go_syscall_end_returns_to_running(void **state)
{
    fx *f = *state;
    in_syscall(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, E0(GTR_EV_GO_SYSCALL_END));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_GO_SYSCALL_END, 1, 0, 0);
    /* Running again on a running P: the next syscall needs P seq 2. */
    ADV_ERR(f, 0, 1, E2(GTR_EV_GO_SYSCALL_BEGIN, 1, 0),
            "failed to advance GoSyscallBegin: can't make sequence: 1 (gen=1) -> 1 (gen=1)");
}

static void test_order_go_syscall_end_not_in_syscall_fails(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    /* Go names GoRunning here, although the check is for GoSyscall. */
    ADV_ERR(f, 0, 1, E0(GTR_EV_GO_SYSCALL_END),
            "GoSyscallEnd event for goroutine that's not Running");
    ADV_ERR(f, 0, 1, E0(GTR_EV_GO_SYSCALL_END_BLOCKED),
            "GoSyscallEndBlocked event for goroutine that's not Running");
}

static void test_order_go_syscall_end_proc_not_in_syscall_fails(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 1, 0, GTR_GSTATUS_SYSCALL));
    ADV_ERR(f, 0, 1, E0(GTR_EV_GO_SYSCALL_END),
            "expected proc 0 in state Syscall, but got Running instead");
}

static void test_order_go_syscall_end_blocked_with_new_proc(void **state)
{
    fx *f = *state;
    in_syscall(f, 0, 1, 0, 1);
    /* Thread 0's P is stolen, thread 0 then acquires another P before the exit. */
    ADV_OK(f, 1, 1, E3(GTR_EV_PROC_STEAL, 0, 2, 0));
    ADV_OK(f, 2, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_IDLE));
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_START, 1, 1));
    drain(f);
    ADV_OK(f, 0, 1, E0(GTR_EV_GO_SYSCALL_END_BLOCKED));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_GO_SYSCALL_END_BLOCKED, 1, 1, 0);
}

static void test_order_go_create_syscall_binds_goroutine(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E1(GTR_EV_GO_CREATE_SYSCALL, 4));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_GO_CREATE_SYSCALL, -1, -1, 0);
    ADV_ERR(f, 1, 1, E1(GTR_EV_GO_CREATE_SYSCALL, 4),
            "tried to create goroutine (4) in syscall that already exists");
    ADV_ERR(f, 0, 1, E1(GTR_EV_GO_CREATE_SYSCALL, 5), "expected no goroutine but had one");
    /* Without a P, the goroutine leaves the syscall (blocked) at once. */
    ADV_OK(f, 0, 1, E0(GTR_EV_GO_SYSCALL_END_BLOCKED));
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_SYSCALL_END_BLOCKED, 4, -1, 0);
}

static void test_order_go_destroy_syscall_without_proc(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E1(GTR_EV_GO_CREATE_SYSCALL, 4));
    drain(f);
    ADV_OK(f, 0, 1, E0(GTR_EV_GO_DESTROY_SYSCALL));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_GO_DESTROY_SYSCALL, 4, -1, 0);
    assert_queue_empty(f);
    ADV_OK(f, 0, 1, E1(GTR_EV_GO_CREATE_SYSCALL, 4));
}

static void test_order_go_destroy_syscall_with_proc_steals_it_first(void **state)
{
    fx *f = *state;
    in_syscall(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, E0(GTR_EV_GO_DESTROY_SYSCALL));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_PROC_STEAL, 1, 0, 0);
    assert_int_equal(e.args_[0], 0);
    assert_int_equal(e.args_[1], 0);
    assert_int_equal(e.args_[2], 0);
    assert_int_equal(e.args_[3], GTR_PSTATUS_SYSCALL);
    e = pop(f);
    assert_ev(&e, GTR_EV_GO_DESTROY_SYSCALL, 1, 0, 0);
    assert_queue_empty(f);
    /* The P is SyscallAbandoned: a later steal doesn't check the thread. */
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 0, 1, E3(GTR_EV_PROC_STEAL, 0, 2, 0));
}

static void test_order_go_destroy_syscall_bad_states_fail(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_ERR(f, 0, 1, E0(GTR_EV_GO_DESTROY_SYSCALL),
            "GoDestroySyscall event for goroutine that's not Syscall");
    ADV_ERR(f, 1, 1, E0(GTR_EV_GO_DESTROY_SYSCALL), "expected a goroutine but didn't have one");
    /* A goroutine in a syscall on a thread whose P is running. */
    ADV_OK(f, 2, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 2, 1, E1(GTR_EV_GO_CREATE_SYSCALL, 5));
    ADV_ERR(f, 2, 1, E0(GTR_EV_GO_DESTROY_SYSCALL),
            "proc 1 in unexpected state Running during GoDestroySyscall");
}

/* go122-create-syscall-reuse-thread-id: a C thread's goroutine is destroyed while holding a
 * P in a syscall, and a new thread with the same ID then steals that P. */
static void test_order_thread_id_reuse_steals_abandoned_proc(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E1(GTR_EV_GO_CREATE_SYSCALL, 4));
    ADV_OK(f, 0, 1, E0(GTR_EV_GO_SYSCALL_END_BLOCKED));
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_IDLE));
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_START, 0, 1));
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 4, NONE, GTR_GSTATUS_RUNNABLE));
    ADV_OK(f, 0, 1, E2(GTR_EV_GO_START, 4, 1));
    ADV_OK(f, 0, 1, E2(GTR_EV_GO_SYSCALL_BEGIN, 2, 0));
    ADV_OK(f, 0, 1, E0(GTR_EV_GO_DESTROY_SYSCALL));
    /* The reused thread 0. */
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_IDLE));
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_START, 1, 1));
    ADV_OK(f, 0, 1, E3(GTR_EV_PROC_STEAL, 0, 3, 0));
    static const uint8_t want[] = {
        GTR_EV_GO_CREATE_SYSCALL, GTR_EV_GO_SYSCALL_END_BLOCKED, GTR_EV_PROC_STATUS,
        GTR_EV_PROC_START, GTR_EV_GO_STATUS, GTR_EV_GO_START, GTR_EV_GO_SYSCALL_BEGIN,
        GTR_EV_PROC_STEAL, GTR_EV_GO_DESTROY_SYSCALL, GTR_EV_PROC_STATUS, GTR_EV_PROC_START,
        GTR_EV_PROC_STEAL,
    };
    for (size_t i = 0; i < sizeof want; i++) {
        gtr_event e = pop(f);
        assert_int_equal(e.type_, want[i]);
    }
    assert_queue_empty(f);
    /* Thread 0 keeps P1. */
    ADV_OK(f, 0, 1, E1(GTR_EV_HEAP_ALLOC, 1));
    gtr_event e = pop(f);
    assert_int_equal(e.p_, 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Generations. */

static void test_order_seq_resets_across_generations(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE, 2, 0, 0));
    ADV_OK(f, 1, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 1, 1, E2(GTR_EV_GO_START, 2, 1));
    ADV_OK(f, 1, 1, E2(GTR_EV_GO_STOP, 0, 0));
    drain(f);
    /* Generation 2: statuses reset the sequence numbers to 0 of gen 2. */
    ADV_OK(f, NO_M, 2, E3(GTR_EV_GO_STATUS, 2, NONE, GTR_GSTATUS_RUNNABLE));
    ADV_OK(f, 1, 2, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    ADV_NO(f, 1, 2, E2(GTR_EV_GO_START, 2, 2)); /* the gen-1 successor */
    ADV_OK(f, 1, 2, E2(GTR_EV_GO_START, 2, 1));
    drain(f);
}

static void test_order_seq_of_earlier_generation_does_not_advance(void **state)
{
    fx *f = *state;
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_STATUS, 2, NONE, GTR_GSTATUS_RUNNABLE));
    ADV_OK(f, 1, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    drain(f);
    /* Same seq number, other generation. */
    ADV_NO(f, 1, 2, E2(GTR_EV_GO_START, 2, 1));
    ADV_OK(f, 1, 1, E2(GTR_EV_GO_START, 2, 1));
}

/* ------------------------------------------------------------------------------------------ */
/* Tasks and regions. */

static void test_order_task_across_generations_keeps_name(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    bool ok = false;
    gtr__base_event last;
    assert_int_equal(advance(f, f->evt, 0, 1, mk(GTR_EV_USER_TASK_BEGIN, 2, 0, 3, 0), &ok, &last),
                     GTR_OK);
    assert_true(ok);
    assert_int_equal(last.args[1], GTR_NO_TASK); /* parent 0 means none */
    gtr_event e = pop(f);
    assert_int_equal(e.args_[1], GTR_NO_TASK);
    /* Generation 2, whose table lacks the name. */
    running(f, 0, 2, 0, 1);
    ADV_OK(f, 0, 2, E2(GTR_EV_USER_TASK_BEGIN, 3, 2)); /* unnamed (string 0), parent 2 */
    e = pop(f);
    assert_int_equal(e.args_[1], 2);
    adv_ok_(f, f->evt2, 0, 2, E2(GTR_EV_USER_TASK_END, 2, 0), WHERE);
    e = pop(f);
    assert_ptr_equal(e.table_, f->evt2);
    assert_int_equal(e.args_[2], GTR_NO_TASK);
    gtr_str name = gtr__evt_extra_string(f->evt2, e.args_[3]);
    assert_int_equal(name.len, 7);
    assert_memory_equal(name.data, "my task", 7);
    /* Ended: ending again clears the info; the ID can begin again. */
    adv_ok_(f, f->evt2, 0, 2, E2(GTR_EV_USER_TASK_END, 2, 0), WHERE);
    e = pop(f);
    assert_int_equal(e.args_[2], GTR_NO_TASK);
    assert_int_equal(gtr__evt_extra_string(f->evt2, e.args_[3]).len, 0);
    adv_ok_(f, f->evt2, 0, 2, E2(GTR_EV_USER_TASK_END, 3, 0), WHERE);
    e = pop(f);
    assert_int_equal(e.args_[2], 2); /* the parent */
    assert_int_equal(gtr__evt_extra_string(f->evt2, e.args_[3]).len, 0);
    ADV_OK(f, 0, 2, mk(GTR_EV_USER_TASK_BEGIN, 2, 0, 1, 0));
}

/* A task's End in its own generation names the task by the extra string of its name, which
 * order.c remembers for the last name (by generation and string ID): each End gets its
 * own task's name, and the same name the same extra ID. */
static void test_order_task_end_names_within_generation(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, mk(GTR_EV_USER_TASK_BEGIN, 2, 0, 1, 0)); /* "foo" */
    ADV_OK(f, 0, 1, mk(GTR_EV_USER_TASK_BEGIN, 3, 0, 2, 0)); /* "bar" */
    ADV_OK(f, 0, 1, mk(GTR_EV_USER_TASK_BEGIN, 4, 0, 1, 0)); /* "foo" */
    drain(f);
    const char *want[] = {"foo", "bar", "foo"};
    uint64_t ids[3];
    for (int i = 0; i < 3; i++) {
        ADV_OK(f, 0, 1, E2(GTR_EV_USER_TASK_END, (uint64_t)(2 + i), 0));
        gtr_event e = pop(f);
        ids[i] = e.args_[3];
        gtr_str name = gtr__evt_extra_string(f->evt, ids[i]);
        assert_int_equal(name.len, 3);
        assert_memory_equal(name.data, want[i], 3);
    }
    assert_int_equal(ids[0], ids[2]);
    assert_int_not_equal(ids[0], ids[1]);
    /* The table changed after the Begin: the name still comes out whole. */
    gtr_err err = GTR_ERR_INIT;
    ADV_OK(f, 0, 1, mk(GTR_EV_USER_TASK_BEGIN, 5, 0, 2, 0)); /* "bar" */
    drain(f);
    assert_int_equal(gtr__evt_add_string(f->evt, 40, "later", 5, &err), GTR_OK);
    ADV_OK(f, 0, 1, E2(GTR_EV_USER_TASK_END, 5, 0));
    gtr_event e = pop(f);
    assert_int_equal(e.args_[3], ids[1]);
}

static void test_order_task_begin_errors(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, mk(GTR_EV_USER_TASK_BEGIN, 2, 0, 3, 0));
    ADV_ERR(f, 0, 1, mk(GTR_EV_USER_TASK_BEGIN, 2, 0, 3, 0), "task ID conflict: 2");
    ADV_ERR(f, 0, 1, mk(GTR_EV_USER_TASK_BEGIN, NONE, 0, 9, 0),
            "invalid string ID 9 for 40 event");
    /* The task is recorded before the context is validated (as in Go). */
    ADV_ERR(f, 1, 1, mk(GTR_EV_USER_TASK_BEGIN, 7, 0, 1, 0), "expected a proc but didn't have one");
    ADV_ERR(f, 0, 1, mk(GTR_EV_USER_TASK_BEGIN, 7, 0, 1, 0), "task ID conflict: 7");
    ADV_ERR(f, 1, 1, E2(GTR_EV_USER_TASK_END, 7, 0), "expected a proc but didn't have one");
}

static void test_order_region_end_without_begin_first_gen(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    /* Regions that began before the trace: nothing to match. */
    ADV_OK(f, 0, 1, E3(GTR_EV_USER_REGION_END, 0, 1, 0));
    ADV_OK(f, 0, 1, E3(GTR_EV_USER_REGION_END, 5, 2, 0));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_USER_REGION_END, 1, 0, 0);
    drain(f);
}

static void test_order_region_nesting(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, E3(GTR_EV_USER_REGION_BEGIN, 3, 1, 0));
    ADV_OK(f, 0, 1, E3(GTR_EV_USER_REGION_BEGIN, 3, 2, 0));
    ADV_OK(f, 0, 1, E3(GTR_EV_USER_REGION_BEGIN, 4, 0, 0));
    /* Matched by value across generations (string IDs differ). */
    gtr__ev_table *t3 = new_table(false);
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr__evt_add_string(t3, 8, "bar", 3, &err), GTR_OK);
    adv_ok_(f, t3, 0, 2, E3(GTR_EV_USER_REGION_END, 4, 0, 0), WHERE);
    adv_ok_(f, t3, 0, 2, E3(GTR_EV_USER_REGION_END, 3, 8, 0), WHERE);
    ADV_ERR(f, 0, 2, E3(GTR_EV_USER_REGION_END, 4, 1, 0),
            "misuse of region in goroutine 1: region end {4 foo} when the inner-most active "
            "region start event is {3 foo}");
    ADV_OK(f, 0, 2, E3(GTR_EV_USER_REGION_END, 3, 1, 0));
    /* Stack empty again. */
    ADV_OK(f, 0, 2, E3(GTR_EV_USER_REGION_END, 9, 2, 0));
    drain(f);
    gtr__evt_free(t3);
}

/* An end matches its region by the name's text. The same string of the same table state
 * matches without a look at the bytes (order.c's user_region): the same ID in another table
 * must still be compared, and two IDs of one table with the same text still match. */
static void test_order_region_names_compared_by_text(void **state)
{
    fx *f = *state;
    gtr_err err = GTR_ERR_INIT;
    gtr__ev_table *t3 = new_table(false), *t4 = new_table(false);
    assert_int_equal(gtr__evt_add_string(t3, 8, "bar", 3, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_string(t3, 9, "bar", 3, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_string(t4, 1, "baz", 3, &err), GTR_OK);
    running(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, E3(GTR_EV_USER_REGION_BEGIN, 3, 1, 0)); /* {3 foo}, string 1 of f->evt */
    /* String 1 of another table is "baz". */
    adv_err_(f, t4, 0, 2, E3(GTR_EV_USER_REGION_END, 3, 1, 0),
             "misuse of region in goroutine 1: region end {3 baz} when the inner-most active "
             "region start event is {3 foo}",
             WHERE);
    /* The same string ID, the same table: matched. */
    ADV_OK(f, 0, 1, E3(GTR_EV_USER_REGION_END, 3, 1, 0));
    /* The same text under two IDs of one table: matched. */
    adv_ok_(f, t3, 0, 1, E3(GTR_EV_USER_REGION_BEGIN, 3, 8, 0), WHERE);
    adv_ok_(f, t3, 0, 1, E3(GTR_EV_USER_REGION_END, 3, 9, 0), WHERE);
    /* A table changed since the region began: string 8 is still "bar". */
    adv_ok_(f, t3, 0, 1, E3(GTR_EV_USER_REGION_BEGIN, 3, 8, 0), WHERE);
    assert_int_equal(gtr__evt_add_string(t3, 10, "qux", 3, &err), GTR_OK);
    adv_err_(f, t3, 0, 1, E3(GTR_EV_USER_REGION_END, 3, 10, 0),
             "misuse of region in goroutine 1: region end {3 qux} when the inner-most active "
             "region start event is {3 bar}",
             WHERE);
    adv_ok_(f, t3, 0, 1, E3(GTR_EV_USER_REGION_END, 3, 8, 0), WHERE);
    drain(f);
    gtr__evt_free(t3);
    gtr__evt_free(t4);
}

/* Region and task names outlive the table they came from (the ordering interns them): the
 * table may go as soon as their events are advanced, and the names still match, print and
 * smuggle whole. (Under ASan a name left in a freed table is a use after free.) */
static void test_order_names_outlive_their_table(void **state)
{
    fx *f = *state;
    gtr_err err = GTR_ERR_INIT;
    gtr__ev_table *t3 = new_table(false), *t4 = new_table(false), *t5 = new_table(false);
    assert_int_equal(gtr__evt_add_string(t3, 8, "outer", 5, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_string(t3, 9, "my job", 6, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_string(t4, 8, "inner", 5, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_string(t5, 1, "inner", 5, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_string(t5, 2, "outer", 5, &err), GTR_OK);
    running(f, 0, 1, 0, 1);
    adv_ok_(f, t3, 0, 1, E3(GTR_EV_USER_REGION_BEGIN, 3, 8, 0), WHERE);
    adv_ok_(f, t3, 0, 1, mk(GTR_EV_USER_TASK_BEGIN, 7, 0, 9, 0), WHERE);
    drain(f);
    gtr__evt_free(t3);
    adv_ok_(f, t4, 0, 2, E3(GTR_EV_USER_REGION_BEGIN, 4, 8, 0), WHERE);
    gtr__evt_free(t4);
    drain(f);
    adv_err_(f, t5, 0, 3, E3(GTR_EV_USER_REGION_END, 4, 2, 0),
             "misuse of region in goroutine 1: region end {4 outer} when the inner-most active "
             "region start event is {4 inner}",
             WHERE);
    adv_ok_(f, t5, 0, 3, E3(GTR_EV_USER_REGION_END, 4, 1, 0), WHERE);
    adv_err_(f, t5, 0, 3, E3(GTR_EV_USER_REGION_END, 3, 1, 0),
             "misuse of region in goroutine 1: region end {3 inner} when the inner-most active "
             "region start event is {3 outer}",
             WHERE);
    adv_ok_(f, t5, 0, 3, E3(GTR_EV_USER_REGION_END, 3, 2, 0), WHERE);
    adv_ok_(f, t5, 0, 3, E2(GTR_EV_USER_TASK_END, 7, 0), WHERE);
    pop(f);
    pop(f);
    gtr_event e = pop(f);
    assert_int_equal(e.type_, GTR_EV_USER_TASK_END);
    gtr_str name = gtr__evt_extra_string(t5, e.args_[3]);
    assert_int_equal(name.len, 6);
    assert_memory_equal(name.data, "my job", 6);
    drain(f);
    gtr__evt_free(t5);
}

static void test_order_region_errors(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_ERR(f, 0, 1, E3(GTR_EV_USER_REGION_BEGIN, 0, 9, 0), "invalid string ID 9 for 42 event");
    ADV_ERR(f, 0, 1, E3(GTR_EV_USER_REGION_END, 0, 9, 0), "invalid string ID 9 for 43 event");
    ADV_OK(f, 0, 1, E3(GTR_EV_USER_REGION_BEGIN, 0, 1, 0));
    ADV_ERR(f, 0, 1, E3(GTR_EV_USER_REGION_END, 0, 2, 0),
            "misuse of region in goroutine 1: region end {0 bar} when the inner-most active "
            "region start event is {0 foo}");
    ADV_ERR(f, 1, 1, E3(GTR_EV_USER_REGION_BEGIN, 0, 1, 0),
            "expected a proc but didn't have one");
}

static void test_order_region_unknown_goroutine_fails(void **state)
{
    fx *f = *state;
    stale_goroutine(f, 0, 1, 1);
    ADV_ERR(f, 0, 1, E3(GTR_EV_USER_REGION_BEGIN, 0, 1, 0),
            "encountered EvUserRegionBegin without known state for current goroutine 1");
    ADV_ERR(f, 0, 1, E3(GTR_EV_USER_REGION_END, 0, 1, 0),
            "encountered EvUserRegionEnd without known state for current goroutine 1");
    ADV_ERR(f, 0, 1, E2(GTR_EV_STW_BEGIN, 1, 0),
            "encountered event of type 26 without known state for current goroutine 1");
    ADV_ERR(f, 0, 1, E1(GTR_EV_GC_MARK_ASSIST_BEGIN, 0),
            "encountered event of type 35 without known state for current goroutine 1");
    ADV_ERR(f, 0, 1, E0(GTR_EV_STW_END),
            "encountered event of type 27 without known state for current goroutine 1");
    /* Annotations need no goroutine state. */
    ADV_OK(f, 0, 1, E2(GTR_EV_GO_LABEL, 1, 0));
}

/* ------------------------------------------------------------------------------------------ */
/* GC. */

static void test_order_gc_active_first_gen(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    /* GCActive in the first generation needs no context. */
    ADV_OK(f, NO_M, 1, E1(GTR_EV_GC_ACTIVE, 5));
    ADV_ERR(f, NO_M, 1, E1(GTR_EV_GC_ACTIVE, 6),
            "GCActive in the first generation isn't first GC event");
    ADV_NO(f, 0, 2, E1(GTR_EV_GC_ACTIVE, 7)); /* not the next cycle */
    ADV_OK(f, 0, 2, E1(GTR_EV_GC_ACTIVE, 6));
    ADV_OK(f, 0, 2, E1(GTR_EV_GC_END, 7));
    drain(f);
    ADV_ERR(f, 0, 3, E1(GTR_EV_GC_ACTIVE, 8), "encountered GCActive while GC was not in progress");
}

static void test_order_gc_active_first_gen_after_begin_fails(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, E2(GTR_EV_GC_BEGIN, 1, 0));
    ADV_ERR(f, 0, 1, E1(GTR_EV_GC_ACTIVE, 1),
            "GCActive in the first generation isn't first GC event");
}

static void test_order_gc_begin_end_states(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    /* Undetermined: an end of the first cycle fails, any begin advances. */
    ADV_ERR(f, 0, 1, E1(GTR_EV_GC_END, 1),
            "encountered GCEnd when GC was in an undetermined state");
    ADV_NO(f, 0, 1, E1(GTR_EV_GC_END, 4));
    /* Begin from undetermined doesn't even need a context. */
    ADV_OK(f, NO_M, 1, E2(GTR_EV_GC_BEGIN, 10, 0));
    ADV_NO(f, 0, 1, E2(GTR_EV_GC_BEGIN, 12, 0));
    ADV_ERR(f, 0, 1, E2(GTR_EV_GC_BEGIN, 11, 0),
            "encountered GCBegin while GC was already in progress");
    ADV_NO(f, 0, 1, E1(GTR_EV_GC_END, 12));
    ADV_OK(f, 0, 1, E1(GTR_EV_GC_END, 11));
    ADV_ERR(f, 0, 1, E1(GTR_EV_GC_END, 12), "encountered GCEnd when GC was not in progress");
    ADV_ERR(f, 1, 1, E2(GTR_EV_GC_BEGIN, 12, 0), "expected a proc but didn't have one");
}

static void test_order_gc_end_needs_context(void **state)
{
    fx *f = *state;
    ADV_OK(f, NO_M, 1, E2(GTR_EV_GC_BEGIN, 1, 0));
    ADV_ERR(f, NO_M, 1, E1(GTR_EV_GC_END, 2), "expected a thread but didn't have one");
}

/* ------------------------------------------------------------------------------------------ */
/* Ranges. */

static void test_order_stw_range_smuggles_kind(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, E2(GTR_EV_STW_BEGIN, 2, 0));
    ADV_ERR(f, 0, 1, E2(GTR_EV_STW_BEGIN, 2, 0),
            "discovered event already in-flight for when starting event STWBegin");
    /* Another kind is another range. */
    ADV_OK(f, 0, 1, E2(GTR_EV_STW_BEGIN, 1, 0));
    drain(f);
    /* Ends take the first in-flight STW (swap remove). */
    gtr__base_event last;
    bool ok = false;
    assert_int_equal(advance(f, f->evt, 0, 1, E0(GTR_EV_STW_END), &ok, &last), GTR_OK);
    assert_true(ok);
    assert_int_equal(last.args[0], 2);
    gtr_event e = pop(f);
    assert_int_equal(e.args_[0], 2);
    ADV_OK(f, 0, 1, E0(GTR_EV_STW_END));
    e = pop(f);
    assert_int_equal(e.args_[0], 1);
    ADV_ERR(f, 0, 1, E0(GTR_EV_STW_END), "tried to end event STWBegin, but not in-flight");
}

static void test_order_mark_assist_ranges(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_STATUS, 2, NONE, GTR_GSTATUS_WAITING));
    /* Active in the first generation: any goroutine, any context. */
    ADV_OK(f, NO_M, 1, E1(GTR_EV_GC_MARK_ASSIST_ACTIVE, 2));
    ADV_ERR(f, NO_M, 1, E1(GTR_EV_GC_MARK_ASSIST_ACTIVE, 2),
            "found named active range already in first gen: {35 0}");
    ADV_ERR(f, NO_M, 1, E1(GTR_EV_GC_MARK_ASSIST_ACTIVE, 9),
            "uninitialized goroutine 9 found during GCMarkAssistActive");
    ADV_OK(f, 0, 1, E1(GTR_EV_GC_MARK_ASSIST_BEGIN, 0));
    ADV_ERR(f, 0, 1, E1(GTR_EV_GC_MARK_ASSIST_BEGIN, 0),
            "discovered event already in-flight for when starting event GCMarkAssistBegin");
    drain(f);
    /* Later generations confirm. */
    ADV_OK(f, NO_M, 2, E1(GTR_EV_GC_MARK_ASSIST_ACTIVE, 1));
    ADV_OK(f, NO_M, 2, E1(GTR_EV_GC_MARK_ASSIST_ACTIVE, 2));
    ADV_OK(f, 0, 2, E0(GTR_EV_GC_MARK_ASSIST_END));
    ADV_ERR(f, 0, 2, E0(GTR_EV_GC_MARK_ASSIST_END),
            "tried to end event GCMarkAssistBegin, but not in-flight");
    ADV_ERR(f, NO_M, 3, E1(GTR_EV_GC_MARK_ASSIST_ACTIVE, 1),
            "resource is missing active range: GCMarkAssistBegin []");
}

static void test_order_missing_active_range_lists_in_flight(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_OK(f, 0, 1, E2(GTR_EV_STW_BEGIN, 1, 0));
    ADV_OK(f, 0, 1, E2(GTR_EV_STW_BEGIN, 2, 0));
    ADV_ERR(f, NO_M, 2, E1(GTR_EV_GC_MARK_ASSIST_ACTIVE, 1),
            "resource is missing active range: GCMarkAssistBegin [{26 1} {26 2}]");
}

static void test_order_sweep_ranges(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    ADV_OK(f, 1, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    /* Sweeps need a P, not a G. */
    ADV_OK(f, 1, 1, E1(GTR_EV_GC_SWEEP_BEGIN, 0));
    ADV_ERR(f, 1, 1, E1(GTR_EV_GC_SWEEP_BEGIN, 0),
            "discovered event already in-flight for when starting event GCSweepBegin");
    ADV_OK(f, 1, 1, E2(GTR_EV_GC_SWEEP_END, 10, 20));
    ADV_ERR(f, 1, 1, E2(GTR_EV_GC_SWEEP_END, 10, 20),
            "tried to end event GCSweepBegin, but not in-flight");
    ADV_ERR(f, 2, 1, E1(GTR_EV_GC_SWEEP_BEGIN, 0), "expected a proc but didn't have one");
    ADV_ERR(f, 2, 1, E2(GTR_EV_GC_SWEEP_END, 0, 0), "expected a proc but didn't have one");
    /* Active: any P by ID. */
    ADV_OK(f, NO_M, 1, E1(GTR_EV_GC_SWEEP_ACTIVE, 0));
    ADV_ERR(f, NO_M, 1, E1(GTR_EV_GC_SWEEP_ACTIVE, 0),
            "found named active range already in first gen: {32 0}");
    ADV_ERR(f, NO_M, 1, E1(GTR_EV_GC_SWEEP_ACTIVE, 5),
            "encountered GCSweepActive for unknown proc 5");
    drain(f);
    ADV_OK(f, NO_M, 2, E1(GTR_EV_GC_SWEEP_ACTIVE, 0));
    ADV_ERR(f, NO_M, 2, E1(GTR_EV_GC_SWEEP_ACTIVE, 1),
            "resource is missing active range: GCSweepBegin []");
    ADV_OK(f, 0, 2, E2(GTR_EV_GC_SWEEP_END, 1, 1));
}

/* ------------------------------------------------------------------------------------------ */
/* Simple events. */

static void test_order_simple_event_contexts(void **state)
{
    fx *f = *state;
    /* AllocFree events need only a thread. */
    ADV_OK(f, 3, 1, E3(GTR_EV_SPAN_ALLOC, 1, 2, 3));
    gtr_event e = pop(f);
    assert_ev(&e, GTR_EV_SPAN_ALLOC, -1, -1, 3);
    assert_int_equal(e.args_[2], 3);
    ADV_OK(f, 3, 1, E2(GTR_EV_GOROUTINE_STACK_FREE, 1, 0));
    ADV_ERR(f, NO_M, 1, E1(GTR_EV_HEAP_OBJECT_FREE, 1), "expected a thread but didn't have one");
    /* Heap metrics need a P; annotations a G. */
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 0, 1, E1(GTR_EV_HEAP_GOAL, 1));
    ADV_ERR(f, 0, 1, E2(GTR_EV_PROCS_CHANGE, 8, 0), "expected a goroutine but didn't have one");
    ADV_ERR(f, 0, 1, mk(GTR_EV_USER_LOG, 0, 1, 2, 0), "expected a goroutine but didn't have one");
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 1, 0, GTR_GSTATUS_RUNNING));
    ADV_OK(f, 0, 1, E2(GTR_EV_PROCS_CHANGE, 8, 0));
    ADV_OK(f, 0, 1, mk(GTR_EV_USER_LOG, 0, 1, 2, 0));
    drain(f);
}

/* ------------------------------------------------------------------------------------------ */
/* Version, dump, queue, ID maps, allocation. */

static void test_order_event_names_follow_version(void **state)
{
    fx *f = *state;
    gtr__ordering_set_version(f->o, GTR_GO122);
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 1, 0, GTR_GSTATUS_SYSCALL));
    /* Go 1.22 has no GoSwitch: Version.EventName says Invalid(45). */
    ADV_ERR(f, 0, 1, E2(GTR_EV_GO_SWITCH, 2, 1), "Invalid(45) event for goroutine that's not Running");
    gtr__ordering_set_version(f->o, GTR_GO123);
    ADV_ERR(f, 0, 1, E2(GTR_EV_GO_SWITCH, 2, 1), "GoSwitch event for goroutine that's not Running");
}

static void test_order_dump_lists_state_in_id_order(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 3, 0, GTR_GSTATUS_RUNNING));
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_STATUS, 1000000000000, NONE, GTR_GSTATUS_WAITING));
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_STATUS, NONE, NONE, GTR_GSTATUS_RUNNABLE));
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_STATUS, 1, NONE, GTR_GSTATUS_RUNNABLE));
    ADV_OK(f, 7, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_IDLE));
    ADV_OK(f, 7, 1, E2(GTR_EV_PROC_START, 0, 1));
    ADV_OK(f, NO_M, 1, E2(GTR_EV_GC_BEGIN, 4, 0));
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_UNBLOCK, 1000000000000, 1, 0));
    gtr_buf b;
    gtr_buf_init(&b, NULL);
    gtr__ordering_dump(f->o, &b);
    assert_int_equal(gtr_buf_status(&b), GTR_OK);
    assert_string_equal(b.data,
                        "G -1 [status=Runnable seq=0 (gen=1)]\n"
                        "G 1 [status=Runnable seq=0 (gen=1)]\n"
                        "G 3 [status=Running seq=0 (gen=1)]\n"
                        "G 1000000000000 [status=Runnable seq=1 (gen=1)]\n"
                        "\n"
                        "P 0 [status=Running seq=1 (gen=1)]\n"
                        "P 1 [status=Running seq=0 (gen=1)]\n"
                        "\n"
                        "M 0 [g=3 p=1]\n"
                        "M 7 [g=-1 p=0]\n"
                        "\n"
                        "GC 4 Running\n");
    gtr_buf_free(&b);
}

/* What a diagnosis and a snapshot read (gtr__ordering_resource and its kin) is the state the
 * dump shows, for goroutines and procs alike, with the ranges each has in flight. */
static void test_order_resources_read_as_the_dump_shows(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_STATUS, 3, 0, GTR_GSTATUS_RUNNING));
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_STATUS, 1000000000000, NONE, GTR_GSTATUS_WAITING));
    ADV_OK(f, 7, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_IDLE));
    ADV_OK(f, 7, 1, E2(GTR_EV_PROC_START, 0, 1));
    ADV_OK(f, NO_M, 1, E2(GTR_EV_GC_BEGIN, 4, 0));
    ADV_OK(f, NO_M, 1, E3(GTR_EV_GO_UNBLOCK, 1000000000000, 1, 0));
    ADV_OK(f, 0, 1, E0(GTR_EV_GC_MARK_ASSIST_BEGIN));
    ADV_OK(f, 0, 1, E0(GTR_EV_GC_SWEEP_BEGIN));
    drain(f);

    gtr__resource_state s;
    assert_true(gtr__ordering_resource(f->o, false, 1000000000000, &s));
    assert_int_equal(s.status, GTR_GSTATUS_RUNNABLE);
    assert_int_equal(s.seq_gen, 1);
    assert_int_equal(s.seq, 1);
    assert_true(gtr__ordering_resource(f->o, true, 0, &s));
    assert_int_equal(s.status, GTR_PSTATUS_RUNNING);
    assert_int_equal(s.seq, 1);
    assert_true(gtr__ordering_resource(f->o, true, 1, &s));
    assert_int_equal(s.status, GTR_PSTATUS_RUNNING);
    assert_int_equal(s.seq, 0);
    assert_false(gtr__ordering_resource(f->o, false, 0, &s));
    assert_false(gtr__ordering_resource(f->o, true, 3, &s));

    /* The iteration gives each goroutine, then each proc, once, with the look-up's state. */
    for (int proc = 0; proc <= 1; proc++) {
        int64_t id, sum = 0;
        size_t n = 0;
        gtr__resource_state want;
        for (size_t pos = 0; gtr__ordering_next_resource(f->o, proc, &pos, &id, &s); n++) {
            assert_true(gtr__ordering_resource(f->o, proc, id, &want));
            assert_int_equal(s.status, want.status);
            assert_int_equal(s.seq_gen, want.seq_gen);
            assert_int_equal(s.seq, want.seq);
            sum += id;
        }
        assert_int_equal(n, 2);
        assert_int_equal(sum, proc ? 0 + 1 : 3 + 1000000000000);
    }

    uint8_t types[2] = {0, 0};
    assert_int_equal(gtr__ordering_ranges(f->o, false, 3, types, 2), 1);
    assert_int_equal(types[0], GTR_EV_GC_MARK_ASSIST_BEGIN);
    assert_int_equal(gtr__ordering_ranges(f->o, true, 1, types, 2), 1);
    assert_int_equal(types[0], GTR_EV_GC_SWEEP_BEGIN);
    assert_int_equal(gtr__ordering_ranges(f->o, true, 1, types, 0), 0);
    assert_int_equal(gtr__ordering_ranges(f->o, false, 1000000000000, types, 2), 0);
    assert_int_equal(gtr__ordering_ranges(f->o, true, 9, types, 2), 0);

    gtr_goid g;
    gtr_procid p;
    gtr__ordering_thread(f->o, 0, &g, &p);
    assert_int_equal(g, 3);
    assert_int_equal(p, 1);
    gtr__ordering_thread(f->o, 99, &g, &p);
    assert_int_equal(g, GTR_NO_GOROUTINE);
    assert_int_equal(p, GTR_NO_PROC);

    gtr__ordering_summary sum = gtr__ordering_summary_of(f->o);
    assert_int_equal(sum.gc_seq, 4);
    assert_true(sum.gc_running);
    assert_int_equal(sum.initial_gen, 1);
    assert_int_equal(sum.failed_type, 0);
    ADV_ERR(f, NO_M, 1, E2(GTR_EV_GC_BEGIN, 5, 0),
            "encountered GCBegin while GC was already in progress");
    assert_int_equal(gtr__ordering_summary_of(f->o).failed_type, GTR_EV_GC_BEGIN);

    assert_string_equal(gtr__go_status_string(GTR_GSTATUS_WAITING), "Waiting");
    assert_string_equal(gtr__go_status_string(GTR_GSTATUS_BAD), "Bad");
    assert_string_equal(gtr__proc_status_string(GTR_PSTATUS_SYSCALL_ABANDONED),
                        "SyscallAbandoned");
    assert_string_equal(gtr__proc_status_string(200), "Bad");
}

static void test_order_dump_empty(void **state)
{
    fx *f = *state;
    gtr_buf b;
    gtr_buf_init(&b, NULL);
    gtr__ordering_dump(f->o, &b);
    assert_string_equal(b.data, "\n\n\nGC 0 Undetermined\n");
    gtr_buf_free(&b);
}

static void test_order_queue_grows_and_keeps_order(void **state)
{
    fx *f = *state;
    ADV_OK(f, 0, 1, E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING));
    drain(f);
    /* Interleave pushes and pops so the ring wraps, then grow it. */
    uint64_t next_push = 0, next_pop = 0;
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < round; i++)
            ADV_OK(f, 0, 1, E1(GTR_EV_HEAP_ALLOC, next_push++));
        for (int i = 0; i < round / 2; i++) {
            gtr_event e = pop(f);
            assert_int_equal(e.args_[0], next_pop++);
        }
    }
    gtr_event e;
    while (gtr__ordering_next(f->o, &e))
        assert_int_equal(e.args_[0], next_pop++);
    assert_int_equal(next_pop, next_push);
}

static void test_order_sparse_ids_stay_consistent(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    /* Goroutines with dense, sparse and huge IDs, created, run and destroyed in turns. */
    enum { N = 3000 };
    static uint64_t ids[N];
    for (int i = 0; i < N; i++) {
        switch (i % 3) {
        case 0: ids[i] = 2 + (uint64_t)i; break;
        case 1: ids[i] = (uint64_t)i * 1000003u + 50000; break;
        default: ids[i] = UINT64_C(0x8000000000000000) + (uint64_t)i * 77; break;
        }
        ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE, ids[i], 0, 0));
    }
    drain(f);
    ADV_OK(f, 1, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    for (int i = 0; i < N; i += 2) {
        ADV_OK(f, 1, 1, E2(GTR_EV_GO_START, ids[i], 1));
        ADV_OK(f, 1, 1, E0(GTR_EV_GO_DESTROY));
    }
    drain(f);
    for (int i = 0; i < N; i++) {
        if (i % 2 == 0) {
            ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE, ids[i], 0, 0));
        } else {
            char want[128];
            snprintf(want, sizeof want, "tried to create goroutine (%" PRId64 ") that already exists",
                     (int64_t)ids[i]);
            ADV_ERR(f, 0, 1, E3(GTR_EV_GO_CREATE, ids[i], 0, 0), want);
        }
    }
}

static void test_order_ids_moving_to_dense_array_stay_found(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 200);
    /* 100 and 150 start in the hash table; growing the dense array moves them. */
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE, 100, 0, 0));
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE, 150, 0, 0));
    for (uint64_t id = 1; id <= 90; id++)
        ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE, id, 0, 0));
    drain(f);
    ADV_ERR(f, 0, 1, E3(GTR_EV_GO_CREATE, 100, 0, 0),
            "tried to create goroutine (100) that already exists");
    ADV_ERR(f, 0, 1, E3(GTR_EV_GO_CREATE, 150, 0, 0),
            "tried to create goroutine (150) that already exists");
    ADV_OK(f, 1, 1, E2(GTR_EV_PROC_STATUS, 1, GTR_PSTATUS_RUNNING));
    ADV_OK(f, 1, 1, E2(GTR_EV_GO_START, 100, 1));
    ADV_OK(f, 1, 1, E0(GTR_EV_GO_DESTROY));
    ADV_OK(f, 1, 1, E2(GTR_EV_GO_START, 150, 1));
    ADV_OK(f, 1, 1, E0(GTR_EV_GO_DESTROY));
    ADV_OK(f, 1, 1, E2(GTR_EV_GO_START, 90, 1));
    drain(f);
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE, 100, 0, 0));
    ADV_OK(f, 0, 1, E3(GTR_EV_GO_CREATE, 150, 0, 0));
    gtr_buf b;
    gtr_buf_init(&b, NULL);
    gtr__ordering_dump(f->o, &b);
    assert_non_null(strstr(b.data, "G 90 [status=Running seq=1 (gen=1)]\nG 100 [status=Runnable "
                                   "seq=0 (gen=1)]\nG 150 [status=Runnable seq=0 (gen=1)]\nG 200 "
                                   "[status=Running seq=0 (gen=1)]\n\n"));
    gtr_buf_free(&b);
}

/* task_model_*: the active-task map against a plain list, through UserTaskBegin and End. A
 * task's parent stands for its value: End hands it back, or NoTask when the task is absent. */
typedef struct task_model {
    uint64_t ids[4096];
    size_t n;
    uint64_t rng;
} task_model;

static uint64_t task_model_rand(task_model *tm)
{
    tm->rng ^= tm->rng << 13;
    tm->rng ^= tm->rng >> 7;
    tm->rng ^= tm->rng << 17;
    return tm->rng;
}

static uint64_t task_parent(uint64_t id)
{
    return id % 1000003u + 1; /* never 0 (the background task, rewritten) nor NoTask */
}

static long task_model_find(const task_model *tm, uint64_t id)
{
    for (size_t i = 0; i < tm->n; i++)
        if (tm->ids[i] == id)
            return (long)i;
    return -1;
}

static void task_model_begin(fx *f, task_model *tm, uint64_t id)
{
    if (task_model_find(tm, id) >= 0) {
        char want[64];
        snprintf(want, sizeof want, "task ID conflict: %" PRIu64, id);
        ADV_ERR(f, 0, 1, E3(GTR_EV_USER_TASK_BEGIN, id, task_parent(id), 0), want);
        return;
    }
    if (tm->n == sizeof tm->ids / sizeof tm->ids[0])
        return;
    ADV_OK(f, 0, 1, E3(GTR_EV_USER_TASK_BEGIN, id, task_parent(id), 0));
    (void)pop(f);
    tm->ids[tm->n++] = id;
}

static void task_model_end(fx *f, task_model *tm, uint64_t id)
{
    long i = task_model_find(tm, id);
    ADV_OK(f, 0, 1, E2(GTR_EV_USER_TASK_END, id, 0));
    gtr_event e = pop(f);
    assert_int_equal(e.args_[0], id);
    if (i < 0) {
        assert_int_equal(e.args_[2], GTR_NO_TASK);
        return;
    }
    assert_int_equal(e.args_[2], task_parent(id));
    tm->ids[i] = tm->ids[--tm->n];
}

static void test_order_task_ids_match_a_model(void **state)
{
    fx *f = *state;
    running(f, 0, 1, 0, 1);
    static task_model tm;
    memset(&tm, 0, sizeof tm);
    tm.rng = UINT64_C(0x9e3779b97f4a7c15);
    /* IDs as Go hands them out (ever growing, most ending soon, a few living long), clusters
     * of live IDs left behind, old IDs begun again, IDs far away and near 2^64 (the window of
     * the map's dense array slides up, declines to, and straddles the top). */
    uint64_t next = 1;
    bool wrapped = false;
    for (int step = 0; step < 60000; step++) {
        uint64_t r = task_model_rand(&tm) % 100;
        if (step % 10000 == 5000) {
            for (int k = 0; k < 300; k++)
                task_model_begin(f, &tm, next++);
        } else if (r < 55) {
            task_model_begin(f, &tm, next++);
        } else if (r < 85 && tm.n > 0) {
            /* Mostly a recent task, sometimes any. */
            size_t i = tm.n - 1 - (size_t)(task_model_rand(&tm) % (tm.n < 8 ? tm.n : 8));
            if (r < 60)
                i = (size_t)(task_model_rand(&tm) % tm.n);
            task_model_end(f, &tm, tm.ids[i]);
        } else if (r < 90) {
            task_model_end(f, &tm, next - 1 - task_model_rand(&tm) % next); /* maybe absent */
        } else if (r < 95) {
            task_model_begin(f, &tm, 1 + task_model_rand(&tm) % next); /* old, maybe active */
        } else if (r < 97) {
            task_model_begin(f, &tm, UINT64_MAX - 1 - task_model_rand(&tm) % 200);
        } else if (r < 98) {
            task_model_begin(f, &tm, task_model_rand(&tm) | 1);
        } else if (r < 99) {
            next += task_model_rand(&tm) % 5000; /* a gap */
        } else if (step > 30000 && !wrapped) {
            next = UINT64_MAX - 2000; /* count up to the top, and on past it from 0 */
            wrapped = true;
        }
    }
    while (tm.n > 0)
        task_model_end(f, &tm, tm.ids[tm.n - 1]);
    assert_queue_empty(f);
}

/* Counting, optionally failing, allocator. */
typedef struct count_alloc {
    size_t calls;
    size_t fail_at; /* the call number that fails (SIZE_MAX: never) */
    size_t live;
    size_t asked;   /* the bytes of all the calls */
} count_alloc;

static void *ca_malloc(void *ctx, size_t n)
{
    count_alloc *c = ctx;
    c->asked += n;
    if (c->calls++ == c->fail_at)
        return NULL;
    void *p = malloc(n);
    if (p != NULL)
        c->live++;
    return p;
}

static void *ca_realloc(void *ctx, void *p, size_t n)
{
    count_alloc *c = ctx;
    c->asked += n;
    if (c->calls++ == c->fail_at)
        return NULL;
    void *np = realloc(p, n);
    if (np != NULL && p == NULL)
        c->live++;
    return np;
}

static void ca_free(void *ctx, void *p)
{
    count_alloc *c = ctx;
    if (p != NULL)
        c->live--;
    free(p);
}

/* A scenario touching every kind of state; returns the first failing status. Each round,
 * goroutine 1 (running on thread 0 with P0) runs ranges, a task and a region, creates
 * goroutine 7, blocks, and is unblocked by 7 before 7 exits. */
static gtr_status scenario(gtr__ordering *o, gtr__ev_table *evt, gtr_err *err, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        uint64_t seq1 = (uint64_t)(2 * r);
        gtr__base_event evs[] = {
            E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING),
            E3(GTR_EV_GO_STATUS, 1, 0, GTR_GSTATUS_RUNNING),
            E2(GTR_EV_STW_BEGIN, 1, 0),
            E0(GTR_EV_STW_END),
            E1(GTR_EV_GC_SWEEP_BEGIN, 0),
            E2(GTR_EV_GC_SWEEP_END, 0, 0),
            mk(GTR_EV_USER_TASK_BEGIN, 5, 0, 3, 0),
            E3(GTR_EV_USER_REGION_BEGIN, 5, 1, 0),
            E3(GTR_EV_USER_REGION_END, 5, 1, 0),
            E2(GTR_EV_USER_TASK_END, 5, 0),
            E3(GTR_EV_GO_CREATE, 7, 0, 0),
            E2(GTR_EV_GO_BLOCK, 0, 0),
            E2(GTR_EV_GO_START, 7, 1),
            E3(GTR_EV_GO_UNBLOCK, 1, seq1 + 1, 0),
            E0(GTR_EV_GO_DESTROY),
            E2(GTR_EV_GO_START, 1, seq1 + 2),
        };
        for (size_t i = r == 0 ? 0 : 2; i < sizeof evs / sizeof evs[0]; i++) {
            bool ok = false;
            gtr_status st = order_advance(o, &evs[i], evt, 0, 1, &ok, err);
            if (st != GTR_OK)
                return st;
            if (!ok)
                return gtr_err_setf(err, GTR_E_USAGE, "event %zu of round %d did not advance",
                                    i, r);
            gtr_event e;
            while (gtr__ordering_next(o, &e)) {
            }
        }
    }
    return GTR_OK;
}

static void test_order_steady_state_does_not_allocate(void **state)
{
    fx *f = *state;
    count_alloc c = {.fail_at = SIZE_MAX};
    gtr_alloc a = {ca_malloc, ca_realloc, ca_free, &c};
    gtr__ordering *o = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr__ordering_new(&a, &o, &err), GTR_OK);
    assert_int_equal(scenario(o, f->evt, &err, 3), GTR_OK);
    size_t warm = c.calls;
    assert_int_equal(scenario(o, f->evt, &err, 50), GTR_OK);
    /* Extra strings belong to the table (not counted here); the ordering allocated nothing. */
    assert_int_equal(c.calls, warm);
    gtr__ordering_free(o);
    assert_int_equal(c.live, 0);
}

/* The ordering copies each name's text once however many regions and tasks name it (a Go
 * string shares its bytes; a copy per name would let a short trace of many regions naming
 * one long string take memory without bound), and a failed allocation of a copy is an error
 * that changes nothing: the event can be advanced again. */
static void test_order_names_copy_each_text_once(void **state)
{
    (void)state;
    count_alloc c = {.fail_at = SIZE_MAX};
    gtr_alloc a = {ca_malloc, ca_realloc, ca_free, &c};
    gtr__ordering *o = NULL;
    gtr_err err = GTR_ERR_INIT;
    enum { LONG = 60000, REGIONS = 300 };
    char *text = malloc(LONG);
    assert_non_null(text);
    memset(text, 'x', LONG);
    gtr__ev_table *t = new_table(false);
    assert_int_equal(gtr__evt_add_string(t, 8, text, LONG, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_string(t, 9, "short", 5, &err), GTR_OK);
    assert_int_equal(gtr__ordering_new(&a, &o, &err), GTR_OK);
    gtr__base_event evs[3 + 2 * REGIONS];
    size_t n = 0;
    evs[n++] = E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING);
    evs[n++] = E3(GTR_EV_GO_STATUS, 1, 0, GTR_GSTATUS_RUNNING);
    for (int i = 0; i < REGIONS; i++) {
        evs[n++] = E3(GTR_EV_USER_REGION_BEGIN, (uint64_t)i, 8, 0);
        evs[n++] = mk(GTR_EV_USER_TASK_BEGIN, (uint64_t)(1000 + i), 0, i % 2 ? 8 : 9, 0);
    }
    evs[n++] = E3(GTR_EV_USER_REGION_BEGIN, 7, 0, 0); /* the empty name */
    size_t before = c.asked, failed = 0;
    for (size_t i = 0; i < n; i++) {
        bool ok = false;
        gtr__base_event ev = evs[i];
        /* The first region's name: each of its allocations fails in turn, then none. */
        for (size_t j = 0; i == 2; j++) {
            c.fail_at = c.calls + j;
            gtr_err_clear(&err);
            gtr_status st = order_advance(o, &ev, t, 0, 1, &ok, &err);
            c.fail_at = SIZE_MAX;
            if (st == GTR_OK)
                break;
            assert_int_equal(st, GTR_E_NOMEM);
            assert_int_equal(gtr__ordering_queued(o), 0);
            ev = evs[i];
            failed++;
        }
        if (i != 2)
            assert_int_equal(order_advance(o, &ev, t, 0, 1, &ok, &err), GTR_OK);
        assert_true(ok);
        gtr_event e;
        while (gtr__ordering_next(o, &e)) {
        }
    }
    assert_true(failed >= 2);
    /* The long text once, the short one once (not 450 times 60,000 bytes). */
    assert_true(c.asked - before < 4 * LONG);
    gtr__evt_free(t);
    gtr__ev_table *t2 = new_table(false);
    assert_int_equal(gtr__evt_add_string(t2, 3, text, LONG, &err), GTR_OK);
    bool ok = false;
    gtr__base_event end = E3(GTR_EV_USER_REGION_END, 7, 0, 0);
    assert_int_equal(order_advance(o, &end, t2, 0, 2, &ok, &err), GTR_OK);
    for (int i = REGIONS - 1; i >= 0; i--) {
        gtr__base_event task_end = E2(GTR_EV_USER_TASK_END, (uint64_t)(1000 + i), 0);
        assert_int_equal(order_advance(o, &task_end, t2, 0, 2, &ok, &err), GTR_OK);
        gtr_event e;
        assert_true(gtr__ordering_next(o, &e));
        assert_true(gtr__ordering_next(o, &e));
        gtr_str name = gtr__evt_extra_string(t2, e.args_[3]);
        assert_int_equal(name.len, i % 2 ? LONG : 5);
        assert_memory_equal(name.data, i % 2 ? text : "short", name.len);
        end = E3(GTR_EV_USER_REGION_END, (uint64_t)i, 3, 0);
        assert_int_equal(order_advance(o, &end, t2, 0, 2, &ok, &err), GTR_OK);
        assert_true(ok);
    }
    gtr__ordering_free(o);
    gtr__evt_free(t2);
    free(text);
    assert_int_equal(c.live, 0);
}

static void test_order_allocation_failures_report_nomem(void **state)
{
    fx *f = *state;
    count_alloc probe = {.fail_at = SIZE_MAX};
    gtr_alloc a = {ca_malloc, ca_realloc, ca_free, &probe};
    gtr__ordering *o = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr__ordering_new(&a, &o, &err), GTR_OK);
    assert_int_equal(scenario(o, f->evt, &err, 2), GTR_OK);
    gtr__ordering_free(o);
    size_t total = probe.calls;
    assert_true(total > 5);
    /* Every failure either surfaces as GTR_E_NOMEM or is absorbed (a dense array that can't
     * grow falls back to the hash table); nothing leaks. */
    size_t nomems = 0;
    for (size_t k = 0; k < total; k++) {
        count_alloc c = {.fail_at = k};
        a.ctx = &c;
        o = NULL;
        gtr_err_clear(&err);
        gtr_status st = gtr__ordering_new(&a, &o, &err);
        if (st == GTR_OK) {
            st = scenario(o, f->evt, &err, 2);
            gtr__ordering_free(o);
        }
        if (st != GTR_OK) {
            assert_int_equal(st, GTR_E_NOMEM);
            assert_string_equal(err.msg, "out of memory");
            nomems++;
        }
        assert_int_equal(c.live, 0);
    }
    assert_true(nomems > 0);
}

/* A queue that cannot grow fails the advance with GTR_E_NOMEM and keeps what it holds, in
 * order, also after its events moved to the buffer's start to make room; with memory back,
 * the same advance grows it. */
static void test_order_queue_growth_failure_keeps_the_queue(void **state)
{
    fx *f = *state;
    count_alloc c = {.fail_at = SIZE_MAX};
    gtr_alloc a = {ca_malloc, ca_realloc, ca_free, &c};
    gtr__ordering *o = NULL;
    gtr_err err = GTR_ERR_INIT;
    bool ok = false;
    gtr_event e;
    assert_int_equal(gtr__ordering_new(&a, &o, &err), GTR_OK);
    gtr__base_event ev = E2(GTR_EV_PROC_STATUS, 0, GTR_PSTATUS_RUNNING);
    assert_int_equal(order_advance(o, &ev, f->evt, 0, 1, &ok, &err), GTR_OK);
    /* The queue starts with 8 slots and an advance reserves 3: 6 events fill it; 2 popped
     * leave room at its start only, where the next advance moves the other 4. */
    for (uint64_t i = 0; i < 5; i++) {
        ev = E1(GTR_EV_HEAP_ALLOC, i);
        assert_int_equal(order_advance(o, &ev, f->evt, 0, 1, &ok, &err), GTR_OK);
    }
    assert_true(gtr__ordering_next(o, &e));
    assert_int_equal(e.type_, GTR_EV_PROC_STATUS);
    assert_true(gtr__ordering_next(o, &e));
    assert_int_equal(e.args_[0], 0);
    for (uint64_t i = 5; i < 7; i++) {
        ev = E1(GTR_EV_HEAP_ALLOC, i);
        assert_int_equal(order_advance(o, &ev, f->evt, 0, 1, &ok, &err), GTR_OK);
    }
    assert_int_equal(gtr__ordering_queued(o), 6);
    /* Full: the next advance must grow the buffer, and that allocation fails. */
    c.fail_at = c.calls;
    ev = E1(GTR_EV_HEAP_ALLOC, 7);
    assert_int_equal(order_advance(o, &ev, f->evt, 0, 1, &ok, &err), GTR_E_NOMEM);
    assert_string_equal(err.msg, "out of memory");
    assert_int_equal(gtr__ordering_queued(o), 6);
    c.fail_at = SIZE_MAX;
    assert_int_equal(order_advance(o, &ev, f->evt, 0, 1, &ok, &err), GTR_OK);
    for (uint64_t i = 1; i < 8; i++) {
        assert_true(gtr__ordering_next(o, &e));
        assert_int_equal(e.args_[0], i);
    }
    assert_false(gtr__ordering_next(o, &e));
    gtr__ordering_free(o);
    gtr_err_clear(&err);
    assert_int_equal(c.live, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
        T(test_order_dispatch_unknown_type_fails),
        T(test_order_unknown_stack_id_asks_for_the_check),
        T(test_order_validate_ctx_each_requirement_fails),
        T(test_order_validate_ctx_reached_through_advance_fails),
        T(test_order_proc_status_first_gen_is_undetermined),
        T(test_order_proc_status_new_proc_later_gen_is_not_exist),
        T(test_order_proc_status_invalid_status_fails),
        T(test_order_proc_status_inconsistent_fails),
        T(test_order_proc_status_abandoned_in_syscall_is_promoted),
        T(test_order_proc_status_abandoned_twice_is_idle),
        T(test_order_proc_status_abandoned_without_thread_fails),
        T(test_order_proc_start_waits_for_status_and_seq),
        T(test_order_proc_start_binds_proc),
        T(test_order_proc_stop_unknown_proc_fails),
        T(test_order_proc_stop_idle_proc_fails),
        T(test_order_proc_steal_from_other_thread_in_syscall),
        T(test_order_proc_steal_self_acts_as_stop),
        T(test_order_proc_steal_self_wrong_proc_fails),
        T(test_order_proc_steal_unknown_thread_fails),
        T(test_order_proc_steal_wrong_proc_fails),
        T(test_order_proc_steal_not_in_syscall_waits),
        T(test_order_proc_steal_abandoned_ignores_thread),
        T(test_order_go_status_packs_old_and_new_state),
        T(test_order_go_status_invalid_status_fails),
        T(test_order_go_status_inconsistent_fails),
        T(test_order_go_status_new_goroutine_later_gen_fails),
        T(test_order_go_status_syscall_without_thread_fails),
        T(test_order_go_status_syscall_on_other_thread),
        T(test_order_go_status_syscall_other_thread_mismatch_fails),
        T(test_order_go_status_syscall_same_thread_later_gen_mismatch_fails),
        T(test_order_go_create_and_run),
        T(test_order_go_create_blocked_is_waiting),
        T(test_order_go_create_without_goroutine),
        T(test_order_go_create_by_non_running_goroutine_fails),
        T(test_order_go_stop_unknown_goroutine_fails),
        T(test_order_go_stop_not_running_fails),
        T(test_order_go_switch_queues_three_events),
        T(test_order_go_switch_destroy_queues_destroy),
        T(test_order_go_switch_not_yet_advanceable),
        T(test_order_go_syscall_begin_bad_seq_fails),
        T(test_order_go_syscall_end_returns_to_running),
        T(test_order_go_syscall_end_not_in_syscall_fails),
        T(test_order_go_syscall_end_proc_not_in_syscall_fails),
        T(test_order_go_syscall_end_blocked_with_new_proc),
        T(test_order_go_create_syscall_binds_goroutine),
        T(test_order_go_destroy_syscall_without_proc),
        T(test_order_go_destroy_syscall_with_proc_steals_it_first),
        T(test_order_go_destroy_syscall_bad_states_fail),
        T(test_order_thread_id_reuse_steals_abandoned_proc),
        T(test_order_seq_resets_across_generations),
        T(test_order_seq_of_earlier_generation_does_not_advance),
        T(test_order_task_across_generations_keeps_name),
        T(test_order_task_end_names_within_generation),
        T(test_order_task_begin_errors),
        T(test_order_region_end_without_begin_first_gen),
        T(test_order_region_nesting),
        T(test_order_region_names_compared_by_text),
        T(test_order_names_outlive_their_table),
        T(test_order_names_copy_each_text_once),
        T(test_order_region_errors),
        T(test_order_region_unknown_goroutine_fails),
        T(test_order_gc_active_first_gen),
        T(test_order_gc_active_first_gen_after_begin_fails),
        T(test_order_gc_begin_end_states),
        T(test_order_gc_end_needs_context),
        T(test_order_stw_range_smuggles_kind),
        T(test_order_mark_assist_ranges),
        T(test_order_missing_active_range_lists_in_flight),
        T(test_order_sweep_ranges),
        T(test_order_simple_event_contexts),
        T(test_order_event_names_follow_version),
        T(test_order_dump_lists_state_in_id_order),
        T(test_order_resources_read_as_the_dump_shows),
        T(test_order_dump_empty),
        T(test_order_queue_grows_and_keeps_order),
        T(test_order_sparse_ids_stay_consistent),
        T(test_order_ids_moving_to_dense_array_stay_found),
        T(test_order_task_ids_match_a_model),
        T(test_order_steady_state_does_not_allocate),
        T(test_order_allocation_failures_report_nomem),
        T(test_order_queue_growth_failure_keeps_the_queue),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
