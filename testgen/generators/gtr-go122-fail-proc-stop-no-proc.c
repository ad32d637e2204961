/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-proc-stop-no-proc: a gotrace generator (no upstream counterpart).
 *
 * A thread without a proc stops one. Covers "event %s for proc (%v) that doesn't exist".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_proc_stop_no_proc(tgen_trace *t)
{
    tgen_expect_failure(t, "^event ProcStop for proc \\(-1\\) that doesn't exist$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStop");
}
