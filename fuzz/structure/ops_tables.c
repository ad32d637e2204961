/* SPDX-License-Identifier: BSD-3-Clause */
/* ops_tables.c: the mutator's operators on the strings and stacks a generation defines
 * (mutator.h): references pointed at another string or stack of the generation (ref_string,
 * ref_stack) or at the edge of its table (ref_edge), fresh strings and stacks (new_string,
 * new_stack, deep_stack), a string's bytes (string_data), a frame's fields (frame), a stack
 * resized in place (stack_depth). */
#include <stdlib.h>
#include <string.h>

#include "mutator.h"

static bool p_string_ref(const tracedit_event *e)
{
    return gtr__fs_find_arg(e, A_STRING, NULL);
}

static bool p_stack_ref(const tracedit_event *e)
{
    return gtr__fs_find_arg(e, A_STACK, NULL);
}

static bool p_string(const tracedit_event *e)
{
    return e->type == GTR_EV_STRING;
}

static bool p_stack(const tracedit_event *e)
{
    return e->type == GTR_EV_STACK && e->nargs >= 2;
}

static bool p_stack_frames(const tracedit_event *e)
{
    return e->type == GTR_EV_STACK && e->nargs >= 6;
}

/* first_args: the indices of the event's first two spec arguments of class c, in ks;
 * returns how many there are (0 to 2). */
static uint32_t first_args(const tracedit_event *e, enum gtr__fs_arg_class c, uint32_t ks[2])
{
    uint32_t nk = 0;
    for (uint32_t i = 0; i < e->nargs && i < GTR_MAX_SPEC_ARGS; i++)
        if (gtr__fs_classify(e->type, i) == c && nk < 2)
            ks[nk++] = i;
    return nk;
}

/* gen_id picks the ID of a random `type` event (String or Stack) defined in generation gen
 * (IDs are per generation) and the batch that defines it, and gives the generation's largest
 * such ID; false when there is none. */
static bool gen_id(gtr_fs_mutator *m, uint64_t gen, uint8_t type, uint64_t *id, size_t *batch,
                   uint64_t *max_id)
{
    tracedit_trace *t = &m->t;
    size_t seen = 0;
    *max_id = 0;
    for (size_t b = 0; b < t->nbatches; b++) {
        const tracedit_batch *bt = &t->batches[b];
        if (bt->kind != GTR_EV_EVENT_BATCH || bt->gen != gen)
            continue;
        for (size_t i = 0; i < bt->nev; i++) {
            const tracedit_event *e = &t->events[bt->evs[i]];
            if (e->type != type || e->nargs < 1)
                continue;
            uint64_t v = t->vals[e->args];
            if (v > *max_id)
                *max_id = v;
            if (below(m, ++seen) == 0) {
                *id = v;
                *batch = b;
            }
        }
    }
    return seen > 0;
}

/* A string reference: another string of the event's generation (of any, when it has
 * none). */
bool gtr__fs_op_ref_string(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    size_t b = 0;
    if (!gtr__fs_pick_event(m, p_string_ref, &p) || m->ids[SET_STRING].n == 0)
        return false;
    const tracedit_event *e = &t->events[gtr__fs_ev_at(t, p)];
    uint32_t ks[2], nk = first_args(e, A_STRING, ks);
    uint64_t id = 0, max_id;
    /* A string of the event's own generation (IDs are per generation). */
    if (!gen_id(m, t->batches[p.b].gen, GTR_EV_STRING, &id, &b, &max_id))
        id = gtr__fs_pick_id(m, SET_STRING, 0);
    t->vals[e->args + ks[below(m, nk)]] = id;
    return true;
}

/* A stack reference: another stack of the event's generation (of any, when it has none);
 * one time in four 0, no stack. */
bool gtr__fs_op_ref_stack(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    size_t b = 0;
    if (!gtr__fs_pick_event(m, p_stack_ref, &p))
        return false;
    const tracedit_event *e = &t->events[gtr__fs_ev_at(t, p)];
    uint32_t ks[2], nk = first_args(e, A_STACK, ks);
    uint64_t id = 0, max_id;
    /* A stack of the event's own generation, or none. */
    if (below(m, 4) && !gen_id(m, t->batches[p.b].gen, GTR_EV_STACK, &id, &b, &max_id))
        id = gtr__fs_pick_id(m, SET_STACK, 0);
    t->vals[e->args + ks[below(m, nk)]] = id;
    return true;
}

/* A new stack with a boundary frame count in the event's generation, and an event of
 * that generation pointing at it. */
bool gtr__fs_op_deep_stack(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    size_t b = 0;
    uint32_t k = 0, idx = 0;
    static const uint32_t depths[] = {16, 32, 33, 64, 100, 101, 127, 128};
    if (!gtr__fs_pick_event(m, p_stack_ref, &p))
        return false;
    uint64_t src_id, max_id;
    if (!gen_id(m, t->batches[p.b].gen, GTR_EV_STACK, &src_id, &b, &max_id))
        return false;
    /* Frames to copy: those of the first Stack in batch b with any. */
    const uint64_t *src = NULL;
    uint32_t nfr = 0;
    for (size_t i = 0; i < t->batches[b].nev && nfr == 0; i++) {
        const tracedit_event *se = &t->events[t->batches[b].evs[i]];
        if (se->type == GTR_EV_STACK && se->nargs >= 6) {
            src = t->vals + se->args + 2;
            nfr = (se->nargs - 2) / 4;
        }
    }
    uint32_t want = depths[below(m, sizeof depths / sizeof depths[0])];
    uint64_t *args = malloc((2 + (size_t)want * 4) * sizeof *args);
    if (args == NULL)
        return false;
    args[0] = max_id + 1;
    args[1] = want;
    for (uint32_t f = 0; f < want; f++) {
        if (nfr > 0) {
            memcpy(args + 2 + f * 4, src + (f % nfr) * 4, 4 * sizeof *args);
            args[2 + f * 4] += f / nfr;   /* distinct PCs */
        } else {
            args[2 + f * 4] = 0x1000 + f;
            args[3 + f * 4] = args[4 + f * 4] = gtr__fs_pick_id(m, SET_STRING, 0);
            args[5 + f * 4] = f + 1;
        }
    }
    gtr_status st =
        tracedit_add_event(t, GTR_EV_STACK, args, 2 + want * 4, false, NULL, 0, &idx);
    free(args);
    if (st != GTR_OK || tracedit_batch_insert(t, b, t->batches[b].nev, idx) != GTR_OK)
        return false;
    const tracedit_event *e = &t->events[gtr__fs_ev_at(t, p)];
    if (!gtr__fs_find_arg(e, A_STACK, &k))
        return false;
    t->vals[e->args + k] = max_id + 1;
    return true;
}

/* A string's bytes: one appended, changed or made arbitrary, cut short, or a boundary
 * length. */
bool gtr__fs_op_string_data(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    if (!gtr__fs_pick_event(m, p_string, &p))
        return false;
    tracedit_event *e = &t->events[gtr__fs_ev_at(t, p)];
    uint8_t buf[520];
    size_t n = e->data_len < sizeof buf ? e->data_len : sizeof buf;
    memcpy(buf, t->bytes + e->data, n);
    switch (below(m, 5)) {
    case 4: { /* a boundary length: pad with the last character or cut */
        static const size_t lens[] = {0,   1,   63,  64,  65,  127, 128,
                                      129, 255, 256, 257, 511, 512, 513};
        size_t want = lens[below(m, sizeof lens / sizeof lens[0])];
        for (; n < want; n++)
            buf[n] = n > 0 ? buf[n - 1] : 'a';
        n = want;
        break;
    }
    case 0: /* append a character */
        if (n < sizeof buf)
            buf[n++] = (uint8_t)(' ' + below(m, 95));
        break;
    case 1: /* truncate */
        n = n ? below(m, n) : 0;
        break;
    case 2: /* change a character */
        if (n) {
            uint8_t c = (uint8_t)(' ' + below(m, 95));
            buf[below(m, n)] = c;
        }
        break;
    default: /* arbitrary byte */
        if (n) {
            uint8_t c = (uint8_t)rnd(m);
            buf[below(m, n)] = c;
        }
        break;
    }
    size_t off;
    if (tracedit_add_bytes(t, buf, n, &off) != GTR_OK)
        return false;
    e = &t->events[gtr__fs_ev_at(t, p)];
    e->data = off;
    e->data_len = n;
    return true;
}

/* A copy of a String event with a fresh ID (past the largest, now and then far past it),
 * just after it. */
bool gtr__fs_op_new_string(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    uint32_t idx = 0;
    if (!gtr__fs_pick_event(m, p_string, &p))
        return false;
    uint32_t src = gtr__fs_ev_at(t, p);
    uint64_t id = m->max_string + 1 + (below(m, 8) == 0 ? below(m, 1000) : 0);
    if (tracedit_dup_event(t, src, &idx) != GTR_OK)
        return false;
    t->vals[t->events[idx].args] = id;
    return tracedit_batch_insert(t, p.b, p.i + 1, idx) == GTR_OK;
}

/* A Stack event with a fresh ID after an existing one: none, one, one more or the limit
 * of frames (theirs, repeated), or as many. */
bool gtr__fs_op_new_stack(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    uint32_t idx = 0;
    if (!gtr__fs_pick_event(m, p_stack, &p))
        return false;
    uint32_t src = gtr__fs_ev_at(t, p);
    const tracedit_event *e = &t->events[src];
    uint32_t nfr = (e->nargs - 2) / 4, want;
    switch (below(m, 5)) {
    case 0:
        want = 0;
        break;
    case 1:
        want = 1;
        break;
    case 2:
        want = nfr + 1;
        break;
    case 3:
        want = (uint32_t)(GTR_MAX_FRAMES_PER_STACK - 1 + below(m, 3));
        break;
    default:
        want = nfr;
        break;
    }
    if (nfr == 0)
        want = 0;
    uint64_t *args = malloc((2 + (size_t)want * 4) * sizeof *args);
    if (args == NULL)
        return false;
    const uint64_t *sa = t->vals + e->args;
    args[0] = m->max_stack + 1;
    args[1] = want;
    for (uint32_t f = 0; f < want; f++)
        memcpy(args + 2 + f * 4, sa + 2 + (f % nfr) * 4, 4 * sizeof *args);
    gtr_status st =
        tracedit_add_event(t, GTR_EV_STACK, args, 2 + want * 4, false, NULL, 0, &idx);
    free(args);
    return st == GTR_OK && tracedit_batch_insert(t, p.b, p.i + 1, idx) == GTR_OK;
}

/* One field of a stack frame: its PC, func or file string, or line. */
bool gtr__fs_op_frame(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    if (!gtr__fs_pick_event(m, p_stack_frames, &p))
        return false;
    const tracedit_event *e = &t->events[gtr__fs_ev_at(t, p)];
    uint32_t f = (uint32_t)below(m, (e->nargs - 2) / 4);
    uint64_t *fr = t->vals + e->args + 2 + f * 4;
    switch (below(m, 4)) {
    case 0: /* pc */
        fr[0] = below(m, 2) ? fr[0] + 1 + below(m, 64) : gtr__fs_boundary(m, fr[0]);
        break;
    case 1: /* func */
        fr[1] = gtr__fs_pick_id(m, SET_STRING, fr[1]);
        break;
    case 2: /* file */
        fr[2] = gtr__fs_pick_id(m, SET_STRING, fr[2]);
        break;
    default: /* line */
        fr[3] = gtr__fs_boundary(m, fr[3]);
        break;
    }
    return true;
}

/* Resize a stack in place to a boundary frame count (the events that use it see it
 * change): one more or one fewer, doubled, a power of two and its neighbours, the
 * format's limit and its neighbours. Frames are repeated with distinct PCs. */
bool gtr__fs_op_stack_depth(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    if (!gtr__fs_pick_event(m, p_stack_frames, &p))
        return false;
    uint32_t src = gtr__fs_ev_at(t, p);
    const tracedit_event *e = &t->events[src];
    uint32_t nfr = (e->nargs - 2) / 4, want;
    switch (below(m, 4)) {
    case 0:
        want = below(m, 2) ? nfr + 1 : nfr - 1;
        break;
    case 1:
        want = 2 * nfr;
        break;
    case 2: {
        uint32_t p2 = 1u << (2 + below(m, 6));   /* 4 .. 128 */
        want = p2 + (uint32_t)below(m, 3) - 1;
        break;
    }
    default:
        want = (uint32_t)(GTR_MAX_FRAMES_PER_STACK - 1 + below(m, 3));
        break;
    }
    if (want == 0 || want == nfr || want > 4 * GTR_MAX_FRAMES_PER_STACK)
        return false;
    uint64_t *args = malloc((2 + (size_t)want * 4) * sizeof *args);
    if (args == NULL)
        return false;
    const uint64_t *sa = t->vals + e->args;
    args[0] = sa[0];
    args[1] = want;
    for (uint32_t f = 0; f < want; f++) {
        memcpy(args + 2 + f * 4, sa + 2 + (f % nfr) * 4, 4 * sizeof *args);
        args[2 + f * 4] += (uint64_t)(f / nfr) * 0x10000;   /* distinct PCs */
    }
    gtr_status st = tracedit_set_args(t, src, args, 2 + want * 4);
    free(args);
    return st == GTR_OK;
}

/* A reference at the edge of its generation's table: the last string or stack ID,
 * one past it, or the deepest stack; for a stack frame, its func or file string. */
bool gtr__fs_op_ref_edge(gtr_fs_mutator *m)
{
    tracedit_trace *t = &m->t;
    gtr__fs_pos p = {0, 0};
    size_t b = 0;
    uint32_t k = 0;
    uint64_t id = 0, max_id = 0;
    if (below(m, 2) && gtr__fs_pick_event(m, p_stack_frames, &p)) {
        const tracedit_event *e = &t->events[gtr__fs_ev_at(t, p)];
        if (!gen_id(m, t->batches[p.b].gen, GTR_EV_STRING, &id, &b, &max_id))
            return false;
        uint32_t f = (uint32_t)below(m, (e->nargs - 2) / 4);
        uint64_t *fr = t->vals + e->args + 2 + f * 4;
        uint64_t to = max_id + below(m, 2);
        fr[1 + below(m, 2)] = to;
        return true;
    }
    bool stack = below(m, 2);
    if (!gtr__fs_pick_event(m, stack ? p_stack_ref : p_string_ref, &p))
        return false;
    const tracedit_event *e = &t->events[gtr__fs_ev_at(t, p)];
    if (!gtr__fs_find_arg(e, stack ? A_STACK : A_STRING, &k))
        return false;
    uint64_t gen = t->batches[p.b].gen;
    if (!gen_id(m, gen, stack ? GTR_EV_STACK : GTR_EV_STRING, &id, &b, &max_id))
        return false;
    switch (below(m, stack ? 3 : 2)) {
    case 0:
        id = max_id;
        break;
    case 1:
        id = max_id + 1;
        break;
    default: { /* the deepest stack of the generation */
        uint32_t best = 0;
        for (size_t x = 0; x < t->nbatches; x++) {
            const tracedit_batch *bt = &t->batches[x];
            if (bt->kind != GTR_EV_EVENT_BATCH || bt->gen != gen)
                continue;
            for (size_t i = 0; i < bt->nev; i++) {
                const tracedit_event *se = &t->events[bt->evs[i]];
                if (se->type == GTR_EV_STACK && se->nargs >= 2 && se->nargs > best) {
                    best = se->nargs;
                    id = t->vals[se->args];
                }
            }
        }
        break;
    }
    }
    e = &t->events[gtr__fs_ev_at(t, p)];
    t->vals[e->args + k] = id;
    return true;
}
