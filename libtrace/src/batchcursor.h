/* SPDX-License-Identifier: BSD-3-Clause */
/* batchcursor.h: a cursor over the event batches of one M, and the min-heap of cursors
 * (the reader's frontier), ordered by the time of each cursor's current event (Go's
 * batchcursor.go). */
#ifndef GTR_SRC_BATCHCURSOR_H
#define GTR_SRC_BATCHCURSOR_H

#include "batch.h"

/* Decoding context shared by all cursors of a generation. */
typedef struct gtr__cursor_ctx {
    const gtr__batch *batches;   /* the generation's batches; cursors follow their links */
    double freq;                 /* ns per timestamp unit (gtr__cursor_ctx_set_freq) */
    unsigned freq_shift;         /* k when freq is 2^k, 0 <= k <= 10 */
    uint64_t shift_below;        /* then 2^53 (dt below it shifts exactly), else 0 */
    /* argc[t]: how many arguments after dt a timed event of type t has, or
     * GTR__ARGC_INVALID_TYPE / GTR__ARGC_UNTIMED; GTR__ARGC_UNKNOWN until a batch has an
     * event of type t (the table is filled on demand: most readers see a few types). */
    uint8_t argc[256];
} gtr__cursor_ctx;
#define GTR__ARGC_INVALID_TYPE 0xff
#define GTR__ARGC_UNTIMED 0xfe
#define GTR__ARGC_UNKNOWN 0xfd

/* gtr__cursor_ctx_init marks every type of ctx->argc unknown (ctx->batches is set by the
 * caller, freq with gtr__cursor_ctx_set_freq); gtr__batch_cursor_next looks each type up
 * once. */
void gtr__cursor_ctx_init(gtr__cursor_ctx *ctx);

/* gtr__cursor_ctx_set_freq sets the generation's frequency (ns per timestamp unit). */
void gtr__cursor_ctx_set_freq(gtr__cursor_ctx *ctx, double freq);

/* gtr__cursor_ns is Go's freq.mul(dt), as gtr__freq_mul_inline(ctx->freq, dt) computes it,
 * as unsigned. Go's trace clock mostly ticks every 64 ns (freq 64.0): with freq 2^k (k at
 * most 10) and dt below 2^53, float64(dt) * freq is exactly dt << k (no rounding, and below
 * 2^63 so the conversion to int64 is exact), which takes no floating-point latency. */
static inline uint64_t gtr__cursor_ns(const gtr__cursor_ctx *ctx, uint64_t dt)
{
    if (dt < ctx->shift_below)
        return dt << ctx->freq_shift;
    return (uint64_t)gtr__freq_mul_inline(ctx->freq, dt);
}

/* gtr__batch_cursor is Go's batchCursor. idx is the index of the current batch in
 * ctx->batches (GTR__BATCH_NONE past the last one); [pos, end) is what is left of its data
 * (Go's dataOffset); pos == end when nothing is left (past the last batch, an empty batch). */
typedef struct gtr__batch_cursor {
    gtr_threadid m;
    gtr_time last_ts;
    const uint8_t *pos, *end;
    uint32_t idx;
    void *mstate;          /* the ordering's state of m (gtr__ordering_advance's cache) */
    gtr__base_event ev;    /* the last event read */
} gtr__batch_cursor;

/* gtr__batch_cursor_init starts bc over M m's batches, the first at index first of
 * ctx->batches (GTR__BATCH_NONE: none); bc has no event until gtr__batch_cursor_next. */
void gtr__batch_cursor_init(gtr__batch_cursor *bc, const gtr__cursor_ctx *ctx, gtr_threadid m,
                            uint32_t first);
/* gtr__batch_cursor_next_slow is Go's nextEvent: reads the next event of the cursor's M into
 * bc->ev. *ok is false at the end of the M's batches. Errors (GTR_E_FORMAT): "found invalid
 * event type: %v", "found event without a timestamp: type=%v", "found invalid uvarint for
 * timestamp", "found invalid uvarint". */
gtr_status gtr__batch_cursor_next_slow(gtr__batch_cursor *bc, gtr__cursor_ctx *ctx, bool *ok,
                                       gtr_err *err);

/* GTR__EVENT_MAX_BYTES: the most bytes a timed event takes: its type, then dt and its
 * arguments as uvarints. */
#define GTR__EVENT_MAX_BYTES (1 + GTR__UVARINT_MAX * GTR_MAX_TIMED_EVENT_ARGS)
/* gtr__batch_cursor_next_fast reads the next event in the common case: a whole event's worth
 * of bytes is left in the current batch (so no varint can run past it and none needs a bounds
 * check), and its type was looked up before. false (and only args written) otherwise: the
 * slow path, Go's own decoder, reads the event then (the last bytes of a batch among them). */
static inline bool gtr__batch_cursor_next_fast(gtr__batch_cursor *bc, const gtr__cursor_ctx *ctx)
{
    const uint8_t *p = bc->pos;
    uint64_t dt = 0;   /* set by the first varint, unless it fails (then unused) */
    if ((size_t)(bc->end - p) < GTR__EVENT_MAX_BYTES)
        return false;
    uint8_t argc = ctx->argc[p[0]];
    if (argc >= GTR__ARGC_UNKNOWN)
        return false;
    const uint8_t *q = gtr__uvarint_unchecked(p + 1, &dt);
    for (unsigned i = 0; i < argc && q != NULL; i++)
        q = gtr__uvarint_unchecked(q, &bc->ev.args[i]);
    if (q == NULL)
        return false;
    size_t off = (size_t)(q - p);
    gtr_time ts = bc->last_ts;
    if (ts == 0)   /* nextEvent's lastTs == 0 case */
        ts = gtr__freq_mul_inline(ctx->freq, ctx->batches[bc->idx].time);
    bc->ev.type = p[0];
    bc->ev.time = (gtr_time)(gtr__cursor_ns(ctx, dt) + (uint64_t)ts);
    bc->last_ts = bc->ev.time;
    bc->pos = p + off;
    return true;
}

/* gtr__batch_cursor_next is gtr__batch_cursor_next_slow with its common case inlined
 * (gtr__batch_cursor_next_fast). Anything else (the end of a batch, an empty batch, a type
 * seen for the first time, a bad event) takes the slow path, which reads the same bytes
 * again: the fast path writes nothing before it succeeds but args, which the slow path
 * writes again with the same values. */
static inline gtr_status gtr__batch_cursor_next(gtr__batch_cursor *bc, gtr__cursor_ctx *ctx,
                                                bool *ok, gtr_err *err)
{
    if (gtr__batch_cursor_next_fast(bc, ctx)) {
        *ok = true;
        return GTR_OK;
    }
    return gtr__batch_cursor_next_slow(bc, ctx, ok, err);
}

/* gtr__batch_cursor_compare is Go's compare: cmp.Compare(a.ev.time, b.ev.time). */
int gtr__batch_cursor_compare(const gtr__batch_cursor *a, const gtr__batch_cursor *b);

/* gtr__heap_entry is a cursor in the frontier heap with its event's time beside it, so that
 * the sifts compare times without following the pointers. time is bc->ev.time as the last
 * insert, update or root update of that entry read it: the owner of the heap calls one of
 * them after every move of a cursor, or (the head's moves that keep it the head) stores the
 * new time itself. */
typedef struct gtr__heap_entry {
    gtr_time time;
    gtr__batch_cursor *bc;
} gtr__heap_entry;

/* The heap, exactly as Go's heapInsert/heapUpdate/heapRemove (the same sift steps, so ties
 * between equal times resolve identically). heap has room for one more entry on insert.
 * gtr__heap_update reads heap[i].bc's time anew. */
void gtr__heap_insert(gtr__heap_entry *heap, size_t *n, gtr__batch_cursor *bc);
void gtr__heap_update(gtr__heap_entry *heap, size_t n, size_t i);
void gtr__heap_remove(gtr__heap_entry *heap, size_t *n, size_t i);
/* gtr__heap_entry_compare compares two entries' times (Go's compare, for gtr_go_sort_func). */
int gtr__heap_entry_compare(const void *a, const void *b);

/* gtr__heap_root_memo keeps the least time of the heap root's two children (INT64_MAX when
 * it has none) while ok. It stays true while neither the heap's layout nor a child's time
 * changes: gtr__heap_update_root keeps it, and its owner clears ok on any other change (an
 * insert, a remove, an update of another entry, a cursor other than the root moved on, a
 * sort). */
typedef struct gtr__heap_root_memo {
    gtr_time kids_min;
    bool ok;
} gtr__heap_root_memo;
/* gtr__heap_update_root is gtr__heap_update(heap, n, 0) after the root's time changed (its
 * cursor moved on): when the root is not after its children (Go's sift down leaves it, ties
 * included), memo answers without looking at them. */
void gtr__heap_update_root(gtr__heap_entry *heap, size_t n, gtr__heap_root_memo *memo);
/* gtr__heap_root_kids_min is the least time of the root's children (INT64_MAX when it has
 * none), from memo when it is ok, else looked at and kept there: the root stays the root
 * while its time is not later. */
gtr_time gtr__heap_root_kids_min(const gtr__heap_entry *heap, size_t n,
                                 gtr__heap_root_memo *memo);

#endif /* GTR_SRC_BATCHCURSOR_H */
