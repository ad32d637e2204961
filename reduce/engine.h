/* SPDX-License-Identifier: BSD-3-Clause */
/* engine.h: the reduction engine's state and steps, shared by the generic delta debugging
 * (ddmin.c) and the passes that know the format (format_passes.c). Private to reduce/. */
#ifndef GTR_REDUCE_ENGINE_H
#define GTR_REDUCE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reduce.h"
#include "tracedit.h"

/* The fingerprints of the candidates judged not interesting, so that none is judged twice. */
typedef struct seen_set {
    uint64_t *slots;     /* 0: empty (a fingerprint of 0 is stored as 1) */
    size_t cap, len;
} seen_set;

typedef struct reducer {
    reduce_interesting fn;
    void *ctx;
    tracedit_trace cur, cand;
    gtr_buf enc;
    gtr_buf cur_enc;     /* the current trace's encoding (empty before the first keep) */
    reduce_stats *stats;
    bool oom;
    double deadline;     /* CLOCK_MONOTONIC seconds when the budget ends; 0: none */
    bool halt;           /* out of memory or out of budget: stop editing */
    seen_set seen;
    reduce_progress_fn progress;   /* NULL: none */
    void *progress_ctx;
    double next_report;  /* CLOCK_MONOTONIC seconds of the next progress report */
    double started;
    size_t input_size;   /* the bytes reported before the first candidate is kept */
    bool read_in_process;   /* candidates may be read here (reduce_engine) */
    bool must_shrink;    /* a candidate must encode shorter than the current trace (for a
                          * pass whose edits add events as they drop others) */
} reducer;

/* reduce__start_cand makes r->cand a copy of r->cur to edit; false when out of memory (r->halt
 * is then set). */
bool reduce__start_cand(reducer *r);

/* reduce__try_cand encodes r->cand and makes it the current trace when it is interesting.
 * A candidate that encodes as the current trace, or as one already judged, is refused
 * unjudged. */
bool reduce__try_cand(reducer *r);

/* Units of a pass: count returns how many t has; drop removes units [lo, hi). Both derive the
 * units from t alone, so that after a removal the indices are those of the trace left. */
typedef size_t (*reduce__count_fn)(const tracedit_trace *t);
typedef void (*reduce__drop_fn)(tracedit_trace *t, size_t lo, size_t hi);

/* Generations as units: runs of body batches sharing a gen field, each with the
 * EndOfGeneration after it. */
size_t reduce__count_gens(const tracedit_trace *t);
void reduce__drop_gens(tracedit_trace *t, size_t lo, size_t hi);

/* reduce__ddmin removes chunks of units (sizes halving from n/2 to 1) while the trace stays
 * interesting. True on progress. */
bool reduce__ddmin(reducer *r, reduce__count_fn count, reduce__drop_fn drop);

/* reduce__renumber renames each kind of ID in the trace (goroutines, procs, threads,
 * strings, stacks, tasks) to 1, 2, 3... in their order, one candidate per kind (renumber.c).
 * True on progress. */
bool reduce__renumber(reducer *r);

/* reduce__format_passes runs the passes that know the format, coarse to fine, ahead of the
 * generic ones: the generations after and before the failure, each thread's events after the
 * failure, whole threads, goroutines and procs. True on progress. */
bool reduce__format_passes(reducer *r);

/* reduce__cut_generation cuts the failing generation at the latest point before the failure
 * where the trace, its state there restated by status events and the sequence numbers after
 * it renumbered, still fails the same way (bisected; state_cut.c). Only with
 * read_in_process. True on progress. */
bool reduce__cut_generation(reducer *r);

/* ---- Shared by the jobs of reduce.c and diff.c. ---- */

/* reduce__count_model counts the batches (EndOfGeneration markers not) and events of the
 * wire trace data[0..size) as the trace-editing model decodes it (0 and 0 when it does not). */
void reduce__count_model(const uint8_t *data, size_t size, size_t *nbatches, size_t *nevents);

/* reduce__first_line appends s's first line to out, with " ..." when more follows. */
void reduce__first_line(gtr_buf *out, const char *s);

/* reduce__build_fixture appends to out the fixture for wire[0..len): comment, expectation
 * exp_text and the trace in the text format. False, with the reason in why, when the text
 * format cannot name the trace's bytes. */
bool reduce__build_fixture(gtr_buf *out, const uint8_t *wire, size_t len, const char *exp_text,
                           const char *comment, gtr_buf *why);

/* reduce__now: CLOCK_MONOTONIC seconds. */
double reduce__now(void);

/* A job of one or more reductions (reduce_trace, reduce_diff_trace; job.c) under one budget,
 * whose progress is reported as the whole job's: candidates and time from the job's start. */
typedef struct reduce__job {
    reduce_progress_fn progress;  /* where the job stands (NULL: nobody asked) */
    void *progress_ctx;
    double deadline;              /* CLOCK_MONOTONIC seconds when the budget ends; 0: none */
    size_t tests_before;          /* candidates of the reductions before the current one */
    double started;               /* reduce__now() when the job started */
} reduce__job;

/* reduce__job_reduce is one reduction of the job: the engine (reduce_ddmin_run) shrinks
 * from[0..len), which may be r->wire's own bytes, with candidates judged by fn(ctx, ...) and
 * read_in_process as reduce_engine's, under what is left of the job's budget. The result
 * replaces r->wire and its stats are added to r->stats. A budget already spent makes
 * from[0..len) the result, with r->stats.budget_hit set. Errors: reduce_ddmin_run's,
 * GTR_E_NOMEM. */
gtr_status reduce__job_reduce(reduce__job *job, const uint8_t *from, size_t len,
                              reduce_interesting fn, void *ctx, bool read_in_process,
                              reduce_result *r, gtr_err *err);

/* reduce__job_finish ends the job's result r: Go's golden runner (the program oracle; NULL:
 * not asked) on the fixture written, if any (r->go_rejects and r->go_check, when it ran); a
 * result with neither a fixture nor the reason why gets "out of memory" as that reason.
 * GTR_E_NOMEM when a buffer of r ran out of memory. */
gtr_status reduce__job_finish(reduce_result *r, const char *oracle, unsigned timeout_s,
                              gtr_err *err);

#endif /* GTR_REDUCE_ENGINE_H */
