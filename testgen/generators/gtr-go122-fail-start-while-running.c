/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-start-while-running: a gotrace generator (no upstream counterpart).
 *
 * A thread already running goroutine 1 starts goroutine 2. Covers validateCtx's "expected no
 * goroutine but had one".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_start_while_running(tgen_trace *t)
{
    tgen_expect_failure(t, "^expected no goroutine but had one$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(2), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_RUNNABLE));
    tgen_event(b, "GoStart", TG_G(2), TG_SEQ(1));
}
