/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-mark-assist-active-twice: a gotrace generator (no upstream counterpart).
 *
 * The first generation reports goroutine 1's mark assist as active twice. Covers "found named
 * active range already in first gen: %v".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_mark_assist_active_twice(tgen_trace *t)
{
    tgen_expect_failure(t, "^found named active range already in first gen: \\{35 0\\}$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "GoStatus", TG_G(1), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_WAITING));
    tgen_event(b, "GCMarkAssistActive", TG_G(1));
    tgen_event(b, "GCMarkAssistActive", TG_G(1));
}
