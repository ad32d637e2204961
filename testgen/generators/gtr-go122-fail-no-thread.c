/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-no-thread: a gotrace generator (no upstream counterpart).
 *
 * A goroutine is created from a batch that belongs to no thread. Covers validateCtx's "expected a
 * thread but didn't have one".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_no_thread(tgen_trace *t)
{
    tgen_expect_failure(t, "^expected a thread but didn't have one$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, GTR_NO_THREAD, 0);
    tgen_event(b, "GoCreate", TG_G(5), TG_NOSTACK, TG_NOSTACK);
}
