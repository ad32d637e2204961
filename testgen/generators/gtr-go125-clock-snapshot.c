/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go125-clock-snapshot: a gotrace generator (no upstream counterpart).
 *
 * A go1.25 sync batch carries a ClockSnapshot tying the trace clock to the monotonic and wall
 * clocks. Two generations with a 1 GHz clock, a large monotonic reading and a wall time at the
 * last nanosecond of a second; the reader must report each generation's snapshot exactly (Trace,
 * Mono, Wall) on its Sync event.
 */
#include "generators.h"

void tgen_gen_gtr_go125_clock_snapshot(tgen_trace *t)
{
    tgen_gen *g1 = tgen_generation(t, 1);
    tgen_sync(g1, 1000000000, 100, 9000000000000000000u, TGEN_WALL(1767225599, 999999999));
    tgen_batch *b1 = tgen_batch_new(g1, 0, 110);
    tgen_event(b1, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b1, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_gen *g2 = tgen_generation(t, 2);
    tgen_sync(g2, 1000000000, 200, 9000000000000000100u, TGEN_WALL(1767225600, 99));
    tgen_batch *b2 = tgen_batch_new(g2, 0, 210);
    tgen_event(b2, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b2, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b2, "GoStop", TG_STR("yield"), TG_NOSTACK);
}
