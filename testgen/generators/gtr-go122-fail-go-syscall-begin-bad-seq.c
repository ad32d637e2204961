/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-syscall-begin-bad-seq: a gotrace generator (no upstream counterpart).
 *
 * A syscall begins with a proc sequence number that skips ahead. Covers "failed to advance %s:
 * can't make sequence: %s -> %s".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_syscall_begin_bad_seq(tgen_trace *t)
{
    tgen_expect_failure(
        t,
        "^failed to advance GoSyscallBegin: can't make sequence: 0 \\(gen=1\\) -> 5 \\(gen=1\\)$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "GoSyscallBegin", TG_SEQ(5), TG_NOSTACK);
}
