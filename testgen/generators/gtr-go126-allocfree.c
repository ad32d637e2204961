/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go126-allocfree: a gotrace generator (no upstream counterpart).
 *
 * The experimental AllocFree events (GODEBUG=traceallocfree=1) in a go1.26 trace: an experimental
 * batch with the heap layout, then spans, heap objects and goroutine stacks allocated and freed
 * on a thread with a proc. Their arguments (id, kindclass, type, order) have no testgen type, so
 * they are raw events with an explicit dt.
 */
#include "generators.h"

void tgen_gen_gtr_go126_allocfree(tgen_trace *t)
{
    static const uint8_t layout[] = {0x01, 0x80, 0x80, 0x80, 0x92, 0xb0, 0xd1,
                                     0x07, 0x80, 0x40, 0x08, 0x80, 0x10};
    tgen_trace_raw_data(t, GTR_EV_EXPERIMENTAL_BATCH, layout, sizeof layout, GTR_EXP_ALLOC_FREE,
                        1 /* gen */, TGEN_NO_THREAD_U64, 1 /* time */);
    tgen_gen *g = tgen_generation(t, 1);
    tgen_sync(g, TGEN_DEFAULT_FREQ, 2, 100, TGEN_WALL(1767225600, 0));
    tgen_batch *b = tgen_batch_new(g, 0, 10);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_raw(b, GTR_EV_SPAN, 1 /* dt */, 64 /* id */, 1 /* npages */, 36 /* kindclass */);
    tgen_raw(b, GTR_EV_SPAN_ALLOC, 1, 65, 2, 37);
    tgen_raw(b, GTR_EV_HEAP_OBJECT, 1, 8192 /* id */, 17 /* type */);
    tgen_raw(b, GTR_EV_HEAP_OBJECT_ALLOC, 1, 8208, 17);
    tgen_raw(b, GTR_EV_HEAP_OBJECT_FREE, 1, 8192);
    tgen_raw(b, GTR_EV_GOROUTINE_STACK, 1, 1024 /* id */, 0 /* order */);
    tgen_raw(b, GTR_EV_GOROUTINE_STACK_ALLOC, 1, 2048, 1);
    tgen_raw(b, GTR_EV_GOROUTINE_STACK_FREE, 1, 1024);
    tgen_raw(b, GTR_EV_SPAN_FREE, 1, 64);
}
