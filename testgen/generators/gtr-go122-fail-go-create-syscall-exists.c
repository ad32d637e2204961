/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-create-syscall-exists: a gotrace generator (no upstream counterpart).
 *
 * A cgo callback creates a goroutine whose ID is already runnable. Covers "tried to create
 * goroutine (%v) in syscall that already exists".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_create_syscall_exists(tgen_trace *t)
{
    tgen_expect_failure(t, "^tried to create goroutine \\(5\\) in syscall that already exists$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "GoStatus", TG_G(5), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_RUNNABLE));
    tgen_event(b, "GoCreateSyscall", TG_G(5));
}
