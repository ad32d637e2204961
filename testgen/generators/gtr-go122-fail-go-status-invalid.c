/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-go-status-invalid: a gotrace generator (no upstream counterpart).
 *
 * A GoStatus event carries a status beyond tracev2's GoWaiting. Covers "invalid status for
 * goroutine %d: %d".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_go_status_invalid(tgen_trace *t)
{
    tgen_expect_failure(t, "^invalid status for goroutine 1: 7$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "GoStatus", TG_G(1), TG_M(GTR_NO_THREAD), TG_GSTATUS(7));
}
