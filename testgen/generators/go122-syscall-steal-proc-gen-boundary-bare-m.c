/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testdata/generators/go122-syscall-steal-proc-gen-boundary-bare-m.go at
 * go1.27.3.
 *
 * Tests syscall P stealing at a generation boundary.
 */
#include "generators.h"

void tgen_gen_go122_syscall_steal_proc_gen_boundary_bare_m(tgen_trace *t)
{
    tgen_gen *g = tgen_generation(t, 1);

    /* One goroutine is exiting with a syscall. It already */
    /* acquired a new P. */
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "ProcStatus", TG_P(1), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b0, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_SYSCALL));
    tgen_event(b0, "GoSyscallEndBlocked");

    /* A bare M stole the goroutine's P at the generation boundary. */
    tgen_batch *b1 = tgen_batch_new(g, 1, 0);
    tgen_event(b1, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_SYSCALL_ABANDONED));
    tgen_event(b1, "ProcSteal", TG_P(0), TG_SEQ(1), TG_M(0));
}
