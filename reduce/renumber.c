/* SPDX-License-Identifier: BSD-3-Clause */
/* renumber.c: a trace's IDs renumbered small, one kind of ID at a time (goroutines, procs,
 * threads, strings, stacks, tasks), each as one candidate.
 *
 * Value shrinking (ddmin.c) lowers one argument at a time, which cannot move an ID that
 * several events share: every event naming goroutine 3444 must name the same new ID at once.
 * Here each kind's IDs in use map, in their order, onto 1, 2, 3...: the same IDs stay the
 * same, different ones stay different, and an ID of 0 or a sentinel (NoThread, NoGoroutine:
 * the top of the range) stays as it is, since Go reads those as no ID at all. A fixture
 * then names goroutine 1 where its input named goroutine 3444. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "gtr/spec.h"

typedef enum id_kind {
    ID_GOROUTINE,
    ID_PROC,
    ID_THREAD,
    ID_STRING,
    ID_STACK,
    ID_TASK,
    ID_KINDS
} id_kind;

/* Values from here up are sentinels (NoThread, NoGoroutine and NoProc are all ones). */
#define SENTINEL_FLOOR (UINT64_C(1) << 62)

static bool is_renumbered(uint64_t v)
{
    return v != 0 && v < SENTINEL_FLOOR;
}

/* kind_of: the kind of ID argument a of an event of type `type` names; ID_KINDS: none. */
static id_kind kind_of(uint8_t type, const gtr_event_spec *spec, uint32_t a)
{
    for (unsigned i = 0; i < spec->nstring_ids; i++)
        if (spec->string_ids[i] == a)
            return ID_STRING;
    for (unsigned i = 0; i < spec->nstack_ids; i++)
        if (spec->stack_ids[i] == a)
            return ID_STACK;
    if (a == 0 && type == GTR_EV_STRING)
        return ID_STRING;
    if (a == 0 && type == GTR_EV_STACK)
        return ID_STACK;
    const char *name = spec->args[a];
    if (name == NULL)
        return ID_KINDS;
    if (strcmp(name, "g") == 0 || strcmp(name, "new_g") == 0)
        return ID_GOROUTINE;
    if (strcmp(name, "p") == 0)
        return ID_PROC;
    if (strcmp(name, "m") == 0)
        return ID_THREAD;
    if (strcmp(name, "task") == 0 || strcmp(name, "parent_task") == 0)
        return ID_TASK;
    return ID_KINDS;
}

typedef void (*id_visit)(uint64_t *id, void *ctx);

/* each_id calls visit on every ID of kind k in t: arguments, a body batch's thread, and for
 * strings the function and file names of stack frames. */
static void each_id(tracedit_trace *t, id_kind k, id_visit visit, void *ctx)
{
    for (size_t b = 0; b < t->nbatches; b++) {
        tracedit_batch *x = &t->batches[b];
        if (x->kind == GTR_EV_END_OF_GENERATION)
            continue;
        if (k == ID_THREAD)
            visit(&x->m, ctx);
        for (size_t i = 0; i < x->nev; i++) {
            const tracedit_event *e = &t->events[x->evs[i]];
            const gtr_event_spec *spec = gtr_spec(e->type);
            uint64_t *args = t->vals + e->args;
            for (uint32_t a = 0; a < spec->nargs && a < e->nargs; a++)
                if (kind_of(e->type, spec, a) == k)
                    visit(&args[a], ctx);
            if (spec->is_stack && k == ID_STRING && e->nargs >= 2)
                for (uint32_t f = 2; f + 4 <= e->nargs; f += 4) {
                    visit(&args[f + 1], ctx);   /* the function's name */
                    visit(&args[f + 2], ctx);   /* the file's name */
                }
        }
    }
}

typedef struct id_set {
    uint64_t *v;
    size_t n, cap;
    bool oom;
} id_set;

static void collect(uint64_t *id, void *ctx)
{
    id_set *s = ctx;
    if (!is_renumbered(*id) || s->oom)
        return;
    if (s->n == s->cap) {
        size_t ncap = s->cap > 0 ? s->cap * 2 : 64;
        uint64_t *nv = realloc(s->v, ncap * sizeof *nv);
        if (nv == NULL) {
            s->oom = true;
            return;
        }
        s->v = nv;
        s->cap = ncap;
    }
    s->v[s->n++] = *id;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* rename: an ID becomes its rank among the distinct IDs in use, from 1. */
static void rename_id(uint64_t *id, void *ctx)
{
    const id_set *s = ctx;
    if (!is_renumbered(*id))
        return;
    const uint64_t *hit = bsearch(id, s->v, s->n, sizeof *s->v, by_value);
    if (hit != NULL)
        *id = (uint64_t)(hit - s->v) + 1;
}

bool reduce__renumber(reducer *r)
{
    bool any = false;
    for (id_kind k = 0; k < ID_KINDS && !r->halt; k++) {
        id_set s = {0};
        each_id(&r->cur, k, collect, &s);
        if (s.oom) {
            free(s.v);
            r->oom = r->halt = true;
            break;
        }
        if (s.n == 0) {
            free(s.v);
            continue;
        }
        qsort(s.v, s.n, sizeof *s.v, by_value);
        size_t w = 0;
        for (size_t i = 0; i < s.n; i++)
            if (w == 0 || s.v[w - 1] != s.v[i])
                s.v[w++] = s.v[i];
        s.n = w;
        /* Already 1..n: nothing to rename. */
        bool small = s.v[s.n - 1] == s.n;
        if (!small && reduce__start_cand(r)) {
            each_id(&r->cand, k, rename_id, &s);
            any |= reduce__try_cand(r);
        }
        free(s.v);
    }
    return any;
}
