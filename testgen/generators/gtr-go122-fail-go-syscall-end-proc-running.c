/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-syscall-end-proc-running: a gotrace generator (no upstream counterpart).
 *
 * A goroutine starts the trace in a syscall on a thread whose proc is running, not in a syscall,
 * then leaves the syscall. Covers "expected proc %d in state %v, but got %v instead".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_syscall_end_proc_running(tgen_trace *t)
{
    tgen_expect_failure(t, "^expected proc 0 in state Syscall, but got Running instead$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_SYSCALL));
    tgen_event(b, "GoSyscallEnd");
}
