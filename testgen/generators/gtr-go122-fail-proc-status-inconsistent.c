/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-proc-status-inconsistent: a gotrace generator (no upstream counterpart).
 *
 * Two threads report different statuses for the same proc within one generation. Covers
 * "inconsistent status for proc %d: old %v vs. new %v".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_proc_status_inconsistent(tgen_trace *t)
{
    tgen_expect_failure(t, "^inconsistent status for proc 0: old Running vs\\. new Idle$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_batch *b1 = tgen_batch_new(g, 1, 10);
    tgen_event(b1, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_IDLE));
}
