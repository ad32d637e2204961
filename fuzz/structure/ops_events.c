/* SPDX-License-Identifier: BSD-3-Clause */
/* ops_events.c: the mutator's operators on events (mutator.h): delete, insert a copy
 * anywhere, duplicate in place, swap, move, make a new one of a random type, copy or move one
 * across a generation boundary. They break sequencing and state more often than not. */
#include <stddef.h>
#include <stdint.h>

#include "mutator.h"

/* Delete an event. */
bool gtr__fs_op_delete_event(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    if (!gtr__fs_pick_event(m, NULL, &p))
        return false;
    tracedit_batch_remove(t, p.b, p.i);
    return true;
}

/* Insert a copy of an event anywhere in a body batch. */
bool gtr__fs_op_insert_event(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    size_t b = 0;
    uint32_t idx = 0;
    if (!gtr__fs_pick_event(m, NULL, &p) || !gtr__fs_pick_batch(m, gtr__fs_is_body_batch, &b))
        return false;
    if (tracedit_dup_event(t, gtr__fs_ev_at(t, p), &idx) != GTR_OK)
        return false;
    return tracedit_batch_insert(t, b, below(m, t->batches[b].nev + 1), idx) == GTR_OK;
}

/* Duplicate an event in place. */
bool gtr__fs_op_dup_event(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    uint32_t idx = 0;
    if (!gtr__fs_pick_event(m, NULL, &p) ||
        tracedit_dup_event(t, gtr__fs_ev_at(t, p), &idx) != GTR_OK)
        return false;
    return tracedit_batch_insert(t, p.b, p.i + 1, idx) == GTR_OK;
}

/* Swap two events (half of the time, an event with the next one of its batch). */
bool gtr__fs_op_swap_events(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0}, q = {0, 0};
    if (!gtr__fs_pick_event(m, NULL, &p) || !gtr__fs_pick_event(m, NULL, &q))
        return false;
    if (below(m, 2) && p.i + 1 < t->batches[p.b].nev)
        q = (gtr__fs_pos){p.b, p.i + 1};
    uint32_t tmp = t->batches[p.b].evs[p.i];
    t->batches[p.b].evs[p.i] = t->batches[q.b].evs[q.i];
    t->batches[q.b].evs[q.i] = tmp;
    return true;
}

/* Move an event anywhere in a body batch. */
bool gtr__fs_op_move_event(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    size_t b = 0;
    if (!gtr__fs_pick_event(m, NULL, &p) || !gtr__fs_pick_batch(m, gtr__fs_is_body_batch, &b))
        return false;
    uint32_t ev = gtr__fs_ev_at(t, p);
    tracedit_batch_remove(t, p.b, p.i);
    return tracedit_batch_insert(t, b, below(m, t->batches[b].nev + 1), ev) == GTR_OK;
}

/* A new event of a random type of the trace's version (no stack or data events), its
 * arguments drawn from the IDs the trace uses, in a body batch. */
bool gtr__fs_op_new_event(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    size_t b = 0;
    uint32_t idx = 0;
    if (!gtr__fs_pick_batch(m, gtr__fs_is_body_batch, &b))
        return false;
    size_t ns = gtr_go_version_nspecs(t->version);
    uint8_t type = (uint8_t)(1 + below(m, ns > 1 ? ns - 1 : 1));
    const gtr_event_spec *sp = gtr_spec(type);
    if (sp->name == NULL || sp->is_stack || sp->has_data)
        return false;
    uint64_t args[GTR_MAX_SPEC_ARGS];
    for (uint32_t i = 0; i < sp->nargs; i++) {
        switch (gtr__fs_classify(type, i)) {
        case A_DT:
            args[i] = below(m, 16);
            break;
        case A_G:
            args[i] = gtr__fs_pick_id(m, SET_G, 1);
            break;
        case A_P:
            args[i] = gtr__fs_pick_id(m, SET_P, 0);
            break;
        case A_M:
            args[i] = gtr__fs_pick_id(m, SET_M, 0);
            break;
        case A_STRING:
            args[i] = gtr__fs_pick_id(m, SET_STRING, 0);
            break;
        case A_STACK:
            args[i] = gtr__fs_pick_id(m, SET_STACK, 0);
            break;
        case A_STATUS:
            args[i] = below(m, 6);
            break;
        default:
            args[i] = below(m, 4);
            break;
        }
    }
    if (tracedit_add_event(t, type, args, sp->nargs, false, NULL, 0, &idx) != GTR_OK)
        return false;
    return tracedit_batch_insert(t, b, below(m, t->batches[b].nev + 1), idx) == GTR_OK;
}

/* Copy or move an event across a generation boundary, into the batch of the same
 * kind (same M, or the table batch of the same marker) of the generation before or
 * after it, at the same relative position. */
bool gtr__fs_op_xgen_event(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    size_t b = 0;
    uint32_t idx = 0;
    if (!gtr__fs_pick_event(m, NULL, &p))
        return false;
    uint32_t ev = gtr__fs_ev_at(t, p);
    uint8_t type = t->events[ev].type, first = 0;
    if (gtr__fs_is_marker(type))
        return false;
    gtr__fs_batch_first_type(t, p.b, &first);
    const tracedit_batch *sb = &t->batches[p.b];
    uint64_t tgen = sb->gen + (below(m, 2) ? 1 : (uint64_t)-1);
    size_t seen = 0, fallback = SIZE_MAX;
    for (size_t i = 0; i < t->nbatches; i++) {
        const tracedit_batch *x = &t->batches[i];
        uint8_t xf = 0;
        if (x->kind != sb->kind || x->gen != tgen)
            continue;
        gtr__fs_batch_first_type(t, i, &xf);
        if (gtr__fs_is_marker(first) ? xf != first : gtr__fs_is_marker(xf))
            continue;
        fallback = i;
        if (!gtr__fs_is_marker(first) && x->m != sb->m)
            continue;
        if (below(m, ++seen) == 0)
            b = i;
    }
    if (seen == 0) {
        if (fallback == SIZE_MAX)
            return false;
        b = fallback;
    }
    size_t at = sb->nev > 0 ? p.i * (t->batches[b].nev + 1) / sb->nev : 0;
    if (gtr__fs_is_marker(first) && at == 0)
        at = 1;
    if (at > t->batches[b].nev)
        at = t->batches[b].nev;
    if (below(m, 2)) {
        if (tracedit_dup_event(t, ev, &idx) != GTR_OK)
            return false;
        ev = idx;
    } else {
        tracedit_batch_remove(t, p.b, p.i);
    }
    return tracedit_batch_insert(t, b, at, ev) == GTR_OK;
}
