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


/* ---------------------------------------------------------------------------------------
 * Accessors (event.c, resources.c, value.c). Port of Go's Event methods and detail types.
 *
 * Where Go panics (for example "Metric called on non-Metric event"), the C accessor returns
 * GTR_E_USAGE and err carries Go's panic text verbatim. Strings handed out (gtr_str) are
 * borrowed from the event's generation: see the lifetime rule at the top of this file.
 * --------------------------------------------------------------------------------------- */

/* gtr_event_kind_string: EventKind.String() ("Bad" when out of range). Static string. */
GTR_API const char *gtr_event_kind_string(gtr_event_kind k);
/* gtr_go_state_string: GoState.String() ("Bad" when unknown). Static string. */
GTR_API const char *gtr_go_state_string(gtr_go_state s);
/* gtr_proc_state_string: ProcState.String() ("Bad" when unknown). Static string. */
GTR_API const char *gtr_proc_state_string(gtr_proc_state s);
/* gtr_resource_kind_string: ResourceKind.String() ("Bad" when unknown). Static string. */
GTR_API const char *gtr_resource_kind_string(gtr_resource_kind k);
/* gtr_go_state_executing: GoState.Executing() (Running or Syscall). */
GTR_API bool gtr_go_state_executing(gtr_go_state s);
/* gtr_proc_state_executing: ProcState.Executing() (Running). */
GTR_API bool gtr_proc_state_executing(gtr_proc_state s);

/* Resource IDs (resources.go). gtr_make_resource_*: MakeResourceID[GoID|ProcID|ThreadID]. */
GTR_API gtr_resource_id gtr_make_resource_goroutine(gtr_goid id);
GTR_API gtr_resource_id gtr_make_resource_proc(gtr_procid id);
GTR_API gtr_resource_id gtr_make_resource_thread(gtr_threadid id);
/* gtr_resource_id_goroutine/_proc/_thread: ResourceID.Goroutine()/Proc()/Thread(). A kind
 * mismatch is GTR_E_USAGE with "attempted to get GoID from %s resource ID" (ProcID, ThreadID). */
GTR_API gtr_status gtr_resource_id_goroutine(gtr_resource_id r, gtr_goid *out, gtr_err *err);
GTR_API gtr_status gtr_resource_id_proc(gtr_resource_id r, gtr_procid *out, gtr_err *err);
GTR_API gtr_status gtr_resource_id_thread(gtr_resource_id r, gtr_threadid *out, gtr_err *err);
/* gtr_resource_id_equal: Go's == on ResourceID. */
GTR_API bool gtr_resource_id_equal(gtr_resource_id a, gtr_resource_id b);
/* gtr_resource_id_string appends ResourceID.String() ("None", "Goroutine(5)", ...) to out. */
GTR_API gtr_status gtr_resource_id_string(gtr_resource_id r, gtr_buf *out);

/* Values (value.go): trace.Value. A string value borrows its bytes. */
typedef enum gtr_value_kind {
    GTR_VALUE_BAD = 0,
    GTR_VALUE_UINT64 = 1,
    GTR_VALUE_STRING = 2
} gtr_value_kind;

typedef struct gtr_value {
    uint8_t kind;   /* gtr_value_kind */
    uint64_t u64;   /* GTR_VALUE_UINT64 */
    gtr_str str;    /* GTR_VALUE_STRING */
} gtr_value;

/* gtr_uint64_value, gtr_string_value: Uint64Value(x), StringValue(s). */
GTR_API gtr_value gtr_uint64_value(uint64_t x);
GTR_API gtr_value gtr_string_value(const char *s, size_t len);
/* gtr_value_uint64: Value.Uint64(); GTR_E_USAGE "Uint64 called on Value of a different Kind". */
GTR_API gtr_status gtr_value_uint64(const gtr_value *v, uint64_t *out, gtr_err *err);
/* gtr_value_string appends Value.String() to out: the string itself for a string value,
 * "Value{Uint64(%d)}" for a uint64, "Value{Bad}" otherwise. */
GTR_API gtr_status gtr_value_string(const gtr_value *v, gtr_buf *out);

/* Stacks: a handle (table + ID), trivially comparable, like Go's Stack. The zero value is
 * NoStack. */
typedef struct gtr_stack {
    const struct gtr__ev_table *table_;
    uint64_t id_;
} gtr_stack;

/* One frame of a stack (trace.StackFrame). func and file are borrowed. */
typedef struct gtr_frame {
    uint64_t pc;
    gtr_str func;
    gtr_str file;
    uint64_t line;
} gtr_frame;

/* gtr_stack_is_none: s == NoStack. gtr_stack_equal: Go's == on Stack. */
GTR_API bool gtr_stack_is_none(gtr_stack s);
GTR_API bool gtr_stack_equal(gtr_stack a, gtr_stack b);
/* gtr_stack_len: the number of frames Stack.Frames() yields (0 for NoStack or an unknown ID). */
GTR_API size_t gtr_stack_len(gtr_stack s);
/* gtr_stack_frame stores frame i (0 = innermost) in *out. A PC absent from the table gives a
 * zero frame, as in Go. i out of range: GTR_E_USAGE; a stack or string ID missing from the
 * table: GTR_E_USAGE with Go's mustGet panic "expected id %d in %T table". */
GTR_API gtr_status gtr_stack_frame(gtr_stack s, size_t i, gtr_frame *out, gtr_err *err);
/* gtr_stack_string appends Stack.String() ("%s @ 0x%x\n\t%s:%d\n" per frame) to out. */
GTR_API gtr_status gtr_stack_string(gtr_stack s, gtr_buf *out);

/* Basic accessors (Event.Kind, Time, Goroutine, Proc, Thread, Stack). The kind accessor is
 * gtr_event_get_kind because gtr_event_kind names the enum. */
GTR_API gtr_event_kind gtr_event_get_kind(const gtr_event *ev);
/* gtr_event_type_kind: the kind of an event of wire type type (Go's tracev2Type2Kind;
 * GTR_EV_SYNC_EVENT gives GTR_EVENT_SYNC, a type no version defines GTR_EVENT_BAD). */
GTR_API gtr_event_kind gtr_event_type_kind(uint8_t type);
GTR_API gtr_time gtr_event_time(const gtr_event *ev);
GTR_API gtr_goid gtr_event_goroutine(const gtr_event *ev);
GTR_API gtr_procid gtr_event_proc(const gtr_event *ev);
GTR_API gtr_threadid gtr_event_thread(const gtr_event *ev);
/* gtr_event_stack: Event.Stack(), the stack of the current execution context (NoStack if
 * none). */
GTR_API gtr_stack gtr_event_stack(const gtr_event *ev);

/* Metric (Event.Metric): EventMetric only. */
typedef struct gtr_metric {
    gtr_str name;       /* a static string, e.g. "/sched/gomaxprocs:threads" */
    gtr_value value;
} gtr_metric;
GTR_API gtr_status gtr_event_metric(const gtr_event *ev, gtr_metric *out, gtr_err *err);

/* Label (Event.Label): EventLabel only. */
typedef struct gtr_label {
    gtr_str label;
    gtr_resource_id resource;
} gtr_label;
GTR_API gtr_status gtr_event_label(const gtr_event *ev, gtr_label *out, gtr_err *err);

/* Range (Event.Range): EventRangeBegin/Active/End. The name is read with gtr_range_name: a
 * static string, or one made for the event ("stop-the-world (<kind>)", as Go concatenates
 * it) and kept in the struct's own buffer. The struct holds no pointer into itself, so it may
 * be copied (assignment, memcpy, a gtr_event_config) and every copy gives the name: a made
 * name lives as long as the copy that holds it, a static one for ever. The fields ending in
 * '_' are private: to give a range to gtr_make_event, set its name with gtr_range_set_name. */
#define GTR_RANGE_NAME_CAP 1088
typedef struct gtr_range {
    gtr_resource_id scope;
    const char *name_ext_;   /* the name, when it is not in name_buf_ (NULL: it is there) */
    size_t name_len_;
    char name_buf_[GTR_RANGE_NAME_CAP];
} gtr_range;
GTR_API gtr_status gtr_event_range(const gtr_event *ev, gtr_range *out, gtr_err *err);

/* gtr_range_name: Range.Name, borrowed from r (a made name) or static: valid while r is. */
static inline gtr_str gtr_range_name(const gtr_range *r)
{
    gtr_str s;
    s.data = r->name_ext_ != NULL ? r->name_ext_ : r->name_buf_;
    s.len = r->name_len_;
    return s;
}

/* gtr_range_set_name sets r's name to name, borrowed (gtr_make_event copies it). */
static inline void gtr_range_set_name(gtr_range *r, gtr_str name)
{
    r->name_ext_ = name.data;
    r->name_len_ = name.len;
}

/* RangeAttributes (Event.RangeAttributes): EventRangeEnd only; *n is 0 or 2 (GCSweepEnd). */
typedef struct gtr_range_attribute {
    gtr_str name;
    gtr_value value;
} gtr_range_attribute;
#define GTR_MAX_RANGE_ATTRIBUTES 2
GTR_API gtr_status gtr_event_range_attributes(const gtr_event *ev,
                                              gtr_range_attribute out[GTR_MAX_RANGE_ATTRIBUTES],
                                              size_t *n, gtr_err *err);

/* Task (Event.Task): EventTaskBegin/End. parent is GTR_NO_TASK when unknown. */
typedef struct gtr_task {
    gtr_taskid id;
    gtr_taskid parent;
    gtr_str type;
} gtr_task;
GTR_API gtr_status gtr_event_task(const gtr_event *ev, gtr_task *out, gtr_err *err);

/* Region (Event.Region): EventRegionBegin/End. */
typedef struct gtr_region {
    gtr_taskid task;
    gtr_str type;
} gtr_region;
GTR_API gtr_status gtr_event_region(const gtr_event *ev, gtr_region *out, gtr_err *err);

/* Log (Event.Log): EventLog. */
typedef struct gtr_log {
    gtr_taskid task;
    gtr_str category;
    gtr_str message;
} gtr_log;
GTR_API gtr_status gtr_event_log(const gtr_event *ev, gtr_log *out, gtr_err *err);

/* StateTransition (Event.StateTransition): EventStateTransition. The old/new states are read
 * with gtr_state_transition_goroutine or _proc according to resource.kind. */
typedef struct gtr_state_transition {
    gtr_resource_id resource;
    gtr_str reason;
    gtr_stack stack;      /* the transitioning resource's stack (may differ from the event's) */
    uint8_t old_state_;
    uint8_t new_state_;
} gtr_state_transition;
GTR_API gtr_status gtr_event_state_transition(const gtr_event *ev, gtr_state_transition *out,
                                              gtr_err *err);
/* gtr_make_go_state_transition / gtr_make_proc_state_transition: MakeGoStateTransition,
 * MakeProcStateTransition (no reason, no stack). */
GTR_API gtr_state_transition gtr_make_go_state_transition(gtr_goid id, gtr_go_state from,
                                                          gtr_go_state to);
GTR_API gtr_state_transition gtr_make_proc_state_transition(gtr_procid id, gtr_proc_state from,
                                                            gtr_proc_state to);
/* StateTransition.Goroutine() / Proc(): GTR_E_USAGE "Goroutine called on non-Goroutine state
 * transition" ("Proc called on non-Proc state transition"). */
GTR_API gtr_status gtr_state_transition_goroutine(const gtr_state_transition *st,
                                                  gtr_go_state *from, gtr_go_state *to,
                                                  gtr_err *err);
GTR_API gtr_status gtr_state_transition_proc(const gtr_state_transition *st,
                                             gtr_proc_state *from, gtr_proc_state *to,
                                             gtr_err *err);

/* A clock snapshot (trace.ClockSnapshot). wall is time.Unix(sec, nsec) normalised:
 * 0 <= wall_nsec < 1e9. */
typedef struct gtr_clock_snapshot {
    gtr_time trace;
    int64_t wall_sec;     /* Unix seconds */
    int32_t wall_nsec;
    uint64_t mono;
} gtr_clock_snapshot;

/* An unparsed experimental batch (trace.ExperimentalBatch); data is borrowed. */
typedef struct gtr_experimental_batch {
    gtr_threadid thread;
    const uint8_t *data;
    size_t len;
} gtr_experimental_batch;

/* Sync (Event.Sync): EventSync. n is the sync's ordinal (1-based). */
typedef struct gtr_sync {
    int64_t n;
    bool has_clock_snapshot;     /* ClockSnapshot != nil (false before Go 1.25 and for the
                                    final Sync of a trace) */
    gtr_clock_snapshot clock;
    const struct gtr__ev_table *table_;
} gtr_sync;
GTR_API gtr_status gtr_event_sync(const gtr_event *ev, gtr_sync *out, gtr_err *err);
/* Sync.ExperimentalBatches[name] for experiment exp (GTR_EXP_ALLOC_FREE, ...): the number of
 * batches, and batch i. */
GTR_API size_t gtr_sync_experimental_batch_count(const gtr_sync *s, unsigned exp);
GTR_API gtr_status gtr_sync_experimental_batch(const gtr_sync *s, unsigned exp, size_t i,
                                               gtr_experimental_batch *out, gtr_err *err);
/* gtr_clock_snapshot_wall_string appends Wall.Format(time.RFC3339Nano) (in UTC) to out. */
GTR_API gtr_status gtr_clock_snapshot_wall_string(const gtr_clock_snapshot *c, gtr_buf *out);

/* Experimental (Event.Experimental): EventExperimental. name, experiment and args are
 * static strings from the spec table. */
#define GTR_MAX_EXPERIMENTAL_ARGS (GTR_MAX_SPEC_ARGS - 1)
typedef struct gtr_experimental_event {
    const char *name;
    const char *experiment;
    size_t nargs;
    const char *args[GTR_MAX_EXPERIMENTAL_ARGS];
    uint64_t arg_values_[GTR_MAX_EXPERIMENTAL_ARGS];
    const struct gtr__ev_table *table_;
} gtr_experimental_event;
GTR_API gtr_status gtr_event_experimental(const gtr_event *ev, gtr_experimental_event *out,
                                          gtr_err *err);
/* ExperimentalEvent.ArgValue(i): a string value for args ending in "string", else uint64.
 * GTR_E_USAGE "experimental event argument index %d out of bounds [0, %d)". */
GTR_API gtr_status gtr_experimental_arg_value(const gtr_experimental_event *e, int i,
                                              gtr_value *out, gtr_err *err);

/* gtr_event_string appends Event.String() to out (Go's exact format, stacks included; no
 * trailing newline unless a stack ends it). Errors: GTR_E_NOMEM, or GTR_E_USAGE where Go's
 * String() would panic (an ID missing from the table). */
GTR_API gtr_status gtr_event_string(const gtr_event *ev, gtr_buf *out);
/* gtr_event_format is gtr_event_string with the reason in err: where Go's String() panics,
 * Go's panic text ("expected id 5 in trace.stack table"), GTR_E_USAGE. On failure out may
 * hold part of the event's text: a caller that prints must drop it (Go prints nothing). */
GTR_API gtr_status gtr_event_format(const gtr_event *ev, gtr_buf *out, gtr_err *err);

/* A formatter is gtr_event_format for a stream of events, where stacks repeat: it writes
 * the same text and fails in the same way, and it keeps the text of each stack it printed
 * while the events come from the same generation (their table unchanged), so that an event
 * whose stack was printed before costs a copy. It holds at most 16 MiB of stack text and
 * 16 MiB of index (a stack of more than 64 KiB of text, and stacks past the 262,144th of a
 * generation, are printed every time). Each event's table must be valid when
 * it is formatted, as for gtr_event_format. */
typedef struct gtr_event_formatter gtr_event_formatter;   /* opaque; not thread-safe */

GTR_API gtr_status gtr_event_formatter_new(const gtr_alloc *alc, gtr_event_formatter **out,
                                           gtr_err *err);
/* gtr_event_formatter_free releases f and the text it kept (NULL: no-op). */
GTR_API void gtr_event_formatter_free(gtr_event_formatter *f);
/* gtr_event_formatter_format appends ev's String() to out, as gtr_event_format. */
GTR_API gtr_status gtr_event_formatter_format(gtr_event_formatter *f, const gtr_event *ev,
                                              gtr_buf *out, gtr_err *err);


/* ---------------------------------------------------------------------------------------
 * Making events (Go's MakeEvent and MakeStack, Go 1.26): for tools and tests that build
 * events instead of reading them. A builder owns the tables of the events and stacks it
 * makes; they stay valid until gtr_event_builder_free.
 * --------------------------------------------------------------------------------------- */
typedef struct gtr_event_builder gtr_event_builder;   /* opaque; not thread-safe */

GTR_API gtr_status gtr_event_builder_new(const gtr_alloc *alc, gtr_event_builder **out,
                                         gtr_err *err);
/* gtr_event_builder_free releases b and every event and stack it made (NULL: no-op). */
GTR_API void gtr_event_builder_free(gtr_event_builder *b);

/* Which member of gtr_event_config holds the details: Go's type parameter T of
 * EventConfig[T]. */
typedef enum gtr_details_kind {
    GTR_DETAILS_METRIC = 1,
    GTR_DETAILS_LABEL,
    GTR_DETAILS_RANGE,
    GTR_DETAILS_STATE_TRANSITION,
    GTR_DETAILS_SYNC,
    GTR_DETAILS_TASK,
    GTR_DETAILS_REGION,
    GTR_DETAILS_LOG,
    GTR_DETAILS_STACK_SAMPLE
} gtr_details_kind;

/* trace.EventConfig. stack is the event's stack (NoStack: {NULL, 0}), from
 * gtr_make_stack or another event. The transition's stack is transition.stack. For a
 * range, only its name (gtr_range_set_name) and range.scope are read. For a sync, sync.n
 * and the clock snapshot (experimental batches cannot be given). */
typedef struct gtr_event_config {
    gtr_time time;
    gtr_event_kind kind;
    gtr_goid goroutine;
    gtr_procid proc;
    gtr_threadid thread;
    gtr_stack stack;
    gtr_details_kind details;
    gtr_metric metric;
    gtr_label label;
    gtr_range range;
    gtr_state_transition transition;
    gtr_sync sync;
    gtr_task task;
    gtr_region region;
    gtr_log log;
} gtr_event_config;

/* gtr_make_event is MakeEvent: builds the event c describes in *out. Errors are Go's
 * (GTR_E_INVALID): "the Kind field must be provided", "the Kind field %s is incompatible
 * with Details type %T", "metric value must be a uint64, got: %s", "unknown metric name:
 * %s", "resource must be a goroutine: %s", "unexpected scope: %s", "unexpected range kind:
 * %s", "unexpected range name: %s", "unexpected transition: %s -> %s", "unsupported state
 * transition resource: %s", "task ID cannot be NoTask". Strings are copied. */
GTR_API gtr_status gtr_make_event(gtr_event_builder *b, const gtr_event_config *c,
                                  gtr_event *out, gtr_err *err);
/* gtr_make_stack is MakeStack: a stack of frames[0..n) (copied). */
GTR_API gtr_status gtr_make_stack(gtr_event_builder *b, const gtr_frame *frames, size_t n,
                                  gtr_stack *out, gtr_err *err);

#ifdef __cplusplus
}
#endif
#endif /* GTR_EVENT_H */
