/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-status-new-after-first-gen: a gotrace generator (no upstream counterpart).
 *
 * A goroutine nobody created shows up through a GoStatus in the second generation; only the first
 * generation may introduce goroutines that way. Covers "found goroutine status for new goroutine
 * after the first generation: id=%v status=%v".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_status_new_after_first_gen(tgen_trace *t)
{
    tgen_expect_failure(t, "^found goroutine status for new goroutine after the first generation: "
                           "id=5 status=Runnable$");
    tgen_gen *g1 = tgen_generation(t, 1);
    tgen_batch *b1 = tgen_batch_new(g1, 0, 0);
    tgen_event(b1, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_gen *g2 = tgen_generation(t, 2);
    tgen_batch *b2 = tgen_batch_new(g2, 0, 10);
    tgen_event(b2, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b2, "GoStatus", TG_G(5), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_RUNNABLE));
}
