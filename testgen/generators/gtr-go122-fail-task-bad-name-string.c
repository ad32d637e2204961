/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-fail-task-bad-name-string: a gotrace generator (no upstream counterpart).
 *
 * A task begins with a name string ID that the generation's string table lacks (a raw event,
 * since tgen interns names). Covers "invalid string ID %v for %v event".
 */
#include "generators.h"

void tgen_gen_gtr_go122_fail_task_bad_name_string(tgen_trace *t)
{
    tgen_expect_failure(t, "^invalid string ID 99 for 40 event$");
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_raw(b, GTR_EV_USER_TASK_BEGIN, 1 /* dt */, 2 /* task */, 0 /* parent */, 99 /* name */, 0);
}
