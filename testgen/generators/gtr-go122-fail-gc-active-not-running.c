/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-gc-active-not-running: a gotrace generator (no upstream counterpart).
 *
 * A GC cycle ends in the first generation, then the second generation reports the next cycle as
 * active without it having begun. Covers "encountered GCActive while GC was not in progress".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_gc_active_not_running(tgen_trace *t)
{
    tgen_expect_failure(t, "^encountered GCActive while GC was not in progress$");
    tgen_gen *g1 = tgen_generation(t, 1);
    tgen_batch *b1 = tgen_batch_new(g1, 0, 0);
    tgen_event(b1, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b1, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b1, "GCBegin", TG_SEQ(1), TG_NOSTACK);
    tgen_event(b1, "GCEnd", TG_SEQ(2));
    tgen_gen *g2 = tgen_generation(t, 2);
    tgen_batch *b2 = tgen_batch_new(g2, 0, 10);
    tgen_event(b2, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b2, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b2, "GCActive", TG_SEQ(3));
}
