/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-create-from-syscall: a gotrace generator (no upstream counterpart).
 *
 * A goroutine in a syscall (still bound to its thread and proc) creates another goroutine. Covers
 * "%s event for goroutine that's not %s" (GoCreate's check that the creator runs).
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_create_from_syscall(tgen_trace *t)
{
    tgen_expect_failure(t, "^GoCreate event for goroutine that's not Running$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "GoSyscallBegin", TG_SEQ(1), TG_NOSTACK);
    tgen_event(b, "GoCreate", TG_G(5), TG_NOSTACK, TG_NOSTACK);
}
