/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-task-id-conflict: a gotrace generator (no upstream counterpart).
 *
 * A goroutine begins task 2 twice. Covers "task ID conflict: %d".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_task_id_conflict(tgen_trace *t)
{
    tgen_expect_failure(t, "^task ID conflict: 2$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "UserTaskBegin", TG_TASK(2), TG_TASK(0), TG_STR("task"), TG_NOSTACK);
    tgen_event(b, "UserTaskBegin", TG_TASK(2), TG_TASK(0), TG_STR("task"), TG_NOSTACK);
}
