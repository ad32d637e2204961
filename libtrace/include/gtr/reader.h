/* SPDX-License-Identifier: BSD-3-Clause */
/* reader.h: the high-level trace reader (Go's internal/trace Reader): reads a Go execution
 * trace (v2 format, Go 1.22 onward) generation by generation, puts the events of all threads
 * into one consistent order and hands them out one at a time.
 *
 * Lifetime rule: an event returned by gtr_reader_next borrows from the reader's current
 * generation (its string, stack and frame tables, experimental batches). All of it stays
 * valid until gtr_reader_next returns the *next* Sync event (or the reader is freed); copy
 * what you need longer. Only one generation is resident at a time, so memory does not grow
 * with the length of the trace. */
#ifndef GTR_READER_H
#define GTR_READER_H

#include "gtr/event.h"
#include "gtr/input.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gtr_reader gtr_reader;   /* opaque; not thread-safe */

/* gtr_reader_new reads the trace header from in and creates a reader (Go's NewReader).
 * The reader borrows in (which must outlive it) and allocates through alc (NULL: libc).
 * On success *out owns the reader (gtr_reader_free). Errors: Go's header messages ("bad file
 * format: not a Go execution trace?", "unknown or unsupported trace version go 1.%d"),
 * GTR_E_NOMEM. A go 1.11, 1.19 or 1.21 trace is read whole here and converted as Go does
 * (libtrace/src/tracev1/README.md), so its parse errors are returned here, with Go's
 * messages; its events then come from gtr_reader_next like any other. */
GTR_API gtr_status gtr_reader_new(gtr_input *in, const gtr_alloc *alc, gtr_reader **out,
                                  gtr_err *err);

/* gtr_reader_open_path opens the file at path ("-": stdin; gzip-compressed or not, as
 * gtr_input_open_path reads it) and creates a reader on it, as gtr_input_open_path then
 * gtr_reader_new would, in one call: the reader owns the input, which gtr_reader_free then
 * frees (and closes). alc: NULL for libc, for both. On success *out owns the reader; on
 * failure *out is NULL and err holds the input's ("open PATH: <strerror>") or the reader's
 * error. */
GTR_API gtr_status gtr_reader_open_path(const char *path, const gtr_alloc *alc,
                                        gtr_reader **out, gtr_err *err);

/* gtr_reader_next reads the next event into *ev (Go's ReadEvent). Returns GTR_OK with *ev
 * filled in, GTR_EOF once the trace is exhausted (after the final Sync event), or a negative
 * status with err holding Go's message. Errors are sticky: every later call returns the
 * same status and message. A non-empty trace always starts with a Sync event, has one at the
 * start of every generation and ends with one. Event times strictly increase. */
GTR_API gtr_status gtr_reader_next(gtr_reader *r, gtr_event *ev, gtr_err *err);

/* gtr_reader_go_version returns the trace's format version (the N of "go 1.N trace"). */
GTR_API gtr_go_version gtr_reader_go_version(const gtr_reader *r);

/* gtr_reader_free releases r and everything its events borrow (NULL: no-op). An input given
 * to gtr_reader_new is not closed (the caller frees it after the reader); one the reader
 * opened (gtr_reader_open_path) is freed with it. */
GTR_API void gtr_reader_free(gtr_reader *r);

#ifdef __cplusplus
}
#endif
#endif /* GTR_READER_H */
