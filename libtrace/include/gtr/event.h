/* SPDX-License-Identifier: BSD-3-Clause */
/* event.h: the high-level trace event (Go's internal/trace Event, resources.go, value.go).
 *
 * A gtr_event is a small value filled in by gtr_reader_next. It borrows from the reader's
 * current generation (string, stack and frame tables): everything an event or its accessors
 * hand out stays valid until gtr_reader_next returns the *next* Sync event (or the reader is
 * freed). Copy what you need longer.
 *
 * Types and the event layout are fixed here; the accessor functions are declared below the
 * layout (event.c, resources.c, value.c implement them). */
#ifndef GTR_EVENT_H
#define GTR_EVENT_H

#include "gtr/buf.h"
#include "gtr/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Time: nanoseconds in the trace clock (trace.Time). */
typedef int64_t gtr_time;

/* Resource IDs (trace.GoID, trace.ProcID, trace.ThreadID) and their "none" values. */
typedef int64_t gtr_goid;
typedef int64_t gtr_procid;
typedef int64_t gtr_threadid;
#define GTR_NO_GOROUTINE ((gtr_goid)-1)
#define GTR_NO_PROC ((gtr_procid)-1)
#define GTR_NO_THREAD ((gtr_threadid)-1)

/* Tasks (trace.TaskID). */
typedef uint64_t gtr_taskid;
#define GTR_NO_TASK (~(gtr_taskid)0)
#define GTR_BACKGROUND_TASK ((gtr_taskid)0)

/* trace.GoState. String(): Undetermined, NotExist, Runnable, Running, Waiting, Syscall;
 * anything else "Bad". */
typedef enum gtr_go_state {
    GTR_GO_UNDETERMINED = 0,
    GTR_GO_NOT_EXIST = 1,
    GTR_GO_RUNNABLE = 2,
    GTR_GO_RUNNING = 3,
    GTR_GO_WAITING = 4,
    GTR_GO_SYSCALL = 5
} gtr_go_state;

/* trace.ProcState. String(): Undetermined, NotExist, Running, Idle; anything else "Bad". */
typedef enum gtr_proc_state {
    GTR_PROC_UNDETERMINED = 0,
    GTR_PROC_NOT_EXIST = 1,
    GTR_PROC_RUNNING = 2,
    GTR_PROC_IDLE = 3
} gtr_proc_state;

/* trace.ResourceKind. String(): None, Goroutine, Proc, Thread; else "Bad". */
typedef enum gtr_resource_kind {
    GTR_RESOURCE_NONE = 0,
    GTR_RESOURCE_GOROUTINE = 1,
    GTR_RESOURCE_PROC = 2,
    GTR_RESOURCE_THREAD = 3
} gtr_resource_kind;

/* trace.ResourceID. */
typedef struct gtr_resource_id {
    uint8_t kind;   /* gtr_resource_kind */
    int64_t id;
} gtr_resource_id;

/* trace.EventKind. String(): Bad, Sync, Metric, Label, StackSample, RangeBegin,
 * RangeActive, RangeEnd, TaskBegin, TaskEnd, RegionBegin, RegionEnd, Log, StateTransition,
 * Experimental; out of range "Bad". */
typedef enum gtr_event_kind {
    GTR_EVENT_BAD = 0,
    GTR_EVENT_SYNC,
    GTR_EVENT_METRIC,
    GTR_EVENT_LABEL,
    GTR_EVENT_STACK_SAMPLE,
    GTR_EVENT_RANGE_BEGIN,
    GTR_EVENT_RANGE_ACTIVE,
    GTR_EVENT_RANGE_END,
    GTR_EVENT_TASK_BEGIN,
    GTR_EVENT_TASK_END,
    GTR_EVENT_REGION_BEGIN,
    GTR_EVENT_REGION_END,
    GTR_EVENT_LOG,
    GTR_EVENT_STATE_TRANSITION,
    GTR_EVENT_EXPERIMENTAL
} gtr_event_kind;

/* A borrowed byte string (not necessarily NUL-free; always NUL-terminated at data[len]). */
typedef struct gtr_str {
    const char *data;
    size_t len;
} gtr_str;

/* The internal type of the synthetic Sync event (Go's evSync = ^EventType(0)). */
#define GTR_EV_SYNC_EVENT 255

struct gtr__ev_table;   /* a generation's tables; private (libtrace/src/base.h) */

/* trace.Event. The fields are private: use the accessors. Layout mirrors Go's
 * Event{table, ctx, base}. */
typedef struct gtr_event {
    const struct gtr__ev_table *table_;   /* NULL for the final Sync */
    gtr_goid g_;                          /* schedCtx */
    gtr_procid p_;
    gtr_threadid m_;
    uint8_t type_;                        /* wire type, or GTR_EV_SYNC_EVENT */
    gtr_time time_;
    uint64_t args_[GTR_MAX_TIMED_EVENT_ARGS - 1];
} gtr_event;

#ifdef __cplusplus
}
#endif
#endif /* GTR_EVENT_H */
