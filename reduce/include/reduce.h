/* SPDX-License-Identifier: BSD-3-Clause */
/* reduce.h: shrink a trace that fails or crashes to a minimal one that fails the same way,
 * and turn it into a `.test` fixture that Go's golden runner accepts (`gotrace reduce`).
 *
 * The failure kept is judged as Go's TestReaderGolden judges a trace (tgen/judge.h):
 *   - a header or reader error, with no validator error before it: the fixture expects it
 *     (FAILURE "<regexp>");
 *   - a go1.25+ reader error in the first generation, which Go's reader announces with a
 *     Sync that has no clock snapshot (a validator error no fixture can avoid): a valid first
 *     generation is synthesised in front, so the same error surfaces in the second one;
 *   - a validator error: no fixture can hold it (the golden runner fails on every validator
 *     error), so the reduced wire bytes are the result;
 *   - a crash, abort or hang (observed in a child process): the expectation is what Go's
 *     reader says of the reduced trace (the oracle); without an oracle, the wire bytes.
 * Every candidate is encoded from the trace-editing model (tracedit.h), so it stays well
 * framed, and judged in a forked child, so crashes are observed rather than suffered. */
#ifndef GTR_REDUCE_H
#define GTR_REDUCE_H

#include <stdbool.h>
#include <stdint.h>

#include "gtr/buf.h"
#include "godiff.h"
#include "gtr/status.h"
#include "tgen/judge.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The reduction engine: delta debugging on the trace-editing model. ---- */

/* reduce_interesting returns true when data[0..size) still shows the failure. */
typedef bool (*reduce_interesting)(void *ctx, const uint8_t *data, size_t size);

typedef struct reduce_stats {
    size_t tests;          /* candidates judged */
    size_t rounds;         /* passes over all phases */
    bool budget_hit;       /* the time budget ended the reduction (the result is the smallest
                            * interesting trace found by then) */
} reduce_stats;

/* reduce_ddmin shrinks data[0..size) (which must be interesting) and appends the result to
 * out. First, once, the passes that know the format: the generations after and before the
 * failure (bisected), each thread's events after it (bisected), whole threads, goroutines
 * (every event naming one) and procs. Then phases, repeated until a round changes nothing:
 * whole generations, batches, events,
 * stack frames (ddmin: chunks of halving size), undecodable tails, then values (batch
 * header fields, arguments, string data: to 0, 1, or half). A trace without a v2 header is
 * returned unchanged. stats may be NULL. Errors: GTR_E_NOMEM, GTR_E_USAGE when data is not
 * interesting to begin with. */
gtr_status reduce_ddmin(const uint8_t *data, size_t size, reduce_interesting fn, void *ctx,
                        gtr_buf *out, reduce_stats *stats, gtr_err *err);

/* reduce_ddmin_budget is reduce_ddmin that stops editing after budget_s seconds (0: no
 * limit) and returns the smallest interesting trace found by then. */
gtr_status reduce_ddmin_budget(const uint8_t *data, size_t size, reduce_interesting fn,
                               void *ctx, double budget_s, gtr_buf *out, reduce_stats *stats,
                               gtr_err *err);

/* Where a reduction stands: the current trace's bytes and events, the candidates judged and
 * the seconds since it started. */
typedef struct reduce_progress {
    size_t bytes, events, tests;
    double elapsed;
} reduce_progress;

/* reduce_progress_fn is told where a reduction stands, at most four times a second and once
 * at its end. */
typedef void (*reduce_progress_fn)(void *ctx, const reduce_progress *p);

/* How reduce_ddmin_run runs: the budget (seconds, 0: none), who is told the progress (NULL:
 * nobody), and whether candidates may be read in this process (the failure is a reader
 * error, not a crash or hang): the pass that cuts a generation at a point before the
 * failure (restating the state there with status events, gtr/snapshot.h) reads the trace
 * here. */
typedef struct reduce_engine {
    double budget_s;
    reduce_progress_fn on_progress;
    void *progress_ctx;
    bool read_in_process;
} reduce_engine;

/* reduce_ddmin_run is reduce_ddmin as opt says (NULL: reduce_ddmin's defaults). */
gtr_status reduce_ddmin_run(const uint8_t *data, size_t size, reduce_interesting fn, void *ctx,
                            const reduce_engine *opt, gtr_buf *out, reduce_stats *stats,
                            gtr_err *err);

/* reduce_v1_header: data starts with an old-format header (go 1.11, 1.19 or 1.21). Such a
 * trace has no v2 framing: Go parses it whole in NewReader, and reduce_ddmin reduces it by
 * its self-delimiting batches, events and bytes. */
bool reduce_v1_header(const uint8_t *data, size_t size);

/* ---- Judging one trace in a child process. ---- */

typedef enum reduce_outcome {
    REDUCE_JUDGED = 0,     /* the judgment completed: verdict */
    REDUCE_CRASH,          /* the child died: signature */
    REDUCE_HANG            /* the child ran out of time */
} reduce_outcome;

typedef struct reduce_probe {
    reduce_outcome outcome;
    tgen_verdict verdict;  /* REDUCE_JUDGED */
    bool unnameable;       /* reduce_probe_run_text: the text format cannot hold the trace */
    char signature[512];   /* CRASH: "signal N" or "exit N", plus the sanitizer's error kind
                            * and first stack frame when stderr carried a report; HANG:
                            * "timeout" */
} reduce_probe;

/* reduce_probe_run judges data[0..size) (tgen_judge) in a forked child with a timeout of
 * timeout_s seconds. Returns GTR_OK with *p filled (release p->verdict with tgen_verdict_free),
 * or GTR_E_IO when fork or pipe fail. */
gtr_status reduce_probe_run(const uint8_t *data, size_t size, unsigned timeout_s,
                            reduce_probe *p, gtr_err *err);

/* reduce_probe_run_text is reduce_probe_run on what a fixture would hold: the trace written
 * in the text format and read back into wire bytes (gtr_raw_wire_to_text, then
 * gtr_raw_text_to_wire). When either conversion fails, p->unnameable is set. */
gtr_status reduce_probe_run_text(const uint8_t *data, size_t size, unsigned timeout_s,
                                 reduce_probe *p, gtr_err *err);

/* reduce_message_regexp appends to out a Go regexp matching msg's first line with every
 * number free to change: the line with regexp metacharacters escaped and each run of digits
 * replaced by [0-9]+. */
gtr_status reduce_message_regexp(const char *msg, gtr_buf *out);

/* reduce_prepend_generation appends to out the wire trace data[0..size) with a minimal valid
 * generation synthesised in front of it (Frequency, and for go1.25+ the sync batch's clock
 * snapshot; EndOfGeneration for go1.26+), numbered one below the trace's first generation
 * (the trace's generations are renumbered up by one when its first is 1 or less).
 * GTR_E_USAGE when data has no v2 header. */
gtr_status reduce_prepend_generation(const uint8_t *data, size_t size, gtr_buf *out,
                                     gtr_err *err);

/* reduce_synthesize_stuck appends to out a minimal trace stuck for the same reason as the
 * wire trace data[0..size), which must fail to advance: for each distinct line of its
 * diagnosis's shape (gtr_diagnosis_shape), the few events that put a fresh goroutine, proc
 * or GC in the state the stuck event waits on, then that event; nothing of the input's
 * events is kept. The reducer judges it like any candidate. GTR_E_USAGE when data does not
 * fail to advance or a line of its shape has no recipe here; GTR_E_NOMEM. */
gtr_status reduce_synthesize_stuck(const uint8_t *data, size_t size, gtr_buf *out);

/* reduce_cut_trace appends to out the wire trace data[0..size) cut in its generation after
 * the reader's k-th event: the threads' events the ordering has advanced by then dropped,
 * the state they left restated by status events at the start of the generation, which
 * becomes the first, and the sequence numbers after the cut renumbered (the pass
 * reduce_ddmin bisects with; gtr/snapshot.h). GTR_E_USAGE when the reader does not read k
 * events of a generation; GTR_E_NOMEM. */
gtr_status reduce_cut_trace(const uint8_t *data, size_t size, uint64_t k, gtr_buf *out);

/* ---- The whole job: `gotrace reduce`. ---- */

typedef struct reduce_options {
    const char *expect;    /* keep a failure whose message matches this Go regexp; NULL: the
                            * input's own first failure, numbers masked */
    size_t expect_len;
    unsigned timeout_s;    /* per candidate; 0: 10 s */
    unsigned budget_s;     /* the whole reduction's time; 0: no limit */
    const char *oracle;    /* Go's oracle (gtroracle) for crash and hang expectations, and to
                            * check the fixture with Go's golden runner; NULL: none */
    bool no_synthesis;     /* a trace that fails to advance is reduced from its own events
                            * only, never from a trace built for its reason
                            * (reduce_synthesize_stuck) */
    reduce_progress_fn progress;   /* told where the reduction stands; NULL: nothing */
    void *progress_ctx;
} reduce_options;

/* What was kept. */
typedef enum reduce_kind {
    REDUCE_KEEP_READ_ERROR,        /* a header or reader error */
    REDUCE_KEEP_LATER_GEN_ERROR,   /* a go1.25+ first-generation reader error, moved to the
                                    * second generation */
    REDUCE_KEEP_VALIDATOR_ERROR,   /* a validator error */
    REDUCE_KEEP_CRASH,
    REDUCE_KEEP_HANG,
    REDUCE_KEEP_DIVERGENCE         /* gotrace and Go disagree (reduce_diff_trace) */
} reduce_kind;

typedef struct reduce_result {
    reduce_kind kind;
    gtr_buf fixture;       /* the .test text; empty when only wire bytes can hold it */
    gtr_buf wire;          /* the reduced trace's wire bytes (the fixture's trace) */
    gtr_buf why_wire;      /* when fixture is empty: why (one sentence) */
    gtr_buf kept;          /* the failure kept: message, or crash signature */
    gtr_buf go_check;      /* with an oracle: Go's golden runner's line on the fixture
                            * ("ok" or its failure); empty without */
    bool go_rejects;       /* Go's golden runner rejected the fixture (a divergence) */
    bool synthesized;      /* the trace was built for the input's reason
                            * (reduce_synthesize_stuck), then reduced */
    reduce_stats stats;
    size_t in_bytes, in_batches, in_events;
    size_t out_batches, out_events;
} reduce_result;

/* reduce_kind_text names a kind in words ("reader error", "crash", ...). */
const char *reduce_kind_text(reduce_kind k);

/* reduce_result_free releases the buffers of r (not r). */
void reduce_result_free(reduce_result *r);

/* reduce_trace reduces the wire trace data[0..size). Errors (message in err): the input has
 * no Go execution trace header to reduce (Go's header error quoted), it reads and validates
 * (nothing to keep), --expect does not match its failure, the failure does not reproduce,
 * fork/pipe failures, out of memory. On success *r holds the result (reduce_result_free). */
gtr_status reduce_trace(const uint8_t *data, size_t size, const reduce_options *opt,
                        reduce_result *r, gtr_err *err);

/* ---- A divergence from Go: `gotrace reduce --diff` (diff.c). ---- *
 *
 * What is kept is "gotrace and Go disagree in the same way": both read the candidate (wire
 * bytes, as `gtroracle validate` does: each event's String(), the validator, the first error
 * ends it), they differ (godiff_compare), Go did not panic, Go's own reruns do not explain the
 * difference (godiff_go_explains: map order), and the difference has the input's signature
 * (reduce_diff_signature). The fixture's expectation is Go's verdict on the reduced trace. */

/* reduce_diff_signature appends to out the signature of the difference between ours and go,
 * which must differ: the endings of both sides (names of godiff_end_name), then
 *   - the endings differ: each side's message (first line, numbers masked as
 *     reduce_message_regexp masks them; none for EOF);
 *   - else the dumps differ: the kind of the event (its first word after the M=, P=, G=
 *     fields, digits masked) holding the first differing line on each side, or "(end)"
 *     where that side's dump ends first;
 *   - else the messages, masked, of both sides.
 * Robust to shrinking (no IDs, times or numbers), yet a candidate diverging at another event
 * kind, on another message or with other endings does not match. */
gtr_status reduce_diff_signature(const godiff_reading *ours, const godiff_reading *go,
                                 gtr_buf *out);

/* Go's oracle program (ci/oracle-fetch.sh) as Go's side of a comparison: ctx is a
 * reduce_oracle_go. `gtroracle validate` cannot tell a header error from a reader error (exit
 * status 1 for both): both are GODIFF_END_READ, so diff_header_as_read must be set with it. */
typedef struct reduce_oracle_go {
    const char *oracle;
    unsigned timeout_s;
} reduce_oracle_go;

bool reduce_oracle_go_read(void *ctx, const uint8_t *data, size_t size, godiff_owned *out);

typedef struct reduce_diff_options {
    godiff_go_fn go;       /* Go's reader: godiff_go_library_read (in process), or
                            * reduce_oracle_go_read */
    void *go_ctx;
    int go_runs;           /* runs of Go that must all differ from ours before the input's,
                            * or the fixture's, difference counts (0: 512); on a candidate, an
                            * eighth of them (at least 2): its signature is the input's */
    bool header_as_read;   /* Go's side names a header error a reader error: so is ours */
    int go_minor;          /* the release of Go's reader (godiff_read_ours; 0: 1.27.3's) */
} reduce_diff_options;

/* reduce_diff_trace reduces the wire trace data[0..size), on which gotrace and Go disagree,
 * to a minimal trace on which they disagree the same way, and makes its fixture: the
 * expectation is Go's verdict (SUCCESS, or FAILURE with Go's message, numbers free), so Go's
 * golden runner accepts it; when Go's validator rejects the trace, the wire bytes. opt's
 * expect must be NULL; its timeout, budget, oracle (Go's golden runner on the fixture) and
 * progress apply. r->kind is REDUCE_KEEP_DIVERGENCE and r->kept the signature. Errors: no
 * trace header, the two agree (or differ only as Go's runs differ), Go panics, out of
 * memory. */
gtr_status reduce_diff_trace(const uint8_t *data, size_t size, const reduce_options *opt,
                             const reduce_diff_options *dopt, reduce_result *r, gtr_err *err);

#ifdef __cplusplus
}
#endif
#endif /* GTR_REDUCE_H */
