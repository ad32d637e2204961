/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-status-syscall-no-thread: a gotrace generator (no upstream counterpart).
 *
 * A goroutine is reported in a syscall without the thread it is in. Covers "found goroutine %d in
 * syscall without a thread".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_status_syscall_no_thread(tgen_trace *t)
{
    tgen_expect_failure(t, "^found goroutine 1 in syscall without a thread$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "GoStatus", TG_G(1), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_SYSCALL));
}
