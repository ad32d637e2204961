/* SPDX-License-Identifier: BSD-3-Clause */
/* judge.h: Go's golden judgment of a trace: what TestReaderGolden (testReader in
 * src/internal/trace/reader_test.go at go1.27.3) sees when it reads a trace, independent of
 * any expectation. One judgment serves `gotrace check` (with the fixture's expectation),
 * `gotrace reduce` (which failure to keep) and the fuzz tools' oracles.
 *
 * The run: NewReader (a header error ends it); then ReadEvent until io.EOF or an error, the
 * validator told the reader's Go version before each event and fed every event. A validator
 * error is recorded (Go: t.Error) and the reading goes on; the first reader error ends it.
 * The golden runner then fails the fixture for every validator error, and checks the end
 * (the header or reader error, or none) against the expectation. */
#ifndef TGEN_JUDGE_H
#define TGEN_JUDGE_H

#include <stdint.h>

#include "gtr/alloc.h"
#include "gtr/buf.h"
#include "gtr/spec.h"
#include "gtr/status.h"
#include "tgen/expect.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the reading ended. */
typedef enum tgen_end {
    TGEN_END_EOF = 0,      /* read to io.EOF */
    TGEN_END_HEADER,       /* NewReader failed (the header): end_err */
    TGEN_END_READ          /* ReadEvent failed: end_err */
} tgen_end;

typedef struct tgen_verdict {
    tgen_end end;
    gtr_err end_err;          /* the header or reader error (end != TGEN_END_EOF) */
    gtr_go_version version;   /* the reader's version (0 after a header error) */
    uint64_t events;          /* events returned before the end */
    unsigned invalid;         /* validator errors (one per failing event) */
    gtr_err valid_err;        /* the first validator error (invalid > 0) */
    uint64_t valid_at;        /* index of the event it was on (0 = the first event) */
    gtr_buf stuck;            /* beyond Go: for a reader that failed to advance, why it is
                               * stuck (gtr_diagnosis_shape: one line per distinct reason,
                               * no IDs or numbers); empty otherwise */
    char failed_on[32];       /* beyond Go: for a reader error of the ordering, the type of
                               * the event it refused (gtr_reader_failed_event, e.g.
                               * "GoCreate"); "" otherwise */
} tgen_verdict;

/* tgen_judge reads wire[0..len) (wire bytes, never gunzipped: the golden runner reads a
 * fixture's trace as it is) the way testReader does and fills *v. When dump is not NULL each
 * event's String() and "\n" is appended to it. Allocation goes through alc (NULL: libc).
 * Returns GTR_OK when the judgment is complete (whatever it found), or GTR_E_NOMEM when the
 * validator itself could not be made or the dump could not grow. */
GTR_API gtr_status tgen_judge(const uint8_t *wire, size_t len, const gtr_alloc *alc,
                              gtr_buf *dump, tgen_verdict *v);

/* tgen_verdict_free releases the texts of v's errors and its stuck shape. tgen_judge initialises *v without
 * releasing what it held: call this after each judgment that may have failed. NULL: no-op. */
GTR_API void tgen_verdict_free(tgen_verdict *v);

/* tgen_verdict_clean: the trace read to EOF and every event validated. */
static inline bool tgen_verdict_clean(const tgen_verdict *v)
{
    return v->end == TGEN_END_EOF && v->invalid == 0;
}

/* tgen_verdict_check is the golden runner's outcome for v under the expectation exp: the
 * validator errors first (each a failure), then exp.Check of the end. Returns GTR_OK when the
 * fixture passes; else the first failure's status with its message in err (may be NULL), and
 * the number of failures in *failures (may be NULL). */
GTR_API gtr_status tgen_verdict_check(const tgen_verdict *v, const tgen_expect *exp,
                                      unsigned *failures, gtr_err *err);

/* tgen_verdict_first_sync_artifact reports the one validator failure no fixture can avoid
 * as it stands: a go1.25+ trace whose first generation cannot be read. Go's reader then emits
 * Sync 1 without a clock snapshot before the error, and the validator rejects it ("sync 1 has
 * no clock snapshot"). True when that is the only validator error and a reader error follows. */
GTR_API bool tgen_verdict_first_sync_artifact(const tgen_verdict *v);

#ifdef __cplusplus
}
#endif
#endif /* TGEN_JUDGE_H */
