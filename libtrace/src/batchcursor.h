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
    double freq;                 /* ns per timestamp unit */
    /* argc[t]: how many arguments after dt a timed event of type t has, or
     * GTR__ARGC_INVALID_TYPE / GTR__ARGC_UNTIMED; GTR__ARGC_UNKNOWN until a batch has an
     * event of type t (the table is filled on demand: most readers see a few types). */
    uint8_t argc[256];
} gtr__cursor_ctx;
#define GTR__ARGC_INVALID_TYPE 0xff
#define GTR__ARGC_UNTIMED 0xfe
#define GTR__ARGC_UNKNOWN 0xfd

/* gtr__cursor_ctx_init marks every type of ctx->argc unknown (ctx->batches and freq are set
 * by the caller); gtr__batch_cursor_next looks each type up once. */
void gtr__cursor_ctx_init(gtr__cursor_ctx *ctx);

/* gtr__batch_cursor is Go's batchCursor. idx is the index of the current batch in
 * ctx->batches (GTR__BATCH_NONE past the last one). */
typedef struct gtr__batch_cursor {
    gtr_threadid m;
    gtr_time last_ts;
    uint32_t idx;
    size_t data_off;
    gtr__base_event ev;    /* the last event read */
} gtr__batch_cursor;

/* gtr__batch_cursor_next is Go's nextEvent: reads the next event of the cursor's M into
 * bc->ev. *ok is false at the end of the M's batches. Errors (GTR_E_FORMAT): "found invalid
 * event type: %v", "found event without a timestamp: type=%v", "found invalid uvarint for
 * timestamp", "found invalid uvarint". */
gtr_status gtr__batch_cursor_next(gtr__batch_cursor *bc, gtr__cursor_ctx *ctx, bool *ok,
                                  gtr_err *err);

/* gtr__batch_cursor_compare is Go's compare: cmp.Compare(a.ev.time, b.ev.time). */
int gtr__batch_cursor_compare(const gtr__batch_cursor *a, const gtr__batch_cursor *b);

/* The heap, exactly as Go's heapInsert/heapUpdate/heapRemove (the same sift steps, so ties
 * between equal times resolve identically). heap has room for one more entry on insert. */
void gtr__heap_insert(gtr__batch_cursor **heap, size_t *n, gtr__batch_cursor *bc);
void gtr__heap_update(gtr__batch_cursor **heap, size_t n, size_t i);
void gtr__heap_remove(gtr__batch_cursor **heap, size_t *n, size_t i);

#endif /* GTR_SRC_BATCHCURSOR_H */
