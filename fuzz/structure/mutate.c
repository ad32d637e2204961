/* SPDX-License-Identifier: BSD-3-Clause */
/* mutate.c: the structure-aware mutator (fs/mutate.h).
 *
 * One call: decode the input into the model; if it has no v2 header (or by chance, with
 * probability byte_percent) do a plain byte mutation of the input; otherwise collect the
 * IDs the trace defines (strings, stacks, goroutines, procs, threads), pick one operator by
 * weight (sometimes two or three in a row), apply it, re-encode with all lengths recomputed,
 * and cut whole batches (then events, then bytes) until the result fits max_size.
 *
 * Operators that keep a valid trace valid most of the time (value arguments, references to
 * other defined strings and stacks, fresh strings and stacks, time deltas, moving, splitting
 * and merging batches) carry most of the weight; the operators that break sequencing or
 * state (event insertion, deletion, swaps, generation and status changes, boundary IDs) keep
 * the rest, and byte mutations a minority. The weights were tuned with
 * measure_valid_rate.c. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "rng.h"
#include "splice.h"
#include "tracedit.h"
#include "fs/mutate.h"

/* Operators: name and weight. */
#define OP_LIST(X)                 \
    X(ARG_VALUE, "arg_value", 6)   \
    X(REF_STRING, "ref_string", 7) \
    X(REF_STACK, "ref_stack", 8)   \
    X(DEEP_STACK, "deep_stack", 3) \
    X(STRING_DATA, "string_data", 6) \
    X(NEW_STRING, "new_string", 7) \
    X(NEW_STACK, "new_stack", 7)   \
    X(FRAME, "frame", 7)           \
    X(DT, "dt", 8)                 \
    X(MOVE_BATCH, "move_batch", 6) \
    X(SPLIT_BATCH, "split_batch", 5) \
    X(MERGE_BATCH, "merge_batch", 4) \
    X(DELETE_EVENT, "delete_event", 3) \
    X(INSERT_EVENT, "insert_event", 2) \
    X(DUP_EVENT, "dup_event", 2)   \
    X(SWAP_EVENTS, "swap_events", 2) \
    X(MOVE_EVENT, "move_event", 2) \
    X(NEW_EVENT, "new_event", 1)   \
    X(ARG_BOUNDARY, "arg_boundary", 2) \
    X(ARG_XREF, "arg_xref", 2)     \
    X(ARG_DICT, "arg_dict", 1)     \
    X(STATUS, "status", 1)         \
    X(GEN, "gen", 1)               \
    X(BATCH_M, "batch_m", 1)       \
    X(DUP_BATCH, "dup_batch", 1)   \
    X(DELETE_BATCH, "delete_batch", 1) \
    X(DELETE_GEN, "delete_gen", 1) \
    X(ARG_CMP, "arg_cmp", 5)       \
    X(STACK_DEPTH, "stack_depth", 3) \
    X(XGEN_EVENT, "xgen_event", 2) \
    X(REF_EDGE, "ref_edge", 2)     \
    X(TRUNCATE, "truncate", 1)     \
    X(SKEW, "skew", 3)             \
    X(SPLICE, "splice", 3)

#define OP_ENUM(id, name, w) OP_##id,
enum op { OP_LIST(OP_ENUM) OP_NUM, OP_BYTES = OP_NUM, OP_MULTI, OP_NAMES };
#undef OP_ENUM
#define OP_NAME(id, name, w) name,
static const char *const op_names[OP_NAMES] = {OP_LIST(OP_NAME) "bytes", "multi"};
#undef OP_NAME
#define OP_WEIGHT(id, name, w) w,
static const unsigned op_weights[OP_NUM] = {OP_LIST(OP_WEIGHT)};
#undef OP_WEIGHT

size_t gtr_fs_op_count(void)
{
    return OP_NAMES;
}

const char *gtr_fs_op_name(size_t i)
{
    return i < OP_NAMES ? op_names[i] : NULL;
}

/* A set of IDs seen in the trace (unsorted, duplicates dropped lazily by sampling). */
typedef struct idset {
    uint64_t *v;
    size_t n, cap;
} idset;

static void idset_add(idset *s, uint64_t x)
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

enum { SET_G, SET_P, SET_M, SET_STRING, SET_STACK, SET_NUM };

struct gtr_fs_mutator {
    gtr_fs_options opt;
    uint64_t *values;
    uint64_t rng;
    tracedit_trace t, t2;
    gtr_buf out;
    idset ids[SET_NUM];
    uint64_t max_string, max_stack;
    size_t cut;            /* OP_TRUNCATE: keep this many encoded bytes (0: all) */
    size_t max_size;       /* of the current call (OP_SPLICE caps the model's output) */
    unsigned weights[OP_NUM], total_weight;   /* op_weights, less those left out */
    const char *last_op;
};

gtr_fs_mutator *gtr_fs_mutator_new(const gtr_fs_options *opt)
{
    gtr_fs_mutator *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    if (opt != NULL)
        m->opt = *opt;
    if (m->opt.byte_percent == 0)
        m->opt.byte_percent = 12;
    if (m->opt.nvalues > 0) {
        m->values = malloc(m->opt.nvalues * sizeof *m->values);
        if (m->values == NULL) {
            free(m);
            return NULL;
        }
        memcpy(m->values, m->opt.values, m->opt.nvalues * sizeof *m->values);
    }
    m->opt.values = m->values;
    for (int i = 0; i < OP_NUM; i++) {
        m->weights[i] = i == OP_SPLICE && m->opt.no_splice ? 0 : op_weights[i];
        m->total_weight += m->weights[i];
    }
    m->last_op = "none";
    return m;
}

void gtr_fs_mutator_free(gtr_fs_mutator *m)
{
    if (m == NULL)
        return;
    tracedit_trace_free(&m->t);
    tracedit_trace_free(&m->t2);
    gtr_buf_free(&m->out);
    for (int i = 0; i < SET_NUM; i++)
        free(m->ids[i].v);
    free(m->values);
    free(m);
}

const char *gtr_fs_mutator_last_op(const gtr_fs_mutator *m)
{
    return m->last_op;
}

static uint64_t rnd(gtr_fs_mutator *m)
{
    return gtr__fs_splitmix(&m->rng);
}

/* below returns a uniform value in [0, n) (n > 0). */
static size_t below(gtr_fs_mutator *m, size_t n)
{
    return (size_t)(rnd(m) % n);
}

static uint64_t pick_id(gtr_fs_mutator *m, int set, uint64_t dflt)
{
    idset *s = &m->ids[set];
    return s->n ? s->v[below(m, s->n)] : dflt;
}

static void collect_ids(gtr_fs_mutator *m)
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

/* Locating things. An event position is (batch, index in batch). */
typedef struct pos {
    size_t b, i;
} pos;

/* pick_event picks a uniformly random event position satisfying pred (NULL: any) by
 * reservoir sampling. false when there is none. */
typedef bool (*event_pred)(const tracedit_trace *t, const tracedit_batch *b, const tracedit_event *e);

static bool pick_event(gtr_fs_mutator *m, event_pred pred, pos *out)
{
    tracedit_trace *t = &m->t;
    size_t seen = 0;
    for (size_t b = 0; b < t->nbatches; b++) {
        const tracedit_batch *bt = &t->batches[b];
        for (size_t i = 0; i < bt->nev; i++) {
            if (pred != NULL && !pred(t, bt, &t->events[bt->evs[i]]))
                continue;
            if (below(m, ++seen) == 0)
                *out = (pos){b, i};
        }
    }
    return seen > 0;
}

static bool pick_batch(gtr_fs_mutator *m, bool (*pred)(const tracedit_trace *, size_t), size_t *out)
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

static bool is_body_batch(const tracedit_trace *t, size_t b)
{
    return t->batches[b].kind != GTR_EV_END_OF_GENERATION;
}

static uint32_t ev_at(const tracedit_trace *t, pos p)
{
    return t->batches[p.b].evs[p.i];
}

/* has_arg_class: the event has a spec argument of class c; its index in *k. */
static bool find_arg(const tracedit_event *e, enum gtr__fs_arg_class c, uint32_t *k)
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

static bool p_value(const tracedit_trace *t, const tracedit_batch *b, const tracedit_event *e)
{
    (void)t, (void)b;
    return find_arg(e, A_VALUE, NULL) || find_arg(e, A_TASK, NULL);
}
static bool p_string_ref(const tracedit_trace *t, const tracedit_batch *b, const tracedit_event *e)
{
    (void)t, (void)b;
    return find_arg(e, A_STRING, NULL);
}
static bool p_stack_ref(const tracedit_trace *t, const tracedit_batch *b, const tracedit_event *e)
{
    (void)t, (void)b;
    return find_arg(e, A_STACK, NULL);
}
static bool p_string(const tracedit_trace *t, const tracedit_batch *b, const tracedit_event *e)
{
    (void)t, (void)b;
    return e->type == GTR_EV_STRING;
}
static bool p_stack(const tracedit_trace *t, const tracedit_batch *b, const tracedit_event *e)
{
    (void)t, (void)b;
    return e->type == GTR_EV_STACK && e->nargs >= 2;
}
static bool p_stack_frames(const tracedit_trace *t, const tracedit_batch *b, const tracedit_event *e)
{
    (void)t, (void)b;
    return e->type == GTR_EV_STACK && e->nargs >= 6;
}
static bool p_timed(const tracedit_trace *t, const tracedit_batch *b, const tracedit_event *e)
{
    (void)t, (void)b;
    return gtr_spec(e->type)->is_timed && e->nargs >= 1;
}
static bool p_status(const tracedit_trace *t, const tracedit_batch *b, const tracedit_event *e)
{
    (void)t, (void)b;
    return find_arg(e, A_STATUS, NULL);
}
static bool p_id_ref(const tracedit_trace *t, const tracedit_batch *b, const tracedit_event *e)
{
    (void)t, (void)b;
    return find_arg(e, A_G, NULL) || find_arg(e, A_P, NULL) || find_arg(e, A_M, NULL);
}
static bool p_any_arg(const tracedit_trace *t, const tracedit_batch *b, const tracedit_event *e)
{
    (void)t, (void)b;
    return e->nargs > 0;
}

/* boundary returns an interesting value derived from v. */
static uint64_t boundary(gtr_fs_mutator *m, uint64_t v)
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
    default:
        return rnd(m) >> below(m, 64);
    }
}

/* Sync-ish batches (frequency, clock snapshot, strings, stacks, CPU samples) begin with a
 * marker event that must stay first. */
static bool is_marker(uint8_t type)
{
    return type == GTR_EV_STRINGS || type == GTR_EV_STACKS || type == GTR_EV_CPU_SAMPLES ||
           type == GTR_EV_SYNC || type == GTR_EV_FREQUENCY;
}

static bool batch_first_type(const tracedit_trace *t, size_t b, uint8_t *type)
{
    const tracedit_batch *bt = &t->batches[b];
    if (bt->nev == 0)
        return false;
    *type = t->events[bt->evs[0]].type;
    return true;
}

/* gen_segment finds the run of body batches around b that belong to b's generation. */
static void gen_segment(const tracedit_trace *t, size_t b, size_t *lo, size_t *hi)
{
    uint64_t g = t->batches[b].gen;
    size_t l = b, h = b + 1;
    while (l > 0 && is_body_batch(t, l - 1) && t->batches[l - 1].gen == g)
        l--;
    while (h < t->nbatches && is_body_batch(t, h) && t->batches[h].gen == g)
        h++;
    *lo = l;
    *hi = h;
}

static gtr_status move_batch(tracedit_trace *t, size_t from, size_t to)
{
    tracedit_batch tmp = t->batches[from];
    if (from < to)
        memmove(t->batches + from, t->batches + from + 1, (to - from) * sizeof tmp);
    else
        memmove(t->batches + to + 1, t->batches + to, (from - to) * sizeof tmp);
    t->batches[to] = tmp;
    return GTR_OK;
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

/* gen_id picks the ID of a random `type` event (String or Stack) defined in generation gen
 * (IDs are per generation); false when there is none. */
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

static size_t byte_mutate(gtr_fs_mutator *m, uint8_t *d, size_t size, size_t max);

/* apply runs operator op on m->t. false: the operator did not apply (nothing changed). */
static bool apply(gtr_fs_mutator *m, enum op op)
{
    tracedit_trace *t = &m->t;
    pos p = {0, 0}, q = {0, 0};
    size_t b = 0, c = 0;
    uint32_t k = 0, idx = 0;

    switch (op) {
    case OP_ARG_VALUE: {
        if (!pick_event(m, p_value, &p))
            return false;
        const tracedit_event *e = &t->events[ev_at(t, p)];
        if (!find_arg(e, A_VALUE, &k) && !find_arg(e, A_TASK, &k))
            return false;
        uint64_t *a = t->vals + e->args;
        a[k] = (below(m, 2) && m->opt.nvalues) ? m->values[below(m, m->opt.nvalues)]
                                                : boundary(m, a[k]);
        return true;
    }
    case OP_REF_STRING: {
        if (!pick_event(m, p_string_ref, &p) || m->ids[SET_STRING].n == 0)
            return false;
        const tracedit_event *e = &t->events[ev_at(t, p)];
        uint32_t ks[2], nk = 0;
        uint64_t id = 0, max_id;
        for (uint32_t i = 0; i < e->nargs && i < GTR_MAX_SPEC_ARGS; i++)
            if (gtr__fs_classify(e->type, i) == A_STRING && nk < 2)
                ks[nk++] = i;
        /* A string of the event's own generation (IDs are per generation). */
        if (!gen_id(m, t->batches[p.b].gen, GTR_EV_STRING, &id, &b, &max_id))
            id = pick_id(m, SET_STRING, 0);
        t->vals[e->args + ks[below(m, nk)]] = id;
        return true;
    }
    case OP_REF_STACK: {
        if (!pick_event(m, p_stack_ref, &p))
            return false;
        const tracedit_event *e = &t->events[ev_at(t, p)];
        uint32_t ks[2], nk = 0;
        uint64_t id = 0, max_id;
        for (uint32_t i = 0; i < e->nargs && i < GTR_MAX_SPEC_ARGS; i++)
            if (gtr__fs_classify(e->type, i) == A_STACK && nk < 2)
                ks[nk++] = i;
        /* A stack of the event's own generation, or none. */
        if (below(m, 4) && !gen_id(m, t->batches[p.b].gen, GTR_EV_STACK, &id, &b, &max_id))
            id = pick_id(m, SET_STACK, 0);
        t->vals[e->args + ks[below(m, nk)]] = id;
        return true;
    }
    case OP_DEEP_STACK: {
        /* A new stack with a boundary frame count in the event's generation, and an event of
         * that generation pointing at it. */
        static const uint32_t depths[] = {16, 32, 33, 64, 100, 101, 127, 128};
        if (!pick_event(m, p_stack_ref, &p))
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
                args[3 + f * 4] = args[4 + f * 4] = pick_id(m, SET_STRING, 0);
                args[5 + f * 4] = f + 1;
            }
        }
        gtr_status st = tracedit_add_event(t, GTR_EV_STACK, args, 2 + want * 4, false, NULL, 0, &idx);
        free(args);
        if (st != GTR_OK || tracedit_batch_insert(t, b, t->batches[b].nev, idx) != GTR_OK)
            return false;
        const tracedit_event *e = &t->events[ev_at(t, p)];
        if (!find_arg(e, A_STACK, &k))
            return false;
        t->vals[e->args + k] = max_id + 1;
        return true;
    }
    case OP_STRING_DATA: {
        if (!pick_event(m, p_string, &p))
            return false;
        tracedit_event *e = &t->events[ev_at(t, p)];
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
            if (n)
                buf[below(m, n)] = (uint8_t)(' ' + below(m, 95));
            break;
        default: /* arbitrary byte */
            if (n)
                buf[below(m, n)] = (uint8_t)rnd(m);
            break;
        }
        size_t off;
        if (tracedit_add_bytes(t, buf, n, &off) != GTR_OK)
            return false;
        e = &t->events[ev_at(t, p)];
        e->data = off;
        e->data_len = n;
        return true;
    }
    case OP_NEW_STRING: {
        if (!pick_event(m, p_string, &p))
            return false;
        uint32_t src = ev_at(t, p);
        uint64_t id = m->max_string + 1 + (below(m, 8) == 0 ? below(m, 1000) : 0);
        if (tracedit_dup_event(t, src, &idx) != GTR_OK)
            return false;
        t->vals[t->events[idx].args] = id;
        return tracedit_batch_insert(t, p.b, p.i + 1, idx) == GTR_OK;
    }
    case OP_NEW_STACK: {
        if (!pick_event(m, p_stack, &p))
            return false;
        uint32_t src = ev_at(t, p);
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
        gtr_status st = tracedit_add_event(t, GTR_EV_STACK, args, 2 + want * 4, false, NULL, 0, &idx);
        free(args);
        return st == GTR_OK && tracedit_batch_insert(t, p.b, p.i + 1, idx) == GTR_OK;
    }
    case OP_FRAME: {
        if (!pick_event(m, p_stack_frames, &p))
            return false;
        const tracedit_event *e = &t->events[ev_at(t, p)];
        uint32_t f = (uint32_t)below(m, (e->nargs - 2) / 4);
        uint64_t *fr = t->vals + e->args + 2 + f * 4;
        switch (below(m, 4)) {
        case 0: /* pc */
            fr[0] = below(m, 2) ? fr[0] + 1 + below(m, 64) : boundary(m, fr[0]);
            break;
        case 1: /* func */
            fr[1] = pick_id(m, SET_STRING, fr[1]);
            break;
        case 2: /* file */
            fr[2] = pick_id(m, SET_STRING, fr[2]);
            break;
        default: /* line */
            fr[3] = boundary(m, fr[3]);
            break;
        }
        return true;
    }
    case OP_DT: {
        if (!pick_event(m, p_timed, &p))
            return false;
        uint64_t *a = t->vals + t->events[ev_at(t, p)].args;
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
            a[0] = boundary(m, a[0]);
            break;
        }
        return true;
    }
    case OP_MOVE_BATCH: {
        size_t lo, hi;
        if (!pick_batch(m, is_body_batch, &b))
            return false;
        gen_segment(t, b, &lo, &hi);
        if (hi - lo < 2)
            return false;
        c = lo + below(m, hi - lo);
        return c != b && move_batch(t, b, c) == GTR_OK;
    }
    case OP_SPLIT_BATCH: {
        if (!pick_batch(m, is_body_batch, &b) || t->batches[b].nev < 2)
            return false;
        uint8_t first = 0;
        batch_first_type(t, b, &first);
        if (first == GTR_EV_SYNC || first == GTR_EV_FREQUENCY)
            return false;
        bool marker = is_marker(first);
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
    case OP_MERGE_BATCH: {
        if (!pick_batch(m, is_body_batch, &b) || b + 1 >= t->nbatches)
            return false;
        tracedit_batch *x = &t->batches[b], *y = &t->batches[b + 1];
        uint8_t fx, fy;
        if (y->kind != x->kind || y->gen != x->gen || y->m != x->m || x->tail_len != 0 ||
            !batch_first_type(t, b, &fx) || !batch_first_type(t, b + 1, &fy))
            return false;
        size_t skip = 0;
        if (is_marker(fx) || is_marker(fy)) {
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
    case OP_DELETE_EVENT:
        if (!pick_event(m, NULL, &p))
            return false;
        tracedit_batch_remove(t, p.b, p.i);
        return true;
    case OP_INSERT_EVENT:
        if (!pick_event(m, NULL, &p) || !pick_batch(m, is_body_batch, &b))
            return false;
        if (tracedit_dup_event(t, ev_at(t, p), &idx) != GTR_OK)
            return false;
        return tracedit_batch_insert(t, b, below(m, t->batches[b].nev + 1), idx) == GTR_OK;
    case OP_DUP_EVENT:
        if (!pick_event(m, NULL, &p) || tracedit_dup_event(t, ev_at(t, p), &idx) != GTR_OK)
            return false;
        return tracedit_batch_insert(t, p.b, p.i + 1, idx) == GTR_OK;
    case OP_SWAP_EVENTS: {
        if (!pick_event(m, NULL, &p) || !pick_event(m, NULL, &q))
            return false;
        if (below(m, 2) && p.i + 1 < t->batches[p.b].nev)
            q = (pos){p.b, p.i + 1};
        uint32_t tmp = t->batches[p.b].evs[p.i];
        t->batches[p.b].evs[p.i] = t->batches[q.b].evs[q.i];
        t->batches[q.b].evs[q.i] = tmp;
        return true;
    }
    case OP_MOVE_EVENT: {
        if (!pick_event(m, NULL, &p) || !pick_batch(m, is_body_batch, &b))
            return false;
        uint32_t ev = ev_at(t, p);
        tracedit_batch_remove(t, p.b, p.i);
        return tracedit_batch_insert(t, b, below(m, t->batches[b].nev + 1), ev) == GTR_OK;
    }
    case OP_NEW_EVENT: {
        if (!pick_batch(m, is_body_batch, &b))
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
                args[i] = pick_id(m, SET_G, 1);
                break;
            case A_P:
                args[i] = pick_id(m, SET_P, 0);
                break;
            case A_M:
                args[i] = pick_id(m, SET_M, 0);
                break;
            case A_STRING:
                args[i] = pick_id(m, SET_STRING, 0);
                break;
            case A_STACK:
                args[i] = pick_id(m, SET_STACK, 0);
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
    case OP_ARG_BOUNDARY: {
        if (!pick_event(m, p_any_arg, &p))
            return false;
        const tracedit_event *e = &t->events[ev_at(t, p)];
        uint64_t *a = t->vals + e->args + below(m, e->nargs);
        *a = boundary(m, *a);
        return true;
    }
    case OP_ARG_XREF: {
        if (!pick_event(m, p_id_ref, &p))
            return false;
        const tracedit_event *e = &t->events[ev_at(t, p)];
        for (int tries = 0; tries < 32; tries++) {
            k = (uint32_t)below(m, e->nargs < GTR_MAX_SPEC_ARGS ? e->nargs : GTR_MAX_SPEC_ARGS);
            enum gtr__fs_arg_class cl = gtr__fs_classify(e->type, k);
            int set = cl == A_G ? SET_G : cl == A_P ? SET_P : cl == A_M ? SET_M : -1;
            if (set < 0)
                continue;
            t->vals[e->args + k] = pick_id(m, set, 0);
            return true;
        }
        return false;
    }
    case OP_ARG_DICT: {
        if (m->opt.nvalues == 0 || !pick_event(m, p_any_arg, &p))
            return false;
        const tracedit_event *e = &t->events[ev_at(t, p)];
        uint64_t *a = t->vals + e->args + below(m, e->nargs);
        *a = m->values[below(m, m->opt.nvalues)] + below(m, 3) - 1;
        return true;
    }
    case OP_STATUS: {
        if (!pick_event(m, p_status, &p))
            return false;
        const tracedit_event *e = &t->events[ev_at(t, p)];
        find_arg(e, A_STATUS, &k);
        uint64_t *a = t->vals + e->args + k;
        *a = below(m, 2) ? *a + 1 : *a - 1;
        return true;
    }
    case OP_GEN: {
        if (!pick_batch(m, is_body_batch, &b))
            return false;
        t->batches[b].gen += below(m, 2) ? 1 : (uint64_t)-1;
        return true;
    }
    case OP_SKEW: {
        /* Clock skew between threads: one batch's base time moves, below or above its own or
         * onto another batch's. The runtime's per-thread clocks disagree in real traces, and
         * the reader must then order by state, not by time (the syscall-steal and the
         * cross-generation sequence bugs of Go's history hide there). */
        if (!pick_batch(m, is_body_batch, &b))
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
            if (pick_batch(m, is_body_batch, &c))
                t->batches[b].time = t->batches[c].time;
            break;
        }
        return true;
    }
    case OP_BATCH_M: {
        if (!pick_batch(m, is_body_batch, &b))
            return false;
        t->batches[b].m = below(m, 4) ? pick_id(m, SET_M, 0) : boundary(m, t->batches[b].m);
        return true;
    }
    case OP_DUP_BATCH: {
        if (!pick_batch(m, NULL, &b))
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
    case OP_DELETE_BATCH:
        if (!pick_batch(m, NULL, &b))
            return false;
        tracedit_remove_batch(t, b);
        return true;
    case OP_DELETE_GEN: {
        size_t lo, hi;
        if (!pick_batch(m, is_body_batch, &b))
            return false;
        gen_segment(t, b, &lo, &hi);
        if (hi < t->nbatches && !is_body_batch(t, hi))
            hi++;   /* its EndOfGeneration too */
        while (hi > lo)
            tracedit_remove_batch(t, --hi);
        return true;
    }
    case OP_ARG_CMP: {
        /* Value-level byte mutation: an argument (any, stack frame values included) as an
         * 8-byte little-endian buffer through the byte mutator. With libFuzzer's
         * LLVMFuzzerMutate, its comparison feedback (TORC) and dictionaries act on the decoded
         * value, which they cannot do on the varint bytes. */
        if (!pick_event(m, p_any_arg, &p))
            return false;
        const tracedit_event *e = &t->events[ev_at(t, p)];
        uint64_t *a = t->vals + e->args + below(m, e->nargs);
        uint8_t buf[8];
        for (int i = 0; i < 8; i++)
            buf[i] = (uint8_t)(*a >> (8 * i));
        size_t n = byte_mutate(m, buf, 8, 8);
        uint64_t v = 0;
        for (size_t i = 0; i < n && i < 8; i++)
            v |= (uint64_t)buf[i] << (8 * i);
        if (v == *a)
            return false;
        *a = v;
        return true;
    }
    case OP_STACK_DEPTH: {
        /* Resize a stack in place to a boundary frame count (the events that use it see it
         * change): one more or one fewer, doubled, a power of two and its neighbours, the
         * format's limit and its neighbours. Frames are repeated with distinct PCs. */
        if (!pick_event(m, p_stack_frames, &p))
            return false;
        uint32_t src = ev_at(t, p);
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
    case OP_XGEN_EVENT: {
        /* Copy or move an event across a generation boundary, into the batch of the same
         * kind (same M, or the table batch of the same marker) of the generation before or
         * after it, at the same relative position. */
        if (!pick_event(m, NULL, &p))
            return false;
        uint32_t ev = ev_at(t, p);
        uint8_t type = t->events[ev].type, first = 0;
        if (is_marker(type))
            return false;
        batch_first_type(t, p.b, &first);
        const tracedit_batch *sb = &t->batches[p.b];
        uint64_t tgen = sb->gen + (below(m, 2) ? 1 : (uint64_t)-1);
        size_t seen = 0, fallback = SIZE_MAX;
        for (size_t i = 0; i < t->nbatches; i++) {
            const tracedit_batch *x = &t->batches[i];
            uint8_t xf = 0;
            if (x->kind != sb->kind || x->gen != tgen)
                continue;
            batch_first_type(t, i, &xf);
            if (is_marker(first) ? xf != first : is_marker(xf))
                continue;
            fallback = i;
            if (!is_marker(first) && x->m != sb->m)
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
        if (is_marker(first) && at == 0)
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
    case OP_REF_EDGE: {
        /* A reference at the edge of its generation's table: the last string or stack ID,
         * one past it, or the deepest stack; for a stack frame, its func or file string. */
        uint64_t id = 0, max_id = 0;
        if (below(m, 2) && pick_event(m, p_stack_frames, &p)) {
            const tracedit_event *e = &t->events[ev_at(t, p)];
            if (!gen_id(m, t->batches[p.b].gen, GTR_EV_STRING, &id, &b, &max_id))
                return false;
            uint32_t f = (uint32_t)below(m, (e->nargs - 2) / 4);
            uint64_t *fr = t->vals + e->args + 2 + f * 4;
            fr[1 + below(m, 2)] = max_id + below(m, 2);
            return true;
        }
        bool stack = below(m, 2);
        if (!pick_event(m, stack ? p_stack_ref : p_string_ref, &p))
            return false;
        const tracedit_event *e = &t->events[ev_at(t, p)];
        if (!find_arg(e, stack ? A_STACK : A_STRING, &k))
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
        e = &t->events[ev_at(t, p)];
        t->vals[e->args + k] = id;
        return true;
    }
    case OP_SPLICE:
        /* A model generation or model batches (splice.c); m->t2 and m->out as scratch. */
        return gtr__fs_splice(t, &m->t2, &m->out, rnd(m), m->max_size, NULL);
    case OP_TRUNCATE:
        /* Cut the encoded trace at a random byte (a trace cut short by a crash): applied by
         * emit, after every length has been recomputed. */
        m->cut = 1 + below(m, 1u << 16);
        return true;
    default:
        return false;
    }
}

/* Built-in byte mutation of data[0..size) within max bytes. */
static size_t byte_mutate(gtr_fs_mutator *m, uint8_t *d, size_t size, size_t max)
{
    static const uint8_t interesting[] = {0, 1, 0x7f, 0x80, 0xff, 0x40, 0x3f, 0x20};
    if (m->opt.byte_mutate != NULL)
        return m->opt.byte_mutate(m->opt.byte_ctx, d, size, max);
    if (size == 0) {
        if (max == 0)
            return 0;
        d[0] = (uint8_t)rnd(m);
        return 1;
    }
    size_t i = below(m, size);
    switch (below(m, 6)) {
    case 0:
        d[i] ^= (uint8_t)(1u << below(m, 8));
        return size;
    case 1:
        d[i] = (uint8_t)rnd(m);
        return size;
    case 2:
        d[i] = interesting[below(m, sizeof interesting)];
        return size;
    case 3: /* insert a byte */
        if (size >= max)
            return size;
        memmove(d + i + 1, d + i, size - i);
        d[i] = (uint8_t)rnd(m);
        return size + 1;
    case 4: /* delete a byte */
        if (size <= 1)
            return size;
        memmove(d + i, d + i + 1, size - i - 1);
        return size - 1;
    default: { /* copy a chunk over another place */
        size_t j = below(m, size), n = 1 + below(m, 8);
        if (n > size - i)
            n = size - i;
        if (n > size - j)
            n = size - j;
        memmove(d + j, d + i, n);
        return size;
    }
    }
}

/* emit encodes m->t into out, dropping trailing batches, then trailing events of the last
 * batch, then bytes, until it fits in max. Returns the size. */
static size_t emit(gtr_fs_mutator *m, size_t max, uint8_t *out)
{
    tracedit_trace *t = &m->t;
    for (;;) {
        gtr_buf_reset(&m->out);
        if (tracedit_encode(t, &m->out, NULL) != GTR_OK)
            return 0;
        if (m->out.len <= max)
            break;
        if (t->tail_len > 0) {
            t->tail_len = 0;
            continue;
        }
        if (t->nbatches == 0)
            break;
        tracedit_batch *last = &t->batches[t->nbatches - 1];
        if (t->nbatches > 1 && (below(m, 2) || last->nev == 0)) {
            tracedit_remove_batch(t, t->nbatches - 1);
        } else if (last->tail_len > 0) {
            last->tail_len = 0;
        } else if (last->nev > 0) {
            last->nev -= last->nev > 1 ? last->nev / 2 : 1;
        } else {
            break;
        }
    }
    size_t n = m->out.len < max ? m->out.len : max;
    if (m->cut > 0 && n > 1) {
        n = 1 + m->cut % (n - 1);   /* at least one byte cut, at least one kept */
        m->cut = 0;
    }
    memcpy(out, m->out.data, n);
    return n;
}

static uint64_t fnv(const uint8_t *d, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ d[i]) * 0x100000001b3ULL;
    return h;
}

/* pick_op draws an operator by weight. */
static enum op pick_op(gtr_fs_mutator *m)
{
    unsigned r = (unsigned)below(m, m->total_weight);
    for (int i = 0; i < OP_NUM; i++) {
        if (r < m->weights[i])
            return (enum op)i;
        r -= m->weights[i];
    }
    return OP_ARG_VALUE;
}

size_t gtr_fs_mutate(gtr_fs_mutator *m, const uint8_t *data, size_t size, size_t max_size,
                     uint64_t seed, uint8_t *out)
{
    m->rng = seed * 0x2545f4914f6cdd1dULL + size;
    m->cut = 0;
    m->max_size = max_size;
    if (max_size == 0)
        return 0;
    if (tracedit_decode(&m->t, data, size, NULL) != GTR_OK) {
        m->last_op = "bytes";
        size_t n = size < max_size ? size : max_size;
        memmove(out, data, n);
        return byte_mutate(m, out, n, max_size);
    }
    if (!m->t.has_header || below(m, 100) < m->opt.byte_percent) {
        m->last_op = "bytes";
        size_t n = size < max_size ? size : max_size;
        memmove(out, data, n);
        n = byte_mutate(m, out, n, max_size);
        return n ? n : 1;
    }
    /* out may be data (libFuzzer mutates in place): remember the input by its hash. */
    uint64_t in_hash = fnv(data, size);
    collect_ids(m);
    size_t rounds = below(m, 8) == 0 ? 2 + below(m, 2) : 1, done = 0;
    enum op last = OP_NUM;
    for (size_t tries = 0; done < rounds && tries < 64; tries++) {
        enum op op = pick_op(m);
        if (apply(m, op)) {
            done++;
            last = op;
        }
    }
    m->last_op = done == 0 ? "none" : done > 1 ? "multi" : op_names[last];
    size_t n = done == 0 ? 0 : emit(m, max_size, out);
    /* A mutant identical to its input (a reference set to its own value, a batch moved
     * onto itself) is wasted work: mutate again, a few times at most. */
    for (int again = 0; n == size && n > 0 && fnv(out, n) == in_hash && again < 8; again++) {
        enum op op = pick_op(m);
        if (apply(m, op)) {
            m->last_op = done++ > 0 ? "multi" : op_names[op];
            n = emit(m, max_size, out);
        }
    }
    if (done == 0) {
        /* Nothing applied (e.g. a header-only trace): fall back to bytes. */
        m->last_op = "bytes";
        n = size < max_size ? size : max_size;
        memmove(out, data, n);
        n = byte_mutate(m, out, n, max_size);
    }
    return n ? n : 1;
}

size_t gtr_fs_splice(gtr_fs_mutator *m, const uint8_t *data, size_t size, size_t max_size,
                     uint64_t seed, uint8_t *out)
{
    const char *kind = "none";
    m->rng = seed * 0x2545f4914f6cdd1dULL + size;
    m->cut = 0;
    m->max_size = max_size;
    m->last_op = "none";
    if (max_size == 0 || tracedit_decode(&m->t, data, size, NULL) != GTR_OK ||
        !gtr__fs_splice(&m->t, &m->t2, &m->out, rnd(m), max_size, &kind))
        return 0;
    m->last_op = kind;
    return emit(m, max_size, out);
}

/* append_batches appends batches [from, to) of src to dst, adding delta to each gen. */
static bool append_batches(tracedit_trace *dst, const tracedit_trace *src, size_t from, size_t to,
                           uint64_t delta)
{
    for (size_t b = from; b < to; b++) {
        tracedit_batch tmpl = src->batches[b];
        tmpl.gen += delta;
        size_t nb = dst->nbatches;
        if (tracedit_insert_batch(dst, nb, &tmpl) != GTR_OK)
            return false;
        for (size_t i = 0; i < src->batches[b].nev; i++) {
            const tracedit_event *e = &src->events[src->batches[b].evs[i]];
            uint32_t idx;
            if (tracedit_add_event(dst, e->type, src->vals + e->args, e->nargs, e->has_data,
                                 src->bytes + e->data, e->data_len, &idx) != GTR_OK ||
                tracedit_batch_insert(dst, nb, i, idx) != GTR_OK)
                return false;
        }
    }
    return true;
}

size_t gtr_fs_crossover(gtr_fs_mutator *m, const uint8_t *a, size_t asize, const uint8_t *b,
                        size_t bsize, size_t max_size, uint64_t seed, uint8_t *out)
{
    tracedit_trace *t = &m->t, *u = &m->t2;
    m->rng = seed * 0x9e3779b97f4a7c15ULL + asize * 31 + bsize;
    m->cut = 0;
    m->last_op = "crossover";
    if (max_size == 0)
        return 0;
    if (tracedit_decode(t, a, asize, NULL) != GTR_OK || tracedit_decode(u, b, bsize, NULL) != GTR_OK ||
        !t->has_header || !u->has_header || u->nbatches == 0) {
        size_t n = asize < max_size ? asize : max_size;
        memcpy(out, a, n);
        return n ? n : 1;
    }
    size_t cut_a = below(m, t->nbatches + 1), cut_b = below(m, u->nbatches);
    uint64_t delta = 0;
    if (below(m, 2)) {
        /* Generation-aligned: keep a's whole generations, then b's from a generation start,
         * renumbered to follow. */
        while (cut_a > 0 && cut_a < t->nbatches && is_body_batch(t, cut_a) &&
               is_body_batch(t, cut_a - 1) && t->batches[cut_a].gen == t->batches[cut_a - 1].gen)
            cut_a--;
        while (cut_b > 0 && is_body_batch(u, cut_b) && is_body_batch(u, cut_b - 1) &&
               u->batches[cut_b].gen == u->batches[cut_b - 1].gen)
            cut_b--;
        if (cut_b < u->nbatches && !is_body_batch(u, cut_b))
            cut_b++;
        uint64_t last = 0;
        for (size_t i = 0; i < cut_a; i++)
            if (is_body_batch(t, i))
                last = t->batches[i].gen;
        if (cut_b < u->nbatches)
            delta = last + 1 - u->batches[cut_b].gen;
        m->last_op = "crossover_gen";
    }
    while (t->nbatches > cut_a)
        tracedit_remove_batch(t, t->nbatches - 1);
    t->tail_len = 0;
    if (!append_batches(t, u, cut_b, u->nbatches, delta)) {
        size_t n = asize < max_size ? asize : max_size;
        memcpy(out, a, n);
        return n ? n : 1;
    }
    size_t n = emit(m, max_size, out);
    return n ? n : 1;
}

bool gtr_fs_load_values(const char *path, uint64_t **values, size_t *n)
{
    FILE *f = fopen(path, "r");
    char tok[64];
    uint64_t *v = NULL;
    size_t len = 0, cap = 0;
    if (f == NULL)
        return false;
    while (fscanf(f, "%63s", tok) == 1) {
        char *end;
        if (!isdigit((unsigned char)tok[0]))
            continue;
        unsigned long long x = strtoull(tok, &end, 0);
        if (*end != '\0')
            continue;
        if (len == cap) {
            size_t nc = cap ? cap * 2 : 64;
            uint64_t *nv = realloc(v, nc * sizeof *nv);
            if (nv == NULL)
                break;
            v = nv;
            cap = nc;
        }
        v[len++] = (uint64_t)x;
    }
    fclose(f);
    *values = v;
    *n = len;
    return true;
}
