/* Port of src/internal/trace/order.go at go1.27.3. */
/* SPDX-License-Identifier: BSD-3-Clause */
/* order.c: the scheduler-ordering state machine.
 *
 * The ordering emulates the Go scheduler's state (goroutines, procs, threads, tasks, the GC)
 * both to validate a trace and to put its events in an order consistent with that state.
 * gtr__ordering_advance tries to advance the machine by one event from one thread: it looks
 * the event's type up in a dispatch table (one row per event type, Go's orderingDispatch),
 * and the row's advance function either refuses (the event cannot happen yet: *ok false, the
 * reader tries another thread), fails (the trace is broken), or updates the state and queues
 * the resulting event(s) in a ring buffer that gtr__ordering_next drains.
 *
 * Go keeps its state in four maps keyed by GoID, ProcID, ThreadID and TaskID. Here they are
 * four ID stores (idmap.h), whose records never move (a state pointer stays valid while
 * other entries are added) and are recycled with their buffers (regions, ranges), so that
 * the steady state allocates nothing. Region and task names outlive their table, as Go's
 * strings do: the ordering interns them (strpool.h), each text copied once.
 *
 * Where Go iterates a map (dumpOrdering, the search for a proc's thread), the order is random
 * in Go; here it is ascending ID order. */
#include "order.h"
#include "strpool.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "idmap.h"
#include "mem.h"

/* ------------------------------------------------------------------------------------------ */
/* State. */

/* seqCounter: a sequence number local to a generation. */
typedef struct seq_counter {
    uint64_t gen;
    uint64_t seq;
} seq_counter;

static seq_counter make_seq(uint64_t gen, uint64_t seq)
{
    seq_counter c = {gen, seq};
    return c;
}

/* succeeds: a is the immediate successor of b. */
static bool seq_succeeds(seq_counter a, seq_counter b)
{
    return a.gen == b.gen && a.seq == b.seq + 1;
}

/* rangeType: the "Begin" event type of a special time range and its optional subtype. */
typedef struct range_type {
    uint8_t typ;
    uint64_t desc;
} range_type;

typedef struct range_state {
    range_type *in_flight;
    size_t n, cap;
} range_state;

/* userRegion: the task and name of an active region. The name is text[0, len), the
 * ordering's interned copy (names): equal names are one pointer. It was string name_id of
 * the table of epoch `epoch` (gtr__ordering.epoch): an end naming the same string of the
 * same table has the same name without a lookup. */
typedef struct user_region {
    gtr_taskid task;
    const char *text;
    size_t len;
    uint64_t epoch, name_id;
} user_region;

typedef struct gstate {
    gtr_goid id;
    uint8_t status; /* gtr_go_status */
    seq_counter seq;
    user_region *regions;
    size_t nregions, regions_cap;
    range_state ranges;
} gstate;

typedef struct pstate {
    gtr_procid id;
    uint8_t status; /* gtr_proc_status */
    seq_counter seq;
    range_state ranges;
} pstate;

typedef struct mstate {
    gtr_goid g;
    gtr_procid p;
} mstate;

typedef struct task_state {
    gtr_taskid parent_id;
    /* The name: text[0, name_len), interned as a region's (user_region). */
    const char *text;
    size_t name_len;
    /* The epoch of the table the name came from, and its string ID there: an End with the
     * same table finds the extra string by ID (gtr__evt_extra_of_string). */
    uint64_t name_epoch, name_id;
} task_state;

static void gstate_fini(const gtr_alloc *alc, void *p)
{
    gstate *s = p;
    gtr__free(alc, s->regions);
    gtr__free(alc, s->ranges.in_flight);
}

static void pstate_fini(const gtr_alloc *alc, void *p)
{
    pstate *s = p;
    gtr__free(alc, s->ranges.in_flight);
}

enum gc_state { GC_UNDETERMINED = 0, GC_NOT_RUNNING = 1, GC_RUNNING = 2 };

/* A growable buffer of events (Go's queue[Event]): the queued events are [head, end) of
 * [buf, limit). Events are queued only with none taken since the queue was last empty (Go's
 * ReadEvent advances only when its queue is empty), and a pop that finds the queue empty
 * starts it over at buf: so a push is a store at end and a pop a load at head, with no ring
 * arithmetic. buf is never NULL (the ordering is made with one). */
typedef struct event_queue {
    gtr_event *buf, *head, *end, *limit;
} event_queue;

/* The string IDs whose interned name the ordering remembers (a direct-mapped cache). */
#define NAME_CACHE 64

/* The capacity of a new ordering's queue. */
#define QUEUE_FIRST_CAP 8

struct gtr__ordering {
    const gtr_alloc *alc;
    uint64_t trace_ver;
    gtr__idstore g_states; /* GoID -> gstate */
    gtr__idstore p_states; /* ProcID -> pstate */
    gtr__idstore m_states; /* ThreadID -> mstate */
    gtr__idstore active_tasks; /* TaskID -> task_state */
    /* The dense index of the table being ordered, for the handlers' string lookups. */
    gtr__evt_id_index idx;
    /* The generation being ordered and its table (gtr__ordering_begin_generation), each one
     * an epoch: a string ID read in one epoch names one text. Epoch 0: none. */
    gtr__ev_table *evt;
    uint64_t gen;
    uint64_t epoch;
    /* The last task name an End smuggled from its own table: string string_id of the table
     * of epoch `epoch` is extra string extra_id there (gtr__evt_extra_of_string). */
    struct {
        uint64_t epoch, string_id, extra_id;
    } task_name;
    /* The names of active regions and tasks, each text copied once: they outlive the table
     * they came from, as Go's strings do. name_cache remembers the copy of recent string
     * IDs, by ID, so that a name met again costs no lookup. */
    gtr__strpool names;
    struct {
        uint64_t epoch, id;
        const char *text;
    } name_cache[NAME_CACHE];
    uint64_t gc_seq;
    uint8_t gc_state;
    uint64_t initial_gen;
    uint8_t failed_type;  /* the wire type of the event an advance failed on with an error
                           * (gtr__ordering_summary_of); 0: none */
    event_queue queue;
    gtr_event *last_from; /* the first event the last advance queued (the queue's end if none) */
};

/* The most events one advance queues (GoSwitch: the switch, a GoBlock/GoDestroy, a GoStart). */
#define MAX_QUEUED_PER_ADVANCE 3

/* queue_grow makes room for n more events after end: what is queued moves to the start of
 * the buffer (no queue does in Go's order of calls, but one could), and the buffer grows
 * when that is not room enough. Not zeroed: a slot is written whole before it is read. */
static GTR__NOINLINE bool queue_grow(gtr__ordering *o, size_t n)
{
    event_queue *q = &o->queue;
    size_t len = (size_t)(q->end - q->head), cap = (size_t)(q->limit - q->buf);
    memmove(q->buf, q->head, len * sizeof *q->buf);
    bool grown = GTR__GROW(o->alc, q->buf, cap, len + n); /* on failure buf and cap stay */
    q->head = q->buf;
    q->end = q->buf + len;
    q->limit = q->buf + cap;
    return grown;
}

/* queue_reserve makes room for n more events. */
static GTR__ALWAYS_INLINE bool queue_reserve(gtr__ordering *o, size_t n)
{
    event_queue *q = &o->queue;
    return (size_t)(q->limit - q->end) >= n || queue_grow(o, n);
}

/* queue_slot returns the next free slot of the queue, now counted in; it never fails:
 * gtr__ordering_advance reserved room first. */
static gtr_event *queue_slot(gtr__ordering *o)
{
    event_queue *q = &o->queue;
    assert(q->end < q->limit);
    return q->end++;
}

/* ------------------------------------------------------------------------------------------ */
/* Names and formatting of Go values. */

/* tracev2.GoStatus.String */
const char *gtr__go_status_string(uint8_t s)
{
    switch (s) {
    case GTR_GSTATUS_RUNNABLE: return "Runnable";
    case GTR_GSTATUS_RUNNING: return "Running";
    case GTR_GSTATUS_SYSCALL: return "Syscall";
    case GTR_GSTATUS_WAITING: return "Waiting";
    default: return "Bad";
    }
}

/* tracev2.ProcStatus.String */
const char *gtr__proc_status_string(uint8_t s)
{
    switch (s) {
    case GTR_PSTATUS_RUNNING: return "Running";
    case GTR_PSTATUS_IDLE: return "Idle";
    case GTR_PSTATUS_SYSCALL: return "Syscall";
    case GTR_PSTATUS_SYSCALL_ABANDONED: return "SyscallAbandoned";
    default: return "Bad";
    }
}

/* gcState.String */
static const char *gc_state_string(uint8_t s)
{
    switch (s) {
    case GC_UNDETERMINED: return "Undetermined";
    case GC_NOT_RUNNING: return "NotRunning";
    case GC_RUNNING: return "Running";
    default: return "Bad";
    }
}

/* tracev2.Specs()[t].Name: "" for a type without a spec. */
static const char *spec_name(uint8_t t)
{
    const char *n = gtr_spec(t)->name;
    return n != NULL ? n : "";
}

/* o.evName(t): Version.EventName. */
typedef struct ev_name_buf {
    char s[48];
} ev_name_buf;

static const char *ev_name(const gtr__ordering *o, uint8_t t, ev_name_buf *b)
{
    return gtr_go_version_event_name(o->trace_ver, t, b->s, sizeof b->s);
}

/* seqCounter.String: "%d (gen=%d)". */
typedef struct seq_buf {
    char s[64];
} seq_buf;

static const char *seq_string(seq_counter c, seq_buf *b)
{
    snprintf(b->s, sizeof b->s, "%" PRIu64 " (gen=%" PRIu64 ")", c.seq, c.gen);
    return b->s;
}

/* tracev2GoStatus2GoState and tracev2ProcStatus2ProcState (base.h). */
const uint8_t gtr__gostatus2state[5] = {
    [GTR_GSTATUS_BAD] = GTR_GO_UNDETERMINED,
    [GTR_GSTATUS_RUNNABLE] = GTR_GO_RUNNABLE,
    [GTR_GSTATUS_RUNNING] = GTR_GO_RUNNING,
    [GTR_GSTATUS_SYSCALL] = GTR_GO_SYSCALL,
    [GTR_GSTATUS_WAITING] = GTR_GO_WAITING,
};

const uint8_t gtr__procstatus2state[5] = {
    [GTR_PSTATUS_BAD] = GTR_PROC_UNDETERMINED,
    [GTR_PSTATUS_RUNNING] = GTR_PROC_RUNNING,
    [GTR_PSTATUS_IDLE] = GTR_PROC_IDLE,
    [GTR_PSTATUS_SYSCALL] = GTR_PROC_RUNNING,
    [GTR_PSTATUS_SYSCALL_ABANDONED] = GTR_PROC_IDLE,
};

static gtr_status nomem(gtr_err *err)
{
    return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
}

/* baseEvent.extra(version.Go122): the args past the spec's, where the ordering smuggles data
 * to the event accessors. Only used for types whose spec leaves room. */
static uint64_t *ev_extra(gtr__base_event *ev)
{
    uint8_t nargs = gtr_spec(ev->type)->nargs;
    assert(nargs >= 1 && nargs <= GTR_MAX_TIMED_EVENT_ARGS);
    return &ev->args[nargs - 1];
}

/* ------------------------------------------------------------------------------------------ */
/* Scheduling context and its requirements. */

/* schedCtx: the resources associated with an event. */
typedef struct sched_ctx {
    gtr_goid g;
    gtr_procid p;
    gtr_threadid m;
} sched_ctx;

enum constraint {
    MUST_NOT_HAVE = GTR__MUST_NOT_HAVE,
    MAY_HAVE = GTR__MAY_HAVE,
    MUST_HAVE = GTR__MUST_HAVE
};

typedef struct sched_reqs {
    uint8_t m, p, g;
} sched_reqs;

/* userGoReqs: events that are running or close to running user code. */
static const sched_reqs user_go_reqs = {MUST_HAVE, MUST_HAVE, MUST_HAVE};

/* validate_ctx_fail is validateCtx's failure: the message of the first requirement not met
 * (Go's six messages, verbatim). It takes bytes and bits rather than the structs, so that the
 * inlined checks build no struct on their common path. */
static GTR__NOINLINE gtr_status validate_ctx_fail(uint8_t req_m, uint8_t req_p, uint8_t req_g,
                                                  unsigned have, gtr_err *err)
{
    bool has_m = have & 1, has_p = have & 2, has_g = have & 4;
    if (req_m == MUST_HAVE && !has_m)
        return gtr_err_setf(err, GTR_E_ORDER, "expected a thread but didn't have one");
    else if (req_m == MUST_NOT_HAVE && has_m)
        return gtr_err_setf(err, GTR_E_ORDER, "expected no thread but had one");

    if (req_p == MUST_HAVE && !has_p)
        return gtr_err_setf(err, GTR_E_ORDER, "expected a proc but didn't have one");
    else if (req_p == MUST_NOT_HAVE && has_p)
        return gtr_err_setf(err, GTR_E_ORDER, "expected no proc but had one");

    if (req_g == MUST_HAVE && !has_g)
        return gtr_err_setf(err, GTR_E_ORDER, "expected a goroutine but didn't have one");
    else if (req_g == MUST_NOT_HAVE && has_g)
        return gtr_err_setf(err, GTR_E_ORDER, "expected no goroutine but had one");
    return GTR_OK;
}

/* has_ok is whether a resource's presence meets the requirement req. */
static GTR__ALWAYS_INLINE bool has_ok(uint8_t req, bool present)
{
    return req == MUST_HAVE ? present : req == MUST_NOT_HAVE ? !present : true;
}

/* validateCtx checks that ctx conforms to reqs (inline: the advance functions' reqs are
 * constants, so the check folds to a few compares). */
static GTR__ALWAYS_INLINE gtr_status validate_ctx(sched_ctx ctx, sched_reqs reqs, gtr_err *err)
{
    bool has_m = ctx.m != GTR_NO_THREAD, has_p = ctx.p != GTR_NO_PROC,
         has_g = ctx.g != GTR_NO_GOROUTINE;
    if (has_ok(reqs.m, has_m) && has_ok(reqs.p, has_p) && has_ok(reqs.g, has_g))
        return GTR_OK;
    return validate_ctx_fail(reqs.m, reqs.p, reqs.g,
                             (unsigned)has_m | (unsigned)has_p << 1 | (unsigned)has_g << 2, err);
}

gtr_status gtr__ordering_validate_ctx(gtr_goid g, gtr_procid p, gtr_threadid m, int req_m,
                                      int req_p, int req_g, gtr_err *err)
{
    sched_ctx ctx = {g, p, m};
    sched_reqs r = {(uint8_t)req_m, (uint8_t)req_p, (uint8_t)req_g};
    return validate_ctx(ctx, r, err);
}

#define VALIDATE(ctx, reqs)                                 \
    do {                                                    \
        gtr_status vst_ = validate_ctx((ctx), (reqs), err); \
        if (vst_ != GTR_OK)                                 \
            return vst_;                                    \
    } while (0)

static sched_reqs reqs(uint8_t m, uint8_t p, uint8_t g)
{
    sched_reqs r = {m, p, g};
    return r;
}

/* ------------------------------------------------------------------------------------------ */
/* Ranges. */

/* makeRangeType: ranges are named by their "Begin" event. */
static range_type make_range_type(uint8_t typ, uint64_t desc)
{
    uint8_t st = gtr_spec(typ)->start_ev;
    range_type r = {st != GTR_EV_NONE ? st : typ, desc};
    return r;
}

static bool has_range(const range_state *s, range_type t)
{
    for (size_t i = 0; i < s->n; i++) {
        if (s->in_flight[i].typ == t.typ && s->in_flight[i].desc == t.desc)
            return true;
    }
    return false;
}

static gtr_status push_range(const gtr_alloc *alc, range_state *s, range_type t, gtr_err *err)
{
    if (!GTR__GROW(alc, s->in_flight, s->cap, s->n + 1))
        return nomem(err);
    s->in_flight[s->n++] = t;
    return GTR_OK;
}

/* beginRange begins a special range in time on the resource. */
static gtr_status begin_range(const gtr_alloc *alc, range_state *s, range_type t, gtr_err *err)
{
    if (has_range(s, t))
        /* "discovered event already in-flight for when starting event %v" */
        return gtr_err_setf(err, GTR_E_ORDER,
                            "discovered event already in-flight for when starting event %s",
                            spec_name(t.typ));
    return push_range(alc, s, t, err);
}

/* activeRange marks a range active in the initial generation, or confirms that it is in
 * later ones. */
static gtr_status active_range(const gtr_alloc *alc, range_state *s, range_type t,
                               bool is_initial_gen, gtr_err *err)
{
    if (is_initial_gen) {
        if (has_range(s, t))
            /* "found named active range already in first gen: %v" (a rangeType: {typ desc}) */
            return gtr_err_setf(err, GTR_E_ORDER,
                                "found named active range already in first gen: {%u %" PRIu64
                                "}",
                                (unsigned)t.typ, t.desc);
        return push_range(alc, s, t, err);
    }
    if (!has_range(s, t)) {
        /* "resource is missing active range: %v %v", the second a []rangeType: "[{typ desc}
         * {typ desc}]", appended range by range (the error's text has no length bound). */
        gtr_err_setf(err, GTR_E_ORDER, "resource is missing active range: %s [",
                     spec_name(t.typ));
        for (size_t i = 0; i < s->n; i++) {
            char r[48];
            int n = snprintf(r, sizeof r, "%s{%u %" PRIu64 "}", i > 0 ? " " : "",
                             (unsigned)s->in_flight[i].typ, s->in_flight[i].desc);
            gtr_err_appendn(err, r, (size_t)n);
        }
        return gtr_err_appendn(err, "]", 1);
    }
    return GTR_OK;
}

/* endRange ends the range started by typ's "Begin" event, returning its subtype. */
static gtr_status end_range(range_state *s, uint8_t typ, uint64_t *desc, gtr_err *err)
{
    uint8_t st = gtr_spec(typ)->start_ev;
    size_t idx = s->n;
    for (size_t i = 0; i < s->n; i++) {
        if (s->in_flight[i].typ == st) {
            idx = i;
            break;
        }
    }
    if (idx == s->n)
        /* "tried to end event %v, but not in-flight" */
        return gtr_err_setf(err, GTR_E_ORDER, "tried to end event %s, but not in-flight",
                            spec_name(st));
    *desc = s->in_flight[idx].desc;
    /* Swap remove. */
    s->in_flight[idx] = s->in_flight[s->n - 1];
    s->n--;
    return GTR_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* State constructors. */

static gtr_status new_gstate(gtr__ordering *o, gtr_goid id, uint8_t status, seq_counter seq,
                             gtr_err *err)
{
    gstate *s = gtr__idstore_insert(&o->g_states, (uint64_t)id);
    if (s == NULL)
        return nomem(err);
    s->id = id;
    s->status = status;
    s->seq = seq;
    s->nregions = 0;
    s->ranges.n = 0;
    return GTR_OK;
}

static gtr_status new_mstate(gtr__ordering *o, gtr_threadid id, gtr_goid g, gtr_procid p,
                             mstate **out, gtr_err *err)
{
    mstate *ms = gtr__idstore_insert(&o->m_states, (uint64_t)id);
    if (ms == NULL)
        return nomem(err);
    ms->g = g;
    ms->p = p;
    if (out != NULL)
        *out = ms;
    return GTR_OK;
}

static GTR__ALWAYS_INLINE void push_event(gtr__ordering *o, const gtr__ev_table *evt,
                                          sched_ctx ctx, const gtr__base_event *ev)
{
    /* Built in its slot: the event is copied once here and once out. */
    gtr_event *e = queue_slot(o);
    e->table_ = evt;
    e->g_ = ctx.g;
    e->p_ = ctx.p;
    e->m_ = ctx.m;
    e->type_ = ev->type;
    e->time_ = ev->time;
    memcpy(e->args_, ev->args, sizeof e->args_);
}

/* makeEvent: queues a synthesized event with up to two args, and returns it. */
static gtr_event *push_made(gtr__ordering *o, const gtr__ev_table *evt, sched_ctx ctx,
                            uint8_t typ, gtr_time time, uint64_t a0, uint64_t a1)
{
    gtr_event *e = queue_slot(o);
    *e = gtr__make_event(evt, ctx.g, ctx.p, ctx.m, typ, time);
    e->args_[0] = a0;
    e->args_[1] = a1;
    return e;
}

/* ------------------------------------------------------------------------------------------ */
/* Advance functions: Go's (o *ordering) advanceX(ev, evt, m, gen, curCtx) (schedCtx, bool,
 * error). Each returns GTR_OK with out->ok false when the event cannot advance yet, GTR_OK
 * through advanced() when it did, or an error. */

/* What an advance function is given: the event, its generation's table, the thread it
 * happened on, the generation, and the thread's current context. */
typedef struct advance_in {
    gtr__base_event *ev;
    gtr__ev_table *evt;
    gtr_threadid m;
    uint64_t gen;
    sched_ctx cur;
} advance_in;

/* What it hands back: whether the event advanced. The new context goes straight into ms, the
 * state of the event's M (NULL: none), not back through a sched_ctx for the caller to copy
 * (bench/README.md says why). */
typedef struct advance_out {
    mstate *ms;
    bool ok;
} advance_out;

typedef gtr_status (*advance_fn)(gtr__ordering *o, const advance_in *in, advance_out *out,
                                 gtr_err *err);

/* advanced ends an advance function that advanced, with next the thread's new context. */
static GTR__ALWAYS_INLINE gtr_status advanced(advance_out *out, sched_ctx next)
{
    if (out->ms != NULL) {
        out->ms->p = next.p;
        out->ms->g = next.g;
    }
    out->ok = true;
    return GTR_OK;
}

/* push_advanced queues the event in the thread's current context and ends the advance
 * function as advanced: Go's "o.queue.push(Event{table: evt, ctx: curCtx, base: *ev});
 * return newCtx, true, nil". */
static GTR__ALWAYS_INLINE gtr_status push_advanced(gtr__ordering *o, const advance_in *in,
                                                   advance_out *out, sched_ctx next)
{
    push_event(o, in->evt, in->cur, in->ev);
    return advanced(out, next);
}

static gtr_status advance_proc_status(gtr__ordering *o, const advance_in *in,
                                      advance_out *out, gtr_err *err)
{
    /* The context the event is shown in, which this function may change. */
    sched_ctx cur = in->cur;
    gtr_procid pid = (gtr_procid)in->ev->args[0];
    uint8_t status = (uint8_t)in->ev->args[1];
    if (status >= sizeof gtr__procstatus2state)
        /* "invalid status for proc %d: %d" */
        return gtr_err_setf(err, GTR_E_ORDER, "invalid status for proc %" PRId64 ": %u", pid,
                            (unsigned)status);
    uint8_t old_state = gtr__procstatus2state[status];
    pstate *s = gtr__idstore_get(&o->p_states, (uint64_t)pid);
    if (s != NULL) {
        if (status == GTR_PSTATUS_SYSCALL_ABANDONED && s->status == GTR_PSTATUS_SYSCALL) {
            /* ProcSyscallAbandoned is a special case of ProcSyscall: it indicates a potential
             * loss of information, but in ProcSyscall we have not lost it. Promote. */
            old_state = GTR_PROC_RUNNING;
            in->ev->args[1] = GTR_PSTATUS_SYSCALL;
        } else if (status == GTR_PSTATUS_SYSCALL_ABANDONED &&
                   s->status == GTR_PSTATUS_SYSCALL_ABANDONED) {
            /* Passing through ProcSyscallAbandoned: the M is lost; it appears idle. */
            old_state = GTR_PROC_IDLE;
            in->ev->args[1] = GTR_PSTATUS_SYSCALL_ABANDONED;
        } else if (s->status != status) {
            /* "inconsistent status for proc %d: old %v vs. new %v" */
            return gtr_err_setf(err, GTR_E_ORDER,
                                "inconsistent status for proc %" PRId64 ": old %s vs. new %s",
                                pid, gtr__proc_status_string(s->status),
                                gtr__proc_status_string(status));
        }
        s->seq = make_seq(in->gen, 0); /* Reset seq. */
    } else {
        if ((s = gtr__idstore_insert(&o->p_states, (uint64_t)pid)) == NULL)
            return nomem(err);
        s->id = pid;
        s->status = status;
        s->seq = make_seq(in->gen, 0);
        s->ranges.n = 0;
        old_state = in->gen == o->initial_gen ? GTR_PROC_UNDETERMINED : GTR_PROC_NOT_EXIST;
    }
    ev_extra(in->ev)[0] = old_state; /* Smuggle in the old state for StateTransition. */

    /* Bind the proc to the new context, if it's running. */
    sched_ctx nc = cur;
    if (status == GTR_PSTATUS_RUNNING || status == GTR_PSTATUS_SYSCALL)
        nc.p = pid;
    /* Advancing through ProcSyscallAbandoned promoted to ProcSyscall (Running -> Running):
     * the P is about to be stolen and its status was likely emitted by another thread than
     * the one it is bound to. Emit the event in the context it is bound to. Go takes any
     * matching thread (map order); here the highest thread ID wins. */
    if (status == GTR_PSTATUS_SYSCALL_ABANDONED && old_state == GTR_PROC_RUNNING) {
        bool found = false;
        size_t pos = 0;
        uint64_t mid;
        void *v;
        while (gtr__idstore_next(&o->m_states, &pos, &mid, &v)) {
            const mstate *ms = v;
            if (ms->p == pid && (!found || (gtr_threadid)mid > cur.m)) {
                cur.m = (gtr_threadid)mid;
                cur.p = pid;
                cur.g = ms->g;
                found = true;
            }
        }
        if (!found)
            /* "failed to find sched context for proc %d that's about to be stolen" */
            return gtr_err_setf(err, GTR_E_ORDER,
                                "failed to find sched context for proc %" PRId64
                                " that's about to be stolen",
                                pid);
    }
    push_event(o, in->evt, cur, in->ev);
    return advanced(out, nc);
}

static GTR__ALWAYS_INLINE gtr_status advance_proc_start(gtr__ordering *o, const advance_in *in,
                                                        advance_out *out, gtr_err *err)
{
    gtr_procid pid = (gtr_procid)in->ev->args[0];
    seq_counter seq = make_seq(in->gen, in->ev->args[1]);
    /* We might fail here due to sequencing, because the P hasn't had a status emitted, or
     * because we already have a P and we're in a syscall and haven't observed that it was
     * stolen from us yet. None of these is an error yet. */
    pstate *state = gtr__idstore_get(&o->p_states, (uint64_t)pid);
    if (state == NULL || state->status != GTR_PSTATUS_IDLE || !seq_succeeds(seq, state->seq) ||
        in->cur.p != GTR_NO_PROC)
        return GTR_OK;
    /* We might have a goroutine if a goroutine is exiting a syscall. */
    VALIDATE(in->cur, reqs(MUST_HAVE, MUST_NOT_HAVE, MAY_HAVE));
    state->status = GTR_PSTATUS_RUNNING;
    state->seq = seq;
    sched_ctx nc = in->cur;
    nc.p = pid;
    return push_advanced(o, in, out, nc);
}

static GTR__ALWAYS_INLINE gtr_status advance_proc_stop(gtr__ordering *o, const advance_in *in,
                                                       advance_out *out, gtr_err *err)
{
    /* A P stopped by the M that started it (ProcSteal covers stops from a distance); since a
     * P is bound to its M this must always be possible, hence no sequence number. */
    ev_name_buf nb;
    pstate *state = gtr__idstore_get(&o->p_states, (uint64_t)in->cur.p);
    if (state == NULL)
        /* "event %s for proc (%v) that doesn't exist" */
        return gtr_err_setf(err, GTR_E_ORDER, "event %s for proc (%" PRId64 ") that doesn't exist",
                            ev_name(o, in->ev->type, &nb), in->cur.p);
    if (state->status != GTR_PSTATUS_RUNNING && state->status != GTR_PSTATUS_SYSCALL)
        return gtr_err_setf(err, GTR_E_ORDER, "%s event for proc that's not %s or %s",
                            ev_name(o, in->ev->type, &nb),
                            gtr__proc_status_string(GTR_PSTATUS_RUNNING),
                            gtr__proc_status_string(GTR_PSTATUS_SYSCALL));
    VALIDATE(in->cur, reqs(MUST_HAVE, MUST_HAVE, MAY_HAVE));
    state->status = GTR_PSTATUS_IDLE;
    sched_ctx nc = in->cur;
    nc.p = GTR_NO_PROC;
    return push_advanced(o, in, out, nc);
}

static gtr_status advance_proc_steal(gtr__ordering *o, const advance_in *in,
                                     advance_out *out, gtr_err *err)
{
    gtr_procid pid = (gtr_procid)in->ev->args[0];
    seq_counter seq = make_seq(in->gen, in->ev->args[1]);
    pstate *state = gtr__idstore_get(&o->p_states, (uint64_t)pid);
    if (state == NULL ||
        (state->status != GTR_PSTATUS_SYSCALL &&
         state->status != GTR_PSTATUS_SYSCALL_ABANDONED) ||
        !seq_succeeds(seq, state->seq))
        return GTR_OK;
    VALIDATE(in->cur, reqs(MUST_HAVE, MAY_HAVE, MAY_HAVE));
    /* Smuggle in the P state that let us advance, so that the event reads as Idle -> Idle
     * rather than Running -> Idle: ProcRunning is binding, and this M may already have a P. */
    uint8_t old_status = state->status;
    ev_extra(in->ev)[0] = old_status;

    state->status = GTR_PSTATUS_IDLE;
    state->seq = seq;

    /* If we've lost information, don't try to do anything with the M: it may have moved on. */
    if (old_status == GTR_PSTATUS_SYSCALL_ABANDONED) {
        return push_advanced(o, in, out, in->cur);
    }

    gtr_threadid mid = (gtr_threadid)in->ev->args[2]; /* The M we're stealing from. */
    sched_ctx nc = in->cur;
    if (mid == in->cur.m) {
        /* Stealing from ourselves behaves like a ProcStop. */
        if (in->cur.p != pid)
            /* "tried to self-steal proc %d (thread %d), but got proc %d instead" */
            return gtr_err_setf(err, GTR_E_ORDER,
                                "tried to self-steal proc %" PRId64 " (thread %" PRId64
                                "), but got proc %" PRId64 " instead",
                                pid, mid, in->cur.p);
        nc.p = GTR_NO_PROC;
        return push_advanced(o, in, out, nc);
    }

    mstate *ms = gtr__idstore_get(&o->m_states, (uint64_t)mid);
    if (ms == NULL)
        /* "stole proc from non-existent thread %d" */
        return gtr_err_setf(err, GTR_E_ORDER, "stole proc from non-existent thread %" PRId64,
                            mid);
    if (ms->p != pid)
        /* "tried to steal proc %d from thread %d, but got proc %d instead" */
        return gtr_err_setf(err, GTR_E_ORDER,
                            "tried to steal proc %" PRId64 " from thread %" PRId64
                            ", but got proc %" PRId64 " instead",
                            pid, mid, ms->p);
    /* Tell the M it has no P so it can proceed: the P was in a syscall and the other M must be
     * trying to get out of it; GoSyscallEndBlocked cannot advance until that M loses its P. */
    ms->p = GTR_NO_PROC;
    return push_advanced(o, in, out, nc);
}

static gtr_status advance_go_status(gtr__ordering *o, const advance_in *in,
                                    advance_out *out, gtr_err *err)
{
    /* The context the event is shown in, which this function may change. */
    sched_ctx cur = in->cur;
    gtr_goid gid = (gtr_goid)in->ev->args[0];
    gtr_threadid mid = (gtr_threadid)in->ev->args[1];
    uint8_t status = (uint8_t)in->ev->args[2];
    gtr_status st;

    if (status >= sizeof gtr__gostatus2state)
        /* "invalid status for goroutine %d: %d" */
        return gtr_err_setf(err, GTR_E_ORDER, "invalid status for goroutine %" PRId64 ": %u",
                            gid, (unsigned)status);
    uint8_t old_state = gtr__gostatus2state[status];
    gstate *s = gtr__idstore_get(&o->g_states, (uint64_t)gid);
    if (s != NULL) {
        if (s->status != status)
            /* "inconsistent status for goroutine %d: old %v vs. new %v" */
            return gtr_err_setf(err, GTR_E_ORDER,
                                "inconsistent status for goroutine %" PRId64
                                ": old %s vs. new %s",
                                gid, gtr__go_status_string(s->status),
                                gtr__go_status_string(status));
        s->seq = make_seq(in->gen, 0); /* Reset seq. */
    } else if (in->gen == o->initial_gen) {
        if ((st = new_gstate(o, gid, status, make_seq(in->gen, 0), err)) != GTR_OK)
            return st;
        old_state = GTR_GO_UNDETERMINED;
    } else {
        /* "found goroutine status for new goroutine after the first generation: id=%v
         * status=%v" */
        return gtr_err_setf(err, GTR_E_ORDER,
                            "found goroutine status for new goroutine after the first "
                            "generation: id=%" PRId64 " status=%s",
                            gid, gtr__go_status_string(status));
    }
    /* Smuggle in the old state for StateTransition. */
    in->ev->args[2] = (uint64_t)old_state << 32 | (uint64_t)status;

    sched_ctx nc = cur;
    switch (status) {
    case GTR_GSTATUS_RUNNING:
        /* Bind the goroutine to the new context, since it's running. */
        nc.g = gid;
        break;
    case GTR_GSTATUS_SYSCALL: {
        if (mid == GTR_NO_THREAD)
            /* "found goroutine %d in syscall without a thread" */
            return gtr_err_setf(err, GTR_E_ORDER,
                                "found goroutine %" PRId64 " in syscall without a thread", gid);
        /* A syscall on this thread binds the goroutine to the context. */
        if (mid == cur.m) {
            if (in->gen != o->initial_gen && cur.g != gid)
                /* After the first generation the binding must already have been seen.
                 * "inconsistent thread for syscalling goroutine %d: thread has goroutine %d" */
                return gtr_err_setf(err, GTR_E_ORDER,
                                    "inconsistent thread for syscalling goroutine %" PRId64
                                    ": thread has goroutine %" PRId64,
                                    gid, cur.g);
            nc.g = gid;
            break;
        }
        /* A thread and goroutine blocked in a syscall for the whole generation: this case has
         * no P (all Ps are taken back from their threads at a generation's start). */
        mstate *ms = gtr__idstore_get(&o->m_states, (uint64_t)mid);
        if (ms != NULL) {
            /* Seen M: we must have seen this goroutine enter a syscall on it. */
            if (ms->g != gid)
                /* "inconsistent thread for syscalling goroutine %d: thread has goroutine %d" */
                return gtr_err_setf(err, GTR_E_ORDER,
                                    "inconsistent thread for syscalling goroutine %" PRId64
                                    ": thread has goroutine %" PRId64,
                                    gid, ms->g);
            /* A Syscall -> Syscall event, shown with the G bound to this M. */
            cur.g = ms->g;
        } else {
            /* Unseen M: the goroutine has been sitting in a syscall on it. This event is the
             * binding event, so cur (the "before" state) keeps no G. */
            if ((st = new_mstate(o, mid, gid, GTR_NO_PROC, NULL, err)) != GTR_OK)
                return st;
        }
        /* The event is about that M. */
        cur.m = mid;
        break;
    }
    default:
        break;
    }
    push_event(o, in->evt, cur, in->ev);
    return advanced(out, nc);
}

static gtr_status advance_go_create(gtr__ordering *o, const advance_in *in,
                                    advance_out *out, gtr_err *err)
{
    ev_name_buf nb;
    gtr_status st;
    /* Goroutines are created on a running P, by a goroutine or not. */
    VALIDATE(in->cur, reqs(MUST_HAVE, MUST_HAVE, MAY_HAVE));
    /* If we have a goroutine, it must be running. */
    gstate *state = gtr__idstore_get(&o->g_states, (uint64_t)in->cur.g);
    if (state != NULL && state->status != GTR_GSTATUS_RUNNING)
        return gtr_err_setf(err, GTR_E_ORDER, "%s event for goroutine that's not %s",
                            ev_name(o, in->ev->type, &nb), "Running");
    gtr_goid newgid = (gtr_goid)in->ev->args[0];
    if (gtr__idstore_get(&o->g_states, (uint64_t)newgid) != NULL)
        /* "tried to create goroutine (%v) that already exists" */
        return gtr_err_setf(err, GTR_E_ORDER,
                            "tried to create goroutine (%" PRId64 ") that already exists",
                            newgid);
    uint8_t status = in->ev->type == GTR_EV_GO_CREATE_BLOCKED ? GTR_GSTATUS_WAITING
                                                          : GTR_GSTATUS_RUNNABLE;
    if ((st = new_gstate(o, newgid, status, make_seq(in->gen, 0), err)) != GTR_OK)
        return st;
    return push_advanced(o, in, out, in->cur);
}

/* current_goroutine is the shared precondition of goroutine events on the running
 * goroutine: it exists and has status want. GTR_GSTATUS_RUNNING for GoDestroy, GoStop,
 * GoBlock, GoSwitch and GoSyscallBegin; GTR_GSTATUS_SYSCALL for GoDestroySyscall,
 * GoSyscallEnd and GoSyscallEndBlocked, the last two of whose messages still say "Running"
 * (GoRunning), as Go's do. */
static GTR__NOINLINE gtr_status current_goroutine_fail(gtr__ordering *o,
                                                     const gtr__base_event *ev, sched_ctx cur,
                                                     const gstate *state, gtr_err *err)
{
    ev_name_buf nb;
    if (state == NULL)
        /* "event %s for goroutine (%v) that doesn't exist" */
        return gtr_err_setf(err, GTR_E_ORDER,
                            "event %s for goroutine (%" PRId64 ") that doesn't exist",
                            ev_name(o, ev->type, &nb), cur.g);
    /* The status is not the one wanted: "%s event for goroutine that's not %s" (GoRunning),
     * or for GoDestroySyscall "... not %v" (GoSyscall). */
    return gtr_err_setf(err, GTR_E_ORDER, "%s event for goroutine that's not %s",
                        ev_name(o, ev->type, &nb),
                        ev->type == GTR_EV_GO_DESTROY_SYSCALL ? "Syscall" : "Running");
}

static GTR__ALWAYS_INLINE gtr_status current_goroutine(gtr__ordering *o,
                                                      const gtr__base_event *ev, sched_ctx cur,
                                                      uint8_t want, gstate **out, gtr_err *err)
{
    gstate *state = gtr__idstore_get(&o->g_states, (uint64_t)cur.g);
    if (state == NULL || state->status != want)
        return current_goroutine_fail(o, ev, cur, state, err);
    *out = state;
    return GTR_OK;
}

static GTR__ALWAYS_INLINE gtr_status advance_go_stop_exec(gtr__ordering *o, const advance_in *in,
                                                          advance_out *out, gtr_err *err)
{
    gtr_status st;
    /* Goroutine events that need an active running goroutine. They are always advanceable,
     * since running goroutines are bound to their M. */
    VALIDATE(in->cur, user_go_reqs);
    gstate *state = NULL;
    if ((st = current_goroutine(o, in->ev, in->cur, GTR_GSTATUS_RUNNING, &state, err)) != GTR_OK)
        return st;
    sched_ctx nc = in->cur;
    switch (in->ev->type) {
    case GTR_EV_GO_DESTROY:
        /* This goroutine is exiting itself. */
        gtr__idstore_delete(&o->g_states, (uint64_t)in->cur.g);
        nc.g = GTR_NO_GOROUTINE;
        break;
    case GTR_EV_GO_STOP:
        /* Yielded: runnable but not running on this M. */
        state->status = GTR_GSTATUS_RUNNABLE;
        nc.g = GTR_NO_GOROUTINE;
        break;
    case GTR_EV_GO_BLOCK:
        /* Blocked: waiting and not running on this M. */
        state->status = GTR_GSTATUS_WAITING;
        nc.g = GTR_NO_GOROUTINE;
        break;
    default:
        break;
    }
    return push_advanced(o, in, out, nc);
}

static GTR__ALWAYS_INLINE gtr_status advance_go_start(gtr__ordering *o, const advance_in *in,
                                                      advance_out *out, gtr_err *err)
{
    gtr_goid gid = (gtr_goid)in->ev->args[0];
    seq_counter seq = make_seq(in->gen, in->ev->args[1]);
    gstate *state = gtr__idstore_get(&o->g_states, (uint64_t)gid);
    /* Not an error: we may see a GoStart before the goroutine was created, before its status
     * or before the right point in the trace. */
    if (state == NULL || state->status != GTR_GSTATUS_RUNNABLE || !seq_succeeds(seq, state->seq))
        return GTR_OK;
    VALIDATE(in->cur, reqs(MUST_HAVE, MUST_HAVE, MUST_NOT_HAVE));
    state->status = GTR_GSTATUS_RUNNING;
    state->seq = seq;
    sched_ctx nc = in->cur;
    nc.g = gid;
    return push_advanced(o, in, out, nc);
}

static GTR__ALWAYS_INLINE gtr_status advance_go_unblock(gtr__ordering *o, const advance_in *in,
                                                        advance_out *out, gtr_err *err)
{
    /* N.B. The goroutine to unblock, not the current one. */
    gtr_goid gid = (gtr_goid)in->ev->args[0];
    seq_counter seq = make_seq(in->gen, in->ev->args[1]);
    gstate *state = gtr__idstore_get(&o->g_states, (uint64_t)gid);
    if (state == NULL || state->status != GTR_GSTATUS_WAITING || !seq_succeeds(seq, state->seq))
        return GTR_OK;
    state->status = GTR_GSTATUS_RUNNABLE;
    state->seq = seq;
    /* N.B. No context to validate: anything can unblock a goroutine (e.g. sysmon). */
    return push_advanced(o, in, out, in->cur);
}

static gtr_status advance_go_switch(gtr__ordering *o, const advance_in *in,
                                    advance_out *out, gtr_err *err)
{
    gtr_status st;
    /* GoSwitch and GoSwitchDestroy are a trio: unblock of the next goroutine, block or
     * destroy of the current one, start of the next one. Like a GoStart for the next
     * goroutine, it advances only when the sequence numbers line up. The current goroutine
     * must be running. */
    VALIDATE(in->cur, user_go_reqs);
    gstate *cur_gs = NULL;
    if ((st = current_goroutine(o, in->ev, in->cur, GTR_GSTATUS_RUNNING, &cur_gs, err)) != GTR_OK)
        return st;
    gtr_goid nextg = (gtr_goid)in->ev->args[0];
    seq_counter seq = make_seq(in->gen, in->ev->args[1]); /* For nextg, not in->cur.g. */
    gstate *next_gs = gtr__idstore_get(&o->g_states, (uint64_t)nextg);
    if (next_gs == NULL || next_gs->status != GTR_GSTATUS_WAITING ||
        !seq_succeeds(seq, next_gs->seq))
        return GTR_OK;
    push_event(o, in->evt, in->cur, in->ev);

    /* The switch itself reads as a GoUnblock of nextg; now the current goroutine. */
    switch (in->ev->type) {
    case GTR_EV_GO_SWITCH:
        /* Blocked: waiting and not running on this M. A GoBlock, no reason, no stack. */
        cur_gs->status = GTR_GSTATUS_WAITING;
        push_made(o, in->evt, in->cur, GTR_EV_GO_BLOCK, in->ev->time, 0, 0);
        break;
    case GTR_EV_GO_SWITCH_DESTROY:
        /* Exiting itself: a GoDestroy. */
        gtr__idstore_delete(&o->g_states, (uint64_t)in->cur.g);
        push_made(o, in->evt, in->cur, GTR_EV_GO_DESTROY, in->ev->time, 0, 0);
        break;
    default:
        break;
    }
    next_gs->status = GTR_GSTATUS_RUNNING;
    next_gs->seq = seq;
    sched_ctx nc = in->cur;
    nc.g = nextg;

    /* The next goroutine starts running. */
    sched_ctx start_ctx = in->cur;
    start_ctx.g = GTR_NO_GOROUTINE;
    push_made(o, in->evt, start_ctx, GTR_EV_GO_START, in->ev->time, (uint64_t)nextg,
              in->ev->args[1]);
    return advanced(out, nc);
}

static gtr_status advance_go_syscall_begin(gtr__ordering *o, const advance_in *in,
                                           advance_out *out, gtr_err *err)
{
    ev_name_buf nb;
    seq_buf sb1, sb2;
    gtr_status st;
    /* Entering a syscall needs a running goroutine with a proc; always advanceable. */
    VALIDATE(in->cur, user_go_reqs);
    gstate *state = NULL;
    if ((st = current_goroutine(o, in->ev, in->cur, GTR_GSTATUS_RUNNING, &state, err)) != GTR_OK)
        return st;
    /* Still running on this P and M. */
    state->status = GTR_GSTATUS_SYSCALL;
    pstate *ps = gtr__idstore_get(&o->p_states, (uint64_t)in->cur.p);
    if (ps == NULL)
        /* "uninitialized proc %d found during %s" */
        return gtr_err_setf(err, GTR_E_ORDER, "uninitialized proc %" PRId64 " found during %s",
                            in->cur.p, ev_name(o, in->ev->type, &nb));
    ps->status = GTR_PSTATUS_SYSCALL;
    /* The P sequence number disambiguates which syscall a ProcSteal steals from when
     * timestamps are broken (go122-syscall-steal-proc-ambiguous). This is a running P, so it
     * must line up now; there is no backing off. */
    seq_counter pseq = make_seq(in->gen, in->ev->args[0]);
    if (!seq_succeeds(pseq, ps->seq))
        return gtr_err_setf(err, GTR_E_ORDER, "failed to advance %s: can't make sequence: %s -> %s",
                            ev_name(o, in->ev->type, &nb), seq_string(ps->seq, &sb1),
                            seq_string(pseq, &sb2));
    ps->seq = pseq;
    return push_advanced(o, in, out, in->cur);
}

static gtr_status advance_go_syscall_end(gtr__ordering *o, const advance_in *in,
                                         advance_out *out, gtr_err *err)
{
    ev_name_buf nb;
    gtr_status st;
    /* Always advanceable: it happens on the thread of the GoSyscallBegin, and the goroutine
     * can't leave that thread until it's done. */
    VALIDATE(in->cur, user_go_reqs);
    gstate *state = NULL;
    if ((st = current_goroutine(o, in->ev, in->cur, GTR_GSTATUS_SYSCALL, &state, err)) != GTR_OK)
        return st;
    state->status = GTR_GSTATUS_RUNNING;

    /* Transfer the P back to running from syscall. */
    pstate *ps = gtr__idstore_get(&o->p_states, (uint64_t)in->cur.p);
    if (ps == NULL)
        /* "uninitialized proc %d found during %s" */
        return gtr_err_setf(err, GTR_E_ORDER, "uninitialized proc %" PRId64 " found during %s",
                            in->cur.p, ev_name(o, in->ev->type, &nb));
    if (ps->status != GTR_PSTATUS_SYSCALL)
        /* "expected proc %d in state %v, but got %v instead" */
        return gtr_err_setf(err, GTR_E_ORDER,
                            "expected proc %" PRId64 " in state %s, but got %s instead", in->cur.p,
                            gtr__proc_status_string(GTR_PSTATUS_SYSCALL),
                            gtr__proc_status_string(ps->status));
    ps->status = GTR_PSTATUS_RUNNING;
    return push_advanced(o, in, out, in->cur);
}

static gtr_status advance_go_syscall_end_blocked(gtr__ordering *o, const advance_in *in,
                                                 advance_out *out, gtr_err *err)
{
    ev_name_buf nb;
    gtr_status st;
    /* Advanceable once its P is out of the syscall state (via ProcStop or ProcSteal), or
     * when there is no P. While we hold a P in ProcSyscall we know we will lose it, so wait. */
    if (in->cur.p != GTR_NO_PROC) {
        pstate *ps = gtr__idstore_get(&o->p_states, (uint64_t)in->cur.p);
        if (ps == NULL)
            /* "uninitialized proc %d found during %s" */
            return gtr_err_setf(err, GTR_E_ORDER,
                                "uninitialized proc %" PRId64 " found during %s", in->cur.p,
                                ev_name(o, in->ev->type, &nb));
        if (ps->status == GTR_PSTATUS_SYSCALL)
            return GTR_OK;
    }
    /* We may have a (new) P if a ProcStart came first. */
    VALIDATE(in->cur, reqs(MUST_HAVE, MAY_HAVE, MUST_HAVE));
    gstate *state = NULL;
    if ((st = current_goroutine(o, in->ev, in->cur, GTR_GSTATUS_SYSCALL, &state, err)) != GTR_OK)
        return st;
    sched_ctx nc = in->cur;
    nc.g = GTR_NO_GOROUTINE;
    state->status = GTR_GSTATUS_RUNNABLE;
    return push_advanced(o, in, out, nc);
}

static gtr_status advance_go_create_syscall(gtr__ordering *o, const advance_in *in,
                                            advance_out *out, gtr_err *err)
{
    gtr_status st;
    /* A goroutine created out of a cgo callback, in the syscall state. */
    VALIDATE(in->cur, reqs(MUST_HAVE, MAY_HAVE, MUST_NOT_HAVE));
    gtr_goid newgid = (gtr_goid)in->ev->args[0];
    if (gtr__idstore_get(&o->g_states, (uint64_t)newgid) != NULL)
        /* "tried to create goroutine (%v) in syscall that already exists" */
        return gtr_err_setf(err, GTR_E_ORDER,
                            "tried to create goroutine (%" PRId64
                            ") in syscall that already exists",
                            newgid);
    if ((st = new_gstate(o, newgid, GTR_GSTATUS_SYSCALL, make_seq(in->gen, 0), err)) != GTR_OK)
        return st;
    /* Executing: bind it to the context. */
    sched_ctx nc = in->cur;
    nc.g = newgid;
    return push_advanced(o, in, out, nc);
}

static gtr_status advance_go_destroy_syscall(gtr__ordering *o, const advance_in *in,
                                             advance_out *out, gtr_err *err)
{
    ev_name_buf nb;
    gtr_status st;
    /* A goroutine created for a cgo callback disappears (the callback ends or its C thread is
     * destroyed). Treat it as losing the P too: the platform may reuse the thread ID, and a
     * new M with the same ID could even try to steal this P back from itself. The runtime
     * makes every GoCreateSyscall reacquire a P with events. We might have a P here: it is
     * not necessarily released eagerly, and may be stolen back later (or never). */
    VALIDATE(in->cur, reqs(MUST_HAVE, MAY_HAVE, MUST_HAVE));
    gstate *state = NULL;
    if ((st = current_goroutine(o, in->ev, in->cur, GTR_GSTATUS_SYSCALL, &state, err)) != GTR_OK)
        return st;
    /* This goroutine is exiting itself. */
    gtr__idstore_delete(&o->g_states, (uint64_t)in->cur.g);
    sched_ctx nc = in->cur;
    nc.g = GTR_NO_GOROUTINE;

    /* If we have a proc, we're dissociating from it now. */
    if (in->cur.p != GTR_NO_PROC) {
        pstate *ps = gtr__idstore_get(&o->p_states, (uint64_t)in->cur.p);
        if (ps == NULL)
            /* "found invalid proc %d during %s" */
            return gtr_err_setf(err, GTR_E_ORDER, "found invalid proc %" PRId64 " during %s",
                                in->cur.p, ev_name(o, in->ev->type, &nb));
        if (ps->status != GTR_PSTATUS_SYSCALL)
            /* "proc %d in unexpected state %s during %s" */
            return gtr_err_setf(err, GTR_E_ORDER,
                                "proc %" PRId64 " in unexpected state %s during %s", in->cur.p,
                                gtr__proc_status_string(ps->status),
                                ev_name(o, in->ev->type, &nb));
        /* See the go122-create-syscall-reuse-thread-id test. */
        ps->status = GTR_PSTATUS_SYSCALL_ABANDONED;
        nc.p = GTR_NO_PROC;

        /* Queue an extra self-ProcSteal event, before this one. Its extra arg (args[3], past
         * ProcSteal's dt p p_seq m) records the old status, ProcSyscall. */
        gtr_event *extra = push_made(o, in->evt, in->cur, GTR_EV_PROC_STEAL, in->ev->time,
                                     (uint64_t)in->cur.p, 0);
        extra->args_[gtr_spec(GTR_EV_PROC_STEAL)->nargs - 1] = GTR_PSTATUS_SYSCALL;
    }
    return push_advanced(o, in, out, nc);
}

/* intern_name returns the ordering's copy of name, string id of the table being ordered:
 * from the name cache when the ID was met in this epoch, else interned (and cached). NULL
 * when memory runs out. */
static GTR__NOINLINE const char *intern_name_slow(gtr__ordering *o, uint64_t id, gtr_str name)
{
    const char *text = gtr__strpool_intern(&o->names, o->alc, name.data, name.len);
    if (text != NULL) {
        o->name_cache[id % NAME_CACHE].epoch = o->epoch;
        o->name_cache[id % NAME_CACHE].id = id;
        o->name_cache[id % NAME_CACHE].text = text;
    }
    return text;
}

static GTR__ALWAYS_INLINE const char *intern_name(gtr__ordering *o, uint64_t id, gtr_str name)
{
    if (o->name_cache[id % NAME_CACHE].epoch == o->epoch &&
        o->name_cache[id % NAME_CACHE].id == id)
        return o->name_cache[id % NAME_CACHE].text;
    return intern_name_slow(o, id, name);
}

static GTR__ALWAYS_INLINE gtr_status advance_user_task_begin(gtr__ordering *o, const advance_in *in,
                                                             advance_out *out, gtr_err *err)
{
    /* Tasks need no Begin to be referenced and may End several times, so the only check is
     * that a task doesn't begin while active. IDs may be reused after an End. */
    gtr_taskid id = in->ev->args[0];
    if (gtr__idstore_get(&o->active_tasks, id) != NULL)
        /* "task ID conflict: %d" */
        return gtr_err_setf(err, GTR_E_ORDER, "task ID conflict: %" PRIu64, id);
    /* The parent isn't validated: we may know nothing about it. 0 here means no parent, not
     * the background task (automatic background attachment applies only to regions). */
    gtr_taskid parent_id = in->ev->args[1];
    if (parent_id == GTR_BACKGROUND_TASK) {
        parent_id = GTR_NO_TASK;
        in->ev->args[1] = GTR_NO_TASK;
    }
    /* Validate the name and record it for EvUserTaskEnd. */
    uint64_t name_id = in->ev->args[2];
    gtr_str name;
    if (!gtr__evt_string_in(in->evt, &o->idx, name_id, &name))
        /* "invalid string ID %v for %v event" */
        return gtr_err_setf(err, GTR_E_ORDER, "invalid string ID %" PRIu64 " for %u event",
                            name_id, (unsigned)in->ev->type);
    const char *text = intern_name(o, name_id, name);
    task_state *ts = text != NULL ? gtr__idstore_insert(&o->active_tasks, id) : NULL;
    if (ts == NULL)
        return nomem(err);
    *ts = (task_state){parent_id, text, name.len, o->epoch, name_id};
    VALIDATE(in->cur, user_go_reqs);
    return push_advanced(o, in, out, in->cur);
}

static GTR__ALWAYS_INLINE gtr_status advance_user_task_end(gtr__ordering *o, const advance_in *in,
                                                           advance_out *out, gtr_err *err)
{
    gtr_status st;
    gtr_taskid id = in->ev->args[0];
    uint64_t *extra = ev_extra(in->ev);
    uint64_t sid;
    task_state *ts = gtr__idstore_get(&o->active_tasks, id);
    if (ts != NULL) {
        /* Smuggle the task info. This may be a later generation, whose string table may lack
         * the name: put it in the extra strings. */
        extra[0] = ts->parent_id;
        if (ts->name_epoch != o->epoch) {
            /* Begun with another table: the name's text, the ordering's copy. */
            if ((st = gtr__evt_add_extra_string(in->evt, ts->text, ts->name_len, &sid, err)) !=
                GTR_OK)
                return st;
        } else if (o->task_name.epoch == o->epoch && o->task_name.string_id == ts->name_id) {
            sid = o->task_name.extra_id;
        } else {
            if ((st = gtr__evt_extra_of_string(in->evt, ts->name_id, &sid, err)) != GTR_OK)
                return st;
            o->task_name.epoch = o->epoch;
            o->task_name.string_id = ts->name_id;
            o->task_name.extra_id = sid;
        }
        extra[1] = sid;
        gtr__idstore_delete(&o->active_tasks, id);
    } else {
        /* Explicitly clear the task info. */
        extra[0] = GTR_NO_TASK;
        if ((st = gtr__evt_add_extra_string(in->evt, "", 0, &sid, err)) != GTR_OK)
            return st;
        extra[1] = sid;
    }
    VALIDATE(in->cur, user_go_reqs);
    return push_advanced(o, in, out, in->cur);
}

/* region_event_state is the common start of the region handlers: the region's name (arg 1)
 * and the current goroutine's state. which is "Begin" or "End" for the message. */
static GTR__ALWAYS_INLINE gtr_status region_event_state(gtr__ordering *o,
                                                        const gtr__base_event *ev,
                                                        const gtr__ev_table *evt, sched_ctx cur,
                                                        const char *which, gtr_str *name,
                                                        gstate **gs, gtr_err *err)
{
    uint64_t name_id = ev->args[1];
    if (!gtr__evt_string_in(evt, &o->idx, name_id, name))
        /* "invalid string ID %v for %v event" */
        return gtr_err_setf(err, GTR_E_ORDER, "invalid string ID %" PRIu64 " for %u event",
                            name_id, (unsigned)ev->type);
    *gs = gtr__idstore_get(&o->g_states, (uint64_t)cur.g);
    if (*gs == NULL)
        /* "encountered EvUserRegionBegin without known state for current goroutine %d",
         * and the same for EvUserRegionEnd */
        return gtr_err_setf(err, GTR_E_ORDER,
                            "encountered EvUserRegion%s without known state for current "
                            "goroutine %" PRId64,
                            which, cur.g);
    return GTR_OK;
}

static GTR__ALWAYS_INLINE gtr_status advance_user_region_begin(gtr__ordering *o,
                                                               const advance_in *in,
                                                               advance_out *out, gtr_err *err)
{
    VALIDATE(in->cur, user_go_reqs);
    gtr_taskid tid = in->ev->args[0];
    gtr_str name;
    gstate *gs;
    gtr_status st = region_event_state(o, in->ev, in->evt, in->cur, "Begin", &name, &gs, err);
    if (st != GTR_OK)
        return st;
    /* beginRegion: push {tid, name}. The name is interned: it outlives the table (string
     * IDs change across generations and the comparison is by value). */
    const char *text = intern_name(o, in->ev->args[1], name);
    if (text == NULL || !GTR__GROW(o->alc, gs->regions, gs->regions_cap, gs->nregions + 1))
        return nomem(err);
    user_region r = {tid, text, name.len, o->epoch, in->ev->args[1]};
    gs->regions[gs->nregions++] = r;
    return push_advanced(o, in, out, in->cur);
}

static GTR__ALWAYS_INLINE gtr_status advance_user_region_end(gtr__ordering *o, const advance_in *in,
                                                             advance_out *out, gtr_err *err)
{
    VALIDATE(in->cur, user_go_reqs);
    gtr_taskid tid = in->ev->args[0];
    gtr_str name;
    gstate *gs;
    gtr_status st = region_event_state(o, in->ev, in->evt, in->cur, "End", &name, &gs, err);
    if (st != GTR_OK)
        return st;
    /* endRegion. We know nothing of regions that began before tracing started: an end
     * without any active region is fine. */
    if (gs->nregions > 0) {
        const user_region *next = &gs->regions[gs->nregions - 1];
        const char *next_name = next->text;
        bool same_string = next->epoch == o->epoch && next->name_id == in->ev->args[1];
        if (next->task != tid ||
            (!same_string && gtr__strpool_find(&o->names, name.data, name.len) != next_name)) {
            /* "misuse of region in goroutine %v: region end %v when the inner-most active
             * region start event is %v" (userRegion: {taskID name}); the names are echoed
             * whole, NUL bytes included. */
            gtr_err_setf(err, GTR_E_ORDER,
                         "misuse of region in goroutine %" PRId64 ": region end {%" PRIu64 " ",
                         gs->id, tid);
            gtr_err_appendn(err, name.data, name.len);
            char mid[96];
            int n = snprintf(mid, sizeof mid,
                             "} when the inner-most active region start event is {%" PRIu64 " ",
                             next->task);
            gtr_err_appendn(err, mid, (size_t)n);
            gtr_err_appendn(err, next_name, next->len);
            return gtr_err_appendn(err, "}", 1);
        }
        gs->nregions--;
    }
    return push_advanced(o, in, out, in->cur);
}

/* The GC mark phase has sequence numbers at both ends, since begin and end may be on
 * different threads: an explicit partial order keeps a GCEnd from matching a different cycle
 * when timestamps are badly broken. */
static gtr_status advance_gc_active(gtr__ordering *o, const advance_in *in,
                                    advance_out *out, gtr_err *err)
{
    uint64_t seq = in->ev->args[0];
    if (in->gen == o->initial_gen) {
        if (o->gc_state != GC_UNDETERMINED)
            return gtr_err_setf(err, GTR_E_ORDER,
                                "GCActive in the first generation isn't first GC event");
        o->gc_seq = seq;
        o->gc_state = GC_RUNNING;
        return push_advanced(o, in, out, in->cur);
    }
    if (seq != o->gc_seq + 1)
        return GTR_OK; /* Not the right GC cycle. */
    if (o->gc_state != GC_RUNNING)
        return gtr_err_setf(err, GTR_E_ORDER, "encountered GCActive while GC was not in progress");
    o->gc_seq = seq;
    VALIDATE(in->cur, user_go_reqs);
    return push_advanced(o, in, out, in->cur);
}

static gtr_status advance_gc_begin(gtr__ordering *o, const advance_in *in,
                                   advance_out *out, gtr_err *err)
{
    uint64_t seq = in->ev->args[0];
    if (o->gc_state == GC_UNDETERMINED) {
        o->gc_seq = seq;
        o->gc_state = GC_RUNNING;
        return push_advanced(o, in, out, in->cur);
    }
    if (seq != o->gc_seq + 1)
        return GTR_OK; /* Not the right GC cycle. */
    if (o->gc_state == GC_RUNNING)
        return gtr_err_setf(err, GTR_E_ORDER,
                            "encountered GCBegin while GC was already in progress");
    o->gc_seq = seq;
    o->gc_state = GC_RUNNING;
    VALIDATE(in->cur, user_go_reqs);
    return push_advanced(o, in, out, in->cur);
}

static gtr_status advance_gc_end(gtr__ordering *o, const advance_in *in,
                                 advance_out *out, gtr_err *err)
{
    uint64_t seq = in->ev->args[0];
    if (seq != o->gc_seq + 1)
        return GTR_OK; /* Not the right GC cycle. */
    if (o->gc_state == GC_NOT_RUNNING)
        return gtr_err_setf(err, GTR_E_ORDER, "encountered GCEnd when GC was not in progress");
    if (o->gc_state == GC_UNDETERMINED)
        return gtr_err_setf(err, GTR_E_ORDER,
                            "encountered GCEnd when GC was in an undetermined state");
    o->gc_seq = seq;
    o->gc_state = GC_NOT_RUNNING;
    VALIDATE(in->cur, user_go_reqs);
    return push_advanced(o, in, out, in->cur);
}

static gtr_status advance_annotation(gtr__ordering *o, const advance_in *in,
                                     advance_out *out, gtr_err *err)
{
    /* Simple instantaneous events that require a G. */
    VALIDATE(in->cur, user_go_reqs);
    return push_advanced(o, in, out, in->cur);
}

static GTR__ALWAYS_INLINE gtr_status advance_heap_metric(gtr__ordering *o, const advance_in *in,
                                                         advance_out *out, gtr_err *err)
{
    /* Allocation metrics, which don't require a G. */
    VALIDATE(in->cur, reqs(MUST_HAVE, MUST_HAVE, MAY_HAVE));
    return push_advanced(o, in, out, in->cur);
}

/* cur_pstate: the pstate of the context's P (validated present). Every P a thread can hold
 * has a state, so this cannot fail; Go would dereference nil if it did. */
static gtr_status cur_pstate(gtr__ordering *o, sched_ctx cur, pstate **out, gtr_err *err)
{
    *out = gtr__idstore_get(&o->p_states, (uint64_t)cur.p);
    if (*out == NULL)
        return gtr_err_setf(err, GTR_E_ORDER, "internal error: no state for proc %" PRId64,
                            cur.p);
    return GTR_OK;
}

static GTR__ALWAYS_INLINE gtr_status advance_gc_sweep_begin(gtr__ordering *o, const advance_in *in,
                                                            advance_out *out, gtr_err *err)
{
    gtr_status st;
    /* Sweep is bound to a P and doesn't require a G. */
    VALIDATE(in->cur, reqs(MUST_HAVE, MUST_HAVE, MAY_HAVE));
    pstate *ps = NULL;
    if ((st = cur_pstate(o, in->cur, &ps, err)) != GTR_OK)
        return st;
    if ((st = begin_range(o->alc, &ps->ranges, make_range_type(in->ev->type, 0), err)) != GTR_OK)
        return st;
    return push_advanced(o, in, out, in->cur);
}

static gtr_status advance_gc_sweep_active(gtr__ordering *o, const advance_in *in,
                                          advance_out *out, gtr_err *err)
{
    gtr_status st;
    gtr_procid pid = (gtr_procid)in->ev->args[0];
    /* N.B. Ps can't block while sweeping, so this can only be in->cur.p in practice; be lenient
     * like GCMarkAssistActive. */
    pstate *ps = gtr__idstore_get(&o->p_states, (uint64_t)pid);
    if (ps == NULL)
        /* "encountered GCSweepActive for unknown proc %d" */
        return gtr_err_setf(err, GTR_E_ORDER, "encountered GCSweepActive for unknown proc %" PRId64,
                            pid);
    if ((st = active_range(o->alc, &ps->ranges, make_range_type(in->ev->type, 0),
                           in->gen == o->initial_gen, err)) != GTR_OK)
        return st;
    return push_advanced(o, in, out, in->cur);
}

static GTR__ALWAYS_INLINE gtr_status advance_gc_sweep_end(gtr__ordering *o, const advance_in *in,
                                                          advance_out *out, gtr_err *err)
{
    gtr_status st;
    VALIDATE(in->cur, reqs(MUST_HAVE, MUST_HAVE, MAY_HAVE));
    pstate *ps = NULL;
    if ((st = cur_pstate(o, in->cur, &ps, err)) != GTR_OK)
        return st;
    uint64_t desc = 0;
    if ((st = end_range(&ps->ranges, in->ev->type, &desc, err)) != GTR_OK)
        return st;
    return push_advanced(o, in, out, in->cur);
}

static gtr_status advance_go_range_begin(gtr__ordering *o, const advance_in *in,
                                         advance_out *out, gtr_err *err)
{
    gtr_status st;
    /* Special goroutine-bound ranges. */
    VALIDATE(in->cur, user_go_reqs);
    uint64_t desc = 0;
    if (in->ev->type == GTR_EV_STW_BEGIN)
        desc = in->ev->args[0];
    gstate *gs = gtr__idstore_get(&o->g_states, (uint64_t)in->cur.g);
    if (gs == NULL)
        /* "encountered event of type %d without known state for current goroutine %d" */
        return gtr_err_setf(err, GTR_E_ORDER,
                            "encountered event of type %u without known state for current "
                            "goroutine %" PRId64,
                            (unsigned)in->ev->type, in->cur.g);
    if ((st = begin_range(o->alc, &gs->ranges, make_range_type(in->ev->type, desc), err)) != GTR_OK)
        return st;
    return push_advanced(o, in, out, in->cur);
}

static gtr_status advance_go_range_active(gtr__ordering *o, const advance_in *in,
                                          advance_out *out, gtr_err *err)
{
    ev_name_buf nb;
    gtr_status st;
    gtr_goid gid = (gtr_goid)in->ev->args[0];
    /* N.B. Like GoStatus, this may reference a non-running goroutine at any time: nothing to
     * check about the current context. */
    gstate *gs = gtr__idstore_get(&o->g_states, (uint64_t)gid);
    if (gs == NULL)
        /* "uninitialized goroutine %d found during %s" */
        return gtr_err_setf(err, GTR_E_ORDER, "uninitialized goroutine %" PRId64 " found during %s",
                            gid, ev_name(o, in->ev->type, &nb));
    if ((st = active_range(o->alc, &gs->ranges, make_range_type(in->ev->type, 0),
                           in->gen == o->initial_gen, err)) != GTR_OK)
        return st;
    return push_advanced(o, in, out, in->cur);
}

static gtr_status advance_go_range_end(gtr__ordering *o, const advance_in *in,
                                       advance_out *out, gtr_err *err)
{
    gtr_status st;
    VALIDATE(in->cur, user_go_reqs);
    gstate *gs = gtr__idstore_get(&o->g_states, (uint64_t)in->cur.g);
    if (gs == NULL)
        /* "encountered event of type %d without known state for current goroutine %d" */
        return gtr_err_setf(err, GTR_E_ORDER,
                            "encountered event of type %u without known state for current "
                            "goroutine %" PRId64,
                            (unsigned)in->ev->type, in->cur.g);
    uint64_t desc = 0;
    if ((st = end_range(&gs->ranges, in->ev->type, &desc, err)) != GTR_OK)
        return st;
    if (in->ev->type == GTR_EV_STW_END) {
        /* Smuggle the kind into the event (in args[0], symmetric with STWBegin). */
        in->ev->args[0] = desc;
    }
    return push_advanced(o, in, out, in->cur);
}

static gtr_status advance_alloc_free(gtr__ordering *o, const advance_in *in,
                                     advance_out *out, gtr_err *err)
{
    /* Simple instantaneous events that may or may not have a P. */
    VALIDATE(in->cur, reqs(MUST_HAVE, MAY_HAVE, MAY_HAVE));
    return push_advanced(o, in, out, in->cur);
}

/* orderingDispatch: one row per event type; NULL means the type cannot be ordered. */
static const advance_fn dispatch[256] = {
    /* Procs. */
    [GTR_EV_PROCS_CHANGE] = advance_annotation,
    [GTR_EV_PROC_START] = advance_proc_start,
    [GTR_EV_PROC_STOP] = advance_proc_stop,
    [GTR_EV_PROC_STEAL] = advance_proc_steal,
    [GTR_EV_PROC_STATUS] = advance_proc_status,

    /* Goroutines. */
    [GTR_EV_GO_CREATE] = advance_go_create,
    [GTR_EV_GO_CREATE_SYSCALL] = advance_go_create_syscall,
    [GTR_EV_GO_START] = advance_go_start,
    [GTR_EV_GO_DESTROY] = advance_go_stop_exec,
    [GTR_EV_GO_DESTROY_SYSCALL] = advance_go_destroy_syscall,
    [GTR_EV_GO_STOP] = advance_go_stop_exec,
    [GTR_EV_GO_BLOCK] = advance_go_stop_exec,
    [GTR_EV_GO_UNBLOCK] = advance_go_unblock,
    [GTR_EV_GO_SYSCALL_BEGIN] = advance_go_syscall_begin,
    [GTR_EV_GO_SYSCALL_END] = advance_go_syscall_end,
    [GTR_EV_GO_SYSCALL_END_BLOCKED] = advance_go_syscall_end_blocked,
    [GTR_EV_GO_STATUS] = advance_go_status,

    /* STW. */
    [GTR_EV_STW_BEGIN] = advance_go_range_begin,
    [GTR_EV_STW_END] = advance_go_range_end,

    /* GC events. */
    [GTR_EV_GC_ACTIVE] = advance_gc_active,
    [GTR_EV_GC_BEGIN] = advance_gc_begin,
    [GTR_EV_GC_END] = advance_gc_end,
    [GTR_EV_GC_SWEEP_ACTIVE] = advance_gc_sweep_active,
    [GTR_EV_GC_SWEEP_BEGIN] = advance_gc_sweep_begin,
    [GTR_EV_GC_SWEEP_END] = advance_gc_sweep_end,
    [GTR_EV_GC_MARK_ASSIST_ACTIVE] = advance_go_range_active,
    [GTR_EV_GC_MARK_ASSIST_BEGIN] = advance_go_range_begin,
    [GTR_EV_GC_MARK_ASSIST_END] = advance_go_range_end,
    [GTR_EV_HEAP_ALLOC] = advance_heap_metric,
    [GTR_EV_HEAP_GOAL] = advance_heap_metric,

    /* Annotations. */
    [GTR_EV_GO_LABEL] = advance_annotation,
    [GTR_EV_USER_TASK_BEGIN] = advance_user_task_begin,
    [GTR_EV_USER_TASK_END] = advance_user_task_end,
    [GTR_EV_USER_REGION_BEGIN] = advance_user_region_begin,
    [GTR_EV_USER_REGION_END] = advance_user_region_end,
    [GTR_EV_USER_LOG] = advance_annotation,

    /* Coroutines (Go 1.23). */
    [GTR_EV_GO_SWITCH] = advance_go_switch,
    [GTR_EV_GO_SWITCH_DESTROY] = advance_go_switch,
    [GTR_EV_GO_CREATE_BLOCKED] = advance_go_create,

    /* GoStatus with a stack (Go 1.23). */
    [GTR_EV_GO_STATUS_STACK] = advance_go_status,

    /* Experimental heap span, heap object and goroutine stack events (Go 1.23). */
    [GTR_EV_SPAN] = advance_alloc_free,
    [GTR_EV_SPAN_ALLOC] = advance_alloc_free,
    [GTR_EV_SPAN_FREE] = advance_alloc_free,
    [GTR_EV_HEAP_OBJECT] = advance_alloc_free,
    [GTR_EV_HEAP_OBJECT_ALLOC] = advance_alloc_free,
    [GTR_EV_HEAP_OBJECT_FREE] = advance_alloc_free,
    [GTR_EV_GOROUTINE_STACK] = advance_alloc_free,
    [GTR_EV_GOROUTINE_STACK_ALLOC] = advance_alloc_free,
    [GTR_EV_GOROUTINE_STACK_FREE] = advance_alloc_free,
};

/* The types advance_event calls inline, with their functions. The last column says whether
 * the function itself looks the string up, failing ("invalid string ID %v for %v event")
 * when it is not in the table: the table ID check after it then has no string to check. */
#define INLINE_CASES(X)                                               \
    X(GTR_EV_PROC_START, advance_proc_start, false)                   \
    X(GTR_EV_PROC_STOP, advance_proc_stop, false)                     \
    X(GTR_EV_GO_START, advance_go_start, false)                       \
    X(GTR_EV_GO_STOP, advance_go_stop_exec, false)                    \
    X(GTR_EV_GO_BLOCK, advance_go_stop_exec, false)                   \
    X(GTR_EV_GO_UNBLOCK, advance_go_unblock, false)                   \
    X(GTR_EV_USER_TASK_BEGIN, advance_user_task_begin, true)          \
    X(GTR_EV_USER_TASK_END, advance_user_task_end, false)             \
    X(GTR_EV_USER_REGION_BEGIN, advance_user_region_begin, true)      \
    X(GTR_EV_USER_REGION_END, advance_user_region_end, true)          \
    X(GTR_EV_HEAP_ALLOC, advance_heap_metric, false)                  \
    X(GTR_EV_GC_SWEEP_BEGIN, advance_gc_sweep_begin, false)           \
    X(GTR_EV_GC_SWEEP_END, advance_gc_sweep_end, false)

/* inline_ids_bad is the test of Go's Event.validateTableIDs (which ReadEvent runs on each
 * event it returns) for ev, of type `type` (a constant: the spec's ID arguments then fold to
 * constants under link-time optimisation, as in event_transition.h), its string IDs left out
 * unless strings: true when one is not in the table evt, whose dense index is idx (the common
 * answer, inline). */
static GTR__ALWAYS_INLINE bool inline_ids_bad(const gtr__ev_table *evt,
                                              const gtr__evt_id_index *idx,
                                              const gtr__base_event *ev, uint8_t type,
                                              bool strings)
{
    const gtr_event_spec *spec = gtr_spec(type);
    for (unsigned k = 0; k < spec->nstack_ids; k++) {
        uint64_t id = ev->args[spec->stack_ids[k] - 1];
        if (id != 0 && !(id < idx->nstacks && idx->stacks[id] != 0) &&
            (evt == NULL || !gtr__evt_has_stack(evt, id)))
            return true;
    }
    for (unsigned k = 0; strings && k < spec->nstring_ids; k++) {
        uint64_t id = ev->args[spec->string_ids[k] - 1];
        if (id != 0 && !(id < idx->nstrings && idx->strings[id] != 0) &&
            (evt == NULL || !gtr__evt_has_string(evt, id)))
            return true;
    }
    return false;
}

/* ids_bad_of is the same test for an event of any type, from the spec. */
static GTR__NOINLINE bool ids_bad_of(const gtr__ev_table *evt, const gtr__base_event *ev)
{
    bool stack;
    uint64_t id;
    return gtr__table_ids_bad(evt, ev->type, ev->args, &stack, &id);
}

/* advance_event is orderingDispatch's lookup and call, with the advance functions of the
 * common types inlined. *ids_bad says whether ev advanced naming an ID not in the table (the
 * events an advance makes itself name none, or ID 0). */
#define INLINE_CASE(t, fn, looked_up)                                                      \
    case t:                                                                                \
        st = fn(o, in, out, err);                                                          \
        *ids_bad =                                                                         \
            st == GTR_OK && out->ok && inline_ids_bad(in->evt, idx, in->ev, t, !(looked_up)); \
        break;
static GTR__ALWAYS_INLINE gtr_status advance_event(gtr__ordering *o, const advance_in *in,
                                                   advance_out *out, gtr_err *err,
                                                   const gtr__evt_id_index *idx, bool *ids_bad)
{
    gtr_status st;
    switch (in->ev->type) {
    INLINE_CASES(INLINE_CASE)
    default: {
        advance_fn f = dispatch[in->ev->type];
        if (f == NULL)
            /* "bad event type found while ordering: %v" */
            st = gtr_err_setf(err, GTR_E_ORDER, "bad event type found while ordering: %u",
                              (unsigned)in->ev->type);
        else {
            /* Copies, so that the caller's in and out, whose address the call would take,
             * stay in registers for the inlined cases. */
            advance_in in_copy = *in;
            advance_out out_copy = *out;
            st = f(o, &in_copy, &out_copy, err);
            out->ok = out_copy.ok;
        }
        *ids_bad = st == GTR_OK && out->ok && ids_bad_of(in->evt, in->ev);
        break;
    }
    }
    return st;
}
#undef INLINE_CASE
#undef INLINE_CASES

/* ------------------------------------------------------------------------------------------ */
/* API. */

gtr_status gtr__ordering_new(const gtr_alloc *alc, gtr__ordering **out, gtr_err *err)
{
    *out = NULL;
    gtr__ordering *o = gtr__calloc(alc, 1, sizeof *o);
    if (o == NULL)
        return nomem(err);
    o->alc = alc;
    o->trace_ver = GTR_GO_CURRENT;
    gtr__idstore_init(&o->g_states, alc, sizeof(gstate));
    o->g_states.map.slides = true;   /* goroutine and task IDs only grow, the old ones end */
    gtr__idstore_init(&o->p_states, alc, sizeof(pstate));
    gtr__idstore_init(&o->m_states, alc, sizeof(mstate));
    gtr__idstore_init(&o->active_tasks, alc, sizeof(task_state));
    o->active_tasks.map.slides = true;
    o->gc_state = GC_UNDETERMINED;
    o->queue.buf = gtr__malloc(alc, QUEUE_FIRST_CAP * sizeof *o->queue.buf);
    if (o->queue.buf == NULL) {
        gtr__free(alc, o);
        return nomem(err);
    }
    o->queue.head = o->queue.end = o->last_from = o->queue.buf;
    o->queue.limit = o->queue.buf + QUEUE_FIRST_CAP;
    *out = o;
    return GTR_OK;
}

void gtr__ordering_free(gtr__ordering *o)
{
    if (o == NULL)
        return;
    gtr__idstore_destroy(&o->g_states, gstate_fini);
    gtr__idstore_destroy(&o->p_states, pstate_fini);
    gtr__idstore_destroy(&o->m_states, NULL);
    gtr__idstore_destroy(&o->active_tasks, NULL);
    gtr__strpool_free(&o->names, o->alc);
    gtr__free(o->alc, o->queue.buf);
    gtr__free(o->alc, o);
}

void gtr__ordering_set_version(gtr__ordering *o, uint64_t version)
{
    o->trace_ver = version;
}

/* mstate_lookup is mstate_of's first look-up of thread m: its mState, created when new. */
static GTR__NOINLINE gtr_status mstate_lookup(gtr__ordering *o, gtr_threadid m, void **mcache,
                                              mstate **out, gtr_err *err)
{
    mstate *ms = gtr__idstore_get(&o->m_states, (uint64_t)m);
    if (ms == NULL) {
        gtr_status st = new_mstate(o, m, GTR_NO_GOROUTINE, GTR_NO_PROC, &ms, err);
        if (st != GTR_OK)
            return st;
    }
    *mcache = *out = ms;
    return GTR_OK;
}

/* mstate_of is the mState of thread m, pulled out or created (Go does so as an event of m is
 * tried, whether or not it advances); NULL when m is GTR_NO_THREAD. *mcache is the caller's
 * cache of it, NULL at first: the pointer stays valid while other threads are added (slots
 * never move). */
static GTR__ALWAYS_INLINE gtr_status mstate_of(gtr__ordering *o, gtr_threadid m,
                                               void **mcache, mstate **out, gtr_err *err)
{
    *out = *mcache;
    if (*out != NULL || m == GTR_NO_THREAD)
        return GTR_OK;
    return mstate_lookup(o, m, mcache, out, err);
}

void gtr__ordering_begin_generation(gtr__ordering *o, gtr__ev_table *evt, uint64_t gen)
{
    o->idx = evt != NULL ? gtr__evt_id_index_of(evt)
                         : (gtr__evt_id_index){NULL, NULL, 0, 0, NULL};
    if (o->initial_gen == 0)
        o->initial_gen = gen; /* Set the initial gen if necessary. */
    if (o->epoch != 0 && evt == o->evt && gen == o->gen)
        return;   /* the same generation again: the same strings */
    o->epoch++;
    o->evt = evt;
    o->gen = gen;
}

GTR__LTO_INLINE_BEGIN
GTR__LTO_INLINE gtr_status gtr__ordering_advance(gtr__ordering *o, gtr__base_event *ev,
                                                 gtr_threadid m, void **mcache,
                                                 gtr__advanced *res, gtr_err *err)
{
    res->ok = res->check_ids = false;
    /* Make room for everything one advance can queue, so queueing cannot fail halfway. */
    if (!queue_reserve(o, MAX_QUEUED_PER_ADVANCE))
        return nomem(err);

    mstate *ms;
    gtr_status st = mstate_of(o, m, mcache, &ms, err);
    if (st != GTR_OK)
        return st;
    sched_ctx cur = {GTR_NO_GOROUTINE, GTR_NO_PROC, m};
    if (ms != NULL) {
        cur.p = ms->p;
        cur.g = ms->g;
    }
    /* The advance function updates the mState for this event when it advances. */
    const advance_in in = {ev, o->evt, m, o->gen, cur};
    advance_out out = {ms, false};
    o->last_from = o->queue.end;
    st = advance_event(o, &in, &out, err, &o->idx, &res->check_ids);
    if (st != GTR_OK) {
        o->queue.end = o->last_from;
        o->failed_type = ev->type;
        return st;
    }
    res->ok = out.ok;
    return GTR_OK;
}
GTR__LTO_INLINE_END

gtr_status gtr__ordering_check_ids(gtr__ordering *o, gtr_err *err)
{
    event_queue *q = &o->queue;
    for (gtr_event *e = o->last_from; e < q->end; e++) {
        gtr_status st = gtr__event_validate_table_ids(e, err);
        if (st != GTR_OK) {
            q->end = e;
            return st;
        }
    }
    return GTR_OK;
}

void gtr__ordering_drop_last(gtr__ordering *o)
{
    o->queue.end = o->last_from;
}

size_t gtr__ordering_queued(const gtr__ordering *o)
{
    return (size_t)(o->queue.end - o->queue.head);
}

gtr_event *gtr__ordering_pop(gtr__ordering *o)
{
    event_queue *q = &o->queue;
    if (q->head == q->end) {
        /* Empty: start over (what the last pop returned is not needed past the next call
         * that queues). */
        q->head = q->end = q->buf;
        return NULL;
    }
    return q->head++;
}

bool gtr__ordering_next(gtr__ordering *o, gtr_event *out)
{
    /* (Go clears the slot so as not to hold on to old tables; a C pointer holds nothing, and
     * the slot is written whole before it is read again.) */
    const gtr_event *ev = gtr__ordering_pop(o);
    if (ev == NULL)
        return false;
    *out = *ev;
    return true;
}

/* dump_map appends one line per entry of mp in ascending ID order (internal order if the key
 * array cannot be allocated). */
static void dump_map(const gtr__idstore *mp, gtr_buf *out,
                     void (*line)(gtr_buf *, uint64_t, const void *))
{
    uint64_t *keys;
    if (gtr__idmap_sorted_keys(&mp->map, mp->alc, &keys) == GTR_OK && keys != NULL) {
        for (size_t i = 0; i < mp->map.len; i++)
            line(out, keys[i], gtr__idstore_get(mp, keys[i]));
        gtr__free(mp->alc, keys);
        return;
    }
    size_t pos = 0;
    uint64_t k;
    void *v;
    while (gtr__idstore_next(mp, &pos, &k, &v))
        line(out, k, v);
}

static void dump_g(gtr_buf *out, uint64_t id, const void *v)
{
    const gstate *s = v;
    seq_buf sb;
    gtr_buf_printf(out, "G %" PRId64 " [status=%s seq=%s]\n", (int64_t)id,
                   gtr__go_status_string(s->status), seq_string(s->seq, &sb));
}

static void dump_p(gtr_buf *out, uint64_t id, const void *v)
{
    const pstate *s = v;
    seq_buf sb;
    gtr_buf_printf(out, "P %" PRId64 " [status=%s seq=%s]\n", (int64_t)id,
                   gtr__proc_status_string(s->status), seq_string(s->seq, &sb));
}

static void dump_m(gtr_buf *out, uint64_t id, const void *v)
{
    const mstate *s = v;
    gtr_buf_printf(out, "M %" PRId64 " [g=%" PRId64 " p=%" PRId64 "]\n", (int64_t)id, s->g,
                   s->p);
}

void gtr__ordering_dump(const gtr__ordering *o, gtr_buf *out)
{
    dump_map(&o->g_states, out, dump_g);
    gtr_buf_putc(out, '\n');
    dump_map(&o->p_states, out, dump_p);
    gtr_buf_putc(out, '\n');
    dump_map(&o->m_states, out, dump_m);
    gtr_buf_putc(out, '\n');
    gtr_buf_printf(out, "GC %" PRIu64 " %s\n", o->gc_seq, gc_state_string(o->gc_state));
}

/* ------------------------------------------------------------------------------------------ */
/* What the diagnosis of a stuck frontier and a snapshot read (order.h). */

/* resource_state reads rec, the record of a proc (proc true) or a goroutine, into out; it
 * returns the record's ranges in flight. */
static const range_state *resource_state(bool proc, const void *rec, gtr__resource_state *out)
{
    const pstate *ps = rec;
    const gstate *gs = rec;
    seq_counter seq = proc ? ps->seq : gs->seq;
    *out = (gtr__resource_state){proc ? ps->status : gs->status, seq.gen, seq.seq};
    return proc ? &ps->ranges : &gs->ranges;
}

bool gtr__ordering_resource(const gtr__ordering *o, bool proc, int64_t id,
                            gtr__resource_state *out)
{
    const void *rec = gtr__idstore_get(proc ? &o->p_states : &o->g_states, (uint64_t)id);
    if (rec != NULL)
        resource_state(proc, rec, out);
    return rec != NULL;
}

bool gtr__ordering_next_resource(const gtr__ordering *o, bool proc, size_t *pos, int64_t *id,
                                 gtr__resource_state *out)
{
    uint64_t key;
    void *rec;
    if (!gtr__idstore_next(proc ? &o->p_states : &o->g_states, pos, &key, &rec))
        return false;
    *id = (int64_t)key;
    resource_state(proc, rec, out);
    return true;
}

size_t gtr__ordering_ranges(const gtr__ordering *o, bool proc, int64_t id, uint8_t *begin_types,
                            size_t cap)
{
    const void *rec = gtr__idstore_get(proc ? &o->p_states : &o->g_states, (uint64_t)id);
    gtr__resource_state s;
    const range_state *rs = rec != NULL ? resource_state(proc, rec, &s) : NULL;
    size_t n = 0;
    for (size_t i = 0; rs != NULL && i < rs->n && n < cap; i++)
        begin_types[n++] = rs->in_flight[i].typ;
    return n;
}

void gtr__ordering_thread(const gtr__ordering *o, gtr_threadid id, gtr_goid *g, gtr_procid *p)
{
    const mstate *s = gtr__idstore_get(&o->m_states, (uint64_t)id);
    *g = s != NULL ? s->g : GTR_NO_GOROUTINE;
    *p = s != NULL ? s->p : GTR_NO_PROC;
}

gtr__ordering_summary gtr__ordering_summary_of(const gtr__ordering *o)
{
    return (gtr__ordering_summary){o->gc_seq, o->gc_state == GC_RUNNING, o->initial_gen,
                                   o->failed_type};
}
