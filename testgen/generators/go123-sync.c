/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testdata/generators/go123-sync.go at go1.27.3.
 *
 * (Go's generator has no comment; the story is TestTraceGenSync's.) Three generations of a
 * go1.23 trace, where a generation's Sync comes from the lone Frequency batch: gen 1 has its
 * Frequency batch at time 10 and an event batch at 15, gen 2 only a Frequency batch (at 20),
 * gen 3 an event batch at 30 and Frequency at 40. The reader must give Syncs at 10, 40, 60 and
 * 63 ns, none with a clock snapshot: gen 3's Sync is at 60 because a generation's minimum
 * timestamp is its earliest batch (30 ticks at 2 ns), not its Frequency batch.
 */
#include "generators.h"

void tgen_gen_go123_sync(tgen_trace *t)
{
    tgen_gen *g1 = tgen_generation(t, 1);
    tgen_sync(g1, 1000000000, 10, 0, TGEN_WALL_ZERO);
    tgen_batch *b10 = tgen_batch_new(g1, 1, 15);
    tgen_event(b10, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_gen *g2 = tgen_generation(t, 2);
    tgen_sync(g2, 500000000, 20, 0, TGEN_WALL_ZERO);
    tgen_gen *g3 = tgen_generation(t, 3);
    tgen_batch *b30 = tgen_batch_new(g3, 1, 30);
    tgen_event(b30, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_sync(g3, 500000000, 40, 0, TGEN_WALL_ZERO);
}
