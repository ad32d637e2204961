/* SPDX-License-Identifier: BSD-3-Clause */
/* diagnosis.h: why a trace is stuck (beyond Go).
 *
 * When no thread's next event can be put in order, Go's reader fails with "broken trace:
 * failed to advance: frontier:" and lists each thread's next event, but not why none of them
 * may happen. The ordering knows: each event waits on one condition of a goroutine, a proc,
 * a thread or the GC (a status, a sequence number, a proc to be released). A diagnosis asks a
 * reader that failed this way, event by event, and names for each what it waits on, what it
 * needs, what the resource has now and, when a history was kept, the event that last
 * changed it. Nothing of it changes what the reader returns or says.
 *
 *   gtr_history *h;                       // optional: the last event of each G and P
 *   gtr_history_new(NULL, &h, &err);
 *   while ((st = gtr_reader_next(r, &ev, &err)) == GTR_OK)
 *       gtr_history_note(h, r, &ev);
 *   gtr_diagnosis *d;
 *   if (gtr_reader_diagnose(r, h, &d, &err) == GTR_OK) {
 *       gtr_diagnosis_format(d, &text);   // words for a runtime or trace-writer author
 *       gtr_diagnosis_free(d);
 *   } */
#ifndef GTR_DIAGNOSIS_H
#define GTR_DIAGNOSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gtr/buf.h"
#include "gtr/event.h"
#include "gtr/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a stuck event waits on. */
typedef enum gtr_wait {
    GTR_WAIT_NOTHING = 0,      /* no condition found: the event could advance (a defect) */
    GTR_WAIT_UNDECLARED,       /* its goroutine or proc has no state: no status event, no
                                * creation has declared it */
    GTR_WAIT_STATE,            /* its goroutine or proc is in another status */
    GTR_WAIT_SEQUENCE,         /* its goroutine's or proc's sequence number is not the one
                                * just before the event's */
    GTR_WAIT_THREAD_PROC,      /* ProcStart: its thread still holds another proc */
    GTR_WAIT_PROC_RELEASE,     /* GoSyscallEndBlocked: its thread's proc is still in a
                                * syscall, and must be stolen or stopped first */
    GTR_WAIT_GC_SEQUENCE       /* a GC event: the GC's sequence number is not the one just
                                * before the event's */
} gtr_wait;

/* gtr_wait_string names a wait ("sequence", "state", ...). */
GTR_API const char *gtr_wait_string(gtr_wait w);

/* One stuck event: the next event of one thread of the frontier. */
typedef struct gtr_stuck_event {
    gtr_threadid m;            /* the thread whose next event it is */
    uint8_t type;              /* its wire type (gtr_spec) */
    gtr_time time;             /* its timestamp (as read, before any fix-up) */
    uint64_t args[GTR_MAX_TIMED_EVENT_ARGS - 1];   /* its arguments, gtr_spec(type)->args[1..] */

    gtr_wait wait;
    gtr_resource_kind resource;/* what it waits on (GTR_RESOURCE_NONE: the GC) */
    int64_t id;                /* the goroutine, proc or thread */
    /* What it needs: a status (Go's GoStatus or ProcStatus name), and for goroutine and proc
     * events with a sequence number, seq_need in generation gen (the event's own, minus one;
     * for the GC, the GC sequence number). need_status is NULL when any status will do. */
    const char *need_status;
    uint64_t gen, seq_need;
    bool has_seq;
    /* What the resource has now: declared false when it has no state (UNDECLARED); then its
     * status and sequence number (seq_have in generation seq_have_gen). */
    bool declared;
    const char *have_status;
    uint64_t seq_have_gen, seq_have;
    int64_t held;              /* THREAD_PROC: the proc the thread holds */
    /* The event that last changed the resource, from the history (has_last false without
     * one, or when the history saw none): its type's name, thread, time and generation. */
    bool has_last;
    const char *last_name;
    gtr_threadid last_m;
    gtr_time last_time;
    uint64_t last_gen;
} gtr_stuck_event;

typedef struct gtr_history gtr_history;     /* opaque */
typedef struct gtr_diagnosis gtr_diagnosis; /* opaque */

/* gtr_history_new makes an empty history (alc NULL: libc); *out owns it (gtr_history_free).
 * GTR_E_NOMEM. */
GTR_API gtr_status gtr_history_new(const gtr_alloc *alc, gtr_history **out, gtr_err *err);

/* gtr_history_note records ev, just returned by r, as the last event of the goroutine or proc
 * whose state it changes (a state transition; for a syscall's begin and end, the proc too).
 * Costs a hash look-up per such event. GTR_E_NOMEM (the history then misses this event),
 * GTR_E_USAGE for a NULL argument. */
GTR_API gtr_status gtr_history_note(gtr_history *h, const gtr_reader *r, const gtr_event *ev);

GTR_API void gtr_history_free(gtr_history *h);

/* gtr_reader_diagnose diagnoses r, which must have failed to advance (its error "broken
 * trace: failed to advance: frontier:"): one stuck event per thread of the frontier, in the
 * frontier's order (time order, as Go's message lists them). h may be NULL. On success *out
 * owns the diagnosis (gtr_diagnosis_free). Errors: GTR_E_USAGE "the reader did not fail to
 * advance" for a reader that did not (not failed, failed otherwise, or an old-format trace),
 * or a NULL argument; GTR_E_NOMEM. */
GTR_API gtr_status gtr_reader_diagnose(const gtr_reader *r, const gtr_history *h,
                                       gtr_diagnosis **out, gtr_err *err);

/* gtr_reader_failed_event is beyond Go too: the type name of the event (for example
 * "GoCreate") that Go's ordering refused with the error r failed with, as a reader error
 * names no event ("expected a proc but didn't have one" is the same message on a GoCreate
 * and on a GoStop). NULL when r has not failed, or failed otherwise: in the header, a
 * batch, a generation's tables, a failure to advance (gtr_reader_diagnose) or an
 * old-format trace. The string is static. */
GTR_API const char *gtr_reader_failed_event(const gtr_reader *r);

GTR_API size_t gtr_diagnosis_len(const gtr_diagnosis *d);
/* gtr_diagnosis_event: the i-th stuck event (NULL when i is out of range). */
GTR_API const gtr_stuck_event *gtr_diagnosis_event(const gtr_diagnosis *d, size_t i);
/* gtr_diagnosis_generation: the generation the reader was stuck in. */
GTR_API uint64_t gtr_diagnosis_generation(const gtr_diagnosis *d);

/* gtr_diagnosis_format appends the diagnosis in words, one paragraph per stuck event, for
 * example: "M 1916's GoStart g=3444 g_seq=51723 (time 1200) waits for goroutine 3444 at
 * sequence 51722 of generation 2; the goroutine is at sequence 51720 (its last event:
 * GoStop on M 1915 at time 1100, generation 2). The events with sequences 51721-51722 are
 * missing: was a batch lost?". Returns the buffer's status. */
GTR_API gtr_status gtr_diagnosis_format(const gtr_diagnosis *d, gtr_buf *out);

/* gtr_stuck_event_shape appends the shape of one stuck event: the event's type, the
 * condition and the resource kind, the status needed and had, and how the sequence numbers
 * disagree ("behind": events are missing; "ahead": the resource has passed it; "another
 * generation"), without any ID, time or number, so that two traces stuck for the same
 * reason on renamed resources have the same shapes. A goroutine 0 or an event's sequence
 * number 0 is named ("goroutine=0", "seq=zero" or "event-seq=0"), since no real writer emits
 * them: a reduction that reaches one has slipped. One line, no newline. */
GTR_API gtr_status gtr_stuck_event_shape(const gtr_stuck_event *e, gtr_buf *out);

/* gtr_diagnosis_shape appends the distinct shapes of d's events, sorted, one per line. */
GTR_API gtr_status gtr_diagnosis_shape(const gtr_diagnosis *d, gtr_buf *out);

GTR_API void gtr_diagnosis_free(gtr_diagnosis *d);

#ifdef __cplusplus
}
#endif
#endif /* GTR_DIAGNOSIS_H */
