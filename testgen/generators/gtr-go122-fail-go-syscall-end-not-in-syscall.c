/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-syscall-end-not-in-syscall: a gotrace generator (no upstream counterpart).
 *
 * A running goroutine leaves a syscall it never entered. Covers "%s event for goroutine that's
 * not %s" for GoSyscallEnd, which upstream words as "not Running" although it checks for Syscall.
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_syscall_end_not_in_syscall(tgen_trace *t)
{
    tgen_expect_failure(t, "^GoSyscallEnd event for goroutine that's not Running$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "GoSyscallEnd");
}
