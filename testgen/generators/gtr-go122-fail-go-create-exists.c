/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-create-exists: a gotrace generator (no upstream counterpart).
 *
 * A goroutine creates itself. Covers "tried to create goroutine (%v) that already exists".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_create_exists(tgen_trace *t)
{
    tgen_expect_failure(t, "^tried to create goroutine \\(1\\) that already exists$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "GoCreate", TG_G(1), TG_NOSTACK, TG_NOSTACK);
}
