/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-task-end-two-generations-later: a gotrace generator (no upstream counterpart).
 *
 * A task begins in generation 1 and ends in generation 3, where its name's string ID means
 * something else (each generation has its own string table, and generation 3 interns other
 * strings first). Like go122-task-across-generations, the parser must carry the task's name
 * itself, not its ID, across generations.
 */
#include "generators.h"

void tgen_gen_gtr_go122_task_end_two_generations_later(tgen_trace *t)
{
    tgen_gen *g1 = tgen_generation(t, 1);
    tgen_batch *b1 = tgen_batch_new(g1, 0, 0);
    tgen_event(b1, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b1, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b1, "UserTaskBegin", TG_TASK(7), TG_TASK(0), TG_STR("long task"), TG_NOSTACK);
    tgen_event(b1, "UserLog", TG_TASK(7), TG_STR("phase"), TG_STR("one"), TG_NOSTACK);

    tgen_gen *g2 = tgen_generation(t, 2);
    tgen_batch *b2 = tgen_batch_new(g2, 0, 10);
    tgen_event(b2, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b2, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));

    tgen_gen *g3 = tgen_generation(t, 3);
    tgen_batch *b3 = tgen_batch_new(g3, 0, 20);
    tgen_event(b3, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b3, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b3, "UserLog", TG_TASK(7), TG_STR("phase"), TG_STR("three"), TG_NOSTACK);
    tgen_event(b3, "UserTaskEnd", TG_TASK(7), TG_NOSTACK);
}
