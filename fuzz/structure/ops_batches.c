/* SPDX-License-Identifier: BSD-3-Clause */
/* ops_batches.c: the mutator's operators on batches and generations (mutator.h): move a
 * batch within its generation, split one, merge two, change a batch's generation, M or base
 * time (gen, batch_m, skew), duplicate or delete a batch, delete a generation; and the two
 * that act on the trace as a whole: cut the encoded trace short (truncate) and splice in the
 * scheduler model's output (splice, splice.c). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mutator.h"
#include "splice.h"

/* gen_segment finds the run of body batches around b that belong to b's generation. */
static void gen_segment(const tracedit_trace *t, size_t b, size_t *lo, size_t *hi)
{
    uint64_t g = t->batches[b].gen;
    size_t l = b, h = b + 1;
    while (l > 0 && gtr__fs_is_body_batch(t, l - 1) && t->batches[l - 1].gen == g)
        l--;
    while (h < t->nbatches && gtr__fs_is_body_batch(t, h) && t->batches[h].gen == g)
        h++;
    *lo = l;
    *hi = h;
}

static void move_batch(tracedit_trace *t, size_t from, size_t to)
{
    tracedit_batch tmp = t->batches[from];
    if (from < to)
        memmove(t->batches + from, t->batches + from + 1, (to - from) * sizeof tmp);
    else
        memmove(t->batches + to + 1, t->batches + to, (from - to) * sizeof tmp);
    t->batches[to] = tmp;
}

/* dt_sum: the sum of the time deltas of events [0, n) of batch b. */
static uint64_t dt_sum(const tracedit_trace *t, size_t b, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) {
        const tracedit_event *e = &t->events[t->batches[b].evs[i]];
        if (gtr_spec(e->type)->is_timed && e->nargs >= 1)
            s += t->vals[e->args];
    }
    return s;
}

/* Move a batch to another place among its generation's batches. */
bool gtr__fs_op_move_batch(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    size_t b = 0, c = 0, lo, hi;
    if (!gtr__fs_pick_batch(m, gtr__fs_is_body_batch, &b))
        return false;
    gen_segment(t, b, &lo, &hi);
    if (hi - lo < 2)
        return false;
    c = lo + below(m, hi - lo);
    if (c == b)
        return false;
    move_batch(t, b, c);
    return true;
}

/* Split a batch in two (the second starts with a copy of a table marker; its base time
 * moved by the deltas before the cut). */
bool gtr__fs_op_split_batch(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    size_t b = 0;
    uint32_t idx = 0;
    if (!gtr__fs_pick_batch(m, gtr__fs_is_body_batch, &b) || t->batches[b].nev < 2)
        return false;
    uint8_t first = 0;
    gtr__fs_batch_first_type(t, b, &first);
    if (first == GTR_EV_SYNC || first == GTR_EV_FREQUENCY)
        return false;
    bool marker = gtr__fs_is_marker(first);
    size_t at = 1 + below(m, t->batches[b].nev - 1);
    tracedit_batch tmpl = t->batches[b];
    tmpl.time += dt_sum(t, b, at);
    if (tracedit_insert_batch(t, b + 1, &tmpl) != GTR_OK)
        return false;
    if (marker) {
        if (tracedit_dup_event(t, t->batches[b].evs[0], &idx) != GTR_OK ||
            tracedit_batch_insert(t, b + 1, 0, idx) != GTR_OK)
            return false;
    }
    while (t->batches[b].nev > at) {
        uint32_t ev = t->batches[b].evs[at];
        tracedit_batch_remove(t, b, at);
        if (tracedit_batch_insert(t, b + 1, t->batches[b + 1].nev, ev) != GTR_OK)
            return false;
    }
    t->batches[b + 1].tail = t->batches[b].tail;
    t->batches[b + 1].tail_len = t->batches[b].tail_len;
    t->batches[b].tail_len = 0;
    return true;
}

/* Merge a batch with the next when both are of one kind, generation and M (the second
 * one's base time turned into a delta; one table marker kept). */
bool gtr__fs_op_merge_batch(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    size_t b = 0;
    if (!gtr__fs_pick_batch(m, gtr__fs_is_body_batch, &b) || b + 1 >= t->nbatches)
        return false;
    tracedit_batch *x = &t->batches[b], *y = &t->batches[b + 1];
    uint8_t fx, fy;
    if (y->kind != x->kind || y->gen != x->gen || y->m != x->m || x->tail_len != 0 ||
        !gtr__fs_batch_first_type(t, b, &fx) || !gtr__fs_batch_first_type(t, b + 1, &fy))
        return false;
    size_t skip = 0;
    if (gtr__fs_is_marker(fx) || gtr__fs_is_marker(fy)) {
        if (fx != fy || fx == GTR_EV_SYNC || fx == GTR_EV_FREQUENCY)
            return false;
        skip = 1;   /* drop y's marker */
    } else {
        uint64_t end = x->time + dt_sum(t, b, x->nev);
        const tracedit_event *e = &t->events[y->evs[0]];
        if (y->time < end || !gtr_spec(e->type)->is_timed || e->nargs < 1)
            return false;
        t->vals[e->args] += y->time - end;
    }
    for (size_t i = skip; i < t->batches[b + 1].nev; i++)
        if (tracedit_batch_insert(t, b, t->batches[b].nev, t->batches[b + 1].evs[i]) != GTR_OK)
            return false;
    t->batches[b].tail = t->batches[b + 1].tail;
    t->batches[b].tail_len = t->batches[b + 1].tail_len;
    tracedit_remove_batch(t, b + 1);
    return true;
}

/* A batch's generation number: one more or one less. */
bool gtr__fs_op_gen(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    size_t b = 0;
    if (!gtr__fs_pick_batch(m, gtr__fs_is_body_batch, &b))
        return false;
    t->batches[b].gen += below(m, 2) ? 1 : (uint64_t)-1;
    return true;
}

/* A batch's M: another M of the trace or a boundary value. */
bool gtr__fs_op_batch_m(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    size_t b = 0;
    if (!gtr__fs_pick_batch(m, gtr__fs_is_body_batch, &b))
        return false;
    t->batches[b].m =
        below(m, 4) ? gtr__fs_pick_id(m, SET_M, 0) : gtr__fs_boundary(m, t->batches[b].m);
    return true;
}

/* Duplicate a batch (with copies of its events) anywhere. */
bool gtr__fs_op_dup_batch(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    size_t b = 0, c = 0;
    uint32_t idx = 0;
    if (!gtr__fs_pick_batch(m, NULL, &b))
        return false;
    c = below(m, t->nbatches + 1);
    tracedit_batch tmpl = t->batches[b];
    if (tracedit_insert_batch(t, c, &tmpl) != GTR_OK)
        return false;
    size_t src = c <= b ? b + 1 : b;
    for (size_t i = 0; i < t->batches[src].nev; i++) {
        if (tracedit_dup_event(t, t->batches[src].evs[i], &idx) != GTR_OK ||
            tracedit_batch_insert(t, c, i, idx) != GTR_OK)
            return false;
    }
    return true;
}

/* Delete a batch. */
bool gtr__fs_op_delete_batch(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    size_t b = 0;
    if (!gtr__fs_pick_batch(m, NULL, &b))
        return false;
    tracedit_remove_batch(t, b);
    return true;
}

/* Delete a whole generation (with its EndOfGeneration marker). */
bool gtr__fs_op_delete_gen(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    size_t b = 0, lo, hi;
    if (!gtr__fs_pick_batch(m, gtr__fs_is_body_batch, &b))
        return false;
    gen_segment(t, b, &lo, &hi);
    if (hi < t->nbatches && !gtr__fs_is_body_batch(t, hi))
        hi++;   /* its EndOfGeneration too */
    while (hi > lo)
        tracedit_remove_batch(t, --hi);
    return true;
}

/* Clock skew between threads: one batch's base time moves, below or above its own or
 * onto another batch's. The runtime's per-thread clocks disagree in real traces, and
 * the reader must then order by state, not by time (the syscall-steal and the
 * cross-generation sequence bugs of Go's history hide there). */
bool gtr__fs_op_skew(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    size_t b = 0, c = 0;
    if (!gtr__fs_pick_batch(m, gtr__fs_is_body_batch, &b))
        return false;
    uint64_t t0 = t->batches[b].time;
    switch (below(m, 3)) {
    case 0:
        t->batches[b].time = t0 > 0 ? t0 - 1 - below(m, t0 < 64 ? t0 : 64) : 0;
        break;
    case 1:
        t->batches[b].time = t0 + 1 + below(m, 64);
        break;
    default:
        if (gtr__fs_pick_batch(m, gtr__fs_is_body_batch, &c))
            t->batches[b].time = t->batches[c].time;
        break;
    }
    return true;
}

/* Cut the encoded trace at a random byte (a trace cut short by a crash): applied by
 * emit, after every length has been recomputed. */
bool gtr__fs_op_truncate(gtr_fs_mutator *m)
{
    m->cut = 1 + below(m, 1u << 16);
    return true;
}

/* A model generation or model batches (splice.c); m->t2 and m->out as scratch. */
bool gtr__fs_op_splice(gtr_fs_mutator *m)
{
    return gtr__fs_splice(&m->t, &m->t2, &m->out, rnd(m), m->max_size, NULL);
}
