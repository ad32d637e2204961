/* SPDX-License-Identifier: BSD-3-Clause */
/* validate.h: the event-stream validator (Go's internal/trace/testtrace Validator).
 *
 * A gtr_validator checks a stream of gtr_events as gtr_reader_next returns them: timestamp
 * order, sync numbering and clock snapshots, stack frames, goroutine and proc state machines
 * and their binding to threads, ranges and tasks. Messages reproduce Go's verbatim; when one
 * event fails several checks they are joined with "\n" as errors.Join does. */
#ifndef GTR_VALIDATE_H
#define GTR_VALIDATE_H

#include "gtr/alloc.h"
#include "gtr/event.h"
#include "gtr/reader.h"
#include "gtr/spec.h"
#include "gtr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gtr_validator gtr_validator;   /* opaque; not thread-safe */

/* gtr_validator_new creates a validator (Go's NewValidator; GoVersion = GTR_GO_CURRENT until
 * gtr_validator_set_go_version, or gtr_validator_run, sets the trace's). alc: NULL for libc.
 * On success *out owns it (free with gtr_validator_free). */
GTR_API gtr_status gtr_validator_new(const gtr_alloc *alc, gtr_validator **out, gtr_err *err);

/* gtr_validator_set_go_version sets Validator.GoVersion: the version of the trace being
 * validated (clock snapshot checks from Go 1.25, leniency for pre-1.22 traces). A caller that
 * feeds gtr_validator_event from a reader sets gtr_reader_go_version(r) here, as Go's tests
 * do; gtr_validator_run does it itself unless a version was set here, which it then keeps. */
GTR_API void gtr_validator_set_go_version(gtr_validator *v, gtr_go_version ver);

/* gtr_validator_skip_clock_snapshot_checks: Validator.SkipClockSnapshotChecks (no
 * monotonicity checks between successive clock snapshots). */
GTR_API void gtr_validator_skip_clock_snapshot_checks(gtr_validator *v);

/* gtr_validator_event validates ev as the next event of the stream (Validator.Event).
 * Returns GTR_OK, GTR_E_INVALID with Go's message(s) in err, or GTR_E_NOMEM. The validator
 * keeps no reference to ev or its strings after returning (names of active ranges and task
 * types are copied). Allocation happens only when new state appears (a new goroutine, proc,
 * thread, range or task), never per event in steady state. */
GTR_API gtr_status gtr_validator_event(gtr_validator *v, const gtr_event *ev, gtr_err *err);

/* gtr_validator_run reads events from r and validates each, as a loop of gtr_reader_next and
 * gtr_validator_event would, until the trace ends, an error, or max events (0: no limit).
 * The library's own loop, with both calls' common paths inline, where a caller's loop of
 * the two calls pays two calls an event unless link-time optimisation inlines them
 * (gotrace validate runs it).
 *
 * The trace's version: unless gtr_validator_set_go_version gave v one, v validates as of
 * r's (gtr_reader_go_version), so that a go1.22 or an old trace validates as Go's tests
 * validate it; a version set explicitly is kept.
 *
 * *n (if not NULL) receives the events read, the one the validator rejected included.
 * Returns one of the two successes, GTR_OK after max events (call again for more) or
 * GTR_EOF at the end of the trace, with err clear (code GTR_OK, empty text: nothing to
 * clear or report); or a negative status, the reader's or the validator's error, with its
 * message in err (NULL: not wanted), exactly as the two calls return them. */
GTR_API gtr_status gtr_validator_run(gtr_validator *v, gtr_reader *r, uint64_t max, uint64_t *n,
                                     gtr_err *err);

/* gtr_validator_free releases v. NULL: no-op. */
GTR_API void gtr_validator_free(gtr_validator *v);

#ifdef __cplusplus
}
#endif
#endif /* GTR_VALIDATE_H */
