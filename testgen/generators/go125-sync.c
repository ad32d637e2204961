/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testdata/generators/go125-sync.go at go1.27.3.
 *
 * (Go's generator has no comment; the story is TestTraceGenSync's.) Three generations of a
 * go1.25 trace, each opening with a sync batch (Sync, Frequency, ClockSnapshot) whose
 * snapshot lands exactly at the time given to Sync: 10, 20 and 30 ticks, with monotonic
 * clocks 99, 199, 299 and wall clocks one second apart from 2025-02-28T15:04:09.000000123Z.
 * The reader must give Syncs at 9, 38, 58 ns carrying those snapshots (Trace 10, 40, 60), then
 * a final Sync at 83 ns with no snapshot.
 */
#include "generators.h"

void tgen_gen_go125_sync(tgen_trace *t)
{
    /* time.Date(2025, 2, 28, 15, 4, 9, 123, time.UTC) */
    const int64_t start = 1740755049;
    tgen_gen *g1 = tgen_generation(t, 1);
    tgen_sync(g1, 1000000000, 10, 99, TGEN_WALL(start, 123));
    tgen_batch *b10 = tgen_batch_new(g1, 1, 15);
    tgen_event(b10, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_gen *g2 = tgen_generation(t, 2);
    tgen_sync(g2, 500000000, 20, 199, TGEN_WALL(start + 1, 123));
    tgen_gen *g3 = tgen_generation(t, 3);
    tgen_sync(g3, 500000000, 30, 299, TGEN_WALL(start + 2, 123));
    tgen_batch *b30 = tgen_batch_new(g3, 1, 40);
    tgen_event(b30, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
}
