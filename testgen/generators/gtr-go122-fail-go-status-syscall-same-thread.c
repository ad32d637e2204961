/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-status-syscall-same-thread: a gotrace generator (no upstream counterpart).
 *
 * In the second generation thread 0, which runs goroutine 2, reports goroutine 1 in a syscall on
 * itself; after the first generation that binding must have been seen already. Covers
 * "inconsistent thread for syscalling goroutine %d: thread has goroutine %d" (the status names
 * the current thread).
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_status_syscall_same_thread(tgen_trace *t)
{
    tgen_expect_failure(t,
                        "^inconsistent thread for syscalling goroutine 1: thread has goroutine 2$");
    tgen_gen *g1 = tgen_generation(t, 1);
    tgen_batch *b10 = tgen_batch_new(g1, 0, 0);
    tgen_event(b10, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b10, "GoStatus", TG_G(2), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_batch *b11 = tgen_batch_new(g1, 1, 0);
    tgen_event(b11, "GoStatus", TG_G(1), TG_M(1), TG_GSTATUS(GTR_GSTATUS_SYSCALL));
    tgen_gen *g2 = tgen_generation(t, 2);
    tgen_batch *b20 = tgen_batch_new(g2, 0, 10);
    tgen_event(b20, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b20, "GoStatus", TG_G(2), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b20, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_SYSCALL));
}
