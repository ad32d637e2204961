/* SPDX-License-Identifier: BSD-3-Clause */
/* tgen.h: testgen, the DSL for building execution traces by hand (Go's
 * internal/trace/internal/testgen), and the registry of generators behind `gotrace gen`.
 *
 * A generator is straight-line code:
 *
 *     static void gen(tgen_trace *t)
 *     {
 *         tgen_gen *g = tgen_generation(t, 1);
 *         tgen_batch *b = tgen_batch_new(g, 0, 0);
 *         tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
 *         tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
 *         tgen_event(b, "GoStop", TG_STR("whatever"), TG_NOSTACK);
 *     }
 *
 * Where Go's testgen panics (unknown event, wrong argument count or type, a stack too big, an
 * invalid expectation regexp), tgen records the first error on the trace and turns every later
 * call into a no-op; tgen_trace_status and tgen_generate report it. So a generator checks
 * nothing itself. Calls accept NULL handles (they follow an allocation failure, already
 * recorded) and do nothing.
 *
 * Ownership: the trace owns its generations and batches (freed with tgen_trace_free). Strings
 * and stack frames passed in are copied. Not thread-safe; no globals. */
#ifndef TGEN_TGEN_H
#define TGEN_TGEN_H

#include "gtr/buf.h"
#include "gtr/event.h"
#include "gtr/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tgen_trace tgen_trace;   /* opaque: the whole trace and its expectation */
typedef struct tgen_gen tgen_gen;       /* opaque: one generation (testgen.Generation) */
typedef struct tgen_batch tgen_batch;   /* opaque: one per-M event batch (testgen.Batch) */

/* Argument kinds, one per type suffix of the spec's argument names (the part after the first
 * '_': "new_g" is a goroutine, "p_seq" a sequence number, "reason_string" a string). */
typedef enum tgen_arg_kind {
    TGEN_ARG_NONE = 0,   /* zero-initialised: never valid */
    TGEN_ARG_VALUE,      /* "value", "mono", "sec", "nsec" (Go: uint64) */
    TGEN_ARG_STACK,      /* "stack" (Go: []trace.StackFrame, interned) */
    TGEN_ARG_SEQ,        /* "seq" (Go: testgen.Seq) */
    TGEN_ARG_PSTATUS,    /* "pstatus" (Go: tracev2.ProcStatus) */
    TGEN_ARG_GSTATUS,    /* "gstatus" (Go: tracev2.GoStatus) */
    TGEN_ARG_G,          /* "g" (Go: trace.GoID) */
    TGEN_ARG_M,          /* "m" (Go: trace.ThreadID) */
    TGEN_ARG_P,          /* "p" (Go: trace.ProcID) */
    TGEN_ARG_STRING,     /* "string" (Go: string, interned) */
    TGEN_ARG_TASK        /* "task" (Go: trace.TaskID) */
} tgen_arg_kind;

/* A stack frame (trace.StackFrame). func and file are interned as strings when the
 * generation is written. */
typedef struct tgen_frame {
    uint64_t pc;
    const char *func;
    const char *file;
    uint64_t line;
} tgen_frame;

/* One typed argument of tgen_event. Build it with the TG_* constructors below. */
typedef struct tgen_arg {
    tgen_arg_kind kind;
    uint64_t u;                  /* numeric kinds */
    const char *s;               /* TGEN_ARG_STRING: bytes (NULL means "") */
    size_t n;                    /* TGEN_ARG_STRING: length, or TGEN_STRLEN; STACK: frames */
    const tgen_frame *frames;    /* TGEN_ARG_STACK */
} tgen_arg;

#define TGEN_STRLEN ((size_t)-1)
/* trace.NoThread as a raw argument (the EventBatch m of structural batches). */
#define TGEN_NO_THREAD_U64 UINT64_MAX

#define TG__ARG(k, v) ((tgen_arg){.kind = (k), .u = (uint64_t)(v)})
#define TG_VALUE(v) TG__ARG(TGEN_ARG_VALUE, v)     /* also mono, sec, nsec */
#define TG_SEQ(v) TG__ARG(TGEN_ARG_SEQ, v)
#define TG_PSTATUS(v) TG__ARG(TGEN_ARG_PSTATUS, v) /* a gtr_proc_status */
#define TG_GSTATUS(v) TG__ARG(TGEN_ARG_GSTATUS, v) /* a gtr_go_status */
#define TG_G(v) TG__ARG(TGEN_ARG_G, (gtr_goid)(v))
#define TG_M(v) TG__ARG(TGEN_ARG_M, (gtr_threadid)(v))
#define TG_P(v) TG__ARG(TGEN_ARG_P, (gtr_procid)(v))
#define TG_TASK(v) TG__ARG(TGEN_ARG_TASK, (gtr_taskid)(v))
#define TG_STR(str) ((tgen_arg){.kind = TGEN_ARG_STRING, .s = (str), .n = TGEN_STRLEN})
#define TG_STRN(str, len) ((tgen_arg){.kind = TGEN_ARG_STRING, .s = (str), .n = (len)})
#define TG_STACK(fr, cnt) ((tgen_arg){.kind = TGEN_ARG_STACK, .frames = (fr), .n = (cnt)})
/* testgen.NoString and testgen.NoStack. */
#define TG_NOSTR TG_STR("")
#define TG_NOSTACK TG_STACK(NULL, 0)

/* The default Sync frequency of a generation (testgen: sync{freq: 15625000}). */
#define TGEN_DEFAULT_FREQ 15625000u

/* A wall-clock time (Go time.Time reduced to what the trace needs: Unix() and Nanosecond()).
 * TGEN_WALL_ZERO is Go's zero time.Time (year 1), which is what a generation without a
 * tgen_sync call writes in its ClockSnapshot. */
typedef struct tgen_wall {
    int64_t sec;     /* time.Time.Unix() */
    uint32_t nsec;   /* time.Time.Nanosecond() */
} tgen_wall;
#define TGEN_WALL_ZERO_SEC (-62135596800LL)
#define TGEN_WALL_ZERO ((tgen_wall){.sec = TGEN_WALL_ZERO_SEC, .nsec = 0})
#define TGEN_WALL(s, ns) ((tgen_wall){.sec = (s), .nsec = (ns)})

/* tgen_trace_new creates an empty trace for format version v (22, 23, 25 or 26) that expects
 * SUCCESS. alc NULL: libc. Returns NULL when out of memory; an invalid version is recorded as
 * the trace's error. Free with tgen_trace_free. */
tgen_trace *tgen_trace_new(gtr_go_version v, const gtr_alloc *alc);
void tgen_trace_free(tgen_trace *t);   /* NULL: no-op */
gtr_go_version tgen_trace_version(const tgen_trace *t);

/* tgen_trace_status: GTR_OK, or the first error a DSL call recorded (copied into err). */
gtr_status tgen_trace_status(const tgen_trace *t, gtr_err *err);

/* tgen_expect_failure writes down that the trace must fail to parse with an error matching
 * the regexp pattern (compiled now; a bad pattern is recorded as the trace's error).
 * tgen_expect_success undoes it. */
void tgen_expect_failure(tgen_trace *t, const char *pattern);
void tgen_expect_success(tgen_trace *t);

/* tgen_disable_timestamps: every batch time and every dt generated after the call is 0. Raw
 * events are exempt: their caller writes dt. */
void tgen_disable_timestamps(tgen_trace *t);

/* tgen_generation appends generation number gen (any number; gens are written in creation
 * order). Its Sync is {freq TGEN_DEFAULT_FREQ, time 0, mono 0, wall zero}. */
tgen_gen *tgen_generation(tgen_trace *t, uint64_t gen);

/* tgen_sync configures the generation's sync batch. For go1.25+ time is the ClockSnapshot's
 * timestamp; before go1.25 it is the time of the lone Frequency batch, and a non-zero mono or
 * non-zero wall is an error: "mono and wall args are not supported in go1.%d traces". */
void tgen_sync(tgen_gen *g, uint64_t freq, uint64_t time, uint64_t mono, tgen_wall wall);

/* tgen_string interns s in g: "" is 0, others 1, 2, ... in first-use order. tgen_string_n
 * takes a length (the bytes may hold NULs). Returns 0 after an error. */
uint64_t tgen_string(tgen_gen *g, const char *s);
uint64_t tgen_string_n(tgen_gen *g, const char *s, size_t n);

/* tgen_stack interns a stack of n frames (at most 32: "stack too big for test"): no frames is
 * 0, others 1, 2, ... in first-use order. The frames' strings are interned when g is
 * written, after every string interned before. */
uint64_t tgen_stack(tgen_gen *g, const tgen_frame *frames, size_t n);

/* Options applied when the generation is written: do not split the Stacks or Strings batch
 * when it grows past GTR_MAX_BATCH_SIZE/2 (to build oversized batches on purpose).
 * N.B. The split itself is upstream's: the continuation batch carries no Stacks/Strings
 * header event, so Go's reader (and ours) rejects it ("found event without a timestamp:
 * type=5"). No upstream generator reaches the split; tgen keeps it byte for byte. */
void tgen_ignore_stack_batch_size_limit(tgen_gen *g);
void tgen_ignore_string_batch_size_limit(tgen_gen *g);

/* tgen_batch_new appends an event batch for thread m (GTR_NO_THREAD allowed) with header
 * time `time` (0 once timestamps are disabled). */
tgen_batch *tgen_batch_new(tgen_gen *g, gtr_threadid m, uint64_t time);

/* tgen_event(b, "Name", args...) appends an event by name (Batch.Event). The name must be an
 * event of the trace's version ("invalid or unknown event %s"); dt is implicit for timed
 * events (1 and the clock advances, or 0 with timestamps disabled); the remaining arguments
 * must match the spec in number ("expected %d args for %s, got %d") and kind (the error names
 * the event and the argument). Strings and stacks are interned. A bare number instead of a TG_*
 * constructor does not compile. */
#define tgen_event(...) \
    tgen__event(TG__FIRST(__VA_ARGS__, 0), TG__SECOND(__VA_ARGS__, 0, 0), \
                (const tgen_arg[]){TG__REST2(__VA_ARGS__, TG__ARG(TGEN_ARG_NONE, 0))}, \
                sizeof((const tgen_arg[]){TG__REST2(__VA_ARGS__, TG__ARG(TGEN_ARG_NONE, 0))}) / \
                        sizeof(tgen_arg) - 1)

/* tgen_raw(b, type, args...) appends an event to a batch exactly as given, dt included
 * (Batch.RawEvent); tgen_raw_data adds the trailer of HasData events (String,
 * ExperimentalBatch; at least one argument). Arguments are uint64 values; write
 * TGEN_NO_THREAD_U64 for trace.NoThread. The argument count must match the spec, except for
 * Stack events ("expected %d args for %s, got %d"). The batch size accounts the event's
 * encoded size. */
#define tgen_raw(...) \
    TG__RAW(tgen__raw, TG__FIRST(__VA_ARGS__, 0), TG__SECOND(__VA_ARGS__, 0, 0), NULL, 0, \
            TG__REST2(__VA_ARGS__, 0))
#define tgen_raw_data(b, typ, data, len, ...) TG__RAW(tgen__raw, b, typ, data, len, __VA_ARGS__, 0)

/* tgen_trace_raw(t, type, args...) appends a top-level event written before every generation
 * (Trace.RawEvent): the way to build deliberately broken framing. */
#define tgen_trace_raw(...) \
    TG__RAW(tgen__trace_raw, TG__FIRST(__VA_ARGS__, 0), TG__SECOND(__VA_ARGS__, 0, 0), NULL, 0, \
            TG__REST2(__VA_ARGS__, 0))
#define tgen_trace_raw_data(t, typ, data, len, ...) \
    TG__RAW(tgen__trace_raw, t, typ, data, len, __VA_ARGS__, 0)

/* tgen_generate appends the .test file (txtar with `expect` and `trace`, the trace in the text
 * format) to out (Trace.Generate). Deterministic: stacks and strings are written in ID order.
 * Returns the trace's recorded error, if any, or a write error. */
gtr_status tgen_generate(tgen_trace *t, gtr_buf *out, gtr_err *err);

/* The generator registry (registry.c): every generator `gotrace gen` knows, in name order. */
typedef struct tgen_generator {
    const char *name;             /* the fixture name without ".test" */
    gtr_go_version version;
    void (*gen)(tgen_trace *t);
} tgen_generator;

/* tgen_generators returns the registry and its length in *n (static storage). */
const tgen_generator *tgen_generators(size_t *n);

/* tgen_run builds the generator's trace and appends its .test file to out. */
gtr_status tgen_run(const tgen_generator *g, gtr_buf *out, gtr_err *err);

/* Implementation of the macros above (the trailing element is a sentinel, not counted). */
void tgen__event(tgen_batch *b, const char *name, const tgen_arg *args, size_t nargs);
void tgen__raw(tgen_batch *b, uint8_t typ, const void *data, size_t len, const uint64_t *args,
               size_t nargs);
void tgen__trace_raw(tgen_trace *t, uint8_t typ, const void *data, size_t len,
                     const uint64_t *args, size_t nargs);
#define TG__FIRST(a, ...) a
#define TG__SECOND(a, b, ...) b
#define TG__REST2(a, b, ...) __VA_ARGS__
/* The argument list ends with a 0 sentinel that is not counted. */
#define TG__RAW(fn, h, typ, data, len, ...)                                    \
    fn((h), (uint8_t)(typ), (data), (len), (const uint64_t[]){__VA_ARGS__},    \
       sizeof((const uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t) - 1)

#ifdef __cplusplus
}
#endif
#endif /* TGEN_TGEN_H */
