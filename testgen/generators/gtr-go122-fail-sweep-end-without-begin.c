/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-sweep-end-without-begin: a gotrace generator (no upstream counterpart).
 *
 * A proc ends a sweep it never began. Covers "tried to end event %v, but not in-flight".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_sweep_end_without_begin(tgen_trace *t)
{
    tgen_expect_failure(t, "^tried to end event GCSweepBegin, but not in-flight$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GCSweepEnd", TG_VALUE(1), TG_VALUE(1));
}
