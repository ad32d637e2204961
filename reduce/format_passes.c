/* SPDX-License-Identifier: BSD-3-Clause */
/* format_passes.c: the reduction passes that know the trace format (engine.h), run once
 * ahead of the generic delta debugging, coarse to fine, in the manner of hierarchical delta
 * debugging and C-Reduce's domain passes:
 *   1. the generations after the failure, then those before it (bisected: the reader fails in
 *      one generation, and what comes after it is never read; a generation before it matters
 *      only through the state it leaves, which the next generation's status events restate);
 *      where the failure needs a generation before it (an error in the first generation read
 *      is another failure), all those before the last are replaced by one minimal valid
 *      generation (reduce_prepend_generation); then the failing generation is cut at the
 *      latest point before the failure where its state, restated by status events, still
 *      fails the same way (state_cut.c);
 *   2. whole threads (all their batches), by ddmin;
 *   3. each thread's events after its failing one (bisected per thread: the events behind a
 *      thread's stuck or failing event are never read);
 *   4. whole goroutines and procs (every event that names one), by ddmin.
 * On a trace of millions of events these take a few dozen candidates each where ddmin over
 * events would take hundreds of thousands. Every candidate is judged like any other. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* ---- Resources named in the trace: threads (batch headers), goroutines and procs (event
 * arguments named "g" and "p"), each listed once in order of first appearance. ---- */

typedef enum resource { THREADS, GOROUTINES, PROCS } resource;

typedef struct id_list {
    uint64_t *ids;
    size_t n, cap;
    uint64_t *set;      /* open addressing over id + 1 (0: empty) */
    size_t set_cap;
} id_list;

static void id_list_free(id_list *l)
{
    free(l->ids);
    free(l->set);
    memset(l, 0, sizeof *l);
}

static bool id_list_has(const id_list *l, uint64_t id)
{
    if (l->set_cap == 0)
        return false;
    uint64_t key = id + 1;
    for (size_t j = (size_t)(key * 0x9e3779b97f4a7c15ULL) & (l->set_cap - 1); l->set[j] != 0;
         j = (j + 1) & (l->set_cap - 1))
        if (l->set[j] == key)
            return true;
    return false;
}

/* id_list_add adds id unless present; false when out of memory. */
static bool id_list_add(id_list *l, uint64_t id)
{
    if (id == UINT64_MAX || id_list_has(l, id))
        return true;
    if ((l->n + 1) * 2 > l->set_cap) {
        size_t ncap = l->set_cap > 0 ? l->set_cap * 2 : 64;
        uint64_t *set = calloc(ncap, sizeof *set);
        if (set == NULL)
            return false;
        free(l->set);
        l->set = set;
        l->set_cap = ncap;
        for (size_t i = 0; i < l->n; i++) {
            uint64_t key = l->ids[i] + 1;
            size_t j = (size_t)(key * 0x9e3779b97f4a7c15ULL) & (ncap - 1);
            while (set[j] != 0)
                j = (j + 1) & (ncap - 1);
            set[j] = key;
        }
    }
    if (l->n == l->cap) {
        size_t ncap = l->cap > 0 ? l->cap * 2 : 64;
        uint64_t *ids = realloc(l->ids, ncap * sizeof *ids);
        if (ids == NULL)
            return false;
        l->ids = ids;
        l->cap = ncap;
    }
    uint64_t key = id + 1;
    size_t j = (size_t)(key * 0x9e3779b97f4a7c15ULL) & (l->set_cap - 1);
    while (l->set[j] != 0)
        j = (j + 1) & (l->set_cap - 1);
    l->set[j] = key;
    l->ids[l->n++] = id;
    return true;
}

/* arg_index: the argument of event type `type` that names a resource (-1: none). */
static int arg_index(uint8_t type, resource res)
{
    const gtr_event_spec *spec = gtr_spec(type);
    const char *want = res == GOROUTINES ? "g" : "p";
    for (int i = 0; i < spec->nargs; i++)
        if (spec->args[i] != NULL && strcmp(spec->args[i], want) == 0)
            return i;
    return -1;
}

static bool is_body(const tracedit_batch *b)
{
    return b->kind == GTR_EV_EVENT_BATCH && b->m != UINT64_MAX;
}

/* list_resources lists t's resources of kind res; false when out of memory. */
static bool list_resources(const tracedit_trace *t, resource res, id_list *l)
{
    for (size_t b = 0; b < t->nbatches; b++) {
        const tracedit_batch *x = &t->batches[b];
        if (!is_body(x))
            continue;
        if (res == THREADS) {
            if (!id_list_add(l, x->m))
                return false;
            continue;
        }
        for (size_t i = 0; i < x->nev; i++) {
            const tracedit_event *e = &t->events[x->evs[i]];
            int a = arg_index(e->type, res);
            if (a >= 0 && (uint32_t)a < e->nargs && !id_list_add(l, t->vals[e->args + a]))
                return false;
        }
    }
    return true;
}

static size_t count_resources(const tracedit_trace *t, resource res)
{
    id_list l = {0};
    size_t n = list_resources(t, res, &l) ? l.n : 0;
    id_list_free(&l);
    return n;
}

/* drop_resources removes resources [lo, hi) of kind res: a thread's batches, or every event
 * that names a goroutine or proc. */
static void drop_resources(tracedit_trace *t, resource res, size_t lo, size_t hi)
{
    id_list all = {0}, gone = {0};
    if (!list_resources(t, res, &all))
        goto out;
    for (size_t i = lo; i < hi && i < all.n; i++)
        if (!id_list_add(&gone, all.ids[i]))
            goto out;
    for (size_t b = t->nbatches; b > 0; b--) {
        tracedit_batch *x = &t->batches[b - 1];
        if (!is_body(x))
            continue;
        if (res == THREADS) {
            if (id_list_has(&gone, x->m))
                tracedit_remove_batch(t, b - 1);
            continue;
        }
        size_t w = 0;
        for (size_t i = 0; i < x->nev; i++) {
            const tracedit_event *e = &t->events[x->evs[i]];
            int a = arg_index(e->type, res);
            if (a >= 0 && (uint32_t)a < e->nargs && id_list_has(&gone, t->vals[e->args + a]))
                continue;
            x->evs[w++] = x->evs[i];
        }
        x->nev = w;
    }
out:
    id_list_free(&all);
    id_list_free(&gone);
}

static size_t count_threads(const tracedit_trace *t)
{
    return count_resources(t, THREADS);
}
static void drop_threads(tracedit_trace *t, size_t lo, size_t hi)
{
    drop_resources(t, THREADS, lo, hi);
}
static size_t count_goroutines(const tracedit_trace *t)
{
    return count_resources(t, GOROUTINES);
}
static void drop_goroutines(tracedit_trace *t, size_t lo, size_t hi)
{
    drop_resources(t, GOROUTINES, lo, hi);
}
static size_t count_procs(const tracedit_trace *t)
{
    return count_resources(t, PROCS);
}
static void drop_procs(tracedit_trace *t, size_t lo, size_t hi)
{
    drop_resources(t, PROCS, lo, hi);
}

/* ---- Bisection. ---- */

/* bisect_suffix keeps the fewest leading units: it bisects for the least k such that dropping
 * units [k, n) leaves the trace interesting. */
static bool bisect_suffix(reducer *r, reduce__count_fn count, reduce__drop_fn drop)
{
    size_t lo = 0, hi = count(&r->cur);
    bool any = false;
    while (lo < hi && !r->halt) {
        size_t mid = lo + (hi - lo) / 2;
        if (!reduce__start_cand(r))
            break;
        drop(&r->cand, mid, count(&r->cand));
        if (reduce__try_cand(r)) {
            hi = mid;
            any = true;
        } else {
            lo = mid + 1;
        }
    }
    return any;
}

/* bisect_prefix drops the most leading units: it bisects for the greatest k such that
 * dropping units [0, k) leaves the trace interesting. */
static bool bisect_prefix(reducer *r, reduce__count_fn count, reduce__drop_fn drop)
{
    size_t lo = 0, hi = count(&r->cur), dropped = 0;
    bool any = false;
    while (lo < hi && !r->halt) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (!reduce__start_cand(r))
            break;
        drop(&r->cand, 0, mid - dropped);
        if (reduce__try_cand(r)) {
            lo = dropped = mid;
            any = true;
        } else {
            hi = mid - 1;
        }
    }
    return any;
}

/* A thread's events, in the order of its batches. */
static size_t count_thread_events(const tracedit_trace *t, uint64_t m)
{
    size_t n = 0;
    for (size_t b = 0; b < t->nbatches; b++)
        if (is_body(&t->batches[b]) && t->batches[b].m == m)
            n += t->batches[b].nev;
    return n;
}

/* drop_thread_events_from removes thread m's events from its k-th on. */
static void drop_thread_events_from(tracedit_trace *t, uint64_t m, size_t k)
{
    size_t seen = 0;
    for (size_t b = 0; b < t->nbatches; b++) {
        tracedit_batch *x = &t->batches[b];
        if (!is_body(x) || x->m != m)
            continue;
        if (seen >= k)
            x->nev = 0;
        else if (seen + x->nev > k)
            x->nev = k - seen;
        seen += x->nev;
    }
}

/* bisect_thread keeps the fewest leading events of thread m. */
static bool bisect_thread(reducer *r, uint64_t m)
{
    size_t lo = 0, hi = count_thread_events(&r->cur, m);
    bool any = false;
    while (lo < hi && !r->halt) {
        size_t mid = lo + (hi - lo) / 2;
        if (!reduce__start_cand(r))
            break;
        drop_thread_events_from(&r->cand, m, mid);
        if (reduce__try_cand(r)) {
            hi = mid;
            any = true;
        } else {
            lo = mid + 1;
        }
    }
    return any;
}

/* replace_generations tries the trace with its first k generations replaced by one minimal
 * valid generation. */
static bool replace_generations(reducer *r, size_t k)
{
    gtr_buf rest = {0}, both = {0};
    bool kept = false;
    if (!reduce__start_cand(r))
        return false;
    reduce__drop_gens(&r->cand, 0, k);
    if (tracedit_encode(&r->cand, &rest, NULL) == GTR_OK &&
        reduce_prepend_generation((const uint8_t *)rest.data, rest.len, &both, NULL) == GTR_OK &&
        tracedit_decode(&r->cand, (const uint8_t *)both.data, both.len, NULL) == GTR_OK)
        kept = reduce__try_cand(r);
    gtr_buf_free(&rest);
    gtr_buf_free(&both);
    return kept;
}

/* replace_earlier_generations tries one minimal valid generation in place of all those before
 * the failing one: every whole generation when the trace ends in bytes that are no batch (a
 * cut: the failure is there), else all but the last. */
static bool replace_earlier_generations(reducer *r)
{
    size_t n = reduce__count_gens(&r->cur);
    if (r->cur.tail_len > 0 && n >= 1 && replace_generations(r, n))
        return true;
    return n >= 2 && !r->halt && replace_generations(r, n - 1);
}

bool reduce__format_passes(reducer *r)
{
    bool any = false;
    any |= bisect_suffix(r, reduce__count_gens, reduce__drop_gens);
    any |= bisect_prefix(r, reduce__count_gens, reduce__drop_gens);
    if (!r->halt)
        any |= replace_earlier_generations(r);
    if (!r->halt)
        any |= reduce__cut_generation(r);
    if (!r->halt)
        any |= reduce__ddmin(r, count_threads, drop_threads);
    id_list threads = {0};
    if (!list_resources(&r->cur, THREADS, &threads)) {
        r->oom = r->halt = true;
    } else {
        for (size_t i = 0; i < threads.n && !r->halt; i++)
            any |= bisect_thread(r, threads.ids[i]);
    }
    id_list_free(&threads);
    if (!r->halt)
        any |= reduce__ddmin(r, count_goroutines, drop_goroutines);
    if (!r->halt)
        any |= reduce__ddmin(r, count_procs, drop_procs);
    return any;
}
