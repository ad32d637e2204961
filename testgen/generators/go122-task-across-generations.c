/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testdata/generators/go122-task-across-generations.go at go1.27.3.
 *
 * Regression test for an issue found in development.
 *
 * The issue is that EvUserTaskEnd events don't carry the
 * task type with them, so the parser needs to track that
 * information. But if the parser just tracks the string ID
 * and not the string itself, that string ID may not be valid
 * for use in future generations.
 */
#include "generators.h"

void tgen_gen_go122_task_across_generations(tgen_trace *t)
{
    tgen_gen *g1 = tgen_generation(t, 1);

    /* A running goroutine emits a task begin. */
    tgen_batch *b1 = tgen_batch_new(g1, 0, 0);
    tgen_event(b1, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b1, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b1, "UserTaskBegin", TG_TASK(2), TG_TASK(0), TG_STR("my task"), TG_NOSTACK);

    tgen_gen *g2 = tgen_generation(t, 2);

    /* That same goroutine emits a task end in the following generation. */
    tgen_batch *b2 = tgen_batch_new(g2, 0, 5);
    tgen_event(b2, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b2, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b2, "UserTaskEnd", TG_TASK(2), TG_NOSTACK);
}
