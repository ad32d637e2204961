/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-proc-status-invalid: a gotrace generator (no upstream counterpart).
 *
 * A ProcStatus event carries a status beyond tracev2's ProcSyscallAbandoned. Covers order.go's
 * "invalid status for proc %d: %d".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_proc_status_invalid(tgen_trace *t)
{
    tgen_expect_failure(t, "^invalid status for proc 0: 5$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(5));
}
