/* SPDX-License-Identifier: BSD-3-Clause */
/* ops_values.c: the mutator's operators on argument values (mutator.h): a value or task
 * argument from the dictionary or at a boundary (arg_value), any argument at a boundary
 * (arg_boundary), from the dictionary ±1 (arg_dict) or through the byte mutator (arg_cmp), an
 * ID argument pointing at another defined goroutine, proc or thread (arg_xref), a status one
 * off (status), a time delta changed (dt). */
#include <stddef.h>
#include <stdint.h>

#include "mutator.h"

static bool p_value(const tracedit_event *e)
{
    return gtr__fs_find_arg(e, A_VALUE, NULL) || gtr__fs_find_arg(e, A_TASK, NULL);
}

static bool p_any_arg(const tracedit_event *e)
{
    return e->nargs > 0;
}

/* pick_any_arg: one argument (stack frame values included) of a random event with any;
 * NULL when no event has one. */
static uint64_t *pick_any_arg(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    if (!gtr__fs_pick_event(m, p_any_arg, &p))
        return NULL;
    const tracedit_event *e = &t->events[gtr__fs_ev_at(t, p)];
    return t->vals + e->args + below(m, e->nargs);
}

static bool p_id_ref(const tracedit_event *e)
{
    return gtr__fs_find_arg(e, A_G, NULL) || gtr__fs_find_arg(e, A_P, NULL) ||
           gtr__fs_find_arg(e, A_M, NULL);
}

static bool p_status(const tracedit_event *e)
{
    return gtr__fs_find_arg(e, A_STATUS, NULL);
}

static bool p_timed(const tracedit_event *e)
{
    return gtr_spec(e->type)->is_timed && e->nargs >= 1;
}

/* A value or task argument: a dictionary value (half of the time, when there is a
 * dictionary) or a boundary value derived from it. */
bool gtr__fs_op_arg_value(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    uint32_t k = 0;
    if (!gtr__fs_pick_event(m, p_value, &p))
        return false;
    const tracedit_event *e = &t->events[gtr__fs_ev_at(t, p)];
    if (!gtr__fs_find_arg(e, A_VALUE, &k) && !gtr__fs_find_arg(e, A_TASK, &k))
        return false;
    uint64_t *a = t->vals + e->args;
    a[k] = (below(m, 2) && m->opt.nvalues) ? m->values[below(m, m->opt.nvalues)]
                                            : gtr__fs_boundary(m, a[k]);
    return true;
}

/* Any spec argument: a boundary value derived from it. */
bool gtr__fs_op_arg_boundary(gtr_fs_mutator *m)
{
    uint64_t *a = pick_any_arg(m);
    if (a == NULL)
        return false;
    *a = gtr__fs_boundary(m, *a);
    return true;
}

/* A goroutine, proc or thread argument: an ID of that kind the trace uses elsewhere. */
bool gtr__fs_op_arg_xref(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    uint32_t k = 0;
    if (!gtr__fs_pick_event(m, p_id_ref, &p))
        return false;
    const tracedit_event *e = &t->events[gtr__fs_ev_at(t, p)];
    for (int tries = 0; tries < 32; tries++) {
        k = (uint32_t)below(m, e->nargs < GTR_MAX_SPEC_ARGS ? e->nargs : GTR_MAX_SPEC_ARGS);
        enum gtr__fs_arg_class cl = gtr__fs_classify(e->type, k);
        int set = cl == A_G ? SET_G : cl == A_P ? SET_P : cl == A_M ? SET_M : -1;
        if (set < 0)
            continue;
        t->vals[e->args + k] = gtr__fs_pick_id(m, set, 0);
        return true;
    }
    return false;
}

/* Any spec argument: a dictionary value, or one of its neighbours. */
bool gtr__fs_op_arg_dict(gtr_fs_mutator *m)
{
    uint64_t *a = m->opt.nvalues > 0 ? pick_any_arg(m) : NULL;
    if (a == NULL)
        return false;
    uint64_t v = m->values[below(m, m->opt.nvalues)];
    *a = v + below(m, 3) - 1;
    return true;
}

/* Value-level byte mutation: an argument (any, stack frame values included) as an
 * 8-byte little-endian buffer through the byte mutator. With libFuzzer's
 * LLVMFuzzerMutate, its comparison feedback (TORC) and dictionaries act on the decoded
 * value, which they cannot do on the varint bytes. */
bool gtr__fs_op_arg_cmp(gtr_fs_mutator *m)
{
    uint64_t *a = pick_any_arg(m);
    if (a == NULL)
        return false;
    uint8_t buf[8];
    for (int i = 0; i < 8; i++)
        buf[i] = (uint8_t)(*a >> (8 * i));
    size_t n = gtr__fs_byte_mutate(m, buf, 8, 8);
    uint64_t v = 0;
    for (size_t i = 0; i < n && i < 8; i++)
        v |= (uint64_t)buf[i] << (8 * i);
    if (v == *a)
        return false;
    *a = v;
    return true;
}

/* A status argument: one more or one less. */
bool gtr__fs_op_status(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    uint32_t k = 0;
    if (!gtr__fs_pick_event(m, p_status, &p))
        return false;
    const tracedit_event *e = &t->events[gtr__fs_ev_at(t, p)];
    gtr__fs_find_arg(e, A_STATUS, &k);
    uint64_t *a = t->vals + e->args + k;
    *a = below(m, 2) ? *a + 1 : *a - 1;
    return true;
}

/* A time delta: zero, a little later, one less, or a boundary value. */
bool gtr__fs_op_dt(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    if (!gtr__fs_pick_event(m, p_timed, &p))
        return false;
    uint64_t *a = t->vals + t->events[gtr__fs_ev_at(t, p)].args;
    switch (below(m, 4)) {
    case 0:
        a[0] = 0;
        break;
    case 1:
        a[0] = a[0] + 1 + below(m, 100);
        break;
    case 2:
        a[0] = a[0] ? a[0] - 1 : 0;
        break;
    default:
        a[0] = gtr__fs_boundary(m, a[0]);
        break;
    }
    return true;
}
