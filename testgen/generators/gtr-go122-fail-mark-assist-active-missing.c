/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-mark-assist-active-missing: a gotrace generator (no upstream counterpart).
 *
 * The second generation reports a mark assist as active for a goroutine that had none in flight.
 * Covers "resource is missing active range: %v %v".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_mark_assist_active_missing(tgen_trace *t)
{
    tgen_expect_failure(t, "^resource is missing active range: GCMarkAssistBegin \\[\\]$");
    tgen_gen *g1 = tgen_generation(t, 1);
    tgen_batch *b1 = tgen_batch_new(g1, 0, 0);
    tgen_event(b1, "GoStatus", TG_G(1), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_WAITING));
    tgen_gen *g2 = tgen_generation(t, 2);
    tgen_batch *b2 = tgen_batch_new(g2, 0, 10);
    tgen_event(b2, "GoStatus", TG_G(1), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_WAITING));
    tgen_event(b2, "GCMarkAssistActive", TG_G(1));
}
