/* SPDX-License-Identifier: BSD-3-Clause */
/* state_cut.c: cut the failing generation at a point before the failure (engine.h).
 *
 * A reader error deep inside a large generation needs the state the events before it
 * leave, not the events themselves. The runtime restates that state at the start of every
 * generation with status events; this pass does the same at a point inside one: it reads the
 * current trace here (it has been judged in a child, so reading it is safe) up to its k-th
 * event, takes the reader's snapshot (gtr/snapshot.h), and builds the trace whose generation
 * starts there: each thread's advanced events dropped (their time kept by the first event
 * left), the goroutines, procs and GC phase restated by GoStatus, ProcStatus and GCActive
 * events, the sequence numbers after the cut renumbered from those the snapshot holds. The
 * generations before it go: the cut one becomes the first the reader sees, where any
 * goroutine may be declared. The latest k that still fails the same way is bisected for.
 *
 * The special ranges in flight are restated by their "Active" events (GCSweepActive,
 * GCMarkAssistActive). What nothing restates (active regions and tasks, a stop-the-world in
 * progress) is lost: a failure that needs it shows another failure at such a cut, and the
 * bisection settles on a k before the region or range began. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "gtr/input.h"
#include "gtr/reader.h"
#include "gtr/snapshot.h"

#define NO_THREAD UINT64_MAX

/* arg_of: the index of event type typ's argument called name, or -1. */
static int arg_of(uint8_t typ, const char *name)
{
    const gtr_event_spec *spec = gtr_spec(typ);
    for (int i = 0; i < spec->nargs; i++)
        if (spec->args[i] != NULL && strcmp(spec->args[i], name) == 0)
            return i;
    return -1;
}

static int compare_ids(const void *a, const void *b)
{
    int64_t x = ((const gtr_snapshot_resource *)a)->id, y = ((const gtr_snapshot_resource *)b)->id;
    return (x > y) - (x < y);
}

/* A snapshot's goroutines or procs, sorted by ID, for the renumbering. */
typedef struct resources {
    gtr_snapshot_resource *v;
    size_t n;
} resources;

static bool sorted(const gtr_snapshot *s, bool procs, resources *out)
{
    out->n = procs ? gtr_snapshot_nprocs(s) : gtr_snapshot_ngoroutines(s);
    out->v = malloc((out->n + 1) * sizeof *out->v);
    if (out->v == NULL)
        return false;
    for (size_t i = 0; i < out->n; i++)
        out->v[i] = *(procs ? gtr_snapshot_proc_at(s, i) : gtr_snapshot_goroutine_at(s, i));
    qsort(out->v, out->n, sizeof *out->v, compare_ids);
    return true;
}

/* base: the sequence number the resource id had at the cut in generation gen (0 when it had
 * none there: its status restarts it at 0 as well). */
static uint64_t base(const resources *rs, int64_t id, uint64_t gen)
{
    gtr_snapshot_resource key = {.id = id};
    const gtr_snapshot_resource *r = bsearch(&key, rs->v, rs->n, sizeof key, compare_ids);
    return r != NULL && r->seq_gen == gen ? r->seq : 0;
}

/* renumber moves event e's sequence argument called seq_name down by the base of the
 * resource it names (or, with id_name NULL, of id), when it is above it. */
static void renumber(tracedit_trace *t, const tracedit_event *e, const char *seq_name,
                     const char *id_name, int64_t id, const resources *rs, uint64_t gen)
{
    int sa = arg_of(e->type, seq_name);
    if (sa < 0 || (uint32_t)sa >= e->nargs)
        return;
    if (id_name != NULL) {
        int ia = arg_of(e->type, id_name);
        if (ia < 0 || (uint32_t)ia >= e->nargs)
            return;
        id = (int64_t)t->vals[e->args + ia];
    }
    uint64_t b = base(rs, id, gen), *v = &t->vals[e->args + sa];
    if (*v > b)
        *v -= b;
}

static bool add_event(tracedit_trace *t, size_t b, size_t pos, uint8_t typ, const uint64_t *args,
                      uint32_t nargs)
{
    uint32_t idx;
    return tracedit_add_event(t, typ, args, nargs, false, NULL, 0, &idx) == GTR_OK &&
           tracedit_batch_insert(t, b, pos, idx) == GTR_OK;
}

/* active_type: the "Active" event that restates a range begun by event type begin at a
 * generation's start (GCSweepActive, GCMarkAssistActive), or GTR_EV_NONE (STWBegin has
 * none). */
static uint8_t active_type(uint8_t begin)
{
    for (unsigned t = 1; t < 256; t++) {
        const gtr_event_spec *spec = gtr_spec((uint8_t)t);
        size_t n = spec->name != NULL ? strlen(spec->name) : 0;
        if (spec->start_ev == begin && n > 6 && strcmp(spec->name + n - 6, "Active") == 0)
            return (uint8_t)t;
    }
    return GTR_EV_NONE;
}

/* restate inserts at position *pos of batch b the status event of resource r (a proc when
 * procs) and then the "Active" events of its ranges in flight; for a goroutine in a syscall,
 * m is its thread. */
static bool restate(tracedit_trace *t, size_t b, size_t *pos, const gtr_snapshot_resource *r,
                    bool procs, uint64_t m)
{
    uint64_t gs[4] = {0, (uint64_t)r->id, r->status == GTR_GSTATUS_SYSCALL ? m : NO_THREAD,
                      r->status};
    uint64_t ps[3] = {0, (uint64_t)r->id, r->status};
    if (!(procs ? add_event(t, b, (*pos)++, GTR_EV_PROC_STATUS, ps, 3)
                : add_event(t, b, (*pos)++, GTR_EV_GO_STATUS, gs, 4)))
        return false;
    for (uint8_t i = 0; i < r->nranges; i++) {
        uint8_t at = active_type(r->ranges[i]);
        uint64_t a[2] = {0, (uint64_t)r->id};
        if (at != GTR_EV_NONE && !add_event(t, b, (*pos)++, at, a, 2))
            return false;
    }
    return true;
}

/* thread_batches cuts thread m's batches of generation gen after its first `advanced`
 * events, restates what it holds at their start, and renumbers what follows. The index of
 * its first batch, or SIZE_MAX when it has none. */
static bool cut_thread(tracedit_trace *t, uint64_t gen, const gtr_snapshot_thread *th,
                       const resources *gs, const resources *ps)
{
    size_t first = SIZE_MAX;
    uint64_t left = th->advanced;
    gtr_procid p_cur = th->p;
    for (size_t b = 0; b < t->nbatches; b++) {
        tracedit_batch *x = &t->batches[b];
        if (x->kind != GTR_EV_EVENT_BATCH || x->gen != gen || x->m != (uint64_t)th->m)
            continue;
        if (first == SIZE_MAX)
            first = b;
        /* Drop the advanced events, their time carried by the first event left. */
        uint64_t dts = 0;
        size_t drop = left < x->nev ? (size_t)left : x->nev;
        for (size_t i = 0; i < drop; i++) {
            const tracedit_event *e = &t->events[x->evs[i]];
            if (gtr_spec(e->type)->is_timed && e->nargs > 0)
                dts += t->vals[e->args];
        }
        memmove(x->evs, x->evs + drop, (x->nev - drop) * sizeof *x->evs);
        x->nev -= drop;
        left -= drop;
        if (x->nev > 0 && dts > 0) {
            const tracedit_event *e = &t->events[x->evs[0]];
            if (gtr_spec(e->type)->is_timed && e->nargs > 0)
                t->vals[e->args] += dts;
        }
        /* Renumber the sequence numbers left. */
        for (size_t i = 0; i < x->nev; i++) {
            const tracedit_event *e = &t->events[x->evs[i]];
            switch (e->type) {
            case GTR_EV_GO_START:
            case GTR_EV_GO_UNBLOCK:
            case GTR_EV_GO_SWITCH:
            case GTR_EV_GO_SWITCH_DESTROY:
                renumber(t, e, "g_seq", "g", 0, gs, gen);
                break;
            case GTR_EV_PROC_START:
                renumber(t, e, "p_seq", "p", 0, ps, gen);
                p_cur = (gtr_procid)t->vals[e->args + arg_of(e->type, "p")];
                break;
            case GTR_EV_PROC_STEAL: {
                renumber(t, e, "p_seq", "p", 0, ps, gen);
                int ma = arg_of(e->type, "m");
                if (ma >= 0 && (uint32_t)ma < e->nargs && t->vals[e->args + ma] == (uint64_t)th->m)
                    p_cur = GTR_NO_PROC;
                break;
            }
            case GTR_EV_PROC_STOP:
                p_cur = GTR_NO_PROC;
                break;
            case GTR_EV_GO_SYSCALL_BEGIN:
                if (p_cur != GTR_NO_PROC)
                    renumber(t, e, "p_seq", NULL, p_cur, ps, gen);
                break;
            default:
                break;
            }
        }
    }
    if (first == SIZE_MAX)
        return true;
    /* Restate what the thread holds, at the start of its first batch: its proc, then its
     * goroutine. */
    size_t pos = 0;
    gtr_snapshot_resource key = {.id = th->p};
    const gtr_snapshot_resource *p =
        th->p != GTR_NO_PROC ? bsearch(&key, ps->v, ps->n, sizeof key, compare_ids) : NULL;
    if (p != NULL && !restate(t, first, &pos, p, true, (uint64_t)th->m))
        return false;
    key.id = th->g;
    const gtr_snapshot_resource *g =
        th->g != GTR_NO_GOROUTINE ? bsearch(&key, gs->v, gs->n, sizeof key, compare_ids) : NULL;
    if (g != NULL && !restate(t, first, &pos, g, false, (uint64_t)th->m))
        return false;
    return true;
}

/* held: whether some thread of s holds goroutine (procs false) or proc id. */
static bool held(const gtr_snapshot *s, int64_t id, bool procs)
{
    for (size_t i = 0; i < gtr_snapshot_nthreads(s); i++) {
        const gtr_snapshot_thread *th = gtr_snapshot_thread_at(s, i);
        if ((procs ? th->p : th->g) == id)
            return true;
    }
    return false;
}

/* build_cut makes t (a copy of the current trace) the trace cut at snapshot s. */
static bool build_cut(tracedit_trace *t, const gtr_snapshot *s)
{
    uint64_t gen = gtr_snapshot_generation(s);
    resources gs = {0}, ps = {0};
    bool ok = false;
    if (!sorted(s, false, &gs) || !sorted(s, true, &ps))
        goto out;
    /* The generations before the cut one go. */
    size_t start = 0;
    while (start < t->nbatches &&
           !(t->batches[start].kind != GTR_EV_END_OF_GENERATION && t->batches[start].gen == gen))
        start++;
    if (start == t->nbatches)
        goto out;
    for (size_t b = start; b > 0; b--)
        tracedit_remove_batch(t, b - 1);
    uint64_t m_free = 0, t0 = UINT64_MAX;
    for (size_t b = 0; b < t->nbatches; b++) {
        const tracedit_batch *x = &t->batches[b];
        if (x->kind == GTR_EV_END_OF_GENERATION || x->gen != gen)
            continue;
        if (x->time < t0)
            t0 = x->time;
        if (x->m != NO_THREAD && x->m >= m_free)
            m_free = x->m + 1;
    }
    for (size_t i = 0; i < gtr_snapshot_nthreads(s); i++)
        if (!cut_thread(t, gen, gtr_snapshot_thread_at(s, i), &gs, &ps))
            goto out;
    /* What no thread holds, on a thread of its own, first: runnable and waiting goroutines,
     * idle procs, a GC in its mark phase. */
    tracedit_batch tmpl = {.kind = GTR_EV_EVENT_BATCH, .gen = gen, .m = m_free,
                           .time = t0 != UINT64_MAX ? t0 : 0};
    if (tracedit_insert_batch(t, 0, &tmpl) != GTR_OK)
        goto out;
    size_t pos = 0;
    for (size_t i = 0; i < ps.n; i++)
        if (!held(s, ps.v[i].id, true) && !restate(t, 0, &pos, &ps.v[i], true, m_free))
            goto out;
    for (size_t i = 0; i < gs.n; i++)
        if (!held(s, gs.v[i].id, false) && !restate(t, 0, &pos, &gs.v[i], false, m_free))
            goto out;
    uint64_t gc_seq;
    if (gtr_snapshot_gc(s, &gc_seq)) {
        uint64_t a[2] = {0, gc_seq};
        if (!add_event(t, 0, t->batches[0].nev, GTR_EV_GC_ACTIVE, a, 2))
            goto out;
    }
    ok = true;
out:
    free(gs.v);
    free(ps.v);
    return ok;
}

/* snapshot_after reads the current trace to just after its k-th event and snapshots it;
 * NULL when it does not get there. */
static gtr_snapshot *snapshot_after(const gtr_buf *wire, uint64_t k)
{
    gtr_input *in = NULL;
    gtr_reader *rd = NULL;
    gtr_snapshot *s = NULL;
    gtr_event ev;
    if (gtr_input_open_memory_plain(wire->data, wire->len, NULL, &in, NULL) == GTR_OK &&
        gtr_reader_new(in, NULL, &rd, NULL) == GTR_OK) {
        uint64_t n = 0;
        while (n < k && gtr_reader_next(rd, &ev, NULL) == GTR_OK)
            n++;
        if (n == k && gtr_reader_snapshot(rd, &s, NULL) != GTR_OK)
            s = NULL;
    }
    gtr_reader_free(rd);
    gtr_input_free(in);
    return s;
}

/* events_before_failure: how many events the reader returns from wire before it stops. */
static uint64_t events_before_failure(const gtr_buf *wire)
{
    gtr_input *in = NULL;
    gtr_reader *rd = NULL;
    gtr_event ev;
    uint64_t n = 0;
    if (gtr_input_open_memory_plain(wire->data, wire->len, NULL, &in, NULL) == GTR_OK &&
        gtr_reader_new(in, NULL, &rd, NULL) == GTR_OK)
        while (gtr_reader_next(rd, &ev, NULL) == GTR_OK)
            n++;
    gtr_reader_free(rd);
    gtr_input_free(in);
    return n;
}

/* try_cut tries the trace cut after the k-th event. */
static bool try_cut(reducer *r, uint64_t k)
{
    gtr_snapshot *s = snapshot_after(&r->cur_enc, k);
    bool kept = false;
    if (s != NULL && reduce__start_cand(r) && build_cut(&r->cand, s))
        kept = reduce__try_cand(r);
    gtr_snapshot_free(s);
    return kept;
}

bool reduce__cut_generation(reducer *r)
{
    if (!r->read_in_process || r->cur_enc.len == 0)
        return false;
    /* The latest cut that still fails the same way: the cuts after the k-th event for k in
     * [1, n), n the events read before the failure. A kept cut makes a new, shorter trace:
     * the bisection goes on in it. */
    uint64_t n = events_before_failure(&r->cur_enc);
    uint64_t lo = 1, hi = n;   /* the answer is in [lo, hi); lo: no cut yet known */
    bool any = false;
    /* A cut adds status events as it drops others: only a shorter trace is progress, so
     * that the bisections, which start again in each trace kept, end. */
    r->must_shrink = true;
    while (lo + 1 < hi && !r->halt) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (try_cut(r, mid)) {
            any = true;
            /* The trace now starts at the cut: the range still to search, (mid, hi) in the
             * old trace, is (1, hi) less the events the cut took away (fewer the status
             * events it added). */
            uint64_t left = events_before_failure(&r->cur_enc);
            uint64_t gone = n > left ? n - left : 0;
            lo = 1;
            hi = hi > gone + 1 ? hi - gone : 2;
            n = left;
        } else {
            hi = mid;
        }
    }
    r->must_shrink = false;
    return any;
}

gtr_status reduce_cut_trace(const uint8_t *data, size_t size, uint64_t k, gtr_buf *out)
{
    gtr_buf wire = {0};
    tracedit_trace t = {0};
    gtr_status st = GTR_E_USAGE;
    if (gtr_buf_append(&wire, data, size) != GTR_OK)
        return GTR_E_NOMEM;
    gtr_snapshot *s = snapshot_after(&wire, k);
    if (s != NULL && tracedit_decode(&t, data, size, NULL) == GTR_OK && build_cut(&t, s))
        st = tracedit_encode(&t, out, NULL);
    gtr_snapshot_free(s);
    tracedit_trace_free(&t);
    gtr_buf_free(&wire);
    return st;
}
