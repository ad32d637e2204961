/* SPDX-License-Identifier: BSD-3-Clause */
/* tracev1.h: the parser of the old trace format (Go 1.11-1.21), private to libtrace.
 * Port of src/internal/trace/internal/tracev1/ (parser.go, order.go) at go1.27.3.
 *
 * gtr__v1_parse loads a whole trace (the bytes after the header), orders the per-P batches
 * into one stream, converts timestamps, moves timers and syscalls to their fake Ps and runs
 * Go's post-processing checks. The result is a gtr__v1_trace: one flat, sorted array of
 * compact events plus the string, stack and frame dictionaries, which point into the
 * trace's own copy of the input (data). tracev1_convert.c turns it into v2 events. */
#ifndef GTR_SRC_TRACEV1_TRACEV1_H
#define GTR_SRC_TRACEV1_TRACEV1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gtr/alloc.h"
#include "gtr/buf.h"
#include "gtr/spec.h"
#include "gtr/status.h"

#include "../base.h"
#include "../idmap.h"

/* Event types (Go's tracev1 Ev*, runtime/trace.go of Go 1.21). */
enum {
    GTR_V1_NONE = 0,
    GTR_V1_BATCH = 1,
    GTR_V1_FREQUENCY = 2,
    GTR_V1_STACK = 3,
    GTR_V1_GOMAXPROCS = 4,
    GTR_V1_PROC_START = 5,
    GTR_V1_PROC_STOP = 6,
    GTR_V1_GC_START = 7,
    GTR_V1_GC_DONE = 8,
    GTR_V1_STW_START = 9,
    GTR_V1_STW_DONE = 10,
    GTR_V1_GC_SWEEP_START = 11,
    GTR_V1_GC_SWEEP_DONE = 12,
    GTR_V1_GO_CREATE = 13,
    GTR_V1_GO_START = 14,
    GTR_V1_GO_END = 15,
    GTR_V1_GO_STOP = 16,
    GTR_V1_GO_SCHED = 17,
    GTR_V1_GO_PREEMPT = 18,
    GTR_V1_GO_SLEEP = 19,
    GTR_V1_GO_BLOCK = 20,
    GTR_V1_GO_UNBLOCK = 21,
    GTR_V1_GO_BLOCK_SEND = 22,
    GTR_V1_GO_BLOCK_RECV = 23,
    GTR_V1_GO_BLOCK_SELECT = 24,
    GTR_V1_GO_BLOCK_SYNC = 25,
    GTR_V1_GO_BLOCK_COND = 26,
    GTR_V1_GO_BLOCK_NET = 27,
    GTR_V1_GO_SYSCALL = 28,
    GTR_V1_GO_SYS_EXIT = 29,
    GTR_V1_GO_SYS_BLOCK = 30,
    GTR_V1_GO_WAITING = 31,
    GTR_V1_GO_IN_SYSCALL = 32,
    GTR_V1_HEAP_ALLOC = 33,
    GTR_V1_HEAP_GOAL = 34,
    GTR_V1_TIMER_GOROUTINE = 35,
    GTR_V1_FUTILE_WAKEUP = 36,
    GTR_V1_STRING = 37,
    GTR_V1_GO_START_LOCAL = 38,
    GTR_V1_GO_UNBLOCK_LOCAL = 39,
    GTR_V1_GO_SYS_EXIT_LOCAL = 40,
    GTR_V1_GO_START_LABEL = 41,
    GTR_V1_GO_BLOCK_GC = 42,
    GTR_V1_GC_MARK_ASSIST_START = 43,
    GTR_V1_GC_MARK_ASSIST_DONE = 44,
    GTR_V1_USER_TASK_CREATE = 45,
    GTR_V1_USER_TASK_END = 46,
    GTR_V1_USER_REGION = 47,
    GTR_V1_USER_LOG = 48,
    GTR_V1_CPU_SAMPLE = 49,
    GTR_V1_COUNT = 50
};

/* Special P identifiers (FakeP, TimerP, ...). */
#define GTR_V1_FAKE_P 1000000
#define GTR_V1_TIMER_P 1000001
#define GTR_V1_NETPOLL_P 1000002
#define GTR_V1_SYSCALL_P 1000003
#define GTR_V1_GC_P 1000004
#define GTR_V1_PROFILE_P 1000005

/* One row of Go's EventDescriptions. */
typedef struct gtr__v1_desc {
    const char *name;
    uint8_t min_version;
    bool stack;
    uint8_t nargs;
    const char *args[3];
} gtr__v1_desc;
/* gtr__v1_describe: the row of type t (t < GTR_V1_COUNT). */
const gtr__v1_desc *gtr__v1_describe(uint8_t t);

/* Go's tracev1.Event, unpacked (64 bytes): the form the parser and the converter work on.
 * sys_blocked is gotrace's: set on GoSysCall when the next event of the same G is GoSysBlock
 * (the converter's look-ahead, computed in one backward pass instead of a scan per
 * syscall). */
typedef struct gtr__v1_event {
    int64_t ts;
    uint64_t g;
    uint64_t args[4];
    uint32_t stk;
    int32_t p;
    uint8_t type;
    uint8_t sys_blocked;
} gtr__v1_event;

/* The stored form of an event: 24 bytes (the whole trace's events are held at once, and
 * their memory is most of the old path's cost). The time and the first two arguments are
 * kept as they are, when they fit 32 bits; the type (6 bits), the flags (2), the G (24), the
 * stack ID (24) and the P (8, as a code: the real Ps 0..247, -1 and the six fake Ps) are
 * packed in two words. An event whose G, stack, P or arguments do not fit (or whose last two
 * arguments are not zero) is WIDE: a0 indexes the trace's wide table, which holds them all.
 * Read and change the fields with the accessors below, never the words. A copy of a WIDE
 * event shares its row: change the P or stack of one copy only, the one kept. */
typedef struct gtr__v1_packed {
    int64_t ts;
    uint32_t a0, a1;
    uint32_t tfg;    /* type | flags << 6 | G << 8 */
    uint32_t sp;     /* stack ID | P code << 24 */
} gtr__v1_packed;
_Static_assert(sizeof(gtr__v1_packed) == 24, "the stored event is 24 bytes");
#define GTR_V1_F_WIDE 1u
#define GTR_V1_F_SYS_BLOCKED 2u

typedef struct gtr__v1_wide {
    uint64_t g;
    uint64_t args[4];
    uint32_t stk;
    int32_t p;
} gtr__v1_wide;

#define GTR__V1_G_MAX 0xffffffu
#define GTR__V1_STK_MAX 0xffffffu
#define GTR__V1_PCODE_REAL 248u      /* codes 0..247: the P itself */
#define GTR__V1_PCODE_NONE 254u      /* -1 */
#define GTR__V1_PCODE_BAD 255u       /* no code: the event is WIDE */

/* gtr__v1_pcode is the code of P p, GTR__V1_PCODE_BAD when it has none. */
static inline uint32_t gtr__v1_pcode(int32_t p)
{
    if (p >= 0 && p < (int32_t)GTR__V1_PCODE_REAL)
        return (uint32_t)p;
    if (p >= GTR_V1_FAKE_P && p <= GTR_V1_PROFILE_P)
        return GTR__V1_PCODE_REAL + (uint32_t)(p - GTR_V1_FAKE_P);
    return p == -1 ? GTR__V1_PCODE_NONE : GTR__V1_PCODE_BAD;
}

static inline int32_t gtr__v1_pdecode(uint32_t code)
{
    if (code < GTR__V1_PCODE_REAL)
        return (int32_t)code;
    return code == GTR__V1_PCODE_NONE ? -1 : GTR_V1_FAKE_P + (int32_t)(code - GTR__V1_PCODE_REAL);
}

static inline uint8_t gtr__v1_ptype(const gtr__v1_packed *e)
{
    return (uint8_t)(e->tfg & 0x3f);
}

static inline unsigned gtr__v1_pflags(const gtr__v1_packed *e)
{
    return (e->tfg >> 6) & 3u;
}

static inline bool gtr__v1_pwide(const gtr__v1_packed *e)
{
    return (e->tfg & (GTR_V1_F_WIDE << 6)) != 0;
}

/* gtr__v1_pset_type changes the type (t < 64); gtr__v1_pset_flag sets flag f. */
static inline void gtr__v1_pset_type(gtr__v1_packed *e, uint8_t t)
{
    e->tfg = (e->tfg & ~0x3fu) | t;
}

static inline void gtr__v1_pset_flag(gtr__v1_packed *e, unsigned f)
{
    e->tfg |= f << 6;
}

/* gtr__v1_pnarrow stores a narrow event's fields; the caller has checked that they fit
 * (g <= GTR__V1_G_MAX, stk <= GTR__V1_STK_MAX, pcode != GTR__V1_PCODE_BAD). */
static inline void gtr__v1_pnarrow(gtr__v1_packed *e, int64_t ts, uint8_t type, unsigned flags,
                                   uint32_t g, uint32_t a0, uint32_t a1, uint32_t stk,
                                   uint32_t pcode)
{
    e->ts = ts;
    e->a0 = a0;
    e->a1 = a1;
    e->tfg = type | flags << 6 | g << 8;
    e->sp = stk | pcode << 24;
}

/* A string of the trace: bytes data[off, off+len) of the trace's input copy. */
typedef struct gtr__v1_str {
    uint64_t id;
    size_t off;
    size_t len;
} gtr__v1_str;

/* A stack: pcs[off, off+n) of the trace's PC pool. */
typedef struct gtr__v1_stack {
    uint32_t id;
    size_t off;
    size_t n;
} gtr__v1_stack;

/* Go's tracev1.Frame (Line is kept as the wire's uint64; Go's int round-trips it). */
typedef struct gtr__v1_frame {
    uint64_t pc;
    uint64_t fn;
    uint64_t file;
    uint64_t line;
} gtr__v1_frame;

/* Go's tracev1.Trace. */
typedef struct gtr__v1_trace {
    const gtr_alloc *alc;
    gtr_go_version ver;
    const uint8_t *data;      /* the input after the header; strings point here */
    size_t len;
    uint8_t *data_owned;      /* data, when the trace owns it (NULL: borrowed) */
    gtr__v1_packed *events;   /* sorted; their times stay in ticks (see gtr__v1_time) */
    size_t nevents;
    int64_t min_ts;           /* Parse's minTs and freq, for gtr__v1_time */
    double freq;
    gtr__v1_wide *wide;       /* the values of WIDE events */
    size_t nwide, wide_cap;
    gtr__v1_str *strings;     /* the string dictionary (Go's Strings map), unique IDs */
    size_t nstrings;
    gtr__v1_str *inline_strings; /* UserLog messages in first-seen order (id = index) */
    size_t ninline;
    gtr__v1_stack *stacks;    /* unique IDs; a redefinition replaced the earlier one */
    size_t nstacks;
    uint64_t *pcs;            /* the stacks' PCs */
    size_t npcs;
    gtr__v1_frame *frames;    /* one per PC, the first definition */
    size_t nframes;
} gtr__v1_trace;

/* gtr__v1_time is a stored event's time in nanoseconds, Parse's Timestamp(float64(ts-minTs)
 * * freq) of its ticks, with amd64's conversion of an out-of-range float (gtr__f64_to_i64).
 * Parse converts every event in place; here the stored events keep their ticks and each
 * reader of a time converts it, so that post_process need not write the whole event array
 * back. */
static inline int64_t gtr__v1_time(const gtr__v1_trace *t, int64_t ticks)
{
    return gtr__f64_to_i64((double)(int64_t)((uint64_t)ticks - (uint64_t)t->min_ts) * t->freq);
}

/* gtr__v1_parse is Go's tracev1.Parse over data[0..len). owned is data when the trace takes
 * ownership of it (allocated with alc; freed with the trace, or here on failure), or NULL
 * when data is borrowed: it must then outlive the trace (a plain memory input's bytes,
 * gtr__input_borrow_rest). Errors carry Go's messages. */
gtr_status gtr__v1_parse(const uint8_t *data, size_t len, uint8_t *owned, gtr_go_version ver,
                         const gtr_alloc *alc, gtr__v1_trace *out, gtr_err *err);
/* gtr__v1_trace_free releases everything the trace holds (the struct itself is the
 * caller's). */
void gtr__v1_trace_free(gtr__v1_trace *t);
/* gtr__v1_trace_release_tables frees the dictionaries and the input copy, once the
 * converter has copied them: the events alone stay. */
void gtr__v1_trace_release_tables(gtr__v1_trace *t);
/* gtr__v1_unpack expands a stored event (inline: once per event in post_process and in the
 * converter); gtr__v1_pack stores one (GTR_E_NOMEM when the wide table cannot grow).
 * gtr__v1_packed_g, _p and _stk are the event's G, P and stack. */
static inline void gtr__v1_unpack(const gtr__v1_trace *t, const gtr__v1_packed *e,
                                  gtr__v1_event *out)
{
    out->ts = e->ts;
    out->type = gtr__v1_ptype(e);
    out->sys_blocked = (gtr__v1_pflags(e) & GTR_V1_F_SYS_BLOCKED) != 0;
    if (gtr__v1_pwide(e)) {
        const gtr__v1_wide *w = &t->wide[e->a0];
        out->g = w->g;
        out->stk = w->stk;
        out->p = w->p;
        memcpy(out->args, w->args, sizeof out->args);
    } else {
        out->g = e->tfg >> 8;
        out->stk = e->sp & GTR__V1_STK_MAX;
        out->p = gtr__v1_pdecode(e->sp >> 24);
        out->args[0] = e->a0;
        out->args[1] = e->a1;
        out->args[2] = out->args[3] = 0;
    }
}
gtr_status gtr__v1_pack(gtr__v1_trace *t, const gtr__v1_event *e, gtr__v1_packed *out);
static inline uint64_t gtr__v1_packed_g(const gtr__v1_trace *t, const gtr__v1_packed *e)
{
    return gtr__v1_pwide(e) ? t->wide[e->a0].g : e->tfg >> 8;
}
static inline int32_t gtr__v1_packed_p(const gtr__v1_trace *t, const gtr__v1_packed *e)
{
    return gtr__v1_pwide(e) ? t->wide[e->a0].p : gtr__v1_pdecode(e->sp >> 24);
}
static inline uint32_t gtr__v1_packed_stk(const gtr__v1_trace *t, const gtr__v1_packed *e)
{
    return gtr__v1_pwide(e) ? t->wide[e->a0].stk : e->sp & GTR__V1_STK_MAX;
}
/* gtr__v1_pset_p_stk changes the event's P and stack; an event they no longer fit becomes
 * WIDE (GTR_E_NOMEM, nothing changed, when the wide table cannot grow). */
gtr_status gtr__v1_pset_p_stk(gtr__v1_trace *t, gtr__v1_packed *e, int32_t p, uint32_t stk);

/* gtr__v1_unpack_ns is gtr__v1_unpack with the time in nanoseconds (gtr__v1_time): the
 * event as Parse's output holds it. Valid once post_process has set t->min_ts and t->freq. */
static inline void gtr__v1_unpack_ns(const gtr__v1_trace *t, const gtr__v1_packed *e,
                                     gtr__v1_event *out)
{
    gtr__v1_unpack(t, e, out);
    out->ts = gtr__v1_time(t, out->ts);
}

/* A GoSysExit given its real time (Go's last parsing step), for the final stable sort. */
typedef struct gtr__v1_moved {
    gtr__v1_packed ev;   /* with its real time */
    size_t orig;         /* index in the merged stream */
    size_t rank;         /* events not moved before it there */
} gtr__v1_moved;
/* gtr__v1_sort_moved sorts ev[0..n) stably by time (Go's sort.Stable) after the m exits in
 * mv (ascending orig) take their real times: ev holds the stream sorted by the times it was
 * merged by, the exits at their orig indices with their old times. GTR_E_NOMEM (no error
 * text) when its O(m) scratch cannot be had. */
gtr_status gtr__v1_sort_moved(const gtr_alloc *alc, gtr__v1_packed *ev, size_t n,
                              const gtr__v1_moved *mv, size_t m);
/* gtr__v1_event_string appends Go's (*tracev1.Event).String() to b. */
void gtr__v1_event_string(const gtr__v1_event *ev, gtr_buf *b);
/* gtr__v1_stw_reason is Go's (*Trace).STWReason: 0..16 (STWUnknown = 0). */
uint64_t gtr__v1_stw_reason(gtr_go_version ver, uint64_t kind);

/* --- tracev1_order.c (Go's order.go): goroutine state transitions and the frontier heap. --- */
typedef struct gtr__v1_gstate {
    uint64_t seq;
    int status;   /* GTR_V1_G_DEAD, ... */
} gtr__v1_gstate;
enum { GTR_V1_G_DEAD, GTR_V1_G_RUNNABLE, GTR_V1_G_RUNNING, GTR_V1_G_WAITING };
#define GTR_V1_UNORDERED UINT64_MAX
#define GTR_V1_GARBAGE (UINT64_MAX - 1)
#define GTR_V1_NOSEQ UINT64_MAX
#define GTR_V1_SEQINC (UINT64_MAX - 1)

/* gtr__v1_state_transition is stateTransition (it reads ev->type, g and args[0..1] only):
 * the goroutine an event orders on, its state needed for merging (init) and after the
 * event (next). */
uint64_t gtr__v1_state_transition(const gtr__v1_event *ev, gtr__v1_gstate *init,
                                  gtr__v1_gstate *next);
/* gtr__v1_transition_ready is transitionReady. */
bool gtr__v1_transition_ready(uint64_t g, gtr__v1_gstate curr, gtr__v1_gstate init);

/* orderEvent and orderEventList: the frontier holds the time of each ready P's head event
 * and the P (the event itself stays in the P's batch buffer until it is merged). */
typedef struct gtr__v1_order_event {
    int64_t ts;
    size_t proc;
} gtr__v1_order_event;
/* gtr__v1_heap_push / _pop: orderEventList.Push and Pop over h[0..*n) (room for one more
 * on push is the caller's). */
void gtr__v1_heap_push(gtr__v1_order_event *h, size_t *n, const gtr__v1_order_event *x);
gtr__v1_order_event gtr__v1_heap_pop(gtr__v1_order_event *h, size_t *n);
/* The merge's frontier: the heap, and whether Push then Pop would leave it as it is.
 * gtr__v1_frontier_push_pop is Push(x) then Pop(), with the same result and the same heap
 * afterwards. When x is below every element, and no equal timestamp on the path from the
 * new leaf to the root turns one of Pop's choices, Push moves that path down a level and Pop
 * moves it back: x is returned and nothing moves. That test of the path depends on the heap
 * alone, so it is kept (restores) while the heap is unchanged: nearly every step of the
 * merge returns x, and the test is made once for a run of such steps. The other two are
 * gtr__v1_heap_push and _pop on f->h[0..f->n); h has room for one more. */
typedef struct gtr__v1_frontier {
    gtr__v1_order_event *h;
    size_t n;
    bool restores;   /* the path test passed on the heap as it is (a failed test is never
                      * kept: Push then Pop moves the heap right after it) */
} gtr__v1_frontier;
void gtr__v1_frontier_push(gtr__v1_frontier *f, const gtr__v1_order_event *x);
gtr__v1_order_event gtr__v1_frontier_pop(gtr__v1_frontier *f);
/* gtr__v1_frontier_push_pop_moving is the rest of gtr__v1_frontier_push_pop (f->n > 0). */
gtr__v1_order_event gtr__v1_frontier_push_pop_moving(gtr__v1_frontier *f,
                                                     const gtr__v1_order_event *x);
static inline gtr__v1_order_event gtr__v1_frontier_push_pop(gtr__v1_frontier *f,
                                                            const gtr__v1_order_event *x)
{
    if (f->n == 0 || (x->ts < f->h[0].ts && f->restores))
        return *x;
    return gtr__v1_frontier_push_pop_moving(f, x);
}

#endif /* GTR_SRC_TRACEV1_TRACEV1_H */
