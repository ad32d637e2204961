/* SPDX-License-Identifier: BSD-3-Clause */
/* mutate_pick.c: what the mutator's operators choose from (mutator.h): the IDs the trace
 * defines, events and batches drawn uniformly, boundary values, and the questions they ask
 * of an event or a batch. */
#include <stdlib.h>

#include "mutator.h"

static void idset_add(gtr__fs_idset *s, uint64_t x)
{
    if (s->n > 0 && s->v[s->n - 1] == x)
        return;
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 64;
        uint64_t *nv = realloc(s->v, nc * sizeof *nv);
        if (nv == NULL)
            return;
        s->v = nv;
        s->cap = nc;
    }
    s->v[s->n++] = x;
}

void gtr__fs_collect_ids(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    for (int i = 0; i < SET_NUM; i++)
        m->ids[i].n = 0;
    m->max_string = m->max_stack = 0;
    for (size_t b = 0; b < t->nbatches; b++) {
        const tracedit_batch *bt = &t->batches[b];
        if (bt->kind == GTR_EV_EVENT_BATCH)
            idset_add(&m->ids[SET_M], bt->m);
        for (size_t i = 0; i < bt->nev; i++) {
            const tracedit_event *e = &t->events[bt->evs[i]];
            const uint64_t *a = t->vals + e->args;
            if (e->type == GTR_EV_STRING && e->nargs >= 1) {
                idset_add(&m->ids[SET_STRING], a[0]);
                if (a[0] > m->max_string)
                    m->max_string = a[0];
                continue;
            }
            if (e->type == GTR_EV_STACK && e->nargs >= 2) {
                idset_add(&m->ids[SET_STACK], a[0]);
                if (a[0] > m->max_stack)
                    m->max_stack = a[0];
                continue;
            }
            for (uint32_t k = 0; k < e->nargs && k < GTR_MAX_SPEC_ARGS; k++) {
                switch (gtr__fs_classify(e->type, k)) {
                case A_G:
                    idset_add(&m->ids[SET_G], a[k]);
                    break;
                case A_P:
                    idset_add(&m->ids[SET_P], a[k]);
                    break;
                case A_M:
                    idset_add(&m->ids[SET_M], a[k]);
                    break;
                default:
                    break;
                }
            }
        }
    }
}

uint64_t gtr__fs_pick_id(gtr_fs_mutator *m, int set, uint64_t dflt)
{
    gtr__fs_idset *s = &m->ids[set];
    return s->n ? s->v[below(m, s->n)] : dflt;
}

bool gtr__fs_pick_event(gtr_fs_mutator *m, gtr__fs_event_pred pred, gtr__fs_pos *out)
{
    tracedit_trace *t = &m->t;
    size_t seen = 0;
    for (size_t b = 0; b < t->nbatches; b++) {
        const tracedit_batch *bt = &t->batches[b];
        for (size_t i = 0; i < bt->nev; i++) {
            if (pred != NULL && !pred(&t->events[bt->evs[i]]))
                continue;
            if (below(m, ++seen) == 0)
                *out = (gtr__fs_pos){b, i};
        }
    }
    return seen > 0;
}

bool gtr__fs_pick_batch(gtr_fs_mutator *m, bool (*pred)(const tracedit_trace *, size_t),
                        size_t *out)
{
    tracedit_trace *t = &m->t;
    size_t seen = 0;
    for (size_t b = 0; b < t->nbatches; b++) {
        if (pred != NULL && !pred(t, b))
            continue;
        if (below(m, ++seen) == 0)
            *out = b;
    }
    return seen > 0;
}

bool gtr__fs_is_body_batch(const tracedit_trace *t, size_t b)
{
    return t->batches[b].kind != GTR_EV_END_OF_GENERATION;
}

bool gtr__fs_find_arg(const tracedit_event *e, enum gtr__fs_arg_class c, uint32_t *k)
{
    for (uint32_t i = 0; i < e->nargs && i < GTR_MAX_SPEC_ARGS; i++) {
        if (gtr__fs_classify(e->type, i) == c) {
            if (k != NULL)
                *k = i;
            return true;
        }
    }
    return false;
}

uint64_t gtr__fs_boundary(gtr_fs_mutator *m, uint64_t v)
{
    switch (below(m, 12)) {
    case 0:
        return 0;
    case 1:
        return 1;
    case 2:
        return UINT64_MAX;               /* -1 as uint64 */
    case 3:
        return (uint64_t)INT64_MAX;
    case 4:
        return v + 1;
    case 5:
        return v - 1;
    case 6:
        return (uint64_t)1 << (7 * (1 + below(m, 9)));   /* varint length boundaries */
    case 7:
        return ((uint64_t)1 << (7 * (1 + below(m, 9)))) - 1;
    case 8:
        return UINT32_MAX;
    case 9:
        return (uint64_t)GTR_MAX_BATCH_SIZE + below(m, 3) - 1;
    case 10:
        return v + below(m, 16);
    default: {
        uint64_t bits = rnd(m);
        return bits >> below(m, 64);
    }
    }
}

bool gtr__fs_is_marker(uint8_t type)
{
    return type == GTR_EV_STRINGS || type == GTR_EV_STACKS || type == GTR_EV_CPU_SAMPLES ||
           type == GTR_EV_SYNC || type == GTR_EV_FREQUENCY;
}

bool gtr__fs_batch_first_type(const tracedit_trace *t, size_t b, uint8_t *type)
{
    const tracedit_batch *bt = &t->batches[b];
    if (bt->nev == 0)
        return false;
    *type = t->events[bt->evs[0]].type;
    return true;
}
