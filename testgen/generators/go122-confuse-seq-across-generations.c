/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testdata/generators/go122-confuse-seq-across-generations.go at
 * go1.27.3.
 *
 * Regression test for an issue found in development.
 *
 * The core of the issue is that if generation counters
 * aren't considered as part of sequence numbers, then
 * it's possible to accidentally advance without a
 * GoStatus event.
 *
 * The situation is one in which it just so happens that
 * an event on the frontier for a following generation
 * has a sequence number exactly one higher than the last
 * sequence number for e.g. a goroutine in the previous
 * generation. The parser should wait to find a GoStatus
 * event before advancing into the next generation at all.
 * It turns out this situation is pretty rare; the GoStatus
 * event almost always shows up first in practice. But it
 * can and did happen.
 */
#include "generators.h"

void tgen_gen_go122_confuse_seq_across_generations(tgen_trace *t)
{
    tgen_gen *g1 = tgen_generation(t, 1);

    /* A running goroutine blocks. */
    tgen_batch *b10 = tgen_batch_new(g1, 0, 0);
    tgen_event(b10, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b10, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b10, "GoStop", TG_STR("whatever"), TG_NOSTACK);

    /* The running goroutine gets unblocked. */
    tgen_batch *b11 = tgen_batch_new(g1, 1, 0);
    tgen_event(b11, "ProcStatus", TG_P(1), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b11, "GoStart", TG_G(1), TG_SEQ(1));
    tgen_event(b11, "GoStop", TG_STR("whatever"), TG_NOSTACK);

    tgen_gen *g2 = tgen_generation(t, 2);

    /* Start running the goroutine, but later. */
    tgen_batch *b21 = tgen_batch_new(g2, 1, 3);
    tgen_event(b21, "ProcStatus", TG_P(1), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b21, "GoStart", TG_G(1), TG_SEQ(2));

    /* The goroutine starts running, then stops, then starts again. */
    tgen_batch *b20 = tgen_batch_new(g2, 0, 5);
    tgen_event(b20, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b20, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNABLE));
    tgen_event(b20, "GoStart", TG_G(1), TG_SEQ(1));
    tgen_event(b20, "GoStop", TG_STR("whatever"), TG_NOSTACK);
}
