/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-no-goroutine: a gotrace generator (no upstream counterpart).
 *
 * A thread with a proc but no goroutine stops a goroutine. Covers validateCtx's "expected a
 * goroutine but didn't have one".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_no_goroutine(tgen_trace *t)
{
    tgen_expect_failure(t, "^expected a goroutine but didn't have one$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStop", TG_STR("whatever"), TG_NOSTACK);
}
