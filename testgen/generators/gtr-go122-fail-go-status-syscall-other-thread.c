/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-status-syscall-other-thread: a gotrace generator (no upstream counterpart).
 *
 * Goroutine 1 is reported in a syscall on thread 0, but thread 0 runs goroutine 2. Covers
 * "inconsistent thread for syscalling goroutine %d: thread has goroutine %d" (the status names
 * another thread).
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_status_syscall_other_thread(tgen_trace *t)
{
    tgen_expect_failure(t,
                        "^inconsistent thread for syscalling goroutine 1: thread has goroutine 2$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b0, "GoStatus", TG_G(2), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_batch *b1 = tgen_batch_new(g, 1, 10);
    tgen_event(b1, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_SYSCALL));
}
