/* SPDX-License-Identifier: BSD-3-Clause */
/* splice.h: the splice operator of the structure-aware mutator (private to fuzz/structure).
 *
 * It runs the scheduler model (sim/) for a small trace of the input's version and splices into
 * the input either one whole model generation (before, between or after the input's, renumbered
 * to fit) or one or more of the model's M batches into one of the input's generations (their
 * string and stack references remapped onto that generation's tables or added to them). See
 * splice.c for the choices it draws. */
#ifndef GTR_FS_SPLICE_H
#define GTR_FS_SPLICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracedit.h"

/* gtr__fs_splice edits t in place. model and scratch are the caller's scratch space (reset
 * and reused: the model's trace and its wire bytes). Every choice is drawn from seed, so the
 * result is deterministic for (t, seed, max_size). max_size caps the model's wire output
 * (along with a fixed cap on its event count); the caller still fits the result to its own
 * max_size. *kind (when not NULL) receives a static string naming what was done (see
 * splice.c). Returns false, t unchanged, when the splice does not apply: t has no v2 header,
 * its version is one the model lacks, the model's trace did not fit, this build has no sim/,
 * or memory ran out. */
bool gtr__fs_splice(tracedit_trace *t, tracedit_trace *model, gtr_buf *scratch, uint64_t seed,
                    size_t max_size, const char **kind);

#endif /* GTR_FS_SPLICE_H */
