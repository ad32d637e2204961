/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go125-fail-bad-event-type: a gotrace generator (no upstream counterpart).
 *
 * A ClockSnapshot, which belongs only in a sync batch, appears in a thread's batch; no ordering
 * rule handles it. Covers "bad event type found while ordering: %v".
 */
#include "generators.h"

void tgen_gen_gtr_go125_fail_bad_event_type(tgen_trace *t)
{
    tgen_expect_failure(t, "^bad event type found while ordering: 51$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_sync(g, TGEN_DEFAULT_FREQ, 1, 1, TGEN_WALL(1700000000, 0));
    tgen_batch *b = tgen_batch_new(g, 0, 10);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "ClockSnapshot", TG_VALUE(2), TG_VALUE(1700000000), TG_VALUE(0));
}
