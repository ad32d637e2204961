/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testdata/generators/go122-syscall-steal-proc-self.go at go1.27.3.
 *
 * Tests syscall P stealing.
 *
 * Specifically, it tests a scenario where a thread 'steals'
 * a P from itself. It's just a ProcStop with extra steps when
 * it happens on the same P.
 */
#include "generators.h"

void tgen_gen_go122_syscall_steal_proc_self(tgen_trace *t)
{
    tgen_disable_timestamps(t);

    tgen_gen *g = tgen_generation(t, 1);

    /* A goroutine execute a syscall and steals its own P, then starts running */
    /* on that P. */
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b0, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b0, "GoSyscallBegin", TG_SEQ(1), TG_NOSTACK);
    tgen_event(b0, "ProcSteal", TG_P(0), TG_SEQ(2), TG_M(0));
    tgen_event(b0, "ProcStart", TG_P(0), TG_SEQ(3));
    tgen_event(b0, "GoSyscallEndBlocked");
}
