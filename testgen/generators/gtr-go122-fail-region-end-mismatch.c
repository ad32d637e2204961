/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-region-end-mismatch: a gotrace generator (no upstream counterpart).
 *
 * A goroutine ends region "b" while the innermost region it began is "a". Covers "misuse of
 * region in goroutine %v: region end %v when the inner-most active region start event is %v".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_region_end_mismatch(tgen_trace *t)
{
    tgen_expect_failure(t, "^misuse of region in goroutine 1: region end \\{0 b\\} when the "
                           "inner-most active region start event is \\{0 a\\}$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "UserRegionBegin", TG_TASK(0), TG_STR("a"), TG_NOSTACK);
    tgen_event(b, "UserRegionEnd", TG_TASK(0), TG_STR("b"), TG_NOSTACK);
}
