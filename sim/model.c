/* SPDX-License-Identifier: BSD-3-Clause */
/* model.c: the scheduler model behind gsim (see sim.h).
 *
 * The rules are those of Go's reader (internal/trace/order.go, Go 1.27.3), seen from the
 * runtime's side:
 * - a P is Idle, Running (bound to an M) or Syscall (bound to the M whose goroutine is in a
 *   syscall); ProcStart, ProcSteal and GoSyscallBegin carry the P's next sequence number;
 * - a G is Runnable, Running (on an M with a P), Syscall (on an M, with or without a P) or
 *   Waiting; GoStart, GoUnblock and GoSwitch carry the G's next sequence number;
 * - every generation opens with the status of every P and G (ProcStatus, GoStatus or
 *   GoStatusStack), which resets their sequence numbers, and with GCActive, GCSweepActive
 *   and GCMarkAssistActive for the ranges in flight, as the runtime does;
 * - each step picks one legal move (an action and its actors) from the choice source.
 * Event times strictly increase over the whole trace and every event is written to the
 * batch of the M it happened on, so the reader's min-timestamp merge meets the events in
 * the order the model made them; the record is that order, plus the events the reader
 * derives (GoSwitch: GoBlock or GoDestroy, and GoStart) and the Sync events. */
#include <string.h>

#include "emit.h"

enum { G_FREE = 0, G_RUNNABLE, G_RUNNING, G_SYSCALL, G_WAITING };
enum { P_IDLE = 0, P_RUNNING, P_SYSCALL, P_ABANDONED };   /* ABANDONED: its M dropped it */
#define MAX_REGIONS 4
#define MAX_TASKS 8
#define NONE_U64 UINT64_MAX   /* NoThread/NoProc/NoGoroutine on the wire */

typedef struct sim_g {
    uint64_t id;
    uint8_t st;
    int m;             /* Running, Syscall: the M */
    uint64_t seq;
    bool assist, stw;
    uint8_t nreg;
    uint64_t reg_task[MAX_REGIONS];
    uint8_t reg_name[MAX_REGIONS];
} sim_g;

typedef struct sim_p {
    uint8_t st;
    int m;             /* Running, Syscall: the M */
    uint64_t seq;
    bool sweep;
} sim_p;

typedef struct sim_m {
    int p;             /* -1: none */
    int g;             /* slot in gs, -1: none */
    bool remote;       /* this generation, its G's status comes from another M */
} sim_m;

struct gsim {
    gtr_alloc alc;
    gsim_config cfg;
    gsim_choice ch;
    emitter *em;
    gtr_err *err;
    gtr_status st;     /* sticky */
    gsim_record_fn rec;
    void *rec_ctx;
    bool ran;
    uint64_t now;
    gtr_time last_rec;
    uint64_t gen, gen_events, per_gen;
    uint64_t stws;     /* stop-the-world spans in flight: each owes an STWEnd */
    sim_g gs[GSIM_MAX_GOROUTINES];
    size_t nlive;
    uint64_t next_goid;
    sim_p *ps;
    unsigned nps, gomaxprocs;
    sim_m *ms;
    size_t nms;
    bool gc_active;
    uint64_t gc_seq;
    uint64_t next_task;
    uint64_t tasks[MAX_TASKS];
    unsigned ntasks;
    gsim_stats stats;
    unsigned sync_exp;   /* experimental batches of the Sync being recorded */
};

/* ---- configuration ---- */

void gsim_config_default(gsim_config *c)
{
    memset(c, 0, sizeof *c);
    c->version = GTR_GO126;
    c->events = 1000;
    c->gens = 3;
    c->procs = 4;
}

static uint64_t pick(gsim *s, uint64_t n)
{
    return n <= 1 ? 0 : s->ch.next(s->ch.ctx, n);
}

/* choose_events draws a count in 0..max spread over octaves: one of the octaves
 * [2^k - 1, 2^(k+1) - 1) that max reaches, each as likely as the others, then a count in it,
 * so that there are as many traces of 1-2 events as of 63-126 or of 511-1000. A fuzzer's
 * executions then mostly make short traces, which run many times faster, and now and then a
 * long one. */
static uint64_t choose_events(gsim_choice ch, uint64_t max)
{
    unsigned octaves = 0;   /* the octaves k = 0..octaves start at or below max */
    while (octaves < 62 && (UINT64_C(1) << (octaves + 1)) - 1 <= max)
        octaves++;
    uint64_t k = ch.next(ch.ctx, octaves + 1);
    uint64_t v = (UINT64_C(1) << k) - 1 + ch.next(ch.ctx, UINT64_C(1) << k);
    return v > max ? max : v;
}

void gsim_config_choose(gsim_config *c, gsim_choice ch, uint64_t max_events)
{
    static const gtr_go_version versions[] = {GTR_GO122, GTR_GO123, GTR_GO125, GTR_GO126};
    gsim_config_default(c);
    c->version = versions[ch.next(ch.ctx, 4)];
    c->procs = 1 + (unsigned)ch.next(ch.ctx, 8);
    if (ch.next(ch.ctx, 8) == 7)
        c->procs = 1 + (unsigned)ch.next(ch.ctx, 64);
    c->gens = 1 + ch.next(ch.ctx, 4);
    c->events = max_events != UINT64_MAX ? choose_events(ch, max_events) : max_events;
}

gtr_status gsim_new(const gsim_config *c, gsim_choice ch, const gtr_alloc *alc, gsim **out,
                    gtr_err *err)
{
    const gtr_alloc *a = alc != NULL ? alc : gtr_alloc_libc();
    gsim *s;

    *out = NULL;
    if (c->version != GTR_GO122 && c->version != GTR_GO123 && c->version != GTR_GO125 &&
        c->version != GTR_GO126)
        return gtr_err_setf(err, GTR_E_USAGE,
                            "gsim: unsupported version go1.%d (want 1.22, 1.23, 1.25 or 1.26)",
                            (int)c->version);
    if (c->procs < 1 || c->procs > GSIM_MAX_PROCS)
        return gtr_err_setf(err, GTR_E_USAGE, "gsim: procs %u out of range [1, %d]", c->procs,
                            GSIM_MAX_PROCS);
    if (c->gens < 1)
        return gtr_err_setf(err, GTR_E_USAGE, "gsim: at least one generation");
    if (ch.next == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gsim: no choice source");
    if ((s = a->malloc_fn(a->ctx, sizeof *s)) == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "gsim: out of memory");
    memset(s, 0, sizeof *s);
    s->alc = *a;
    s->cfg = *c;
    s->ch = ch;
    s->nps = c->procs;
    s->nms = 2 * (size_t)c->procs + 3;
    s->ps = a->malloc_fn(a->ctx, s->nps * sizeof *s->ps);
    s->ms = a->malloc_fn(a->ctx, s->nms * sizeof *s->ms);
    if (s->ps == NULL || s->ms == NULL) {
        gsim_free(s);
        return gtr_err_setf(err, GTR_E_NOMEM, "gsim: out of memory");
    }
    *out = s;
    return GTR_OK;
}

void gsim_free(gsim *s)
{
    if (s == NULL)
        return;
    emit_free(s->em);
    s->alc.free_fn(s->alc.ctx, s->ps);
    s->alc.free_fn(s->alc.ctx, s->ms);
    s->alc.free_fn(s->alc.ctx, s);
}

void gsim_get_stats(const gsim *s, gsim_stats *out)
{
    *out = s->stats;
    out->bytes = s->em != NULL ? emit_bytes(s->em) : 0;
}

/* ---- the record ---- */

/* The event context of thread mi as the reader sees it. */
typedef struct ctx {
    gtr_goid g;
    gtr_procid p;
    gtr_threadid m;
} ctx;

static ctx ctx_of(const gsim *s, size_t mi)
{
    const sim_m *m = &s->ms[mi];
    ctx c;
    c.g = m->g >= 0 ? (gtr_goid)s->gs[m->g].id : GTR_NO_GOROUTINE;
    c.p = m->p >= 0 ? (gtr_procid)m->p : GTR_NO_PROC;
    c.m = (gtr_threadid)mi;
    return c;
}

/* record passes one event to the record callback; ts is the raw timestamp, fixed up the way
 * Go's reader does (a time not after the previous one becomes previous+1). */
static void record_full(gsim *s, uint8_t type, gtr_time t, ctx c, uint8_t res_kind,
                        int64_t res_id, uint8_t from, uint8_t to)
{
    gsim_record r;
    if (t <= s->last_rec)
        t = s->last_rec + 1;
    s->last_rec = t;
    s->stats.records++;
    if (s->rec == NULL)
        return;
    memset(&r, 0, sizeof r);
    r.type = type;
    r.kind = gtr_event_type_kind(type);
    r.time = t;
    r.g = c.g;
    r.p = c.p;
    r.m = c.m;
    r.res_kind = res_kind;
    r.res_id = res_id;
    r.from = from;
    r.to = to;
    if (type == GTR_EV_SYNC_EVENT)
        r.exp_batches = s->sync_exp;
    s->rec(s->rec_ctx, &r);
}

static void record(gsim *s, uint8_t type, gtr_time t, ctx c)
{
    record_full(s, type, t, c, GTR_RESOURCE_NONE, 0, 0, 0);
}

static void record_g(gsim *s, uint8_t type, gtr_time t, ctx c, uint64_t g, uint8_t from,
                     uint8_t to)
{
    record_full(s, type, t, c, GTR_RESOURCE_GOROUTINE, (int64_t)g, from, to);
}

static void record_p(gsim *s, uint8_t type, gtr_time t, ctx c, unsigned p, uint8_t from,
                     uint8_t to)
{
    record_full(s, type, t, c, GTR_RESOURCE_PROC, (int64_t)p, from, to);
}

/* ---- emitting ---- */

static gtr_time ev(gsim *s, size_t mi, uint8_t type, const uint64_t *args, size_t nargs);

/* plain writes an event that changes no goroutine or proc state on thread mi and records it
 * with the thread's context. */
static void plain(gsim *s, size_t mi, uint8_t type, const uint64_t *args, size_t nargs)
{
    ctx c = ctx_of(s, mi);
    record(s, type, ev(s, mi, type, args, nargs), c);
}

static void tick(gsim *s)
{
    /* Steps of at least 3: the reader may fix derived events up to t+2. */
    s->now += 3 + (pick(s, 8) == 0 ? pick(s, 100000) : pick(s, 16));
}

/* ev writes a timed event on thread mi at the current time and returns that time in ns. */
static gtr_time ev(gsim *s, size_t mi, uint8_t type, const uint64_t *args, size_t nargs)
{
    uint64_t ts = s->now;
    if (s->st >= 0)
        s->st = emit_event(s->em, mi, type, ts, args, nargs);
    s->stats.events++;
    s->gen_events++;
    tick(s);
    return emit_ns(s->em, ts);
}

static uint64_t stack(gsim *s)
{
    unsigned depth, variant = (unsigned)pick(s, EMIT_STACK_VARIANTS);
    switch (pick(s, 8)) {
    case 0:
        depth = 0;
        break;
    case 1:
        depth = (unsigned)pick(s, GTR_MAX_FRAMES_PER_STACK + 1);
        break;
    case 2:
        depth = GTR_MAX_FRAMES_PER_STACK - (unsigned)pick(s, 2);
        break;
    default:
        depth = 1 + (unsigned)pick(s, 12);
        break;
    }
    if (depth > s->stats.max_stack)
        s->stats.max_stack = depth;
    return emit_stack(s->em, depth * EMIT_STACK_VARIANTS + variant);
}

static uint64_t str(gsim *s, unsigned base, unsigned n)
{
    return emit_string(s->em, base + (unsigned)pick(s, n));
}

/* ---- finding actors ---- */

typedef bool (*m_pred)(const gsim *s, size_t mi);

/* pick_m returns a random thread satisfying pred, or -1. */
static long pick_m(gsim *s, m_pred pred)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nms; i++)
        n += pred(s, i);
    if (n == 0)
        return -1;
    size_t k = (size_t)pick(s, n);
    for (size_t i = 0; i < s->nms; i++)
        if (pred(s, i) && k-- == 0)
            return (long)i;
    return -1;
}

/* pick_g returns a random goroutine slot in state st (not slot `not`), or -1. */
static int pick_g(gsim *s, uint8_t st, int not)
{
    size_t n = 0;
    for (int i = 0; i < GSIM_MAX_GOROUTINES; i++)
        n += s->gs[i].st == st && i != not;
    if (n == 0)
        return -1;
    size_t k = (size_t)pick(s, n);
    for (int i = 0; i < GSIM_MAX_GOROUTINES; i++)
        if (s->gs[i].st == st && i != not && k-- == 0)
            return i;
    return -1;
}

static int free_g(gsim *s)
{
    if (s->nlive >= GSIM_MAX_GOROUTINES)
        return -1;
    for (int i = 0; i < GSIM_MAX_GOROUTINES; i++)
        if (s->gs[i].st == G_FREE)
            return i;
    return -1;
}

static int new_g(gsim *s, uint8_t st, int m)
{
    int i = free_g(s);
    if (i < 0)
        return -1;
    memset(&s->gs[i], 0, sizeof s->gs[i]);
    s->gs[i].id = s->next_goid++;
    s->gs[i].st = st;
    s->gs[i].m = m;
    s->nlive++;
    s->stats.goroutines++;
    return i;
}

static void drop_g(gsim *s, int i)
{
    s->gs[i].st = G_FREE;
    s->nlive--;
}

static bool m_idle(const gsim *s, size_t mi)
{
    return s->ms[mi].p < 0 && s->ms[mi].g < 0;
}

static bool m_running_p(const gsim *s, size_t mi)   /* a Running P, no G or a running G */
{
    const sim_m *m = &s->ms[mi];
    return m->p >= 0 && s->ps[m->p].st == P_RUNNING &&
           (m->g < 0 || s->gs[m->g].st == G_RUNNING);
}

static bool m_p_no_g(const gsim *s, size_t mi)
{
    return m_running_p(s, mi) && s->ms[mi].g < 0;
}

static bool m_user(const gsim *s, size_t mi)   /* userGoReqs, G running */
{
    return m_running_p(s, mi) && s->ms[mi].g >= 0;
}

static bool m_user_free(const gsim *s, size_t mi)   /* may leave the M */
{
    return m_user(s, mi) && !s->gs[s->ms[mi].g].stw;
}

static bool m_syscall(const gsim *s, size_t mi)
{
    return s->ms[mi].g >= 0 && s->gs[s->ms[mi].g].st == G_SYSCALL;
}

static bool m_syscall_with_p(const gsim *s, size_t mi)
{
    return m_syscall(s, mi) && s->ms[mi].p >= 0 && s->ps[s->ms[mi].p].st == P_SYSCALL;
}

static bool m_syscall_lost_p(const gsim *s, size_t mi)   /* may exit blocked */
{
    return m_syscall(s, mi) &&
           (s->ms[mi].p < 0 || s->ps[s->ms[mi].p].st == P_RUNNING);
}

static bool m_may_start_p(const gsim *s, size_t mi)
{
    return s->ms[mi].p < 0 && (s->ms[mi].g < 0 || m_syscall(s, mi));
}

static bool m_unblocker(const gsim *s, size_t mi)
{
    return m_running_p(s, mi) || m_idle(s, mi);
}

static bool m_sweeping(const gsim *s, size_t mi)
{
    return m_running_p(s, mi) && s->ps[s->ms[mi].p].sweep;
}

static bool m_may_sweep(const gsim *s, size_t mi)
{
    return m_running_p(s, mi) && !s->ps[s->ms[mi].p].sweep;
}

static bool m_may_stop_p(const gsim *s, size_t mi)
{
    const sim_m *m = &s->ms[mi];
    return (m_p_no_g(s, mi) || m_syscall_with_p(s, mi)) && !s->ps[m->p].sweep;
}

/* pick_p returns a random P among the first n in state st, or -1. */
static int pick_p(gsim *s, uint8_t st, unsigned n)
{
    size_t count = 0;
    for (unsigned i = 0; i < n; i++)
        count += s->ps[i].st == st;
    if (count == 0)
        return -1;
    size_t k = (size_t)pick(s, count);
    for (unsigned i = 0; i < n; i++)
        if (s->ps[i].st == st && k-- == 0)
            return (int)i;
    return -1;
}

/* ---- actions: each tries one move and returns whether it made it ---- */

static bool a_proc_start(gsim *s)
{
    long mi = pick_m(s, m_may_start_p);
    int p = pick_p(s, P_IDLE, s->gomaxprocs);
    if (mi < 0 || p < 0)
        return false;
    ctx c = ctx_of(s, (size_t)mi);
    uint64_t a[2] = {(uint64_t)p, ++s->ps[p].seq};
    gtr_time t = ev(s, (size_t)mi, GTR_EV_PROC_START, a, 2);
    record_p(s, GTR_EV_PROC_START, t, c, (unsigned)p, GTR_PROC_IDLE, GTR_PROC_RUNNING);
    s->ps[p].st = P_RUNNING;
    s->ps[p].m = (int)mi;
    s->ms[mi].p = p;
    return true;
}

static bool a_proc_stop(gsim *s)
{
    long mi = pick_m(s, m_may_stop_p);
    if (mi < 0)
        return false;
    ctx c = ctx_of(s, (size_t)mi);
    int p = s->ms[mi].p;
    gtr_time t = ev(s, (size_t)mi, GTR_EV_PROC_STOP, NULL, 0);
    record_p(s, GTR_EV_PROC_STOP, t, c, (unsigned)p, GTR_PROC_RUNNING, GTR_PROC_IDLE);
    s->ps[p].st = P_IDLE;
    s->ps[p].m = -1;
    s->ms[mi].p = -1;
    return true;
}

static bool m_may_take_abandoned(const gsim *s, size_t mi)
{
    return m_idle(s, mi) || m_p_no_g(s, mi);
}

/* steal_abandoned: a P whose M left it in a syscall for good (GoDestroySyscall with a P) is
 * stolen by a thread that is idle or holds another P; the reader no longer checks the M it
 * names (the one that dropped it), and reports Idle -> Idle. */
static bool steal_abandoned(gsim *s)
{
    int p = pick_p(s, P_ABANDONED, s->nps);
    long mi = p >= 0 ? pick_m(s, m_may_take_abandoned) : -1;
    if (mi < 0)
        return false;
    ctx c = ctx_of(s, (size_t)mi);
    uint64_t a[3] = {(uint64_t)p, ++s->ps[p].seq, (uint64_t)s->ps[p].m};
    gtr_time t = ev(s, (size_t)mi, GTR_EV_PROC_STEAL, a, 3);
    record_p(s, GTR_EV_PROC_STEAL, t, c, (unsigned)p, GTR_PROC_IDLE, GTR_PROC_IDLE);
    s->ps[p].st = P_IDLE;
    s->ps[p].m = -1;
    return true;
}

static bool a_proc_steal(gsim *s)
{
    long victim, mi;
    if (pick(s, 3) == 0 && steal_abandoned(s))
        return true;
    victim = pick_m(s, m_syscall_with_p);
    if (victim < 0)
        return false;
    mi = pick(s, 4) == 0 ? victim : pick_m(s, m_idle);   /* self-steal now and then */
    if (mi < 0)
        return false;
    int p = s->ms[victim].p;
    ctx c = ctx_of(s, (size_t)mi);
    uint64_t a[3] = {(uint64_t)p, ++s->ps[p].seq, (uint64_t)victim};
    gtr_time t = ev(s, (size_t)mi, GTR_EV_PROC_STEAL, a, 3);
    record_p(s, GTR_EV_PROC_STEAL, t, c, (unsigned)p, GTR_PROC_RUNNING, GTR_PROC_IDLE);
    s->ps[p].st = P_IDLE;
    s->ps[p].m = -1;
    s->ms[victim].p = -1;
    return true;
}

static bool a_go_create(gsim *s)
{
    long mi = pick_m(s, m_running_p);
    bool blocked = s->cfg.version >= GTR_GO123 && pick(s, 4) == 0;
    if (mi < 0 || s->nlive >= GSIM_MAX_GOROUTINES)
        return false;
    ctx c = ctx_of(s, (size_t)mi);
    int g = new_g(s, blocked ? G_WAITING : G_RUNNABLE, -1);
    uint8_t type = blocked ? GTR_EV_GO_CREATE_BLOCKED : GTR_EV_GO_CREATE;
    uint64_t a[3] = {s->gs[g].id, stack(s), stack(s)};
    gtr_time t = ev(s, (size_t)mi, type, a, 3);
    record_g(s, type, t, c, s->gs[g].id, GTR_GO_NOT_EXIST,
             blocked ? GTR_GO_WAITING : GTR_GO_RUNNABLE);
    return true;
}

static bool a_go_start(gsim *s)
{
    long mi = pick_m(s, m_p_no_g);
    int g = pick_g(s, G_RUNNABLE, -1);
    if (mi < 0 || g < 0)
        return false;
    ctx c = ctx_of(s, (size_t)mi);
    uint64_t a[2] = {s->gs[g].id, ++s->gs[g].seq};
    gtr_time t = ev(s, (size_t)mi, GTR_EV_GO_START, a, 2);
    record_g(s, GTR_EV_GO_START, t, c, s->gs[g].id, GTR_GO_RUNNABLE, GTR_GO_RUNNING);
    s->gs[g].st = G_RUNNING;
    s->gs[g].m = (int)mi;
    s->ms[mi].g = g;
    return true;
}

/* GoStop, GoBlock, GoDestroy */
static bool a_go_leave(gsim *s)
{
    long mi = pick_m(s, m_user_free);
    if (mi < 0)
        return false;
    int g = s->ms[mi].g;
    ctx c = ctx_of(s, (size_t)mi);
    uint64_t id = s->gs[g].id;
    unsigned what = (unsigned)pick(s, 5);
    if (what == 0 && s->gs[g].assist)
        what = 1;
    if (what == 0) {
        gtr_time t = ev(s, (size_t)mi, GTR_EV_GO_DESTROY, NULL, 0);
        record_g(s, GTR_EV_GO_DESTROY, t, c, id, GTR_GO_RUNNING, GTR_GO_NOT_EXIST);
        drop_g(s, g);
    } else if (what <= 2) {
        uint64_t a[2] = {str(s, VOC_STOP, VOC_NSTOP), stack(s)};
        gtr_time t = ev(s, (size_t)mi, GTR_EV_GO_STOP, a, 2);
        record_g(s, GTR_EV_GO_STOP, t, c, id, GTR_GO_RUNNING, GTR_GO_RUNNABLE);
        s->gs[g].st = G_RUNNABLE;
    } else {
        uint64_t a[2] = {str(s, VOC_BLOCK, VOC_NBLOCK), stack(s)};
        gtr_time t = ev(s, (size_t)mi, GTR_EV_GO_BLOCK, a, 2);
        record_g(s, GTR_EV_GO_BLOCK, t, c, id, GTR_GO_RUNNING, GTR_GO_WAITING);
        s->gs[g].st = G_WAITING;
    }
    s->gs[g].m = -1;
    s->ms[mi].g = -1;
    return true;
}

static bool a_go_unblock(gsim *s)
{
    long mi = pick_m(s, m_unblocker);
    int g = pick_g(s, G_WAITING, -1);
    if (mi < 0 || g < 0)
        return false;
    ctx c = ctx_of(s, (size_t)mi);
    uint64_t a[3] = {s->gs[g].id, ++s->gs[g].seq, stack(s)};
    gtr_time t = ev(s, (size_t)mi, GTR_EV_GO_UNBLOCK, a, 3);
    record_g(s, GTR_EV_GO_UNBLOCK, t, c, s->gs[g].id, GTR_GO_WAITING, GTR_GO_RUNNABLE);
    s->gs[g].st = G_RUNNABLE;
    return true;
}

static bool m_may_syscall(const gsim *s, size_t mi)
{
    return m_user_free(s, mi) && !s->ps[s->ms[mi].p].sweep;
}

static bool a_syscall_begin(gsim *s)
{
    long mi = pick_m(s, m_may_syscall);
    if (mi < 0)
        return false;
    int g = s->ms[mi].g, p = s->ms[mi].p;
    ctx c = ctx_of(s, (size_t)mi);
    uint64_t a[2] = {++s->ps[p].seq, stack(s)};
    gtr_time t = ev(s, (size_t)mi, GTR_EV_GO_SYSCALL_BEGIN, a, 2);
    record_g(s, GTR_EV_GO_SYSCALL_BEGIN, t, c, s->gs[g].id, GTR_GO_RUNNING, GTR_GO_SYSCALL);
    s->gs[g].st = G_SYSCALL;
    s->ps[p].st = P_SYSCALL;
    return true;
}

static bool a_syscall_end(gsim *s)
{
    long mi = pick_m(s, m_syscall_with_p);
    if (mi < 0)
        return false;
    int g = s->ms[mi].g, p = s->ms[mi].p;
    ctx c = ctx_of(s, (size_t)mi);
    gtr_time t = ev(s, (size_t)mi, GTR_EV_GO_SYSCALL_END, NULL, 0);
    record_g(s, GTR_EV_GO_SYSCALL_END, t, c, s->gs[g].id, GTR_GO_SYSCALL, GTR_GO_RUNNING);
    s->gs[g].st = G_RUNNING;
    s->ps[p].st = P_RUNNING;
    return true;
}

static bool a_syscall_end_blocked(gsim *s)
{
    long mi = pick_m(s, m_syscall_lost_p);
    if (mi < 0)
        return false;
    int g = s->ms[mi].g;
    ctx c = ctx_of(s, (size_t)mi);
    gtr_time t = ev(s, (size_t)mi, GTR_EV_GO_SYSCALL_END_BLOCKED, NULL, 0);
    record_g(s, GTR_EV_GO_SYSCALL_END_BLOCKED, t, c, s->gs[g].id, GTR_GO_SYSCALL,
             GTR_GO_RUNNABLE);
    s->gs[g].st = G_RUNNABLE;
    s->gs[g].m = -1;
    s->ms[mi].g = -1;
    return true;
}

static bool m_bare_syscall(const gsim *s, size_t mi)
{
    return m_syscall(s, mi) && s->ms[mi].p < 0 && !s->gs[s->ms[mi].g].assist;
}

static bool m_syscall_p_no_assist(const gsim *s, size_t mi)
{
    return m_syscall_with_p(s, mi) && !s->gs[s->ms[mi].g].assist &&
           !s->ps[s->ms[mi].p].sweep;
}

/* destroy_syscall_with_p: a cgo callback's goroutine goes away while its M still holds the
 * P in a syscall. The reader drops the P (SyscallAbandoned) and queues a self-ProcSteal
 * before the GoDestroySyscall (go122-create-syscall-reuse-thread-id); the M, its thread ID
 * free for reuse, is idle. */
static bool destroy_syscall_with_p(gsim *s)
{
    long mi = pick_m(s, m_syscall_p_no_assist);
    if (mi < 0)
        return false;
    int g = s->ms[mi].g, p = s->ms[mi].p;
    ctx c = ctx_of(s, (size_t)mi);
    gtr_time t = ev(s, (size_t)mi, GTR_EV_GO_DESTROY_SYSCALL, NULL, 0);
    record_p(s, GTR_EV_PROC_STEAL, t, c, (unsigned)p, GTR_PROC_RUNNING, GTR_PROC_IDLE);
    record_g(s, GTR_EV_GO_DESTROY_SYSCALL, t, c, s->gs[g].id, GTR_GO_SYSCALL, GTR_GO_NOT_EXIST);
    drop_g(s, g);
    s->ps[p].st = P_ABANDONED;
    s->ps[p].m = (int)mi;   /* the thread it names in a later ProcSteal */
    s->ms[mi].g = -1;
    s->ms[mi].p = -1;
    return true;
}

/* cgo callbacks: GoCreateSyscall on a bare M, GoDestroySyscall on a bare M in a syscall. */
static bool a_cgo(gsim *s)
{
    long mi;
    if (pick(s, 4) == 0 && destroy_syscall_with_p(s))
        return true;
    if (pick(s, 2) == 0 && (mi = pick_m(s, m_bare_syscall)) >= 0) {
        int g = s->ms[mi].g;
        ctx c = ctx_of(s, (size_t)mi);
        gtr_time t = ev(s, (size_t)mi, GTR_EV_GO_DESTROY_SYSCALL, NULL, 0);
        record_g(s, GTR_EV_GO_DESTROY_SYSCALL, t, c, s->gs[g].id, GTR_GO_SYSCALL,
                 GTR_GO_NOT_EXIST);
        drop_g(s, g);
        s->ms[mi].g = -1;
        return true;
    }
    if ((mi = pick_m(s, m_idle)) < 0 || s->nlive >= GSIM_MAX_GOROUTINES)
        return false;
    ctx c = ctx_of(s, (size_t)mi);
    int g = new_g(s, G_SYSCALL, (int)mi);
    uint64_t a[1] = {s->gs[g].id};
    gtr_time t = ev(s, (size_t)mi, GTR_EV_GO_CREATE_SYSCALL, a, 1);
    record_g(s, GTR_EV_GO_CREATE_SYSCALL, t, c, s->gs[g].id, GTR_GO_NOT_EXIST, GTR_GO_SYSCALL);
    s->ms[mi].g = g;
    return true;
}

static bool a_gc(gsim *s)
{
    long mi = pick_m(s, m_user);
    if (mi < 0)
        return false;
    if (!s->gc_active) {
        uint64_t a[2] = {++s->gc_seq, stack(s)};
        plain(s, (size_t)mi, GTR_EV_GC_BEGIN, a, 2);
    } else {
        uint64_t a[1] = {++s->gc_seq};
        plain(s, (size_t)mi, GTR_EV_GC_END, a, 1);
    }
    s->gc_active = !s->gc_active;
    return true;
}

/* budget_left: n more events fit in --events with the STWEnds owed (s->stws, written by
 * gen_end if not before; every action writes one event, an STWBegin owes a second), so that
 * the trace ends with exactly c.events. */
static bool budget_left(const gsim *s, uint64_t n)
{
    return s->stats.events + s->stws + n <= s->cfg.events;
}

static bool a_stw(gsim *s)
{
    long mi = pick_m(s, m_user);
    if (mi < 0)
        return false;
    sim_g *g = &s->gs[s->ms[mi].g];
    if (!g->stw && !budget_left(s, 2))
        return false;
    if (!g->stw) {
        uint64_t a[2] = {str(s, VOC_STW, VOC_NSTW), stack(s)};
        plain(s, (size_t)mi, GTR_EV_STW_BEGIN, a, 2);
        s->stws++;
    } else {
        plain(s, (size_t)mi, GTR_EV_STW_END, NULL, 0);
        s->stws--;
    }
    g->stw = !g->stw;
    return true;
}

static bool a_assist(gsim *s)
{
    long mi = pick_m(s, m_user);
    if (mi < 0)
        return false;
    sim_g *g = &s->gs[s->ms[mi].g];
    if (!g->assist) {
        uint64_t a[1] = {stack(s)};
        if (!s->gc_active)
            return false;
        plain(s, (size_t)mi, GTR_EV_GC_MARK_ASSIST_BEGIN, a, 1);
    } else {
        plain(s, (size_t)mi, GTR_EV_GC_MARK_ASSIST_END, NULL, 0);
    }
    g->assist = !g->assist;
    return true;
}

static bool a_sweep(gsim *s)
{
    long mi;
    if (pick(s, 2) == 0 && (mi = pick_m(s, m_sweeping)) >= 0) {
        uint64_t a[2] = {pick(s, 1000), pick(s, 1u << 20)};
        plain(s, (size_t)mi, GTR_EV_GC_SWEEP_END, a, 2);
        s->ps[s->ms[mi].p].sweep = false;
        return true;
    }
    if ((mi = pick_m(s, m_may_sweep)) < 0)
        return false;
    uint64_t a[1] = {stack(s)};
    plain(s, (size_t)mi, GTR_EV_GC_SWEEP_BEGIN, a, 1);
    s->ps[s->ms[mi].p].sweep = true;
    return true;
}

static bool a_heap(gsim *s)
{
    long mi = pick_m(s, m_running_p);
    if (mi < 0)
        return false;
    ctx c = ctx_of(s, (size_t)mi);
    uint8_t type = pick(s, 2) ? GTR_EV_HEAP_ALLOC : GTR_EV_HEAP_GOAL;
    uint64_t a[1] = {pick(s, UINT64_C(1) << 40)};
    record(s, type, ev(s, (size_t)mi, type, a, 1), c);
    return true;
}

static bool a_procs_change(gsim *s)
{
    long mi = pick_m(s, m_user);
    if (mi < 0)
        return false;
    s->gomaxprocs = 1 + (unsigned)pick(s, s->nps);
    uint64_t a[2] = {s->gomaxprocs, stack(s)};
    plain(s, (size_t)mi, GTR_EV_PROCS_CHANGE, a, 2);
    return true;
}

static uint64_t some_task(gsim *s)
{
    unsigned k = (unsigned)pick(s, s->ntasks + 1);
    return k == s->ntasks ? 0 : s->tasks[k];
}

/* Labels, tasks, regions and logs. A move that cannot be made (too many tasks, no region
 * to end, ...) becomes the next one, down to a log, which always can. */
static bool a_annotate(gsim *s)
{
    long mi = pick_m(s, m_user);
    if (mi < 0)
        return false;
    sim_g *g = &s->gs[s->ms[mi].g];
    unsigned what = (unsigned)pick(s, 6);
    if (what == 0) {
        uint64_t a[1] = {str(s, VOC_LABEL, VOC_NLABEL)};
        plain(s, (size_t)mi, GTR_EV_GO_LABEL, a, 1);
        return true;
    }
    if (what == 1 && s->ntasks < MAX_TASKS) {
        uint64_t a[4] = {s->next_task, some_task(s), str(s, VOC_TASK, VOC_NTASK), stack(s)};
        s->tasks[s->ntasks++] = s->next_task++;
        plain(s, (size_t)mi, GTR_EV_USER_TASK_BEGIN, a, 4);
        return true;
    }
    if (what <= 2 && s->ntasks != 0) {
        unsigned k = (unsigned)pick(s, s->ntasks);
        uint64_t a[2] = {s->tasks[k], stack(s)};
        s->tasks[k] = s->tasks[--s->ntasks];
        plain(s, (size_t)mi, GTR_EV_USER_TASK_END, a, 2);
        return true;
    }
    if (what == 3 && g->nreg < MAX_REGIONS) {
        uint64_t task = some_task(s);
        uint8_t name = (uint8_t)pick(s, VOC_NREGION);
        uint64_t a[3] = {task, emit_string(s->em, VOC_REGION + name), stack(s)};
        g->reg_task[g->nreg] = task;
        g->reg_name[g->nreg++] = name;
        plain(s, (size_t)mi, GTR_EV_USER_REGION_BEGIN, a, 3);
        return true;
    }
    if (what <= 4 && g->nreg != 0) {
        g->nreg--;
        uint64_t a[3] = {g->reg_task[g->nreg],
                         emit_string(s->em, VOC_REGION + g->reg_name[g->nreg]), stack(s)};
        plain(s, (size_t)mi, GTR_EV_USER_REGION_END, a, 3);
        return true;
    }
    uint64_t a[4] = {some_task(s), str(s, VOC_KEY, VOC_NKEY), str(s, VOC_VALUE, VOC_NVALUE),
                     stack(s)};
    plain(s, (size_t)mi, GTR_EV_USER_LOG, a, 4);
    return true;
}

/* Coroutine switches (go1.23+): GoSwitch or GoSwitchDestroy to a waiting goroutine. */
static bool a_switch(gsim *s)
{
    if (s->cfg.version < GTR_GO123)
        return false;
    long mi = pick_m(s, m_user_free);
    if (mi < 0)
        return false;
    int cur = s->ms[mi].g, next = pick_g(s, G_WAITING, cur);
    if (next < 0)
        return false;
    bool destroy = pick(s, 3) == 0 && !s->gs[cur].assist;
    uint8_t type = destroy ? GTR_EV_GO_SWITCH_DESTROY : GTR_EV_GO_SWITCH;
    ctx c = ctx_of(s, (size_t)mi);
    uint64_t a[2] = {s->gs[next].id, ++s->gs[next].seq};
    uint64_t curid = s->gs[cur].id;
    gtr_time t = ev(s, (size_t)mi, type, a, 2);
    record_g(s, type, t, c, s->gs[next].id, GTR_GO_WAITING, GTR_GO_RUNNABLE);
    if (destroy) {
        record_g(s, GTR_EV_GO_DESTROY, t, c, curid, GTR_GO_RUNNING, GTR_GO_NOT_EXIST);
        drop_g(s, cur);
    } else {
        record_g(s, GTR_EV_GO_BLOCK, t, c, curid, GTR_GO_RUNNING, GTR_GO_WAITING);
        s->gs[cur].st = G_WAITING;
        s->gs[cur].m = -1;
    }
    ctx sc = c;
    sc.g = GTR_NO_GOROUTINE;
    record_g(s, GTR_EV_GO_START, t, sc, s->gs[next].id, GTR_GO_RUNNABLE, GTR_GO_RUNNING);
    s->gs[next].st = G_RUNNING;
    s->gs[next].m = (int)mi;
    s->ms[mi].g = next;
    return true;
}

static bool a_sample(gsim *s)
{
    if (emit_samples_full(s->em))
        return false;
    size_t mi = (size_t)pick(s, s->nms);
    ctx c = ctx_of(s, mi);
    uint64_t ts = s->now;
    if (s->st >= 0)
        s->st = emit_sample(s->em, ts, (uint64_t)c.m, (uint64_t)c.p, (uint64_t)c.g, stack(s));
    record(s, GTR_EV_CPU_SAMPLE, emit_ns(s->em, ts), c);
    tick(s);
    return true;
}

/* The AllocFree experiment (go1.26): span, heap object and goroutine stack events on any
 * thread. */
static bool a_allocfree(gsim *s)
{
    static const uint8_t types[] = {
        GTR_EV_SPAN, GTR_EV_SPAN_ALLOC, GTR_EV_SPAN_FREE,
        GTR_EV_HEAP_OBJECT, GTR_EV_HEAP_OBJECT_ALLOC, GTR_EV_HEAP_OBJECT_FREE,
        GTR_EV_GOROUTINE_STACK, GTR_EV_GOROUTINE_STACK_ALLOC, GTR_EV_GOROUTINE_STACK_FREE,
    };
    if (s->cfg.version < GTR_GO126)
        return false;
    size_t mi = (size_t)pick(s, s->nms);
    uint8_t type = types[pick(s, sizeof types)];
    uint64_t a[3] = {0x7f0000000000u + pick(s, 1u << 20) * 8192u, 1 + pick(s, 64), pick(s, 136)};
    ctx c = ctx_of(s, mi);
    size_t nargs = gtr_spec(type)->nargs - 1u;
    record(s, type, ev(s, mi, type, a, nargs), c);
    return true;
}

typedef bool (*action_fn)(gsim *s);
static const struct {
    action_fn fn;
    unsigned weight;
} actions[] = {
    {a_proc_start, 6}, {a_proc_stop, 3},   {a_proc_steal, 3}, {a_go_create, 5},
    {a_go_start, 10},  {a_go_leave, 8},    {a_go_unblock, 6}, {a_syscall_begin, 5},
    {a_syscall_end, 3}, {a_syscall_end_blocked, 3}, {a_cgo, 1}, {a_gc, 1},
    {a_stw, 1},        {a_assist, 2},      {a_sweep, 2},      {a_heap, 2},
    {a_procs_change, 1}, {a_annotate, 5},  {a_switch, 2},     {a_sample, 2},
    {a_allocfree, 2},
};
enum { NACTIONS = sizeof actions / sizeof actions[0] };

/* step makes one move: a weighted random action, retried a few times when it cannot move,
 * then every action in turn. */
static void step(gsim *s)
{
    unsigned total = 0, k;
    size_t i = 0;
    for (i = 0; i < NACTIONS; i++)
        total += actions[i].weight;
    for (int tries = 0; tries < 4; tries++) {
        k = (unsigned)pick(s, total);
        for (i = 0; k >= actions[i].weight; i++)
            k -= actions[i].weight;
        if (actions[i].fn(s))
            return;
    }
    for (size_t n = 1; n < NACTIONS; n++)
        if (actions[(i + n) % NACTIONS].fn(s))
            return;
    /* Nothing could move (not seen: some P is idle or held): end the generation, whose
     * successor starts with statuses, so the run always ends. */
    s->gen_events = s->per_gen;
}

/* ---- generations ---- */

static uint8_t gstatus(uint8_t st)
{
    switch (st) {
    case G_RUNNABLE: return GTR_GSTATUS_RUNNABLE;
    case G_RUNNING: return GTR_GSTATUS_RUNNING;
    case G_SYSCALL: return GTR_GSTATUS_SYSCALL;
    default: return GTR_GSTATUS_WAITING;
    }
}

static uint8_t gstate(uint8_t st)
{
    switch (st) {
    case G_RUNNABLE: return GTR_GO_RUNNABLE;
    case G_RUNNING: return GTR_GO_RUNNING;
    case G_SYSCALL: return GTR_GO_SYSCALL;
    default: return GTR_GO_WAITING;
    }
}

/* status_g writes goroutine slot g's status on thread mi. */
static void status_g(gsim *s, size_t mi, int g, ctx c)
{
    sim_g *sg = &s->gs[g];
    bool first = s->gen == 1;
    uint64_t m = sg->st == G_RUNNING || sg->st == G_SYSCALL ? (uint64_t)sg->m : NONE_U64;
    uint64_t a[4] = {sg->id, m, gstatus(sg->st), 0};
    uint8_t type = GTR_EV_GO_STATUS;
    if (s->cfg.version >= GTR_GO123 && pick(s, 2) == 0) {
        type = GTR_EV_GO_STATUS_STACK;
        a[3] = stack(s);
    }
    gtr_time t = ev(s, mi, type, a, type == GTR_EV_GO_STATUS ? 3 : 4);
    record_g(s, type, t, c, sg->id, first ? GTR_GO_UNDETERMINED : gstate(sg->st), gstate(sg->st));
    sg->seq = 0;
}

static void status_p(gsim *s, size_t mi, unsigned p, ctx c)
{
    sim_p *sp = &s->ps[p];
    uint8_t status = sp->st == P_RUNNING     ? GTR_PSTATUS_RUNNING
                     : sp->st == P_SYSCALL   ? GTR_PSTATUS_SYSCALL
                     : sp->st == P_ABANDONED ? GTR_PSTATUS_SYSCALL_ABANDONED
                                             : GTR_PSTATUS_IDLE;
    uint8_t state = sp->st == P_RUNNING || sp->st == P_SYSCALL ? GTR_PROC_RUNNING : GTR_PROC_IDLE;
    uint64_t a[2] = {p, status};
    gtr_time t = ev(s, mi, GTR_EV_PROC_STATUS, a, 2);
    record_p(s, GTR_EV_PROC_STATUS, t, c, p, s->gen == 1 ? GTR_PROC_UNDETERMINED : state, state);
    sp->seq = 0;
}

/* initial_state sets up generation 1's world: each P idle, running (maybe with a running
 * goroutine) or in a syscall with its goroutine; some goroutines runnable or waiting; some
 * sitting in a syscall on a bare M. The last M stays idle. */
static void initial_state(gsim *s)
{
    size_t mi = 0;
    s->gomaxprocs = s->nps;
    s->next_goid = 1 + pick(s, 4);
    s->next_task = 1 + pick(s, 3);
    s->gc_seq = pick(s, 100);
    for (size_t i = 0; i < s->nms; i++)
        s->ms[i].p = s->ms[i].g = -1;
    for (int i = 0; i < GSIM_MAX_GOROUTINES; i++)
        s->gs[i].st = G_FREE;
    for (unsigned p = 0; p < s->nps; p++) {
        sim_p *sp = &s->ps[p];
        unsigned k = p == 0 ? 1 : (unsigned)pick(s, 4);
        memset(sp, 0, sizeof *sp);
        sp->m = -1;
        if (k == 0)
            continue;
        sp->m = (int)mi;
        s->ms[mi].p = (int)p;
        if (k == 3) {
            sp->st = P_SYSCALL;
            s->ms[mi].g = new_g(s, G_SYSCALL, (int)mi);
        } else {
            sp->st = P_RUNNING;
            if (k == 1)
                s->ms[mi].g = new_g(s, G_RUNNING, (int)mi);
        }
        mi++;
    }
    for (unsigned n = (unsigned)pick(s, 3); n > 0 && mi + 1 < s->nms; n--, mi++)
        s->ms[mi].g = new_g(s, G_SYSCALL, (int)mi);
    for (unsigned n = (unsigned)pick(s, 10); n > 0; n--)
        new_g(s, pick(s, 2) ? G_RUNNABLE : G_WAITING, -1);
    s->gc_active = pick(s, 4) == 0;
}

static void gen_begin(gsim *s)
{
    const size_t idle_m = s->nms - 1;
    bool first = s->gen == 1;
    s->gen_events = 0;
    unsigned nexp = s->cfg.version >= GTR_GO123 ? (unsigned)pick(s, 3) : 0;
    if (s->st >= 0)
        s->st = emit_gen_begin(s->em, s->gen, s->now, INT64_C(1700000000) + (int64_t)s->gen);
    /* Experimental batches (AllocFree, opaque to the reader: they ride on the Sync). */
    for (unsigned i = 0; i < nexp && s->st >= 0; i++) {
        uint8_t data[64];
        size_t len = (size_t)pick(s, sizeof data + 1);
        for (size_t j = 0; j < len; j++)
            data[j] = (uint8_t)pick(s, 256);
        s->st = emit_exp_batch(s->em, pick(s, s->nms), data, len);
    }
    s->sync_exp = nexp;
    record(s, GTR_EV_SYNC_EVENT, emit_ns(s->em, s->now),
           (ctx){GTR_NO_GOROUTINE, GTR_NO_PROC, GTR_NO_THREAD});
    s->sync_exp = 0;
    s->now += 2;
    /* Executing resources on their own M: the P first, then the goroutine. In the first
     * generation the reader learns the binding from these very events. */
    for (size_t mi = 0; mi < s->nms; mi++) {
        sim_m *m = &s->ms[mi];
        ctx c = ctx_of(s, mi);
        if (first)
            c.g = GTR_NO_GOROUTINE, c.p = GTR_NO_PROC;
        if (m->p >= 0 && s->ps[m->p].st != P_IDLE) {
            status_p(s, mi, (unsigned)m->p, c);
            c.p = m->p;
        }
        /* A goroutine sitting in a syscall on a bare M may have its status written by
         * another M (go122-syscall-steal-proc-sitting-in-syscall), below. */
        m->remote = m->p < 0 && m->g >= 0 && s->gs[m->g].st == G_SYSCALL && pick(s, 2) == 0;
        if (m->g >= 0 && !m->remote)
            status_g(s, mi, m->g, c);
    }
    /* The rest from an M: the idle one in the first generation, any later. */
    size_t sm = first ? idle_m : (size_t)pick(s, s->nms);
    for (size_t mi = 0; mi < s->nms; mi++) {
        if (!s->ms[mi].remote)
            continue;
        s->ms[mi].remote = false;
        ctx c = ctx_of(s, sm);
        if (sm != mi) {
            /* The event is the named M's: its goroutine (already bound to it after the
             * first generation), the writer's P. */
            c.m = (gtr_threadid)mi;
            if (!first)
                c.g = (gtr_goid)s->gs[s->ms[mi].g].id;
        } else if (first) {
            c.g = GTR_NO_GOROUTINE;
        }
        status_g(s, sm, s->ms[mi].g, c);
    }
    for (unsigned p = 0; p < s->nps; p++)
        if (s->ps[p].st == P_IDLE || s->ps[p].st == P_ABANDONED)
            status_p(s, sm, p, ctx_of(s, sm));
    for (int g = 0; g < GSIM_MAX_GOROUTINES; g++)
        if (s->gs[g].st == G_RUNNABLE || s->gs[g].st == G_WAITING)
            status_g(s, sm, g, ctx_of(s, sm));
    /* Ranges in flight. */
    if (s->gc_active) {
        long mi = first ? (long)sm : pick_m(s, m_user);
        if (mi >= 0) {
            uint64_t a[1] = {++s->gc_seq};
            plain(s, (size_t)mi, GTR_EV_GC_ACTIVE, a, 1);
        }
    }
    for (unsigned p = 0; p < s->nps; p++)
        if (s->ps[p].sweep) {
            uint64_t a[1] = {p};
            plain(s, sm, GTR_EV_GC_SWEEP_ACTIVE, a, 1);
        }
    for (int g = 0; g < GSIM_MAX_GOROUTINES; g++)
        if (s->gs[g].st != G_FREE && s->gs[g].assist) {
            uint64_t a[1] = {s->gs[g].id};
            plain(s, sm, GTR_EV_GC_MARK_ASSIST_ACTIVE, a, 1);
        }
}

static void gen_end(gsim *s)
{
    /* No stop-the-world spans a generation boundary (the runtime's traceAdvance cannot
     * overlap one), and an STW's kind string is only valid in its own generation. */
    for (size_t mi = 0; mi < s->nms; mi++) {
        int g = s->ms[mi].g;
        if (g >= 0 && s->gs[g].stw) {
            plain(s, mi, GTR_EV_STW_END, NULL, 0);
            s->gs[g].stw = false;
            s->stws--;
        }
    }
    if (s->st >= 0)
        s->st = emit_gen_end(s->em);
    s->stats.gens++;
    s->now += 3;
}

gtr_status gsim_run(gsim *s, gtr_sink sink, gsim_record_fn rec, void *rec_ctx, gtr_err *err)
{
    uint64_t freq;
    if (s->ran)
        return gtr_err_setf(err, GTR_E_USAGE, "gsim: gsim_run called twice");
    s->ran = true;
    s->err = err;
    s->rec = rec;
    s->rec_ctx = rec_ctx;
    freq = pick(s, 2) ? UINT64_C(1000000000) : UINT64_C(15625000);
    if ((s->st = emit_new(&s->alc, s->cfg.version, s->cfg.text, sink, s->nms, freq, &s->em,
                          err)) < 0)
        return s->st;
    s->per_gen = s->cfg.events / s->cfg.gens + (s->cfg.events % s->cfg.gens != 0);
    if (s->per_gen > GSIM_MAX_GEN_EVENTS)
        s->per_gen = GSIM_MAX_GEN_EVENTS;
    if (s->per_gen == 0)
        s->per_gen = 1;
    s->now = 1000 + pick(s, 1000);
    s->last_rec = 0;
    initial_state(s);
    for (s->gen = 1; s->st >= 0; s->gen++) {
        gen_begin(s);
        while (s->st >= 0 && s->gen_events < s->per_gen && budget_left(s, 1))
            step(s);
        gen_end(s);
        if (s->stats.events >= s->cfg.events && s->gen >= s->cfg.gens)
            break;
    }
    if (s->st >= 0)
        s->st = emit_finish(s->em);
    if (s->st >= 0) {
        /* The reader's final Sync. */
        record(s, GTR_EV_SYNC_EVENT, s->last_rec, (ctx){GTR_NO_GOROUTINE, GTR_NO_PROC,
                                                        GTR_NO_THREAD});
    }
    return s->st;
}
