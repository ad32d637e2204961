/* SPDX-License-Identifier: BSD-3-Clause */
/* diagnosis.c: why a reader failed to advance (gtr/diagnosis.h), beyond Go.
 *
 * Each stuck event is explained by the condition its advance function in order.c tested
 * first and found false (Go's advanceProcStart, advanceGoStart, ... return false with no
 * error only on these): the ordering's state is read, never changed. The history keeps the
 * last event of each goroutine and proc over the current and the previous generation, so
 * that its memory is bounded by two generations, as the reader's is by one. */
#include "gtr/diagnosis.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "idmap.h"
#include "mem.h"
#include "order.h"
#include "reader_priv.h"

const char *gtr_wait_string(gtr_wait w)
{
    switch (w) {
    case GTR_WAIT_NOTHING: return "nothing";
    case GTR_WAIT_UNDECLARED: return "undeclared";
    case GTR_WAIT_STATE: return "state";
    case GTR_WAIT_SEQUENCE: return "sequence";
    case GTR_WAIT_THREAD_PROC: return "thread-proc";
    case GTR_WAIT_PROC_RELEASE: return "proc-release";
    case GTR_WAIT_GC_SEQUENCE: return "gc-sequence";
    }
    return "bad";
}

/* ------------------------------------------------------------------------------------------ */
/* The history. */

typedef struct last_event {
    uint8_t type;
    gtr_threadid m;
    gtr_time time;
} last_event;

/* One generation's last events: goroutine and proc IDs to an index into events. */
typedef struct history_gen {
    uint64_t gen;
    gtr__idmap g, p;
    last_event *events;
    size_t n, cap;
} history_gen;

struct gtr_history {
    const gtr_alloc *alc;
    history_gen cur, prev;
};

gtr_status gtr_history_new(const gtr_alloc *alc, gtr_history **out, gtr_err *err)
{
    if (out == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_history_new: NULL argument");
    alc = gtr__alloc_or_libc(alc);
    gtr_history *h = gtr__calloc(alc, 1, sizeof *h);
    if (h == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    h->alc = alc;
    *out = h;
    return GTR_OK;
}

static void history_gen_free(const gtr_alloc *alc, history_gen *hg)
{
    gtr__idmap_free(&hg->g, alc);
    gtr__idmap_free(&hg->p, alc);
    gtr__free(alc, hg->events);
    memset(hg, 0, sizeof *hg);
}

void gtr_history_free(gtr_history *h)
{
    if (h == NULL)
        return;
    history_gen_free(h->alc, &h->cur);
    history_gen_free(h->alc, &h->prev);
    gtr__free(h->alc, h);
}

/* remember makes e the last event of key in map. */
static gtr_status remember(gtr_history *h, gtr__idmap *map, uint64_t key, last_event e)
{
    history_gen *hg = &h->cur;
    if (hg->n >= UINT32_MAX - 1 || !GTR__GROW(h->alc, hg->events, hg->cap, hg->n + 1))
        return GTR_E_NOMEM;
    size_t idx;
    bool found;
    if (gtr__idmap_put_index(map, h->alc, key, hg->n, &idx, &found) != GTR_OK)
        return GTR_E_NOMEM;
    if (!found)
        hg->n++;
    hg->events[idx] = e;
    return GTR_OK;
}

gtr_status gtr_history_note(gtr_history *h, const gtr_reader *r, const gtr_event *ev)
{
    if (h == NULL || r == NULL || ev == NULL)
        return GTR_E_USAGE;
    uint64_t gen = gtr__reader_generation(r);
    if (gen != h->cur.gen) {
        /* A new generation: the one before it stays, the older one goes. */
        history_gen_free(h->alc, &h->prev);
        h->prev = h->cur;
        memset(&h->cur, 0, sizeof h->cur);
        h->cur.gen = gen;
    }
    last_event e = {ev->type_, ev->m_, ev->time_};
    gtr_status st = GTR_OK;
    if (gtr_event_get_kind(ev) == GTR_EVENT_STATE_TRANSITION) {
        gtr_state_transition t;
        if (gtr_event_state_transition(ev, &t, NULL) == GTR_OK) {
            if (t.resource.kind == GTR_RESOURCE_GOROUTINE)
                st = remember(h, &h->cur.g, (uint64_t)t.resource.id, e);
            else if (t.resource.kind == GTR_RESOURCE_PROC)
                st = remember(h, &h->cur.p, (uint64_t)t.resource.id, e);
        }
    }
    /* A syscall's begin and end change their proc's status (and the begin its sequence
     * number) though their transition is the goroutine's. */
    if (st == GTR_OK && ev->p_ != GTR_NO_PROC &&
        (ev->type_ == GTR_EV_GO_SYSCALL_BEGIN || ev->type_ == GTR_EV_GO_SYSCALL_END ||
         ev->type_ == GTR_EV_GO_SYSCALL_END_BLOCKED))
        st = remember(h, &h->cur.p, (uint64_t)ev->p_, e);
    return st;
}

/* history_last fills e's last event of its resource from h, when h saw one. */
static void history_last(const gtr_history *h, gtr_stuck_event *e)
{
    if (h == NULL || (e->resource != GTR_RESOURCE_GOROUTINE && e->resource != GTR_RESOURCE_PROC))
        return;
    const history_gen *gens[2] = {&h->cur, &h->prev};
    for (size_t i = 0; i < 2; i++) {
        const gtr__idmap *map = e->resource == GTR_RESOURCE_GOROUTINE ? &gens[i]->g : &gens[i]->p;
        size_t idx;
        if (gens[i]->n > 0 && gtr__idmap_get_index(map, (uint64_t)e->id, &idx)) {
            const last_event *le = &gens[i]->events[idx];
            e->has_last = true;
            e->last_name = gtr_spec(le->type)->name;
            e->last_m = le->m;
            e->last_time = le->time;
            e->last_gen = gens[i]->gen;
            return;
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The conditions. */

struct gtr_diagnosis {
    const gtr_alloc *alc;
    uint64_t gen;
    gtr_stuck_event *events;
    size_t n;
};

/* wait_on_state sets e's resource state from s (declared or not) and finds the first failing
 * condition of Go's test "!ok || status != want || !seq.succeeds(state.seq)": want_ok tells
 * whether the status is one the event accepts. */
static void wait_on_state(gtr_stuck_event *e, bool declared, const gtr__resource_state *s,
                          bool want_ok, const char *have_status)
{
    e->declared = declared;
    if (!declared) {
        e->wait = GTR_WAIT_UNDECLARED;
        return;
    }
    e->have_status = have_status;
    e->seq_have_gen = s->seq_gen;
    e->seq_have = s->seq;
    if (!want_ok)
        e->wait = GTR_WAIT_STATE;
    else if (e->has_seq && (s->seq_gen != e->gen || e->seq_need != s->seq))
        e->wait = GTR_WAIT_SEQUENCE;
    else
        e->wait = GTR_WAIT_NOTHING;
}

/* needs_seq sets the event's sequence number: args[seq_arg] in generation gen. */
static void needs_seq(gtr_stuck_event *e, size_t seq_arg, uint64_t gen)
{
    e->has_seq = true;
    e->gen = gen;
    e->seq_need = e->args[seq_arg] - 1;   /* wraps for 0: no state can have it */
}

static void explain(const gtr__stuck_view *v, const gtr__batch_cursor *bc, gtr_stuck_event *e)
{
    const gtr__ordering *o = v->order;
    gtr__resource_state s = {0};
    gtr_goid cur_g;
    gtr_procid cur_p;
    memset(e, 0, sizeof *e);
    e->m = bc->m;
    e->type = bc->ev.type;
    e->time = bc->ev.time;
    memcpy(e->args, bc->ev.args, sizeof e->args);
    e->held = GTR_NO_PROC;
    gtr__ordering_thread(o, bc->m, &cur_g, &cur_p);
    switch (e->type) {
    case GTR_EV_PROC_START: {
        /* advanceProcStart: the proc is Idle, the sequence numbers line up, and the thread
         * holds no proc. */
        e->resource = GTR_RESOURCE_PROC;
        e->id = (int64_t)e->args[0];
        e->need_status = gtr__proc_status_string(GTR_PSTATUS_IDLE);
        needs_seq(e, 1, v->gen);
        bool declared = gtr__ordering_resource(o, true, e->id, &s);
        wait_on_state(e, declared, &s, s.status == GTR_PSTATUS_IDLE,
                      gtr__proc_status_string(s.status));
        if (e->wait == GTR_WAIT_NOTHING && cur_p != GTR_NO_PROC) {
            e->wait = GTR_WAIT_THREAD_PROC;
            e->held = cur_p;
        }
        break;
    }
    case GTR_EV_PROC_STEAL: {
        /* advanceProcSteal: the proc is in a syscall (or abandoned there), the sequence
         * numbers line up. */
        e->resource = GTR_RESOURCE_PROC;
        e->id = (int64_t)e->args[0];
        e->need_status = gtr__proc_status_string(GTR_PSTATUS_SYSCALL);
        needs_seq(e, 1, v->gen);
        bool declared = gtr__ordering_resource(o, true, e->id, &s);
        wait_on_state(e, declared, &s,
                      s.status == GTR_PSTATUS_SYSCALL ||
                          s.status == GTR_PSTATUS_SYSCALL_ABANDONED,
                      gtr__proc_status_string(s.status));
        break;
    }
    case GTR_EV_GO_START:
    case GTR_EV_GO_UNBLOCK:
    case GTR_EV_GO_SWITCH:
    case GTR_EV_GO_SWITCH_DESTROY: {
        /* advanceGoStart: the goroutine is Runnable; advanceGoUnblock and advanceGoSwitch
         * (for the next goroutine): it is Waiting; and the sequence numbers line up. */
        uint8_t want = e->type == GTR_EV_GO_START ? GTR_GSTATUS_RUNNABLE : GTR_GSTATUS_WAITING;
        e->resource = GTR_RESOURCE_GOROUTINE;
        e->id = (int64_t)e->args[0];
        e->need_status = gtr__go_status_string(want);
        needs_seq(e, 1, v->gen);
        bool declared = gtr__ordering_resource(o, false, e->id, &s);
        wait_on_state(e, declared, &s, s.status == want, gtr__go_status_string(s.status));
        break;
    }
    case GTR_EV_GO_SYSCALL_END_BLOCKED:
        /* advanceGoSyscallEndBlocked: while the thread holds a proc still in a syscall, it
         * will lose it; it waits for the ProcSteal or ProcStop. */
        if (cur_p != GTR_NO_PROC && gtr__ordering_resource(o, true, cur_p, &s) &&
            s.status == GTR_PSTATUS_SYSCALL) {
            e->wait = GTR_WAIT_PROC_RELEASE;
            e->resource = GTR_RESOURCE_PROC;
            e->id = cur_p;
            e->declared = true;
            e->have_status = gtr__proc_status_string(s.status);
            e->seq_have_gen = s.seq_gen;
            e->seq_have = s.seq;
        }
        break;
    case GTR_EV_GC_ACTIVE:
    case GTR_EV_GC_BEGIN:
    case GTR_EV_GC_END: {
        /* advanceGCActive, advanceGCBegin, advanceGCEnd: the GC's sequence number is the
         * one before the event's (in the first generation a GCActive or GCBegin sets it). */
        gtr__ordering_summary sum = gtr__ordering_summary_of(o);
        uint64_t gc = sum.gc_seq;
        bool first = v->gen == sum.initial_gen && e->type != GTR_EV_GC_END;
        if (!first && e->args[0] != gc + 1) {
            e->wait = GTR_WAIT_GC_SEQUENCE;
            e->has_seq = true;
            e->declared = true;
            e->seq_need = e->args[0] - 1;
            e->seq_have = gc;
        }
        break;
    }
    default:
        break;
    }
}

const char *gtr_reader_failed_event(const gtr_reader *r)
{
    const gtr__ordering *o = r != NULL ? gtr__reader_ordering(r) : NULL;
    uint8_t type = o != NULL ? gtr__ordering_summary_of(o).failed_type : 0;
    return type != 0 ? gtr_spec(type)->name : NULL;   /* NULL too for a type with no row */
}

gtr_status gtr_reader_diagnose(const gtr_reader *r, const gtr_history *h, gtr_diagnosis **out,
                               gtr_err *err)
{
    gtr__stuck_view v;
    if (out == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_reader_diagnose: NULL argument");
    *out = NULL;
    if (r == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_reader_diagnose: NULL argument");
    if (!gtr__reader_stuck(r, &v))
        return gtr_err_setf(err, GTR_E_USAGE, "the reader did not fail to advance");
    const gtr_alloc *alc = gtr__alloc_or_libc(NULL);
    gtr_diagnosis *d = gtr__calloc(alc, 1, sizeof *d);
    if (d == NULL || (v.n > 0 && (d->events = gtr__calloc(alc, v.n, sizeof *d->events)) == NULL)) {
        gtr__free(alc, d);
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    }
    d->alc = alc;
    d->gen = v.gen;
    d->n = v.n;
    for (size_t i = 0; i < v.n; i++) {
        explain(&v, v.frontier[i].bc, &d->events[i]);
        history_last(h, &d->events[i]);
    }
    *out = d;
    return GTR_OK;
}

size_t gtr_diagnosis_len(const gtr_diagnosis *d)
{
    return d != NULL ? d->n : 0;
}

const gtr_stuck_event *gtr_diagnosis_event(const gtr_diagnosis *d, size_t i)
{
    return d != NULL && i < d->n ? &d->events[i] : NULL;
}

uint64_t gtr_diagnosis_generation(const gtr_diagnosis *d)
{
    return d != NULL ? d->gen : 0;
}

void gtr_diagnosis_free(gtr_diagnosis *d)
{
    if (d == NULL)
        return;
    gtr__free(d->alc, d->events);
    gtr__free(d->alc, d);
}

/* ------------------------------------------------------------------------------------------ */
/* Words and shapes. */

static const char *resource_word(gtr_resource_kind k)
{
    switch (k) {
    case GTR_RESOURCE_GOROUTINE: return "goroutine";
    case GTR_RESOURCE_PROC: return "proc";
    case GTR_RESOURCE_THREAD: return "thread";
    default: return "GC";
    }
}

/* The event as Go's frontier dump names it: "GoStart g=3444 g_seq=51723". */
static void put_event(gtr_buf *out, const gtr_stuck_event *e)
{
    const gtr_event_spec *spec = gtr_spec(e->type);
    gtr_buf_puts(out, spec->name != NULL ? spec->name : "?");
    for (size_t a = 1; a < spec->nargs && a < GTR_MAX_TIMED_EVENT_ARGS; a++)
        gtr_buf_printf(out, " %s=%" PRIu64, spec->args[a], e->args[a - 1]);
}

static void put_last(gtr_buf *out, const gtr_stuck_event *e)
{
    if (!e->has_last)
        return;
    gtr_buf_printf(out, " (its last event: %s on M %" PRId64 " at time %" PRId64
                        ", generation %" PRIu64 ")",
                   e->last_name != NULL ? e->last_name : "?", e->last_m, e->last_time,
                   e->last_gen);
}

/* seq_relation: how the resource's sequence number stands to the one the event needs. */
static const char *seq_relation(const gtr_stuck_event *e)
{
    if (e->args[1] == 0 && e->wait == GTR_WAIT_SEQUENCE)
        return "zero";
    if (e->wait == GTR_WAIT_SEQUENCE && e->seq_have_gen != e->gen)
        return "another-generation";
    return e->seq_have < e->seq_need ? "behind" : "ahead";
}

static void format_one(gtr_buf *out, const gtr_stuck_event *e)
{
    const char *rw = resource_word(e->resource);
    gtr_buf_printf(out, "M %" PRId64 "'s ", e->m);
    put_event(out, e);
    gtr_buf_printf(out, " (time %" PRId64 ") ", e->time);
    switch (e->wait) {
    case GTR_WAIT_NOTHING:
        gtr_buf_puts(out, "waits on no condition the diagnosis knows: it could advance now.");
        break;
    case GTR_WAIT_UNDECLARED:
        gtr_buf_printf(out,
                       "waits for %s %" PRId64 ", which the trace has not declared: no %s "
                       "event has given its status%s. Was the batch declaring it lost, or is "
                       "the ID wrong?",
                       rw, e->id, e->resource == GTR_RESOURCE_PROC ? "ProcStatus" : "GoStatus",
                       e->resource == GTR_RESOURCE_PROC ? "" : " and no GoCreate has made it");
        break;
    case GTR_WAIT_STATE:
        gtr_buf_printf(out, "waits for %s %" PRId64 " to be %s; it is %s", rw, e->id,
                       e->need_status, e->have_status);
        put_last(out, e);
        gtr_buf_printf(out, ". Another thread's event must make it %s first: is that event "
                            "missing, or is this one out of place?",
                       e->need_status);
        break;
    case GTR_WAIT_SEQUENCE: {
        const char *rel = seq_relation(e);
        if (strcmp(rel, "zero") == 0) {
            gtr_buf_printf(out,
                           "waits for %s %" PRId64 " at sequence -1: its sequence number is "
                           "0, which can follow no other (they start at 1). Is the event "
                           "corrupt?",
                           rw, e->id);
            break;
        }
        gtr_buf_printf(out, "waits for %s %" PRId64 " at sequence %" PRIu64
                            " of generation %" PRIu64 "; the %s is at sequence %" PRIu64,
                       rw, e->id, e->seq_need, e->gen, rw, e->seq_have);
        if (strcmp(rel, "another-generation") == 0)
            gtr_buf_printf(out, " of generation %" PRIu64, e->seq_have_gen);
        put_last(out, e);
        if (strcmp(rel, "another-generation") == 0)
            gtr_buf_printf(out, ". No status event has declared it in generation %" PRIu64
                                ": was the batch holding it lost?",
                           e->gen);
        else if (strcmp(rel, "behind") == 0 && e->seq_need == e->seq_have + 1)
            gtr_buf_printf(out, ". The event with sequence %" PRIu64
                                " is missing: was a batch lost?",
                           e->seq_need);
        else if (strcmp(rel, "behind") == 0)
            gtr_buf_printf(out, ". The events with sequences %" PRIu64 "-%" PRIu64
                                " are missing: was a batch lost?",
                           e->seq_have + 1, e->seq_need);
        else
            gtr_buf_printf(out, ". It has passed this event's sequence already: was a batch "
                                "written twice, or are two batches out of order?");
        break;
    }
    case GTR_WAIT_THREAD_PROC:
        gtr_buf_printf(out, "waits for its thread to let go of proc %" PRId64
                            " (a thread starts a proc only when it holds none); proc %" PRId64
                            " is ready to start. Is the ProcStop or ProcSteal of proc %" PRId64
                            " missing?",
                       e->held, e->id, e->held);
        break;
    case GTR_WAIT_PROC_RELEASE:
        gtr_buf_printf(out, "waits for proc %" PRId64 ", which its thread holds in a syscall, "
                            "to be stolen or stopped",
                       e->id);
        put_last(out, e);
        gtr_buf_printf(out, ". Is the ProcSteal of proc %" PRId64 " missing?", e->id);
        break;
    case GTR_WAIT_GC_SEQUENCE:
        gtr_buf_printf(out, "waits for GC cycle %" PRIu64 "; the GC is at cycle %" PRIu64 ".%s",
                       e->seq_need, e->seq_have,
                       e->seq_have < e->seq_need ? " Are the GC events between missing?"
                                                 : " Was a GC event written twice?");
        break;
    }
}

gtr_status gtr_diagnosis_format(const gtr_diagnosis *d, gtr_buf *out)
{
    if (d == NULL || out == NULL)
        return GTR_E_USAGE;
    gtr_buf_printf(out, "why the trace is stuck in generation %" PRIu64 ": %zu thread%s, none "
                        "of whose next events can happen yet:\n",
                   d->gen, d->n, d->n == 1 ? "" : "s");
    for (size_t i = 0; i < d->n; i++) {
        gtr_buf_puts(out, "  ");
        format_one(out, &d->events[i]);
        gtr_buf_putc(out, '\n');
    }
    return gtr_buf_status(out);
}

gtr_status gtr_stuck_event_shape(const gtr_stuck_event *e, gtr_buf *out)
{
    if (e == NULL || out == NULL)
        return GTR_E_USAGE;
    const char *name = gtr_spec(e->type)->name;
    gtr_buf_printf(out, "%s waits on %s %s", name != NULL ? name : "?",
                   resource_word(e->resource), gtr_wait_string(e->wait));
    if (e->need_status != NULL && e->wait == GTR_WAIT_STATE)
        gtr_buf_printf(out, " need=%s have=%s", e->need_status, e->have_status);
    if (e->wait == GTR_WAIT_SEQUENCE || e->wait == GTR_WAIT_GC_SEQUENCE)
        gtr_buf_printf(out, " seq=%s",
                       e->wait == GTR_WAIT_GC_SEQUENCE
                           ? (e->seq_have < e->seq_need ? "behind" : "ahead")
                           : seq_relation(e));
    if (e->resource == GTR_RESOURCE_GOROUTINE && e->id == 0)
        gtr_buf_puts(out, " goroutine=0");
    if (e->has_seq && e->wait != GTR_WAIT_SEQUENCE && e->wait != GTR_WAIT_GC_SEQUENCE &&
        e->args[1] == 0)
        gtr_buf_puts(out, " event-seq=0");
    return gtr_buf_status(out);
}

static int compare_lines(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

gtr_status gtr_diagnosis_shape(const gtr_diagnosis *d, gtr_buf *out)
{
    if (d == NULL || out == NULL)
        return GTR_E_USAGE;
    gtr_buf all;
    gtr_buf_init(&all, d->alc);
    size_t *starts = gtr__calloc(d->alc, d->n + 1, sizeof *starts);
    const char **lines = gtr__calloc(d->alc, d->n + 1, sizeof *lines);
    gtr_status st = GTR_E_NOMEM;
    if (starts == NULL || lines == NULL)
        goto out;
    for (size_t i = 0; i < d->n; i++) {
        starts[i] = all.len;
        gtr_stuck_event_shape(&d->events[i], &all);
        gtr_buf_putc(&all, '\0');
    }
    if (gtr_buf_status(&all) != GTR_OK)
        goto out;
    for (size_t i = 0; i < d->n; i++)
        lines[i] = all.data + starts[i];
    qsort(lines, d->n, sizeof *lines, compare_lines);
    for (size_t i = 0; i < d->n; i++) {
        if (i > 0 && strcmp(lines[i], lines[i - 1]) == 0)
            continue;
        gtr_buf_puts(out, lines[i]);
        gtr_buf_putc(out, '\n');
    }
    st = gtr_buf_status(out);
out:
    gtr__free(d->alc, starts);
    gtr__free(d->alc, lines);
    gtr_buf_free(&all);
    return st;
}
