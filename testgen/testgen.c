/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/internal/testgen/trace.go at go1.27.3. */
/*
 * The trace is kept as Go keeps it: top-level raw events, then generations, each holding its
 * per-M batches (events already reduced to raw args), its interned strings and stacks and its
 * sync parameters. tgen_generate writes it all through the raw text writer, the generation
 * layout exactly as writeEventsTo does for the version:
 *
 *   >= go1.25   a sync batch (m=NoThread) at sync.time-1: Sync, Frequency, ClockSnapshot
 *   all         the per-M batches, in creation order
 *   <  go1.25   a lone Frequency batch at sync.time
 *   all         Stacks batch(es), then Strings batch(es), split past MaxBatchSize/2
 *   >= go1.26   a bare EndOfGeneration event
 *
 * Structural batches take the time lastTs+1 (the clock keeps running across generations).
 * Go ranges over maps for stacks and strings; we write them in ID order, so the output is
 * deterministic byte for byte.
 *
 * Errors: Go panics; we keep the first error on the trace (sticky) and make later calls
 * no-ops. Interning is a linear search: generators intern tens of strings, at most a few
 * thousand, so a hash table would buy nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtr/raw.h"
#include "tgen/expect.h"
#include "tgen/tgen.h"
#include "txtar.h"

#define MAX_TEST_FRAMES 32   /* testgen's stack{stk [32]trace.StackFrame} */

typedef struct rec {
    uint8_t type;
    uint64_t *args;
    size_t nargs;
    uint8_t *data;
    size_t len;
} rec;

typedef struct recs {
    rec *v;
    size_t n, cap;
} recs;

typedef struct str_ent {
    char *s;
    size_t n;
} str_ent;

typedef struct stack_ent {
    tgen_frame *frames;   /* owned copies (func and file owned too) */
    size_t n;
} stack_ent;

struct tgen_batch {
    tgen_gen *gen;
    uint64_t thread;
    uint64_t timestamp;
    uint64_t size;
    recs evs;
};

struct tgen_gen {
    tgen_trace *trace;
    uint64_t gen;
    tgen_batch **batches;
    size_t nbatches, cap_batches;
    str_ent *strs;   /* strs[i] has ID i+1 */
    size_t nstrs, cap_strs;
    stack_ent *stks; /* stks[i] has ID i+1 */
    size_t nstks, cap_stks;
    uint64_t freq, sync_time, mono;
    tgen_wall wall;
    bool ignore_string_limit, ignore_stack_limit;
};

struct tgen_trace {
    gtr_alloc alc;
    gtr_go_version ver;
    gtr_err err;          /* the sticky error (code GTR_OK while none) */
    bool valid_ts;
    uint64_t last_ts;
    tgen_expect *expect;  /* NULL: SUCCESS */
    recs top;
    tgen_gen **gens;
    size_t ngens, cap_gens;
};

/* ---- memory and errors ---- */

static bool failed(const tgen_trace *t)
{
    return t == NULL || t->err.code != GTR_OK;
}

static void fail(tgen_trace *t, gtr_status code, const char *fmt, ...) GTR_PRINTF(3, 4);
static void fail(tgen_trace *t, gtr_status code, const char *fmt, ...)
{
    va_list ap;
    if (t->err.code != GTR_OK)
        return;
    va_start(ap, fmt);
    gtr_err_vsetf(&t->err, code, fmt, ap);
    va_end(ap);
}

static void *t_alloc(tgen_trace *t, size_t n)
{
    void *p = t->alc.malloc_fn(t->alc.ctx, n ? n : 1);
    if (p == NULL)
        fail(t, GTR_E_NOMEM, "tgen: out of memory");
    return p;
}

static void t_free(tgen_trace *t, void *p)
{
    if (p != NULL)
        t->alc.free_fn(t->alc.ctx, p);
}

/* grow makes room for one more element in *v (n used, *cap allocated). */
static bool grow(tgen_trace *t, void **v, size_t n, size_t *cap, size_t elem)
{
    size_t ncap;
    void *p;
    if (n < *cap)
        return true;
    ncap = *cap ? *cap * 2 : 8;
    if (ncap > SIZE_MAX / elem) {
        fail(t, GTR_E_NOMEM, "tgen: out of memory");
        return false;
    }
    p = t->alc.realloc_fn(t->alc.ctx, *v, ncap * elem);
    if (p == NULL) {
        fail(t, GTR_E_NOMEM, "tgen: out of memory");
        return false;
    }
    *v = p;
    *cap = ncap;
    return true;
}
#define GROW(t, arr, n, cap) grow((t), (void **)&(arr), (n), &(cap), sizeof *(arr))

static void *t_dup(tgen_trace *t, const void *p, size_t n)
{
    char *q = t_alloc(t, n + 1);
    if (q == NULL)
        return NULL;
    if (n)
        memcpy(q, p, n);
    q[n] = 0;
    return q;
}

static void recs_free(tgen_trace *t, recs *r)
{
    for (size_t i = 0; i < r->n; i++) {
        t_free(t, r->v[i].args);
        t_free(t, r->v[i].data);
    }
    t_free(t, r->v);
    memset(r, 0, sizeof *r);
}

/* ---- the trace ---- */

tgen_trace *tgen_trace_new(gtr_go_version v, const gtr_alloc *alc)
{
    const gtr_alloc *a = alc != NULL ? alc : gtr_alloc_libc();
    tgen_trace *t = a->malloc_fn(a->ctx, sizeof *t);
    if (t == NULL)
        return NULL;
    memset(t, 0, sizeof *t);
    t->alc = *a;
    t->ver = v;
    t->valid_ts = true;
    gtr_err_clear(&t->err);
    if (!gtr_go_version_valid((uint64_t)v) || gtr_go_version_nspecs((uint64_t)v) == 0)
        fail(t, GTR_E_USAGE, "tgen: unsupported trace version go1.%d", (int)v);
    return t;
}

static void batch_free(tgen_trace *t, tgen_batch *b)
{
    if (b == NULL)
        return;
    recs_free(t, &b->evs);
    t_free(t, b);
}

static void gen_free(tgen_trace *t, tgen_gen *g)
{
    for (size_t i = 0; i < g->nbatches; i++)
        batch_free(t, g->batches[i]);
    t_free(t, g->batches);
    for (size_t i = 0; i < g->nstrs; i++)
        t_free(t, g->strs[i].s);
    t_free(t, g->strs);
    for (size_t i = 0; i < g->nstks; i++) {
        for (size_t j = 0; j < g->stks[i].n; j++) {
            t_free(t, (void *)(uintptr_t)g->stks[i].frames[j].func);
            t_free(t, (void *)(uintptr_t)g->stks[i].frames[j].file);
        }
        t_free(t, g->stks[i].frames);
    }
    t_free(t, g->stks);
    t_free(t, g);
}

void tgen_trace_free(tgen_trace *t)
{
    if (t == NULL)
        return;
    gtr_err_clear(&t->err);
    recs_free(t, &t->top);
    for (size_t i = 0; i < t->ngens; i++)
        gen_free(t, t->gens[i]);
    t_free(t, t->gens);
    tgen_expect_free(t->expect);
    t->alc.free_fn(t->alc.ctx, t);
}

gtr_go_version tgen_trace_version(const tgen_trace *t)
{
    return t != NULL ? t->ver : (gtr_go_version)0;
}

gtr_status tgen_trace_status(const tgen_trace *t, gtr_err *err)
{
    if (t == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "tgen: out of memory");
    if (t->err.code != GTR_OK)
        gtr_err_copy(err, &t->err);
    return t->err.code;
}

void tgen_expect_failure(tgen_trace *t, const char *pattern)
{
    tgen_expect *e;
    gtr_err err = GTR_ERR_INIT;

    if (failed(t))
        return;
    /* Go: regexp.MustCompile(pattern), which panics with
     * "regexp: Compile(" + quote(expr) + "): " + err.Error(). */
    gtr_err_clear(&err);
    if (tgen_expect_new_failure(pattern, strlen(pattern), &e, &err) < 0) {
        gtr_buf q = {0};
        gtr_buf_init(&q, &t->alc);
        gtr_go_quote(&q, pattern, strlen(pattern));
        fail(t, err.code == GTR_E_NOMEM ? GTR_E_NOMEM : GTR_E_USAGE, "regexp: Compile(%s): %s",
             q.data != NULL ? q.data : "\"\"", gtr_err_text(&err, NULL));
        gtr_buf_free(&q);
        gtr_err_clear(&err);
        return;
    }
    tgen_expect_free(t->expect);
    t->expect = e;
}

void tgen_expect_success(tgen_trace *t)
{
    if (failed(t))
        return;
    tgen_expect_free(t->expect);
    t->expect = NULL;
}

void tgen_disable_timestamps(tgen_trace *t)
{
    if (failed(t))
        return;
    t->valid_ts = false;
}

/* make_rec is Trace.createEvent: checks the type and arity, copies args and data. */
static bool make_rec(tgen_trace *t, uint8_t typ, const void *data, size_t len,
                     const uint64_t *args, size_t nargs, rec *out)
{
    const gtr_event_spec *spec = gtr_spec(typ);
    memset(out, 0, sizeof *out);
    if (typ >= gtr_go_version_nspecs((uint64_t)t->ver) || spec->name == NULL) {
        /* Go indexes t.specs[ev] and panics (index out of range). */
        fail(t, GTR_E_USAGE, "tgen: invalid event type %u for go1.%d traces", (unsigned)typ,
             (int)t->ver);
        return false;
    }
    if (typ != GTR_EV_STACK && nargs != spec->nargs) {
        /* Go: panic(fmt.Sprintf("expected %d args for %s, got %d", arity, spec.Name, len(args))) */
        fail(t, GTR_E_USAGE, "expected %d args for %s, got %zu", (int)spec->nargs, spec->name,
             nargs);
        return false;
    }
    if (len != 0 && data == NULL) {
        fail(t, GTR_E_USAGE, "tgen: %s event of %zu data bytes given no bytes", spec->name, len);
        return false;
    }
    if (len != 0 && !spec->has_data) {
        fail(t, GTR_E_USAGE, "tgen: %s events carry no data", spec->name);
        return false;
    }
    out->type = typ;
    out->nargs = nargs;
    if ((out->args = t_alloc(t, nargs * sizeof *args)) == NULL)
        return false;
    if (nargs)
        memcpy(out->args, args, nargs * sizeof *args);
    if (spec->has_data) {
        out->len = len;
        if ((out->data = t_dup(t, data, len)) == NULL) {
            t_free(t, out->args);
            return false;
        }
    }
    return true;
}

static gtr_raw_event rec_event(const tgen_trace *t, const rec *r)
{
    gtr_raw_event ev;
    memset(&ev, 0, sizeof ev);
    ev.version = (uint8_t)t->ver;
    ev.type = r->type;
    ev.args = r->args;
    ev.nargs = r->nargs;
    ev.data = r->data;
    ev.data_len = r->len;
    ev.has_data_field = gtr_spec(r->type)->has_data;
    return ev;
}

void tgen__trace_raw(tgen_trace *t, uint8_t typ, const void *data, size_t len,
                     const uint64_t *args, size_t nargs)
{
    rec r;
    if (failed(t) || !GROW(t, t->top.v, t->top.n, t->top.cap))
        return;
    if (make_rec(t, typ, data, len, args, nargs, &r))
        t->top.v[t->top.n++] = r;
}

/* ---- generations ---- */

tgen_gen *tgen_generation(tgen_trace *t, uint64_t gen)
{
    tgen_gen *g;
    if (failed(t) || !GROW(t, t->gens, t->ngens, t->cap_gens))
        return NULL;
    if ((g = t_alloc(t, sizeof *g)) == NULL)
        return NULL;
    memset(g, 0, sizeof *g);
    g->trace = t;
    g->gen = gen;
    g->freq = TGEN_DEFAULT_FREQ;
    g->wall = TGEN_WALL_ZERO;
    t->gens[t->ngens++] = g;
    return g;
}

void tgen_sync(tgen_gen *g, uint64_t freq, uint64_t time, uint64_t mono, tgen_wall wall)
{
    bool wall_zero = wall.sec == TGEN_WALL_ZERO_SEC && wall.nsec == 0;
    if (g == NULL || failed(g->trace))
        return;
    if (g->trace->ver < GTR_GO125 && (mono != 0 || !wall_zero)) {
        /* Go: panic(fmt.Sprintf("mono and wall args are not supported in go1.%d traces", ver)) */
        fail(g->trace, GTR_E_USAGE, "mono and wall args are not supported in go1.%d traces",
             (int)g->trace->ver);
        return;
    }
    if (wall.nsec >= 1000000000u) {
        fail(g->trace, GTR_E_USAGE, "tgen: wall nanoseconds %u out of range",
             (unsigned)wall.nsec);
        return;
    }
    g->freq = freq;
    g->sync_time = time;
    g->mono = mono;
    g->wall = wall;
}

uint64_t tgen_string_n(tgen_gen *g, const char *s, size_t n)
{
    tgen_trace *t;
    char *c;
    if (g == NULL || failed(g->trace) || n == 0)
        return 0;
    t = g->trace;
    if (s == NULL) {
        fail(t, GTR_E_USAGE, "tgen: string of %zu bytes given no bytes", n);
        return 0;
    }
    for (size_t i = 0; i < g->nstrs; i++) {
        if (g->strs[i].n == n && memcmp(g->strs[i].s, s, n) == 0)
            return i + 1;
    }
    if (!GROW(t, g->strs, g->nstrs, g->cap_strs) || (c = t_dup(t, s, n)) == NULL)
        return 0;
    g->strs[g->nstrs].s = c;
    g->strs[g->nstrs].n = n;
    return ++g->nstrs;
}

uint64_t tgen_string(tgen_gen *g, const char *s)
{
    return tgen_string_n(g, s, s != NULL ? strlen(s) : 0);
}

static bool cstr_eq(const char *a, const char *b)
{
    return strcmp(a != NULL ? a : "", b != NULL ? b : "") == 0;
}

uint64_t tgen_stack(tgen_gen *g, const tgen_frame *frames, size_t n)
{
    tgen_trace *t;
    tgen_frame *fr;
    if (g == NULL || failed(g->trace) || n == 0)
        return 0;
    t = g->trace;
    if (frames == NULL) {
        fail(t, GTR_E_USAGE, "tgen: stack of %zu frames given no frames", n);
        return 0;
    }
    if (n > MAX_TEST_FRAMES) {
        /* Go: panic("stack too big for test") */
        fail(t, GTR_E_USAGE, "stack too big for test");
        return 0;
    }
    for (size_t i = 0; i < g->nstks; i++) {
        size_t j;
        if (g->stks[i].n != n)
            continue;
        for (j = 0; j < n; j++) {
            const tgen_frame *a = &g->stks[i].frames[j], *b = &frames[j];
            if (a->pc != b->pc || a->line != b->line || !cstr_eq(a->func, b->func) ||
                !cstr_eq(a->file, b->file))
                break;
        }
        if (j == n)
            return i + 1;
    }
    if (!GROW(t, g->stks, g->nstks, g->cap_stks) || (fr = t_alloc(t, n * sizeof *fr)) == NULL)
        return 0;
    for (size_t j = 0; j < n; j++) {
        const char *fn = frames[j].func != NULL ? frames[j].func : "";
        const char *fl = frames[j].file != NULL ? frames[j].file : "";
        fr[j].pc = frames[j].pc;
        fr[j].line = frames[j].line;
        fr[j].func = t_dup(t, fn, strlen(fn));
        fr[j].file = t_dup(t, fl, strlen(fl));
    }
    /* Registered even after a failed copy, so gen_free releases what was copied. */
    g->stks[g->nstks].frames = fr;
    g->stks[g->nstks].n = n;
    g->nstks++;
    return failed(t) ? 0 : g->nstks;
}

void tgen_ignore_stack_batch_size_limit(tgen_gen *g)
{
    if (g != NULL)
        g->ignore_stack_limit = true;
}

void tgen_ignore_string_batch_size_limit(tgen_gen *g)
{
    if (g != NULL)
        g->ignore_string_limit = true;
}

/* ---- batches ---- */

/* set_timestamp is Batch.setTimestamp. */
static void set_timestamp(tgen_batch *b, uint64_t time)
{
    tgen_trace *t = b->gen->trace;
    if (t->valid_ts) {
        b->timestamp = time;
        t->last_ts = time;
    }
}

static void batch_init(tgen_batch *b, tgen_gen *g, uint64_t thread)
{
    memset(b, 0, sizeof *b);
    b->gen = g;
    b->thread = thread;
}

tgen_batch *tgen_batch_new(tgen_gen *g, gtr_threadid m, uint64_t time)
{
    tgen_trace *t;
    tgen_batch *b;
    if (g == NULL || failed(g->trace))
        return NULL;
    t = g->trace;
    if (!GROW(t, g->batches, g->nbatches, g->cap_batches) || (b = t_alloc(t, sizeof *b)) == NULL)
        return NULL;
    batch_init(b, g, (uint64_t)m);
    set_timestamp(b, time);
    g->batches[g->nbatches++] = b;
    return b;
}

/* Batch.RawEvent: append and account the encoded size. testgen adds the data length only when
 * the data is not empty; we add raw.Event.EncodedSize, which also counts the 1-byte length of
 * an empty trailer, the byte the wire writer does emit. The two agree on every event that
 * carries data. */
void tgen__raw(tgen_batch *b, uint8_t typ, const void *data, size_t len, const uint64_t *args,
               size_t nargs)
{
    tgen_trace *t;
    gtr_raw_event ev;
    rec r;
    if (b == NULL || failed(b->gen->trace))
        return;
    t = b->gen->trace;
    if (!GROW(t, b->evs.v, b->evs.n, b->evs.cap) || !make_rec(t, typ, data, len, args, nargs, &r))
        return;
    ev = rec_event(t, &r);
    b->size += gtr_raw_event_encoded_size(&ev);
    b->evs.v[b->evs.n++] = r;
}

static const char *const kind_names[] = {
    [TGEN_ARG_NONE] = "nothing",       [TGEN_ARG_VALUE] = "TG_VALUE",
    [TGEN_ARG_STACK] = "TG_STACK",     [TGEN_ARG_SEQ] = "TG_SEQ",
    [TGEN_ARG_PSTATUS] = "TG_PSTATUS", [TGEN_ARG_GSTATUS] = "TG_GSTATUS",
    [TGEN_ARG_G] = "TG_G",             [TGEN_ARG_M] = "TG_M",
    [TGEN_ARG_P] = "TG_P",             [TGEN_ARG_STRING] = "TG_STR",
    [TGEN_ARG_TASK] = "TG_TASK",
};

static const char *kind_name(tgen_arg_kind k)
{
    return (unsigned)k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "bad kind";
}

/* arg_kind maps a spec argument name to the kind it takes (Batch.uintArgFor's switch on the
 * part after the first '_'); TGEN_ARG_NONE when testgen cannot convert it. */
static tgen_arg_kind arg_kind(const char *spec_arg, const char **typ)
{
    static const struct {
        const char *name;
        tgen_arg_kind kind;
    } kinds[] = {
        {"value", TGEN_ARG_VALUE}, {"mono", TGEN_ARG_VALUE},     {"sec", TGEN_ARG_VALUE},
        {"nsec", TGEN_ARG_VALUE},  {"stack", TGEN_ARG_STACK},    {"seq", TGEN_ARG_SEQ},
        {"pstatus", TGEN_ARG_PSTATUS}, {"gstatus", TGEN_ARG_GSTATUS}, {"g", TGEN_ARG_G},
        {"m", TGEN_ARG_M},         {"p", TGEN_ARG_P},            {"string", TGEN_ARG_STRING},
        {"task", TGEN_ARG_TASK},
    };
    const char *us = strchr(spec_arg, '_');
    *typ = us != NULL ? us + 1 : spec_arg;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strcmp(kinds[i].name, *typ) == 0)
            return kinds[i].kind;
    }
    return TGEN_ARG_NONE;
}

void tgen__event(tgen_batch *b, const char *name, const tgen_arg *args, size_t nargs)
{
    uint64_t u[GTR_MAX_SPEC_ARGS];
    const gtr_event_spec *spec;
    tgen_trace *t;
    size_t off = 0;
    int typ;

    if (b == NULL || failed(b->gen->trace))
        return;
    t = b->gen->trace;
    typ = name != NULL ? gtr_go_version_lookup_event((uint64_t)t->ver, name, strlen(name)) : -1;
    if (typ < 0) {
        /* Go: panic(fmt.Sprintf("invalid or unknown event %s", name)) */
        fail(t, GTR_E_USAGE, "invalid or unknown event %s", name != NULL ? name : "(null)");
        return;
    }
    spec = gtr_spec((uint8_t)typ);
    if (spec->nargs - (spec->is_timed ? 1 : 0) != (int)nargs) {
        /* Go: panic(fmt.Sprintf("expected %d args for %s, got %d", arity, spec.Name, len(args))) */
        fail(t, GTR_E_USAGE, "expected %d args for %s, got %zu",
             spec->nargs - (spec->is_timed ? 1 : 0), spec->name, nargs);
        return;
    }
    if (spec->is_timed) {
        if (t->valid_ts) {
            u[0] = 1;
            t->last_ts++;
        } else {
            u[0] = 0;
        }
        off = 1;
    }
    for (size_t i = 0; i < nargs; i++) {
        const char *argspec = spec->args[i + off], *tname;
        tgen_arg_kind want = arg_kind(argspec, &tname);
        if (want == TGEN_ARG_NONE) {
            /* Go: panic(fmt.Sprintf("unsupported arg type %q for spec %q", typStr, argSpec)) */
            fail(t, GTR_E_USAGE, "unsupported arg type \"%s\" for spec \"%s\"", tname, argspec);
            return;
        }
        if (args[i].kind != want) {
            /* Go panics with an interface conversion error. */
            fail(t, GTR_E_USAGE, "%s: argument %zu (%s) takes %s, got %s", spec->name, i + 1,
                 argspec, kind_name(want), kind_name(args[i].kind));
            return;
        }
        switch (want) {
        case TGEN_ARG_STACK:
            u[i + off] = tgen_stack(b->gen, args[i].frames, args[i].n);
            break;
        case TGEN_ARG_STRING:
            u[i + off] = tgen_string_n(b->gen, args[i].s,
                                       args[i].n == TGEN_STRLEN
                                           ? (args[i].s != NULL ? strlen(args[i].s) : 0)
                                           : args[i].n);
            break;
        default:
            u[i + off] = args[i].u;
            break;
        }
    }
    tgen__raw(b, (uint8_t)typ, NULL, 0, u, nargs + off);
}

/* ---- output ---- */

typedef struct out_ctx {
    tgen_trace *t;
    gtr_text_writer *tw;
    gtr_err *err;
    gtr_status st;
} out_ctx;

static void write_rec(out_ctx *o, const rec *r)
{
    gtr_raw_event ev;
    if (o->st < 0)
        return;
    ev = rec_event(o->t, r);
    o->st = gtr_text_writer_write(o->tw, &ev, o->err);
}

/* Batch.writeEventsTo: the header, then the events. */
static void write_batch(out_ctx *o, const tgen_batch *b)
{
    uint64_t hdr[4];
    rec r;
    hdr[0] = b->gen->gen;
    hdr[1] = b->thread;
    hdr[2] = b->timestamp;
    hdr[3] = b->size;
    memset(&r, 0, sizeof r);
    r.type = GTR_EV_EVENT_BATCH;
    r.args = hdr;
    r.nargs = 4;
    write_rec(o, &r);
    for (size_t i = 0; i < b->evs.n; i++)
        write_rec(o, &b->evs.v[i]);
}

/* Generation.newStructuralBatch. */
static void structural_batch(tgen_batch *b, tgen_gen *g)
{
    batch_init(b, g, TGEN_NO_THREAD_U64);
    set_timestamp(b, g->trace->last_ts + 1);
}

/* flush writes b and starts a new structural batch in its place. */
static void flush(out_ctx *o, tgen_batch *b, tgen_gen *g)
{
    write_batch(o, b);
    recs_free(o->t, &b->evs);
    structural_batch(b, g);
}

/* Generation.writeEventsTo. */
static void write_gen(out_ctx *o, tgen_gen *g)
{
    tgen_trace *t = o->t;
    tgen_batch b;

    if (t->ver >= GTR_GO125) {
        structural_batch(&b, g);
        /* Arrange for EvClockSnapshot's ts to be exactly g.sync.time. */
        set_timestamp(&b, g->sync_time - 1);
        tgen_raw(&b, GTR_EV_SYNC);
        tgen_raw(&b, GTR_EV_FREQUENCY, g->freq);
        tgen_event(&b, "ClockSnapshot", TG_VALUE(g->mono), TG_VALUE((uint64_t)g->wall.sec),
                   TG_VALUE(g->wall.nsec));
        write_batch(o, &b);
        recs_free(t, &b.evs);
    }
    for (size_t i = 0; i < g->nbatches; i++)
        write_batch(o, g->batches[i]);
    if (t->ver < GTR_GO125) {
        structural_batch(&b, g);
        set_timestamp(&b, g->sync_time);
        tgen_raw(&b, GTR_EV_FREQUENCY, g->freq);
        write_batch(o, &b);
        recs_free(t, &b.evs);
    }

    /* Stacks, in ID order. Their frames' strings are interned here, after all others. */
    structural_batch(&b, g);
    tgen_raw(&b, GTR_EV_STACKS);
    for (size_t i = 0; i < g->nstks && !failed(t); i++) {
        uint64_t args[2 + 4 * MAX_TEST_FRAMES];
        const stack_ent *s = &g->stks[i];
        size_t n = 0;
        args[n++] = i + 1;
        args[n++] = s->n;
        for (size_t j = 0; j < s->n; j++) {
            args[n++] = s->frames[j].pc;
            args[n++] = tgen_string(g, s->frames[j].func);
            args[n++] = tgen_string(g, s->frames[j].file);
            args[n++] = s->frames[j].line;
        }
        tgen__raw(&b, GTR_EV_STACK, NULL, 0, args, n);
        if (!g->ignore_stack_limit && b.size > GTR_MAX_BATCH_SIZE / 2)
            flush(o, &b, g);
    }
    write_batch(o, &b);
    recs_free(t, &b.evs);

    /* Strings, in ID order. */
    structural_batch(&b, g);
    tgen_raw(&b, GTR_EV_STRINGS);
    for (size_t i = 0; i < g->nstrs && !failed(t); i++) {
        tgen_raw_data(&b, GTR_EV_STRING, g->strs[i].s, g->strs[i].n, i + 1);
        if (!g->ignore_string_limit && b.size > GTR_MAX_BATCH_SIZE / 2)
            flush(o, &b, g);
    }
    write_batch(o, &b);
    recs_free(t, &b.evs);

    if (t->ver >= GTR_GO126) {
        rec r;
        memset(&r, 0, sizeof r);
        r.type = GTR_EV_END_OF_GENERATION;
        write_rec(o, &r);
    }
}

/* expect_text appends the `expect` file: "SUCCESS\n" or "FAILURE %q\n". */
static gtr_status expect_text(const tgen_trace *t, gtr_buf *out)
{
    if (t->expect == NULL)
        return gtr_buf_puts(out, "SUCCESS\n");
    return tgen_expect_format(t->expect, out);
}

gtr_status tgen_generate(tgen_trace *t, gtr_buf *out, gtr_err *err)
{
    gtr_buf trace = {0};
    gtr_buf expect = {0};
    out_ctx o;
    gtr_status st;

    if (failed(t))
        return tgen_trace_status(t, err);
    gtr_buf_init(&trace, &t->alc);
    gtr_buf_init(&expect, &t->alc);
    memset(&o, 0, sizeof o);
    o.t = t;
    o.err = err;
    o.st = gtr_text_writer_new(gtr_sink_buf(&trace), t->ver, &t->alc, &o.tw, err);
    for (size_t i = 0; i < t->top.n; i++)
        write_rec(&o, &t->top.v[i]);
    for (size_t i = 0; i < t->ngens && o.st >= 0 && !failed(t); i++)
        write_gen(&o, t->gens[i]);
    if (o.st >= 0)
        o.st = gtr_text_writer_flush(o.tw, err);
    gtr_text_writer_free(o.tw);
    if (failed(t)) {
        st = tgen_trace_status(t, err);
        goto out;
    }
    if ((st = o.st) < 0)
        goto out;
    expect_text(t, &expect);
    if ((st = gtr_buf_status(&expect)) < 0 || (st = gtr_buf_status(&trace)) < 0) {
        st = gtr_err_setf(err, st, "tgen: out of memory");
        goto out;
    }
    {
        txtar_file files[2] = {
            {.name = "expect", .name_len = 6, .data = expect.data, .data_len = expect.len},
            {.name = "trace", .name_len = 5, .data = trace.data, .data_len = trace.len},
        };
        txtar_archive ar = {.comment = NULL, .comment_len = 0, .files = files, .nfiles = 2};
        size_t n = txtar_format_len(&ar);
        if (n == (size_t)-1 || (st = gtr_buf_reserve(out, n)) < 0) {
            st = gtr_err_setf(err, GTR_E_NOMEM, "tgen: out of memory");
            goto out;
        }
        out->len += txtar_format_to(&ar, out->data + out->len);
        out->data[out->len] = 0;
    }
    st = GTR_OK;
out:
    gtr_buf_free(&trace);
    gtr_buf_free(&expect);
    return st;
}

gtr_status tgen_run(const tgen_generator *g, gtr_buf *out, gtr_err *err)
{
    tgen_trace *t = tgen_trace_new(g->version, out->alc);
    gtr_status st;
    if (t == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "tgen: out of memory");
    if (!failed(t))
        g->gen(t);
    st = tgen_generate(t, out, err);
    if (st < 0)
        gtr_err_wrapf(err, "generator %s", g->name);
    tgen_trace_free(t);
    return st;
}
