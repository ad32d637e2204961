/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-mark-assist-active-unknown-goroutine: a gotrace generator (no upstream
 * counterpart).
 *
 * A mark assist is reported active for a goroutine the trace never mentioned. Covers
 * "uninitialized goroutine %d found during %s".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_mark_assist_active_unknown_goroutine(tgen_trace *t)
{
    tgen_expect_failure(t, "^uninitialized goroutine 9 found during GCMarkAssistActive$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "GCMarkAssistActive", TG_G(9));
}
