/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testdata/generators/go122-create-syscall-with-p.go at go1.27.3.
 *
 * Tests a G being created from within a syscall.
 *
 * Specifically, it tests a scenario wherein a C
 * thread is calling into Go, creating a goroutine in
 * a syscall (in the tracer's model). Because the actual
 * m can be reused, it's possible for that m to have never
 * had its P (in _Psyscall) stolen if the runtime doesn't
 * model the scenario correctly. Make sure we reject such
 * traces.
 */
#include "generators.h"

void tgen_gen_go122_create_syscall_with_p(tgen_trace *t)
{
    tgen_expect_failure(t, ".*expected a proc but didn't have one.*");

    tgen_gen *g = tgen_generation(t, 1);

    /* A C thread calls into Go and acquires a P. It returns */
    /* back to C, destroying the G. It then comes back to Go */
    /* on the same thread and again returns to C. */
    /*  */
    /* Note: on pthread platforms this can't happen on the */
    /* same thread because the m is stashed in TLS between */
    /* calls into Go, until the thread dies. This is still */
    /* possible on other platforms, however. */
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "GoCreateSyscall", TG_G(4));
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_IDLE));
    tgen_event(b0, "ProcStart", TG_P(0), TG_SEQ(1));
    tgen_event(b0, "GoSyscallEndBlocked");
    tgen_event(b0, "GoStart", TG_G(4), TG_SEQ(1));
    tgen_event(b0, "GoSyscallBegin", TG_SEQ(2), TG_NOSTACK);
    tgen_event(b0, "GoDestroySyscall");
    tgen_event(b0, "GoCreateSyscall", TG_G(4));
    tgen_event(b0, "GoSyscallEnd");
    tgen_event(b0, "GoSyscallBegin", TG_SEQ(3), TG_NOSTACK);
    tgen_event(b0, "GoDestroySyscall");
}
