/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go126-fail-truncated-generation: a gotrace generator (no upstream counterpart).
 *
 * A go1.26 trace cut short: generation 1 is complete, but generation 2 has a sync batch and a
 * thread's batch and no EndOfGeneration marker before the end of the input. Built from raw
 * events, since tgen always closes generations. Covers generation.go's "incomplete generation
 * found; trace likely truncated", reported after generation 1's events.
 */
#include "generators.h"

void tgen_gen_gtr_go126_fail_truncated_generation(tgen_trace *t)
{
    tgen_expect_failure(t, "^incomplete generation found; trace likely truncated$");
    for (uint64_t gen = 1; gen <= 2; gen++) {
        /* Sync batch: Sync (1 byte), Frequency (1+4), ClockSnapshot (1+1+1+5+1). */
        tgen_trace_raw(t, GTR_EV_EVENT_BATCH, gen, TGEN_NO_THREAD_U64, 20 * gen /* time */,
                       15 /* size */);
        tgen_trace_raw(t, GTR_EV_SYNC);
        tgen_trace_raw(t, GTR_EV_FREQUENCY, 15625000);
        tgen_trace_raw(t, GTR_EV_CLOCK_SNAPSHOT, 1 /* dt */, gen /* mono */,
                       1767225600 + gen /* sec */, 0 /* nsec */);
        /* Thread 0: ProcStatus (1+1+1+1). */
        tgen_trace_raw(t, GTR_EV_EVENT_BATCH, gen, 0 /* m */, 20 * gen + 5 /* time */,
                       4 /* size */);
        tgen_trace_raw(t, GTR_EV_PROC_STATUS, 1 /* dt */, 0 /* p */, GTR_PSTATUS_RUNNING);
        if (gen == 1)
            tgen_trace_raw(t, GTR_EV_END_OF_GENERATION);
    }
}
