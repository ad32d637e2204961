/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go126-end-of-generation: a gotrace generator (no upstream counterpart).
 *
 * go1.26 ends every generation with an EndOfGeneration marker, which is how the reader finds
 * generation boundaries without reading ahead. Two complete generations, each closed by its
 * marker, with a goroutine that lives across the boundary.
 */
#include "generators.h"

void tgen_gen_gtr_go126_end_of_generation(tgen_trace *t)
{
    tgen_gen *g1 = tgen_generation(t, 1);
    tgen_sync(g1, TGEN_DEFAULT_FREQ, 5, 1000, TGEN_WALL(1767225600, 0));
    tgen_batch *b1 = tgen_batch_new(g1, 0, 10);
    tgen_event(b1, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b1, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b1, "GoCreate", TG_G(2), TG_NOSTACK, TG_NOSTACK);
    tgen_gen *g2 = tgen_generation(t, 2);
    tgen_sync(g2, TGEN_DEFAULT_FREQ, 30, 2000, TGEN_WALL(1767225601, 0));
    tgen_batch *b2 = tgen_batch_new(g2, 0, 40);
    tgen_event(b2, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b2, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b2, "GoStatus", TG_G(2), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_RUNNABLE));
    tgen_event(b2, "GoDestroy");
    tgen_event(b2, "GoStart", TG_G(2), TG_SEQ(1));
}
