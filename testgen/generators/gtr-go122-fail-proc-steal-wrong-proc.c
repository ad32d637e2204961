/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-proc-steal-wrong-proc: a gotrace generator (no upstream counterpart).
 *
 * Proc 0 is in a syscall on thread 0, but thread 1 steals it from thread 2, which holds no proc.
 * Covers "tried to steal proc %d from thread %d, but got proc %d instead".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_proc_steal_wrong_proc(tgen_trace *t)
{
    tgen_expect_failure(t, "^tried to steal proc 0 from thread 2, but got proc -1 instead$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_SYSCALL));
    tgen_batch *b2 = tgen_batch_new(g, 2, 1);
    tgen_event(b2, "GoStatus", TG_G(1), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_RUNNABLE));
    tgen_batch *b1 = tgen_batch_new(g, 1, 10);
    tgen_event(b1, "ProcSteal", TG_P(0), TG_SEQ(1), TG_M(2));
}
