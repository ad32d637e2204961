/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testdata/generators/go122-syscall-steal-proc-simple-bare-m.go at
 * go1.27.3.
 *
 * Tests syscall P stealing.
 */
#include "generators.h"

void tgen_gen_go122_syscall_steal_proc_simple_bare_m(tgen_trace *t)
{
    tgen_gen *g = tgen_generation(t, 1);

    /* One goroutine enters a syscall. */
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b0, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b0, "GoSyscallBegin", TG_SEQ(1), TG_NOSTACK);
    tgen_event(b0, "GoSyscallEndBlocked");

    /* A bare M steals the goroutine's P. */
    tgen_batch *b1 = tgen_batch_new(g, 1, 0);
    tgen_event(b1, "ProcSteal", TG_P(0), TG_SEQ(2), TG_M(0));
}
