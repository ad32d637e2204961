/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go122-region-end-without-begin: a gotrace generator (no upstream counterpart).
 *
 * A goroutine ends a region that began before the trace started (it has no regions on record).
 * The parser must accept it: order.go's endRegion ignores ends it cannot match, because regions
 * may predate tracing.
 */
#include "generators.h"

void tgen_gen_gtr_go122_region_end_without_begin(tgen_trace *t)
{
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "UserRegionEnd", TG_TASK(0), TG_STR("before tracing"), TG_NOSTACK);
    tgen_event(b, "UserRegionBegin", TG_TASK(0), TG_STR("during tracing"), TG_NOSTACK);
    tgen_event(b, "UserRegionEnd", TG_TASK(0), TG_STR("during tracing"), TG_NOSTACK);
    tgen_event(b, "GoStop", TG_STR("yield"), TG_NOSTACK);
    tgen_event(b, "ProcStop");
}
