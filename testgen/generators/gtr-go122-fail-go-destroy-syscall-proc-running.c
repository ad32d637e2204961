/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-destroy-syscall-proc-running: a gotrace generator (no upstream counterpart).
 *
 * As gtr-go122-fail-go-syscall-end-proc-running, but the cgo callback goroutine is destroyed
 * while its proc is running. Covers "proc %d in unexpected state %s during %s".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_destroy_syscall_proc_running(tgen_trace *t)
{
    tgen_expect_failure(t, "^proc 0 in unexpected state Running during GoDestroySyscall$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_SYSCALL));
    tgen_event(b, "GoDestroySyscall");
}
