/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-gc-begin-twice: a gotrace generator (no upstream counterpart).
 *
 * Two GC cycles begin back to back. Covers "encountered GCBegin while GC was already in
 * progress".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_gc_begin_twice(tgen_trace *t)
{
    tgen_expect_failure(t, "^encountered GCBegin while GC was already in progress$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "GCBegin", TG_SEQ(1), TG_NOSTACK);
    tgen_event(b, "GCBegin", TG_SEQ(2), TG_NOSTACK);
}
