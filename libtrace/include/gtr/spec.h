/* SPDX-License-Identifier: BSD-3-Clause */
/* spec.h: the trace format's event table (Go's internal/trace/tracev2) and the format
 * versions (internal/trace/version).
 *
 * One table drives everything: the raw readers and writers, the text format's names, the
 * high-level reader and testgen. Adding an event is one row in spec.c. */
#ifndef GTR_SPEC_H
#define GTR_SPEC_H

#include "gtr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Event types (tracev2.EventType). Values are the wire bytes. */
typedef enum gtr_event_type {
    GTR_EV_NONE = 0,
    GTR_EV_EVENT_BATCH = 1,
    GTR_EV_STACKS = 2,
    GTR_EV_STACK = 3,
    GTR_EV_STRINGS = 4,
    GTR_EV_STRING = 5,
    GTR_EV_CPU_SAMPLES = 6,
    GTR_EV_CPU_SAMPLE = 7,
    GTR_EV_FREQUENCY = 8,
    GTR_EV_PROCS_CHANGE = 9,
    GTR_EV_PROC_START = 10,
    GTR_EV_PROC_STOP = 11,
    GTR_EV_PROC_STEAL = 12,
    GTR_EV_PROC_STATUS = 13,
    GTR_EV_GO_CREATE = 14,
    GTR_EV_GO_CREATE_SYSCALL = 15,
    GTR_EV_GO_START = 16,
    GTR_EV_GO_DESTROY = 17,
    GTR_EV_GO_DESTROY_SYSCALL = 18,
    GTR_EV_GO_STOP = 19,
    GTR_EV_GO_BLOCK = 20,
    GTR_EV_GO_UNBLOCK = 21,
    GTR_EV_GO_SYSCALL_BEGIN = 22,
    GTR_EV_GO_SYSCALL_END = 23,
    GTR_EV_GO_SYSCALL_END_BLOCKED = 24,
    GTR_EV_GO_STATUS = 25,
    GTR_EV_STW_BEGIN = 26,
    GTR_EV_STW_END = 27,
    GTR_EV_GC_ACTIVE = 28,
    GTR_EV_GC_BEGIN = 29,
    GTR_EV_GC_END = 30,
    GTR_EV_GC_SWEEP_ACTIVE = 31,
    GTR_EV_GC_SWEEP_BEGIN = 32,
    GTR_EV_GC_SWEEP_END = 33,
    GTR_EV_GC_MARK_ASSIST_ACTIVE = 34,
    GTR_EV_GC_MARK_ASSIST_BEGIN = 35,
    GTR_EV_GC_MARK_ASSIST_END = 36,
    GTR_EV_HEAP_ALLOC = 37,
    GTR_EV_HEAP_GOAL = 38,
    GTR_EV_GO_LABEL = 39,
    GTR_EV_USER_TASK_BEGIN = 40,
    GTR_EV_USER_TASK_END = 41,
    GTR_EV_USER_REGION_BEGIN = 42,
    GTR_EV_USER_REGION_END = 43,
    GTR_EV_USER_LOG = 44,
    GTR_EV_GO_SWITCH = 45,           /* Go 1.23 */
    GTR_EV_GO_SWITCH_DESTROY = 46,   /* Go 1.23 */
    GTR_EV_GO_CREATE_BLOCKED = 47,   /* Go 1.23 */
    GTR_EV_GO_STATUS_STACK = 48,     /* Go 1.23 */
    GTR_EV_EXPERIMENTAL_BATCH = 49,  /* Go 1.23 */
    GTR_EV_SYNC = 50,                /* Go 1.25 */
    GTR_EV_CLOCK_SNAPSHOT = 51,      /* Go 1.25 */
    GTR_EV_END_OF_GENERATION = 52,   /* Go 1.26 */
    GTR_EV_NUM = 53,                 /* tracev2.NumEvents */

    GTR_EV_MAX = 127,                /* tracev2.MaxEvent */
    /* Experimental events (AllocFree experiment). */
    GTR_EV_SPAN = 128,
    GTR_EV_SPAN_ALLOC = 129,
    GTR_EV_SPAN_FREE = 130,
    GTR_EV_HEAP_OBJECT = 131,
    GTR_EV_HEAP_OBJECT_ALLOC = 132,
    GTR_EV_HEAP_OBJECT_FREE = 133,
    GTR_EV_GOROUTINE_STACK = 134,
    GTR_EV_GOROUTINE_STACK_ALLOC = 135,
    GTR_EV_GOROUTINE_STACK_FREE = 136,
    GTR_EV_MAX_EXPERIMENTAL = 137    /* tracev2.MaxExperimentalEvent; also the table size */
} gtr_event_type;

/* Experiments (tracev2.Experiment). */
typedef enum gtr_experiment {
    GTR_EXP_NONE = 0,
    GTR_EXP_ALLOC_FREE = 1,
    GTR_EXP_NUM = 2
} gtr_experiment;

/* Goroutine status as written in GoStatus/GoStatusStack events (tracev2.GoStatus). String():
 * Runnable, Running, Syscall, Waiting; anything else "Bad". */
typedef enum gtr_go_status {
    GTR_GSTATUS_BAD = 0,
    GTR_GSTATUS_RUNNABLE = 1,
    GTR_GSTATUS_RUNNING = 2,
    GTR_GSTATUS_SYSCALL = 3,
    GTR_GSTATUS_WAITING = 4
} gtr_go_status;

/* Proc status as written in ProcStatus events (tracev2.ProcStatus). String(): Running, Idle,
 * Syscall, SyscallAbandoned; anything else "Bad". */
typedef enum gtr_proc_status {
    GTR_PSTATUS_BAD = 0,
    GTR_PSTATUS_RUNNING = 1,
    GTR_PSTATUS_IDLE = 2,
    GTR_PSTATUS_SYSCALL = 3,
    GTR_PSTATUS_SYSCALL_ABANDONED = 4
} gtr_proc_status;

/* Limits of the format (tracev2 constants). */
#define GTR_MAX_BATCH_SIZE (64u << 10)          /* MaxBatchSize */
#define GTR_MAX_FRAMES_PER_STACK 128            /* MaxFramesPerStack */
#define GTR_MAX_EVENT_TRAILER_DATA_SIZE 1024    /* MaxEventTrailerDataSize */
#define GTR_MAX_TIMED_EVENT_ARGS 5              /* MaxTimedEventArgs */
#define GTR_MAX_SPEC_ARGS 5                     /* most args any spec row has */

/* One row of the event table (tracev2.EventSpec). Index lists count `dt` as index 0, as
 * Go does: they index the full argument list. */
typedef struct gtr_event_spec {
    const char *name;                   /* NULL: no event has this type */
    const char *args[GTR_MAX_SPEC_ARGS];
    uint8_t nargs;
    uint8_t nstring_ids;
    uint8_t string_ids[2];
    uint8_t nstack_ids;
    uint8_t stack_ids[2];
    uint8_t start_ev;                   /* GTR_EV_NONE when the event starts nothing */
    bool is_timed;                      /* first arg is "dt" */
    bool has_data;                      /* a length-prefixed trailer follows the args */
    bool is_stack;                      /* nframes*4 frame values follow the args */
    uint8_t experiment;                 /* gtr_experiment */
} gtr_event_spec;

/* gtr_spec returns the full-table row for type t (never NULL; rows of unused types have a
 * NULL name). The high-level reader, like Go's, always uses the full table. */
GTR_API const gtr_event_spec *gtr_spec(uint8_t t);

/* gtr_event_type_experimental: tracev2.EventType.Experimental (127 < t < 137). */
GTR_API bool gtr_event_type_experimental(uint8_t t);

/* gtr_experiment_name: "None", "AllocFree", or NULL when out of range. */
GTR_API const char *gtr_experiment_name(unsigned exp);

/* Trace format versions: the N of a "go 1.N trace" header (internal/trace/version). The
 * functions about them are gtr_go_version_*, taking the number as a header gives it (valid
 * or not); gtr_version() (gtr/version.h) is the library's own version. */
typedef enum gtr_go_version {
    GTR_GO111 = 11,   /* v1 format (libtrace/src/tracev1/) */
    GTR_GO119 = 19,   /* v1 */
    GTR_GO121 = 21,   /* v1 */
    GTR_GO122 = 22,
    GTR_GO123 = 23,
    GTR_GO125 = 25,
    GTR_GO126 = 26,
    GTR_GO_CURRENT = GTR_GO126
} gtr_go_version;

/* gtr_go_version_valid: Version.Valid (11, 19, 21, 22, 23, 25, 26). */
GTR_API bool gtr_go_version_valid(uint64_t v);

/* gtr_go_version_nspecs: len(Version.Specs()): how many types of the full table the raw
 * layer (binary and text readers and writers, testgen) accepts for v; 0 for v1 and invalid
 * versions. Types t < gtr_go_version_nspecs(v) with a non-NULL name are the version's
 * events. */
GTR_API size_t gtr_go_version_nspecs(uint64_t v);

/* gtr_go_version_event_name writes Version.EventName(t) into buf (at least 32 bytes) and
 * returns buf: the spec name, "Invalid(%d)", "<v1 trace event type>" or
 * "<invalid trace version>". */
GTR_API const char *gtr_go_version_event_name(uint64_t v, uint8_t t, char *buf, size_t n);

/* gtr_go_version_lookup_event finds the type called name[0..len) among v's events (Go's
 * tracev2.EventNames(v.Specs())). Returns the type, or -1 if there is none. */
GTR_API int gtr_go_version_lookup_event(uint64_t v, const char *name, size_t len);

/* Header: "go 1.%d trace\0\0\0" (version.ReadHeader/WriteHeader). */
#define GTR_HEADER_MAX 32
/* gtr_header_format writes the header for v into buf (GTR_HEADER_MAX bytes) and returns its
 * length (16 for two-digit versions). */
GTR_API size_t gtr_header_format(uint64_t v, char *buf);

#ifdef __cplusplus
}
#endif
#endif /* GTR_SPEC_H */
