/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-destroy-syscall-running: a gotrace generator (no upstream counterpart).
 *
 * A running goroutine (not in a syscall) is destroyed as if it were a cgo callback goroutine.
 * Covers "%s event for goroutine that's not %v".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_destroy_syscall_running(tgen_trace *t)
{
    tgen_expect_failure(t, "^GoDestroySyscall event for goroutine that's not Syscall$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "GoDestroySyscall");
}
