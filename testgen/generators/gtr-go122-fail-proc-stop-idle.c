/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-proc-stop-idle: a gotrace generator (no upstream counterpart).
 *
 * Two threads both claim running proc 0; one stops it, then the other stops the now idle proc.
 * Covers "%s event for proc that's not %s or %s".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_proc_stop_idle(tgen_trace *t)
{
    tgen_expect_failure(t, "^ProcStop event for proc that's not Running or Syscall$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_batch *b1 = tgen_batch_new(g, 1, 1);
    tgen_event(b1, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b1, "ProcStop");
    tgen_batch *b0b = tgen_batch_new(g, 0, 10);
    tgen_event(b0b, "ProcStop");
}
