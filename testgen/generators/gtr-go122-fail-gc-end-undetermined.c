/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-gc-end-undetermined: a gotrace generator (no upstream counterpart).
 *
 * The trace's first GC event is a GCEnd, with no GCActive telling that a cycle was running.
 * Covers "encountered GCEnd when GC was in an undetermined state".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_gc_end_undetermined(tgen_trace *t)
{
    tgen_expect_failure(t, "^encountered GCEnd when GC was in an undetermined state$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "GCEnd", TG_SEQ(1));
}
