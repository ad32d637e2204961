/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/tracev1.go at go1.27.3: conversion of v1 (Go 1.11-1.21)
 * events to the v2 event model.
 *
 * Most events have a direct v2 equivalent, at worst with their arguments reordered. Some
 * look ahead or behind: the first Gomaxprocs ends trace initialisation and emits a GoStatus
 * for every goroutine created before it that nothing else described; GoSysCall becomes a
 * 1 ns GoSyscallBegin+GoSyscallEnd pair, or a GoSyscallBegin alone when the goroutine's
 * next event is a GoSysBlock (its GoSysExit then becomes GoSyscallEndBlocked).
 *
 * The whole trace is one generation sharing one table. Its strings are: the trace's string
 * dictionary, then the UserLog messages (inline in the old format) with IDs after the
 * largest, then the converter's own strings (block reasons, STW kinds) after those.
 *
 * Go emits the initial GoStatus events in map order (random); gotrace emits them in the
 * order the goroutines were created. */
#include <string.h>

#include "compiler.h"
#include "idmap.h"
#include "mem.h"
#include "tracev1_convert.h"

/* The converter's own strings, in Go's order (sForever, ...). */
enum {
    S_FOREVER,
    S_PREEMPTED,
    S_GOSCHED,
    S_SLEEP,
    S_CHAN_SEND,
    S_CHAN_RECV,
    S_NETWORK,
    S_SYNC,
    S_SYNC_COND,
    S_SELECT,
    S_EMPTY,
    S_MARK_ASSIST_WAIT,
    S_STW_UNKNOWN, /* followed by the 16 other STW reasons */
    S_LAST = S_STW_UNKNOWN + 17
};

static const char *const builtin_strings[S_LAST] = {
    "forever",
    "preempted",
    "runtime.Gosched",
    "sleep",
    "chan send",
    "chan receive",
    "network",
    "sync",
    "sync.(*Cond).Wait",
    "select",
    "",
    "GC mark assist wait for work",
    "",
    "GC mark termination",
    "GC sweep termination",
    "write heap dump",
    "goroutine profile",
    "goroutine profile cleanup",
    "all goroutine stack trace",
    "read mem stats",
    "AllThreadsSyscall",
    "GOMAXPROCS",
    "start trace",
    "stop trace",
    "CountPagesInUse (test)",
    "ReadMetricsSlow (test)",
    "ReadMemStatsSlow (test)",
    "PageCachePagesLeaked (test)",
    "ResetDebugLog (test)",
};

typedef struct task_state {
    gtr_str name;
    uint64_t parent;
    bool live;
} task_state;

typedef struct proc_m {
    gtr_threadid m;
    bool live;
} proc_m;

struct gtr__v1_converter {
    const gtr_alloc *alc;
    gtr__v1_trace tr;
    size_t next;                 /* events[next..] are still to convert */
    gtr__ev_table *evt;
    char *strs;                  /* the table's strings, NUL-terminated, one block */
    bool pre_init;
    gtr__idmap created_map;     /* createdPreInit: g -> index into created */
    uint64_t *created;
    bool *created_live;
    size_t ncreated, created_cap, created_live_cap;
    gtr_event *extra;            /* queued events, extra[extra_head..nextra) */
    size_t extra_head, nextra, extra_cap;
    gtr__idmap task_map;
    task_state *tasks;
    size_t ntasks, tasks_cap;
    gtr__idmap seen_procs;
    gtr__idmap procm_map;
    proc_m *procms;
    size_t nprocms, procms_cap;
    gtr_time last_ts;
    uint64_t last_stw_reason;
    uint64_t inline_base;        /* inlineToStringID[i] = inline_base + i */
    uint64_t builtin_base;       /* builtinToStringID[c] = builtin_base + c */
};

static gtr_status nomem(gtr_err *err)
{
    return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
}

/* slot is a key -> dense index map insert (like parser.c's). */
static gtr_status slot(const gtr_alloc *alc, gtr__idmap *m, uint64_t key, size_t next,
                       size_t *idx, bool *found, gtr_err *err)
{
    if (gtr__idmap_put_index(m, alc, key, next, idx, found) != GTR_OK)
        return nomem(err);
    return GTR_OK;
}

/* init is traceV1Converter.init. */
static gtr_status init(gtr__v1_converter *c, gtr_err *err)
{
    gtr__v1_trace *tr = &c->tr;
    gtr_status st;
    if ((st = gtr__evt_new(c->alc, &c->evt, err)) != GTR_OK)
        return st;

    /* One block for every string, each NUL-terminated (strings may exceed the table's
     * arena allocations: the old format allows 1e6 bytes). */
    size_t total = 0;
    for (size_t i = 0; i < tr->nstrings; i++)
        total += tr->strings[i].len + 1;
    for (size_t i = 0; i < tr->ninline; i++)
        total += tr->inline_strings[i].len + 1;
    c->strs = gtr__malloc(c->alc, total ? total : 1);
    if (c->strs == NULL)
        return nomem(err);
    char *w = c->strs;

    uint64_t max = 0;
    for (size_t i = 0; i < tr->nstrings; i++) {
        const gtr__v1_str *s = &tr->strings[i];
        memcpy(w, tr->data + s->off, s->len);
        w[s->len] = '\0';
        if ((st = gtr__evt_add_string_borrowed(c->evt, s->id, w, s->len, err)) != GTR_OK)
            return st;
        w += s->len + 1;
        if (s->id > max)
            max = s->id;
    }
    /* The UserLog messages get IDs after the largest. */
    if (max + (uint64_t)tr->ninline < max)
        return gtr_err_setf(err, GTR_E_FORMAT, "trace contains too many strings");
    c->inline_base = max + 1;
    for (size_t i = 0; i < tr->ninline; i++) {
        const gtr__v1_str *s = &tr->inline_strings[i];
        memcpy(w, tr->data + s->off, s->len);
        w[s->len] = '\0';
        if ((st = gtr__evt_add_string_borrowed(c->evt, c->inline_base + i, w, s->len, err)) !=
            GTR_OK)
            return st == GTR_E_NOMEM ? st : gtr_err_wrapf(err, "couldn't add strings");
        w += s->len + 1;
    }
    max += tr->ninline;
    /* The strings the converter emits. */
    if (max + (uint64_t)S_LAST < max)
        return gtr_err_setf(err, GTR_E_FORMAT, "trace contains too many strings");
    c->builtin_base = max + 1;
    for (unsigned k = 0; k < S_LAST; k++) {
        const char *s = builtin_strings[k];
        if ((st = gtr__evt_add_string_borrowed(c->evt, c->builtin_base + k, s, strlen(s),
                                               err)) != GTR_OK)
            return st == GTR_E_NOMEM ? st : gtr_err_wrapf(err, "couldn't add strings");
    }

    /* Stacks and frames. */
    for (size_t i = 0; i < tr->nstacks; i++) {
        const gtr__v1_stack *s = &tr->stacks[i];
        if ((st = gtr__evt_add_stack(c->evt, s->id, tr->pcs + s->off, s->n, err)) != GTR_OK)
            return st;
    }
    for (size_t i = 0; i < tr->nframes; i++) {
        const gtr__v1_frame *f = &tr->frames[i];
        gtr__frame tf = {f->pc, f->fn, f->file, f->line};
        if ((st = gtr__evt_add_frame(c->evt, &tf, err)) != GTR_OK)
            return st;
    }
    if ((st = gtr__evt_compactify(c->evt, err)) != GTR_OK)
        return st;
    gtr__v1_trace_release_tables(tr);
    return GTR_OK;
}

gtr_status gtr__v1_converter_new(const gtr_alloc *alc, gtr__v1_trace *tr,
                                 gtr__v1_converter **out, gtr_err *err)
{
    *out = NULL;
    gtr__v1_converter *c = gtr__calloc(alc, 1, sizeof *c);
    if (c == NULL) {
        gtr__v1_trace_free(tr);
        return nomem(err);
    }
    c->alc = alc;
    c->tr = *tr;
    memset(tr, 0, sizeof *tr);
    c->pre_init = true;
    c->last_ts = -1;
    gtr_status st = init(c, err);
    if (st != GTR_OK) {
        gtr__v1_converter_free(c);
        return st;
    }
    *out = c;
    return GTR_OK;
}

void gtr__v1_converter_free(gtr__v1_converter *c)
{
    if (c == NULL)
        return;
    const gtr_alloc *a = c->alc;
    gtr__v1_trace_free(&c->tr);
    gtr__evt_free(c->evt);
    gtr__free(a, c->strs);
    gtr__idmap_free(&c->created_map, a);
    gtr__free(a, c->created);
    gtr__free(a, c->created_live);
    gtr__free(a, c->extra);
    gtr__idmap_free(&c->task_map, a);
    gtr__free(a, c->tasks);
    gtr__idmap_free(&c->seen_procs, a);
    gtr__idmap_free(&c->procm_map, a);
    gtr__free(a, c->procms);
    gtr__free(a, c);
}

bool gtr__v1_converter_peek_time(const gtr__v1_converter *c, gtr_time *t)
{
    if (c->next >= c->tr.nevents)
        return false;
    *t = gtr__v1_time(&c->tr, c->tr.events[c->next].ts);
    return true;
}

const gtr__ev_table *gtr__v1_converter_table(const gtr__v1_converter *c)
{
    return c->evt;
}

gtr_time gtr__v1_converter_last_time(const gtr__v1_converter *c)
{
    return c->last_ts;
}

/* --- the small maps --- */

static void created_delete(gtr__v1_converter *c, uint64_t g)
{
    size_t v;
    if (c->created != NULL && gtr__idmap_get_index(&c->created_map, g, &v))
        c->created_live[v] = false;
}

static gtr_status created_add(gtr__v1_converter *c, uint64_t g, gtr_err *err)
{
    size_t idx;
    bool found;
    gtr_status st = slot(c->alc, &c->created_map, g, c->ncreated, &idx, &found, err);
    if (st != GTR_OK)
        return st;
    if (!found) {
        if (!GTR__GROW(c->alc, c->created, c->created_cap, c->ncreated + 1) ||
            !GTR__GROW(c->alc, c->created_live, c->created_live_cap, c->ncreated + 1))
            return nomem(err);
        c->created[idx] = g;
        c->ncreated++;
    }
    c->created_live[idx] = true;
    return GTR_OK;
}

/* proc_m_get: it.procMs[p] with its ok. */
static GTR__ALWAYS_INLINE bool proc_m_get(const gtr__v1_converter *c, int32_t p, gtr_threadid *m)
{
    size_t v;
    if (!gtr__idmap_get_index(&c->procm_map, (uint64_t)(int64_t)p, &v) || !c->procms[v].live)
        return false;
    *m = c->procms[v].m;
    return true;
}

/* proc_m_or_zero: it.procMs[p] without ok (0 when absent). */
static gtr_threadid proc_m_or_zero(const gtr__v1_converter *c, int32_t p)
{
    gtr_threadid m = 0;
    proc_m_get(c, p, &m);
    return m;
}

static gtr_status proc_m_set(gtr__v1_converter *c, int32_t p, gtr_threadid m, bool live,
                             gtr_err *err)
{
    size_t idx;
    bool found;
    if (gtr__idmap_put_index(&c->procm_map, c->alc, (uint64_t)(int64_t)p, c->nprocms, &idx,
                             &found) != GTR_OK)
        return nomem(err);
    if (!found) {
        if (!GTR__GROW(c->alc, c->procms, c->procms_cap, c->nprocms + 1))
            return nomem(err);
        c->nprocms++;
    }
    c->procms[idx].m = m;
    c->procms[idx].live = live;
    return GTR_OK;
}

/* seen_proc marks p seen; *seen tells whether it already was. */
static gtr_status seen_proc(gtr__v1_converter *c, int32_t p, bool *seen, gtr_err *err)
{
    size_t idx;
    gtr__idmap *m = &c->seen_procs;
    if (gtr__idmap_put_index(m, c->alc, (uint64_t)(int64_t)p, 0, &idx, seen) != GTR_OK)
        return nomem(err);
    return GTR_OK;
}

static gtr_status push_extra(gtr__v1_converter *c, const gtr_event *e, gtr_err *err)
{
    if (c->extra_head == c->nextra)
        c->extra_head = c->nextra = 0;
    if (!GTR__GROW(c->alc, c->extra, c->extra_cap, c->nextra + 1))
        return nomem(err);
    c->extra[c->nextra++] = *e;
    return GTR_OK;
}

static gtr_event make(const gtr__v1_converter *c, gtr_goid g, gtr_procid p, gtr_threadid m,
                      uint8_t type, gtr_time t, uint64_t a0, uint64_t a1, uint64_t a2,
                      uint64_t a3)
{
    gtr_event e = gtr__make_event(c->evt, g, p, m, type, t);
    e.args_[0] = a0;
    e.args_[1] = a1;
    e.args_[2] = a2;
    e.args_[3] = a3;
    return e;
}

/* set_header fills in e's table, G, P, M, type and time; its arguments are the caller's.
 * The converted event is written in place with it: built in a local (make) and copied out,
 * the copy's wide loads waited on the narrow stores just made to the local (a failed
 * store-to-load forward). */
static void set_header(const gtr__v1_converter *c, gtr_event *e, gtr_goid g, gtr_procid p,
                       gtr_threadid m, uint8_t type, gtr_time t)
{
    e->table_ = c->evt;
    e->g_ = g;
    e->p_ = p;
    e->m_ = m;
    e->type_ = type;
    e->time_ = t;
}

/* A result of convert_event: an event, or nothing (Go's errSkip). */
enum { CONVERTED, SKIPPED };

/* convert_event is convertEvent. The arguments are worked on where they end up, in
 * out->args_ (a). */
static gtr_status convert_event(gtr__v1_converter *c, const gtr__v1_event *ev, gtr_event *out,
                                int *res, gtr_err *err)
{
    uint8_t type = 0;
    uint64_t *a = out->args_;
    a[0] = ev->args[0];
    a[1] = ev->args[1];
    a[2] = ev->args[2];
    a[3] = ev->args[3];
    gtr_status st;
    *res = CONVERTED;

#define REASON(s) (c->builtin_base + (uint64_t)(s))
#define SET_ARGS(x0, x1, x2, x3) (a[0] = (x0), a[1] = (x1), a[2] = (x2), a[3] = (x3))

    switch (ev->type) {
    case GTR_V1_GOMAXPROCS:
        type = GTR_EV_PROCS_CHANGE;
        if (c->pre_init) {
            /* The first Gomaxprocs ends trace initialisation: the goroutines created before
             * it that no GoWaiting, GoInSyscall or GoStart described are _Gidle or
             * _Grunnable. */
            c->pre_init = false;
            for (size_t i = 0; i < c->ncreated; i++) {
                if (!c->created_live[i])
                    continue;
                gtr_event e = make(c, GTR_NO_GOROUTINE, GTR_NO_PROC, GTR_NO_THREAD,
                                   GTR_EV_GO_STATUS, ev->ts, c->created[i], UINT64_MAX,
                                   GTR_GSTATUS_RUNNABLE, 0);
                if ((st = push_extra(c, &e, err)) != GTR_OK)
                    return st;
            }
            c->ncreated = 0;
            gtr__idmap_free(&c->created_map, c->alc);
            gtr__free(c->alc, c->created);
            gtr__free(c->alc, c->created_live);
            c->created = NULL;
            c->created_live = NULL;
            c->created_cap = c->created_live_cap = 0;
            *res = SKIPPED;
            return GTR_OK;
        }
        break;
    case GTR_V1_PROC_START: {
        if ((st = proc_m_set(c, ev->p, (gtr_threadid)ev->args[0], true, err)) != GTR_OK)
            return st;
        bool seen;
        if ((st = seen_proc(c, ev->p, &seen, err)) != GTR_OK)
            return st;
        if (seen) {
            type = GTR_EV_PROC_START;
            SET_ARGS((uint64_t)(int64_t)ev->p, 0, 0, 0);
        } else {
            type = GTR_EV_PROC_STATUS;
            SET_ARGS((uint64_t)(int64_t)ev->p, GTR_PSTATUS_RUNNING, 0, 0);
        }
        break;
    }
    case GTR_V1_PROC_STOP: {
        bool seen;
        if ((st = seen_proc(c, ev->p, &seen, err)) != GTR_OK)
            return st;
        if (seen) {
            type = GTR_EV_PROC_STOP;
            SET_ARGS((uint64_t)(int64_t)ev->p, 0, 0, 0);
        } else {
            type = GTR_EV_PROC_STATUS;
            SET_ARGS((uint64_t)(int64_t)ev->p, GTR_PSTATUS_IDLE, 0, 0);
        }
        break;
    }
    case GTR_V1_GC_START:
        type = GTR_EV_GC_BEGIN;
        break;
    case GTR_V1_GC_DONE:
        type = GTR_EV_GC_END;
        break;
    case GTR_V1_STW_START: {
        uint64_t sid = REASON(S_STW_UNKNOWN + gtr__v1_stw_reason(c->tr.ver, ev->args[0]));
        c->last_stw_reason = sid;
        type = GTR_EV_STW_BEGIN;
        SET_ARGS(sid, 0, 0, 0);
        break;
    }
    case GTR_V1_STW_DONE:
        type = GTR_EV_STW_END;
        SET_ARGS(c->last_stw_reason, 0, 0, 0);
        break;
    case GTR_V1_GC_SWEEP_START:
        type = GTR_EV_GC_SWEEP_BEGIN;
        break;
    case GTR_V1_GC_SWEEP_DONE:
        type = GTR_EV_GC_SWEEP_END;
        break;
    case GTR_V1_GO_CREATE:
        if (c->pre_init) {
            *res = SKIPPED;
            return created_add(c, ev->args[0], err);
        }
        type = GTR_EV_GO_CREATE;
        break;
    case GTR_V1_GO_START:
        if (c->pre_init) {
            type = GTR_EV_GO_STATUS;
            SET_ARGS(ev->args[0], UINT64_MAX, GTR_GSTATUS_RUNNING, 0);
            created_delete(c, ev->args[0]);
        } else {
            type = GTR_EV_GO_START;
        }
        break;
    case GTR_V1_GO_START_LABEL: {
        gtr_threadid m = proc_m_or_zero(c, ev->p);
        gtr_event label = make(c, (gtr_goid)ev->g, ev->p, m, GTR_EV_GO_LABEL, ev->ts,
                               ev->args[2], 0, 0, 0);
        c->extra_head = c->nextra = 0; /* it.extra = []Event{...} */
        if ((st = push_extra(c, &label, err)) != GTR_OK)
            return st;
        set_header(c, out, (gtr_goid)ev->g, ev->p, m, GTR_EV_GO_START, ev->ts);
        return GTR_OK;
    }
    case GTR_V1_GO_END:
        type = GTR_EV_GO_DESTROY;
        break;
    case GTR_V1_GO_STOP:
        type = GTR_EV_GO_BLOCK;
        SET_ARGS(REASON(S_FOREVER), ev->stk, 0, 0);
        break;
    case GTR_V1_GO_SCHED:
        type = GTR_EV_GO_STOP;
        SET_ARGS(REASON(S_GOSCHED), ev->stk, 0, 0);
        break;
    case GTR_V1_GO_PREEMPT:
        type = GTR_EV_GO_STOP;
        SET_ARGS(REASON(S_PREEMPTED), ev->stk, 0, 0);
        break;
    case GTR_V1_GO_SLEEP:
        type = GTR_EV_GO_BLOCK;
        SET_ARGS(REASON(S_SLEEP), ev->stk, 0, 0);
        break;
    case GTR_V1_GO_BLOCK:
        type = GTR_EV_GO_BLOCK;
        SET_ARGS(REASON(S_EMPTY), ev->stk, 0, 0);
        break;
    case GTR_V1_GO_UNBLOCK:
        type = GTR_EV_GO_UNBLOCK;
        break;
    case GTR_V1_GO_BLOCK_SEND:
        type = GTR_EV_GO_BLOCK;
        SET_ARGS(REASON(S_CHAN_SEND), ev->stk, 0, 0);
        break;
    case GTR_V1_GO_BLOCK_RECV:
        type = GTR_EV_GO_BLOCK;
        SET_ARGS(REASON(S_CHAN_RECV), ev->stk, 0, 0);
        break;
    case GTR_V1_GO_BLOCK_SELECT:
        type = GTR_EV_GO_BLOCK;
        SET_ARGS(REASON(S_SELECT), ev->stk, 0, 0);
        break;
    case GTR_V1_GO_BLOCK_SYNC:
        type = GTR_EV_GO_BLOCK;
        SET_ARGS(REASON(S_SYNC), ev->stk, 0, 0);
        break;
    case GTR_V1_GO_BLOCK_COND:
        type = GTR_EV_GO_BLOCK;
        SET_ARGS(REASON(S_SYNC_COND), ev->stk, 0, 0);
        break;
    case GTR_V1_GO_BLOCK_NET:
        type = GTR_EV_GO_BLOCK;
        SET_ARGS(REASON(S_NETWORK), ev->stk, 0, 0);
        break;
    case GTR_V1_GO_BLOCK_GC:
        type = GTR_EV_GO_BLOCK;
        SET_ARGS(REASON(S_MARK_ASSIST_WAIT), ev->stk, 0, 0);
        break;
    case GTR_V1_GO_SYSCALL:
        /* The goroutine's next event tells whether the syscall blocked (parser.c's
         * syscall_marks found out once for all of them). */
        if (ev->sys_blocked) {
            type = GTR_EV_GO_SYSCALL_BEGIN;
            SET_ARGS(0, ev->stk, 0, 0);
        } else {
            /* The instantaneous old syscall becomes a begin and an end 1 ns later. */
            gtr_threadid m = proc_m_or_zero(c, ev->p);
            set_header(c, out, (gtr_goid)ev->g, ev->p, m, GTR_EV_GO_SYSCALL_BEGIN, ev->ts);
            SET_ARGS(0, ev->stk, 0, 0);
            gtr_event end = make(c, (gtr_goid)ev->g, ev->p, m, GTR_EV_GO_SYSCALL_END,
                                 (gtr_time)((uint64_t)ev->ts + 1), 0, 0, 0, 0);
            return push_extra(c, &end, err);
        }
        break;
    case GTR_V1_GO_SYS_EXIT:
        type = GTR_EV_GO_SYSCALL_END_BLOCKED;
        break;
    case GTR_V1_GO_SYS_BLOCK:
        *res = SKIPPED;
        return GTR_OK;
    case GTR_V1_GO_WAITING:
        type = GTR_EV_GO_STATUS;
        SET_ARGS(ev->args[0], UINT64_MAX, GTR_GSTATUS_WAITING, 0);
        created_delete(c, ev->args[0]);
        break;
    case GTR_V1_GO_IN_SYSCALL:
        /* v1 does not say which thread the syscall is on: NoThread. */
        type = GTR_EV_GO_STATUS;
        SET_ARGS(ev->args[0], UINT64_MAX, GTR_GSTATUS_SYSCALL, 0);
        created_delete(c, ev->args[0]);
        break;
    case GTR_V1_HEAP_ALLOC:
        type = GTR_EV_HEAP_ALLOC;
        break;
    case GTR_V1_HEAP_GOAL:
        type = GTR_EV_HEAP_GOAL;
        break;
    case GTR_V1_GC_MARK_ASSIST_START:
        type = GTR_EV_GC_MARK_ASSIST_BEGIN;
        break;
    case GTR_V1_GC_MARK_ASSIST_DONE:
        type = GTR_EV_GC_MARK_ASSIST_END;
        break;
    case GTR_V1_USER_TASK_CREATE: {
        type = GTR_EV_USER_TASK_BEGIN;
        uint64_t parent = ev->args[1] == 0 ? GTR_NO_TASK : ev->args[1];
        SET_ARGS(ev->args[0], parent, ev->args[2], ev->stk);
        gtr_str name = {"", 0};
        if (!gtr__evt_string(c->evt, ev->args[2], &name))
            name = (gtr_str){"", 0};
        size_t idx;
        bool found;
        if ((st = slot(c->alc, &c->task_map, ev->args[0], c->ntasks, &idx, &found, err)) !=
            GTR_OK)
            return st;
        if (!found) {
            if (!GTR__GROW(c->alc, c->tasks, c->tasks_cap, c->ntasks + 1))
                return nomem(err);
            c->ntasks++;
        }
        c->tasks[idx] = (task_state){name, ev->args[1], true};
        break;
    }
    case GTR_V1_USER_TASK_END: {
        type = GTR_EV_USER_TASK_END;
        /* Event.Task expects the parent and the name smuggled in as extra arguments. */
        size_t v;
        uint64_t sid;
        if (gtr__idmap_get_index(&c->task_map, ev->args[0], &v) && c->tasks[v].live) {
            c->tasks[v].live = false;
            if ((st = gtr__evt_add_extra_string(c->evt, c->tasks[v].name.data,
                                                c->tasks[v].name.len, &sid, err)) != GTR_OK)
                return st;
            SET_ARGS(ev->args[0], ev->args[1], c->tasks[v].parent, sid);
        } else {
            SET_ARGS(ev->args[0], ev->args[1], GTR_NO_TASK, 0);
        }
        break;
    }
    case GTR_V1_USER_REGION:
        if (ev->args[1] == 0)
            type = GTR_EV_USER_REGION_BEGIN;
        else if (ev->args[1] == 1)
            type = GTR_EV_USER_REGION_END;
        SET_ARGS(ev->args[0], ev->args[2], ev->stk, 0);
        break;
    case GTR_V1_USER_LOG:
        type = GTR_EV_USER_LOG;
        SET_ARGS(ev->args[0], ev->args[1], c->inline_base + ev->args[3], ev->stk);
        break;
    case GTR_V1_CPU_SAMPLE:
        /* CPU samples become (stack, M, P, G); Go 1.21 samples had no M. */
        type = GTR_EV_CPU_SAMPLE;
        SET_ARGS(ev->stk, UINT64_MAX, (uint64_t)(int64_t)ev->p, ev->g);
        break;
    default:
        /* Go: fmt.Errorf("unexpected event type %v", ev.Type) */
        return gtr_err_setf(err, GTR_E_FORMAT, "unexpected event type %u", (unsigned)ev->type);
    }
#undef REASON
#undef SET_ARGS

    if (gtr__v1_describe(ev->type)->stack) {
        const gtr_event_spec *spec = gtr_spec(type);
        if (spec->nstack_ids > 0)
            a[spec->stack_ids[0] - 1] = ev->stk;
    }
    gtr_threadid m = GTR_NO_THREAD;
    if (ev->p != -1 && ev->type != GTR_V1_CPU_SAMPLE) {
        gtr_threadid t;
        if (proc_m_get(c, ev->p, &t))
            m = t;
    }
    if (ev->type == GTR_V1_PROC_STOP && (st = proc_m_set(c, ev->p, 0, false, err)) != GTR_OK)
        return st;
    gtr_goid g = (gtr_goid)ev->g;
    if (g == 0)
        g = GTR_NO_GOROUTINE;
    set_header(c, out, g, ev->p, m, type, ev->ts);
    return GTR_OK;
}

gtr_status gtr__v1_converter_next(gtr__v1_converter *c, gtr_event *ev, gtr_err *err)
{
    for (;;) {
        if (c->extra_head < c->nextra) {
            *ev = c->extra[c->extra_head++];
        } else {
            if (c->next >= c->tr.nevents)
                return gtr_err_setf(err, GTR_EOF, "EOF");
            gtr__v1_event oev;
            gtr__v1_unpack_ns(&c->tr, &c->tr.events[c->next++], &oev);
            int res;
            gtr_status st = convert_event(c, &oev, ev, &res, err);
            if (st != GTR_OK)
                return st;
            if (res == SKIPPED)
                continue;
        }
        /* Two events may not share a timestamp in the new API, which GoStatus events
         * produce. */
        if (ev->time_ <= c->last_ts)
            ev->time_ = c->last_ts + 1;
        c->last_ts = ev->time_;
        return GTR_OK;
    }
}
