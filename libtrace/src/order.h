/* SPDX-License-Identifier: BSD-3-Clause */
/* order.h: the scheduler-ordering state machine (Go's order.go), the contract between the
 * reader (reader.c) and the ordering (order.c). */
#ifndef GTR_SRC_ORDER_H
#define GTR_SRC_ORDER_H

#include "base.h"
#include "compiler.h"
#include "gtr/buf.h"

typedef struct gtr__ordering gtr__ordering;

/* gtr__ordering_new creates an empty ordering (Go's zero ordering plus its maps). */
gtr_status gtr__ordering_new(const gtr_alloc *alc, gtr__ordering **out, gtr_err *err);
void gtr__ordering_free(gtr__ordering *o);

/* gtr__ordering_set_version sets the trace version used to name events in error messages
 * (Go's ordering.traceVer, which Go's NewReader sets to the header's version; it matters only
 * for Version.EventName). Call it once after gtr__ordering_new; until then GTR_GO_CURRENT. */
void gtr__ordering_set_version(gtr__ordering *o, uint64_t version);

/* What one gtr__ordering_advance did: ok, the event advanced and its events are queued (Go's
 * bool); check_ids, one of them may name a stack or string ID that is not in the table, which
 * gtr__ordering_check_ids tells. */
typedef struct gtr__advanced {
    bool ok;
    bool check_ids;
} gtr__advanced;

/* gtr__ordering_begin_generation makes evt, the table of generation gen, the one the next
 * advances read: Go passes both to every Advance; here they are given once, as they do not
 * change while a generation is ordered (but for the extra strings the ordering adds). Begun
 * again, the same generation is ordered on. The first generation begun is Go's initialGen,
 * which its first Advance sets: begin a generation only when an event of it is about to be
 * advanced. */
void gtr__ordering_begin_generation(gtr__ordering *o, gtr__ev_table *evt, uint64_t gen);

/* gtr__ordering_advance is Go's (*ordering).Advance: it tries to advance the state machine
 * by ev, which happened on thread m in the generation begun last. res->ok is false when the
 * event cannot be ordered yet (no error). On success the resulting event(s) are queued, to be
 * taken with gtr__ordering_next. ev may be modified (extra args). An error leaves the queue
 * as it was; a negative status is fatal for the trace (the reader makes it sticky). *mcache
 * is the caller's cache of m's state, NULL at first (the ordering fills it): it stays valid
 * for m for the ordering's lifetime, since threads' states never move. */
GTR__LTO_INLINE_BEGIN
GTR__LTO_INLINE gtr_status gtr__ordering_advance(gtr__ordering *o, gtr__base_event *ev,
                                                 gtr_threadid m, void **mcache,
                                                 gtr__advanced *res, gtr_err *err);
GTR__LTO_INLINE_END

/* gtr__ordering_check_ids is Go's Event.validateTableIDs, which ReadEvent runs on each event
 * it returns, for the events the last advance queued: GTR_OK, or the first failing event's
 * error (GTR_E_FORMAT) with the queue cut before it. gtr__ordering_drop_last drops those
 * events (the reader's, when the cursor fails after its event advanced). */
gtr_status gtr__ordering_check_ids(gtr__ordering *o, gtr_err *err);
void gtr__ordering_drop_last(gtr__ordering *o);

/* gtr__ordering_next pops the next queued event (Go's Next). false when the queue is empty. */
bool gtr__ordering_next(gtr__ordering *o, gtr_event *out);
/* gtr__ordering_pop is gtr__ordering_next without the copy: the popped event in its queue
 * slot, which stays as it is until the next call that queues events; NULL when the queue is
 * empty. */
gtr_event *gtr__ordering_pop(gtr__ordering *o);

/* gtr__ordering_queued is the number of queued events. */
size_t gtr__ordering_queued(const gtr__ordering *o);

/* Presence requirements on a scheduling context (Go's constraint values). */
enum { GTR__MUST_NOT_HAVE = 0, GTR__MAY_HAVE = 1, GTR__MUST_HAVE = 2 };

/* gtr__ordering_validate_ctx is Go's validateCtx(schedCtx{g, p, m}, schedReqs{req_m, req_p,
 * req_g}): GTR_OK, or GTR_E_ORDER with one of its six messages. Exposed for tests, since no
 * advance function requires a thread or a proc to be absent. */
gtr_status gtr__ordering_validate_ctx(gtr_goid g, gtr_procid p, gtr_threadid m, int req_m,
                                      int req_p, int req_g, gtr_err *err);

/* gtr__ordering_dump appends Go's dumpOrdering(o) text (used in "broken trace" errors). */
void gtr__ordering_dump(const gtr__ordering *o, gtr_buf *out);

/* What a diagnosis of a stuck frontier (diagnosis.c) and a snapshot (snapshot.c) read of the
 * ordering. A goroutine's or proc's state: its status (gtr_go_status or gtr_proc_status) and
 * its sequence number, seq in generation seq_gen. */
typedef struct gtr__resource_state {
    uint8_t status;
    uint64_t seq_gen, seq;
} gtr__resource_state;
/* gtr__ordering_resource: the state of proc (proc true) or goroutine id; false when the
 * ordering has none. gtr__ordering_next_resource iterates the procs or goroutines that have a
 * state (*pos starts at 0; false at the end). */
bool gtr__ordering_resource(const gtr__ordering *o, bool proc, int64_t id,
                            gtr__resource_state *out);
bool gtr__ordering_next_resource(const gtr__ordering *o, bool proc, size_t *pos, int64_t *id,
                                 gtr__resource_state *out);
/* gtr__ordering_ranges stores the "Begin" event types of the special ranges in flight on proc
 * (proc true) or goroutine id, at most cap, and returns how many it stored. */
size_t gtr__ordering_ranges(const gtr__ordering *o, bool proc, int64_t id, uint8_t *begin_types,
                            size_t cap);
/* gtr__ordering_thread: the goroutine and proc thread id holds (none when it has no state). */
void gtr__ordering_thread(const gtr__ordering *o, gtr_threadid id, gtr_goid *g, gtr_procid *p);
typedef struct gtr__ordering_summary {
    uint64_t gc_seq;
    bool gc_running;      /* in a mark phase: between GCBegin or GCActive and GCEnd */
    uint64_t initial_gen;
    uint8_t failed_type;  /* the wire type of the event whose advance failed with an error
                           * (not a failure to advance), 0 when none did */
} gtr__ordering_summary;
gtr__ordering_summary gtr__ordering_summary_of(const gtr__ordering *o);
/* Go's GoStatus.String and ProcStatus.String. */
const char *gtr__go_status_string(uint8_t s);
const char *gtr__proc_status_string(uint8_t s);

#endif /* GTR_SRC_ORDER_H */
