/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_testgen.c: the testgen DSL (Go's internal/trace/internal/testgen) driven by the input.
 *
 * The first byte picks the version (22, 23, 25, 26) and one of two modes; the rest are the
 * choices of a sequence of DSL calls (missing bytes read as 0, so every input is a
 * complete program).
 *
 * Chaos mode: any DSL call with any arguments: generations with any number, syncs, strings
 * and stacks of any size (over 32 frames is an error), batches for any thread, events by
 * name with argument kinds right or wrong, raw events with self-consistent framing (a Stack
 * carries whole frames, a HasData event a trailer), top-level raw events, expectation
 * regexps from the input, disabled timestamps and batch-size limits. Oracles: when
 * tgen_generate succeeds, its .test file parses as txtar with `expect` and `trace`, the
 * expectation parses, and the trace section reads with our text reader to a clean EOF; the
 * trace then goes through text2bytes, the reader and the validator (any outcome, no crash).
 * When a call fails, tgen_generate reports the recorded error with a message.
 *
 * Legal mode: a small scheduler model (1-3 Ms, each holding its own P; goroutines created,
 * started, stopped, blocked, unblocked and destroyed with correct sequence numbers; logs,
 * tasks and heap metrics; 1-3 generations, each re-declaring every status) emits only legal
 * scheduling, in time order. Oracle: the reader reads it to EOF and the validator accepts
 * every event. */
#include "fuzz_common.h"
#include "tgen/expect.h"
#include "tgen/judge.h"
#include "tgen/tgen.h"
#include "txtar.h"

/* The input as a stream of choices. */
typedef struct choices {
    const uint8_t *p;
    size_t n;
} choices;

static unsigned take8(choices *c)
{
    if (c->n == 0)
        return 0;
    c->n--;
    return *c->p++;
}

/* take_below returns a choice in [0, k). */
static unsigned take_below(choices *c, unsigned k)
{
    return k ? take8(c) % k : 0;
}

/* take_u64: mostly small numbers, sometimes a boundary, sometimes 8 raw bytes. */
static uint64_t take_u64(choices *c)
{
    static const uint64_t edges[] = {0, 1, 2, 127, 128, 1024, 65536, INT64_MAX,
                                     (uint64_t)INT64_MAX + 1, UINT64_MAX};
    unsigned sel = take8(c);
    if (sel < 160)
        return sel % 8;
    if (sel < 224)
        return edges[sel % (sizeof edges / sizeof edges[0])];
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | take8(c);
    return v;
}

/* take_bytes points *s at up to max input bytes (a length choice, then the bytes). */
static size_t take_bytes(choices *c, size_t max, const char **s)
{
    size_t len = take_below(c, (unsigned)max + 1);
    if (len > c->n)
        len = c->n;
    *s = (const char *)c->p;
    c->p += len;
    c->n -= len;
    return len;
}

/* The argument kind Go's uintArgFor derives from a spec argument name. */
static tgen_arg_kind arg_kind(const char *name)
{
    const char *u = strchr(name, '_');
    const char *typ = u ? u + 1 : name;
    static const struct {
        const char *name;
        tgen_arg_kind kind;
    } kinds[] = {{"value", TGEN_ARG_VALUE},     {"mono", TGEN_ARG_VALUE},
                 {"sec", TGEN_ARG_VALUE},       {"nsec", TGEN_ARG_VALUE},
                 {"stack", TGEN_ARG_STACK},     {"seq", TGEN_ARG_SEQ},
                 {"pstatus", TGEN_ARG_PSTATUS}, {"gstatus", TGEN_ARG_GSTATUS},
                 {"g", TGEN_ARG_G},             {"m", TGEN_ARG_M},
                 {"p", TGEN_ARG_P},             {"string", TGEN_ARG_STRING},
                 {"task", TGEN_ARG_TASK}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(typ, kinds[i].name) == 0)
            return kinds[i].kind;
    return TGEN_ARG_VALUE;
}

/* A pool of frames whose strings point into static storage or the input. */
#define MAX_FRAMES 40
typedef struct frames {
    tgen_frame f[MAX_FRAMES];
    char names[MAX_FRAMES][2][8];
} frames;

static size_t take_frames(choices *c, frames *fr)
{
    size_t n = take_below(c, MAX_FRAMES + 1);
    for (size_t i = 0; i < n; i++) {
        snprintf(fr->names[i][0], sizeof fr->names[i][0], "f%u", take_below(c, 8));
        snprintf(fr->names[i][1], sizeof fr->names[i][1], "x%u.go", take_below(c, 4));
        fr->f[i].pc = take_u64(c);
        fr->f[i].func = fr->names[i][0];
        fr->f[i].file = fr->names[i][1];
        fr->f[i].line = take_u64(c);
    }
    return n;
}

/* An event type of version v with a name (for tgen_event and raw events). */
static uint8_t take_event_type(choices *c, gtr_go_version v)
{
    size_t n = gtr_go_version_nspecs(v);
    uint8_t t = (uint8_t)(1 + take_below(c, (unsigned)(n - 1)));
    return gtr_spec(t)->name != NULL ? t : GTR_EV_PROC_START;
}

static void chaos_event(choices *c, tgen_trace *t, tgen_batch *b, frames *fr)
{
    gtr_go_version v = tgen_trace_version(t);
    const gtr_event_spec *s = gtr_spec(take_event_type(c, v));
    tgen_arg args[GTR_MAX_SPEC_ARGS + 1];
    size_t first = s->is_timed ? 1 : 0;
    size_t n = s->nargs - first;
    unsigned skew = take_below(c, 16);
    if (skew == 0 && n > 0)
        n--;                                   /* wrong arity: an error */
    else if (skew == 1 && n < GTR_MAX_SPEC_ARGS)
        n++;
    for (size_t i = 0; i < n; i++) {
        tgen_arg_kind k = first + i < s->nargs ? arg_kind(s->args[first + i]) : TGEN_ARG_VALUE;
        if (take_below(c, 32) == 0)
            k = (tgen_arg_kind)(1 + take_below(c, TGEN_ARG_TASK));   /* wrong kind */
        memset(&args[i], 0, sizeof args[i]);
        args[i].kind = k;
        if (k == TGEN_ARG_STRING) {
            args[i].n = take_bytes(c, 12, &args[i].s);
        } else if (k == TGEN_ARG_STACK) {
            args[i].n = take_frames(c, fr);
            args[i].frames = fr->f;
        } else {
            args[i].u = take_u64(c);
        }
    }
    tgen__event(b, s->name, args, n);
}

/* A raw event with self-consistent framing: a Stack's frames are whole, a HasData event
 * has a non-empty trailer (Go's testgen would write an unreadable text otherwise). */
static void chaos_raw(choices *c, tgen_trace *t, tgen_batch *b, bool top)
{
    gtr_go_version v = tgen_trace_version(t);
    uint8_t typ = take_event_type(c, v);
    const gtr_event_spec *s = gtr_spec(typ);
    uint64_t args[GTR_MAX_SPEC_ARGS + 4 * 4];
    size_t n = s->nargs;
    for (size_t i = 0; i < n; i++)
        args[i] = take_u64(c);
    if (s->is_stack) {
        size_t nf = take_below(c, 5);
        args[1] = nf;
        for (size_t i = 0; i < 4 * nf; i++)
            args[n++] = take_u64(c);
    }
    const char *data = NULL;
    size_t len = 0;
    if (s->has_data) {
        len = take_bytes(c, 16, &data);
        if (len == 0) {
            data = "x";
            len = 1;
        }
    }
    if (top)
        tgen__trace_raw(t, typ, data, len, args, n);
    else
        tgen__raw(b, typ, data, len, args, n);
}

static void build_chaos(choices *c, tgen_trace *t)
{
    tgen_gen *g = NULL;
    tgen_batch *b = NULL;
    frames fr;
    char pattern[24];
    unsigned ops = 1 + take_below(c, 64);
    for (unsigned i = 0; i < ops; i++) {
        const char *s;
        size_t n;
        switch (take_below(c, 16)) {
        case 0:
            g = tgen_generation(t, take_u64(c));
            b = NULL;
            break;
        case 1:
            tgen_sync(g, take_u64(c), take_u64(c), take_u64(c),
                      TGEN_WALL((int64_t)take_u64(c), take_below(c, 255) * 4000000u));
            break;
        case 2:
            n = take_bytes(c, 16, &s);
            (void)tgen_string_n(g, s, n);
            break;
        case 3:
            n = take_frames(c, &fr);
            (void)tgen_stack(g, fr.f, n);
            break;
        case 4:
            b = tgen_batch_new(g, (gtr_threadid)take_u64(c), take_u64(c));
            break;
        case 5:
            chaos_raw(c, t, b, false);
            break;
        case 6:
            chaos_raw(c, t, NULL, true);
            break;
        case 7:
            n = take_bytes(c, sizeof pattern - 1, &s);
            memcpy(pattern, s, n);
            pattern[n] = '\0';
            tgen_expect_failure(t, pattern);
            break;
        case 8:
            tgen_expect_success(t);
            break;
        case 9:
            tgen_disable_timestamps(t);
            break;
        case 10:
            tgen_ignore_stack_batch_size_limit(g);
            tgen_ignore_string_batch_size_limit(g);
            break;
        default:
            chaos_event(c, t, b, &fr);
            break;
        }
    }
}

/* The legal-scheduling model. */
#define MAX_MS 3
#define MAX_GS 16
enum { G_DEAD, G_RUNNABLE, G_RUNNING, G_WAITING };
typedef struct model {
    gtr_go_version v;
    unsigned nm;
    int running[MAX_MS];    /* goroutine index running on M, or -1 */
    uint8_t state[MAX_GS];
    uint64_t seq[MAX_GS];
    unsigned ng;            /* goroutines ever created (IDs 1..ng) */
    uint64_t next_task;
    uint64_t open_tasks[8];
    unsigned nopen;
    uint64_t clock;         /* the DSL's clock: batch times continue from it */
} model;

static int pick_g(choices *c, const model *md, uint8_t state)
{
    int cand[MAX_GS], n = 0;
    for (unsigned i = 0; i < md->ng; i++)
        if (md->state[i] == state)
            cand[n++] = (int)i;
    return n ? cand[take_below(c, (unsigned)n)] : -1;
}

static void legal_step(choices *c, model *md, tgen_batch *b, unsigned m)
{
    int gr = md->running[m];
    md->clock++;
    if (gr < 0) {
        int r = pick_g(c, md, G_RUNNABLE);
        if (r >= 0) {
            tgen_event(b, "GoStart", TG_G(r + 1), TG_SEQ(++md->seq[r]));
            md->state[r] = G_RUNNING;
            md->running[m] = r;
        } else {
            tgen_event(b, "HeapAlloc", TG_VALUE(take_u64(c)));
        }
        return;
    }
    tgen_frame f = {0x1000 + take_below(c, 4), "main.f", "main.go", take_below(c, 100)};
    tgen_arg stack = take_below(c, 2) ? TG_STACK(&f, 1) : TG_NOSTACK;
    unsigned act = take_below(c, 10);
    int w = act == 4 ? pick_g(c, md, G_WAITING) : -1;
    if (act == 0 && md->ng >= MAX_GS)
        act = 1;                      /* no room for a goroutine: stop instead */
    if (act == 4 && w < 0)
        act = 5;                      /* nobody waiting: log instead */
    if (act == 6 && md->nopen >= 8)
        act = 7;                      /* too many open tasks: end one */
    if (act == 7 && md->nopen == 0)
        act = 8;
    switch (act) {
    case 0:
        md->state[md->ng] = G_RUNNABLE;
        md->seq[md->ng] = 0;
        md->ng++;
        tgen_event(b, "GoCreate", TG_G(md->ng), TG_NOSTACK, stack);
        break;
    case 1:
        tgen_event(b, "GoStop", TG_STR("yield"), stack);
        md->state[gr] = G_RUNNABLE;
        md->running[m] = -1;
        break;
    case 2:
        tgen_event(b, "GoBlock", TG_STR("chan receive"), stack);
        md->state[gr] = G_WAITING;
        md->running[m] = -1;
        break;
    case 3:
        tgen_event(b, "GoDestroy");
        md->state[gr] = G_DEAD;
        md->running[m] = -1;
        break;
    case 4:
        tgen_event(b, "GoUnblock", TG_G(w + 1), TG_SEQ(++md->seq[w]), stack);
        md->state[w] = G_RUNNABLE;
        break;
    case 5:
        tgen_event(b, "UserLog", TG_TASK(0), TG_STR("key"), TG_STR("value"), stack);
        break;
    case 6:
        md->open_tasks[md->nopen++] = ++md->next_task;
        tgen_event(b, "UserTaskBegin", TG_TASK(md->next_task), TG_TASK(0), TG_STR("task"), stack);
        break;
    case 7:
        tgen_event(b, "UserTaskEnd", TG_TASK(md->open_tasks[--md->nopen]), stack);
        break;
    default:
        tgen_event(b, "HeapAlloc", TG_VALUE(take_u64(c)));
        break;
    }
}

static void build_legal(choices *c, tgen_trace *t)
{
    model md;
    memset(&md, 0, sizeof md);
    md.v = tgen_trace_version(t);
    md.nm = 1 + take_below(c, MAX_MS);
    for (unsigned m = 0; m < md.nm; m++) {
        md.running[m] = (int)m;
        md.state[m] = G_RUNNING;
    }
    md.ng = md.nm;
    unsigned gens = 1 + take_below(c, 3);
    for (unsigned gi = 0; gi < gens; gi++) {
        tgen_gen *g = tgen_generation(t, gi + 1);
        if (md.v >= GTR_GO125)
            tgen_sync(g, TGEN_DEFAULT_FREQ, md.clock + 1, 1000 * (gi + 1),
                      TGEN_WALL(1700000000 + (int64_t)gi, 0));
        tgen_batch *b[MAX_MS];
        for (unsigned m = 0; m < md.nm; m++) {
            b[m] = tgen_batch_new(g, (gtr_threadid)m, md.clock);
            tgen_event(b[m], "ProcStatus", TG_P(m), TG_PSTATUS(GTR_PSTATUS_RUNNING));
            md.clock++;
            if (md.running[m] >= 0) {
                tgen_event(b[m], "GoStatus", TG_G(md.running[m] + 1), TG_M(m),
                           TG_GSTATUS(GTR_GSTATUS_RUNNING));
                md.clock++;
            }
        }
        for (unsigned i = 0; i < md.ng; i++) {
            md.seq[i] = 0;
            if (md.state[i] == G_RUNNABLE || md.state[i] == G_WAITING) {
                tgen_event(b[0], "GoStatus", TG_G(i + 1), TG_M(GTR_NO_THREAD),
                           TG_GSTATUS(md.state[i] == G_RUNNABLE ? GTR_GSTATUS_RUNNABLE
                                                                : GTR_GSTATUS_WAITING));
                md.clock++;
            }
        }
        unsigned steps = take_below(c, 48), cur = 0;
        tgen_batch *bb = b[0];
        for (unsigned i = 0; i < steps; i++) {
            unsigned m = take_below(c, md.nm);
            if (m != cur) {   /* a new batch, so creation order is time order */
                bb = tgen_batch_new(g, (gtr_threadid)m, md.clock);
                cur = m;
            }
            legal_step(c, &md, bb, m);
        }
    }
}

/* text2bytes converts a text trace to wire bytes, requiring the text to read cleanly. */
static bool text2bytes(const char *text, size_t len, gtr_buf *wire)
{
    gtr_input *in = fuzz_input_open((const uint8_t *)text, len);
    gtr_text_reader *r = NULL;
    gtr_raw_writer *w = NULL;
    gtr_err err = GTR_ERR_INIT;
    bool ok = false;
    if (in == NULL)
        return false;
    gtr_status st = gtr_text_reader_new(in, NULL, &r, &err);
    if (st == GTR_E_NOMEM)
        goto done;
    FUZZ_CHECK(st == GTR_OK, "testgen's trace section has a readable header");
    if (gtr_raw_writer_new(gtr_sink_buf(wire), gtr_text_reader_version(r), NULL, &w, &err) !=
        GTR_OK)
        goto done;
    for (;;) {
        gtr_raw_event ev;
        st = gtr_text_reader_next(r, &ev, &err);
        if (st == GTR_EOF)
            break;
        if (st == GTR_E_NOMEM)
            goto done;
        if (st != GTR_OK)
            fprintf(stderr, "text reader: %s\n", gtr_err_text(&err, NULL));
        FUZZ_CHECK(st == GTR_OK, "whatever testgen emits is readable by our text reader");
        if (gtr_raw_writer_write(w, &ev, &err) != GTR_OK)
            goto done;
    }
    ok = gtr_raw_writer_flush(w, &err) == GTR_OK && gtr_buf_status(wire) == GTR_OK;
done:
    gtr_err_clear(&err);
    gtr_raw_writer_free(w);
    gtr_text_reader_free(r);
    gtr_input_free(in);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const gtr_go_version versions[] = {GTR_GO122, GTR_GO123, GTR_GO125, GTR_GO126};
    if (size > 4096)
        return 0;
    choices c = {data, size};
    unsigned head = take8(&c);
    bool legal = head & 1;
    tgen_trace *t = tgen_trace_new(versions[(head >> 1) % 4], NULL);
    if (t == NULL)
        return 0;
    if (legal)
        build_legal(&c, t);
    else
        build_chaos(&c, t);

    gtr_buf out = {0}, wire = {0};
    gtr_err err = GTR_ERR_INIT, verr = GTR_ERR_INIT;
    txtar_archive *a = NULL;
    tgen_expect *exp = NULL;
    gtr_status st = tgen_generate(t, &out, &err);
    if (legal && st != GTR_OK && st != GTR_E_NOMEM)
        fprintf(stderr, "tgen_generate: %s\n", gtr_err_text(&err, NULL));
    FUZZ_CHECK(!legal || st == GTR_OK || st == GTR_E_NOMEM, "legal programs generate");
    if (st != GTR_OK) {
        FUZZ_CHECK(st < 0 && (st == GTR_E_NOMEM || err.len != 0),
                   "a recorded DSL error has a message");
        goto done;
    }
    a = txtar_parse(out.data, out.len);
    if (a == NULL)
        goto done;
    const txtar_file *fe = txtar_find(a, "expect"), *ft = txtar_find(a, "trace");
    FUZZ_CHECK(fe != NULL && ft != NULL, "the .test file has expect and trace sections");
    st = tgen_expect_parse(fe->data, fe->data_len, &exp, &err);
    FUZZ_CHECK(st == GTR_OK || st == GTR_E_NOMEM, "the generated expectation parses");
    if (!text2bytes(ft->data, ft->data_len, &wire))
        goto done;
    /* The golden judgment (Go's testReader), as `gotrace check` runs it. */
    tgen_verdict v;
    if (tgen_judge((const uint8_t *)wire.data, wire.len, NULL, NULL, &v) < 0) {
        tgen_verdict_free(&v);
        goto done;
    }
    bool nomem = (v.end != TGEN_END_EOF && v.end_err.code == GTR_E_NOMEM) ||
                 (v.invalid > 0 && v.valid_err.code == GTR_E_NOMEM);
    if (legal && !nomem) {
        if (v.end != TGEN_END_EOF)
            fprintf(stderr, "reader: %s\n%.*s", gtr_err_text(&v.end_err, NULL),
                    (int)ft->data_len, ft->data);
        FUZZ_CHECK(v.end == TGEN_END_EOF, "a legal trace reads to EOF");
        if (v.invalid > 0)
            fprintf(stderr, "validator: %s\n%.*s", gtr_err_text(&v.valid_err, NULL),
                    (int)ft->data_len, ft->data);
        FUZZ_CHECK(v.invalid == 0, "a legal trace validates");
    } else if (exp != NULL && !nomem) {
        (void)tgen_verdict_check(&v, exp, NULL, &verr);
    }
    tgen_verdict_free(&v);
done:
    gtr_err_clear(&err);
    gtr_err_clear(&verr);
    tgen_expect_free(exp);
    txtar_free(a);
    gtr_buf_free(&out);
    gtr_buf_free(&wire);
    tgen_trace_free(t);
    return 0;
}
