/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testdata/generators/go122-syscall-steal-proc-reacquire-new-proc.go at
 * go1.27.3.
 *
 * Tests syscall P stealing.
 */
#include "generators.h"

void tgen_gen_go122_syscall_steal_proc_reacquire_new_proc(tgen_trace *t)
{
    tgen_gen *g = tgen_generation(t, 1);

    /* One goroutine enters a syscall, grabs a P, and starts running. */
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "ProcStatus", TG_P(1), TG_PSTATUS(GTR_PSTATUS_IDLE));
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b0, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b0, "GoSyscallBegin", TG_SEQ(1), TG_NOSTACK);
    tgen_event(b0, "ProcStart", TG_P(1), TG_SEQ(1));
    tgen_event(b0, "GoSyscallEndBlocked");

    /* A running goroutine steals proc 0. */
    tgen_batch *b1 = tgen_batch_new(g, 1, 0);
    tgen_event(b1, "ProcStatus", TG_P(2), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b1, "GoStatus", TG_G(2), TG_M(1), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b1, "ProcSteal", TG_P(0), TG_SEQ(2), TG_M(0));
}
