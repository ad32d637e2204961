/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/tracev2/events.go and src/internal/trace/version/version.go at
 * go1.27.3: the event table of every v2 format version, and the version slices. */
#include <stdio.h>
#include <string.h>

#include "gtr/spec.h"

#define ARGS(...) .args = {__VA_ARGS__}, .nargs = (uint8_t)(sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *))
#define STRINGS1(a) .nstring_ids = 1, .string_ids = {a}
#define STRINGS2(a, b) .nstring_ids = 2, .string_ids = {a, b}
#define STACKS1(a) .nstack_ids = 1, .stack_ids = {a}
#define STACKS2(a, b) .nstack_ids = 2, .stack_ids = {a, b}
#define TIMED .is_timed = true

static const gtr_event_spec specs[GTR_EV_MAX_EXPERIMENTAL] = {
    /* Structural events. */
    [GTR_EV_EVENT_BATCH] = {.name = "EventBatch", ARGS("gen", "m", "time", "size")},
    [GTR_EV_STACKS] = {.name = "Stacks"},
    [GTR_EV_STACK] = {.name = "Stack", ARGS("id", "nframes"), .is_stack = true},
    [GTR_EV_STRINGS] = {.name = "Strings"},
    [GTR_EV_STRING] = {.name = "String", ARGS("id"), .has_data = true},
    [GTR_EV_CPU_SAMPLES] = {.name = "CPUSamples"},
    [GTR_EV_CPU_SAMPLE] = {.name = "CPUSample", ARGS("time", "m", "p", "g", "stack"), STACKS1(4)},
    [GTR_EV_FREQUENCY] = {.name = "Frequency", ARGS("freq")},
    [GTR_EV_EXPERIMENTAL_BATCH] = {.name = "ExperimentalBatch", ARGS("exp", "gen", "m", "time"),
                                   .has_data = true},
    [GTR_EV_SYNC] = {.name = "Sync"},
    [GTR_EV_END_OF_GENERATION] = {.name = "EndOfGeneration"},

    /* Procs. */
    [GTR_EV_PROCS_CHANGE] = {.name = "ProcsChange", ARGS("dt", "procs_value", "stack"), TIMED,
                             STACKS1(2)},
    [GTR_EV_PROC_START] = {.name = "ProcStart", ARGS("dt", "p", "p_seq"), TIMED},
    [GTR_EV_PROC_STOP] = {.name = "ProcStop", ARGS("dt"), TIMED},
    [GTR_EV_PROC_STEAL] = {.name = "ProcSteal", ARGS("dt", "p", "p_seq", "m"), TIMED},
    [GTR_EV_PROC_STATUS] = {.name = "ProcStatus", ARGS("dt", "p", "pstatus"), TIMED},

    /* Goroutines. */
    [GTR_EV_GO_CREATE] = {.name = "GoCreate", ARGS("dt", "new_g", "new_stack", "stack"), TIMED,
                          STACKS2(3, 2)},
    [GTR_EV_GO_CREATE_SYSCALL] = {.name = "GoCreateSyscall", ARGS("dt", "new_g"), TIMED},
    [GTR_EV_GO_START] = {.name = "GoStart", ARGS("dt", "g", "g_seq"), TIMED},
    [GTR_EV_GO_DESTROY] = {.name = "GoDestroy", ARGS("dt"), TIMED},
    [GTR_EV_GO_DESTROY_SYSCALL] = {.name = "GoDestroySyscall", ARGS("dt"), TIMED},
    [GTR_EV_GO_STOP] = {.name = "GoStop", ARGS("dt", "reason_string", "stack"), TIMED,
                        STACKS1(2), STRINGS1(1)},
    [GTR_EV_GO_BLOCK] = {.name = "GoBlock", ARGS("dt", "reason_string", "stack"), TIMED,
                         STACKS1(2), STRINGS1(1)},
    [GTR_EV_GO_UNBLOCK] = {.name = "GoUnblock", ARGS("dt", "g", "g_seq", "stack"), TIMED,
                           STACKS1(3)},
    [GTR_EV_GO_SYSCALL_BEGIN] = {.name = "GoSyscallBegin", ARGS("dt", "p_seq", "stack"), TIMED,
                                 STACKS1(2)},
    [GTR_EV_GO_SYSCALL_END] = {.name = "GoSyscallEnd", ARGS("dt"), TIMED,
                               .start_ev = GTR_EV_GO_SYSCALL_BEGIN},
    [GTR_EV_GO_SYSCALL_END_BLOCKED] = {.name = "GoSyscallEndBlocked", ARGS("dt"), TIMED,
                                       .start_ev = GTR_EV_GO_SYSCALL_BEGIN},
    [GTR_EV_GO_STATUS] = {.name = "GoStatus", ARGS("dt", "g", "m", "gstatus"), TIMED},

    /* STW. */
    [GTR_EV_STW_BEGIN] = {.name = "STWBegin", ARGS("dt", "kind_string", "stack"), TIMED,
                          STACKS1(2), STRINGS1(1)},
    [GTR_EV_STW_END] = {.name = "STWEnd", ARGS("dt"), TIMED, .start_ev = GTR_EV_STW_BEGIN},

    /* GC. */
    [GTR_EV_GC_ACTIVE] = {.name = "GCActive", ARGS("dt", "gc_seq"), TIMED,
                          .start_ev = GTR_EV_GC_BEGIN},
    [GTR_EV_GC_BEGIN] = {.name = "GCBegin", ARGS("dt", "gc_seq", "stack"), TIMED, STACKS1(2)},
    [GTR_EV_GC_END] = {.name = "GCEnd", ARGS("dt", "gc_seq"), TIMED, .start_ev = GTR_EV_GC_BEGIN},
    [GTR_EV_GC_SWEEP_ACTIVE] = {.name = "GCSweepActive", ARGS("dt", "p"), TIMED,
                                .start_ev = GTR_EV_GC_SWEEP_BEGIN},
    [GTR_EV_GC_SWEEP_BEGIN] = {.name = "GCSweepBegin", ARGS("dt", "stack"), TIMED, STACKS1(1)},
    [GTR_EV_GC_SWEEP_END] = {.name = "GCSweepEnd", ARGS("dt", "swept_value", "reclaimed_value"),
                             TIMED, .start_ev = GTR_EV_GC_SWEEP_BEGIN},
    [GTR_EV_GC_MARK_ASSIST_ACTIVE] = {.name = "GCMarkAssistActive", ARGS("dt", "g"), TIMED,
                                      .start_ev = GTR_EV_GC_MARK_ASSIST_BEGIN},
    [GTR_EV_GC_MARK_ASSIST_BEGIN] = {.name = "GCMarkAssistBegin", ARGS("dt", "stack"), TIMED,
                                     STACKS1(1)},
    [GTR_EV_GC_MARK_ASSIST_END] = {.name = "GCMarkAssistEnd", ARGS("dt"), TIMED,
                                   .start_ev = GTR_EV_GC_MARK_ASSIST_BEGIN},
    [GTR_EV_HEAP_ALLOC] = {.name = "HeapAlloc", ARGS("dt", "heapalloc_value"), TIMED},
    [GTR_EV_HEAP_GOAL] = {.name = "HeapGoal", ARGS("dt", "heapgoal_value"), TIMED},

    /* Annotations. */
    [GTR_EV_GO_LABEL] = {.name = "GoLabel", ARGS("dt", "label_string"), TIMED, STRINGS1(1)},
    [GTR_EV_USER_TASK_BEGIN] = {.name = "UserTaskBegin",
                                ARGS("dt", "task", "parent_task", "name_string", "stack"), TIMED,
                                STACKS1(4), STRINGS1(3)},
    [GTR_EV_USER_TASK_END] = {.name = "UserTaskEnd", ARGS("dt", "task", "stack"), TIMED,
                              STACKS1(2)},
    [GTR_EV_USER_REGION_BEGIN] = {.name = "UserRegionBegin",
                                  ARGS("dt", "task", "name_string", "stack"), TIMED, STACKS1(3),
                                  STRINGS1(2)},
    [GTR_EV_USER_REGION_END] = {.name = "UserRegionEnd", ARGS("dt", "task", "name_string", "stack"),
                                TIMED, STACKS1(3), STRINGS1(2),
                                .start_ev = GTR_EV_USER_REGION_BEGIN},
    [GTR_EV_USER_LOG] = {.name = "UserLog",
                         ARGS("dt", "task", "key_string", "value_string", "stack"), TIMED,
                         STACKS1(4), STRINGS2(2, 3)},

    /* Coroutines (Go 1.23). */
    [GTR_EV_GO_SWITCH] = {.name = "GoSwitch", ARGS("dt", "g", "g_seq"), TIMED},
    [GTR_EV_GO_SWITCH_DESTROY] = {.name = "GoSwitchDestroy", ARGS("dt", "g", "g_seq"), TIMED},
    [GTR_EV_GO_CREATE_BLOCKED] = {.name = "GoCreateBlocked",
                                  ARGS("dt", "new_g", "new_stack", "stack"), TIMED, STACKS2(3, 2)},

    /* GoStatus with stack (Go 1.23). */
    [GTR_EV_GO_STATUS_STACK] = {.name = "GoStatusStack", ARGS("dt", "g", "m", "gstatus", "stack"),
                                TIMED, STACKS1(4)},

    /* Clock snapshot (Go 1.25), only inside a sync batch. */
    [GTR_EV_CLOCK_SNAPSHOT] = {.name = "ClockSnapshot", ARGS("dt", "mono", "sec", "nsec"), TIMED},

    /* Experimental events: AllocFree. */
    [GTR_EV_SPAN] = {.name = "Span", ARGS("dt", "id", "npages_value", "kindclass"), TIMED,
                     .experiment = GTR_EXP_ALLOC_FREE},
    [GTR_EV_SPAN_ALLOC] = {.name = "SpanAlloc", ARGS("dt", "id", "npages_value", "kindclass"),
                           TIMED, .experiment = GTR_EXP_ALLOC_FREE},
    [GTR_EV_SPAN_FREE] = {.name = "SpanFree", ARGS("dt", "id"), TIMED,
                          .experiment = GTR_EXP_ALLOC_FREE},
    [GTR_EV_HEAP_OBJECT] = {.name = "HeapObject", ARGS("dt", "id", "type"), TIMED,
                            .experiment = GTR_EXP_ALLOC_FREE},
    [GTR_EV_HEAP_OBJECT_ALLOC] = {.name = "HeapObjectAlloc", ARGS("dt", "id", "type"), TIMED,
                                  .experiment = GTR_EXP_ALLOC_FREE},
    [GTR_EV_HEAP_OBJECT_FREE] = {.name = "HeapObjectFree", ARGS("dt", "id"), TIMED,
                                 .experiment = GTR_EXP_ALLOC_FREE},
    [GTR_EV_GOROUTINE_STACK] = {.name = "GoroutineStack", ARGS("dt", "id", "order"), TIMED,
                                .experiment = GTR_EXP_ALLOC_FREE},
    [GTR_EV_GOROUTINE_STACK_ALLOC] = {.name = "GoroutineStackAlloc", ARGS("dt", "id", "order"),
                                      TIMED, .experiment = GTR_EXP_ALLOC_FREE},
    [GTR_EV_GOROUTINE_STACK_FREE] = {.name = "GoroutineStackFree", ARGS("dt", "id"), TIMED,
                                     .experiment = GTR_EXP_ALLOC_FREE},
};

static const gtr_event_spec no_spec;

const gtr_event_spec *gtr_spec(uint8_t t)
{
    return t < GTR_EV_MAX_EXPERIMENTAL ? &specs[t] : &no_spec;
}

bool gtr_event_type_experimental(uint8_t t)
{
    return t > GTR_EV_MAX && t < GTR_EV_MAX_EXPERIMENTAL;
}

const char *gtr_experiment_name(unsigned exp)
{
    static const char *const names[GTR_EXP_NUM] = {"None", "AllocFree"};
    return exp < GTR_EXP_NUM ? names[exp] : NULL;
}

bool gtr_go_version_valid(uint64_t v)
{
    switch (v) {
    case GTR_GO111:
    case GTR_GO119:
    case GTR_GO121:
    case GTR_GO122:
    case GTR_GO123:
    case GTR_GO125:
    case GTR_GO126:
        return true;
    default:
        return false;
    }
}

size_t gtr_go_version_nspecs(uint64_t v)
{
    switch (v) {
    case GTR_GO122:
        return GTR_EV_USER_LOG + 1;           /* all events after are Go 1.23+ */
    case GTR_GO123:
        return GTR_EV_EXPERIMENTAL_BATCH + 1; /* all events after are Go 1.25+ */
    case GTR_GO125:
        return GTR_EV_CLOCK_SNAPSHOT + 1;     /* all events after are Go 1.26+ */
    case GTR_GO126:
        return GTR_EV_MAX_EXPERIMENTAL;       /* the full table */
    default:
        return 0;                             /* v1 formats and invalid versions */
    }
}

const char *gtr_go_version_event_name(uint64_t v, uint8_t t, char *buf, size_t n)
{
    const char *s;
    if (!gtr_go_version_valid(v))
        s = "<invalid trace version>";
    else if (gtr_go_version_nspecs(v) == 0)
        s = "<v1 trace event type>";
    else if (t < gtr_go_version_nspecs(v) && specs[t].name != NULL)
        s = specs[t].name;
    else {
        snprintf(buf, n, "Invalid(%u)", (unsigned)t);
        return buf;
    }
    snprintf(buf, n, "%s", s);
    return buf;
}

int gtr_go_version_lookup_event(uint64_t v, const char *name, size_t len)
{
    size_t n = gtr_go_version_nspecs(v);
    for (size_t t = 0; t < n; t++) {
        const char *s = specs[t].name;
        if (s != NULL && strlen(s) == len && memcmp(s, name, len) == 0)
            return (int)t;
    }
    return -1;
}

size_t gtr_header_format(uint64_t v, char *buf)
{
    /* Go: fmt.Fprintf(w, "go 1.%d trace\x00\x00\x00", v) */
    int n = snprintf(buf, GTR_HEADER_MAX, "go 1.%llu trace", (unsigned long long)v);
    size_t len = (size_t)n;
    memset(buf + len, 0, 3);
    return len + 3;
}
