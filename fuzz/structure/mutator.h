/* SPDX-License-Identifier: BSD-3-Clause */
/* mutator.h: the structure-aware mutator's state, its operator table and what the operators
 * share (private to fuzz/structure).
 *
 * mutate.c holds the table and draws from it; the operators live by family in
 * ops_values.c (argument values), ops_tables.c (strings and stacks), ops_events.c (events)
 * and ops_batches.c (batches, generations, the cut and the splice); mutate_pick.c chooses
 * what they edit. Every choice comes from the mutator's RNG, in a fixed order, so that a
 * (input, seed) pair always gives the same mutant. */
#ifndef GTR_FS_MUTATOR_H
#define GTR_FS_MUTATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "args.h"
#include "rng.h"
#include "tracedit.h"
#include "fs/mutate.h"

/* A set of IDs seen in the trace (unsorted, duplicates dropped lazily by sampling). */
typedef struct gtr__fs_idset {
    uint64_t *v;
    size_t n, cap;
} gtr__fs_idset;

enum { SET_G, SET_P, SET_M, SET_STRING, SET_STACK, SET_NUM };

struct gtr_fs_mutator {
    gtr_fs_options opt;
    uint64_t *values;
    uint64_t rng;
    tracedit_trace t, t2;
    gtr_buf out;
    gtr__fs_idset ids[SET_NUM];
    uint64_t max_string, max_stack;
    size_t cut;            /* truncate: keep this many encoded bytes (0: all) */
    size_t max_size;       /* of the current call (splice caps the model's output) */
    unsigned total_weight; /* of the operators drawn (splice left out with no_splice) */
    const char *last_op;
};

/* An operator edits m->t in place; false: it did not apply (nothing changed). */
typedef bool (*gtr__fs_op_fn)(gtr_fs_mutator *m);

typedef struct gtr__fs_op {
    const char *name;      /* gtr_fs_mutator_last_op's name for it */
    unsigned weight;       /* its share of the draws (tuned with measure_valid_rate) */
    bool runs_model;       /* it runs the scheduler model: left out with no_splice */
    gtr__fs_op_fn apply;
} gtr__fs_op;

/* The operator table (mutate.c), in the order pick_op walks the weights. */
extern const gtr__fs_op gtr__fs_ops[];
extern const size_t gtr__fs_nops;

/* gtr__fs_apply_op decodes data[0..size) into m, applies operator i of the table alone
 * (RNG seeded as gtr_fs_mutate seeds it) and writes the result into out (max_size bytes).
 * Returns its size, or 0 when the input is not a v2 trace or the operator does not apply.
 * For tests: each table entry can be checked on its own. */
size_t gtr__fs_apply_op(gtr_fs_mutator *m, size_t i, const uint8_t *data, size_t size,
                        size_t max_size, uint64_t seed, uint8_t *out);

/* Drawing numbers: rnd the next one, below a uniform value in [0, n) (n > 0). Short names,
 * as every operator draws many; the header is private to the mutator's files. */
static inline uint64_t rnd(gtr_fs_mutator *m)
{
    return gtr__fs_splitmix(&m->rng);
}

static inline size_t below(gtr_fs_mutator *m, size_t n)
{
    return (size_t)(rnd(m) % n);
}

/* gtr__fs_boundary returns an interesting value derived from v. */
uint64_t gtr__fs_boundary(gtr_fs_mutator *m, uint64_t v);

/* gtr__fs_byte_mutate: the engine's byte mutator, or the built-in one, on d[0..size) within
 * max bytes; returns the new size (mutate.c). */
size_t gtr__fs_byte_mutate(gtr_fs_mutator *m, uint8_t *d, size_t size, size_t max);

/* IDs the trace defines. */
void gtr__fs_collect_ids(gtr_fs_mutator *m);
/* gtr__fs_pick_id: a random ID of set (SET_*), or dflt when the trace has none. */
uint64_t gtr__fs_pick_id(gtr_fs_mutator *m, int set, uint64_t dflt);

/* Locating things. An event position is (batch, index in batch). */
typedef struct gtr__fs_pos {
    size_t b, i;
} gtr__fs_pos;

typedef bool (*gtr__fs_event_pred)(const tracedit_event *e);

/* gtr__fs_pick_event picks a uniformly random event position satisfying pred (NULL: any)
 * by reservoir sampling; false when there is none. */
bool gtr__fs_pick_event(gtr_fs_mutator *m, gtr__fs_event_pred pred, gtr__fs_pos *out);
/* gtr__fs_pick_batch likewise picks a batch index. */
bool gtr__fs_pick_batch(gtr_fs_mutator *m, bool (*pred)(const tracedit_trace *, size_t),
                        size_t *out);

/* gtr__fs_ev_at: the event index at position p. */
static inline uint32_t gtr__fs_ev_at(const tracedit_trace *t, gtr__fs_pos p)
{
    return t->batches[p.b].evs[p.i];
}

/* gtr__fs_is_body_batch: any batch but an EndOfGeneration marker. */
bool gtr__fs_is_body_batch(const tracedit_trace *t, size_t b);
/* gtr__fs_find_arg: the event has a spec argument of class c; its index in *k (may be
 * NULL). */
bool gtr__fs_find_arg(const tracedit_event *e, enum gtr__fs_arg_class c, uint32_t *k);
/* gtr__fs_is_marker: sync-ish batches (frequency, clock snapshot, strings, stacks, CPU
 * samples) begin with a marker event of this type that must stay first. */
bool gtr__fs_is_marker(uint8_t type);
/* gtr__fs_batch_first_type: the type of batch b's first event; false when it is empty. */
bool gtr__fs_batch_first_type(const tracedit_trace *t, size_t b, uint8_t *type);

/* The operators, by family (one function each; the table names them). */
bool gtr__fs_op_arg_value(gtr_fs_mutator *m);
bool gtr__fs_op_arg_boundary(gtr_fs_mutator *m);
bool gtr__fs_op_arg_xref(gtr_fs_mutator *m);
bool gtr__fs_op_arg_dict(gtr_fs_mutator *m);
bool gtr__fs_op_arg_cmp(gtr_fs_mutator *m);
bool gtr__fs_op_status(gtr_fs_mutator *m);
bool gtr__fs_op_dt(gtr_fs_mutator *m);

bool gtr__fs_op_ref_string(gtr_fs_mutator *m);
bool gtr__fs_op_ref_stack(gtr_fs_mutator *m);
bool gtr__fs_op_deep_stack(gtr_fs_mutator *m);
bool gtr__fs_op_string_data(gtr_fs_mutator *m);
bool gtr__fs_op_new_string(gtr_fs_mutator *m);
bool gtr__fs_op_new_stack(gtr_fs_mutator *m);
bool gtr__fs_op_frame(gtr_fs_mutator *m);
bool gtr__fs_op_stack_depth(gtr_fs_mutator *m);
bool gtr__fs_op_ref_edge(gtr_fs_mutator *m);

bool gtr__fs_op_delete_event(gtr_fs_mutator *m);
bool gtr__fs_op_insert_event(gtr_fs_mutator *m);
bool gtr__fs_op_dup_event(gtr_fs_mutator *m);
bool gtr__fs_op_swap_events(gtr_fs_mutator *m);
bool gtr__fs_op_move_event(gtr_fs_mutator *m);
bool gtr__fs_op_new_event(gtr_fs_mutator *m);
bool gtr__fs_op_xgen_event(gtr_fs_mutator *m);

bool gtr__fs_op_move_batch(gtr_fs_mutator *m);
bool gtr__fs_op_split_batch(gtr_fs_mutator *m);
bool gtr__fs_op_merge_batch(gtr_fs_mutator *m);
bool gtr__fs_op_gen(gtr_fs_mutator *m);
bool gtr__fs_op_batch_m(gtr_fs_mutator *m);
bool gtr__fs_op_dup_batch(gtr_fs_mutator *m);
bool gtr__fs_op_delete_batch(gtr_fs_mutator *m);
bool gtr__fs_op_delete_gen(gtr_fs_mutator *m);
bool gtr__fs_op_skew(gtr_fs_mutator *m);
bool gtr__fs_op_truncate(gtr_fs_mutator *m);
bool gtr__fs_op_splice(gtr_fs_mutator *m);

#endif /* GTR_FS_MUTATOR_H */
