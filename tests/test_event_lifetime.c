/* SPDX-License-Identifier: BSD-3-Clause */
/* test_event_lifetime.c: the lifetime rule of event.h, checked under ASan with real traces
 * of several generations: strings an event hands out (stack frames, reasons, labels, log
 * messages, task and region types) stay valid and unchanged until gtr_reader_next returns
 * the next Sync event. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "corpus_events.h"
#include "gtr/event.h"
#include "gtr/reader.h"

enum { NSAMPLES = 64, COPY_CAP = 256 };

typedef struct sample {
    gtr_str borrowed;
    char copy[COPY_CAP];
    size_t len;
} sample;

typedef struct samples {
    sample s[NSAMPLES];
    size_t n, next;
    size_t taken, checks;
} samples;

static void take(samples *ss, gtr_str s)
{
    sample *x;
    if (s.len == 0 || s.len > COPY_CAP)
        return;
    x = ss->n < NSAMPLES ? &ss->s[ss->n++] : &ss->s[ss->next++ % NSAMPLES];
    x->borrowed = s;
    x->len = s.len;
    memcpy(x->copy, s.data, s.len);
    ss->taken++;
}

static void check_all(samples *ss)
{
    for (size_t i = 0; i < ss->n; i++) {
        assert_int_equal(ss->s[i].borrowed.len, ss->s[i].len);
        assert_memory_equal(ss->s[i].borrowed.data, ss->s[i].copy, ss->s[i].len);
        ss->checks++;
    }
}

static void take_event(samples *ss, const gtr_event *ev)
{
    gtr_stack stk = gtr_event_stack(ev);
    gtr_frame f;
    gtr_state_transition tr;
    gtr_label l;
    gtr_log lg;
    gtr_task t;
    gtr_region r;

    if (gtr_stack_len(stk) > 0 && gtr_stack_frame(stk, 0, &f, NULL) == GTR_OK) {
        take(ss, f.func);
        take(ss, f.file);
    }
    switch (gtr_event_get_kind(ev)) {
    case GTR_EVENT_STATE_TRANSITION:
        if (gtr_event_state_transition(ev, &tr, NULL) == GTR_OK) {
            take(ss, tr.reason);
            if (gtr_stack_len(tr.stack) > 0 &&
                gtr_stack_frame(tr.stack, gtr_stack_len(tr.stack) - 1, &f, NULL) == GTR_OK)
                take(ss, f.func);
        }
        break;
    case GTR_EVENT_LABEL:
        if (gtr_event_label(ev, &l, NULL) == GTR_OK)
            take(ss, l.label);
        break;
    case GTR_EVENT_LOG:
        if (gtr_event_log(ev, &lg, NULL) == GTR_OK) {
            take(ss, lg.category);
            take(ss, lg.message);
        }
        break;
    case GTR_EVENT_TASK_BEGIN:
    case GTR_EVENT_TASK_END:
        if (gtr_event_task(ev, &t, NULL) == GTR_OK)
            take(ss, t.type);
        break;
    case GTR_EVENT_REGION_BEGIN:
    case GTR_EVENT_REGION_END:
        if (gtr_event_region(ev, &r, NULL) == GTR_OK)
            take(ss, r.type);
        break;
    default:
        break;
    }
}

/* The walk of one trace: after every event, every string borrowed since the last Sync must
 * still read back unchanged. */
typedef struct walk {
    samples *ss;
    size_t syncs;
} walk;

static void check_event(const gtr_event *ev, void *ctx)
{
    walk *w = ctx;
    if (gtr_event_get_kind(ev) == GTR_EVENT_SYNC) {
        w->syncs++;
        w->ss->n = w->ss->next = 0; /* the previous generation's data may go now */
        return;
    }
    check_all(w->ss);
    take_event(w->ss, ev);
}

/* read_checking walks the whole trace; returns the number of Syncs seen. */
static size_t read_checking(const char *name, samples *ss)
{
    walk w = {ss, 0};
    corpus_each_event("real", name, check_event, &w);
    return w.syncs;
}

static void test_event_lifetime_strings_valid_until_next_sync(void **state)
{
    samples ss;
    (void)state;
    memset(&ss, 0, sizeof ss);
    assert_true(read_checking("testprog-cgo-callback.stress.trace.gz", &ss) >= 3);
    assert_true(read_checking("testprog-iter-pull.stress.trace.gz", &ss) >= 3);
    assert_true(read_checking("testprog-annotations.trace.gz", &ss) >= 2);
    print_message("%zu strings borrowed, %zu checks\n", ss.taken, ss.checks);
    assert_true(ss.taken > 1000);
    assert_true(ss.checks > 100000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_lifetime_strings_valid_until_next_sync),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
