/* Port of src/internal/trace/batchcursor.go at go1.27.3. */
/* SPDX-License-Identifier: BSD-3-Clause */
/* batchcursor.c: decoding the timed events of one M's batches, and the frontier heap.
 *
 * The heap functions are Go's, comparison for comparison: which of two cursors with equal
 * times comes first depends on the exact sequence of swaps, and the ordering of events with
 * equal timestamps must match Go's reader. The sifts move a hole where Go swaps, which
 * leaves every entry where Go's swaps leave it (tests/test_heap.c checks it step by step). */
#include "batchcursor.h"

#include <math.h>
#include <string.h>

void gtr__cursor_ctx_init(gtr__cursor_ctx *ctx)
{
    memset(ctx->argc, GTR__ARGC_UNKNOWN, sizeof ctx->argc);
    gtr__cursor_ctx_set_freq(ctx, 0);
}

void gtr__cursor_ctx_set_freq(gtr__cursor_ctx *ctx, double freq)
{
    int e;
    ctx->freq = freq;
    ctx->freq_shift = 0;
    ctx->shift_below = 0;
    if (isfinite(freq) && frexp(freq, &e) == 0.5 && e >= 1 && e <= 11) {
        ctx->freq_shift = e - 1;   /* freq == 2^(e-1) */
        ctx->shift_below = UINT64_C(1) << 53;
    }
}

/* argc_of looks type t up in the event table and remembers the answer in ctx->argc[t]. */
static uint8_t argc_of(gtr__cursor_ctx *ctx, uint8_t t)
{
    uint8_t a;
    if (t >= GTR_EV_MAX_EXPERIMENTAL) {
        a = GTR__ARGC_INVALID_TYPE; /* int(typ) >= len(specs) */
    } else {
        const gtr_event_spec *spec = gtr_spec(t);
        a = spec->nargs == 0 || !spec->is_timed ? GTR__ARGC_UNTIMED : (uint8_t)(spec->nargs - 1);
    }
    ctx->argc[t] = a;
    return a;
}

/* time_add is Go's wrapping Time addition. */
static gtr_time time_add(gtr_time a, gtr_time b)
{
    return (gtr_time)((uint64_t)a + (uint64_t)b);
}

/* read_timed_base_event is Go's readTimedBaseEvent over p[0..n) (n >= 1): it decodes the
 * type, the timestamp delta and the arguments into e, and returns the bytes consumed. Args
 * past the event's own keep their old values, as in Go. */
static gtr_status read_timed_base_event(gtr__cursor_ctx *ctx, const uint8_t *p, size_t n,
                                        gtr__base_event *e, size_t *used, uint64_t *tsdiff,
                                        gtr_err *err)
{
    uint8_t typ = p[0];
    uint8_t argc = ctx->argc[typ];
    if (argc == GTR__ARGC_UNKNOWN)
        argc = argc_of(ctx, typ);
    if (argc == GTR__ARGC_INVALID_TYPE)
        /* Go: "found invalid event type: %v" */
        return gtr_err_setf(err, GTR_E_FORMAT, "found invalid event type: %d", typ);
    e->type = typ;
    if (argc == GTR__ARGC_UNTIMED)
        /* Go: "found event without a timestamp: type=%v" */
        return gtr_err_setf(err, GTR_E_FORMAT, "found event without a timestamp: type=%d",
                            typ);
    size_t off = 1;

    /* Read the timestamp diff. */
    uint64_t ts;
    int nb = gtr__uvarint(p + off, n - off, &ts);
    if (nb <= 0)
        /* Go: "found invalid uvarint for timestamp" */
        return gtr_err_setf(err, GTR_E_FORMAT, "found invalid uvarint for timestamp");
    off += (size_t)nb;

    /* Read the rest of the arguments. */
    for (unsigned i = 0; i < argc; i++) {
        uint64_t arg;
        nb = gtr__uvarint(p + off, n - off, &arg);
        if (nb <= 0)
            /* Go: "found invalid uvarint" */
            return gtr_err_setf(err, GTR_E_FORMAT, "found invalid uvarint");
        e->args[i] = arg;
        off += (size_t)nb;
    }
    *used = off;
    *tsdiff = ts;
    return GTR_OK;
}

/* no_data is where a cursor points with no data left to read (past its last batch, or in an
 * empty batch, whose data may be NULL): pos == end, and no pointer arithmetic on NULL. */
static const uint8_t no_data[1];

/* enter points bc at the data of batch idx (none: GTR__BATCH_NONE). */
static void enter(gtr__batch_cursor *bc, const gtr__batch *batches, uint32_t idx)
{
    bc->idx = idx;
    if (idx == GTR__BATCH_NONE || batches[idx].len == 0) {
        bc->pos = bc->end = no_data;
        return;
    }
    bc->pos = batches[idx].data;
    bc->end = bc->pos + batches[idx].len;
}

void gtr__batch_cursor_init(gtr__batch_cursor *bc, const gtr__cursor_ctx *ctx, gtr_threadid m,
                            uint32_t first)
{
    memset(bc, 0, sizeof *bc);
    bc->m = m;
    enter(bc, ctx->batches, first);
}

gtr_status gtr__batch_cursor_next_slow(gtr__batch_cursor *bc, gtr__cursor_ctx *ctx, bool *ok,
                                       gtr_err *err)
{
    const gtr__batch *batches = ctx->batches;
    /* Batches should generally always have at least one event, but be defensive about that
     * and accept empty batches. */
    while (bc->idx != GTR__BATCH_NONE && bc->pos == bc->end) {
        enter(bc, batches, batches[bc->idx].next);
        bc->last_ts = 0;
    }
    /* Have we reached the end of the batches? */
    if (bc->idx == GTR__BATCH_NONE) {
        *ok = false;
        return GTR_OK;
    }
    const gtr__batch *b = &batches[bc->idx];
    /* Initialize last_ts if it hasn't been yet. */
    if (bc->last_ts == 0)
        bc->last_ts = gtr__freq_mul_inline(ctx->freq, b->time);
    /* Read an event out. */
    size_t n = 0;
    uint64_t tsdiff = 0;
    gtr_status st = read_timed_base_event(ctx, bc->pos, (size_t)(bc->end - bc->pos), &bc->ev,
                                          &n, &tsdiff, err);
    if (st != GTR_OK) {
        *ok = false;
        return st;
    }
    /* Complete the timestamp from the cursor's last timestamp, and move forward. */
    bc->ev.time = time_add((gtr_time)gtr__cursor_ns(ctx, tsdiff), bc->last_ts);
    bc->last_ts = bc->ev.time;
    bc->pos += n;
    *ok = true;
    return GTR_OK;
}

int gtr__batch_cursor_compare(const gtr__batch_cursor *a, const gtr__batch_cursor *b)
{
    return (a->ev.time > b->ev.time) - (a->ev.time < b->ev.time);
}

int gtr__heap_entry_compare(const void *a, const void *b)
{
    gtr_time x = ((const gtr__heap_entry *)a)->time, y = ((const gtr__heap_entry *)b)->time;
    return (x > y) - (x < y);
}

static void swap(gtr__heap_entry *heap, size_t i, size_t j)
{
    gtr__heap_entry t = heap[i];
    heap[i] = heap[j];
    heap[j] = t;
}

/* The sifts move a hole instead of swapping: the entry in flight is kept aside and written
 * once, where Go's swaps would have left it (the same comparisons, the same places). */
static size_t sift_up(gtr__heap_entry *heap, size_t i)
{
    gtr__heap_entry x = heap[i];
    while (i > 0 && heap[(i - 1) / 2].time > x.time) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = x;
    return i;
}

/* sift_down is Go's siftDown with its min3 (the earliest of the entry and its children,
 * preferring the entry, then the left child, on ties): the earlier child (the left one on a
 * tie) is picked without a branch, then taken only when it is strictly earlier than the
 * entry, which is min3's answer. (Which child is earlier changes from one sift to the next
 * when Ms take turns: a branch on it, at every level, is one a predictor cannot follow.) n
 * may be 0 (the last entry removed): i is then outside the heap, and nothing moves. */
static size_t sift_down(gtr__heap_entry *heap, size_t n, size_t i)
{
    if (i >= n)
        return i;
    gtr__heap_entry x = heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;   /* a leaf */
        if (c + 1 < n)
            c += (size_t)(heap[c + 1].time < heap[c].time);
        if (heap[c].time >= x.time)
            break;   /* the heap invariant already applies */
        heap[i] = heap[c];
        i = c;
    }
    heap[i] = x;
    return i;
}

void gtr__heap_insert(gtr__heap_entry *heap, size_t *n, gtr__batch_cursor *bc)
{
    /* Add the cursor to the end of the heap and sift it up to the right place. */
    heap[*n].time = bc->ev.time;
    heap[*n].bc = bc;
    (*n)++;
    sift_up(heap, *n - 1);
}

void gtr__heap_update(gtr__heap_entry *heap, size_t n, size_t i)
{
    heap[i].time = heap[i].bc->ev.time;
    /* Try to sift up; sift down if sifting up failed. */
    if (sift_up(heap, i) != i)
        return;
    sift_down(heap, n, i);
}

void gtr__heap_update_root(gtr__heap_entry *heap, size_t n, gtr__heap_root_memo *memo)
{
    heap[0].time = heap[0].bc->ev.time;
    /* Sifting the root up does nothing; down, min3 keeps it unless a child is strictly
     * earlier. */
    if (memo->ok && heap[0].time <= memo->kids_min)
        return;
    sift_down(heap, n, 0);
    /* The children of the root now there, whether or not it moved. */
    memo->ok = false;
    gtr__heap_root_kids_min(heap, n, memo);
}

gtr_time gtr__heap_root_kids_min(const gtr__heap_entry *heap, size_t n,
                                 gtr__heap_root_memo *memo)
{
    if (!memo->ok) {
        gtr_time kids = INT64_MAX;
        if (n > 1)
            kids = heap[1].time;
        if (n > 2 && heap[2].time < kids)
            kids = heap[2].time;
        memo->kids_min = kids;
        memo->ok = true;
    }
    return memo->kids_min;
}

void gtr__heap_remove(gtr__heap_entry *heap, size_t *n, size_t i)
{
    /* Sift index i up to the root, ignoring actual values. */
    while (i > 0) {
        swap(heap, (i - 1) / 2, i);
        i = (i - 1) / 2;
    }
    /* Swap the root with the last element, remove it, and sift the root down. */
    swap(heap, 0, *n - 1);
    (*n)--;
    sift_down(heap, *n, 0);
}
