/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testdata/generators/go122-create-syscall-reuse-thread-id.go at
 * go1.27.3.
 *
 * Tests a G being created from within a syscall.
 *
 * Specifically, it tests a scenario wherein a C
 * thread is calling into Go, creating a goroutine in
 * a syscall (in the tracer's model). The system is free
 * to reuse thread IDs, so first a thread ID is used to
 * call into Go, and then is used for a Go-created thread.
 *
 * This is a regression test. The trace parser didn't correctly
 * model GoDestroySyscall as dropping its P (even if the runtime
 * did). It turns out this is actually fine if all the threads
 * in the trace have unique IDs, since the P just stays associated
 * with an eternally dead thread, and it's stolen by some other
 * thread later. But if thread IDs are reused, then the tracer
 * gets confused when trying to advance events on the new thread.
 * The now-dead thread which exited on a GoDestroySyscall still has
 * its P associated and this transfers to the newly-live thread
 * in the parser's state because they share a thread ID.
 */
#include "generators.h"

void tgen_gen_go122_create_syscall_reuse_thread_id(tgen_trace *t)
{
    tgen_gen *g = tgen_generation(t, 1);

    /* A C thread calls into Go and acquires a P. It returns */
    /* back to C, destroying the G. */
    tgen_batch *b0 = tgen_batch_new(g, 0, 0);
    tgen_event(b0, "GoCreateSyscall", TG_G(4));
    tgen_event(b0, "GoSyscallEndBlocked");
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_IDLE));
    tgen_event(b0, "ProcStart", TG_P(0), TG_SEQ(1));
    tgen_event(b0, "GoStatus", TG_G(4), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_RUNNABLE));
    tgen_event(b0, "GoStart", TG_G(4), TG_SEQ(1));
    tgen_event(b0, "GoSyscallBegin", TG_SEQ(2), TG_NOSTACK);
    tgen_event(b0, "GoDestroySyscall");

    /* A new Go-created thread with the same ID appears and */
    /* starts running, then tries to steal the P from the */
    /* first thread. The stealing is interesting because if */
    /* the parser handles GoDestroySyscall wrong, then we */
    /* have a self-steal here potentially that doesn't make */
    /* sense. */
    tgen_batch *b1 = tgen_batch_new(g, 0, 0);
    tgen_event(b1, "ProcStatus", TG_P(1), TG_PSTATUS(GTR_PSTATUS_IDLE));
    tgen_event(b1, "ProcStart", TG_P(1), TG_SEQ(1));
    tgen_event(b1, "ProcSteal", TG_P(0), TG_SEQ(3), TG_M(0));
}
