/* SPDX-License-Identifier: BSD-3-Clause */
/* splice.c: the splice operator (splice.h): model generations and batches into an input.
 *
 * One call draws, from its own splitmix64 seeded by the caller:
 *
 *  1. A model run: gsim (sim/) for the input's version, 1..SPLICE_MAX_EVENTS events, one or
 *     two generations, 1..4 procs, into memory capped at min(max_size, SPLICE_MAX_OUT) bytes
 *     (a second, smaller run if the first does not fit). The trace is decoded with tracedit.
 *  2. The IDs: most of the time ("remapped") the model's goroutine, proc, thread and task IDs
 *     are moved past the largest the input uses, so model and input resources are disjoint;
 *     otherwise the model's IDs are kept and collide with the input's.
 *  3. One of two splices:
 *     gen      one whole model generation (its EndOfGeneration marker too, for Go 1.26) goes
 *              before the input's first generation, between two, or after the last. It takes
 *              the number that fits there, and the input's later generations are renumbered
 *              after it when needed (before Go 1.26 generations must be consecutive). Its
 *              times are moved to follow the previous generation (or to precede the first).
 *     batches  one, some or all of the M batches of one model generation go into one of the
 *              input's generations, each on an M taken from the input or a fresh one, their
 *              times moved into the generation's range. Their string and stack references
 *              are remapped onto the generation's tables: mostly added to them (a string with
 *              the same bytes is reused, others get the next free ID; stacks are added with
 *              their frames' strings), sometimes pointed at an existing entry at random.
 *  4. Statuses. Go's reader accepts a goroutine's first GoStatus only in the trace's first
 *     generation, and the goroutines of the trace's first generation must be declared there.
 *     A "consistent" splice re-declares what the other side needs: a model generation put
 *     first gets copies of the status events (ProcStatus, GoStatus, GoStatusStack with no
 *     stack, GCSweepActive, GCMarkAssistActive, GCActive) of the input's first generation,
 *     on the same Ms; model generations and batches put later get copies of their own status
 *     events (GCActive aside) in the input's first generation. It also leaves the model's GC
 *     cycle events out (the trace's GC sequence numbers are the input's), gives a spliced
 *     generation the input's frequency and a clock snapshot just after the previous
 *     generation's (or just before the next one's), moves the input's later generations
 *     after it when they would overlap, and takes all of a generation's M batches, on fresh
 *     Ms. An inconsistent splice (drawn one time in four, and always when the IDs are not
 *     remapped) does none of this, deliberately.
 *
 * The kind strings: "splice_gen_{before,between,after}" and "splice_batches_{first,later}"
 * (the first generation of the input or a later one), each with "_raw" appended for an
 * inconsistent splice. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "rng.h"
#include "splice.h"
#ifdef GTR_FS_HAVE_SIM
#include "gsim/sim.h"
#endif

#define SPLICE_MAX_EVENTS 200          /* model events per call at most */
#define SPLICE_MAX_OUT (256u << 10)    /* model wire bytes at most */
#define NO_ID UINT64_MAX               /* NoGoroutine, NoProc, NoThread */

/* A generation: its body batches [lo, hi) and, for Go 1.26, its EndOfGeneration marker
 * (end = hi + 1; otherwise end = hi). */
typedef struct seg {
    uint64_t gen;
    size_t lo, hi, end;
} seg;

typedef struct segs {
    seg *v;
    size_t n, cap;
} segs;

/* A map of model IDs to input IDs. */
typedef struct idpair {
    uint64_t from, to;
} idpair;

typedef struct idmap {
    idpair *v;
    size_t n, cap;
} idmap;

typedef struct splicer {
    uint64_t rng;
    tracedit_trace *t, *u;   /* the input (edited) and the model's trace */
    bool nomem;
    uint64_t *args;          /* scratch for one event's arguments */
    size_t args_cap;
    /* Step 2. */
    bool remap;
    uint64_t off_g, off_p, off_m, off_task;
    uint64_t dtime;          /* added to model times (mod 2^64) */
    bool strip_gc;           /* leave the model's GC cycle events out */
    /* Batch splices: the target generation and its tables. */
    bool map_tables, add;
    seg tg;                  /* in t, kept up to date as batches are inserted */
    seg ms;                  /* the model generation, in u */
    idmap strs, stks;
    uint64_t max_str, max_stk;
} splicer;

static uint64_t rnd(splicer *s)
{
    return gtr__fs_splitmix(&s->rng);
}

static size_t below(splicer *s, size_t n)
{
    return (size_t)(rnd(s) % n);
}

static bool grow(void **v, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t nc = *cap ? *cap * 2 : 16;
    while (nc < need)
        nc *= 2;
    void *nv = realloc(*v, nc * elem);
    if (nv == NULL)
        return false;
    *v = nv;
    *cap = nc;
    return true;
}

static bool is_body(const tracedit_batch *b)
{
    return b->kind != GTR_EV_END_OF_GENERATION;
}

static uint8_t first_type(const tracedit_trace *t, size_t b)
{
    const tracedit_batch *bt = &t->batches[b];
    return bt->nev > 0 ? t->events[bt->evs[0]].type : GTR_EV_NONE;
}

/* find_segs: t's generations, in batch order. */
static bool find_segs(const tracedit_trace *t, segs *out)
{
    out->n = 0;
    for (size_t b = 0; b < t->nbatches; b++) {
        const tracedit_batch *bt = &t->batches[b];
        seg *last = out->n > 0 ? &out->v[out->n - 1] : NULL;
        if (!is_body(bt)) {
            if (last != NULL && last->end == b && last->hi == b)
                last->end = b + 1;
            continue;
        }
        if (last != NULL && last->hi == b && last->end == b && last->gen == bt->gen) {
            last->hi = last->end = b + 1;
            continue;
        }
        if (!grow((void **)&out->v, &out->cap, out->n + 1, sizeof *out->v))
            return false;
        out->v[out->n++] = (seg){bt->gen, b, b + 1, b + 1};
    }
    return true;
}

/* batch_end: the time of batch b's last event. */
static uint64_t batch_end(const tracedit_trace *t, size_t b)
{
    const tracedit_batch *bt = &t->batches[b];
    uint64_t ts = bt->time;
    for (size_t i = 0; i < bt->nev; i++) {
        const tracedit_event *e = &t->events[bt->evs[i]];
        if (gtr_spec(e->type)->is_timed && e->nargs >= 1)
            ts += t->vals[e->args];
    }
    return ts;
}

/* seg_times: the first batch time and the last event time of generation g. */
static void seg_times(const tracedit_trace *t, const seg *g, uint64_t *lo, uint64_t *hi)
{
    *lo = UINT64_MAX;
    *hi = 0;
    for (size_t b = g->lo; b < g->hi; b++) {
        uint64_t e = batch_end(t, b);
        if (t->batches[b].time < *lo)
            *lo = t->batches[b].time;
        if (e > *hi)
            *hi = e;
    }
    if (*lo == UINT64_MAX)
        *lo = *hi = 0;
}

/* ---- ID maps and the target generation's tables (batch splices) ---- */

static bool idmap_get(const idmap *m, uint64_t from, uint64_t *to)
{
    for (size_t i = 0; i < m->n; i++) {
        if (m->v[i].from == from) {
            *to = m->v[i].to;
            return true;
        }
    }
    return false;
}

static void idmap_put(splicer *s, idmap *m, uint64_t from, uint64_t to)
{
    if (!grow((void **)&m->v, &m->cap, m->n + 1, sizeof *m->v)) {
        s->nomem = true;
        return;
    }
    m->v[m->n++] = (idpair){from, to};
}

/* find_def: the event defining ID id (a String or a Stack) in generation g of tr, or -1. */
static int64_t find_def(const tracedit_trace *tr, const seg *g, uint8_t type, uint64_t id)
{
    for (size_t b = g->lo; b < g->hi; b++) {
        const tracedit_batch *bt = &tr->batches[b];
        if (first_type(tr, b) != (type == GTR_EV_STRING ? GTR_EV_STRINGS : GTR_EV_STACKS))
            continue;
        for (size_t i = 0; i < bt->nev; i++) {
            const tracedit_event *e = &tr->events[bt->evs[i]];
            if (e->type == type && e->nargs >= 1 && tr->vals[e->args] == id)
                return (int64_t)bt->evs[i];
        }
    }
    return -1;
}

/* random_def: the ID of a random `type` definition of the target generation (false: none). */
static bool random_def(splicer *s, uint8_t type, uint64_t *id)
{
    const tracedit_trace *t = s->t;
    size_t seen = 0;
    for (size_t b = s->tg.lo; b < s->tg.hi; b++) {
        const tracedit_batch *bt = &t->batches[b];
        for (size_t i = 0; i < bt->nev; i++) {
            const tracedit_event *e = &t->events[bt->evs[i]];
            if (e->type == type && e->nargs >= 1 && below(s, ++seen) == 0)
                *id = t->vals[e->args];
        }
    }
    return seen > 0;
}

/* table_batch: the target generation's last String (or Stack) table batch, made if missing
 * (at the end of the generation, on no M). */
static bool table_batch(splicer *s, uint8_t marker, size_t *out)
{
    tracedit_trace *t = s->t;
    for (size_t b = s->tg.hi; b-- > s->tg.lo;) {
        if (first_type(t, b) == marker) {
            *out = b;
            return true;
        }
    }
    tracedit_batch tmpl = {.kind = GTR_EV_EVENT_BATCH, .gen = s->tg.gen, .m = NO_ID};
    tmpl.time = t->batches[s->tg.lo].time;
    uint32_t idx;
    size_t at = s->tg.hi;
    if (tracedit_insert_batch(t, at, &tmpl) != GTR_OK ||
        tracedit_add_event(t, marker, NULL, 0, false, NULL, 0, &idx) != GTR_OK ||
        tracedit_batch_insert(t, at, 0, idx) != GTR_OK)
        return false;
    s->tg.hi++;
    s->tg.end++;
    *out = at;
    return true;
}

/* add_def appends a definition to the target generation's table. */
static bool add_def(splicer *s, uint8_t type, const uint64_t *args, uint32_t nargs,
                    const uint8_t *data, size_t len)
{
    size_t b;
    uint32_t idx;
    if (!table_batch(s, type == GTR_EV_STRING ? GTR_EV_STRINGS : GTR_EV_STACKS, &b))
        return false;
    return tracedit_add_event(s->t, type, args, nargs, type == GTR_EV_STRING, data, len, &idx) ==
               GTR_OK &&
           tracedit_batch_insert(s->t, b, s->t->batches[b].nev, idx) == GTR_OK;
}

static uint64_t map_string(splicer *s, uint64_t id)
{
    uint64_t to;
    if (id == 0 || idmap_get(&s->strs, id, &to))
        return id == 0 ? 0 : to;
    int64_t def = find_def(s->u, &s->ms, GTR_EV_STRING, id);
    if (def < 0)
        return id;   /* the model names no such string: keep the reference as it is */
    const tracedit_event *e = &s->u->events[def];
    const uint8_t *data = s->u->bytes + e->data;
    size_t len = e->data_len;
    to = 0;
    bool found = false;
    if (s->add) {
        /* The same bytes already in the generation: reuse their ID. */
        tracedit_trace *t = s->t;
        for (size_t b = s->tg.lo; b < s->tg.hi && !found; b++) {
            for (size_t i = 0; i < t->batches[b].nev && !found; i++) {
                const tracedit_event *x = &t->events[t->batches[b].evs[i]];
                if (x->type == GTR_EV_STRING && x->nargs >= 1 && x->data_len == len &&
                    memcmp(t->bytes + x->data, data, len) == 0) {
                    to = t->vals[x->args];
                    found = true;
                }
            }
        }
    } else {
        found = random_def(s, GTR_EV_STRING, &to);
    }
    if (!found) {
        /* data points into u, which add_def does not touch. */
        to = ++s->max_str;
        if (!add_def(s, GTR_EV_STRING, &to, 1, data, len))
            s->nomem = true;
    }
    idmap_put(s, &s->strs, id, to);
    return to;
}

static bool reserve_args(splicer *s, size_t n)
{
    if (!grow((void **)&s->args, &s->args_cap, n, sizeof *s->args)) {
        s->nomem = true;
        return false;
    }
    return true;
}

static uint64_t map_stack(splicer *s, uint64_t id)
{
    uint64_t to;
    if (id == 0 || idmap_get(&s->stks, id, &to))
        return id == 0 ? 0 : to;
    int64_t def = find_def(s->u, &s->ms, GTR_EV_STACK, id);
    if (def < 0)
        return id;
    if (!s->add && random_def(s, GTR_EV_STACK, &to)) {
        idmap_put(s, &s->stks, id, to);
        return to;
    }
    const tracedit_event e = s->u->events[def];
    if (e.nargs < 2)
        return id;
    /* A copy of the model's stack, its frames' func and file strings mapped too (which may
     * add strings, so the frames are read from u, and written to a private buffer). */
    uint64_t *fr = malloc(e.nargs * sizeof *fr);
    if (fr == NULL) {
        s->nomem = true;
        return id;
    }
    memcpy(fr, s->u->vals + e.args, e.nargs * sizeof *fr);
    to = ++s->max_stk;
    fr[0] = to;
    for (uint32_t f = 2; f + 4 <= e.nargs; f += 4) {   /* pc, func, file, line */
        fr[f + 1] = map_string(s, fr[f + 1]);
        fr[f + 2] = map_string(s, fr[f + 2]);
    }
    if (!add_def(s, GTR_EV_STACK, fr, e.nargs, NULL, 0))
        s->nomem = true;
    free(fr);
    idmap_put(s, &s->stks, id, to);
    return to;
}

/* ---- copying events ---- */

/* remap_args rewrites one event's arguments for the input: IDs (step 2), times, and for
 * batch splices string and stack references. */
static void remap_args(splicer *s, uint8_t type, uint64_t *a, uint32_t nargs)
{
    for (uint32_t k = 0; k < nargs && k < GTR_MAX_SPEC_ARGS; k++) {
        switch (gtr__fs_classify(type, k)) {
        case A_G:
            if (s->remap && a[k] != 0 && a[k] != NO_ID)
                a[k] += s->off_g;
            break;
        case A_P:
            if (s->remap && a[k] != NO_ID)
                a[k] += s->off_p;
            break;
        case A_M:
            if (s->remap && a[k] != NO_ID)
                a[k] += s->off_m;
            break;
        case A_TASK:
            if (s->remap && a[k] != 0)
                a[k] += s->off_task;
            break;
        case A_TIME:
            a[k] += s->dtime;
            break;
        case A_STRING:
            if (s->map_tables)
                a[k] = map_string(s, a[k]);
            break;
        case A_STACK:
            if (s->map_tables)
                a[k] = map_stack(s, a[k]);
            break;
        default:
            break;
        }
    }
}

/* copy_event appends a remapped copy of event ev of src at position pos of t's batch b, extra
 * added to its time delta. status: a re-declaration (dt 1, no stack). */
static bool copy_event(splicer *s, const tracedit_trace *src, uint32_t ev, size_t b, size_t pos,
                       bool remap, bool status, uint64_t extra)
{
    const tracedit_event e = src->events[ev];
    if (!reserve_args(s, e.nargs + 1))
        return false;
    memcpy(s->args, src->vals + e.args, e.nargs * sizeof *s->args);
    bool saved = s->remap;
    s->remap = saved && remap;
    remap_args(s, e.type, s->args, e.nargs);
    s->remap = saved;
    if (e.nargs >= 1 && gtr_spec(e.type)->is_timed)
        s->args[0] += extra;
    if (status) {
        if (e.nargs >= 1)
            s->args[0] = 1;
        for (uint32_t k = 0; k < e.nargs && k < GTR_MAX_SPEC_ARGS; k++)
            if (gtr__fs_classify(e.type, k) == A_STACK)
                s->args[k] = 0;
    }
    /* The data bytes are copied out of src first: when src is t, adding may move them. */
    uint8_t small[64], *data = small;
    if (e.data_len > sizeof small && (data = malloc(e.data_len)) == NULL)
        return !(s->nomem = true);
    if (e.data_len > 0)
        memcpy(data, src->bytes + e.data, e.data_len);
    uint32_t idx;
    bool ok = tracedit_add_event(s->t, e.type, s->args, e.nargs, e.has_data, data, e.data_len,
                                 &idx) == GTR_OK &&
              tracedit_batch_insert(s->t, b, pos, idx) == GTR_OK;
    if (data != small)
        free(data);
    if (!ok)
        s->nomem = true;
    return ok;
}

static uint64_t map_m(const splicer *s, uint64_t m, bool remap)
{
    return remap && s->remap && m != NO_ID ? m + s->off_m : m;
}

static bool is_gc_cycle(uint8_t type)
{
    return type == GTR_EV_GC_ACTIVE || type == GTR_EV_GC_BEGIN || type == GTR_EV_GC_END;
}

/* copy_batch inserts at t's index at a copy of src's batch b (gen, m and time given), its
 * events remapped. With s->strip_gc the GC cycle events are left out (their time deltas go
 * to the next event): the GC sequence numbers of a consistent splice are the input's. */
static bool copy_batch(splicer *s, const tracedit_trace *src, size_t b, size_t at, uint64_t gen,
                       uint64_t m, uint64_t time)
{
    tracedit_batch tmpl = src->batches[b];
    tmpl.gen = gen;
    tmpl.m = m;
    tmpl.time = time;
    tmpl.tail_len = 0;   /* the tail indexes src's bytes */
    if (tracedit_insert_batch(s->t, at, &tmpl) != GTR_OK)
        return !(s->nomem = true);
    uint64_t carry = 0;
    for (size_t i = 0, pos = 0; i < src->batches[b].nev; i++) {
        uint32_t ev = src->batches[b].evs[i];
        const tracedit_event *e = &src->events[ev];
        if (s->strip_gc && is_gc_cycle(e->type)) {
            carry += e->nargs >= 1 ? src->vals[e->args] : 0;
            continue;
        }
        if (!copy_event(s, src, ev, at, pos++, true, false, carry))
            return false;
        carry = 0;
    }
    return true;
}

/* is_status: a declaration of state at a generation's start. GCActive counts when the
 * statuses copied are the input's (gc): its GC cycle is the trace's. */
static bool is_status(uint8_t type, bool gc)
{
    return type == GTR_EV_PROC_STATUS || type == GTR_EV_GO_STATUS ||
           type == GTR_EV_GO_STATUS_STACK || type == GTR_EV_GC_SWEEP_ACTIVE ||
           type == GTR_EV_GC_MARK_ASSIST_ACTIVE || (gc && type == GTR_EV_GC_ACTIVE);
}

/* copy_statuses inserts at t's index at, for each batch list[k] of src that has status events,
 * a batch of generation gen holding copies of them, on M ms[k] (ms NULL: the source batch's
 * M, remapped when remap). When src is t, the source batches must lie at or after at (they
 * are read past each insertion). */
static bool copy_statuses(splicer *s, const tracedit_trace *src, const size_t *list,
                          const uint64_t *ms, size_t n, bool remap, uint64_t gen, size_t at,
                          uint64_t time)
{
    size_t inserted = 0;
    for (size_t k = 0; k < n; k++) {
        size_t b = list[k] + (src == s->t ? inserted : 0);
        assert(src != s->t || b >= at);
        const tracedit_batch *sb = &src->batches[b];
        size_t nst = 0;
        if (sb->kind != GTR_EV_EVENT_BATCH)
            continue;   /* (statuses of blocked goroutines sit in batches of no M too) */
        for (size_t i = 0; i < sb->nev; i++)
            nst += is_status(src->events[sb->evs[i]].type, !remap);
        if (nst == 0)
            continue;
        tracedit_batch tmpl = {.kind = GTR_EV_EVENT_BATCH, .gen = gen, .time = time};
        tmpl.m = ms != NULL ? ms[k] : map_m(s, sb->m, remap);
        if (tracedit_insert_batch(s->t, at, &tmpl) != GTR_OK)
            return !(s->nomem = true);
        inserted++;
        if (src == s->t)
            b++;   /* moved by the insertion */
        for (size_t i = 0, pos = 0; i < src->batches[b].nev; i++) {
            uint32_t ev = src->batches[b].evs[i];
            if (is_status(src->events[ev].type, !remap) &&
                !copy_event(s, src, ev, at, pos++, remap, true, 0))
                return false;
        }
        at++;
    }
    return true;
}

/* ---- the two splices ---- */

static const char *kind_name(int which, bool consistent)
{
    static const char *const names[5][2] = {
        {"splice_gen_before_raw", "splice_gen_before"},
        {"splice_gen_between_raw", "splice_gen_between"},
        {"splice_gen_after_raw", "splice_gen_after"},
        {"splice_batches_first_raw", "splice_batches_first"},
        {"splice_batches_later_raw", "splice_batches_later"},
    };
    return names[which][consistent];
}

/* body_list: the indices of the batches of generation g. */
static size_t *body_list(const seg *g, size_t *n)
{
    size_t *v = malloc((g->hi - g->lo + 1) * sizeof *v);
    if (v == NULL)
        return NULL;
    for (size_t b = g->lo; b < g->hi; b++)
        v[b - g->lo] = b;
    *n = g->hi - g->lo;
    return v;
}

/* A ClockSnapshot's values (Go 1.25+): mono, sec, nsec. */
typedef struct snap {
    bool ok;
    uint64_t mono, sec, nsec;
} snap;

/* find_event: the first (or last) event of the given type with at least nargs arguments in
 * generation g of tr, or -1. */
static int64_t find_event(const tracedit_trace *tr, const seg *g, uint8_t type, uint32_t nargs,
                          bool last)
{
    int64_t found = -1;
    for (size_t b = g->lo; b < g->hi; b++) {
        for (size_t i = 0; i < tr->batches[b].nev; i++) {
            uint32_t ev = tr->batches[b].evs[i];
            if (tr->events[ev].type == type && tr->events[ev].nargs >= nargs) {
                found = (int64_t)ev;
                if (!last)
                    return found;
            }
        }
    }
    return found;
}

static snap get_snap(const tracedit_trace *tr, const seg *g, bool last)
{
    snap sn = {false, 0, 0, 0};
    int64_t ev = find_event(tr, g, GTR_EV_CLOCK_SNAPSHOT, 4, last);
    if (ev >= 0) {
        const uint64_t *a = tracedit_event_args(tr, (uint32_t)ev);
        sn = (snap){true, a[1], a[2], a[3]};
    }
    return sn;
}

/* shift_times adds d to the times of t's batches [from, to) (batch base times and CPU
 * sample times). */
static void shift_times(tracedit_trace *t, size_t from, size_t to, uint64_t d)
{
    for (size_t b = from; b < to; b++) {
        tracedit_batch *bt = &t->batches[b];
        if (!is_body(bt))
            continue;
        bt->time += d;
        for (size_t i = 0; i < bt->nev; i++) {
            const tracedit_event *e = &t->events[bt->evs[i]];
            for (uint32_t k = 0; k < e->nargs && k < GTR_MAX_SPEC_ARGS; k++)
                if (gtr__fs_classify(e->type, k) == A_TIME)
                    t->vals[e->args + k] += d;
        }
    }
}

/* fit_clocks makes the spliced generation (t's batches [lo, hi)) agree with its neighbours:
 * the input's frequency, and a clock snapshot just after the previous generation's (or just
 * before the next's), as the validator wants every sync's clocks to increase. */
static void fit_clocks(splicer *s, size_t lo, size_t hi, uint64_t freq, snap prev, snap next)
{
    tracedit_trace *t = s->t;
    seg g = {0, lo, hi, hi};
    int64_t fe = find_event(t, &g, GTR_EV_FREQUENCY, 1, false);
    if (fe >= 0 && freq != 0)
        tracedit_event_args(t, (uint32_t)fe)[0] = freq;
    int64_t ce = find_event(t, &g, GTR_EV_CLOCK_SNAPSHOT, 4, false);
    if (ce < 0 || (!prev.ok && !next.ok))
        return;
    uint64_t *a = tracedit_event_args(t, (uint32_t)ce);
    if (prev.ok) {
        a[1] = prev.mono + 1;
        a[2] = prev.sec + (prev.nsec + 1 >= 1000000000u);
        a[3] = prev.nsec + 1 >= 1000000000u ? 0 : prev.nsec + 1;
    } else if (next.mono > 1 && (next.sec > 0 || next.nsec > 1)) {
        a[1] = next.mono - 1;
        a[2] = next.nsec > 0 ? next.sec : next.sec - 1;
        a[3] = next.nsec > 0 ? next.nsec - 1 : 999999999u;
    }
}

static bool splice_gen(splicer *s, const segs *ts, const segs *us, bool consistent,
                       const char **kind)
{
    tracedit_trace *t = s->t;
    const tracedit_trace *u = s->u;
    const seg ms = us->v[below(s, us->n)];
    size_t n = ts->n, p = below(s, n + 1), ins, k = ms.end - ms.lo;
    uint64_t gen, shift = 0, mlo, mhi, target, freq = 0;
    snap prev = {false, 0, 0, 0}, next = prev;
    seg_times(u, &ms, &mlo, &mhi);
    if (n == 0) {
        gen = 1;
        ins = t->nbatches;
        target = mlo;
    } else if (p == 0) {
        uint64_t ilo, ihi;
        gen = ts->v[0].gen > 1 ? ts->v[0].gen - 1 : 1;
        ins = ts->v[0].lo;
        if (ts->v[0].gen <= gen)
            shift = gen + 1 - ts->v[0].gen;
        seg_times(t, &ts->v[0], &ilo, &ihi);
        target = ilo > mhi - mlo + 2 ? ilo - (mhi - mlo) - 2 : 1;
    } else {
        uint64_t plo, phi;
        gen = ts->v[p - 1].gen + 1;
        ins = ts->v[p - 1].end;
        if (p < n && ts->v[p].gen <= gen)
            shift = gen + 1 - ts->v[p].gen;
        seg_times(t, &ts->v[p - 1], &plo, &phi);
        target = phi + 1 + below(s, 16);
        prev = get_snap(t, &ts->v[p - 1], true);
    }
    if (n > 0) {
        int64_t fe = find_event(t, &ts->v[p > 0 ? p - 1 : 0], GTR_EV_FREQUENCY, 1, false);
        freq = fe >= 0 ? tracedit_event_args(t, (uint32_t)fe)[0] : 0;
    }
    if (p < n)
        next = get_snap(t, &ts->v[p], false);
    s->dtime = target - mlo;
    for (size_t b = ins; b < t->nbatches; b++)
        if (is_body(&t->batches[b]))
            t->batches[b].gen += shift;
    if (consistent && p < n) {
        /* The input's later generations move after the spliced one when they overlap it. */
        uint64_t nlo, nhi, end = mhi + s->dtime;
        seg_times(t, &ts->v[p], &nlo, &nhi);
        if (nlo <= end + 2)
            shift_times(t, ins, t->nbatches, end + 3 + below(s, 16) - nlo);
    }
    for (size_t b = ms.lo; b < ms.end; b++) {
        const tracedit_batch *mb = &u->batches[b];
        if (!copy_batch(s, u, b, ins + (b - ms.lo), gen, map_m(s, mb->m, true),
                        is_body(mb) ? mb->time + s->dtime : 0))
            return false;
    }
    /* (Into a trace with no generation, nothing can disagree with the model's.) */
    *kind = kind_name(n == 0 || p == 0 ? 0 : p < n ? 1 : 2, consistent || n == 0);
    if (!consistent || n == 0)
        return true;
    fit_clocks(s, ins, ins + k, freq, prev, next);
    size_t nl = 0, *list;
    bool ok;
    if (p == 0) {
        /* The model generation is now the first: it declares the input's first generation's
         * statuses (read past the inserted block). */
        seg first = ts->v[0];
        first.lo += k;
        first.hi += k;
        if ((list = body_list(&first, &nl)) == NULL)
            return !(s->nomem = true);
        ok = copy_statuses(s, t, list, NULL, nl, false, gen, ins, target);
    } else {
        /* The input's first generation declares the model generation's statuses. */
        uint64_t ilo, ihi;
        seg_times(t, &ts->v[0], &ilo, &ihi);
        if ((list = body_list(&ms, &nl)) == NULL)
            return !(s->nomem = true);
        ok = copy_statuses(s, u, list, NULL, nl, true, ts->v[0].gen, ts->v[0].lo, ilo);
    }
    free(list);
    return ok;
}

static bool splice_batches(splicer *s, const segs *ts, const segs *us, bool consistent,
                           const char **kind)
{
    tracedit_trace *t = s->t;
    const tracedit_trace *u = s->u;
    if (ts->n == 0)
        return false;
    size_t si = below(s, ts->n), uj = si == 0 && below(s, 4) ? 0 : below(s, us->n);
    s->tg = ts->v[si];
    s->ms = us->v[uj];
    /* The model's M batches (not the tables, samples or experimental batches). */
    size_t *cand = malloc((s->ms.hi - s->ms.lo + 1) * sizeof *cand), nc = 0;
    if (cand == NULL)
        return !(s->nomem = true);
    for (size_t b = s->ms.lo; b < s->ms.hi; b++) {
        const tracedit_batch *mb = &u->batches[b];
        uint8_t f = first_type(u, b);
        if (mb->kind == GTR_EV_EVENT_BATCH && mb->m != NO_ID && mb->nev > 0 &&
            f != GTR_EV_STRINGS && f != GTR_EV_STACKS && f != GTR_EV_CPU_SAMPLES &&
            f != GTR_EV_SYNC && f != GTR_EV_FREQUENCY)
            cand[nc++] = b;
    }
    if (nc == 0) {
        free(cand);
        return false;
    }
    /* All of them (a consistent splice), or one, all or a random subset (kept in batch
     * order). */
    size_t how = consistent ? 1 : below(s, 3), nch = 0;
    if (how == 0) {
        cand[0] = cand[below(s, nc)];
        nch = 1;
    } else if (how == 1) {
        nch = nc;
    } else {
        for (size_t i = 0; i < nc; i++)
            if (below(s, 2))
                cand[nch++] = cand[i];
        if (nch == 0)
            cand[nch++] = cand[below(s, nc)];
    }
    /* The target generation's tables. */
    s->map_tables = true;
    s->add = below(s, 4) != 0;
    s->strs.n = s->stks.n = 0;
    s->max_str = s->max_stk = 0;
    for (size_t b = s->tg.lo; b < s->tg.hi; b++) {
        for (size_t i = 0; i < t->batches[b].nev; i++) {
            const tracedit_event *e = &t->events[t->batches[b].evs[i]];
            if (e->nargs < 1)
                continue;
            uint64_t id = t->vals[e->args];
            if (e->type == GTR_EV_STRING && id > s->max_str)
                s->max_str = id;
            if (e->type == GTR_EV_STACK && id > s->max_stk)
                s->max_stk = id;
        }
    }
    /* Pass 1: map every string and stack the chosen batches name (this may add table
     * entries and a table batch to the target generation). */
    for (size_t k = 0; k < nch && !s->nomem; k++) {
        const tracedit_batch *mb = &u->batches[cand[k]];
        for (size_t i = 0; i < mb->nev; i++) {
            const tracedit_event *e = &u->events[mb->evs[i]];
            for (uint32_t a = 0; a < e->nargs && a < GTR_MAX_SPEC_ARGS; a++) {
                enum gtr__fs_arg_class c = gtr__fs_classify(e->type, a);
                if (c == A_STRING)
                    map_string(s, u->vals[e->args + a]);
                else if (c == A_STACK)
                    map_stack(s, u->vals[e->args + a]);
            }
        }
    }
    /* Pass 2: the batches, at one place in the generation, their times moved into it. */
    uint64_t tlo, thi, mlo = UINT64_MAX;
    seg_times(t, &s->tg, &tlo, &thi);
    for (size_t k = 0; k < nch; k++)
        if (u->batches[cand[k]].time < mlo)
            mlo = u->batches[cand[k]].time;
    s->dtime = tlo + (thi - tlo < UINT64_MAX ? below(s, thi - tlo + 1) : rnd(s)) - mlo;
    size_t at = s->tg.lo + below(s, s->tg.hi - s->tg.lo + 1);
    uint64_t *ms_ids = malloc(nch * sizeof *ms_ids);
    bool ok = ms_ids != NULL;
    for (size_t k = 0; k < nch && ok && !s->nomem; k++) {
        const tracedit_batch *mb = &u->batches[cand[k]];
        uint64_t m = mb->m + s->off_m;   /* a fresh M, or (inconsistent) one of the input's */
        if (!consistent && below(s, 2) == 0) {
            size_t b = s->tg.lo + below(s, s->tg.hi - s->tg.lo);
            if (t->batches[b].m != NO_ID)
                m = t->batches[b].m;
        }
        ms_ids[k] = m;
        ok = copy_batch(s, u, cand[k], at + k, s->tg.gen, m, mb->time + s->dtime);
    }
    *kind = kind_name(si == 0 ? 3 : 4, consistent);
    if (ok && !s->nomem && consistent && si != 0) {
        /* The input's first generation declares the spliced batches' statuses, on the Ms
         * they were given. */
        uint64_t ilo, ihi;
        seg_times(t, &ts->v[0], &ilo, &ihi);
        ok = copy_statuses(s, u, cand, ms_ids, nch, true, ts->v[0].gen, ts->v[0].lo, ilo);
    }
    free(ms_ids);
    free(cand);
    return ok && !s->nomem;
}

/* ---- the model run ---- */

#ifdef GTR_FS_HAVE_SIM
static bool run_model(splicer *s, gtr_go_version v, uint64_t events, uint64_t gens, size_t cap,
                      gtr_buf *out)
{
    gsim_config c;
    gsim_seed_state st;
    gtr_err err = GTR_ERR_INIT;
    gsim_config_default(&c);
    c.version = v;
    c.events = events;
    c.gens = gens;
    c.procs = 1 + (unsigned)below(s, 4);
    gtr_buf_reset(out);
    gtr_status rc = gsim_generate(&c, gsim_choice_seed(&st, rnd(s)), NULL, cap, out, NULL, &err);
    gtr_err_clear(&err);
    return rc == GTR_OK;
}
#endif

static bool model_trace(splicer *s, gtr_go_version v, size_t max_size, gtr_buf *out)
{
#ifdef GTR_FS_HAVE_SIM
    size_t cap = max_size < SPLICE_MAX_OUT ? max_size : SPLICE_MAX_OUT;
    /* One draw a statement: the order of a call's arguments is the compiler's. */
    uint64_t events = 1 + below(s, SPLICE_MAX_EVENTS);
    uint64_t gens = 1 + below(s, 2);
    if (run_model(s, v, events, gens, cap, out))
        return true;
    return run_model(s, v, 1 + below(s, 8), 1, cap, out);   /* smaller, once */
#else
    (void)s, (void)v, (void)max_size, (void)out;
    return false;
#endif
}

/* input_maxima: the largest goroutine, proc, thread and task IDs t uses. */
static void input_maxima(splicer *s)
{
    const tracedit_trace *t = s->t;
    uint64_t mg = 0, mp = 0, mm = 0, mt = 0;
    bool anyp = false, anym = false;
    for (size_t b = 0; b < t->nbatches; b++) {
        const tracedit_batch *bt = &t->batches[b];
        if (is_body(bt) && bt->m != NO_ID) {
            anym = true;
            if (bt->m > mm)
                mm = bt->m;
        }
        for (size_t i = 0; i < bt->nev; i++) {
            const tracedit_event *e = &t->events[bt->evs[i]];
            const uint64_t *a = t->vals + e->args;
            for (uint32_t k = 0; k < e->nargs && k < GTR_MAX_SPEC_ARGS; k++) {
                if (a[k] == NO_ID)
                    continue;
                switch (gtr__fs_classify(e->type, k)) {
                case A_G:
                    mg = a[k] > mg ? a[k] : mg;
                    break;
                case A_P:
                    anyp = true;
                    mp = a[k] > mp ? a[k] : mp;
                    break;
                case A_M:
                    anym = true;
                    mm = a[k] > mm ? a[k] : mm;
                    break;
                case A_TASK:
                    mt = a[k] > mt ? a[k] : mt;
                    break;
                default:
                    break;
                }
            }
        }
    }
    s->off_g = mg;
    s->off_p = anyp ? mp + 1 : 0;
    s->off_m = anym ? mm + 1 : 0;
    s->off_task = mt;
}

bool gtr__fs_splice(tracedit_trace *t, tracedit_trace *model, gtr_buf *scratch, uint64_t seed,
                    size_t max_size, const char **kind)
{
    splicer s;
    segs ts = {0}, us = {0};
    const char *k = "splice";
    bool ok = false;
    memset(&s, 0, sizeof s);
    s.rng = seed;
    s.t = t;
    s.u = model;
    if (!t->has_header || max_size == 0)
        return false;
    if (!model_trace(&s, (gtr_go_version)t->version, max_size, scratch) ||
        tracedit_decode(model, (const uint8_t *)scratch->data, scratch->len, NULL) != GTR_OK ||
        !model->has_header || model->version != t->version || !find_segs(model, &us) ||
        us.n == 0 || !find_segs(t, &ts))
        goto done;
    input_maxima(&s);
    s.remap = below(&s, 8) != 0;
    bool consistent = s.remap && below(&s, 4) != 0;
    s.strip_gc = consistent;
    if (!s.remap)
        s.off_m = 0;
    if (ts.n > 0 && below(&s, 2))
        ok = splice_batches(&s, &ts, &us, consistent, &k);
    else
        ok = splice_gen(&s, &ts, &us, consistent, &k);
done:
    if (kind != NULL)
        *kind = k;
    free(ts.v);
    free(us.v);
    free(s.args);
    free(s.strs.v);
    free(s.stks.v);
    return ok && !s.nomem;
}
