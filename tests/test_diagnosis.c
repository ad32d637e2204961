/* SPDX-License-Identifier: BSD-3-Clause */
/* test_diagnosis.c: why a reader failed to advance (gtr/diagnosis.h). One crafted trace per
 * condition an advance function waits on, with every field of the stuck event checked; the
 * shape that the reducer keeps; bad use of the API; and a sweep over Go's golden fixtures and
 * the generated ones: every event of theirs dropped in turn, each trace that then fails to
 * advance gets a condition for every stuck event (none is left unexplained). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "gtr/diagnosis.h"
#include "gtr/raw.h"
#include "gtr/reader.h"
#include "gtr/snapshot.h"
#include "tgen/fixture.h"
#include "tracedit.h"

/* A trace read to its end, with its history and (when it failed to advance) diagnosis. */
typedef struct stuck_run {
    gtr_status st;
    gtr_err err;
    gtr_diagnosis *d;
    gtr_status diag_st;
    const char *failed_on;   /* gtr_reader_failed_event */
} stuck_run;

static void run_wire(const void *wire, size_t len, stuck_run *out)
{
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_history *h = NULL;
    gtr_event ev;
    memset(out, 0, sizeof *out);
    assert_int_equal(gtr_input_open_memory_plain(wire, len, NULL, &in, NULL), GTR_OK);
    assert_int_equal(gtr_history_new(NULL, &h, NULL), GTR_OK);
    out->st = gtr_reader_new(in, NULL, &r, &out->err);
    if (out->st == GTR_OK) {
        while ((out->st = gtr_reader_next(r, &ev, &out->err)) == GTR_OK)
            assert_int_equal(gtr_history_note(h, r, &ev), GTR_OK);
    }
    out->diag_st = gtr_reader_diagnose(r, h, &out->d, NULL);
    out->failed_on = gtr_reader_failed_event(r);
    gtr_history_free(h);
    gtr_reader_free(r);
    gtr_input_free(in);
}

static void run_text(const char *text, stuck_run *out)
{
    gtr_buf wire = {0};
    gtr_err err = GTR_ERR_INIT;
    if (gtr_raw_text_to_wire(text, strlen(text), &wire, &err) != GTR_OK)
        fail_msg("text: %s", gtr_err_text(&err, NULL));
    run_wire(wire.data, wire.len, out);
    gtr_buf_free(&wire);
}

static void stuck_run_free(stuck_run *r)
{
    gtr_diagnosis_free(r->d);
    gtr_err_clear(&r->err);
}

/* The tables every crafted generation ends with. */
#define TABLES(gen)                                                                      \
    "EventBatch gen=" #gen " m=18446744073709551615 time=0 size=5\n"                    \
    "Frequency freq=15625000\n"                                                          \
    "EventBatch gen=" #gen " m=18446744073709551615 time=0 size=1\n"                    \
    "Stacks\n"                                                                           \
    "EventBatch gen=" #gen " m=18446744073709551615 time=0 size=12\n"                   \
    "Strings\n"                                                                          \
    "String id=1\n"                                                                      \
    "\tdata=\"whatever\"\n"

static const gtr_stuck_event *only_stuck(stuck_run *r, size_t n)
{
    assert_int_equal(r->st, GTR_E_ORDER);
    assert_non_null(strstr(r->err.msg, "broken trace: failed to advance: frontier:"));
    assert_int_equal(r->diag_st, GTR_OK);
    assert_int_equal(gtr_diagnosis_len(r->d), n);
    return gtr_diagnosis_event(r->d, 0);
}

static void assert_shape(const gtr_diagnosis *d, const char *want)
{
    gtr_buf b = {0};
    assert_int_equal(gtr_diagnosis_shape(d, &b), GTR_OK);
    assert_string_equal(b.data != NULL ? b.data : "", want);
    gtr_buf_free(&b);
}

/* A GoStart whose goroutine is two sequence numbers behind: events are missing. */
static void test_goroutine_sequence_behind(void **state)
{
    (void)state;
    stuck_run r;
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=13\n"
             "ProcStatus dt=1 p=0 pstatus=1\n"
             "GoStatus dt=1 g=1 m=0 gstatus=2\n"
             "GoStop dt=1 reason_string=1 stack=0\n"
             "EventBatch gen=1 m=1 time=0 size=8\n"
             "ProcStatus dt=1 p=1 pstatus=1\n"
             "GoStart dt=5 g=1 g_seq=3\n" TABLES(1),
             &r);
    const gtr_stuck_event *e = only_stuck(&r, 1);
    assert_int_equal(e->m, 1);
    assert_int_equal(e->type, GTR_EV_GO_START);
    assert_int_equal(e->wait, GTR_WAIT_SEQUENCE);
    assert_int_equal(e->resource, GTR_RESOURCE_GOROUTINE);
    assert_int_equal(e->id, 1);
    assert_string_equal(e->need_status, "Runnable");
    assert_true(e->declared);
    assert_string_equal(e->have_status, "Runnable");
    assert_int_equal(e->gen, 1);
    assert_int_equal(e->seq_need, 2);
    assert_int_equal(e->seq_have, 0);
    assert_true(e->has_last);
    assert_string_equal(e->last_name, "GoStop");
    assert_int_equal(e->last_m, 0);
    assert_int_equal(e->last_gen, 1);
    assert_shape(r.d, "GoStart waits on goroutine sequence seq=behind\n");
    gtr_buf text = {0};
    assert_int_equal(gtr_diagnosis_format(r.d, &text), GTR_OK);
    assert_non_null(strstr(text.data, "M 1's GoStart g=1 g_seq=3 "));
    assert_non_null(strstr(text.data, "waits for goroutine 1 at sequence 2 of generation 1; "
                                      "the goroutine is at sequence 0 (its last event: GoStop "
                                      "on M 0 at time"));
    assert_non_null(strstr(text.data, "The events with sequences 1-2 are missing: was a batch "
                                      "lost?"));
    gtr_buf_free(&text);
    stuck_run_free(&r);
}

/* A GoUnblock of a goroutine that is running: its state, not its sequence. */
static void test_goroutine_state(void **state)
{
    (void)state;
    stuck_run r;
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=9\n"
             "ProcStatus dt=1 p=0 pstatus=1\n"
             "GoStatus dt=1 g=1 m=0 gstatus=2\n"
             "EventBatch gen=1 m=1 time=0 size=9\n"
             "ProcStatus dt=1 p=1 pstatus=1\n"
             "GoUnblock dt=5 g=1 g_seq=1 stack=0\n" TABLES(1),
             &r);
    const gtr_stuck_event *e = only_stuck(&r, 1);
    assert_int_equal(e->type, GTR_EV_GO_UNBLOCK);
    assert_int_equal(e->wait, GTR_WAIT_STATE);
    assert_string_equal(e->need_status, "Waiting");
    assert_string_equal(e->have_status, "Running");
    assert_shape(r.d, "GoUnblock waits on goroutine state need=Waiting have=Running\n");
    stuck_run_free(&r);
}

/* A ProcStart of a proc no status declared, and a goroutine 0 with a sequence number 0:
 * what a slipped reduction looks like. */
static void test_undeclared_and_zero(void **state)
{
    (void)state;
    stuck_run r;
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=4\n"
             "ProcStart dt=1 p=7 p_seq=1\n" TABLES(1),
             &r);
    const gtr_stuck_event *e = only_stuck(&r, 1);
    assert_int_equal(e->wait, GTR_WAIT_UNDECLARED);
    assert_int_equal(e->resource, GTR_RESOURCE_PROC);
    assert_int_equal(e->id, 7);
    assert_false(e->declared);
    assert_null(e->have_status);
    assert_false(e->has_last);
    assert_shape(r.d, "ProcStart waits on proc undeclared\n");
    stuck_run_free(&r);

    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=4\n"
             "ProcStart dt=1 p=7 p_seq=0\n" TABLES(1),
             &r);
    only_stuck(&r, 1);
    assert_shape(r.d, "ProcStart waits on proc undeclared event-seq=0\n");
    stuck_run_free(&r);

    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=13\n"
             "ProcStatus dt=1 p=0 pstatus=1\n"
             "GoStatus dt=1 g=0 m=0 gstatus=1\n"
             "GoStart dt=1 g=0 g_seq=0\n" TABLES(1),
             &r);
    e = only_stuck(&r, 1);
    assert_int_equal(e->wait, GTR_WAIT_SEQUENCE);
    assert_shape(r.d, "GoStart waits on goroutine sequence seq=zero goroutine=0\n");
    stuck_run_free(&r);
}

/* A ProcStart on a thread that still holds a proc. */
static void test_thread_holds_proc(void **state)
{
    (void)state;
    stuck_run r;
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=12\n"
             "ProcStatus dt=1 p=0 pstatus=1\n"
             "ProcStatus dt=1 p=1 pstatus=2\n"
             "ProcStart dt=1 p=1 p_seq=1\n" TABLES(1),
             &r);
    const gtr_stuck_event *e = only_stuck(&r, 1);
    assert_int_equal(e->wait, GTR_WAIT_THREAD_PROC);
    assert_int_equal(e->id, 1);
    assert_int_equal(e->held, 0);
    assert_shape(r.d, "ProcStart waits on proc thread-proc\n");
    stuck_run_free(&r);
}

/* A ProcSteal whose proc is not in a syscall, and a ProcStart of a proc that has passed its
 * sequence number (the same ProcStart written twice). */
static void test_proc_steal_state_and_ahead(void **state)
{
    (void)state;
    stuck_run r;
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=8\n"
             "ProcStatus dt=1 p=0 pstatus=1\n"
             "ProcStatus dt=1 p=1 pstatus=2\n"
             "EventBatch gen=1 m=1 time=0 size=5\n"
             "ProcSteal dt=5 p=1 p_seq=1 m=0\n"
             "EventBatch gen=1 m=2 time=0 size=10\n"
             "ProcStart dt=9 p=1 p_seq=1\n"
             "ProcStop dt=1\n"
             "ProcStart dt=1 p=1 p_seq=1\n" TABLES(1),
             &r);
    assert_int_equal(r.st, GTR_E_ORDER);
    assert_int_equal(r.diag_st, GTR_OK);
    assert_int_equal(gtr_diagnosis_len(r.d), 2);
    const gtr_stuck_event *steal = gtr_diagnosis_event(r.d, 0);
    assert_int_equal(steal->type, GTR_EV_PROC_STEAL);
    assert_int_equal(steal->wait, GTR_WAIT_STATE);
    assert_string_equal(steal->need_status, "Syscall");
    assert_string_equal(steal->have_status, "Idle");
    const gtr_stuck_event *start = gtr_diagnosis_event(r.d, 1);
    assert_int_equal(start->type, GTR_EV_PROC_START);
    assert_int_equal(start->wait, GTR_WAIT_SEQUENCE);
    assert_int_equal(start->seq_need, 0);
    assert_int_equal(start->seq_have, 1);
    assert_null(gtr_diagnosis_event(r.d, 2));
    assert_shape(r.d, "ProcStart waits on proc sequence seq=ahead\n"
                      "ProcSteal waits on proc state need=Syscall have=Idle\n");
    stuck_run_free(&r);
}

/* A GoSyscallEndBlocked whose proc is still in the syscall. */
static void test_proc_release(void **state)
{
    (void)state;
    stuck_run r;
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=15\n"
             "ProcStatus dt=1 p=0 pstatus=1\n"
             "GoStatus dt=1 g=1 m=0 gstatus=2\n"
             "GoSyscallBegin dt=1 p_seq=1 stack=0\n"
             "GoSyscallEndBlocked dt=1\n" TABLES(1),
             &r);
    const gtr_stuck_event *e = only_stuck(&r, 1);
    assert_int_equal(e->type, GTR_EV_GO_SYSCALL_END_BLOCKED);
    assert_int_equal(e->wait, GTR_WAIT_PROC_RELEASE);
    assert_int_equal(e->id, 0);
    assert_string_equal(e->have_status, "Syscall");
    assert_true(e->has_last);
    assert_string_equal(e->last_name, "GoSyscallBegin");
    stuck_run_free(&r);
}

/* A GCEnd for a cycle the GC is not in. */
static void test_gc_sequence(void **state)
{
    (void)state;
    stuck_run r;
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=12\n"
             "ProcStatus dt=1 p=0 pstatus=1\n"
             "GoStatus dt=1 g=1 m=0 gstatus=2\n"
             "GCEnd dt=1 gc_seq=5\n" TABLES(1),
             &r);
    const gtr_stuck_event *e = only_stuck(&r, 1);
    assert_int_equal(e->wait, GTR_WAIT_GC_SEQUENCE);
    assert_int_equal(e->resource, GTR_RESOURCE_NONE);
    assert_int_equal(e->seq_need, 4);
    assert_int_equal(e->seq_have, 0);
    assert_shape(r.d, "GCEnd waits on GC gc-sequence seq=behind\n");
    stuck_run_free(&r);
}

/* A goroutine whose status this generation lacks: its sequence is the last generation's. */
static void test_goroutine_other_generation(void **state)
{
    (void)state;
    stuck_run r;
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=13\n"
             "ProcStatus dt=1 p=0 pstatus=1\n"
             "GoStatus dt=1 g=1 m=0 gstatus=2\n"
             "GoStop dt=1 reason_string=1 stack=0\n" TABLES(1)
             "EventBatch gen=2 m=0 time=5 size=8\n"
             "ProcStatus dt=1 p=0 pstatus=1\n"
             "GoStart dt=1 g=1 g_seq=1\n" TABLES(2),
             &r);
    const gtr_stuck_event *e = only_stuck(&r, 1);
    assert_int_equal(e->wait, GTR_WAIT_SEQUENCE);
    assert_int_equal(e->gen, 2);
    assert_int_equal(e->seq_have_gen, 1);
    assert_shape(r.d, "GoStart waits on goroutine sequence seq=another-generation\n");
    stuck_run_free(&r);
}

/* Bad use: a reader that read to its end, one that failed otherwise, NULL arguments. */
static void test_bad_use(void **state)
{
    (void)state;
    stuck_run r;
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=9\n"
             "ProcStatus dt=1 p=0 pstatus=1\n"
             "GoStatus dt=1 g=1 m=0 gstatus=2\n" TABLES(1),
             &r);
    assert_int_equal(r.st, GTR_EOF);
    assert_int_equal(r.diag_st, GTR_E_USAGE);
    assert_null(r.d);
    stuck_run_free(&r);
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=2\n"
             "ProcStop dt=1\n" TABLES(1),
             &r);
    assert_int_equal(r.st, GTR_E_ORDER);
    assert_int_equal(r.diag_st, GTR_E_USAGE);
    stuck_run_free(&r);

    gtr_err err = GTR_ERR_INIT;
    gtr_diagnosis *d = (gtr_diagnosis *)1;
    assert_int_equal(gtr_reader_diagnose(NULL, NULL, &d, &err), GTR_E_USAGE);
    assert_null(d);
    assert_int_equal(gtr_reader_diagnose(NULL, NULL, NULL, &err), GTR_E_USAGE);
    gtr_err_clear(&err);
    assert_int_equal(gtr_history_note(NULL, NULL, NULL), GTR_E_USAGE);
    assert_int_equal(gtr_history_new(NULL, NULL, NULL), GTR_E_USAGE);
    assert_int_equal(gtr_diagnosis_len(NULL), 0);
    assert_null(gtr_diagnosis_event(NULL, 0));
    assert_int_equal(gtr_diagnosis_format(NULL, NULL), GTR_E_USAGE);
    assert_int_equal(gtr_diagnosis_shape(NULL, NULL), GTR_E_USAGE);
    assert_int_equal(gtr_stuck_event_shape(NULL, NULL), GTR_E_USAGE);
    gtr_diagnosis_free(NULL);
    gtr_history_free(NULL);
}

/* The event a reader error of the ordering refused: named for that error only. */
static void test_failed_event(void **state)
{
    (void)state;
    stuck_run r;
    /* M 2's GoCreate (time 5) comes first: its error, though M 1's GoStop fails alike. */
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=1 time=0 size=4\n"
             "GoStop dt=10 reason_string=0 stack=0\n"
             "EventBatch gen=1 m=2 time=0 size=5\n"
             "GoCreate dt=5 new_g=5 new_stack=0 stack=0\n" TABLES(1),
             &r);
    assert_int_equal(r.st, GTR_E_ORDER);
    assert_string_equal(r.err.msg, "expected a proc but didn't have one");
    assert_string_equal(r.failed_on, "GoCreate");
    assert_int_equal(r.diag_st, GTR_E_USAGE);
    stuck_run_free(&r);
    /* A ProcStop with no proc: the error of the frontier's head, in the ordering's run. */
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=2\n"
             "ProcStop dt=1\n" TABLES(1),
             &r);
    assert_int_equal(r.st, GTR_E_ORDER);
    assert_string_equal(r.failed_on, "ProcStop");
    stuck_run_free(&r);
    /* A failure to advance is no one event's (gtr_reader_diagnose says why). */
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=9\n"
             "ProcStatus dt=1 p=0 pstatus=1\n"
             "GoStatus dt=1 g=1 m=0 gstatus=2\n"
             "EventBatch gen=1 m=1 time=0 size=9\n"
             "ProcStatus dt=1 p=1 pstatus=1\n"
             "GoUnblock dt=5 g=1 g_seq=1 stack=0\n" TABLES(1),
             &r);
    assert_int_equal(r.diag_st, GTR_OK);
    assert_null(r.failed_on);
    stuck_run_free(&r);
    /* A clean trace, a batch error, a header error, no reader. */
    run_text("Trace Go1.22\n"
             "EventBatch gen=1 m=0 time=0 size=9\n"
             "ProcStatus dt=1 p=0 pstatus=1\n"
             "GoStatus dt=1 g=1 m=0 gstatus=2\n" TABLES(1),
             &r);
    assert_int_equal(r.st, GTR_EOF);
    assert_null(r.failed_on);
    stuck_run_free(&r);
    run_wire("go 1.22 trace\0\0\0\x07", 17, &r);
    assert_true(r.st < 0);
    assert_null(r.failed_on);
    stuck_run_free(&r);
    run_wire("not a trace at all", 18, &r);
    assert_true(r.st < 0);
    assert_null(r.failed_on);
    stuck_run_free(&r);
    assert_null(gtr_reader_failed_event(NULL));
}

/* sweep_file drops each event of a fixture's trace in turn; every trace that then fails to
 * advance must have a condition for each of its stuck events. */
static void sweep_file(const char *path, size_t *stuck_traces, size_t *stuck_events)
{
    tgen_fixture *f = NULL;
    gtr_buf text = {0};
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
        gtr_buf_append(&text, chunk, n);
    fclose(fp);
    if (tgen_fixture_parse(path, text.data, text.len, &f, NULL) != GTR_OK) {
        gtr_buf_free(&text);
        return;
    }
    size_t wlen;
    const uint8_t *w = tgen_fixture_trace(f, &wlen);
    tracedit_trace t = {0};
    if (tracedit_decode(&t, w, wlen, NULL) == GTR_OK) {
        for (size_t b = 0; b < t.nbatches; b++) {
            for (size_t e = 0; e < t.batches[b].nev; e++) {
                tracedit_trace c = {0};
                gtr_buf out = {0};
                assert_int_equal(tracedit_copy(&c, &t, NULL), GTR_OK);
                tracedit_batch_remove(&c, b, e);
                assert_int_equal(tracedit_encode(&c, &out, NULL), GTR_OK);
                stuck_run r;
                run_wire(out.data, out.len, &r);
                if (r.diag_st == GTR_OK) {
                    (*stuck_traces)++;
                    for (size_t i = 0; i < gtr_diagnosis_len(r.d); i++) {
                        const gtr_stuck_event *se = gtr_diagnosis_event(r.d, i);
                        if (se->wait == GTR_WAIT_NOTHING)
                            fail_msg("%s without event %zu of batch %zu: stuck event %zu has "
                                     "no condition",
                                     path, e, b, i);
                        (*stuck_events)++;
                    }
                }
                stuck_run_free(&r);
                gtr_buf_free(&out);
                tracedit_trace_free(&c);
            }
        }
    }
    tracedit_trace_free(&t);
    tgen_fixture_free(f);
    gtr_buf_free(&text);
}

static void test_sweep_fixtures(void **state)
{
    (void)state;
    const char *dirs[] = {GTR_SOURCE_DIR "/corpus/upstream", GTR_SOURCE_DIR "/corpus/tests"};
    size_t files = 0, stuck_traces = 0, stuck_events = 0;
    for (size_t i = 0; i < 2; i++) {
        DIR *dir = opendir(dirs[i]);
        assert_non_null(dir);
        struct dirent *de;
        while ((de = readdir(dir)) != NULL) {
            size_t len = strlen(de->d_name);
            if (len < 5 || strcmp(de->d_name + len - 5, ".test") != 0)
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dirs[i], de->d_name);
            sweep_file(path, &stuck_traces, &stuck_events);
            files++;
        }
        closedir(dir);
    }
    printf("# %zu fixtures; %zu traces stuck with an event dropped, %zu stuck events, each "
           "with its condition\n",
           files, stuck_traces, stuck_events);
    assert_true(files > 50);
    assert_true(stuck_traces > 100);
}


/* The reader's state between two events (gtr/snapshot.h): after a generation's first events,
 * each thread's advanced events, what it holds, each goroutine's and proc's status and
 * sequence number. */
static void test_snapshot_between_events(void **state)
{
    (void)state;
    gtr_buf wire = {0};
    const char *text = "Trace Go1.22\n"
                       "EventBatch gen=1 m=0 time=0 size=13\n"
                       "ProcStatus dt=1 p=0 pstatus=1\n"
                       "GoStatus dt=1 g=1 m=0 gstatus=2\n"
                       "GoStop dt=1 reason_string=1 stack=0\n"
                       "EventBatch gen=1 m=1 time=0 size=12\n"
                       "ProcStatus dt=1 p=1 pstatus=1\n"
                       "GoStart dt=5 g=1 g_seq=1\n"
                       "GoStop dt=1 reason_string=1 stack=0\n" TABLES(1);
    assert_int_equal(gtr_raw_text_to_wire(text, strlen(text), &wire, NULL), GTR_OK);
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_snapshot *snap = (gtr_snapshot *)1;
    gtr_event ev;
    assert_int_equal(gtr_input_open_memory_plain(wire.data, wire.len, NULL, &in, NULL), GTR_OK);
    assert_int_equal(gtr_reader_new(in, NULL, &r, NULL), GTR_OK);
    /* Before the first event: no generation yet. */
    assert_int_equal(gtr_reader_snapshot(r, &snap, NULL), GTR_E_USAGE);
    assert_null(snap);
    /* Past the end: no generation. */
    while (gtr_reader_next(r, &ev, NULL) == GTR_OK)
        ;
    assert_int_equal(gtr_reader_snapshot(r, &snap, NULL), GTR_E_USAGE);
    gtr_reader_free(r);
    gtr_input_free(in);

    /* After the Sync and three events, in time order: M 0's ProcStatus and GoStatus, M 1's
     * ProcStatus (and whatever the ordering queued ahead of them). */
    assert_int_equal(gtr_input_open_memory_plain(wire.data, wire.len, NULL, &in, NULL), GTR_OK);
    assert_int_equal(gtr_reader_new(in, NULL, &r, NULL), GTR_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(gtr_reader_next(r, &ev, NULL), GTR_OK);
    assert_int_equal(gtr_reader_snapshot(r, &snap, NULL), GTR_OK);
    assert_int_equal(gtr_snapshot_generation(snap), 1);
    assert_int_equal(gtr_snapshot_nthreads(snap), 2);
    uint64_t advanced = 0;
    for (size_t i = 0; i < 2; i++) {
        const gtr_snapshot_thread *th = gtr_snapshot_thread_at(snap, i);
        advanced += th->advanced;
        assert_true(th->advanced <= 3);
        if (th->advanced == 3)
            assert_int_equal(th->g, GTR_NO_GOROUTINE);   /* M 0 stopped its goroutine */
    }
    assert_true(advanced >= 3);
    assert_null(gtr_snapshot_thread_at(snap, 2));
    assert_int_equal(gtr_snapshot_nprocs(snap), 2);
    assert_int_equal(gtr_snapshot_ngoroutines(snap), 1);
    const gtr_snapshot_resource *g = gtr_snapshot_goroutine_at(snap, 0);
    assert_int_equal(g->id, 1);
    assert_int_equal(g->seq_gen, 1);
    assert_null(gtr_snapshot_goroutine_at(snap, 1));
    assert_null(gtr_snapshot_proc_at(snap, 2));
    assert_false(gtr_snapshot_gc(snap, NULL));
    gtr_snapshot_free(snap);
    gtr_reader_free(r);
    gtr_input_free(in);

    assert_int_equal(gtr_reader_snapshot(NULL, &snap, NULL), GTR_E_USAGE);
    assert_int_equal(gtr_reader_snapshot(NULL, NULL, NULL), GTR_E_USAGE);
    assert_int_equal(gtr_snapshot_nthreads(NULL), 0);
    assert_int_equal(gtr_snapshot_generation(NULL), 0);
    gtr_snapshot_free(NULL);
    gtr_buf_free(&wire);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_goroutine_sequence_behind),
        cmocka_unit_test(test_goroutine_state),
        cmocka_unit_test(test_undeclared_and_zero),
        cmocka_unit_test(test_thread_holds_proc),
        cmocka_unit_test(test_proc_steal_state_and_ahead),
        cmocka_unit_test(test_proc_release),
        cmocka_unit_test(test_gc_sequence),
        cmocka_unit_test(test_goroutine_other_generation),
        cmocka_unit_test(test_bad_use),
        cmocka_unit_test(test_failed_event),
        cmocka_unit_test(test_sweep_fixtures),
        cmocka_unit_test(test_snapshot_between_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
