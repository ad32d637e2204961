/* SPDX-License-Identifier: BSD-3-Clause */
/* emit.c: the model's trace writer (see emit.h). */
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "gtr/raw.h"

#define BATCH_LIMIT (GTR_MAX_BATCH_SIZE / 2)
#define NO_THREAD UINT64_MAX

typedef struct em_m {
    uint64_t *v;       /* packed events: type, nargs, args (dt first) */
    size_t n, cap;
    uint64_t size;     /* encoded size of the events */
    uint64_t hdr;      /* header time of the open batch */
    uint64_t last;     /* time of the last event in the open batch */
    bool open;
} em_m;

struct emitter {
    gtr_alloc alc;
    gtr_go_version ver;
    bool text;
    gtr_raw_writer *rw;
    gtr_text_writer *tw;
    gtr_sink sink;            /* the caller's sink, wrapped to count bytes */
    uint64_t bytes;
    gtr_err *err;             /* of the call in progress */
    uint64_t freq;
    double ns_per_tick;
    uint64_t gen, t0;
    em_m *ms;
    size_t nms;
    uint16_t str_id[VOC_COUNT];        /* vocabulary index -> string ID (0: none yet) */
    uint16_t str_order[VOC_COUNT];     /* string ID - 1 -> vocabulary index */
    size_t nstr;
    uint16_t stk_id[EMIT_NSHAPES];
    uint16_t stk_order[EMIT_NSHAPES];
    size_t nstk;
    uint64_t samples[EMIT_MAX_SAMPLES][5];
    size_t nsamples;
    uint64_t scratch[2 + 4 * GTR_MAX_FRAMES_PER_STACK];
};

static const char *const fixed_vocab[VOC_FUNC] = {
    [VOC_NONE] = "",
    [VOC_STOP + 0] = "preempted", [VOC_STOP + 1] = "yield", [VOC_STOP + 2] = "sleep",
    [VOC_STOP + 3] = "forever",
    [VOC_BLOCK + 0] = "chan receive", [VOC_BLOCK + 1] = "chan send",
    [VOC_BLOCK + 2] = "select", [VOC_BLOCK + 3] = "sync.(*Mutex).Lock",
    [VOC_BLOCK + 4] = "sync.(*WaitGroup).Wait", [VOC_BLOCK + 5] = "network",
    [VOC_BLOCK + 6] = "system goroutine wait", [VOC_BLOCK + 7] = "GC mark assist wait for work",
    [VOC_BLOCK + 8] = "synctest", [VOC_BLOCK + 9] = "wait for debug call",
    [VOC_STW + 0] = "GC mark termination", [VOC_STW + 1] = "GC sweep termination",
    [VOC_STW + 2] = "GOMAXPROCS", [VOC_STW + 3] = "read mem stats",
    [VOC_STW + 4] = "goroutine profile", [VOC_STW + 5] = "start trace",
    [VOC_TASK + 0] = "task0", [VOC_TASK + 1] = "http request", [VOC_TASK + 2] = "batch job",
    [VOC_TASK + 3] = "\xe2\x98\x83 snowman", [VOC_TASK + 4] = "with\nnewline",
    [VOC_TASK + 5] = "a \"quoted\" type",
    [VOC_REGION + 0] = "region0", [VOC_REGION + 1] = "parse", [VOC_REGION + 2] = "render",
    [VOC_REGION + 3] = "io", [VOC_REGION + 4] = "nested region", [VOC_REGION + 5] = "r\t5",
    [VOC_KEY + 0] = "key0", [VOC_KEY + 1] = "db", [VOC_KEY + 2] = "cache", [VOC_KEY + 3] = "",
    [VOC_VALUE + 0] = "value0", [VOC_VALUE + 1] = "hit", [VOC_VALUE + 2] = "miss",
    [VOC_VALUE + 3] = "select * from t", [VOC_VALUE + 4] = "\x01\x02 binary\xff",
    [VOC_VALUE + 5] = "",
    /* VOC_VALUE + 6 .. + 10: the long messages, made by vocab_string */
    [VOC_LABEL + 0] = "label0", [VOC_LABEL + 1] = "GC (dedicated)",
    [VOC_LABEL + 2] = "GC (fractional)", [VOC_LABEL + 3] = "GC (idle)",
};

/* vocab_string writes vocabulary entry voc into buf (VOC_MAX_LEN bytes) and returns its
 * length. */
static size_t vocab_string(unsigned voc, char *buf)
{
    static const unsigned long_lens[VOC_NLONG] = VOC_LONG_LENS;
    int n;
    if (voc >= VOC_COUNT)
        voc = VOC_NONE;
    if (voc >= VOC_VALUE + VOC_NVALUE - VOC_NLONG && voc < VOC_VALUE + VOC_NVALUE) {
        unsigned len = long_lens[voc - (VOC_VALUE + VOC_NVALUE - VOC_NLONG)];
        static const char head[] = "long log message ";
        for (unsigned i = 0; i < len; i++)
            buf[i] = i < sizeof head - 1 ? head[i] : (char)('0' + i % 10);
        return len;
    }
    if (voc < VOC_FUNC) {
        size_t len = strlen(fixed_vocab[voc] != NULL ? fixed_vocab[voc] : "");
        memcpy(buf, fixed_vocab[voc] != NULL ? fixed_vocab[voc] : "", len);
        return len;
    }
    if (voc < VOC_FILE)
        n = snprintf(buf, 64, "main.worker%u.func%u", (voc - VOC_FUNC) / 4, (voc - VOC_FUNC) % 4);
    else
        n = snprintf(buf, 64, "/home/gopher/src/app/file%u.go", voc - VOC_FILE);
    return n > 0 ? (size_t)n : 0;
}

/* ---- writing ---- */

static gtr_status count_write(void *ctx, const void *data, size_t n, gtr_err *err)
{
    emitter *e = ctx;
    e->bytes += n;
    return e->sink.write(e->sink.ctx, data, n, err);
}

static gtr_raw_event raw_event(const emitter *e, uint8_t type, const uint64_t *args,
                               size_t nargs, const void *data, size_t len)
{
    gtr_raw_event ev;
    memset(&ev, 0, sizeof ev);
    ev.version = (uint8_t)e->ver;
    ev.type = type;
    ev.args = args;
    ev.nargs = nargs;
    ev.data = data;
    ev.data_len = len;
    ev.has_data_field = gtr_spec(type)->has_data;
    return ev;
}

static gtr_status put(emitter *e, uint8_t type, const uint64_t *args, size_t nargs,
                      const void *data, size_t len)
{
    gtr_raw_event ev = raw_event(e, type, args, nargs, data, len);
    return e->text ? gtr_text_writer_write(e->tw, &ev, e->err)
                   : gtr_raw_writer_write(e->rw, &ev, e->err);
}

static uint64_t encoded_size(const emitter *e, uint8_t type, const uint64_t *args, size_t nargs,
                             size_t len)
{
    gtr_raw_event ev = raw_event(e, type, args, nargs, NULL, len);
    return gtr_raw_event_encoded_size(&ev);
}

static gtr_status batch_header(emitter *e, uint64_t m, uint64_t time, uint64_t size)
{
    uint64_t hdr[4] = {e->gen, m, time, size};
    return put(e, GTR_EV_EVENT_BATCH, hdr, 4, NULL, 0);
}

gtr_status emit_new(const gtr_alloc *alc, gtr_go_version v, bool text, gtr_sink sink,
                    size_t nms, uint64_t freq, emitter **out, gtr_err *err)
{
    const gtr_alloc *a = alc != NULL ? alc : gtr_alloc_libc();
    emitter *e = a->malloc_fn(a->ctx, sizeof *e);
    gtr_sink counted;
    gtr_status st;

    *out = NULL;
    if (e == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "gsim: out of memory");
    memset(e, 0, sizeof *e);
    e->alc = *a;
    e->ver = v;
    e->text = text;
    e->sink = sink;
    e->err = err;
    e->freq = freq;
    e->ns_per_tick = 1.0 / ((double)freq / 1e9);   /* Go: frequency(1.0 / (float64(f) / 1e9)) */
    e->nms = nms;
    e->ms = a->malloc_fn(a->ctx, nms * sizeof *e->ms);
    if (e->ms == NULL) {
        emit_free(e);
        return gtr_err_setf(err, GTR_E_NOMEM, "gsim: out of memory");
    }
    memset(e->ms, 0, nms * sizeof *e->ms);
    counted.write = count_write;
    counted.ctx = e;
    st = text ? gtr_text_writer_new(counted, v, &e->alc, &e->tw, err)
              : gtr_raw_writer_new(counted, v, &e->alc, &e->rw, err);
    if (st < 0) {
        emit_free(e);
        return st;
    }
    *out = e;
    return GTR_OK;
}

void emit_free(emitter *e)
{
    if (e == NULL)
        return;
    gtr_raw_writer_free(e->rw);
    gtr_text_writer_free(e->tw);
    for (size_t i = 0; e->ms != NULL && i < e->nms; i++)
        e->alc.free_fn(e->alc.ctx, e->ms[i].v);
    e->alc.free_fn(e->alc.ctx, e->ms);
    e->alc.free_fn(e->alc.ctx, e);
}

gtr_time emit_ns(const emitter *e, uint64_t ts)
{
    return (gtr_time)((double)ts * e->ns_per_tick);   /* Go: Time(float64(t) * float64(f)) */
}

uint64_t emit_bytes(const emitter *e)
{
    return e->bytes;
}

gtr_status emit_gen_begin(emitter *e, uint64_t gen, uint64_t t0, int64_t wall_sec)
{
    gtr_status st = GTR_OK;
    e->gen = gen;
    e->t0 = t0;
    memset(e->str_id, 0, sizeof e->str_id);
    memset(e->stk_id, 0, sizeof e->stk_id);
    e->nstr = e->nstk = e->nsamples = 0;
    if (e->ver >= GTR_GO125) {
        /* Sync, Frequency, ClockSnapshot at t0+1 (mono t0+1, wall wall_sec.gen). */
        uint64_t freq[1] = {e->freq};
        uint64_t snap[4] = {1, t0 + 1, (uint64_t)wall_sec, gen % 1000000000u};
        uint64_t size = encoded_size(e, GTR_EV_SYNC, NULL, 0, 0) +
                        encoded_size(e, GTR_EV_FREQUENCY, freq, 1, 0) +
                        encoded_size(e, GTR_EV_CLOCK_SNAPSHOT, snap, 4, 0);
        if ((st = batch_header(e, NO_THREAD, t0, size)) < 0 ||
            (st = put(e, GTR_EV_SYNC, NULL, 0, NULL, 0)) < 0 ||
            (st = put(e, GTR_EV_FREQUENCY, freq, 1, NULL, 0)) < 0 ||
            (st = put(e, GTR_EV_CLOCK_SNAPSHOT, snap, 4, NULL, 0)) < 0)
            return st;
    }
    return st;
}

gtr_status emit_exp_batch(emitter *e, uint64_t m, const uint8_t *data, size_t len)
{
    uint64_t a[4] = {GTR_EXP_ALLOC_FREE, e->gen, m, e->t0};
    return put(e, GTR_EV_EXPERIMENTAL_BATCH, a, 4, data, len);
}

/* flush_m writes thread mi's open batch. */
static gtr_status flush_m(emitter *e, size_t mi)
{
    em_m *m = &e->ms[mi];
    gtr_status st;
    if (!m->open)
        return GTR_OK;
    if ((st = batch_header(e, (uint64_t)mi, m->hdr, m->size)) < 0)
        return st;
    for (size_t i = 0; i < m->n;) {
        uint8_t type = (uint8_t)m->v[i];
        size_t nargs = (size_t)m->v[i + 1];
        if ((st = put(e, type, &m->v[i + 2], nargs, NULL, 0)) < 0)
            return st;
        i += 2 + nargs;
    }
    m->n = 0;
    m->size = 0;
    m->open = false;
    return GTR_OK;
}

gtr_status emit_event(emitter *e, size_t mi, uint8_t type, uint64_t ts, const uint64_t *args,
                      size_t nargs)
{
    em_m *m = &e->ms[mi];
    uint64_t *p;
    if (nargs + 1 > GTR_MAX_SPEC_ARGS)
        return gtr_err_setf(e->err, GTR_E_USAGE, "gsim: event %u with %zu args", type, nargs);
    if (m->n + nargs + 3 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 256;
        void *q = e->alc.realloc_fn(e->alc.ctx, m->v, ncap * sizeof *m->v);
        if (q == NULL)
            return gtr_err_setf(e->err, GTR_E_NOMEM, "gsim: out of memory");
        m->v = q;
        m->cap = ncap;
    }
    if (!m->open) {
        m->open = true;
        m->hdr = m->last = ts - 1;
    }
    p = &m->v[m->n];
    p[0] = type;
    p[1] = nargs + 1;
    p[2] = ts - m->last;
    for (size_t i = 0; i < nargs; i++)
        p[3 + i] = args[i];
    m->size += encoded_size(e, type, &p[2], nargs + 1, 0);
    m->n += nargs + 3;
    m->last = ts;
    if (m->size >= BATCH_LIMIT)
        return flush_m(e, mi);
    return GTR_OK;
}

uint64_t emit_string(emitter *e, unsigned voc)
{
    char buf[VOC_MAX_LEN];
    if (voc >= VOC_COUNT || vocab_string(voc, buf) == 0)
        return 0;
    if (e->str_id[voc] == 0) {
        e->str_order[e->nstr] = (uint16_t)voc;
        e->str_id[voc] = (uint16_t)++e->nstr;
    }
    return e->str_id[voc];
}

unsigned emit_shape_depth(unsigned shape)
{
    return shape / EMIT_STACK_VARIANTS;
}

/* frame j (0 = innermost) of a stack shape: PC -> (func, file, line) is a function, as in a
 * real binary, because the reader keeps one frame per PC. */
static void shape_frame(unsigned shape, unsigned j, uint64_t out[4])
{
    unsigned depth = emit_shape_depth(shape), variant = shape % EMIT_STACK_VARIANTS;
    unsigned fn = (variant * 17u + (depth - j) * 5u) % VOC_NFUNC;
    unsigned line = 1 + (variant * 3u + j) % 97u;
    out[0] = 0x401000u + fn * 0x1000u + line * 4u;
    out[1] = VOC_FUNC + fn;
    out[2] = VOC_FILE + fn % VOC_NFILE;
    out[3] = line;
}

uint64_t emit_stack(emitter *e, unsigned shape)
{
    if (shape >= EMIT_NSHAPES || emit_shape_depth(shape) == 0)
        return 0;
    if (e->stk_id[shape] == 0) {
        e->stk_order[e->nstk] = (uint16_t)shape;
        e->stk_id[shape] = (uint16_t)++e->nstk;
    }
    return e->stk_id[shape];
}

bool emit_samples_full(const emitter *e)
{
    return e->nsamples == EMIT_MAX_SAMPLES;
}

gtr_status emit_sample(emitter *e, uint64_t ts, uint64_t m, uint64_t p, uint64_t g,
                       uint64_t stack)
{
    if (e->nsamples == EMIT_MAX_SAMPLES)
        return gtr_err_setf(e->err, GTR_E_USAGE, "gsim: too many CPU samples");
    uint64_t *s = e->samples[e->nsamples++];
    s[0] = ts;
    s[1] = m;
    s[2] = p;
    s[3] = g;
    s[4] = stack;
    return GTR_OK;
}

/* structural writes a batch (m NoThread, time t0) of the head event then items [0, n) given
 * by item(); split past BATCH_LIMIT, every part starting with the head event. */
typedef size_t (*item_fn)(emitter *e, size_t i, uint8_t *type, uint64_t **args,
                          const char **data, size_t *len, char *buf);

static size_t stack_item(emitter *e, size_t i, uint8_t *type, uint64_t **args,
                         const char **data, size_t *len, char *buf)
{
    unsigned shape = e->stk_order[i], depth = emit_shape_depth(shape);
    uint64_t *a = e->scratch;
    a[0] = i + 1;
    a[1] = depth;
    for (unsigned j = 0; j < depth; j++) {
        uint64_t f[4];
        shape_frame(shape, j, f);
        a[2 + 4 * j] = f[0];
        a[3 + 4 * j] = emit_string(e, (unsigned)f[1]);
        a[4 + 4 * j] = emit_string(e, (unsigned)f[2]);
        a[5 + 4 * j] = f[3];
    }
    *type = GTR_EV_STACK;
    *args = a;
    *data = NULL;
    *len = 0;
    return 2 + 4 * (size_t)depth;
}

static size_t string_item(emitter *e, size_t i, uint8_t *type, uint64_t **args,
                          const char **data, size_t *len, char *buf)
{
    e->scratch[0] = i + 1;
    *type = GTR_EV_STRING;
    *args = e->scratch;
    *len = vocab_string(e->str_order[i], buf);
    *data = buf;
    return 1;
}

static size_t sample_item(emitter *e, size_t i, uint8_t *type, uint64_t **args,
                          const char **data, size_t *len, char *buf)
{
    *type = GTR_EV_CPU_SAMPLE;
    *args = e->samples[i];
    *data = NULL;
    *len = 0;
    return 5;
}

/* Two passes per part: sizes first (the header needs the size), then the events. */
static gtr_status structural(emitter *e, uint8_t head, size_t n, item_fn item)
{
    char buf[VOC_MAX_LEN];
    gtr_status st;
    size_t i = 0;
    do {
        uint64_t size = encoded_size(e, head, NULL, 0, 0);
        size_t j = i;
        while (j < n && size < BATCH_LIMIT) {
            uint8_t type;
            uint64_t *args;
            const char *data;
            size_t len, nargs = item(e, j, &type, &args, &data, &len, buf);
            size += encoded_size(e, type, args, nargs, len);
            j++;
        }
        if ((st = batch_header(e, NO_THREAD, e->t0, size)) < 0 ||
            (st = put(e, head, NULL, 0, NULL, 0)) < 0)
            return st;
        for (; i < j; i++) {
            uint8_t type;
            uint64_t *args;
            const char *data;
            size_t len, nargs = item(e, i, &type, &args, &data, &len, buf);
            if ((st = put(e, type, args, nargs, data, len)) < 0)
                return st;
        }
    } while (i < n);
    return GTR_OK;
}

gtr_status emit_gen_end(emitter *e)
{
    gtr_status st;
    for (size_t mi = 0; mi < e->nms; mi++)
        if ((st = flush_m(e, mi)) < 0)
            return st;
    if (e->ver < GTR_GO125) {
        uint64_t freq[1] = {e->freq};
        if ((st = batch_header(e, NO_THREAD, e->t0,
                               encoded_size(e, GTR_EV_FREQUENCY, freq, 1, 0))) < 0 ||
            (st = put(e, GTR_EV_FREQUENCY, freq, 1, NULL, 0)) < 0)
            return st;
    }
    if (e->nsamples != 0 && (st = structural(e, GTR_EV_CPU_SAMPLES, e->nsamples, sample_item)) < 0)
        return st;
    /* Stacks first: their frames intern the function and file names. */
    if ((st = structural(e, GTR_EV_STACKS, e->nstk, stack_item)) < 0 ||
        (st = structural(e, GTR_EV_STRINGS, e->nstr, string_item)) < 0)
        return st;
    if (e->ver >= GTR_GO126 && (st = put(e, GTR_EV_END_OF_GENERATION, NULL, 0, NULL, 0)) < 0)
        return st;
    return GTR_OK;
}

gtr_status emit_finish(emitter *e)
{
    return e->text ? gtr_text_writer_flush(e->tw, e->err) : gtr_raw_writer_flush(e->rw, e->err);
}
