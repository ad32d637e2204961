/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-gc-active-after-begin: a gotrace generator (no upstream counterpart).
 *
 * In the first generation a GCActive follows a GCBegin; GCActive may only open the first
 * generation's GC story. Covers "GCActive in the first generation isn't first GC event".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_gc_active_after_begin(tgen_trace *t)
{
    tgen_expect_failure(t, "^GCActive in the first generation isn't first GC event$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "GCBegin", TG_SEQ(1), TG_NOSTACK);
    tgen_event(b, "GCActive", TG_SEQ(2));
}
