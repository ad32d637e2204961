/* SPDX-License-Identifier: BSD-3-Clause */
/* order.h: the scheduler-ordering state machine (Go's order.go), the contract between the
 * reader (reader.c) and the ordering (order.c). */
#ifndef GTR_SRC_ORDER_H
#define GTR_SRC_ORDER_H

#include "base.h"
#include "gtr/buf.h"

typedef struct gtr__ordering gtr__ordering;

/* gtr__ordering_new creates an empty ordering (Go's zero ordering plus its maps). */
gtr_status gtr__ordering_new(const gtr_alloc *alc, gtr__ordering **out, gtr_err *err);
void gtr__ordering_free(gtr__ordering *o);

/* gtr__ordering_set_version sets the trace version used to name events in error messages
 * (Go's ordering.traceVer, which Go's NewReader sets to the header's version; it matters only
 * for Version.EventName). Call it once after gtr__ordering_new; until then GTR_GO_CURRENT. */
void gtr__ordering_set_version(gtr__ordering *o, uint64_t version);

/* gtr__ordering_advance is Go's (*ordering).Advance: it tries to advance the state machine
 * by ev, which happened on thread m in generation gen. *ok is false when the event cannot
 * be ordered yet (no error). On success the resulting event(s) are queued, to be taken with
 * gtr__ordering_next. ev may be modified (extra args). A negative status is fatal for the
 * trace (the reader makes it sticky). */
gtr_status gtr__ordering_advance(gtr__ordering *o, gtr__base_event *ev, gtr__ev_table *evt,
                                 gtr_threadid m, uint64_t gen, bool *ok, gtr_err *err);

/* gtr__ordering_advance_cached is gtr__ordering_advance with the caller's cache of thread m's
 * state: *mcache is NULL at first (the ordering looks m up and fills it), and stays valid for
 * the ordering's lifetime, for m only (threads' states are never deleted and never move).
 * The reader keeps one per batch cursor, so it looks each M up once per generation. */
gtr_status gtr__ordering_advance_cached(gtr__ordering *o, gtr__base_event *ev,
                                        gtr__ev_table *evt, gtr_threadid m, void **mcache,
                                        uint64_t gen, bool *ok, gtr_err *err);

/* gtr__ordering_next pops the next queued event (Go's Next). false when the queue is empty. */
bool gtr__ordering_next(gtr__ordering *o, gtr_event *out);

/* gtr__ordering_direct_begin and _end bracket advances made while the queue is empty: the
 * first event queued between them is built in *out (the caller's own event) instead of the
 * queue, and _end says whether one was; later ones are queued as usual, so *out is what
 * gtr__ordering_next would have popped first. The reader's common case, one event per
 * advance, so needs no copy out of the queue. */
void gtr__ordering_direct_begin(gtr__ordering *o, gtr_event *out);
bool gtr__ordering_direct_end(gtr__ordering *o);

/* Presence requirements on a scheduling context (Go's constraint values). */
enum { GTR__MUST_NOT_HAVE = 0, GTR__MAY_HAVE = 1, GTR__MUST_HAVE = 2 };

/* gtr__ordering_validate_ctx is Go's validateCtx(schedCtx{g, p, m}, schedReqs{req_m, req_p,
 * req_g}): GTR_OK, or GTR_E_ORDER with one of its six messages. Exposed for tests, since no
 * advance function requires a thread or a proc to be absent. */
gtr_status gtr__ordering_validate_ctx(gtr_goid g, gtr_procid p, gtr_threadid m, int req_m,
                                      int req_p, int req_g, gtr_err *err);

/* gtr__ordering_dump appends Go's dumpOrdering(o) text (used in "broken trace" errors). */
void gtr__ordering_dump(const gtr__ordering *o, gtr_buf *out);

#endif /* GTR_SRC_ORDER_H */
