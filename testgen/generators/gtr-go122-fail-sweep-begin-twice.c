/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-sweep-begin-twice: a gotrace generator (no upstream counterpart).
 *
 * A proc begins sweeping while it is already sweeping. Covers "discovered event already in-flight
 * for when starting event %v".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_sweep_begin_twice(tgen_trace *t)
{
    tgen_expect_failure(
        t, "^discovered event already in-flight for when starting event GCSweepBegin$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GCSweepBegin", TG_NOSTACK);
    tgen_event(b, "GCSweepBegin", TG_NOSTACK);
}
