/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-proc-steal-unknown-thread: a gotrace generator (no upstream counterpart).
 *
 * A proc in a syscall is stolen from a thread the trace never mentioned. Covers "stole proc from
 * non-existent thread %d".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_proc_steal_unknown_thread(tgen_trace *t)
{
    tgen_expect_failure(t, "^stole proc from non-existent thread 5$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_SYSCALL));
    tgen_batch *b1 = tgen_batch_new(g, 1, 10);
    tgen_event(b1, "ProcSteal", TG_P(0), TG_SEQ(1), TG_M(5));
}
