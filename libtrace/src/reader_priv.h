/* SPDX-License-Identifier: BSD-3-Clause */
/* reader_priv.h: what the library's own loops over a reader (gtr_validator_run) use beyond
 * gtr/reader.h. */
#ifndef GTR_SRC_READER_PRIV_H
#define GTR_SRC_READER_PRIV_H

#include "batchcursor.h"
#include "compiler.h"
#include "gtr/reader.h"
#include "order.h"

/* gtr__reader_next_ref is gtr_reader_next (r not NULL) without the copy of the common case:
 * *ev is the event in the reader's queue, good until the next call on r (the next call may
 * overwrite it), or buf, where any other case writes the event as gtr_reader_next does. Nor
 * does the common case clear err, which must be clear (GTR_OK, no text) when it is called: a
 * loop clears it once, and a call that returns GTR_OK leaves it as it was. gtr_reader_next
 * is this with the copy. */
GTR__LTO_INLINE_BEGIN
GTR__LTO_INLINE gtr_status gtr__reader_next_ref(gtr_reader *r, gtr_event *buf, gtr_event **ev,
                                                gtr_err *err);
GTR__LTO_INLINE_END

/* gtr__stuck_view is a reader that failed to advance (Go's "broken trace: failed to advance:
 * frontier"), as the failure left it: the frontier's cursors, each holding the event it could
 * not advance, the ordering, and the generation being read. */
typedef struct gtr__stuck_view {
    const gtr__heap_entry *frontier;
    size_t n;
    const gtr__ordering *order;
    uint64_t gen;
    gtr_go_version ver;
} gtr__stuck_view;

/* gtr__reader_stuck fills *out and returns true when r failed that way; false otherwise. */
bool gtr__reader_stuck(const gtr_reader *r, gtr__stuck_view *out);

/* gtr__reader_threads is the number of threads with batches in the generation r is reading
 * (0 before the first, after the end or a failure, or for an old-format trace);
 * gtr__reader_thread gives the i-th one's M and how many of its events the ordering has
 * advanced (read and ordered, whether returned yet or still queued), walking its batches
 * again. False when i is out of range or a batch does not decode. */
size_t gtr__reader_threads(const gtr_reader *r);
bool gtr__reader_thread(gtr_reader *r, size_t i, gtr_threadid *m, uint64_t *advanced,
                        gtr_err *err);

/* gtr__reader_ordering: r's ordering, whose state is consistent with the threads' positions
 * between two calls on r. */
const gtr__ordering *gtr__reader_ordering(const gtr_reader *r);

/* gtr__reader_generation is the number of the generation r is reading (0 before the first). */
uint64_t gtr__reader_generation(const gtr_reader *r);

#endif /* GTR_SRC_READER_PRIV_H */
