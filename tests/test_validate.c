/* SPDX-License-Identifier: BSD-3-Clause */
/* test_validate.c: the validator against Go's testtrace.Validator. Each scenario of
 * event_vectors.h is a sequence of events with the exact error Go's validator reports for
 * each (joined messages included); one test per scenario. Plus the ID maps' fallback for
 * large IDs and the absence of per-event allocation in steady state. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "event_testutil.h"
#include "gtr/validate.h"
#include "validate_priv.h"

static const vec_scenario *find_scenario(const char *name)
{
    for (size_t i = 0; i < NELEM(vec_scenarios); i++)
        if (strcmp(vec_scenarios[i].name, name) == 0)
            return &vec_scenarios[i];
    fail_msg("no scenario %s", name);
    return NULL;
}

static void run_scenario(const char *name)
{
    const vec_scenario *sc = find_scenario(name);
    gtr_validator *v;
    gtr_err err = GTR_ERR_INIT;

    assert_int_equal(gtr_validator_new(NULL, &v, &err), GTR_OK);
    gtr_validator_set_go_version(v, (gtr_go_version)sc->version);
    if (sc->skip_clock_checks)
        gtr_validator_skip_clock_snapshot_checks(v);
    for (size_t i = 0; i < sc->n; i++) {
        const vec_event *ve = &sc->evs[i];
        gtr__ev_table *t = vec_table(ve);
        gtr_event e = vec_make_event(ve, t);
        gtr_status st;
        gtr_err_clear(&err);
        st = gtr_validator_event(v, &e, &err);
        gtr__evt_free(t);
        if (ve->want[0] == '\0') {
            if (st != GTR_OK) {
                print_error("%s event %zu: unexpected error: %s\n", name, i, err.msg);
                fail();
            }
        } else {
            if (st != GTR_E_INVALID || strcmp(err.msg, ve->want) != 0) {
                print_error("%s event %zu (status %d):\n got: %s\nwant: %s\n", name, i, st,
                            err.msg, ve->want);
                fail();
            }
        }
    }
    gtr_validator_free(v);
}

#define SCENARIO(fn, name)              \
    static void fn(void **state)        \
    {                                   \
        (void)state;                    \
        run_scenario(name);             \
    }

SCENARIO(test_validate_timestamp_out_of_order_fails, "timestamp_out_of_order")
SCENARIO(test_validate_sync_not_sequential_fails, "sync_not_sequential")
SCENARIO(test_validate_sync_without_clock_snapshot_fails, "sync_no_clock_snapshot")
SCENARIO(test_validate_sync_without_clock_snapshot_before_go125_passes,
         "sync_no_clock_snapshot_old_version")
SCENARIO(test_validate_sync_zero_times_fail_joined, "sync_zero_times")
SCENARIO(test_validate_sync_non_increasing_times_fail, "sync_non_increasing")
SCENARIO(test_validate_sync_non_increasing_skipped_passes, "sync_non_increasing_skipped")
SCENARIO(test_validate_label_invalid_fails, "label")
SCENARIO(test_validate_goroutine_states_fail, "goroutine_states")
SCENARIO(test_validate_goroutine_undetermined_after_sync_fails,
         "goroutine_undetermined_after_sync")
SCENARIO(test_validate_goroutine_died_with_ranges_fails, "goroutine_died_with_ranges")
SCENARIO(test_validate_ranges_inconsistent_fail, "ranges")
SCENARIO(test_validate_tasks_inconsistent_fail, "tasks")
SCENARIO(test_validate_proc_states_fail, "proc_states")
SCENARIO(test_validate_proc_undetermined_after_sync_fails, "proc_undetermined_after_sync")
SCENARIO(test_validate_stop_on_another_thread_names_go_s_thread, "stop_on_another_thread")
SCENARIO(test_validate_stack_frames_missing_information_fail, "stack_frames")
SCENARIO(test_validate_thread_none_before_go122_passes, "lenient_old_version")
SCENARIO(test_validate_thread_none_from_go122_fails, "lenient_not_for_go122")
SCENARIO(test_validate_several_failures_joined, "many_errors")

/* Every generated scenario has a test above. */
static void test_validate_every_scenario_has_a_test(void **state)
{
    (void)state;
    assert_int_equal(NELEM(vec_scenarios), 20);
}

/* ---- ID maps ---- */

static gtr_event go_status(gtr_goid g, gtr_threadid m, uint64_t from, uint64_t to, gtr_time t)
{
    gtr_event e = gtr__make_event(NULL, -1, -1, m, GTR_EV_GO_STATUS, t);
    e.args_[0] = (uint64_t)g;
    e.args_[1] = (uint64_t)m;
    e.args_[2] = from << 32 | to;
    return e;
}

static gtr_event go_event(uint8_t type, gtr_goid ctxg, gtr_threadid m, uint64_t a0, gtr_time t)
{
    gtr_event e = gtr__make_event(NULL, ctxg, -1, m, type, t);
    e.args_[0] = a0;
    return e;
}

static void test_validate_large_and_negative_ids_tracked(void **state)
{
    static const gtr_goid ids[] = {5000, INT64_C(1) << 40, -7, INT64_MAX, INT64_MIN + 1};
    gtr_validator *v;
    gtr_err err = GTR_ERR_INIT;
    gtr_time t = 1;
    gtr_event e;
    (void)state;

    assert_int_equal(gtr_validator_new(NULL, &v, &err), GTR_OK);
    /* Large IDs land in the hash fallback; then many small ones grow the dense array past
     * 5000, which must move goroutine 5000's state along. */
    for (size_t i = 0; i < NELEM(ids); i++) {
        e = go_status(ids[i], 1, GTR_GO_UNDETERMINED, GTR_GSTATUS_RUNNABLE, t++);
        assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
    }
    for (gtr_goid g = 1; g <= 6000; g++) {
        e = go_status(g == 5000 ? 6001 : g, 1, GTR_GO_UNDETERMINED, GTR_GSTATUS_WAITING, t++);
        assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
    }
    for (size_t i = 0; i < NELEM(ids); i++) {
        e = go_event(GTR_EV_GO_START, -1, 2, (uint64_t)ids[i], t++);
        assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
        e = go_event(GTR_EV_GO_STOP, ids[i], 2, 0, t++);
        assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
    }
    /* Goroutine 5000 is Runnable now: starting it from Waiting is a bad old state. */
    e = go_event(GTR_EV_GO_UNBLOCK, -1, 2, 5000, t++);
    assert_int_equal(gtr_validator_event(v, &e, &err), GTR_E_INVALID);
    assert_string_equal(err.msg, "bad old state for goroutine 5000: got Waiting, want Runnable");
    gtr_validator_free(v);
}

/* thread_id is the k-th of 80 OS-like thread IDs: too large for the dense array, half of
 * them in one cache bucket of the hash table (the low bits alike), the rest consecutive. */
static gtr_threadid thread_id(int k)
{
    return k % 2 == 0 ? 3000000 + 16 * (gtr_threadid)k : 5000001 + (gtr_threadid)k;
}

static void test_validate_sparse_ids_taking_turns_tracked(void **state)
{
    vec_event ve = {.table = 1};
    gtr__ev_table *t = vec_table(&ve);
    gtr_validator *v;
    gtr_err err = GTR_ERR_INIT;
    gtr_time ts = 1;
    gtr_event e;
    char want[160];
    (void)state;

    assert_int_equal(gtr_validator_new(NULL, &v, &err), GTR_OK);
    for (gtr_goid g = 1; g <= 80; g++) {
        e = go_status(g, thread_id(0), GTR_GO_UNDETERMINED, GTR_GSTATUS_RUNNABLE, ts++);
        assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
    }
    /* Every thread runs a goroutine at once, the threads taking turns: each lookup names
     * another thread than the last, and new threads keep growing the table. */
    for (int round = 0; round < 3; round++) {
        for (int k = 0; k < 80; k++) {
            e = go_event(GTR_EV_GO_START, -1, thread_id(k), (uint64_t)(k + 1), ts++);
            assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
        }
        for (int k = 79; k >= 0; k--) {
            e = go_event(GTR_EV_GO_STOP, k + 1, thread_id(k), 0, ts++);
            assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
        }
    }
    e = go_event(GTR_EV_GO_START, -1, thread_id(6), 7, ts++);
    assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
    e = go_event(GTR_EV_GO_START, -1, thread_id(6), 8, ts++);
    assert_int_equal(gtr_validator_event(v, &e, &err), GTR_E_INVALID);
    snprintf(want, sizeof want,
             "tried to run goroutine 8 when one was already executing (7) on thread %lld",
             (long long)thread_id(6));
    assert_string_equal(err.msg, want);

    /* Tasks with large IDs, half of them ended (deletions move hash entries), then the
     * others ended with another type: each is still found, under its own type. */
    for (int k = 0; k < 64; k++) {
        e = gtr__make_event(t, 7, -1, thread_id(6), GTR_EV_USER_TASK_BEGIN, ts++);
        e.args_[0] = (UINT64_C(1) << 40) + 16 * (uint64_t)k;
        e.args_[1] = 1;
        e.args_[2] = 8; /* "mytask" */
        assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int k = pass; k < 64; k += 2) {
            uint64_t id = (UINT64_C(1) << 40) + 16 * (uint64_t)k;
            e = gtr__make_event(t, 7, -1, thread_id(6), GTR_EV_USER_TASK_END, ts++);
            e.args_[0] = id;
            e.args_[2] = 1;
            e.args_[3] = pass == 0 ? 1 : 0; /* extra string "mytask", then "" */
            if (pass == 0) {
                assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
                continue;
            }
            assert_int_equal(gtr_validator_event(v, &e, &err), GTR_E_INVALID);
            snprintf(want, sizeof want,
                     "task end type \"\" doesn't match task start type \"mytask\" for task "
                     "%llu",
                     (unsigned long long)id);
            assert_string_equal(err.msg, want);
        }
    }
    gtr_validator_free(v);
    gtr__evt_free(t);
}

/* ---- allocation ---- */

typedef struct counting {
    size_t n;
} counting;

static void *count_malloc(void *ctx, size_t n)
{
    ((counting *)ctx)->n++;
    return malloc(n);
}

static void *count_realloc(void *ctx, void *p, size_t n)
{
    ((counting *)ctx)->n++;
    return realloc(p, n);
}

static void count_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static void test_validate_steady_state_allocates_nothing(void **state)
{
    counting c = {0};
    gtr_alloc alc = {count_malloc, count_realloc, count_free, &c};
    vec_event ve = {.table = 1};
    gtr__ev_table *t = vec_table(&ve);
    gtr_validator *v;
    gtr_err err = GTR_ERR_INIT;
    gtr_time ts = 1;
    size_t warm = 0;
    (void)state;

    assert_int_equal(gtr_validator_new(&alc, &v, &err), GTR_OK);
    for (int round = 0; round < 200; round++) {
        gtr_event e;
        if (round == 10)
            warm = c.n;
        for (gtr_goid g = 1; g <= 50; g++) {
            if (round == 0) {
                e = go_status(g, 3, GTR_GO_UNDETERMINED, GTR_GSTATUS_RUNNABLE, ts++);
                assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
            }
            e = go_event(GTR_EV_GO_START, -1, 3, (uint64_t)g, ts++);
            assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
            e = gtr__make_event(t, g, -1, 3, GTR_EV_GC_MARK_ASSIST_BEGIN, ts++);
            assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
            e = gtr__make_event(t, g, -1, 3, GTR_EV_GC_MARK_ASSIST_END, ts++);
            assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
            e = gtr__make_event(t, g, -1, 3, GTR_EV_USER_TASK_BEGIN, ts++);
            e.args_[0] = (uint64_t)g;
            e.args_[1] = 1;
            e.args_[2] = 8; /* "mytask" */
            assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
            e = gtr__make_event(t, g, -1, 3, GTR_EV_USER_TASK_END, ts++);
            e.args_[0] = (uint64_t)g;
            e.args_[2] = 1;
            e.args_[3] = 1; /* extra string "mytask" */
            assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
            e = go_event(GTR_EV_GO_STOP, g, 3, 6, ts++);
            e.table_ = t;
            assert_int_equal(gtr_validator_event(v, &e, &err), GTR_OK);
        }
    }
    assert_true(warm > 0);
    assert_int_equal(c.n, warm);
    gtr_validator_free(v);
    gtr__evt_free(t);
}

/* ---- robustness: any event, over a table or none, formats and validates without crashing
 * (ASan/UBSan); statuses are OK, GTR_E_INVALID or GTR_E_USAGE (where Go would panic). ---- */

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static uint64_t random_arg(uint64_t *x)
{
    switch (xorshift(x) % 4) {
    case 0: return xorshift(x) % 24;                 /* table IDs, small goroutine IDs */
    case 1: return xorshift(x);                      /* anything */
    case 2: return (xorshift(x) % 6) << 32 | (xorshift(x) % 7); /* packed gstatus */
    default: return UINT64_MAX - xorshift(x) % 3;
    }
}

static void test_validate_random_events_never_crash(void **state)
{
    vec_event ve = {.table = 2, .freq = 1.5, .snap_time = 7, .mono = 9, .wall_sec = 1};
    gtr__ev_table *t = vec_table(&ve);
    uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
    gtr_buf b = {0};
    gtr_validator *v;
    gtr_err err = GTR_ERR_INIT;
    size_t usage = 0, invalid = 0;
    (void)state;

    assert_int_equal(gtr_validator_new(NULL, &v, &err), GTR_OK);
    for (int i = 0; i < 100000; i++) {
        const gtr__ev_table *tab = xorshift(&x) % 8 == 0 ? NULL : t;
        uint8_t type = (uint8_t)(xorshift(&x) % 4 == 0 ? xorshift(&x) : xorshift(&x) % 54);
        gtr_event e = gtr__make_event(tab, (gtr_goid)random_arg(&x) % 40 - 1,
                                      (gtr_procid)random_arg(&x) % 10 - 1,
                                      (gtr_threadid)random_arg(&x) % 6 - 1, type,
                                      (gtr_time)(xorshift(&x) % 1000));
        gtr_status st;
        if (xorshift(&x) % 16 == 0)
            e.type_ = GTR_EV_SYNC_EVENT;
        for (int k = 0; k < 4; k++)
            e.args_[k] = random_arg(&x);
        gtr_buf_reset(&b);
        st = gtr_event_string(&e, &b);
        assert_true(st == GTR_OK || st == GTR_E_USAGE);
        st = gtr_validator_event(v, &e, &err);
        assert_true(st == GTR_OK || st == GTR_E_INVALID || st == GTR_E_USAGE);
        usage += st == GTR_E_USAGE;
        invalid += st == GTR_E_INVALID;
    }
    assert_true(usage > 0 && invalid > 0);
    gtr_buf_free(&b);
    gtr_validator_free(v);
    gtr__evt_free(t);
}

static gtr__ev_table *mini_table(gtr__ev_table *t, bool complete);

/* The fast paths of ProcStart, ProcStop, GoStart, GoStop and GoBlock (validate.c's
 * transition_fast) against the full checks: two validators, one with the fast paths off, are
 * given the same events, and must answer each alike (status and messages). The events are
 * mostly what a trace has (a thread with a P stops it, one without starts an idle one; a
 * thread running a goroutine stops or blocks it, one without starts a runnable one), with
 * wrong ones among them: a P or goroutine started twice or on a busy thread, stopped by the
 * wrong thread or never started, unknown ones, no thread, times out of order, statuses in
 * between, stacks complete, incomplete or unknown. Thread IDs are small (the ID maps' dense
 * arrays; 0 is also the binding of a P or goroutine never bound) or large (their hash tables
 * and caches). */
static void test_validate_fast_paths_match_full_checks(void **state)
{
    enum { NT = 6, NP = 6, NG = 8 };
    const gtr_threadid threads[NT] = {0, 1, 2, (gtr_threadid)1 << 40, ((gtr_threadid)1 << 40) + 16,
                                      ((gtr_threadid)1 << 40) + 33};
    gtr_procid holds[NT];   /* the P each thread was last given, GTR_NO_PROC for none */
    gtr_goid runs[NT];      /* the goroutine each thread was last given, GTR_NO_GOROUTINE */
    gtr__ev_table *t = mini_table(NULL, true), *bad = mini_table(NULL, false);
    gtr_validator *a, *b;
    gtr_err ea = GTR_ERR_INIT, eb = GTR_ERR_INIT;
    uint64_t x = UINT64_C(0x2545f4914f6cdd1d);
    gtr_time ts = 1;
    size_t clean[2] = {0, 0}, failed[2] = {0, 0};
    (void)state;

    /* transition_fast checks the transition's stack only: it is the event's own for GoStop and
     * GoBlock, and the other three have none. */
    assert_int_equal(gtr_spec(GTR_EV_PROC_START)->nstack_ids, 0);
    assert_int_equal(gtr_spec(GTR_EV_PROC_STOP)->nstack_ids, 0);
    assert_int_equal(gtr_spec(GTR_EV_GO_START)->nstack_ids, 0);
    assert_int_equal(gtr_spec(GTR_EV_GO_STOP)->nstack_ids, 1);
    assert_int_equal(gtr_spec(GTR_EV_GO_BLOCK)->nstack_ids, 1);
    for (int k = 0; k < NT; k++) {
        holds[k] = GTR_NO_PROC;
        runs[k] = GTR_NO_GOROUTINE;
    }
    assert_int_equal(gtr_validator_new(NULL, &a, &ea), GTR_OK);
    assert_int_equal(gtr_validator_new(NULL, &b, &eb), GTR_OK);
    gtr__validator_set_fast_paths(b, false);
    for (int i = 0; i < 300000; i++) {
        unsigned k = (unsigned)(xorshift(&x) % NT), r = (unsigned)(xorshift(&x) % 100);
        bool go = xorshift(&x) % 2 == 0;
        gtr_procid p = (gtr_procid)(xorshift(&x) % NP);
        gtr_goid g = 1 + (gtr_goid)(xorshift(&x) % NG);
        ts += r < 2 ? -(gtr_time)(xorshift(&x) % 3) : (gtr_time)(1 + xorshift(&x) % 5);
        gtr_threadid m = r == 2 ? GTR_NO_THREAD : threads[k];
        gtr_event e;
        if (i % 50000 == 0) {
            /* A generation: its table is the one whose stacks found complete are kept. */
            e = gtr__make_event(xorshift(&x) % 2 ? t : bad, GTR_NO_GOROUTINE, GTR_NO_PROC,
                                GTR_NO_THREAD, GTR_EV_SYNC_EVENT, ts);
            e.args_[0] = 1 + (uint64_t)i / 50000;
        } else if (r < 8 && !go) {
            /* A P's status: any state, with any state before it (extra()[0]). */
            e = gtr__make_event(t, GTR_NO_GOROUTINE, GTR_NO_PROC, m, GTR_EV_PROC_STATUS, ts);
            e.args_[0] = (uint64_t)p;
            e.args_[1] = 1 + xorshift(&x) % 4;
            e.args_[2] = xorshift(&x) % 4;
        } else if (r < 8) {
            /* A goroutine's status: gstatus is the state before << 32 | the status. */
            e = gtr__make_event(t, GTR_NO_GOROUTINE, GTR_NO_PROC, m, GTR_EV_GO_STATUS, ts);
            e.args_[0] = (uint64_t)g;
            e.args_[1] = (uint64_t)m;
            e.args_[2] = (xorshift(&x) % 7) << 32 | (1 + xorshift(&x) % 4);
        } else if (!go && holds[k] != GTR_NO_PROC && r < 60) {
            /* The thread stops its P (now and then another one). */
            gtr_procid q = r < 55 ? holds[k] : p;
            e = gtr__make_event(t, GTR_NO_GOROUTINE, q, m, GTR_EV_PROC_STOP, ts);
            if (q == holds[k])
                holds[k] = GTR_NO_PROC;
        } else if (!go && r < 90) {
            /* A start of P p (which may be running elsewhere, or be the thread's own). */
            e = gtr__make_event(t, GTR_NO_GOROUTINE, GTR_NO_PROC, m, GTR_EV_PROC_START, ts);
            e.args_[0] = r < 88 ? (uint64_t)p : (uint64_t)1 << 33;
            e.args_[1] = 1;
            holds[k] = p;
        } else if (!go) {
            /* A stop naming any P, or an unknown one. */
            gtr_procid q = r < 96 ? p : (gtr_procid)1 << 35;
            e = gtr__make_event(t, GTR_NO_GOROUTINE, q, m, GTR_EV_PROC_STOP, ts);
        } else if (runs[k] != GTR_NO_GOROUTINE && r < 60) {
            /* The thread stops or blocks its goroutine (now and then another one), with the
             * empty stack, a complete one, an incomplete one (in the table bad) or an ID no
             * table has. */
            gtr_goid h = r < 55 ? runs[k] : g;
            unsigned sr = (unsigned)(xorshift(&x) % 10);
            e = gtr__make_event(sr == 9 ? bad : t, h, GTR_NO_PROC, m,
                                r % 2 ? GTR_EV_GO_STOP : GTR_EV_GO_BLOCK, ts);
            e.args_[0] = 1;
            e.args_[1] = sr < 4 ? 0 : sr < 8 ? 1 : sr == 8 ? 7 : 1;
            if (h == runs[k])
                runs[k] = GTR_NO_GOROUTINE;
        } else if (r < 90) {
            /* A start of goroutine g (which may be running elsewhere, or be the thread's). */
            e = gtr__make_event(t, GTR_NO_GOROUTINE, GTR_NO_PROC, m, GTR_EV_GO_START, ts);
            e.args_[0] = r < 88 ? (uint64_t)g : (uint64_t)1 << 34;
            e.args_[1] = 1;
            runs[k] = g;
        } else {
            /* A stop naming any goroutine, or an unknown one. */
            gtr_goid h = r < 96 ? g : (gtr_goid)1 << 36;
            e = gtr__make_event(t, h, GTR_NO_PROC, m, GTR_EV_GO_STOP, ts);
            e.args_[0] = 1;
            e.args_[1] = 0;
        }
        gtr_err_clear(&ea);
        gtr_err_clear(&eb);
        gtr_status sa = gtr_validator_event(a, &e, &ea), sb = gtr_validator_event(b, &e, &eb);
        if (sa != sb || strcmp(ea.msg, eb.msg) != 0) {
            print_error("event %d (type %u, G %lld, P %lld, thread %lld, time %lld):\n"
                        " fast: %d %s\n full: %d %s\n", i, e.type_, (long long)e.g_,
                        (long long)e.p_, (long long)e.m_, (long long)e.time_, sa, ea.msg, sb,
                        eb.msg);
            fail();
        }
        bool is_go = e.type_ == GTR_EV_GO_START || e.type_ == GTR_EV_GO_STOP ||
                     e.type_ == GTR_EV_GO_BLOCK;
        if (is_go || e.type_ == GTR_EV_PROC_START || e.type_ == GTR_EV_PROC_STOP) {
            clean[is_go] += sa == GTR_OK;
            failed[is_go] += sa != GTR_OK;
        }
    }
    /* Both kinds of answer, many times over, for both families: the fast paths taken and
     * declined. */
    for (int f = 0; f < 2; f++) {
        assert_true(clean[f] > 30000);
        assert_true(failed[f] > 10000);
    }
    gtr_validator_free(a);
    gtr_validator_free(b);
    gtr__evt_free(t);
    gtr__evt_free(bad);
}

/* mini_table: strings 1 "f" and 2 "x.go"; stack 1 = {0x10, 0x20}; frame 0x10 complete, frame
 * 0x20 complete or without a line. */
static gtr__ev_table *mini_table(gtr__ev_table *t, bool complete)
{
    static const uint64_t pcs[] = {0x10, 0x20};
    gtr__frame f1 = {0x10, 1, 2, 3}, f2 = {0x20, 1, 2, complete ? 4 : 0};
    gtr_err err = GTR_ERR_INIT;

    if (t == NULL)
        assert_int_equal(gtr__evt_new(NULL, &t, &err), GTR_OK);
    else
        gtr__evt_reset(t);
    assert_int_equal(gtr__evt_add_string(t, 1, "f", 1, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_string(t, 2, "x.go", 4, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_stack(t, 1, pcs, 2, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_frame(t, &f1, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_frame(t, &f2, &err), GTR_OK);
    assert_int_equal(gtr__evt_compactify(t, &err), GTR_OK);
    return t;
}

/* feed gives v an event of table t at time ts: a Sync numbered n when n > 0, otherwise a
 * CPU sample with stack 1; want is the error expected ("" none). */
static void feed(gtr_validator *v, const gtr__ev_table *t, gtr_time ts, uint64_t n,
                 const char *want)
{
    gtr_event e = gtr__make_event(t, n > 0 ? GTR_NO_GOROUTINE : 1, n > 0 ? GTR_NO_PROC : 2,
                                  n > 0 ? GTR_NO_THREAD : 3,
                                  n > 0 ? GTR_EV_SYNC_EVENT : GTR_EV_CPU_SAMPLE, ts);
    gtr_err err = GTR_ERR_INIT;
    gtr_status st;

    e.args_[0] = n > 0 ? n : 1;
    gtr_err_clear(&err);
    st = gtr_validator_event(v, &e, &err);
    if (want[0] == '\0' ? st != GTR_OK : st != GTR_E_INVALID || strcmp(err.msg, want) != 0) {
        print_error("event at %lld (status %d):\n got: %s\nwant: %s\n", (long long)ts, st,
                    st == GTR_OK ? "" : err.msg, want);
        fail();
    }
}

/* A stack found complete is not walked again in its generation (the validator remembers
 * it), yet an incomplete one is reported at every use, and a new generation's stack of the
 * same ID (its table reset and refilled, as the reader does) is checked afresh. */
/* The validator's copy for the Metric types (validate.c, validate_metric) checks only the time
 * and the stack: it relies on every Metric type's name holding a ":" and its value being a
 * Uint64, whatever the event's argument. */
static void test_validate_metric_names_and_values_always_pass(void **state)
{
    (void)state;
    size_t metrics = 0;
    for (unsigned t = 0; t < 256; t++) {
        const gtr_event_spec *spec = gtr_spec((uint8_t)t);
        if (spec == NULL || spec->name == NULL)
            continue;
        gtr_event e;
        memset(&e, 0, sizeof e);
        e.type_ = (uint8_t)t;
        e.args_[0] = UINT64_MAX;
        if (gtr_event_get_kind(&e) != GTR_EVENT_METRIC)
            continue;
        metrics++;
        gtr_metric m;
        gtr_err err = GTR_ERR_INIT;
        assert_int_equal(gtr_event_metric(&e, &m, &err), GTR_OK);
        assert_non_null(memchr(m.name.data, ':', m.name.len));
        assert_int_equal(m.value.kind, GTR_VALUE_UINT64);
        assert_true(t == GTR_EV_HEAP_ALLOC || t == GTR_EV_HEAP_GOAL || t == GTR_EV_PROCS_CHANGE);
    }
    assert_int_equal(metrics, 3);
}

static void test_validate_stack_checks_per_generation(void **state)
{
    static const char bad[] = "invalid stack frame trace.StackFrame{PC:0x20, Func:\"f\", "
                              "File:\"x.go\", Line:0x0}: missing information";
    gtr__ev_table *t = mini_table(NULL, true), *t2;
    gtr_validator *v;
    gtr_err err = GTR_ERR_INIT;

    (void)state;
    assert_int_equal(gtr_validator_new(NULL, &v, &err), GTR_OK);
    gtr_validator_set_go_version(v, GTR_GO122);
    feed(v, t, 1, 1, "");
    feed(v, t, 2, 0, "");
    feed(v, t, 3, 0, "");
    t = mini_table(t, false);   /* the same table, the next generation */
    feed(v, t, 4, 2, "");
    feed(v, t, 5, 0, bad);
    feed(v, t, 6, 0, bad);
    t2 = mini_table(NULL, true);   /* another table, no Sync: checked every time */
    feed(v, t2, 7, 0, "");
    feed(v, t, 8, 0, bad);
    t = mini_table(t, true);
    feed(v, t, 9, 3, "");
    feed(v, t, 10, 0, "");
    gtr__evt_free(t2);
    t2 = mini_table(NULL, false);   /* not the Sync's table: not taken for it */
    feed(v, t2, 11, 0, bad);
    feed(v, t, 12, 0, "");
    gtr_validator_free(v);
    gtr__evt_free(t);
    gtr__evt_free(t2);
}

/* count_of is the number of times needle occurs in hay. */
static size_t count_of(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p != NULL; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* GoStop, GoBlock and GoSyscallBegin give their own stack as the transition's: Go checks it
 * twice, so an incomplete frame is reported twice (the validator skips the second check
 * only when the first found nothing), and a complete stack not at all. */
static void test_validate_transition_stack_checked_as_go_does(void **state)
{
    static const uint8_t types[] = {GTR_EV_GO_STOP, GTR_EV_GO_BLOCK, GTR_EV_GO_SYSCALL_BEGIN};
    (void)state;
    for (size_t k = 0; k < sizeof types; k++) {
        for (int complete = 0; complete <= 1; complete++) {
            for (int synced = 0; synced <= 1; synced++) {
                gtr__ev_table *t = mini_table(NULL, complete != 0);
                gtr_validator *v;
                gtr_err err = GTR_ERR_INIT;
                assert_int_equal(gtr_validator_new(NULL, &v, &err), GTR_OK);
                gtr_validator_set_go_version(v, GTR_GO122);
                if (synced)
                    feed(v, t, 1, 1, "");   /* the table is the Sync's: clean stacks kept */
                gtr_event e = gtr__make_event(t, 1, 2, 3, types[k], 2);
                unsigned si = gtr_spec(types[k])->stack_ids[0];
                assert_in_range(si, 1, 4);
                e.args_[0] = 1;          /* GoStop's and GoBlock's reason: "f" */
                e.args_[si - 1] = 1;     /* stack 1 */
                gtr_err_clear(&err);
                gtr_status st = gtr_validator_event(v, &e, &err);
                size_t reported = st == GTR_OK ? 0 : count_of(err.msg, "invalid stack frame");
                assert_int_equal(reported, complete ? 0 : 2);
                gtr_err_clear(&err);
                gtr_validator_free(v);
                gtr__evt_free(t);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validate_timestamp_out_of_order_fails),
        cmocka_unit_test(test_validate_transition_stack_checked_as_go_does),
        cmocka_unit_test(test_validate_sync_not_sequential_fails),
        cmocka_unit_test(test_validate_sync_without_clock_snapshot_fails),
        cmocka_unit_test(test_validate_sync_without_clock_snapshot_before_go125_passes),
        cmocka_unit_test(test_validate_sync_zero_times_fail_joined),
        cmocka_unit_test(test_validate_sync_non_increasing_times_fail),
        cmocka_unit_test(test_validate_sync_non_increasing_skipped_passes),
        cmocka_unit_test(test_validate_label_invalid_fails),
        cmocka_unit_test(test_validate_goroutine_states_fail),
        cmocka_unit_test(test_validate_goroutine_undetermined_after_sync_fails),
        cmocka_unit_test(test_validate_goroutine_died_with_ranges_fails),
        cmocka_unit_test(test_validate_ranges_inconsistent_fail),
        cmocka_unit_test(test_validate_tasks_inconsistent_fail),
        cmocka_unit_test(test_validate_proc_states_fail),
        cmocka_unit_test(test_validate_proc_undetermined_after_sync_fails),
        cmocka_unit_test(test_validate_stop_on_another_thread_names_go_s_thread),
        cmocka_unit_test(test_validate_stack_frames_missing_information_fail),
        cmocka_unit_test(test_validate_thread_none_before_go122_passes),
        cmocka_unit_test(test_validate_thread_none_from_go122_fails),
        cmocka_unit_test(test_validate_several_failures_joined),
        cmocka_unit_test(test_validate_every_scenario_has_a_test),
        cmocka_unit_test(test_validate_large_and_negative_ids_tracked),
        cmocka_unit_test(test_validate_sparse_ids_taking_turns_tracked),
        cmocka_unit_test(test_validate_steady_state_allocates_nothing),
        cmocka_unit_test(test_validate_stack_checks_per_generation),
        cmocka_unit_test(test_validate_metric_names_and_values_always_pass),
        cmocka_unit_test(test_validate_random_events_never_crash),
        cmocka_unit_test(test_validate_fast_paths_match_full_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
