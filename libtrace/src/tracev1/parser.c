/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/internal/tracev1/parser.go at go1.27.3: the parser of Go
 * 1.11-1.21 execution traces.
 *
 * Go's steps, in order:
 * 1. One pass over the whole input records where each P's batches start and how many
 *    events each holds, and parses the CPU samples (collect_batches).
 * 2. A second pass loads the batches P by P and merges them into one stream: the frontier
 *    holds the first unmerged event of every P that is ready (its goroutine is in the state
 *    the event needs); the one with the lowest timestamp is merged next (merge_batches).
 *    GoSysExit events then get their real timestamps and the stream is sorted stably.
 * 3. Timestamps become nanoseconds since the first event; timer unblocks and syscall exits
 *    move to fake Ps.
 * 4. post_process checks the stream (a P runs one G at a time, a G is blocked before it is
 *    unblocked, ...) and restores GoStart stacks.
 *
 * Memory: the input is kept (strings point into it); events are 64-byte structs in one
 * array reserved once with the event count of step 1 (untouched pages cost nothing); the
 * per-P batch buffers are reused. Every length read from the input is checked against the
 * bytes left before it is used, so truncation anywhere is an error, never a crash.
 *
 * Go iterates a map to order the Ps of step 2, so the order in which it merges events with
 * equal timestamps varies from run to run; gotrace takes the Ps in the order their first
 * batch appears (one of Go's possible outcomes, the same every time). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtr/raw.h"
#include "gtr/sort.h"

#include "../batch.h"
#include "../compiler.h"
#include "../mem.h"
#include "tracev1.h"

/* EventDescriptions. */
static const gtr__v1_desc descs[GTR_V1_COUNT] = {
    [GTR_V1_NONE] = {"None", 5, false, 0, {0}},
    [GTR_V1_BATCH] = {"Batch", 5, false, 2, {"p", "ticks"}},
    [GTR_V1_FREQUENCY] = {"Frequency", 5, false, 1, {"freq"}},
    [GTR_V1_STACK] = {"Stack", 5, false, 2, {"id", "siz"}},
    [GTR_V1_GOMAXPROCS] = {"Gomaxprocs", 5, true, 1, {"procs"}},
    [GTR_V1_PROC_START] = {"ProcStart", 5, false, 1, {"thread"}},
    [GTR_V1_PROC_STOP] = {"ProcStop", 5, false, 0, {0}},
    [GTR_V1_GC_START] = {"GCStart", 5, true, 1, {"seq"}},
    [GTR_V1_GC_DONE] = {"GCDone", 5, false, 0, {0}},
    [GTR_V1_STW_START] = {"GCSTWStart", 5, false, 1, {"kindid"}},
    [GTR_V1_STW_DONE] = {"GCSTWDone", 5, false, 0, {0}},
    [GTR_V1_GC_SWEEP_START] = {"GCSweepStart", 5, true, 0, {0}},
    [GTR_V1_GC_SWEEP_DONE] = {"GCSweepDone", 5, false, 2, {"swept", "reclaimed"}},
    [GTR_V1_GO_CREATE] = {"GoCreate", 5, true, 2, {"g", "stack"}},
    [GTR_V1_GO_START] = {"GoStart", 5, false, 2, {"g", "seq"}},
    [GTR_V1_GO_END] = {"GoEnd", 5, false, 0, {0}},
    [GTR_V1_GO_STOP] = {"GoStop", 5, true, 0, {0}},
    [GTR_V1_GO_SCHED] = {"GoSched", 5, true, 0, {0}},
    [GTR_V1_GO_PREEMPT] = {"GoPreempt", 5, true, 0, {0}},
    [GTR_V1_GO_SLEEP] = {"GoSleep", 5, true, 0, {0}},
    [GTR_V1_GO_BLOCK] = {"GoBlock", 5, true, 0, {0}},
    [GTR_V1_GO_UNBLOCK] = {"GoUnblock", 5, true, 2, {"g", "seq"}},
    [GTR_V1_GO_BLOCK_SEND] = {"GoBlockSend", 5, true, 0, {0}},
    [GTR_V1_GO_BLOCK_RECV] = {"GoBlockRecv", 5, true, 0, {0}},
    [GTR_V1_GO_BLOCK_SELECT] = {"GoBlockSelect", 5, true, 0, {0}},
    [GTR_V1_GO_BLOCK_SYNC] = {"GoBlockSync", 5, true, 0, {0}},
    [GTR_V1_GO_BLOCK_COND] = {"GoBlockCond", 5, true, 0, {0}},
    [GTR_V1_GO_BLOCK_NET] = {"GoBlockNet", 5, true, 0, {0}},
    [GTR_V1_GO_SYSCALL] = {"GoSysCall", 5, true, 0, {0}},
    [GTR_V1_GO_SYS_EXIT] = {"GoSysExit", 5, false, 3, {"g", "seq", "ts"}},
    [GTR_V1_GO_SYS_BLOCK] = {"GoSysBlock", 5, false, 0, {0}},
    [GTR_V1_GO_WAITING] = {"GoWaiting", 5, false, 1, {"g"}},
    [GTR_V1_GO_IN_SYSCALL] = {"GoInSyscall", 5, false, 1, {"g"}},
    [GTR_V1_HEAP_ALLOC] = {"HeapAlloc", 5, false, 1, {"mem"}},
    [GTR_V1_HEAP_GOAL] = {"HeapGoal", 5, false, 1, {"mem"}},
    [GTR_V1_TIMER_GOROUTINE] = {"TimerGoroutine", 5, false, 1, {"g"}},
    [GTR_V1_FUTILE_WAKEUP] = {"FutileWakeup", 5, false, 0, {0}},
    [GTR_V1_STRING] = {"String", 7, false, 0, {0}},
    [GTR_V1_GO_START_LOCAL] = {"GoStartLocal", 7, false, 1, {"g"}},
    [GTR_V1_GO_UNBLOCK_LOCAL] = {"GoUnblockLocal", 7, true, 1, {"g"}},
    [GTR_V1_GO_SYS_EXIT_LOCAL] = {"GoSysExitLocal", 7, false, 2, {"g", "ts"}},
    [GTR_V1_GO_START_LABEL] = {"GoStartLabel", 8, false, 3, {"g", "seq", "labelid"}},
    [GTR_V1_GO_BLOCK_GC] = {"GoBlockGC", 8, true, 0, {0}},
    [GTR_V1_GC_MARK_ASSIST_START] = {"GCMarkAssistStart", 9, true, 0, {0}},
    [GTR_V1_GC_MARK_ASSIST_DONE] = {"GCMarkAssistDone", 9, false, 0, {0}},
    [GTR_V1_USER_TASK_CREATE] = {"UserTaskCreate", 11, true, 3, {"taskid", "pid", "typeid"}},
    [GTR_V1_USER_TASK_END] = {"UserTaskEnd", 11, true, 1, {"taskid"}},
    [GTR_V1_USER_REGION] = {"UserRegion", 11, true, 3, {"taskid", "mode", "typeid"}},
    [GTR_V1_USER_LOG] = {"UserLog", 11, true, 2, {"id", "keyid"}},
    [GTR_V1_CPU_SAMPLE] = {"CPUSample", 19, true, 3, {"ts", "p", "g"}},
};

const gtr__v1_desc *gtr__v1_describe(uint8_t t)
{
    return &descs[t < GTR_V1_COUNT ? t : GTR_V1_NONE];
}

void gtr__v1_event_string(const gtr__v1_event *ev, gtr_buf *b)
{
    const gtr__v1_desc *d = gtr__v1_describe(ev->type);
    gtr_buf_printf(b, "%" PRId64 " %s p=%" PRId32 " g=%" PRIu64 " stk=%" PRIu32, ev->ts,
                   d->name, ev->p, ev->g, ev->stk);
    for (unsigned i = 0; i < d->nargs; i++)
        gtr_buf_printf(b, " %s=%" PRIu64, d->args[i], ev->args[i]);
}

uint64_t gtr__v1_stw_reason(gtr_go_version ver, uint64_t kind)
{
    if (ver < 21)
        return kind == 0 || kind == 1 ? kind + 1 : 0;
    if (ver == 21)
        return kind < 17 ? kind : 0;
    return 0;
}

/* to_wide stores e's G, arguments, stack and P in a new row of the wide table and makes
 * *out (type, flags and time already set) point to it. */
static gtr_status to_wide(gtr__v1_trace *t, uint64_t g, const uint64_t args[4], uint32_t stk,
                          int32_t p, gtr__v1_packed *out)
{
    if (t->nwide >= UINT32_MAX || !GTR__GROW(t->alc, t->wide, t->wide_cap, t->nwide + 1))
        return GTR_E_NOMEM;
    gtr__v1_wide *w = &t->wide[t->nwide];
    w->g = g;
    memcpy(w->args, args, sizeof w->args);
    w->stk = stk;
    w->p = p;
    out->a0 = (uint32_t)t->nwide++;
    out->a1 = 0;
    out->tfg = (out->tfg & 0xffu) | GTR_V1_F_WIDE << 6;
    out->sp = 0;
    return GTR_OK;
}

gtr_status gtr__v1_pack(gtr__v1_trace *t, const gtr__v1_event *e, gtr__v1_packed *out)
{
    unsigned flags = e->sys_blocked ? GTR_V1_F_SYS_BLOCKED : 0;
    uint32_t pcode = gtr__v1_pcode(e->p);
    if (e->g <= GTR__V1_G_MAX && e->args[0] <= UINT32_MAX && e->args[1] <= UINT32_MAX &&
        e->args[2] == 0 && e->args[3] == 0 && e->stk <= GTR__V1_STK_MAX &&
        pcode != GTR__V1_PCODE_BAD) {
        gtr__v1_pnarrow(out, e->ts, e->type, flags, (uint32_t)e->g, (uint32_t)e->args[0],
                        (uint32_t)e->args[1], e->stk, pcode);
        return GTR_OK;
    }
    gtr__v1_pnarrow(out, e->ts, e->type, flags, 0, 0, 0, 0, 0);
    return to_wide(t, e->g, e->args, e->stk, e->p, out);
}

gtr_status gtr__v1_pset_p_stk(gtr__v1_trace *t, gtr__v1_packed *e, int32_t p, uint32_t stk)
{
    if (gtr__v1_pwide(e)) {
        t->wide[e->a0].p = p;
        t->wide[e->a0].stk = stk;
        return GTR_OK;
    }
    uint32_t pcode = gtr__v1_pcode(p);
    if (stk <= GTR__V1_STK_MAX && pcode != GTR__V1_PCODE_BAD) {
        e->sp = stk | pcode << 24;
        return GTR_OK;
    }
    uint64_t args[4] = {e->a0, e->a1, 0, 0};
    return to_wide(t, e->tfg >> 8, args, stk, p, e);
}

/* --------------------------------------------------------------------------------------
 * Parser state.
 * -------------------------------------------------------------------------------------- */

#define MAX_RAW_ARGS 2048   /* a length-prefixed argument list is at most 2048 bytes */

typedef struct batch_off {
    size_t off;
    size_t nevents;
} batch_off;

/* One P's batches (Go's batchOffsets[pid]); head is how many loadBatch consumed. */
typedef struct plist {
    int32_t pid;
    batch_off *b;
    size_t n, cap, head;
} plist;

typedef struct proc {
    int32_t pid;
    gtr__v1_packed *ev;   /* the remaining events of the current batch */
    size_t nev;
    gtr__v1_packed *buf;  /* buffer for reading batches into */
    size_t cap;
    bool done;
    /* The head event's stateTransition, once computed (head_known). */
    bool head_known;
    uint64_t head_g;
    size_t head_slot;   /* head_g's slot in the merge's goroutine states (ordered heads) */
    gtr__v1_gstate head_init, head_next;
    /* In the merge's available Ps, found not ready, and its goroutine's state unchanged
     * since: Go's scan would find it not ready again (merge_batches skips it). */
    bool waiting;
} proc;

typedef struct raw_event {
    uint8_t typ;
    uint64_t *args;
    size_t nargs;
    bool has_sarg;
    size_t sarg_off, sarg_len;   /* UserLog's value string, in data */
    int32_t batch_pid;
    size_t batch_off;
} raw_event;

typedef gtr__idmap slotmap;   /* an ID -> its index (idmap.h) */

typedef struct parser {
    const gtr_alloc *alc;
    gtr__v1_trace *t;
    gtr_go_version ver;
    const uint8_t *data;
    size_t len, off;
    gtr_err *err;

    slotmap pids;   /* pid -> index into plists */
    plist *plists;
    size_t nplists, plists_cap;

    slotmap strids;  /* string id -> index into t->strings */
    size_t strings_cap;
    uint32_t *inl_hash;  /* open addressing over t->inline_strings, UINT32_MAX empty */
    size_t inl_hash_cap, inline_cap;
    slotmap stackids; /* stack id -> index into t->stacks */
    size_t stacks_cap, pcs_cap;
    slotmap pcids;        /* pc -> index into t->frames */
    size_t frames_cap;
    gtr__idmap timer_goids;   /* a set: the index is 0 */
    int64_t ticks_per_sec;

    gtr__v1_event *cpu;
    size_t ncpu, cpu_cap;
    gtr__v1_packed *cpu_packed;   /* the samples, sorted, for the profile P */

    uint64_t args[MAX_RAW_ARGS + 8];

    /* parseEvent's state */
    int64_t last_ts;
    uint64_t last_g;
    slotmap last_gs_map; /* P -> index into last_gs */
    uint64_t *last_gs;
    size_t nlast_gs, last_gs_cap;
    int32_t last_p;

    size_t total_events; /* sum of the batches' event counts (an upper bound) */
    bool plain_ok[256];  /* by an event's first byte: read_plain_event may read it */
    bool pack_ok[256];   /* ... and parse_plain_packed may take it (load_plain_run) */
} parser;

static gtr_status nomem(parser *p)
{
    return gtr_err_setf(p->err, GTR_E_NOMEM, "out of memory");
}

static gtr_status eof(parser *p)
{
    return gtr_err_setf(p->err, GTR_EOF, "EOF");
}

/* Go: errors.New("malformatted base-128 varint") */
static gtr_status malformed(parser *p)
{
    return gtr_err_setf(p->err, GTR_E_FORMAT, "malformatted base-128 varint");
}

/* Go's ErrTimeOrder. */
static gtr_status time_order(parser *p)
{
    return gtr_err_setf(p->err, GTR_E_FORMAT, "time stamps out of order");
}

/* slot_get/slot_put: the ID -> index maps, failures as nomem. */
static bool slot_get(const slotmap *m, uint64_t key, size_t *idx)
{
    return gtr__idmap_get_index(m, key, idx);
}

static inline gtr_status slot_put(parser *p, slotmap *m, uint64_t key, size_t next,
                                  size_t *idx, bool *found)
{
    if (gtr__idmap_put_index(m, p->alc, key, next, idx, found) != GTR_OK)
        return nomem(p);
    return GTR_OK;
}

static void slotmap_free(const gtr_alloc *alc, slotmap *m)
{
    gtr__idmap_free(m, alc);
}

/* read_val is readVal. */
static gtr_status read_val(parser *p, uint64_t *v)
{
    int n = gtr__uvarint(p->data + p->off, p->len - p->off, v);
    if (n <= 0)
        return malformed(p);
    p->off += (size_t)n;
    return GTR_OK;
}

/* discard is discard(n). */
static bool discard(parser *p, uint64_t n)
{
    if (n > (uint64_t)(p->len - p->off))
        return false;
    p->off += (size_t)n;
    return true;
}

/* read_full is readFull(n): fails (io.ErrUnexpectedEOF) also for n == 0 at the end. */
static bool read_full(parser *p, size_t n, size_t *start)
{
    if (p->off >= p->len || n > p->len - p->off)
        return false;
    *start = p->off;
    p->off += n;
    return true;
}

static gtr_status push_arg(parser *p, raw_event *ev, uint64_t v)
{
    if (ev->nargs >= MAX_RAW_ARGS + 8)
        return gtr_err_setf(p->err, GTR_E_FORMAT, "too many arguments"); /* unreachable */
    ev->args[ev->nargs++] = v;
    return GTR_OK;
}

/* add_string stores string id (readRawEvent's EvString without skipStrings). */
static gtr_status add_string(parser *p, uint64_t id, size_t off, size_t len)
{
    gtr__v1_trace *t = p->t;
    size_t idx;
    bool found;
    gtr_status st = slot_put(p, &p->strids, id, t->nstrings, &idx, &found);
    if (st != GTR_OK)
        return st;
    if (found)
        /* Go: fmt.Errorf("string has duplicate id %d", id) */
        return gtr_err_setf(p->err, GTR_E_FORMAT, "string has duplicate id %" PRIu64, id);
    if (!GTR__GROW(p->alc, t->strings, p->strings_cap, t->nstrings + 1))
        return nomem(p);
    t->strings[t->nstrings++] = (gtr__v1_str){id, off, len};
    return GTR_OK;
}

#define SKIP_ARGS 1u
#define SKIP_STRINGS 2u

/* plain_byte_ok is read_plain_event's test of an event's first byte, for p->plain_ok: a type
 * it may read, with at most 3 inline arguments. */
static bool plain_byte_ok(gtr_go_version ver, uint8_t b)
{
    uint8_t typ = (uint8_t)(b & 0x3f);
    unsigned narg = (unsigned)(b >> 6) + 1;
    return !(narg > 3 || typ == GTR_V1_NONE || typ >= GTR_V1_COUNT || typ == GTR_V1_STRING ||
             typ == GTR_V1_BATCH || typ == GTR_V1_CPU_SAMPLE || descs[typ].min_version > ver);
}

/* plain_type: p->plain_ok's verdict on b, and the argument count in *narg. */
static inline bool plain_type(const parser *p, uint8_t b, unsigned *narg)
{
    *narg = (unsigned)(b >> 6) + 1;
    return p->plain_ok[b];
}

/* read_plain_event is read_raw_event for the common case, in both passes: an event of a known
 * type, not a string, a batch header or a CPU sample (collect_batches checks their
 * arguments), with at most 3 inline arguments that are well-formed varints. It fills ev and
 * returns true; for anything else it reads nothing and returns false, and read_raw_event
 * takes the event, its errors included. */
static inline bool read_plain_event(parser *p, raw_event *ev)
{
    size_t off = p->off;
    if (off >= p->len)
        return false;
    uint8_t b = p->data[off];
    uint8_t typ = (uint8_t)(b & 0x3f);
    unsigned narg;
    if (!plain_type(p, b, &narg))
        return false;
    off++;
    for (unsigned i = 0; i < narg; i++) {
        int n = gtr__uvarint(p->data + off, p->len - off, &p->args[i]);
        if (n <= 0)
            return false;
        off += (size_t)n;
    }
    p->off = off;
    ev->typ = typ;
    ev->args = p->args;
    ev->nargs = narg;
    ev->has_sarg = false;
    ev->sarg_off = ev->sarg_len = 0;
    ev->batch_pid = 0;
    ev->batch_off = 0;
    return true;
}

/* skip_plain_event is read_plain_event for a caller that only counts the event: when its
 * arguments end within the 8 bytes after the type byte, they are stepped over with one
 * word read (a byte below 0x80 ends a varint) instead of decoded. Otherwise, or where the
 * byte order is not little-endian, read_plain_event reads it. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* plain_word_skip: the length of a plain event's narg varint arguments, read as one 8-byte
 * word from after_type (the byte after its type byte), when all of them end within the
 * word; else 0. The caller makes sure 8 bytes are there. */
static inline size_t plain_word_skip(const uint8_t *after_type, unsigned narg)
{
    uint64_t w;
    memcpy(&w, after_type, sizeof w);
    uint64_t ends = ~w & UINT64_C(0x8080808080808080);
    /* Drop the ends of the first narg-1 varints (narg is 1 to 3; 0 stays 0). */
    if (narg > 1)
        ends &= ends - 1;
    if (narg > 2)
        ends &= ends - 1;
    return ends != 0 ? (size_t)__builtin_ctzll(ends) / 8 + 1 : 0;
}
#endif

static inline bool skip_plain_event(parser *p, raw_event *raw)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    size_t off = p->off, n;
    unsigned narg;
    if (off < p->len && p->len - off >= 9 && plain_type(p, p->data[off], &narg) &&
        (n = plain_word_skip(p->data + off + 1, narg)) != 0) {
        p->off = off + 1 + n;
        return true;
    }
#endif
    return read_plain_event(p, raw);
}

/* skip_plain_run is skip_plain_event's word read over a run of events: it steps over the
 * plain events from p->off on whose arguments end within their 8-byte word, and returns how
 * many it stepped over. The offset stays in a register meanwhile (stored back to p->off
 * once, not once an event). It stops short of the first event it cannot step over so. */
static size_t skip_plain_run(parser *p)
{
    size_t n = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    size_t off = p->off;
    const size_t len = p->len;
    const uint8_t *data = p->data;
    unsigned narg;
    size_t k;
    while (off < len && len - off >= 9 && plain_type(p, data[off], &narg) &&
           (k = plain_word_skip(data + off + 1, narg)) != 0) {
        off += 1 + k;
        n++;
    }
    p->off = off;
#else
    (void)p;
#endif
    return n;
}

/* read_raw_event is readRawEvent: GTR_EOF at the end of the input ("EOF"). */
static gtr_status read_raw_event(parser *p, unsigned flags, raw_event *ev)
{
    gtr_status st;
    /* Read event type and number of arguments (1 byte). */
    if (p->off >= p->len)
        return eof(p);
    uint8_t b = p->data[p->off++];
    uint8_t typ = (uint8_t)(b & 0x3f);
    /* Most events have a timestamp before the arguments: add 1 and read it as the first
     * argument. 3 on the wire (narg 4) means the arguments are length-prefixed. */
    unsigned narg = (unsigned)(b >> 6) + 1;
    if (typ == GTR_V1_NONE || typ >= GTR_V1_COUNT || descs[typ].min_version > p->ver)
        /* Go: fmt.Errorf("unknown event type %d", typ) */
        return gtr_err_setf(p->err, GTR_E_FORMAT, "unknown event type %u", (unsigned)typ);

    memset(ev, 0, sizeof *ev);
    ev->args = p->args;
    switch (typ) {
    case GTR_V1_STRING: {
        /* String dictionary entry [ID, length, string]. */
        uint64_t id, ln;
        if (flags & SKIP_STRINGS) {
            if (read_val(p, &id) != GTR_OK)
                return malformed(p);
            if ((st = read_val(p, &ln)) != GTR_OK)
                return st;
            if (!discard(p, ln))
                return gtr_err_setf(p->err, GTR_E_FORMAT, "failed to read trace: EOF");
        } else {
            if ((st = read_val(p, &id)) != GTR_OK)
                return st;
            if (id == 0)
                return gtr_err_setf(p->err, GTR_E_FORMAT, "string has invalid id 0");
            size_t idx;
            if (slot_get(&p->strids, id, &idx))
                return gtr_err_setf(p->err, GTR_E_FORMAT, "string has duplicate id %" PRIu64,
                                    id);
            if ((st = read_val(p, &ln)) != GTR_OK)
                return st;
            if (ln == 0)
                return gtr_err_setf(p->err, GTR_E_FORMAT, "string has invalid length 0");
            if (ln > 1000000)
                /* Go: fmt.Errorf("string has too large length %d", ln) */
                return gtr_err_setf(p->err, GTR_E_FORMAT, "string has too large length %" PRIu64,
                                    ln);
            size_t start;
            if (!read_full(p, (size_t)ln, &start))
                return gtr_err_setf(p->err, GTR_E_FORMAT,
                                    "failed to read trace: unexpected EOF");
            if ((st = add_string(p, id, start, (size_t)ln)) != GTR_OK)
                return st;
        }
        ev->typ = GTR_V1_NONE;
        return GTR_OK;
    }
    case GTR_V1_BATCH: {
        if (narg != 2)
            /* Go: fmt.Errorf("EvBatch has wrong number of arguments: got %d, want %d", ...) */
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "EvBatch has wrong number of arguments: got %u, want 2", narg);
        size_t off = p->off - 1; /* the batch starts at its type byte */
        uint64_t pid, v;
        if ((st = read_val(p, &pid)) != GTR_OK)
            return st;
        if (pid != UINT64_MAX && pid > INT32_MAX)
            /* Go formats uint64(math.MaxUint) as the maximum here. */
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "processor ID %" PRIu64 " is larger than maximum of %" PRIu64,
                                pid, UINT64_MAX);
        if ((st = read_val(p, &v)) != GTR_OK)
            return st;
        ev->typ = GTR_V1_BATCH;
        ev->batch_pid = pid == UINT64_MAX ? -1 : (int32_t)pid;
        ev->batch_off = off;
        ev->args[0] = pid;
        ev->args[1] = v;
        ev->nargs = 2;
        return GTR_OK;
    }
    default:
        break;
    }

    ev->typ = typ;
    if (narg <= 3) {
        for (unsigned i = 0; i < narg; i++) {
            uint64_t v;
            if (read_val(p, &v) != GTR_OK)
                /* Go: fmt.Errorf("failed to read event %d argument: %w", typ, err) */
                return gtr_err_setf(p->err, GTR_E_FORMAT,
                                    "failed to read event %u argument: malformatted base-128 "
                                    "varint",
                                    (unsigned)typ);
            if (!(flags & SKIP_ARGS) && (st = push_arg(p, ev, v)) != GTR_OK)
                return st;
        }
        return GTR_OK;
    }
    /* More than 3 arguments: the first value is the length of the rest in bytes. */
    uint64_t v;
    if (read_val(p, &v) != GTR_OK)
        return gtr_err_setf(p->err, GTR_E_FORMAT,
                            "failed to read event %u argument: malformatted base-128 varint",
                            (unsigned)typ);
    if (v > 2048)
        return gtr_err_setf(p->err, GTR_E_FORMAT,
                            "failed to read event %u argument: length-prefixed argument too "
                            "big: %" PRIu64 " bytes, limit is 2048",
                            (unsigned)typ, v);
    if (!(flags & SKIP_ARGS) || typ == GTR_V1_CPU_SAMPLE) {
        size_t start;
        if (!read_full(p, (size_t)v, &start))
            return gtr_err_setf(p->err, GTR_E_FORMAT, "failed to read trace: unexpected EOF");
        size_t end = start + (size_t)v;
        while (start < end) {
            uint64_t a;
            int n = gtr__uvarint(p->data + start, end - start, &a);
            if (n <= 0)
                return malformed(p);
            start += (size_t)n;
            if ((st = push_arg(p, ev, a)) != GTR_OK)
                return st;
        }
    } else if (!discard(p, v)) {
        return gtr_err_setf(p->err, GTR_E_FORMAT, "failed to read trace: EOF");
    }
    if (typ == GTR_V1_USER_LOG) {
        /* UserLog records are followed by a value string. */
        uint64_t sz;
        if (!(flags & SKIP_ARGS)) {
            if ((st = read_val(p, &sz)) != GTR_OK)
                return st;
            ev->has_sarg = true;
            if (sz == 0)
                return GTR_OK;
            if (sz > 1000000)
                /* Go: fmt.Errorf("string is too large (len=%d)", sz) */
                return gtr_err_setf(p->err, GTR_E_FORMAT, "string is too large (len=%" PRIu64 ")",
                                    sz);
            size_t start;
            if (!read_full(p, (size_t)sz, &start))
                return gtr_err_setf(p->err, GTR_E_FORMAT,
                                    "failed to read trace: unexpected EOF");
            ev->sarg_off = start;
            ev->sarg_len = (size_t)sz;
        } else {
            if ((st = read_val(p, &sz)) != GTR_OK)
                return st;
            if (!discard(p, sz))
                return eof(p);   /* a bare io.EOF: the first pass just ends */
        }
    }
    return GTR_OK;
}

/* arg_num is rawEvent.argNum. */
static size_t arg_num(const raw_event *raw)
{
    const gtr__v1_desc *d = &descs[raw->typ];
    if (raw->typ == GTR_V1_STACK)
        return raw->nargs;
    size_t narg = d->nargs + (d->stack ? 1 : 0);
    if (raw->typ == GTR_V1_BATCH || raw->typ == GTR_V1_FREQUENCY ||
        raw->typ == GTR_V1_TIMER_GOROUTINE)
        return narg;
    return narg + 1; /* timestamp */
}

/* --------------------------------------------------------------------------------------
 * Step 1: collectBatchesAndCPUSamples.
 * -------------------------------------------------------------------------------------- */

static plist *plist_of(parser *p, int32_t pid)
{
    size_t idx;
    if (!slot_get(&p->pids, (uint64_t)(int64_t)pid, &idx))
        return NULL;
    return &p->plists[idx];
}

static gtr_status collect_batches(parser *p)
{
    raw_event raw;
    int32_t cur_p = 0;
    /* The current P's list while it has one (indexes are stable; the array may move). */
    size_t cur_idx = SIZE_MAX;
    gtr_status st;
    for (;;) {
        /* The common case skips read_raw_event: the arguments are stepped over, a run of
         * events at a time, and counted in a register. */
        if (cur_idx != SIZE_MAX) {
            size_t n = skip_plain_run(p);
            if (skip_plain_event(p, &raw))
                n++;
            if (n > 0) {
                p->plists[cur_idx].b[p->plists[cur_idx].n - 1].nevents += n;
                p->total_events += n;
                continue;
            }
        }
        st = read_raw_event(p, SKIP_ARGS | SKIP_STRINGS, &raw);
        if (st == GTR_EOF)
            break;
        if (st != GTR_OK)
            return st;
        if (raw.typ == GTR_V1_NONE)
            continue;
        if (raw.typ == GTR_V1_BATCH) {
            size_t idx;
            bool found;
            if ((st = slot_put(p, &p->pids, (uint64_t)(int64_t)raw.batch_pid, p->nplists, &idx,
                               &found)) != GTR_OK)
                return st;
            if (!found) {
                if (!GTR__GROW(p->alc, p->plists, p->plists_cap, p->nplists + 1))
                    return nomem(p);
                memset(&p->plists[idx], 0, sizeof p->plists[idx]);
                p->plists[idx].pid = raw.batch_pid;
                p->nplists++;
            }
            plist *l = &p->plists[idx];
            if (!GTR__GROW(p->alc, l->b, l->cap, l->n + 1))
                return nomem(p);
            l->b[l->n++] = (batch_off){raw.batch_off, 0};
            cur_p = raw.batch_pid;
            cur_idx = idx;
        }
        plist *l = plist_of(p, cur_p);
        if (l == NULL || l->n == 0)
            /* Go: fmt.Errorf("read event %d with current P of %d, but P has no batches
             * yet", raw.typ, curP) */
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "read event %u with current P of %" PRId32
                                ", but P has no batches yet",
                                (unsigned)raw.typ, cur_p);
        l->b[l->n - 1].nevents++;
        p->total_events++;

        if (raw.typ == GTR_V1_CPU_SAMPLE) {
            size_t narg = arg_num(&raw);
            if (raw.nargs != narg)
                return gtr_err_setf(p->err, GTR_E_FORMAT,
                                    "CPU sample has wrong number of arguments: want %zu, got %zu",
                                    narg, raw.nargs);
            gtr__v1_event e;
            memset(&e, 0, sizeof e);
            e.type = raw.typ;
            for (size_t i = 1; i < narg; i++) {
                if (i == narg - 1)
                    e.stk = (uint32_t)raw.args[i];
                else
                    e.args[i - 1] = raw.args[i];
            }
            e.ts = (int64_t)e.args[0];
            e.p = (int32_t)e.args[1];
            e.g = e.args[2];
            e.args[0] = 0;
            /* Samples are written after the fact by a separate goroutine: they stay in
             * their own batch until the merge, sorted by the signal handler's time. */
            if (!GTR__GROW(p->alc, p->cpu, p->cpu_cap, p->ncpu + 1))
                return nomem(p);
            p->cpu[p->ncpu++] = e;
        }
    }
    return GTR_OK;
}

/* --------------------------------------------------------------------------------------
 * parseEvent and loadBatch.
 * -------------------------------------------------------------------------------------- */

static gtr_status add_inline_string(parser *p, size_t off, size_t len, uint64_t *id)
{
    *id = 0;
    gtr__v1_trace *t = p->t;
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p->data[off + i]) * 1099511628211ull;
    if ((t->ninline + 1) * 2 > p->inl_hash_cap) {
        size_t ncap = p->inl_hash_cap ? p->inl_hash_cap * 2 : 64;
        uint32_t *nh = gtr__realloc_array(p->alc, NULL, ncap, sizeof *nh);
        if (nh == NULL)
            return nomem(p);
        memset(nh, 0xff, ncap * sizeof *nh);
        for (size_t k = 0; k < t->ninline; k++) {
            const gtr__v1_str *s = &t->inline_strings[k];
            uint64_t hk = 14695981039346656037ull;
            for (size_t i = 0; i < s->len; i++)
                hk = (hk ^ p->data[s->off + i]) * 1099511628211ull;
            size_t j = (size_t)hk & (ncap - 1);
            while (nh[j] != UINT32_MAX)
                j = (j + 1) & (ncap - 1);
            nh[j] = (uint32_t)k;
        }
        gtr__free(p->alc, p->inl_hash);
        p->inl_hash = nh;
        p->inl_hash_cap = ncap;
    }
    size_t j = (size_t)h & (p->inl_hash_cap - 1);
    for (; p->inl_hash[j] != UINT32_MAX; j = (j + 1) & (p->inl_hash_cap - 1)) {
        const gtr__v1_str *s = &t->inline_strings[p->inl_hash[j]];
        if (s->len == len && (len == 0 || memcmp(p->data + s->off, p->data + off, len) == 0)) {
            *id = p->inl_hash[j];
            return GTR_OK;
        }
    }
    if (t->ninline >= UINT32_MAX - 1 ||
        !GTR__GROW(p->alc, t->inline_strings, p->inline_cap, t->ninline + 1))
        return nomem(p);
    p->inl_hash[j] = (uint32_t)t->ninline;
    t->inline_strings[t->ninline] = (gtr__v1_str){t->ninline, off, len};
    *id = t->ninline++;
    return GTR_OK;
}

static gtr_status add_stack(parser *p, const raw_event *raw, uint32_t id, size_t size)
{
    gtr__v1_trace *t = p->t;
    gtr_status st;
    if (!GTR__GROW(p->alc, t->pcs, p->pcs_cap, t->npcs + size))
        return nomem(p);
    size_t off = t->npcs;
    for (size_t i = 0; i < size; i++) {
        gtr__v1_frame f = {raw->args[2 + i * 4 + 0], raw->args[2 + i * 4 + 1],
                           raw->args[2 + i * 4 + 2], raw->args[2 + i * 4 + 3]};
        t->pcs[off + i] = f.pc;
        size_t idx;
        bool found;
        if ((st = slot_put(p, &p->pcids, f.pc, t->nframes, &idx, &found)) != GTR_OK)
            return st;
        if (!found) {
            if (!GTR__GROW(p->alc, t->frames, p->frames_cap, t->nframes + 1))
                return nomem(p);
            t->frames[t->nframes++] = f;
        }
    }
    t->npcs += size;
    size_t idx;
    bool found;
    if ((st = slot_put(p, &p->stackids, id, t->nstacks, &idx, &found)) != GTR_OK)
        return st;
    if (!found) {
        if (!GTR__GROW(p->alc, t->stacks, p->stacks_cap, t->nstacks + 1))
            return nomem(p);
        t->nstacks++;
    }
    t->stacks[idx] = (gtr__v1_stack){id, off, size};   /* a redefinition replaces */
    return GTR_OK;
}

/* split_args is parseEvent's reading of an event's arguments a[1..narg) (a[0] is the time
 * delta): the last is the stack ID when the type has a stack, the others go to args. */
static inline void split_args(uint8_t typ, const uint64_t *a, size_t narg, uint64_t *args,
                              uint32_t *stk)
{
    for (size_t i = 1; i < narg; i++) {
        if (i == narg - 1 && descs[typ].stack)
            *stk = (uint32_t)a[i];
        else
            args[i - 1] = a[i];
    }
}

/* event_g is parseEvent's goroutine bookkeeping for an event of type typ whose first argument
 * is a0, on a P whose running G is last_g: the event's G, and in *next the P's running G
 * after it. */
static inline uint64_t event_g(uint8_t typ, uint64_t a0, uint64_t last_g, uint64_t *next)
{
    *next = last_g;
    switch (typ) {
    case GTR_V1_GO_START:
    case GTR_V1_GO_START_LOCAL:
    case GTR_V1_GO_START_LABEL:
        *next = a0;
        return a0;
    case GTR_V1_GO_END:
    case GTR_V1_GO_STOP:
    case GTR_V1_GO_SCHED:
    case GTR_V1_GO_PREEMPT:
    case GTR_V1_GO_SLEEP:
    case GTR_V1_GO_BLOCK:
    case GTR_V1_GO_BLOCK_SEND:
    case GTR_V1_GO_BLOCK_RECV:
    case GTR_V1_GO_BLOCK_SELECT:
    case GTR_V1_GO_BLOCK_SYNC:
    case GTR_V1_GO_BLOCK_COND:
    case GTR_V1_GO_BLOCK_NET:
    case GTR_V1_GO_SYS_BLOCK:
    case GTR_V1_GO_BLOCK_GC:
        *next = 0;
        return last_g;
    case GTR_V1_GO_SYS_EXIT:
    case GTR_V1_GO_WAITING:
    case GTR_V1_GO_IN_SYSCALL:
        return a0;
    default:
        return last_g;
    }
}

/* parse_event is parseEvent: ev->type is GTR_V1_NONE when raw yields no event. */
static gtr_status parse_event(parser *p, const raw_event *raw, gtr__v1_event *ev)
{
    const gtr__v1_desc *desc = &descs[raw->typ];
    size_t narg = arg_num(raw);
    gtr_status st;
    if (raw->nargs != narg)
        /* Go: fmt.Errorf("%s has wrong number of arguments: want %d, got %d", ...) */
        return gtr_err_setf(p->err, GTR_E_FORMAT,
                            "%s has wrong number of arguments: want %zu, got %zu", desc->name,
                            narg, raw->nargs);
    switch (raw->typ) {
    case GTR_V1_BATCH: {
        size_t idx;
        bool found;
        if ((st = slot_put(p, &p->last_gs_map, (uint64_t)(int64_t)p->last_p, p->nlast_gs, &idx,
                           &found)) != GTR_OK)
            return st;
        if (!found) {
            if (!GTR__GROW(p->alc, p->last_gs, p->last_gs_cap, p->nlast_gs + 1))
                return nomem(p);
            p->nlast_gs++;
        }
        p->last_gs[idx] = p->last_g;
        if (raw->args[0] != UINT64_MAX && raw->args[0] > INT32_MAX)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "processor ID %" PRIu64 " is larger than maximum of %d",
                                raw->args[0], INT32_MAX);
        p->last_p = raw->args[0] == UINT64_MAX ? -1 : (int32_t)raw->args[0];
        p->last_g = slot_get(&p->last_gs_map, (uint64_t)(int64_t)p->last_p, &idx)
                        ? p->last_gs[idx]
                        : 0;
        p->last_ts = (int64_t)raw->args[1];
        break;
    }
    case GTR_V1_FREQUENCY:
        p->ticks_per_sec = (int64_t)raw->args[0];
        if (p->ticks_per_sec <= 0)
            /* Most likely tick skew on different CPUs. */
            return time_order(p);
        break;
    case GTR_V1_TIMER_GOROUTINE: {
        size_t v;
        bool found;
        if (gtr__idmap_put_index(&p->timer_goids, p->alc, raw->args[0], 0, &v, &found) !=
            GTR_OK)
            return nomem(p);
        break;
    }
    case GTR_V1_STACK: {
        if (raw->nargs < 2)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "EvStack has wrong number of arguments: want at least 2, got %zu",
                                raw->nargs);
        uint64_t size = raw->args[1];
        if (size > 1000)
            return gtr_err_setf(p->err, GTR_E_FORMAT, "EvStack has bad number of frames: %" PRIu64,
                                size);
        uint64_t want = 2 + 4 * size;
        if ((uint64_t)raw->nargs != want)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "EvStack has wrong number of arguments: want %" PRIu64
                                ", got %zu",
                                want, raw->nargs);
        uint32_t id = (uint32_t)raw->args[0];
        if (id != 0 && size > 0 && (st = add_stack(p, raw, id, (size_t)size)) != GTR_OK)
            return st;
        break;
    }
    case GTR_V1_CPU_SAMPLE:
        /* Parsed while indexing; not part of the batch. */
        break;
    default:
        memset(ev, 0, sizeof *ev);
        ev->type = raw->typ;
        ev->p = p->last_p;
        ev->ts = (int64_t)((uint64_t)p->last_ts + raw->args[0]);
        p->last_ts = ev->ts;
        split_args(raw->typ, raw->args, narg, ev->args, &ev->stk);
        uint64_t last_g;
        ev->g = event_g(raw->typ, ev->args[0], p->last_g, &last_g);
        p->last_g = last_g;
        if (raw->typ == GTR_V1_USER_LOG) {
            /* Args 0: task ID, 1: key ID, 3: the message's inline string ID. */
            uint64_t id;
            if ((st = add_inline_string(p, raw->sarg_off, raw->sarg_len, &id)) != GTR_OK)
                return st;
            ev->args[3] = id;
        }
        return GTR_OK;
    }
    ev->type = GTR_V1_NONE;
    return GTR_OK;
}

/* parse_plain_packed is parse_event for the common event read by read_plain_event (at most
 * three arguments, no side table), written straight into the stored form. It returns false,
 * having changed nothing, when the event is not such an event or a value needs the wide
 * table: parse_event and gtr__v1_pack then take it. */
/* pack_plain is parseEvent for a plain event of type typ with arguments a[0..narg) (narg is
 * 1..3, the time delta first) on P last_p, whose time and running G are *last_ts and
 * *last_g: it writes the stored form to *out and moves the P's time and G on, or returns
 * false (nothing written) when a value needs the wide form. */
static inline bool pack_plain(uint8_t typ, const uint64_t *a, size_t narg, int32_t last_p,
                              int64_t *last_ts, uint64_t *last_g, gtr__v1_packed *out)
{
    /* split_args for the one to three values of a plain event, without its loop: the
     * values after the time, the last of them the stack when the type has one. */
    uint64_t args[2] = {0, 0};
    uint32_t stk = 0;
    size_t nv = narg - 1;
    if (nv > 0 && descs[typ].stack)
        stk = (uint32_t)a[nv--];
    if (nv > 0)
        args[0] = a[1];
    if (nv > 1)
        args[1] = a[2];
    uint64_t next_g, g = event_g(typ, args[0], *last_g, &next_g);
    uint32_t pcode = gtr__v1_pcode(last_p);
    if (g > GTR__V1_G_MAX || args[0] > UINT32_MAX || args[1] > UINT32_MAX ||
        stk > GTR__V1_STK_MAX || pcode == GTR__V1_PCODE_BAD)
        return false;
    int64_t ts = (int64_t)((uint64_t)*last_ts + a[0]);
    gtr__v1_pnarrow(out, ts, typ, 0, (uint32_t)g, (uint32_t)args[0], (uint32_t)args[1], stk,
                    pcode);
    *last_ts = ts;
    *last_g = next_g;
    return true;
}

static inline bool parse_plain_packed(parser *p, const raw_event *raw, gtr__v1_packed *out)
{
    uint8_t typ = raw->typ;
    if (typ == GTR_V1_FREQUENCY || typ == GTR_V1_TIMER_GOROUTINE || typ == GTR_V1_STACK ||
        typ == GTR_V1_USER_LOG || raw->nargs != arg_num(raw))
        return false;
    return pack_plain(typ, raw->args, raw->nargs, p->last_p, &p->last_ts, &p->last_g, out);
}

/* pack_byte_ok is, for p->pack_ok, whether parse_plain_packed takes every well-formed event
 * whose first byte is b: a plain byte whose type is none of the four it leaves to
 * parse_event, with the argument count the type wants. */
static bool pack_byte_ok(const parser *p, uint8_t b)
{
    unsigned narg;
    raw_event raw;
    if (!plain_type(p, b, &narg))
        return false;
    memset(&raw, 0, sizeof raw);
    raw.typ = (uint8_t)(b & 0x3f);
    raw.nargs = narg;
    return !(raw.typ == GTR_V1_FREQUENCY || raw.typ == GTR_V1_TIMER_GOROUTINE ||
             raw.typ == GTR_V1_STACK || raw.typ == GTR_V1_USER_LOG || raw.nargs != arg_num(&raw));
}

/* load_plain_run is read_plain_event and parse_plain_packed over a run of events, with the
 * offset and the P's time and G in registers (stored back to p once, not once an event): it
 * decodes the events from p->off on into pr->buf[n...] while there is room and each is one
 * parse_plain_packed takes, and returns the new count. It stops before the first event it
 * cannot take so, which load_batch's loop then reads, errors included. */
static size_t load_plain_run(parser *p, proc *pr, size_t n)
{
    size_t off = p->off;
    const size_t len = p->len;
    const uint8_t *data = p->data;
    int64_t last_ts = p->last_ts;
    uint64_t last_g = p->last_g;
    const int32_t last_p = p->last_p;
    while (n < pr->cap && off < len && p->pack_ok[data[off]]) {
        uint8_t typ = (uint8_t)(data[off] & 0x3f);
        unsigned narg = (unsigned)(data[off] >> 6) + 1;
        uint64_t a[3];
        size_t o = off + 1;
        /* The one to three values, unrolled (a loop's count and exit cost more than the
         * decoding of a one-byte value). */
        int k = gtr__uvarint(data + o, len - o, &a[0]);
        if (k <= 0)
            break;
        o += (size_t)k;
        if (narg > 1) {
            if ((k = gtr__uvarint(data + o, len - o, &a[1])) <= 0)
                break;
            o += (size_t)k;
            if (narg > 2) {
                if ((k = gtr__uvarint(data + o, len - o, &a[2])) <= 0)
                    break;
                o += (size_t)k;
            }
        }
        if (!pack_plain(typ, a, narg, last_p, &last_ts, &last_g, &pr->buf[n]))
            break;
        n++;
        off = o;
    }
    p->off = off;
    p->last_ts = last_ts;
    p->last_g = last_g;
    return n;
}

/* load_batch is loadBatch: the events of pid's next batch into pr's buffer; GTR_EOF when
 * the P has no batch left. */
static gtr_status load_batch(parser *p, proc *pr)
{
    plist *l = plist_of(p, pr->pid);
    if (l == NULL || l->head == l->n)
        return eof(p);
    batch_off bo = l->b[l->head++];
    p->off = bo.off;
    if (!GTR__GROW(p->alc, pr->buf, pr->cap, bo.nevents))
        return nomem(p);
    size_t n = 0;
    bool got_header = false;
    raw_event raw;
    gtr__v1_event ev;
    memset(&ev, 0, sizeof ev);
    for (;;) {
        gtr_status st = GTR_OK;
        n = load_plain_run(p, pr, n);
        if (read_plain_event(p, &raw)) {
            if (!GTR__GROW(p->alc, pr->buf, pr->cap, n + 1))
                return nomem(p);
            if (parse_plain_packed(p, &raw, &pr->buf[n])) {
                n++;
                continue;
            }
        } else {
            st = read_raw_event(p, 0, &raw);
        }
        if (st == GTR_EOF)
            break;
        if (st != GTR_OK)
            return st;
        if (raw.typ == GTR_V1_NONE || raw.typ == GTR_V1_CPU_SAMPLE)
            continue;
        if (raw.typ == GTR_V1_BATCH) {
            if (got_header)
                break;
            got_header = true;
        }
        if ((st = parse_event(p, &raw, &ev)) != GTR_OK)
            return st;
        if (ev.type != GTR_V1_NONE) {
            if (!GTR__GROW(p->alc, pr->buf, pr->cap, n + 1) ||
                gtr__v1_pack(p->t, &ev, &pr->buf[n]) != GTR_OK)
                return nomem(p);
            n++;
        }
    }
    pr->ev = pr->buf;
    pr->head_known = false;
    pr->nev = n;
    return GTR_OK;
}

/* --------------------------------------------------------------------------------------
 * Step 2: parseEventBatches.
 * -------------------------------------------------------------------------------------- */

static int cmp_ts(const void *a, const void *b)
{
    const gtr__v1_event *x = a, *y = b;
    return (x->ts > y->ts) - (x->ts < y->ts);
}

typedef struct gs_table {
    slotmap map;
    gtr__v1_gstate *v;
    size_t *waiters;     /* per slot: the waiting Ps (proc.waiting) whose head is for it */
    size_t n, cap, wcap;
} gs_table;

/* gs_ref_new is gs_ref's slow path: g is not in the map's dense window. */
static GTR__NOINLINE gtr_status gs_ref_new(parser *p, gs_table *gs, uint64_t g,
                                           gtr__v1_gstate **out)
{
    size_t idx;
    bool found;
    gtr_status st = slot_put(p, &gs->map, g, gs->n, &idx, &found);
    if (st != GTR_OK)
        return st;
    if (!found) {
        if (!GTR__GROW(p->alc, gs->v, gs->cap, gs->n + 1) ||
            !GTR__GROW(p->alc, gs->waiters, gs->wcap, gs->n + 1))
            return nomem(p);
        gs->v[idx] = (gtr__v1_gstate){0, GTR_V1_G_DEAD};
        gs->waiters[idx] = 0;
        gs->n++;
    }
    *out = &gs->v[idx];
    return GTR_OK;
}

/* gs_ref points *out at g's state, added as the zero state (dead, sequence 0: Go's map
 * read of an absent G) when g has none. The pointer lasts until the next add; the slot,
 * *out - gs->v, lasts for good. A G in the dense window is found inline. */
static GTR__ALWAYS_INLINE gtr_status gs_ref(parser *p, gs_table *gs, uint64_t g,
                                            gtr__v1_gstate **out)
{
    size_t idx;
    if (!gtr__idmap_peek_index(&gs->map, g, &idx))
        return gs_ref_new(p, gs, g, out);
    *out = &gs->v[idx];
    return GTR_OK;
}

static int cmp_moved(const void *a, const void *b)
{
    const gtr__v1_moved *x = a, *y = b;
    if (x->ev.ts != y->ev.ts)
        return x->ev.ts < y->ev.ts ? -1 : 1;
    return (x->orig > y->orig) - (x->orig < y->orig);
}

/* Go's last step gives GoSysExit events their real timestamps (Args[2]) in one loop over
 * the merged stream, then sorts it stably. The loop runs here as each event is merged
 * (sysexit_note): it reads the events in the same order, but its verdict (a stray exit, or
 * a real time before the block) waits until the merge and the time-order check are done,
 * which come first in Go. The exits it moves are listed, not changed in place, so the
 * stream stays sorted on the times it was merged by until gtr__v1_sort_moved. */
enum { SYSEXIT_OK, SYSEXIT_STRAY, SYSEXIT_TIME_ORDER };

typedef struct sysexit_pass {
    slotmap blk;       /* G -> index into blk_ts */
    int64_t *blk_ts;   /* the G's last GoSysBlock or GoInSyscall time (lastSysBlock) */
    size_t nblk, blk_cap;
    gtr__v1_moved *mv; /* the exits given their real time, in stream order */
    size_t nmv, mv_cap;
    int verdict;       /* SYSEXIT_*: the loop's first failure; it stops there */
} sysexit_pass;

static gtr_status sysexit_note(parser *p, sysexit_pass *s, size_t i)
{
    if (s->verdict != SYSEXIT_OK)
        return GTR_OK;
    gtr__v1_trace *t = p->t;
    const gtr__v1_packed *ev = &t->events[i];
    size_t idx;
    bool found;
    switch (gtr__v1_ptype(ev)) {
    case GTR_V1_GO_SYS_BLOCK:
    case GTR_V1_GO_IN_SYSCALL: {
        gtr_status st = slot_put(p, &s->blk, gtr__v1_packed_g(t, ev), s->nblk, &idx, &found);
        if (st != GTR_OK)
            return st;
        if (!found) {
            if (!GTR__GROW(p->alc, s->blk_ts, s->blk_cap, s->nblk + 1))
                return nomem(p);
            s->nblk++;
        }
        s->blk_ts[idx] = ev->ts;
        return GTR_OK;
    }
    case GTR_V1_GO_SYS_EXIT: {
        gtr__v1_event full;
        gtr__v1_unpack(t, ev, &full);
        int64_t ts = (int64_t)full.args[2];
        if (ts == 0)
            return GTR_OK;
        int64_t block = slot_get(&s->blk, full.g, &idx) ? s->blk_ts[idx] : 0;
        if (block == 0) {
            s->verdict = SYSEXIT_STRAY;
        } else if (ts < block) {
            s->verdict = SYSEXIT_TIME_ORDER;
        } else {
            if (!GTR__GROW(p->alc, s->mv, s->mv_cap, s->nmv + 1))
                return nomem(p);
            gtr__v1_moved *m = &s->mv[s->nmv];
            m->ev = *ev;
            m->ev.ts = ts;
            m->orig = i;
            m->rank = i - s->nmv;
            s->nmv++;
        }
        return GTR_OK;
    }
    default:
        return GTR_OK;
    }
}

static void sysexit_pass_free(parser *p, sysexit_pass *s)
{
    slotmap_free(p->alc, &s->blk);
    gtr__free(p->alc, s->blk_ts);
    gtr__free(p->alc, s->mv);
}

/* Index helpers of gtr__v1_sort_moved over the merged stream ev[0..n), sorted by time, and
 * the moved exits' stream indices orig (ascending, in mv[0..nmv)). */
static size_t first_at_or_after(const gtr__v1_packed *ev, size_t n, int64_t ts, bool after)
{
    size_t lo = 0, hi = n;   /* the first index whose time is >= ts (> ts when after) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ev[mid].ts < ts || (after && ev[mid].ts == ts))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static size_t moved_before(const gtr__v1_moved *mv, size_t nmv, size_t idx)
{
    size_t lo = 0, hi = nmv;   /* how many moved exits have orig < idx */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (mv[mid].orig < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* One run of not-moved events that gtr__v1_sort_moved shifts as a block. */
typedef struct shift_run {
    size_t src, dst, n;
} shift_run;

/* gtr__v1_sort_moved is the final sort.Stable when only the listed exits are out of place,
 * without touching the rest of the stream. Sorted by (real time, stream index), each exit
 * goes before the not-moved events of a higher time, and of an equal time that came after
 * it: its place among them (ins) is its rank clamped to the range of equal times. The
 * not-moved events then shift by whole runs between those places and the exits' old ones
 * (the runs that move left ascending, then those that move right descending, so none
 * overwrites one not yet moved), and the exits fill the holes. */
gtr_status gtr__v1_sort_moved(const gtr_alloc *alc, gtr__v1_packed *ev, size_t n,
                              const gtr__v1_moved *mv, size_t m)
{
    if (m == 0)
        return GTR_OK;
    size_t *ins = gtr__realloc_array(alc, NULL, m, sizeof *ins);
    gtr__v1_moved *sorted = gtr__realloc_array(alc, NULL, m, sizeof *sorted);
    shift_run *runs = gtr__realloc_array(alc, NULL, 2 * m + 1, sizeof *runs);
    if (ins == NULL || sorted == NULL || runs == NULL) {
        gtr__free(alc, ins);
        gtr__free(alc, sorted);
        gtr__free(alc, runs);
        return GTR_E_NOMEM;
    }
    memcpy(sorted, mv, m * sizeof *sorted);
    qsort(sorted, m, sizeof *sorted, cmp_moved);
    for (size_t q = 0; q < m; q++) {
        int64_t ts = sorted[q].ev.ts;
        size_t lo = first_at_or_after(ev, n, ts, false), hi = first_at_or_after(ev, n, ts, true);
        lo -= moved_before(mv, m, lo);   /* as ranks among the not-moved */
        hi -= moved_before(mv, m, hi);
        size_t r = sorted[q].rank;
        ins[q] = r < lo ? lo : r > hi ? hi : r;
    }
    /* A not-moved event of rank r sits at r + (exits with rank <= r) and goes to
     * r + (exits with ins <= r): both counts step at the ranks listed in mv and ins
     * (ascending both), so the shift is constant between consecutive steps. */
    size_t nrun = 0, a = 0, b = 0, r = 0, nkeep = n - m;
    while (r < nkeep) {
        while (a < m && mv[a].rank <= r)
            a++;
        while (b < m && ins[b] <= r)
            b++;
        size_t end = nkeep;
        if (a < m && mv[a].rank < end)
            end = mv[a].rank;
        if (b < m && ins[b] < end)
            end = ins[b];
        if (a != b)
            runs[nrun++] = (shift_run){r + a, r + b, end - r};
        r = end;
    }
    for (size_t i = 0; i < nrun; i++)
        if (runs[i].dst < runs[i].src)
            memmove(&ev[runs[i].dst], &ev[runs[i].src], runs[i].n * sizeof *ev);
    for (size_t i = nrun; i-- > 0;)
        if (runs[i].dst > runs[i].src)
            memmove(&ev[runs[i].dst], &ev[runs[i].src], runs[i].n * sizeof *ev);
    for (size_t q = 0; q < m; q++)
        ev[ins[q] + q] = sorted[q].ev;
    gtr__free(alc, ins);
    gtr__free(alc, sorted);
    gtr__free(alc, runs);
    return GTR_OK;
}

/* transition_fields fills in the fields of a stored event that gtr__v1_state_transition
 * reads (type, G, Args[0] and Args[1]) and no more, unless the event is wide. */
static inline void transition_fields(const gtr__v1_trace *t, const gtr__v1_packed *e,
                                     gtr__v1_event *out)
{
    if (gtr__v1_pwide(e)) {
        gtr__v1_unpack(t, e, out);
        return;
    }
    out->type = gtr__v1_ptype(e);
    out->g = e->tfg >> 8;
    out->args[0] = e->a0;
    out->args[1] = e->a1;
}

typedef enum { HEAD_READY, HEAD_WAITING, HEAD_GONE } head_state;

/* head_of is one look of Go's scan at an available P that is not known to wait: its next
 * batch is loaded when its current one is done (HEAD_GONE, and pr->done, at the end of its
 * batches), its head's transition is computed once, and the head is HEAD_READY to merge or
 * HEAD_WAITING on its goroutine (pr->waiting set: until that goroutine changes, later scans
 * skip the P). */
static GTR__ALWAYS_INLINE gtr_status head_of(parser *p, proc *pr, gs_table *gs, size_t *nwaiting,
                                             head_state *out)
{
    gtr_status st;
    while (pr->nev == 0) {
        /* Batches may be empty: load until one has events. */
        st = load_batch(p, pr);
        if (st == GTR_EOF) {
            gtr_err_clear(p->err);
            pr->done = true;
            *out = HEAD_GONE;
            return GTR_OK;
        }
        if (st != GTR_OK)
            return st;
    }
    if (!pr->head_known) {
        gtr__v1_event ev;
        transition_fields(p->t, &pr->ev[0], &ev);
        pr->head_g = gtr__v1_state_transition(&ev, &pr->head_init, &pr->head_next);
        pr->head_known = true;
        /* The G's state is looked up once per head, not once per look at the P: an absent
         * G gets the zero state now instead of when it is merged. */
        if (pr->head_g != GTR_V1_UNORDERED) {
            gtr__v1_gstate *state = NULL;
            if ((st = gs_ref(p, gs, pr->head_g, &state)) != GTR_OK)
                return st;
            pr->head_slot = (size_t)(state - gs->v);
        }
    }
    if (pr->head_g != GTR_V1_UNORDERED &&
        !gtr__v1_transition_ready(pr->head_g, gs->v[pr->head_slot], pr->head_init)) {
        pr->waiting = true;
        (*nwaiting)++;
        gs->waiters[pr->head_slot]++;
        *out = HEAD_WAITING;
        return GTR_OK;
    }
    *out = HEAD_READY;
    return GTR_OK;
}

static gtr_status merge_batches(parser *p)
{
    gtr__v1_trace *t = p->t;
    gtr_status st = GTR_OK;
    /* CPU samples: re-sort them by the time the signal handler captured. */
    gtr_go_sort_func(p->cpu, p->ncpu, sizeof *p->cpu, cmp_ts);
    if (p->ncpu > 0) {
        p->cpu_packed = gtr__realloc_array(p->alc, NULL, p->ncpu, sizeof *p->cpu_packed);
        if (p->cpu_packed == NULL)
            return nomem(p);
        for (size_t i = 0; i < p->ncpu; i++)
            if (gtr__v1_pack(t, &p->cpu[i], &p->cpu_packed[i]) != GTR_OK)
                return nomem(p);
        gtr__free(p->alc, p->cpu);
        p->cpu = NULL;
    }

    size_t nprocs = p->nplists + 1;
    proc *procs = gtr__calloc(p->alc, nprocs, sizeof *procs);
    size_t *avail = gtr__calloc(p->alc, nprocs, sizeof *avail);
    gtr__v1_order_event *frontier = gtr__calloc(p->alc, nprocs, sizeof *frontier);
    gs_table gs = {{0}, NULL, NULL, 0, 0, 0};
    sysexit_pass sx = {{0}, NULL, 0, 0, NULL, 0, 0, SYSEXIT_OK};
    bool unsorted = false;
    int64_t prev_ts = 0;
    size_t events_cap = 0;
    if (procs == NULL || avail == NULL || frontier == NULL) {
        st = nomem(p);
        goto out;
    }
    for (size_t i = 0; i < p->nplists; i++)
        procs[i].pid = p->plists[i].pid;
    procs[nprocs - 1].pid = GTR_V1_PROFILE_P;
    procs[nprocs - 1].ev = p->cpu_packed;
    procs[nprocs - 1].nev = p->ncpu;
    size_t navail = nprocs;
    gtr__v1_frontier fr = {frontier, 0, false};
    size_t nwaiting = 0; /* Ps with proc.waiting, all of them in avail */
    for (size_t i = 0; i < nprocs; i++)
        avail[i] = i;
    if (!GTR__GROW(p->alc, t->events, events_cap, p->total_events ? p->total_events : 1)) {
        st = nomem(p);
        goto out;
    }

    for (;;) {
        /* The first P found ready is held back: when it is the only one (nearly every step),
         * its Push and the Pop below are one gtr__v1_frontier_push_pop. A second one pushes
         * it first, keeping Go's order of pushes. */
        gtr__v1_order_event held;
        size_t nready = 0;
        /* Go's scan over the available Ps, less the Ps it would find waiting again (they
         * have a head, and it is not ready): when all but the last (the P just merged) are
         * such, only the last is looked at. */
        size_t first = nwaiting > 0 && nwaiting == navail - 1 && !procs[avail[navail - 1]].waiting
                           ? navail - 1
                           : 0;
        for (size_t i = first; i < navail; i++) {
            proc *pr = &procs[avail[i]];
            if (pr->waiting)
                continue;
            head_state hs;
            if ((st = head_of(p, pr, &gs, &nwaiting, &hs)) != GTR_OK)
                goto out;
            if (hs == HEAD_GONE) {
                avail[i] = avail[navail - 1];
                navail--;
                i--; /* look at index i again (wraps to SIZE_MAX and back with i++) */
                continue;
            }
            if (hs == HEAD_WAITING)
                continue;
            /* The event stays at pr->ev[-1] (its buffer is not reloaded while the P is in
             * the frontier); head_* keep its transition until it is merged. */
            gtr__v1_order_event oe = {pr->ev[0].ts, avail[i]};
            pr->ev++;
            pr->nev--;
            avail[i] = avail[navail - 1];
            navail--;
            if (nready++ == 0) {
                held = oe;
            } else {
                if (nready == 2)
                    gtr__v1_frontier_push(&fr, &held);
                gtr__v1_frontier_push(&fr, &oe);
            }
            i--;
        }

        if (nready == 0 && fr.n == 0) {
            for (size_t i = 0; i < nprocs; i++) {
                if (!procs[i].done) {
                    st = gtr_err_setf(p->err, GTR_E_ORDER,
                                      "no consistent ordering of events possible");
                    goto out;
                }
            }
            break;
        }
        gtr__v1_order_event f = nready == 1 ? gtr__v1_frontier_push_pop(&fr, &held)
                                            : gtr__v1_frontier_pop(&fr);
    merge:;
        proc *fp = &procs[f.proc];
        uint64_t g = fp->head_g;
        fp->head_known = false;
        if (!GTR__GROW(p->alc, t->events, events_cap, t->nevents + 1)) {
            st = nomem(p);
            goto out;
        }
        /* The event is copied to its place and changed there: a copy changed in a local and
         * then stored whole made the store's wide loads wait on the narrow store just made
         * (a failed store-to-load forward). */
        gtr__v1_packed *fev = &t->events[t->nevents++];
        *fev = fp->ev[-1];
        /* "Local" events are only there for ordering. */
        switch (gtr__v1_ptype(fev)) {
        case GTR_V1_GO_START_LOCAL:
            gtr__v1_pset_type(fev, GTR_V1_GO_START);
            break;
        case GTR_V1_GO_UNBLOCK_LOCAL:
            gtr__v1_pset_type(fev, GTR_V1_GO_UNBLOCK);
            break;
        case GTR_V1_GO_SYS_EXIT_LOCAL:
            gtr__v1_pset_type(fev, GTR_V1_GO_SYS_EXIT);
            break;
        default:
            break;
        }
        /* sort.IsSorted (the moved exits keep their merged times until the final sort). */
        if (t->nevents > 1 && fev->ts < prev_ts)
            unsorted = true;
        prev_ts = fev->ts;
        if ((st = sysexit_note(p, &sx, t->nevents - 1)) != GTR_OK)
            goto out;

        if (g != GTR_V1_UNORDERED) {
            /* The G's new state, field by field for the same reason. */
            gtr__v1_gstate *state = &gs.v[fp->head_slot];
            if (!gtr__v1_transition_ready(g, *state, fp->head_init)) {
                st = gtr_err_setf(p->err, GTR_E_ORDER,
                                  "encountered impossible goroutine state transition");
                goto out;
            }
            uint64_t seq = fp->head_next.seq;
            if (seq == GTR_V1_NOSEQ)
                seq = state->seq;
            else if (seq == GTR_V1_SEQINC)
                seq = state->seq + 1;
            state->seq = seq;
            state->status = fp->head_next.status;
            /* The Ps waiting on this goroutine are looked at again. */
            if (gs.waiters[fp->head_slot] != 0) {
                for (size_t i = 0; i < navail; i++) {
                    proc *w = &procs[avail[i]];
                    if (w->waiting && w->head_slot == fp->head_slot) {
                        w->waiting = false;
                        nwaiting--;
                    }
                }
                gs.waiters[fp->head_slot] = 0;
            }
        }
        if (nwaiting == navail) {
            /* Every other available P waits (none was woken): Go's next scan looks at this P
             * alone, and so does this step, without putting it back in avail first. */
            head_state hs;
            if ((st = head_of(p, fp, &gs, &nwaiting, &hs)) != GTR_OK)
                goto out;
            if (hs == HEAD_READY) {
                gtr__v1_order_event oe = {fp->ev[0].ts, f.proc};
                fp->ev++;
                fp->nev--;
                f = gtr__v1_frontier_push_pop(&fr, &oe);
                goto merge;
            }
            if (hs == HEAD_GONE)
                continue;
        }
        avail[navail++] = f.proc;
    }

    /* The stream is consistent; its timestamps must respect the order. */
    if (unsorted)
        st = time_order(p);
    else if (sx.verdict == SYSEXIT_STRAY)
        st = gtr_err_setf(p->err, GTR_E_FORMAT, "stray syscall exit");
    else if (sx.verdict == SYSEXIT_TIME_ORDER)
        st = time_order(p);
    else if (sx.nmv > 0 &&
             gtr__v1_sort_moved(p->alc, t->events, t->nevents, sx.mv, sx.nmv) != GTR_OK)
        st = nomem(p);
out:
    sysexit_pass_free(p, &sx);
    for (size_t i = 0; procs != NULL && i < nprocs; i++)
        gtr__free(p->alc, procs[i].buf);
    gtr__free(p->alc, procs);
    gtr__free(p->alc, avail);
    gtr__free(p->alc, frontier);
    slotmap_free(p->alc, &gs.map);
    gtr__free(p->alc, gs.v);
    gtr__free(p->alc, gs.waiters);
    return st;
}

/* --------------------------------------------------------------------------------------
 * Step 4: postProcessTrace.
 * -------------------------------------------------------------------------------------- */

#define NONE SIZE_MAX

/* Go's gdesc and pdesc, reduced to what postProcessTrace reads back. Go keeps pointers to
 * events; of those only these facts are ever read: whether evMarkAssist and evSweep are nil,
 * evCreate's new-stack argument, and whether g.ev is an EvGoBlockNet (evStart is written and
 * never read). */
typedef struct gdesc {
    uint8_t state;
    bool ev_block_net;   /* g.ev != nil && g.ev.Type == EvGoBlockNet */
    bool mark_assist;    /* g.evMarkAssist != nil */
    bool created;        /* g.evCreate != nil */
    uint32_t create_stk; /* uint32(g.evCreate.Args[1]): the new G's stack */
} gdesc;

typedef struct pdesc {
    uint64_t g;
    bool running;
    bool sweeping;       /* p.evSweep != nil */
} pdesc;

typedef struct region_stack {
    size_t *v;
    size_t n, cap;
} region_stack;

/* The slot of the key last looked up in one of post's maps (slots never go): consecutive
 * events mostly name the same G and the same P. */
typedef struct last_slot {
    bool ok;
    uint64_t key;
    size_t slot;
} last_slot;

static void last_slot_set(last_slot *c, uint64_t key, size_t slot)
{
    c->ok = true;
    c->key = key;
    c->slot = slot;
}

/* last_slot_find is the common case of a lookup in m through c, inline: key's slot in *idx,
 * true when it is c's key or in m's dense window; false otherwise (the caller's slow path,
 * which asks m itself). */
static GTR__ALWAYS_INLINE bool last_slot_find(last_slot *c, const slotmap *m, uint64_t key,
                                              size_t *idx)
{
    if (c->ok && c->key == key) {
        *idx = c->slot;
        return true;
    }
    if (!gtr__idmap_peek_index(m, key, idx))
        return false;
    last_slot_set(c, key, *idx);
    return true;
}

typedef struct post {
    parser *p;
    slotmap gmap, pmap, tmap, rmap;
    gdesc *gs;
    size_t ngs, gs_cap;
    pdesc *ps;
    size_t nps, ps_cap;
    size_t *tasks;    /* task event index, NONE when deleted */
    size_t ntasks, tasks_cap;
    region_stack *regions;
    size_t nregions, regions_cap;
    last_slot last_g, last_p;   /* keys: the G, the P as (uint64_t)(int64_t) */
} post;

/* Go's zero gdesc and pdesc: what a map read of an absent G or P gives. */
static const gdesc gzero = {GTR_V1_G_DEAD, false, false, false, 0};
static const pdesc pzero = {0, false, false};

/* The descriptors are read and changed in place, through pointers: a descriptor copied out,
 * changed field by field and copied back made the copies' wide loads wait on the narrow
 * stores just made (failed store-to-load forwards). */

/* g_find is a map read, gs[g]: the G's descriptor, or gzero (*exists false) when it has
 * none. The pointer is valid until the next g_slot. */
static const gdesc *g_find(post *s, uint64_t g, bool *exists)
{
    size_t idx;
    *exists = true;
    if (!last_slot_find(&s->last_g, &s->gmap, g, &idx)) {
        if (!slot_get(&s->gmap, g, &idx)) {
            *exists = false;
            return &gzero;
        }
        last_slot_set(&s->last_g, g, idx);
    }
    return &s->gs[idx];
}

/* g_slot_new is g_slot's slow path: a G neither last looked up nor in the dense window. */
static GTR__NOINLINE gtr_status g_slot_new(post *s, uint64_t g, gdesc **out)
{
    size_t idx;
    bool found;
    gtr_status st = slot_put(s->p, &s->gmap, g, s->ngs, &idx, &found);
    if (st != GTR_OK)
        return st;
    if (!found) {
        if (!GTR__GROW(s->p->alc, s->gs, s->gs_cap, s->ngs + 1))
            return nomem(s->p);
        s->gs[idx] = gzero;
        s->ngs++;
    }
    last_slot_set(&s->last_g, g, idx);
    *out = &s->gs[idx];
    return GTR_OK;
}

/* g_slot is the slot a map write gs[g] = ... stores to, created as gzero when absent. Every
 * case that writes a G back on success takes its slot first: the slot it may create on a
 * failing path does not matter, since any failure ends the parse. The pointer is valid until
 * the next g_slot. Its common cases are inline (a call that could grow the maps saved and
 * restored registers on every event). */
static GTR__ALWAYS_INLINE gtr_status g_slot(post *s, uint64_t g, gdesc **out)
{
    size_t idx;
    if (!last_slot_find(&s->last_g, &s->gmap, g, &idx))
        return g_slot_new(s, g, out);
    *out = &s->gs[idx];
    return GTR_OK;
}

/* p_slot_new is p_slot's slow path. */
static GTR__NOINLINE gtr_status p_slot_new(post *s, uint64_t key, pdesc **out)
{
    size_t idx;
    bool found;
    gtr_status st = slot_put(s->p, &s->pmap, key, s->nps, &idx, &found);
    if (st != GTR_OK)
        return st;
    if (!found) {
        if (!GTR__GROW(s->p->alc, s->ps, s->ps_cap, s->nps + 1))
            return nomem(s->p);
        s->ps[idx] = pzero;
        s->nps++;
    }
    last_slot_set(&s->last_p, key, idx);
    *out = &s->ps[idx];
    return GTR_OK;
}

/* p_slot is g_slot for Ps. It also serves the cases where Go only reads ps[ev.P]: nothing
 * asks whether a P exists, so a pzero slot reads exactly as an absent P. */
static GTR__ALWAYS_INLINE gtr_status p_slot(post *s, int32_t pid, pdesc **out)
{
    uint64_t key = (uint64_t)(int64_t)pid;
    size_t idx;
    if (!last_slot_find(&s->last_p, &s->pmap, key, &idx))
        return p_slot_new(s, key, out);
    *out = &s->ps[idx];
    return GTR_OK;
}

static gtr_status region_of(post *s, uint64_t g, region_stack **out)
{
    *out = NULL;
    size_t idx;
    bool found;
    gtr_status st = slot_put(s->p, &s->rmap, g, s->nregions, &idx, &found);
    if (st != GTR_OK)
        return st;
    if (!found) {
        if (!GTR__GROW(s->p->alc, s->regions, s->regions_cap, s->nregions + 1))
            return nomem(s->p);
        memset(&s->regions[idx], 0, sizeof s->regions[idx]);
        s->nregions++;
    }
    *out = &s->regions[idx];
    return GTR_OK;
}

static void regions_delete(post *s, uint64_t g)
{
    size_t idx;
    if (slot_get(&s->rmap, g, &idx))
        s->regions[idx].n = 0;
}

/* quoted_event appends %q of ev.String(). */
static void quoted_event(const parser *p, const gtr__v1_event *ev, gtr_buf *b)
{
    gtr_buf tmp;
    gtr_buf_init(&tmp, p->alc);
    gtr__v1_event_string(ev, &tmp);
    gtr_go_quote(b, tmp.data != NULL ? tmp.data : "", tmp.len);
    gtr_buf_free(&tmp);
}

/* fail_quoted formats a message of the form prefix %q middle %q, the events a and b2 with
 * their times in nanoseconds. */
static gtr_status fail_quoted(const parser *p, const char *prefix, const gtr__v1_event *a,
                              const char *middle, const gtr__v1_event *b2)
{
    gtr_buf b;
    gtr_buf_init(&b, p->alc);
    gtr_buf_puts(&b, prefix);
    gtr__v1_event ns = *a;
    ns.ts = gtr__v1_time(p->t, a->ts);
    quoted_event(p, &ns, &b);
    if (middle != NULL) {
        gtr_buf_puts(&b, middle);
        ns = *b2;
        ns.ts = gtr__v1_time(p->t, b2->ts);
        quoted_event(p, &ns, &b);
    }
    gtr_status st;
    if (gtr_buf_status(&b) != GTR_OK)
        st = gtr_err_setf(p->err, GTR_E_NOMEM, "out of memory");
    else
        st = gtr_err_setf(p->err, GTR_E_FORMAT, "%s", b.data);
    gtr_buf_free(&b);
    return st;
}

/* check_running_fail formats check_running's error (the G is g0 when it runs as it should). */
static GTR__NOINLINE gtr_status check_running_fail(const parser *p, const pdesc *pd,
                                                   const gdesc *g, const gtr__v1_event *ev)
{
    const char *name = descs[ev->type].name;
    int64_t ns = gtr__v1_time(p->t, ev->ts);
    if (g->state != GTR_V1_G_RUNNING)
        return gtr_err_setf(p->err, GTR_E_FORMAT,
                            "g %" PRIu64 " is not running while %s (time %" PRId64 ")", ev->g,
                            name, ns);
    if (pd->g != ev->g)
        return gtr_err_setf(p->err, GTR_E_FORMAT,
                            "p %" PRId32 " is not running g %" PRIu64 " while %s (time %" PRId64
                            ")",
                            ev->p, ev->g, name, ns);
    return gtr_err_setf(p->err, GTR_E_FORMAT, "g 0 did %s (time %" PRId64 ")", name, ns);
}

/* check_running is postProcessTrace's checkRunning: the event's G runs, on the event's P,
 * and is not g0 unless allowed. */
static GTR__ALWAYS_INLINE gtr_status check_running(const parser *p, const pdesc *pd,
                                                   const gdesc *g, const gtr__v1_event *ev,
                                                   bool allow_g0)
{
    if (g->state == GTR_V1_G_RUNNING && pd->g == ev->g && (allow_g0 || ev->g != 0))
        return GTR_OK;
    return check_running_fail(p, pd, g, ev);
}

static bool has_stack(const parser *p, uint32_t id)
{
    size_t idx;
    return slot_get(&p->stackids, id, &idx);
}

/* post_event checks ev, the unpacked events[idx] (the caller stores back its P and stack).
 * Each case takes the slots of the G and the P it writes back (g_slot, p_slot) and changes
 * them in place; Go's copies are written back only on success, and a failure ends the
 * parse, so what a failing case leaves in them is never read. */
static GTR__ALWAYS_INLINE gtr_status post_event(post *s, size_t idx, gtr__v1_event *ev)
{
    parser *p = s->p;
    gtr__v1_trace *t = p->t;
    gtr__v1_event other_ev;
    gtr_status st = GTR_OK;
    gdesc *g;
    const gdesc *cg;
    pdesc *pd = NULL;
    bool exists;
    switch (ev->type) {
    case GTR_V1_PROC_START:
        if ((st = p_slot(s, ev->p, &pd)) != GTR_OK)
            return st;
        if (pd->running)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "p %" PRId32 " is running before start (time %" PRId64 ")",
                                ev->p, gtr__v1_time(p->t, ev->ts));
        pd->running = true;
        return GTR_OK;
    case GTR_V1_PROC_STOP:
        if ((st = p_slot(s, ev->p, &pd)) != GTR_OK)
            return st;
        if (!pd->running)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "p %" PRId32 " is not running before stop (time %" PRId64 ")",
                                ev->p, gtr__v1_time(p->t, ev->ts));
        if (pd->g != 0)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "p %" PRId32 " is running a goroutine %" PRIu64
                                " during stop (time %" PRId64 ")",
                                ev->p, pd->g, gtr__v1_time(p->t, ev->ts));
        pd->running = false;
        return GTR_OK;
    case GTR_V1_GC_START:
    case GTR_V1_GC_DONE:
    case GTR_V1_STW_START:
    case GTR_V1_STW_DONE:
        return GTR_OK; /* global state: post_process */
    case GTR_V1_GC_SWEEP_START:
        if ((st = p_slot(s, ev->p, &pd)) != GTR_OK)
            return st;
        if (pd->sweeping)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "previous sweeping is not ended before a new one (time %" PRId64
                                ")",
                                gtr__v1_time(p->t, ev->ts));
        pd->sweeping = true;
        return GTR_OK;
    case GTR_V1_GC_MARK_ASSIST_START:
        if ((st = g_slot(s, ev->g, &g)) != GTR_OK)
            return st;
        if (g->mark_assist)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "previous mark assist is not ended before a new one (time %" PRId64
                                ")",
                                gtr__v1_time(p->t, ev->ts));
        g->mark_assist = true;
        return GTR_OK;
    case GTR_V1_GC_MARK_ASSIST_DONE:
        /* Mark assists can be in progress when a goroutine starts tracing: no error. */
        if ((st = g_slot(s, ev->g, &g)) != GTR_OK)
            return st;
        g->mark_assist = false;
        return GTR_OK;
    case GTR_V1_GC_SWEEP_DONE:
        if ((st = p_slot(s, ev->p, &pd)) != GTR_OK)
            return st;
        if (!pd->sweeping)
            return gtr_err_setf(p->err, GTR_E_FORMAT, "bogus sweeping end (time %" PRId64 ")",
                                gtr__v1_time(p->t, ev->ts));
        pd->sweeping = false;
        return GTR_OK;
    case GTR_V1_GO_WAITING:
    case GTR_V1_GO_IN_SYSCALL:
        if ((st = g_slot(s, ev->g, &g)) != GTR_OK)
            return st;
        if (g->state != GTR_V1_G_RUNNABLE)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "g %" PRIu64 " is not runnable before %s (time %" PRId64 ")",
                                ev->g,
                                ev->type == GTR_V1_GO_WAITING ? "EvGoWaiting" : "EvGoInSyscall",
                                gtr__v1_time(p->t, ev->ts));
        g->state = GTR_V1_G_WAITING;
        g->ev_block_net = false;
        return GTR_OK;
    case GTR_V1_GO_CREATE: {
        /* Go reads gs[ev.G] and ps[ev.P] and writes neither. */
        cg = g_find(s, ev->g, &exists);
        if ((st = p_slot(s, ev->p, &pd)) != GTR_OK)
            return st;
        if ((st = check_running(p, pd, cg, ev, true)) != GTR_OK)
            return st;
        g_find(s, ev->args[0], &exists);
        if (exists)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "g %" PRIu64 " already exists (time %" PRId64 ")", ev->args[0],
                                gtr__v1_time(p->t, ev->ts));
        if ((st = g_slot(s, ev->args[0], &g)) != GTR_OK)
            return st;
        g->state = GTR_V1_G_RUNNABLE;
        g->ev_block_net = false;
        g->created = true;
        g->create_stk = (uint32_t)ev->args[1];
        return GTR_OK;
    }
    case GTR_V1_GO_START:
    case GTR_V1_GO_START_LABEL:
        if ((st = g_slot(s, ev->g, &g)) != GTR_OK || (st = p_slot(s, ev->p, &pd)) != GTR_OK)
            return st;
        if (g->state != GTR_V1_G_RUNNABLE)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "g %" PRIu64 " is not runnable before start (time %" PRId64 ")",
                                ev->g, gtr__v1_time(p->t, ev->ts));
        if (pd->g != 0)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "p %" PRId32 " is already running g %" PRIu64
                                " while start g %" PRIu64 " (time %" PRId64 ")",
                                ev->p, pd->g, ev->g, gtr__v1_time(p->t, ev->ts));
        g->state = GTR_V1_G_RUNNING;
        pd->g = ev->g;
        if (g->created) {
            ev->stk = g->create_stk;
            g->created = false;
        }
        g->ev_block_net = false;
        return GTR_OK;
    case GTR_V1_GO_END:
    case GTR_V1_GO_STOP:
        if ((st = g_slot(s, ev->g, &g)) != GTR_OK || (st = p_slot(s, ev->p, &pd)) != GTR_OK)
            return st;
        if ((st = check_running(p, pd, g, ev, false)) != GTR_OK)
            return st;
        g->state = GTR_V1_G_DEAD;
        pd->g = 0;
        if (ev->type == GTR_V1_GO_END) /* flush all active regions */
            regions_delete(s, ev->g);
        return GTR_OK;
    case GTR_V1_GO_SCHED:
    case GTR_V1_GO_PREEMPT:
        if ((st = g_slot(s, ev->g, &g)) != GTR_OK || (st = p_slot(s, ev->p, &pd)) != GTR_OK)
            return st;
        if ((st = check_running(p, pd, g, ev, false)) != GTR_OK)
            return st;
        g->state = GTR_V1_G_RUNNABLE;
        pd->g = 0;
        g->ev_block_net = false;
        return GTR_OK;
    case GTR_V1_GO_UNBLOCK: {
        /* Go reads gs[ev.G] and ps[ev.P] and writes only gs[ev.Args[0]]. */
        cg = g_find(s, ev->g, &exists);
        if ((st = p_slot(s, ev->p, &pd)) != GTR_OK)
            return st;
        if (cg->state != GTR_V1_G_RUNNING)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "g %" PRIu64 " is not running while unpark (time %" PRId64 ")",
                                ev->g, gtr__v1_time(p->t, ev->ts));
        if (ev->p != GTR_V1_TIMER_P && pd->g != ev->g)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "p %" PRId32 " is not running g %" PRIu64
                                " while unpark (time %" PRId64 ")",
                                ev->p, ev->g, gtr__v1_time(p->t, ev->ts));
        if ((st = g_slot(s, ev->args[0], &g)) != GTR_OK)
            return st;
        if (g->state != GTR_V1_G_WAITING)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "g %" PRIu64 " is not waiting before unpark (time %" PRId64 ")",
                                ev->args[0], gtr__v1_time(p->t, ev->ts));
        if (g->ev_block_net)
            ev->p = GTR_V1_NETPOLL_P;
        g->state = GTR_V1_G_RUNNABLE;
        g->ev_block_net = false;
        return GTR_OK;
    }
    case GTR_V1_GO_SYSCALL:
        /* Go writes gs[ev.G] back (its g.ev); the P is only read. */
        if ((st = g_slot(s, ev->g, &g)) != GTR_OK || (st = p_slot(s, ev->p, &pd)) != GTR_OK)
            return st;
        if ((st = check_running(p, pd, g, ev, false)) != GTR_OK)
            return st;
        g->ev_block_net = false;
        return GTR_OK;
    case GTR_V1_GO_SYS_BLOCK:
        if ((st = g_slot(s, ev->g, &g)) != GTR_OK || (st = p_slot(s, ev->p, &pd)) != GTR_OK)
            return st;
        if ((st = check_running(p, pd, g, ev, false)) != GTR_OK)
            return st;
        g->state = GTR_V1_G_WAITING;
        pd->g = 0;
        return GTR_OK;
    case GTR_V1_GO_SYS_EXIT:
        if ((st = g_slot(s, ev->g, &g)) != GTR_OK)
            return st;
        if (g->state != GTR_V1_G_WAITING)
            return gtr_err_setf(p->err, GTR_E_FORMAT,
                                "g %" PRIu64 " is not waiting during syscall exit (time %" PRId64
                                ")",
                                ev->g, gtr__v1_time(p->t, ev->ts));
        g->state = GTR_V1_G_RUNNABLE;
        g->ev_block_net = false;
        return GTR_OK;
    case GTR_V1_GO_SLEEP:
    case GTR_V1_GO_BLOCK:
    case GTR_V1_GO_BLOCK_SEND:
    case GTR_V1_GO_BLOCK_RECV:
    case GTR_V1_GO_BLOCK_SELECT:
    case GTR_V1_GO_BLOCK_SYNC:
    case GTR_V1_GO_BLOCK_COND:
    case GTR_V1_GO_BLOCK_NET:
    case GTR_V1_GO_BLOCK_GC:
        if ((st = g_slot(s, ev->g, &g)) != GTR_OK || (st = p_slot(s, ev->p, &pd)) != GTR_OK)
            return st;
        if ((st = check_running(p, pd, g, ev, false)) != GTR_OK)
            return st;
        g->state = GTR_V1_G_WAITING;
        g->ev_block_net = ev->type == GTR_V1_GO_BLOCK_NET;
        pd->g = 0;
        return GTR_OK;
    case GTR_V1_USER_TASK_CREATE: {
        uint64_t taskid = ev->args[0];
        size_t ti;
        bool found;
        if ((st = slot_put(p, &s->tmap, taskid, s->ntasks, &ti, &found)) != GTR_OK)
            return st;
        if (!found) {
            if (!GTR__GROW(p->alc, s->tasks, s->tasks_cap, s->ntasks + 1))
                return nomem(p);
            s->tasks[ti] = NONE;
            s->ntasks++;
        }
        if (s->tasks[ti] != NONE) {
            char prefix[96];
            snprintf(prefix, sizeof prefix, "task id conflicts (id:%" PRIu64 "), ", taskid);
            gtr__v1_unpack(t, &t->events[s->tasks[ti]], &other_ev);
            return fail_quoted(p, prefix, ev, " vs ", &other_ev);
        }
        s->tasks[ti] = idx;
        return GTR_OK;
    }
    case GTR_V1_USER_TASK_END: {
        size_t ti;
        if (slot_get(&s->tmap, ev->args[0], &ti))
            s->tasks[ti] = NONE;
        return GTR_OK;
    }
    case GTR_V1_USER_REGION: {
        uint64_t mode = ev->args[1];
        region_stack *rs;
        if ((st = region_of(s, ev->g, &rs)) != GTR_OK)
            return st;
        if (mode == 0) { /* region start: push */
            if (!GTR__GROW(p->alc, rs->v, rs->cap, rs->n + 1))
                return nomem(p);
            rs->v[rs->n++] = idx;
        } else if (mode == 1) { /* region end */
            if (rs->n > 0) { /* the matching start is in the trace */
                gtr__v1_unpack(t, &t->events[rs->v[rs->n - 1]], &other_ev);
                const gtr__v1_event *sev = &other_ev;
                if (sev->args[0] != ev->args[0] || sev->args[2] != ev->args[2]) {
                    /* task id, region name mismatch */
                    char prefix[96];
                    snprintf(prefix, sizeof prefix,
                             "misuse of region in goroutine %" PRIu64 ": span end ", ev->g);
                    return fail_quoted(p, prefix, ev,
                                       " when the inner-most active span start event is ", sev);
                }
                rs->n--;
            }
        } else {
            return fail_quoted(p, "invalid user region mode: ", ev, NULL, NULL);
        }
        return GTR_OK;
    }
    default:
        return GTR_OK;
    }
}

/* The converter's look-ahead (it.events.All) asks of each GoSysCall whether its G's next
 * event is a GoSysBlock; syscall_marks answers it for the whole stream as post_process goes
 * forward, setting GTR_V1_F_SYS_BLOCKED on each such GoSysCall. */
typedef struct syscall_marks {
    slotmap map;      /* G -> index into pending */
    size_t *pending;  /* the G's last event, when it was a GoSysCall; NONE otherwise */
    size_t n, cap;
    size_t npending;  /* pending entries that are not NONE: none, and no G needs looking up */
} syscall_marks;

static gtr_status syscall_marks_note(parser *p, syscall_marks *m, size_t i)
{
    gtr__v1_packed *ev = &p->t->events[i];
    uint8_t typ = gtr__v1_ptype(ev);
    size_t idx;
    if (typ != GTR_V1_GO_SYSCALL) {
        /* A G without a slot has no GoSysCall pending: only a pending one changes. */
        if (m->npending == 0 || !slot_get(&m->map, gtr__v1_packed_g(p->t, ev), &idx) ||
            m->pending[idx] == NONE)
            return GTR_OK;
        if (typ == GTR_V1_GO_SYS_BLOCK)
            gtr__v1_pset_flag(&p->t->events[m->pending[idx]], GTR_V1_F_SYS_BLOCKED);
        m->pending[idx] = NONE;
        m->npending--;
        return GTR_OK;
    }
    bool found;
    gtr_status st = slot_put(p, &m->map, gtr__v1_packed_g(p->t, ev), m->n, &idx, &found);
    if (st != GTR_OK)
        return st;
    if (!found) {
        if (!GTR__GROW(p->alc, m->pending, m->cap, m->n + 1))
            return nomem(p);
        m->n++;
        m->pending[idx] = NONE;
    }
    if (m->pending[idx] == NONE)
        m->npending++;
    m->pending[idx] = i;
    return GTR_OK;
}

/* post_process is Parse's steps after the merge, in one pass over the stream: timers and
 * syscall exits move to their own fake Ps (Parse's loop), then postProcessTrace's checks run
 * on each event, then syscall_marks sees it. Parse's ticks-to-nanoseconds step is
 * gtr__v1_time, applied where a time is read: the checks read none, and their messages
 * convert the times they print. Only a P or a stack that changed is stored back: most
 * events are left as they are, and their memory is only read. */
static gtr_status post_process(parser *p)
{
    gtr__v1_trace *t = p->t;
    post s;
    memset(&s, 0, sizeof s);
    s.p = p;
    size_t ev_gc = NONE, ev_stw = NONE;
    gdesc *g0;
    gtr_status st = g_slot(&s, 0, &g0);   /* gs[0] = gdesc{state: gRunning} */
    if (st == GTR_OK)
        g0->state = GTR_V1_G_RUNNING;
    syscall_marks marks = {{0}, NULL, 0, 0, 0};
    t->min_ts = t->nevents > 0 ? t->events[0].ts : 0;
    t->freq = 1e9 / (double)p->ticks_per_sec;   /* checked nonzero by the caller */
    for (size_t i = 0; i < t->nevents && st == GTR_OK; i++) {
        gtr__v1_packed *pe = &t->events[i];
        gtr__v1_event full, *ev = &full;
        gtr__v1_unpack(t, pe, &full);
        const int32_t stored_p = full.p;      /* what pe holds, to store back only a change */
        const uint32_t stored_stk = full.stk;
        size_t v;
        if (ev->type == GTR_V1_GO_UNBLOCK && gtr__idmap_get_index(&p->timer_goids, ev->g, &v))
            ev->p = GTR_V1_TIMER_P;
        if (ev->type == GTR_V1_GO_SYS_EXIT)
            ev->p = GTR_V1_SYSCALL_P;
        switch (ev->type) {
        case GTR_V1_GC_START:
            if (ev_gc != NONE) {
                st = gtr_err_setf(p->err, GTR_E_FORMAT,
                                  "previous GC is not ended before a new one (time %" PRId64 ")",
                                  gtr__v1_time(p->t, ev->ts));
                break;
            }
            ev_gc = i;
            ev->p = GTR_V1_GC_P; /* attribute this to the global GC state */
            break;
        case GTR_V1_GC_DONE:
            if (ev_gc == NONE) {
                st = gtr_err_setf(p->err, GTR_E_FORMAT, "bogus GC end (time %" PRId64 ")",
                                  gtr__v1_time(p->t, ev->ts));
                break;
            }
            ev_gc = NONE;
            break;
        case GTR_V1_STW_START:
            if (ev_stw != NONE) {
                st = gtr_err_setf(p->err, GTR_E_FORMAT,
                                  "previous STW is not ended before a new one (time %" PRId64 ")",
                                  gtr__v1_time(p->t, ev->ts));
                break;
            }
            ev_stw = i;
            break;
        case GTR_V1_STW_DONE:
            if (ev_stw == NONE) {
                st = gtr_err_setf(p->err, GTR_E_FORMAT, "bogus STW end (time %" PRId64 ")",
                                  gtr__v1_time(p->t, ev->ts));
                break;
            }
            ev_stw = NONE;
            break;
        default:
            st = post_event(&s, i, ev);
            break;
        }
        /* Events must not refer to stacks that don't exist or have no frames. */
        if (st == GTR_OK && ev->stk != 0 && !has_stack(p, ev->stk))
            ev->stk = 0;
        if (st == GTR_OK && (stored_p != ev->p || stored_stk != ev->stk) &&
            gtr__v1_pset_p_stk(t, pe, ev->p, ev->stk) != GTR_OK)
            st = nomem(p);
        if (st == GTR_OK)
            st = syscall_marks_note(p, &marks, i);
    }
    slotmap_free(p->alc, &marks.map);
    gtr__free(p->alc, marks.pending);
    slotmap_free(p->alc, &s.gmap);
    slotmap_free(p->alc, &s.pmap);
    slotmap_free(p->alc, &s.tmap);
    slotmap_free(p->alc, &s.rmap);
    gtr__free(p->alc, s.gs);
    gtr__free(p->alc, s.ps);
    gtr__free(p->alc, s.tasks);
    for (size_t i = 0; i < s.nregions; i++)
        gtr__free(p->alc, s.regions[i].v);
    gtr__free(p->alc, s.regions);
    return st;
}

static void parser_free(parser *p)
{
    slotmap_free(p->alc, &p->pids);
    for (size_t i = 0; i < p->nplists; i++)
        gtr__free(p->alc, p->plists[i].b);
    gtr__free(p->alc, p->plists);
    slotmap_free(p->alc, &p->strids);
    gtr__free(p->alc, p->inl_hash);
    slotmap_free(p->alc, &p->stackids);
    slotmap_free(p->alc, &p->pcids);
    gtr__idmap_free(&p->timer_goids, p->alc);
    gtr__free(p->alc, p->cpu);
    gtr__free(p->alc, p->cpu_packed);
    slotmap_free(p->alc, &p->last_gs_map);
    gtr__free(p->alc, p->last_gs);
}

gtr_status gtr__v1_parse(const uint8_t *data, size_t len, uint8_t *owned, gtr_go_version ver,
                         const gtr_alloc *alc, gtr__v1_trace *out, gtr_err *err)
{
    memset(out, 0, sizeof *out);
    out->alc = alc;
    out->ver = ver;
    out->data = data;
    out->len = len;
    out->data_owned = owned;
    parser *p = gtr__calloc(alc, 1, sizeof *p);
    if (p == NULL) {
        gtr__v1_trace_free(out);
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    }
    p->alc = alc;
    p->t = out;
    p->ver = ver;
    p->data = data;
    p->len = len;
    p->err = err;
    for (unsigned b = 0; b < 256; b++)
        p->plain_ok[b] = plain_byte_ok(ver, (uint8_t)b);
    for (unsigned b = 0; b < 256; b++)
        p->pack_ok[b] = pack_byte_ok(p, (uint8_t)b);

    gtr_status st = collect_batches(p);
    if (st == GTR_OK)
        st = merge_batches(p);
    if (st == GTR_OK && p->ticks_per_sec == 0)
        st = gtr_err_setf(err, GTR_E_FORMAT, "no EvFrequency event");
    if (st == GTR_OK)
        st = post_process(p);
    parser_free(p);
    gtr__free(alc, p);
    if (st != GTR_OK)
        gtr__v1_trace_free(out);
    return st;
}

void gtr__v1_trace_release_tables(gtr__v1_trace *t)
{
    gtr__free(t->alc, t->data_owned);
    gtr__free(t->alc, t->strings);
    gtr__free(t->alc, t->inline_strings);
    gtr__free(t->alc, t->stacks);
    gtr__free(t->alc, t->pcs);
    gtr__free(t->alc, t->frames);
    t->data = NULL;
    t->data_owned = NULL;
    t->len = 0;
    t->strings = NULL;
    t->inline_strings = NULL;
    t->stacks = NULL;
    t->pcs = NULL;
    t->frames = NULL;
    t->nstrings = t->ninline = t->nstacks = t->npcs = t->nframes = 0;
}

void gtr__v1_trace_free(gtr__v1_trace *t)
{
    if (t == NULL || t->alc == NULL)
        return;
    gtr__v1_trace_release_tables(t);
    gtr__free(t->alc, t->events);
    gtr__free(t->alc, t->wide);
    t->events = NULL;
    t->wide = NULL;
    t->nevents = t->nwide = t->wide_cap = 0;
}
