/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testdata/generators/go122-go-create-without-running-g.go at go1.27.3.
 *
 * Regression test for an issue found in development.
 *
 * GoCreate events can happen on bare Ps in a variety of situations and
 * and earlier version of the parser assumed this wasn't possible. At
 * the time of writing, one such example is goroutines created by expiring
 * timers.
 */
#include "generators.h"

void tgen_gen_go122_go_create_without_running_g(tgen_trace *t)
{
    tgen_gen *g1 = tgen_generation(t, 1);

    /* A goroutine gets created on a running P, then starts running. */
    tgen_batch *b0 = tgen_batch_new(g1, 0, 0);
    tgen_event(b0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b0, "GoCreate", TG_G(5), TG_NOSTACK, TG_NOSTACK);
    tgen_event(b0, "GoStart", TG_G(5), TG_SEQ(1));
    tgen_event(b0, "GoStop", TG_STR("whatever"), TG_NOSTACK);
}
