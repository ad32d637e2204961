/* SPDX-License-Identifier: BSD-3-Clause */
/* reduce.h: shrink a failing or crashing trace to a small one that fails the same way
 * (`gotrace reduce`).
 *
 * The reducer works on the structure model (fs/model.h), so every candidate stays well framed
 * (batch sizes, string lengths and frame counts recomputed). It runs delta debugging (ddmin:
 * drop chunks of halving size, keep any drop that preserves the failure) over whole
 * generations, then batches, then events and stack frames, then shrinks values (arguments,
 * batch header fields, string data: to zero, one, or half), and repeats until nothing
 * changes. Each candidate is judged by a caller-supplied predicate; gtr_fs_probe_run gives
 * the usual one: run reader + validator in a forked child and report its failure. */
#ifndef GTR_FS_REDUCE_H
#define GTR_FS_REDUCE_H

#include "gtr/buf.h"
#include "gtr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* gtr_fs_interesting returns true when data[0..size) still shows the failure. */
typedef bool (*gtr_fs_interesting)(void *ctx, const uint8_t *data, size_t size);

typedef struct gtr_fs_reduce_stats {
    size_t tests;          /* candidates judged */
    size_t rounds;         /* passes over all phases */
} gtr_fs_reduce_stats;

/* gtr_fs_reduce shrinks data[0..size) (which must be interesting) and appends the result to
 * out. A trace without a v2 header is returned unchanged. stats may be NULL. Errors:
 * GTR_E_NOMEM, GTR_E_USAGE when data is not interesting to begin with. */
gtr_status gtr_fs_reduce(const uint8_t *data, size_t size, gtr_fs_interesting fn, void *ctx,
                         gtr_buf *out, gtr_fs_reduce_stats *stats, gtr_err *err);

/* The outcome of running one trace in a child process. */
typedef enum gtr_fs_outcome {
    GTR_FS_PASS = 0,       /* read to the end and validated */
    GTR_FS_READ_ERROR,     /* the reader failed: msg */
    GTR_FS_VALID_ERROR,    /* the reader succeeded, the validator failed: msg */
    GTR_FS_CRASH,          /* the child died: signature */
    GTR_FS_TIMEOUT         /* the child ran out of time */
} gtr_fs_outcome;

typedef struct gtr_fs_probe {
    gtr_fs_outcome outcome;
    gtr_err msg;           /* READ_ERROR / VALID_ERROR: the message */
    char signature[512];   /* CRASH: "signal N" or "exit N", plus the sanitizer's error kind
                            * and first stack frame ("AddressSanitizer: heap-buffer-overflow
                            * in gtr__foo") when stderr carried a report */
} gtr_fs_probe;

/* gtr_fs_probe_run reads and validates data[0..size) (gtr_fs_check) in a forked child with a
 * timeout of timeout_s seconds, so crashes and hangs are observed rather than suffered. The
 * child's stderr is captured for the sanitizer report. Returns GTR_OK with *p filled, or
 * GTR_E_IO when fork/pipe fail. */
gtr_status gtr_fs_probe_run(const uint8_t *data, size_t size, unsigned timeout_s,
                            gtr_fs_probe *p, gtr_err *err);

/* gtr_fs_message_regexp appends to out a Go regexp matching msg's first line with every
 * number free to change: the line with regexp metacharacters escaped and each run of digits
 * replaced by [0-9]+. */
gtr_status gtr_fs_message_regexp(const char *msg, gtr_buf *out);

#ifdef __cplusplus
}
#endif
#endif /* GTR_FS_REDUCE_H */
