/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-stw-begin-destroyed-goroutine: a gotrace generator (no upstream counterpart).
 *
 * Two threads both claim running goroutine 1; after one destroys it, the other stops the world on
 * its behalf. Covers "encountered event of type %d without known state for current goroutine %d".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_stw_begin_destroyed_goroutine(tgen_trace *t)
{
    tgen_expect_failure(
        t, "^encountered event of type 26 without known state for current goroutine 1$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b0, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_batch *b1 = tgen_batch_new(g, 1, 2);
    tgen_event(b1, "ProcStatus", TG_P(1), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b1, "GoStatus", TG_G(1), TG_M(1), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_batch *b0b = tgen_batch_new(g, 0, 10);
    tgen_event(b0b, "GoDestroy");
    tgen_batch *b1b = tgen_batch_new(g, 1, 20);
    tgen_event(b1b, "STWBegin", TG_STR("stop"), TG_NOSTACK);
}
