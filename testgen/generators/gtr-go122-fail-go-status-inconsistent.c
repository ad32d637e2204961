/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-status-inconsistent: a gotrace generator (no upstream counterpart).
 *
 * Two threads report different statuses for goroutine 1 within one generation. Covers
 * "inconsistent status for goroutine %d: old %v vs. new %v".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_status_inconsistent(tgen_trace *t)
{
    tgen_expect_failure(t, "^inconsistent status for goroutine 1: old Runnable vs\\. new Waiting$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "GoStatus", TG_G(1), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_RUNNABLE));
    tgen_batch *b1 = tgen_batch_new(g, 1, 10);
    tgen_event(b1, "GoStatus", TG_G(1), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_WAITING));
}
