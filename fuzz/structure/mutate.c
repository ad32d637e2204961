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
 * measure_valid_rate.c.
 *
 * The operators are a table (below): name, weight and function, one function per operator
 * in the family files ops_values.c, ops_tables.c, ops_events.c and ops_batches.c. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutator.h"
#include "splice.h"

/* The operator table, in the order the weights are drawn: reordering it, or changing a
 * weight, changes every mutant a seed gives (ci/difffuzz.sh's and the corpora's). */
const gtr__fs_op gtr__fs_ops[] = {
    {"arg_value", 6, false, gtr__fs_op_arg_value},
    {"ref_string", 7, false, gtr__fs_op_ref_string},
    {"ref_stack", 8, false, gtr__fs_op_ref_stack},
    {"deep_stack", 3, false, gtr__fs_op_deep_stack},
    {"string_data", 6, false, gtr__fs_op_string_data},
    {"new_string", 7, false, gtr__fs_op_new_string},
    {"new_stack", 7, false, gtr__fs_op_new_stack},
    {"frame", 7, false, gtr__fs_op_frame},
    {"dt", 8, false, gtr__fs_op_dt},
    {"move_batch", 6, false, gtr__fs_op_move_batch},
    {"split_batch", 5, false, gtr__fs_op_split_batch},
    {"merge_batch", 4, false, gtr__fs_op_merge_batch},
    {"delete_event", 3, false, gtr__fs_op_delete_event},
    {"insert_event", 2, false, gtr__fs_op_insert_event},
    {"dup_event", 2, false, gtr__fs_op_dup_event},
    {"swap_events", 2, false, gtr__fs_op_swap_events},
    {"move_event", 2, false, gtr__fs_op_move_event},
    {"new_event", 1, false, gtr__fs_op_new_event},
    {"arg_boundary", 2, false, gtr__fs_op_arg_boundary},
    {"arg_xref", 2, false, gtr__fs_op_arg_xref},
    {"arg_dict", 1, false, gtr__fs_op_arg_dict},
    {"status", 1, false, gtr__fs_op_status},
    {"gen", 1, false, gtr__fs_op_gen},
    {"batch_m", 1, false, gtr__fs_op_batch_m},
    {"dup_batch", 1, false, gtr__fs_op_dup_batch},
    {"delete_batch", 1, false, gtr__fs_op_delete_batch},
    {"delete_gen", 1, false, gtr__fs_op_delete_gen},
    {"arg_cmp", 5, false, gtr__fs_op_arg_cmp},
    {"stack_depth", 3, false, gtr__fs_op_stack_depth},
    {"xgen_event", 2, false, gtr__fs_op_xgen_event},
    {"ref_edge", 2, false, gtr__fs_op_ref_edge},
    {"truncate", 1, false, gtr__fs_op_truncate},
    {"skew", 3, false, gtr__fs_op_skew},
    {"splice", 3, true, gtr__fs_op_splice},
};
const size_t gtr__fs_nops = sizeof gtr__fs_ops / sizeof gtr__fs_ops[0];

/* Beyond the table, gtr_fs_op_name names the two outcomes that are not one operator. */
static const char *const other_names[] = {"bytes", "multi"};

size_t gtr_fs_op_count(void)
{
    return gtr__fs_nops + sizeof other_names / sizeof other_names[0];
}

const char *gtr_fs_op_name(size_t i)
{
    if (i < gtr__fs_nops)
        return gtr__fs_ops[i].name;
    return i < gtr_fs_op_count() ? other_names[i - gtr__fs_nops] : NULL;
}

/* op_weight: operator i's weight for this mutator (0: left out). */
static unsigned op_weight(const gtr_fs_mutator *m, size_t i)
{
    return gtr__fs_ops[i].runs_model && m->opt.no_splice ? 0 : gtr__fs_ops[i].weight;
}

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
    for (size_t i = 0; i < gtr__fs_nops; i++)
        m->total_weight += op_weight(m, i);
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

size_t gtr__fs_byte_mutate(gtr_fs_mutator *m, uint8_t *d, size_t size, size_t max)
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
static size_t pick_op(gtr_fs_mutator *m)
{
    unsigned r = (unsigned)below(m, m->total_weight);
    for (size_t i = 0; i < gtr__fs_nops; i++) {
        if (r < op_weight(m, i))
            return i;
        r -= op_weight(m, i);
    }
    return 0;
}

/* apply runs operator i on m->t. false: it did not apply (nothing changed). */
static bool apply(gtr_fs_mutator *m, size_t i)
{
    return gtr__fs_ops[i].apply(m);
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
        return gtr__fs_byte_mutate(m, out, n, max_size);
    }
    if (!m->t.has_header || below(m, 100) < m->opt.byte_percent) {
        m->last_op = "bytes";
        size_t n = size < max_size ? size : max_size;
        memmove(out, data, n);
        n = gtr__fs_byte_mutate(m, out, n, max_size);
        return n ? n : 1;
    }
    /* out may be data (libFuzzer mutates in place): remember the input by its hash. */
    uint64_t in_hash = fnv(data, size);
    gtr__fs_collect_ids(m);
    size_t rounds = below(m, 8) == 0 ? 2 + below(m, 2) : 1, done = 0;
    size_t last = 0;
    for (size_t tries = 0; done < rounds && tries < 64; tries++) {
        size_t op = pick_op(m);
        if (apply(m, op)) {
            done++;
            last = op;
        }
    }
    m->last_op = done == 0 ? "none" : done > 1 ? "multi" : gtr__fs_ops[last].name;
    size_t n = done == 0 ? 0 : emit(m, max_size, out);
    /* A mutant identical to its input (a reference set to its own value, a batch moved
     * onto itself) is wasted work: mutate again, a few times at most. */
    for (int again = 0; n == size && n > 0 && fnv(out, n) == in_hash && again < 8; again++) {
        size_t op = pick_op(m);
        if (apply(m, op)) {
            m->last_op = done++ > 0 ? "multi" : gtr__fs_ops[op].name;
            n = emit(m, max_size, out);
        }
    }
    if (done == 0) {
        /* Nothing applied (e.g. a header-only trace): fall back to bytes. */
        m->last_op = "bytes";
        n = size < max_size ? size : max_size;
        memmove(out, data, n);
        n = gtr__fs_byte_mutate(m, out, n, max_size);
    }
    return n ? n : 1;
}

size_t gtr__fs_apply_op(gtr_fs_mutator *m, size_t i, const uint8_t *data, size_t size,
                        size_t max_size, uint64_t seed, uint8_t *out)
{
    m->rng = seed * 0x2545f4914f6cdd1dULL + size;
    m->cut = 0;
    m->max_size = max_size;
    m->last_op = "none";
    if (i >= gtr__fs_nops || max_size == 0 || tracedit_decode(&m->t, data, size, NULL) != GTR_OK ||
        !m->t.has_header)
        return 0;
    gtr__fs_collect_ids(m);
    if (!apply(m, i))
        return 0;
    m->last_op = gtr__fs_ops[i].name;
    return emit(m, max_size, out);
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
        while (cut_a > 0 && cut_a < t->nbatches && gtr__fs_is_body_batch(t, cut_a) &&
               gtr__fs_is_body_batch(t, cut_a - 1) && t->batches[cut_a].gen == t->batches[cut_a - 1].gen)
            cut_a--;
        while (cut_b > 0 && gtr__fs_is_body_batch(u, cut_b) && gtr__fs_is_body_batch(u, cut_b - 1) &&
               u->batches[cut_b].gen == u->batches[cut_b - 1].gen)
            cut_b--;
        if (cut_b < u->nbatches && !gtr__fs_is_body_batch(u, cut_b))
            cut_b++;
        uint64_t last = 0;
        for (size_t i = 0; i < cut_a; i++)
            if (gtr__fs_is_body_batch(t, i))
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
