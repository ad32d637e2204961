/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-proc-steal-self-wrong-proc: a gotrace generator (no upstream counterpart).
 *
 * Thread 1, which holds no proc, steals proc 0 (in a syscall on thread 0) from itself. Covers
 * "tried to self-steal proc %d (thread %d), but got proc %d instead".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_proc_steal_self_wrong_proc(tgen_trace *t)
{
    tgen_expect_failure(t, "^tried to self-steal proc 0 \\(thread 1\\), but got proc -1 instead$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_SYSCALL));
    tgen_batch *b1 = tgen_batch_new(g, 1, 10);
    tgen_event(b1, "ProcSteal", TG_P(0), TG_SEQ(1), TG_M(1));
}
