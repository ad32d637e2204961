/* SPDX-License-Identifier: BSD-3-Clause */
/* order.h: the scheduler-ordering state machine (Go's order.go), the contract between the
 * reader (reader.c) and the ordering (order.c). */
#ifndef GTR_SRC_ORDER_H
#define GTR_SRC_ORDER_H

#include "base.h"
#include "batchcursor.h"
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
/* gtr__ordering_pop is gtr__ordering_next without the copy: the popped event in its queue
 * slot, which stays as it is until the next call that queues events; NULL when the queue is
 * empty. */
gtr_event *gtr__ordering_pop(gtr__ordering *o);

/* Why gtr__ordering_run stopped (its status GTR_OK). */
typedef enum gtr__run_stop {
    GTR__RUN_FULL,     /* the queue holds max_queued events: the head's event is not tried */
    GTR__RUN_FAILED,   /* the head's event cannot advance yet: nothing changed for it */
    GTR__RUN_ENDED,    /* the head advanced and its M has no event left (still the head) */
    GTR__RUN_SAMPLE,   /* the head is later than sample_time: the CPU sample comes first */
} gtr__run_stop;

/* gtr__run_frontier is the reader's frontier as gtr__ordering_run works on it: the min-heap
 * of cursors (heap[0], the head, is the one advanced; n > 0, unchanged by the run), the kept
 * minimum of the head's children, and the time of the next CPU sample (INT64_MAX: none). */
typedef struct gtr__run_frontier {
    gtr__heap_entry *heap;
    size_t n;
    gtr__heap_root_memo *memo;
    gtr_time sample_time;
} gtr__run_frontier;

/* gtr__ordering_run is the reader's tryAdvance(0) done again and again, each time on the
 * frontier's head: each step advances the ordering by the head's event (queueing what
 * gtr__ordering_advance_cached would), reads the head's next event and updates the heap
 * (Go's heapUpdate(0)). It stops before a step when the queue holds max_queued events or a
 * CPU sample is due before the head, and after one when the head's event cannot advance or
 * its M has no more: the reader then does what Go's next ReadEvent would. An error (the
 * ordering's, or the cursor's "found invalid ..." ones) is returned with the queue as it was
 * before the failing step: what the steps before it queued stays queued. So does Go's
 * validateTableIDs (ReadEvent's, on every event it returns), on what each step queues: an
 * event naming a stack or string ID not in evt ends the run with its error (GTR_E_FORMAT),
 * the queue cut before it (after a cursor's error of the same step, which comes first). */
gtr_status gtr__ordering_run(gtr__ordering *o, const gtr__run_frontier *f,
                             gtr__cursor_ctx *cctx, gtr__ev_table *evt, uint64_t gen,
                             size_t max_queued, gtr__run_stop *stop, gtr_err *err);

/* gtr__ordering_check_ids is the table ID check of gtr__ordering_run for the events queued
 * after the first from (what gtr__ordering_advance_cached queued since): GTR_OK, or the
 * first failing event's error with the queue cut before it. gtr__ordering_advance and
 * gtr__ordering_advance_cached do not check. */
gtr_status gtr__ordering_check_ids(gtr__ordering *o, size_t from, gtr_err *err);

/* gtr__ordering_queued is the number of queued events; gtr__ordering_unqueue drops the
 * events queued after the first len (those of a step that failed). */
size_t gtr__ordering_queued(const gtr__ordering *o);
void gtr__ordering_unqueue(gtr__ordering *o, size_t len);

/* Presence requirements on a scheduling context (Go's constraint values). */
enum { GTR__MUST_NOT_HAVE = 0, GTR__MAY_HAVE = 1, GTR__MUST_HAVE = 2 };

/* gtr__ordering_validate_ctx is Go's validateCtx(schedCtx{g, p, m}, schedReqs{req_m, req_p,
 * req_g}): GTR_OK, or GTR_E_ORDER with one of its six messages. Exposed for tests, since no
 * advance function requires a thread or a proc to be absent. */
gtr_status gtr__ordering_validate_ctx(gtr_goid g, gtr_procid p, gtr_threadid m, int req_m,
                                      int req_p, int req_g, gtr_err *err);

/* gtr__ordering_dump appends Go's dumpOrdering(o) text (used in "broken trace" errors). */
void gtr__ordering_dump(const gtr__ordering *o, gtr_buf *out);

/* What a diagnosis of a stuck frontier (diagnosis.c) reads of the ordering. A goroutine's or
 * proc's state: its status (gtr_go_status or gtr_proc_status) and its sequence number, seq
 * in generation seq_gen. */
typedef struct gtr__resource_state {
    uint8_t status;
    uint64_t seq_gen, seq;
} gtr__resource_state;
/* gtr__ordering_goroutine, gtr__ordering_proc: false when the ordering has no state for id. */
bool gtr__ordering_goroutine(const gtr__ordering *o, gtr_goid id, gtr__resource_state *out);
bool gtr__ordering_proc(const gtr__ordering *o, gtr_procid id, gtr__resource_state *out);
/* gtr__ordering_thread: the goroutine and proc thread id holds (none when it has no state). */
void gtr__ordering_thread(const gtr__ordering *o, gtr_threadid id, gtr_goid *g, gtr_procid *p);
uint64_t gtr__ordering_gc_seq(const gtr__ordering *o);
/* gtr__ordering_gc_running: the GC is in a mark phase (between GCBegin or GCActive and
 * GCEnd). */
uint8_t gtr__ordering_gc_running(const gtr__ordering *o);
/* gtr__ordering_next_goroutine, gtr__ordering_next_proc iterate the goroutines and procs the
 * ordering has a state for (*pos starts at 0; false at the end), for a snapshot
 * (snapshot.c). */
bool gtr__ordering_next_goroutine(const gtr__ordering *o, size_t *pos, gtr_goid *id,
                                  gtr__resource_state *out);
bool gtr__ordering_next_proc(const gtr__ordering *o, size_t *pos, gtr_procid *id,
                             gtr__resource_state *out);
/* gtr__ordering_ranges stores the "Begin" event types of the special ranges in flight on proc
 * (proc true) or goroutine id, at most cap, and returns how many it stored. */
size_t gtr__ordering_ranges(const gtr__ordering *o, bool proc, int64_t id, uint8_t *begin_types,
                            size_t cap);
uint64_t gtr__ordering_initial_gen(const gtr__ordering *o);
/* gtr__ordering_failed_type: the wire type of the event whose advance failed with an error
 * (not a failure to advance), 0 when none did. */
uint8_t gtr__ordering_failed_type(const gtr__ordering *o);
/* Go's GoStatus.String and ProcStatus.String. */
const char *gtr__go_status_string(uint8_t s);
const char *gtr__proc_status_string(uint8_t s);

#endif /* GTR_SRC_ORDER_H */
