/* SPDX-License-Identifier: BSD-3-Clause */
/* check.c: gsim_check, the model's strong oracle: the reader reads the trace to EOF, the
 * validator accepts every event, and every event equals the model's record. */
#include <inttypes.h>
#include <string.h>

#include "gsim/sim.h"
#include "gtr/reader.h"
#include "gtr/validate.h"

#define DEFAULT_MAX_BYTES ((size_t)256 << 20)

typedef struct collect {
    const gtr_alloc *alc;
    gsim_record *v;
    size_t n, cap;
    bool failed;
} collect;

static void collect_rec(void *ctx, const gsim_record *r)
{
    collect *c = ctx;
    if (c->failed)
        return;
    if (c->n == c->cap) {
        size_t ncap = c->cap ? c->cap * 2 : 1024;
        void *p = ncap < SIZE_MAX / sizeof *c->v
                      ? c->alc->realloc_fn(c->alc->ctx, c->v, ncap * sizeof *c->v)
                      : NULL;
        if (p == NULL) {
            c->failed = true;
            return;
        }
        c->v = p;
        c->cap = ncap;
    }
    c->v[c->n++] = *r;
}

typedef struct capped {
    gtr_buf *buf;
    size_t max;
} capped;

static gtr_status capped_write(void *ctx, const void *data, size_t n, gtr_err *err)
{
    capped *c = ctx;
    if (c->buf->len + n > c->max)
        return gtr_err_setf(err, GTR_E_LIMIT, "gsim: trace exceeds %zu bytes", c->max);
    if (gtr_buf_append(c->buf, data, n) < 0)
        return gtr_err_setf(err, GTR_E_NOMEM, "gsim: out of memory");
    return GTR_OK;
}

/* describe appends what an event or a record says, for mismatch messages. */
static void describe(gtr_buf *b, uint8_t kind, gtr_time t, gtr_goid g, gtr_procid p,
                     gtr_threadid m, uint8_t rk, int64_t rid, uint8_t from, uint8_t to)
{
    gtr_buf_printf(b, "%s time=%" PRId64 " G=%" PRId64 " P=%" PRId64 " M=%" PRId64,
                   gtr_event_kind_string((gtr_event_kind)kind), t, g, p, m);
    if (kind == GTR_EVENT_STATE_TRANSITION) {
        if (rk == GTR_RESOURCE_GOROUTINE)
            gtr_buf_printf(b, " Goroutine(%" PRId64 ") %s->%s", rid,
                           gtr_go_state_string((gtr_go_state)from),
                           gtr_go_state_string((gtr_go_state)to));
        else
            gtr_buf_printf(b, " Proc(%" PRId64 ") %s->%s", rid,
                           gtr_proc_state_string((gtr_proc_state)from),
                           gtr_proc_state_string((gtr_proc_state)to));
    }
}

/* compare checks ev against r; on a mismatch fills err. */
static gtr_status compare(const gtr_event *ev, const gsim_record *r, uint64_t i, gtr_err *err)
{
    uint8_t kind = (uint8_t)gtr_event_get_kind(ev);
    uint8_t rk = GTR_RESOURCE_NONE, from = 0, to = 0;
    int64_t rid = 0;
    bool same = kind == r->kind && gtr_event_time(ev) == r->time &&
                gtr_event_goroutine(ev) == r->g && gtr_event_proc(ev) == r->p &&
                gtr_event_thread(ev) == r->m;
    gtr_status st = GTR_OK;

    if (kind == GTR_EVENT_STATE_TRANSITION) {
        gtr_state_transition tr;
        gtr_go_state gf, gt;
        gtr_proc_state pf, pt;
        if ((st = gtr_event_state_transition(ev, &tr, err)) < 0)
            return st;
        rk = tr.resource.kind;
        rid = tr.resource.id;
        if (rk == GTR_RESOURCE_GOROUTINE &&
            gtr_state_transition_goroutine(&tr, &gf, &gt, err) == GTR_OK)
            from = (uint8_t)gf, to = (uint8_t)gt;
        else if (rk == GTR_RESOURCE_PROC && gtr_state_transition_proc(&tr, &pf, &pt, err) == GTR_OK)
            from = (uint8_t)pf, to = (uint8_t)pt;
        same = same && rk == r->res_kind && rid == r->res_id && from == r->from && to == r->to;
    }
    if (kind == GTR_EVENT_SYNC) {
        gtr_sync sy;
        if ((st = gtr_event_sync(ev, &sy, err)) < 0)
            return st;
        size_t nexp = gtr_sync_experimental_batch_count(&sy, GTR_EXP_ALLOC_FREE);
        if (nexp != r->exp_batches)
            return gtr_err_setf(err, GTR_E_INVALID,
                                "event %" PRIu64 " differs from the record: Sync with %zu "
                                "AllocFree batches; the model says %u", i, nexp,
                                (unsigned)r->exp_batches);
    }
    if (same)
        return GTR_OK;
    gtr_buf b = {0};
    describe(&b, kind, gtr_event_time(ev), gtr_event_goroutine(ev), gtr_event_proc(ev),
             gtr_event_thread(ev), rk, rid, from, to);
    gtr_buf_puts(&b, "; the model says ");
    describe(&b, r->kind, r->time, r->g, r->p, r->m, r->res_kind, r->res_id, r->from, r->to);
    st = gtr_err_setf(err, GTR_E_INVALID, "event %" PRIu64 " differs from the record: %s", i,
                      b.data != NULL ? b.data : "out of memory");
    gtr_buf_free(&b);
    return st;
}

gtr_status gsim_check(const gsim_config *c, gsim_choice ch, const gtr_alloc *alc,
                      size_t max_bytes, gsim_stats *stats, gtr_err *err)
{
    const gtr_alloc *a = alc != NULL ? alc : gtr_alloc_libc();
    gsim_config cfg = *c;
    collect col = {.alc = a};
    gtr_buf trace = {0};
    capped cap = {.buf = &trace, .max = max_bytes ? max_bytes : DEFAULT_MAX_BYTES};
    gtr_sink sink = {.write = capped_write, .ctx = &cap};
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_validator *v = NULL;
    gsim *s = NULL;
    gtr_status st;
    uint64_t i = 0;

    cfg.text = false;
    gtr_buf_init(&trace, a);
    if ((st = gsim_new(&cfg, ch, a, &s, err)) < 0)
        goto out;
    st = gsim_run(s, sink, collect_rec, &col, err);
    if (stats != NULL)
        gsim_get_stats(s, stats);
    if (st < 0)
        goto out;
    if (col.failed) {
        st = gtr_err_setf(err, GTR_E_NOMEM, "gsim: out of memory");
        goto out;
    }
    if ((st = gtr_input_open_memory_plain(trace.data, trace.len, a, &in, err)) < 0 ||
        (st = gtr_reader_new(in, a, &r, err)) < 0 || (st = gtr_validator_new(a, &v, err)) < 0)
        goto out;
    gtr_validator_set_go_version(v, cfg.version);
    for (;; i++) {
        gtr_event ev;
        st = gtr_reader_next(r, &ev, err);
        if (st == GTR_EOF)
            break;
        if (st < 0) {
            gtr_err_wrapf(err, "reading event %" PRIu64, i);
            goto out;
        }
        if ((st = gtr_validator_event(v, &ev, err)) < 0) {
            gtr_err_wrapf(err, "validating event %" PRIu64, i);
            goto out;
        }
        if (i >= col.n) {
            st = gtr_err_setf(err, GTR_E_INVALID, "event %" PRIu64 " beyond the %zu recorded", i,
                              col.n);
            goto out;
        }
        if ((st = compare(&ev, &col.v[i], i, err)) < 0)
            goto out;
    }
    if (i != col.n) {
        st = gtr_err_setf(err, GTR_E_INVALID, "the reader returned %" PRIu64
                          " events, the model recorded %zu", i, col.n);
        goto out;
    }
    st = GTR_OK;
out:
    gtr_validator_free(v);
    gtr_reader_free(r);
    gtr_input_free(in);
    gsim_free(s);
    gtr_buf_free(&trace);
    a->free_fn(a->ctx, col.v);
    return st;
}
