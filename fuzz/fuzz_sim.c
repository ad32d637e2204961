/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_sim.c: the scheduler model (sim/) driven by the fuzzer.
 *
 * The input bytes are the model's choice string: the first choices pick the configuration
 * (version, procs, generations, events; gsim_config_choose), the rest every move. Past the
 * end of the bytes the choices continue from a splitmix64 stream seeded by a hash of them,
 * so that a short input still makes a varied trace (deep stacks, tasks and goroutines that
 * outlive a generation, ...) instead of the degenerate one all-zero choices give.
 *
 * Two oracles, chosen by the input's last bytes:
 *  - no corruption record (the usual case): the model makes only legal moves, so the strong
 *    oracle must hold: the reader reads the trace to EOF, the validator accepts every event,
 *    and every event read back equals the model's record (gsim_check). A failure is a bug in
 *    the model or in the reader.
 *  - up to SIM_MAX_OPS corruption records at the end of the input (each SIM_REC_BYTES long,
 *    opened by a last byte >= SIM_MARKER; the choice string is what precedes them): the
 *    model's trace is written, then each record applies one structure-aware mutation to its
 *    raw events (set or add to an argument, drop, duplicate or swap an event, cut the trace
 *    inside an event or a batch header; batch sizes are recomputed unless a record set one),
 *    and the result goes through the reader and the validator. The oracle is Go's behaviour
 *    on bad input: errors allowed, no crash, every error carries a message. This reaches the
 *    reader's malformed-input paths from a legal multi-generation trace, one change away.
 *
 * GTR_SIM_TRACE_OUT=PATH (replay only, not for fuzzing) writes the trace the input makes
 * (corrupted, when it has records) to PATH, so that a find can be reduced to a fixture with
 * `gotrace reduce` (fuzz/canary/sim-reduce.sh).
 *
 * Built with GTR_FUZZ_SIM_DIFF (the target fuzz_diff_sim), the same traces, the model's and
 * the corrupted ones, go to fuzz_diff's oracle instead (fuzz/diff/diff_judge.h): libtrace and
 * Go 1.27.3's own reader, linked in, must read each the same. */
#include <limits.h>

#include "fuzz_common.h"
#include "sim_records.h"
#include "gsim/sim.h"
#include "gtr/raw.h"
#include "gtr/reader.h"
#include "gtr/validate.h"

#ifdef GTR_FUZZ_SIM_DIFF
#include "diff/diff_judge.h"
#endif

#define SIM_MAX_CHOICE_BYTES ((size_t)64 << 10)   /* longer inputs: their first 64 KiB */
#define SIM_MAX_EVENTS 1000
#define SIM_MAX_TRACE_BYTES ((size_t)16 << 20)

typedef struct sim_op {
    uint8_t op, arg;
    uint32_t where;
    uint64_t value;
} sim_op;

/* ---- the choice source: the bytes, then a stream seeded by them ---- */

typedef struct sim_choice_state {
    gsim_bytes_state bytes;
    gsim_seed_state tail;
    gsim_choice b, t;
} sim_choice_state;

static uint64_t sim_next(void *ctx, uint64_t n)
{
    sim_choice_state *st = ctx;
    if (st->bytes.pos < st->bytes.len)
        return st->b.next(st->b.ctx, n);
    return st->t.next(st->t.ctx, n);
}

static gsim_choice sim_choice(sim_choice_state *st, const uint8_t *data, size_t size)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325) ^ size;   /* FNV-1a */
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * UINT64_C(0x100000001b3);
    st->b = gsim_choice_bytes(&st->bytes, data, size);
    st->t = gsim_choice_seed(&st->tail, h);
    return (gsim_choice){.next = sim_next, .ctx = st};
}

static uint64_t le(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* parse_ops takes the corruption records off the end of data[0..*size). */
static size_t parse_ops(const uint8_t *data, size_t *size, sim_op *ops)
{
    size_t n = 0;
    while (n < SIM_MAX_OPS && *size > 0 && data[*size - 1] >= SIM_MARKER) {
        uint8_t r[SIM_REC_BYTES] = {0};
        size_t k = *size < SIM_REC_BYTES ? *size : SIM_REC_BYTES;
        memcpy(r + SIM_REC_BYTES - k, data + *size - k, k);
        ops[n].value = le(r, 8);
        ops[n].where = (uint32_t)le(r + 8, 4);
        ops[n].arg = r[12];
        ops[n].op = (uint8_t)(r[13] - SIM_MARKER);
        n++;
        *size -= k;
    }
    return n;
}

/* ---- corrupting a trace ---- */

typedef struct corrupt {
    fuzz_rawlist l;
    size_t *order;        /* entries of l in trace order (an entry may appear twice) */
    size_t n, cap;
    bool *size_pinned;    /* per entry: a record set this batch header's size */
    size_t cut_at;        /* position in order where the trace ends (SIZE_MAX: none) */
    uint64_t cut_bytes;   /* bytes of that event kept */
} corrupt;

static bool batch_like(uint8_t type)
{
    return type == GTR_EV_EVENT_BATCH || type == GTR_EV_END_OF_GENERATION;
}

static size_t size_arg(void)
{
    const gtr_event_spec *sp = gtr_spec(GTR_EV_EVENT_BATCH);
    for (size_t j = 0; j < sp->nargs; j++)
        if (sp->args[j] != NULL && strcmp(sp->args[j], "size") == 0)
            return j;
    return SIZE_MAX;
}

/* Which events an operation may pick. */
typedef bool (*type_filter)(uint8_t type);

static bool any_type(uint8_t type)
{
    (void)type;
    return true;
}

static bool stack_type(uint8_t type)
{
    return type == GTR_EV_STACK;
}

static bool has_refs(uint8_t type)   /* a string or stack argument */
{
    const gtr_event_spec *sp = gtr_spec(type);
    return sp->nstring_ids + sp->nstack_ids > 0;
}

/* pick returns the position in c->order of the event `where` names among those of the
 * types ok accepts, or SIZE_MAX. */
static size_t pick(const corrupt *c, uint32_t where, type_filter ok)
{
    size_t count[256] = {0}, ntypes = 0;
    for (size_t i = 0; i < c->n; i++) {
        fuzz_rawent e = fuzz_rawlist_entry(&c->l, c->order[i]);
        if (ok(e.type))
            ntypes += count[e.type]++ == 0;
    }
    if (ntypes == 0)
        return SIZE_MAX;
    size_t k = (where & 0xff) % ntypes, type = 0;
    for (type = 0; type < 256; type++)
        if (count[type] != 0 && k-- == 0)
            break;
    size_t occ = (where >> 8) % count[type];
    for (size_t i = 0; i < c->n; i++) {
        fuzz_rawent e = fuzz_rawlist_entry(&c->l, c->order[i]);
        if (e.type == type && occ-- == 0)
            return i;
    }
    return SIZE_MAX;
}

/* ref_edge: OP_REF_EDGE on the event at position i. */
static void ref_edge(corrupt *c, size_t i, const sim_op *op)
{
    fuzz_rawent e = fuzz_rawlist_entry(&c->l, c->order[i]);
    const gtr_event_spec *sp = gtr_spec(e.type);
    uint64_t gen = 0, max_str = 0, max_stk = 0, v;
    size_t j = SIZE_MAX;
    bool str = true;
    /* The generation of the event: that of the last batch header before it. */
    for (size_t k = i + 1; k-- > 0;) {
        fuzz_rawent b = fuzz_rawlist_entry(&c->l, c->order[k]);
        if (b.type == GTR_EV_EVENT_BATCH && b.nargs > 0) {
            gen = fuzz_rawlist_arg(&c->l, &b, 0);
            break;
        }
    }
    /* That generation's largest string and stack IDs. */
    for (size_t k = 0, g = 0; k < c->n; k++) {
        fuzz_rawent x = fuzz_rawlist_entry(&c->l, c->order[k]);
        if (x.nargs == 0)
            continue;
        v = fuzz_rawlist_arg(&c->l, &x, 0);
        if (x.type == GTR_EV_EVENT_BATCH)
            g = v;
        else if (g == gen && x.type == GTR_EV_STRING && v > max_str)
            max_str = v;
        else if (g == gen && x.type == GTR_EV_STACK && v > max_stk)
            max_stk = v;
    }
    if (sp->is_stack && e.nargs > 2) {
        /* A frame (pc, func, file, line): its func or file. */
        size_t nfr = (e.nargs - 2) / 4, f = (op->arg >> 1) % nfr;
        j = 2 + 4 * f + 1 + (op->arg & 1);
    } else {
        for (size_t k = 0; k < sp->nstring_ids; k++)
            if (j == SIZE_MAX || op->arg % (sp->nstring_ids + sp->nstack_ids) == k)
                j = sp->string_ids[k];
        for (size_t k = 0; k < sp->nstack_ids; k++)
            if (j == SIZE_MAX ||
                op->arg % (sp->nstring_ids + sp->nstack_ids) == sp->nstring_ids + k) {
                j = sp->stack_ids[k];
                str = false;
            }
    }
    if (j >= e.nargs)
        return;
    v = (str ? max_str : max_stk) + (op->value & 1);
    memcpy(c->l.args.data + e.args_off + j * sizeof v, &v, sizeof v);
}

static void apply(corrupt *c, const sim_op *op)
{
    /* ref_edge: a stack frame (value bit 1) or an event's string or stack argument, as the
     * structure mutator's ref_edge chooses half and half. */
    type_filter ok = op->op != OP_REF_EDGE ? any_type : (op->value & 2) ? stack_type : has_refs;
    size_t i = pick(c, op->where, ok);
    if (i == SIZE_MAX)
        return;
    size_t ent = c->order[i];
    fuzz_rawent e = fuzz_rawlist_entry(&c->l, ent);
    switch (op->op) {
    case OP_REF_EDGE:
        ref_edge(c, i, op);
        return;
    case OP_SET:
    case OP_ADD8:
    case OP_ADD32: {
        if (e.nargs == 0)
            return;
        size_t j = op->arg % e.nargs;
        uint64_t v = fuzz_rawlist_arg(&c->l, &e, j);
        if (op->op == OP_ADD8)
            v += (int8_t)(op->value & 0xff) != 0 ? (uint64_t)(int64_t)(int8_t)(op->value & 0xff)
                                                  : 1;
        else if (op->op == OP_ADD32)
            v += (uint64_t)(int64_t)(int32_t)(uint32_t)op->value;
        else
            v = op->value;
        memcpy(c->l.args.data + e.args_off + j * sizeof v, &v, sizeof v);
        if (e.type == GTR_EV_EVENT_BATCH && j == size_arg())
            c->size_pinned[ent] = true;
        return;
    }
    case OP_DROP:
        memmove(&c->order[i], &c->order[i + 1], (c->n - i - 1) * sizeof c->order[0]);
        c->n--;
        if (c->cut_at != SIZE_MAX && c->cut_at > i)
            c->cut_at--;
        return;
    case OP_DUP:
        if (c->n == c->cap)
            return;
        memmove(&c->order[i + 1], &c->order[i], (c->n - i) * sizeof c->order[0]);
        c->n++;
        if (c->cut_at != SIZE_MAX && c->cut_at > i)
            c->cut_at++;
        return;
    case OP_SWAP:
        if (i + 1 < c->n) {
            c->order[i] = c->order[i + 1];
            c->order[i + 1] = ent;
        }
        return;
    case OP_CUT: {
        uint64_t v = op->value >> 1;
        if (op->value & 1) {
            /* The first batch header of a later generation, then up to 3 events into it. */
            uint64_t gen = 0;
            for (size_t k = i + 1; k-- > 0;) {
                fuzz_rawent b = fuzz_rawlist_entry(&c->l, c->order[k]);
                if (b.type == GTR_EV_EVENT_BATCH && b.nargs > 0) {
                    gen = fuzz_rawlist_arg(&c->l, &b, 0);
                    break;
                }
            }
            size_t k = i;
            for (; k < c->n; k++) {
                fuzz_rawent b = fuzz_rawlist_entry(&c->l, c->order[k]);
                if (b.type == GTR_EV_EVENT_BATCH && b.nargs > 0 &&
                    fuzz_rawlist_arg(&c->l, &b, 0) > gen)
                    break;
            }
            if (k == c->n)
                return;
            for (size_t n = v % 4; n > 0 && k + 1 < c->n; n--) {
                fuzz_rawent b = fuzz_rawlist_entry(&c->l, c->order[k + 1]);
                if (batch_like(b.type))
                    break;
                k++;
            }
            i = k;
            v >>= 2;
        }
        if (c->cut_at == SIZE_MAX || i < c->cut_at) {
            c->cut_at = i;
            c->cut_bytes = v;
        }
        return;
    }
    default:
        return;
    }
}

/* batch_size: the encoded size of the events after position i up to the next batch. */
static uint64_t batch_size(const corrupt *c, size_t i, gtr_buf *scratch)
{
    uint64_t n = 0;
    for (size_t k = i + 1; k < c->n; k++) {
        fuzz_rawent e = fuzz_rawlist_entry(&c->l, c->order[k]);
        gtr_raw_event ev;
        if (batch_like(e.type) || !fuzz_rawlist_event(&c->l, &e, scratch, &ev))
            break;
        n += gtr_raw_event_encoded_size(&ev);
    }
    return n;
}

/* write_back writes c's events as wire bytes into out; returns the bytes to keep. */
static size_t write_back(const corrupt *c, gtr_buf *out)
{
    gtr_raw_writer *w = NULL;
    gtr_err err = GTR_ERR_INIT;
    gtr_buf scratch = {0}, scratch2 = {0};
    size_t keep = SIZE_MAX, sz = size_arg();
    if (gtr_raw_writer_new(gtr_sink_buf(out), c->l.version, NULL, &w, &err) != GTR_OK) {
        gtr_err_clear(&err);
        return 0;
    }
    for (size_t i = 0; i < c->n; i++) {
        fuzz_rawent e = fuzz_rawlist_entry(&c->l, c->order[i]);
        gtr_raw_event ev;
        if (!fuzz_rawlist_event(&c->l, &e, &scratch, &ev))
            break;
        if (e.type == GTR_EV_EVENT_BATCH && sz < e.nargs && !c->size_pinned[c->order[i]])
            ((uint64_t *)(void *)scratch.data)[sz] = batch_size(c, i, &scratch2);
        if (i == c->cut_at && gtr_raw_writer_flush(w, &err) != GTR_OK)
            break;
        size_t before = out->len;
        if (gtr_raw_writer_write(w, &ev, &err) != GTR_OK)
            break;
        if (i == c->cut_at) {
            if (gtr_raw_writer_flush(w, &err) != GTR_OK)
                break;
            size_t enc = out->len - before;
            keep = before + (enc != 0 ? (size_t)(c->cut_bytes % enc) : 0);
            break;
        }
    }
    gtr_raw_writer_flush(w, &err);
    gtr_raw_writer_free(w);
    gtr_buf_free(&scratch);
    gtr_buf_free(&scratch2);
    gtr_err_clear(&err);
    return keep < out->len ? keep : out->len;
}

/* corrupt_trace applies ops to the wire trace in[0..len) and returns the result in a buffer
 * of exactly its size (malloc'd: a read past its end is a sanitizer report), or NULL. */
static uint8_t *corrupt_trace(const uint8_t *in, size_t len, const sim_op *ops, size_t nops,
                              size_t *out_len)
{
    corrupt c;
    gtr_input *input = NULL;
    gtr_raw_reader *rr = NULL;
    gtr_err err = GTR_ERR_INIT;
    gtr_buf out = {0};
    uint8_t *res = NULL;
    memset(&c, 0, sizeof c);
    c.cut_at = SIZE_MAX;
    if (gtr_input_open_memory_plain(in, len, NULL, &input, &err) != GTR_OK ||
        gtr_raw_reader_new(input, NULL, &rr, &err) != GTR_OK)
        goto out;
    c.l.version = gtr_raw_reader_version(rr);
    for (;;) {
        gtr_raw_event ev;
        if (gtr_raw_reader_next(rr, &ev, &err) != GTR_OK)
            break;
        fuzz_rawlist_add(&c.l, &ev);
    }
    if (!fuzz_rawlist_ok(&c.l))
        goto out;
    c.cap = c.l.n + nops;
    c.n = c.l.n;
    c.order = malloc((c.cap + 1) * sizeof *c.order);
    c.size_pinned = calloc(c.l.n + 1, sizeof *c.size_pinned);
    if (c.order == NULL || c.size_pinned == NULL)
        goto out;
    for (size_t i = 0; i < c.n; i++)
        c.order[i] = i;
    for (size_t k = 0; k < nops; k++)
        apply(&c, &ops[k]);
    *out_len = write_back(&c, &out);
    res = malloc(*out_len != 0 ? *out_len : 1);
    if (res != NULL && *out_len != 0)
        memcpy(res, out.data, *out_len);
out:
    gtr_buf_free(&out);
    free(c.order);
    free(c.size_pinned);
    fuzz_rawlist_free(&c.l);
    gtr_raw_reader_free(rr);
    gtr_input_free(input);
    gtr_err_clear(&err);
    return res;
}

#ifdef GTR_FUZZ_SIM_DIFF
/* read_all: libtrace against Go. */
static void read_all(const uint8_t *data, size_t size)
{
    fdiff_judge(data, size);
}
#else
/* read_all: the reader to its end or first error, the validator until its first complaint.
 * Errors are allowed (bad input); each must carry a message. */
static void read_all(const uint8_t *data, size_t size)
{
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_validator *v = NULL;
    gtr_err err = GTR_ERR_INIT;
    bool validating = true;
    if (gtr_input_open_memory_plain(data, size, NULL, &in, &err) != GTR_OK) {
        gtr_err_clear(&err);
        return;
    }
    gtr_input_set_limit(in, FUZZ_MAX_DECOMPRESSED_BYTES);
    if (gtr_reader_new(in, NULL, &r, &err) != GTR_OK || gtr_validator_new(NULL, &v, &err) != GTR_OK)
        goto out;
    for (size_t i = 0; i < FUZZ_MAX_EVENTS; i++) {
        gtr_event ev;
        gtr_status st = gtr_reader_next(r, &ev, &err);
        if (st == GTR_EOF)
            break;
        if (st != GTR_OK) {
            FUZZ_CHECK(st == GTR_E_NOMEM || err.len != 0, "reader error has a message");
            break;
        }
        if (validating && gtr_validator_event(v, &ev, &err) != GTR_OK) {
            FUZZ_CHECK(err.len != 0, "validator error has a message");
            validating = false;
        }
    }
out:
    gtr_validator_free(v);
    gtr_reader_free(r);
    gtr_input_free(in);
    gtr_err_clear(&err);
}
#endif

/* dump writes data to $GTR_SIM_TRACE_OUT when set (replaying a find). */
static void dump(const uint8_t *data, size_t size)
{
    const char *path = getenv("GTR_SIM_TRACE_OUT");
    FILE *f;
    if (path == NULL || *path == '\0' || (f = fopen(path, "wb")) == NULL)
        return;
    if (size != 0)
        fwrite(data, 1, size, f);
    fclose(f);
}

/* run_corrupted: the model's trace, corrupted by ops, through the reader and validator. */
static void run_corrupted(const gsim_config *c, gsim_choice ch, const sim_op *ops, size_t nops)
{
    gtr_buf trace = {0};
    gtr_err err = GTR_ERR_INIT;
    gsim *s = NULL;
    gsim_config cfg = *c;
    cfg.text = false;
    if (gsim_new(&cfg, ch, NULL, &s, &err) == GTR_OK &&
        gsim_run(s, gtr_sink_buf(&trace), NULL, NULL, &err) == GTR_OK &&
        trace.len <= SIM_MAX_TRACE_BYTES) {
        size_t n = 0;
        uint8_t *bad = corrupt_trace((const uint8_t *)trace.data, trace.len, ops, nops, &n);
        if (bad != NULL) {
            dump(bad, n);
            read_all(bad, n);
            free(bad);
        }
    }
    gsim_free(s);
    gtr_buf_free(&trace);
    gtr_err_clear(&err);
}

/* dump_model: the uncorrupted model trace to $GTR_SIM_TRACE_OUT, when set; with judge, the
 * trace is also read by libtrace and by Go (fuzz_diff_sim). */
static void dump_model(const gsim_config *c, gsim_choice ch, bool judge)
{
    gtr_buf trace = {0};
    gtr_err err = GTR_ERR_INIT;
    gsim *s = NULL;
    if (gsim_new(c, ch, NULL, &s, &err) == GTR_OK &&
        gsim_run(s, gtr_sink_buf(&trace), NULL, NULL, &err) == GTR_OK) {
        dump((const uint8_t *)trace.data, trace.len);
        if (judge && trace.len <= SIM_MAX_TRACE_BYTES)
            read_all((const uint8_t *)trace.data, trace.len);
    }
    gsim_free(s);
    gtr_buf_free(&trace);
    gtr_err_clear(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sim_choice_state cs;
    sim_op ops[SIM_MAX_OPS];
    gsim_choice ch;
    gsim_config c;
    gtr_err err = GTR_ERR_INIT;
    gtr_status st;
    size_t nops;

    if (size > SIM_MAX_CHOICE_BYTES)
        size = SIM_MAX_CHOICE_BYTES;
    nops = parse_ops(data, &size, ops);
    ch = sim_choice(&cs, data, size);
    gsim_config_choose(&c, ch, SIM_MAX_EVENTS);
    if (nops != 0) {
        run_corrupted(&c, ch, ops, nops);
        return 0;
    }
#ifdef GTR_FUZZ_SIM_DIFF
    /* The model's trace against Go (the model's own record is fuzz_sim's oracle). */
    dump_model(&c, ch, true);
    return 0;
#endif
    if (getenv("GTR_SIM_TRACE_OUT") != NULL) {
        /* Replaying: the same choices again for the dump, then the check as usual. */
        sim_choice_state cs2;
        gsim_choice ch2 = sim_choice(&cs2, data, size);
        gsim_config c2;
        gsim_config_choose(&c2, ch2, SIM_MAX_EVENTS);
        dump_model(&c2, ch2, false);
    }
    gtr_err_clear(&err);
    st = gsim_check(&c, ch, NULL, SIM_MAX_TRACE_BYTES, NULL, &err);
    if (st != GTR_OK)
        fprintf(stderr, "gsim_check go1.%d procs=%u gens=%llu events=%llu: %s\n",
                (int)c.version, c.procs, (unsigned long long)c.gens,
                (unsigned long long)c.events, err.msg);
    FUZZ_CHECK(st == GTR_OK, "model trace read back to EOF, valid and equal to the record");
    gtr_err_clear(&err);
    return 0;
}
