/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testdata/generators/go122-syscall-steal-proc-sitting-in-syscall.go at
 * go1.27.3.
 *
 * Tests syscall P stealing from a goroutine and thread
 * that have been in a syscall the entire generation.
 */
#include "generators.h"

void tgen_gen_go122_syscall_steal_proc_sitting_in_syscall(tgen_trace *t)
{
    tgen_gen *g = tgen_generation(t, 1);

    /* Steal proc from a goroutine that's been blocked */
    /* in a syscall the entire generation. */
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_SYSCALL_ABANDONED));
    tgen_event(b0, "ProcSteal", TG_P(0), TG_SEQ(1), TG_M(1));

    /* Status event for a goroutine blocked in a syscall for the entire generation. */
    tgen_batch *bz = tgen_batch_new(g, GTR_NO_THREAD, 0);
    tgen_event(bz, "GoStatus", TG_G(1), TG_M(1), TG_GSTATUS(GTR_GSTATUS_SYSCALL));
}
