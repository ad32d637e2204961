/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go126-flight-recorder-window: a gotrace generator (no upstream counterpart).
 *
 * A flight recorder snapshot holds the last few generations of a long trace, so its first
 * generation is not 1 (here 41 and 42). Goroutines and procs first appear through status events
 * in generation 41, which the reader must treat as the initial generation.
 */
#include "generators.h"

void tgen_gen_gtr_go126_flight_recorder_window(tgen_trace *t)
{
    tgen_gen *g1 = tgen_generation(t, 41);
    tgen_sync(g1, TGEN_DEFAULT_FREQ, 1000, 500000, TGEN_WALL(1767225600, 0));
    tgen_batch *b1 = tgen_batch_new(g1, 3, 1010);
    tgen_event(b1, "ProcStatus", TG_P(1), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b1, "GoStatus", TG_G(17), TG_M(3), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b1, "GoStatus", TG_G(9), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_WAITING));
    tgen_event(b1, "GoUnblock", TG_G(9), TG_SEQ(1), TG_NOSTACK);
    tgen_event(b1, "GoBlock", TG_STR("chan receive"), TG_NOSTACK);
    tgen_event(b1, "GoStart", TG_G(9), TG_SEQ(2));
    tgen_gen *g2 = tgen_generation(t, 42);
    tgen_sync(g2, TGEN_DEFAULT_FREQ, 1100, 600000, TGEN_WALL(1767225601, 0));
    tgen_batch *b2 = tgen_batch_new(g2, 3, 1110);
    tgen_event(b2, "ProcStatus", TG_P(1), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b2, "GoStatus", TG_G(9), TG_M(3), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b2, "GoStatus", TG_G(17), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_WAITING));
    tgen_event(b2, "GoStop", TG_STR("preempted"), TG_NOSTACK);
    tgen_event(b2, "ProcStop");
}
