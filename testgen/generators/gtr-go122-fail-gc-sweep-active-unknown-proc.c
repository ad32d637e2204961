/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-gc-sweep-active-unknown-proc: a gotrace generator (no upstream counterpart).
 *
 * A sweep is reported active on a proc the trace never mentioned. Covers "encountered
 * GCSweepActive for unknown proc %d".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_gc_sweep_active_unknown_proc(tgen_trace *t)
{
    tgen_expect_failure(t, "^encountered GCSweepActive for unknown proc 7$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GCSweepActive", TG_P(7));
}
