/* SPDX-License-Identifier: BSD-3-Clause */
/* tracedit.c: the trace-editing model (tracedit.h): tolerant decoding of wire bytes into
 * header, batches and events, and re-encoding with every length recomputed.
 *
 * The framing follows Go's internal/trace at go1.27.3: readBatch in batch.go (batch header
 * byte, experiment byte for ExperimentalBatch, uvarint gen, m, time, size, then `size` bytes;
 * a lone EndOfGeneration byte), and raw/reader.go for the events inside a body (type byte,
 * one uvarint per spec argument, 4 uvarints per stack frame, a uvarint-length data trailer).
 * Decoding never fails: what does not parse becomes an opaque tail. */
#include <stdlib.h>
#include <string.h>

#include "tracedit.h"

/* grow ensures *cap >= need for *p, elements of size bytes. */
static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return false;
        ncap *= 2;
    }
    if (ncap > SIZE_MAX / size)
        return false;
    void *np = realloc(*p, ncap * size);
    if (np == NULL)
        return false;
    *p = np;
    *cap = ncap;
    return true;
}

#define GROW(arr, cap, need) grow((void **)&(arr), &(cap), (need), sizeof *(arr))

static gtr_status nomem(gtr_err *err)
{
    return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
}

void tracedit_trace_reset(tracedit_trace *t)
{
    for (size_t i = 0; i < t->nbatches; i++)
        free(t->batches[i].evs);
    t->has_header = false;
    t->version = 0;
    t->nbatches = t->nevents = t->nvals = t->nbytes = 0;
    t->tail = t->tail_len = 0;
}

void tracedit_trace_free(tracedit_trace *t)
{
    if (t == NULL)
        return;
    tracedit_trace_reset(t);
    free(t->batches);
    free(t->events);
    free(t->vals);
    free(t->bytes);
    memset(t, 0, sizeof *t);
}

/* ensure_pools gives the pools storage, so that pool + offset is never NULL + 0. */
static bool ensure_pools(tracedit_trace *t)
{
    return GROW(t->bytes, t->bytes_cap, 1) && GROW(t->vals, t->vals_cap, 1) &&
           GROW(t->events, t->events_cap, 1);
}

/* bytes_at: the pool's bytes at off (NULL for an empty, never-allocated pool). */
static const uint8_t *bytes_at(const tracedit_trace *t, size_t off)
{
    return t->bytes != NULL ? t->bytes + off : NULL;
}

/* push_bytes appends n bytes to the byte pool and stores their offset. src may point into
 * the pool itself. */
static bool push_bytes(tracedit_trace *t, const uint8_t *src, size_t n, size_t *off)
{
    size_t src_off = 0;
    bool inside = t->bytes != NULL && src >= t->bytes && src < t->bytes + t->nbytes;
    if (inside)
        src_off = (size_t)(src - t->bytes);
    if (n > SIZE_MAX - t->nbytes || !ensure_pools(t) ||
        !GROW(t->bytes, t->bytes_cap, t->nbytes + n))
        return false;
    if (n > 0)
        memcpy(t->bytes + t->nbytes, inside ? t->bytes + src_off : src, n);
    *off = t->nbytes;
    t->nbytes += n;
    return true;
}

static bool push_vals(tracedit_trace *t, const uint64_t *src, size_t n, size_t *off)
{
    size_t src_off = 0;
    bool inside = t->vals != NULL && src >= t->vals && src < t->vals + t->nvals;
    if (inside)
        src_off = (size_t)(src - t->vals);
    if (n > SIZE_MAX - t->nvals || !ensure_pools(t) || !GROW(t->vals, t->vals_cap, t->nvals + n))
        return false;
    if (n > 0)
        memcpy(t->vals + t->nvals, inside ? t->vals + src_off : src, n * sizeof *src);
    *off = t->nvals;
    t->nvals += n;
    return true;
}

gtr_status tracedit_add_event(tracedit_trace *t, uint8_t type, const uint64_t *args, uint32_t nargs,
                            bool has_data, const uint8_t *data, size_t data_len, uint32_t *idx)
{
    tracedit_event ev = {.type = type, .has_data = has_data, .nargs = nargs};
    if (t->nevents >= UINT32_MAX || !GROW(t->events, t->events_cap, t->nevents + 1))
        return GTR_E_NOMEM;
    if (!push_vals(t, args, nargs, &ev.args))
        return GTR_E_NOMEM;
    if (has_data) {
        if (!push_bytes(t, data, data_len, &ev.data))
            return GTR_E_NOMEM;
        ev.data_len = data_len;
    }
    t->events[t->nevents] = ev;
    *idx = (uint32_t)t->nevents++;
    return GTR_OK;
}

gtr_status tracedit_add_bytes(tracedit_trace *t, const uint8_t *data, size_t n, size_t *off)
{
    return push_bytes(t, data, n, off) ? GTR_OK : GTR_E_NOMEM;
}

gtr_status tracedit_dup_event(tracedit_trace *t, uint32_t ev, uint32_t *idx)
{
    tracedit_event e = t->events[ev];
    return tracedit_add_event(t, e.type, t->vals + e.args, e.nargs, e.has_data,
                            bytes_at(t, e.data), e.data_len, idx);
}

gtr_status tracedit_set_args(tracedit_trace *t, uint32_t ev, const uint64_t *args, uint32_t nargs)
{
    size_t off;
    if (!push_vals(t, args, nargs, &off))
        return GTR_E_NOMEM;
    t->events[ev].args = off;
    t->events[ev].nargs = nargs;
    return GTR_OK;
}

gtr_status tracedit_batch_insert(tracedit_trace *t, size_t b, size_t pos, uint32_t ev)
{
    tracedit_batch *bt = &t->batches[b];
    if (!GROW(bt->evs, bt->evs_cap, bt->nev + 1))
        return GTR_E_NOMEM;
    memmove(bt->evs + pos + 1, bt->evs + pos, (bt->nev - pos) * sizeof *bt->evs);
    bt->evs[pos] = ev;
    bt->nev++;
    return GTR_OK;
}

void tracedit_batch_remove(tracedit_trace *t, size_t b, size_t pos)
{
    tracedit_batch *bt = &t->batches[b];
    memmove(bt->evs + pos, bt->evs + pos + 1, (bt->nev - pos - 1) * sizeof *bt->evs);
    bt->nev--;
}

gtr_status tracedit_insert_batch(tracedit_trace *t, size_t pos, const tracedit_batch *tmpl)
{
    if (!GROW(t->batches, t->batches_cap, t->nbatches + 1))
        return GTR_E_NOMEM;
    memmove(t->batches + pos + 1, t->batches + pos, (t->nbatches - pos) * sizeof *t->batches);
    tracedit_batch *b = &t->batches[pos];
    memset(b, 0, sizeof *b);
    b->kind = tmpl->kind;
    b->exp = tmpl->exp;
    b->gen = tmpl->gen;
    b->m = tmpl->m;
    b->time = tmpl->time;
    t->nbatches++;
    return GTR_OK;
}

void tracedit_remove_batch(tracedit_trace *t, size_t pos)
{
    free(t->batches[pos].evs);
    memmove(t->batches + pos, t->batches + pos + 1, (t->nbatches - pos - 1) * sizeof *t->batches);
    t->nbatches--;
}

/* Decoding. */

typedef struct cursor {
    const uint8_t *p;
    size_t n;
} cursor;

/* uvarint: Go's binary.Uvarint semantics (at most 10 bytes, the 10th at most 1). */
static bool uvarint(cursor *c, uint64_t *v)
{
    uint64_t x = 0;
    unsigned s = 0;
    for (size_t i = 0; i < c->n && i < 10; i++) {
        uint8_t b = c->p[i];
        if (b < 0x80) {
            if (i == 9 && b > 1)
                return false;
            *v = x | (uint64_t)b << s;
            c->p += i + 1;
            c->n -= i + 1;
            return true;
        }
        x |= (uint64_t)(b & 0x7f) << s;
        s += 7;
    }
    return false;
}

/* decode_event decodes one event of version v at c into t and stores its index. false: the
 * bytes are not an event (c is unchanged). */
static bool decode_event(tracedit_trace *t, cursor *c, uint32_t *idx, bool *oom)
{
    cursor k = *c;
    if (k.n == 0)
        return false;
    uint8_t type = k.p[0];
    const gtr_event_spec *spec = gtr_spec(type);
    if (type == 0 || type >= gtr_go_version_nspecs(t->version) || spec->name == NULL)
        return false;
    k.p++;
    k.n--;
    uint64_t args[GTR_MAX_SPEC_ARGS];
    for (unsigned i = 0; i < spec->nargs; i++) {
        if (!uvarint(&k, &args[i]))
            return false;
    }
    size_t voff = t->nvals;
    if (!push_vals(t, args, spec->nargs, &voff)) {
        *oom = true;
        return false;
    }
    uint32_t nargs = spec->nargs;
    if (spec->is_stack) {
        /* Each frame needs at least 4 bytes: a count beyond that cannot be satisfied. */
        if (args[1] > k.n / 4) {
            t->nvals = voff;
            return false;
        }
        for (uint64_t f = 0; f < args[1] * 4; f++) {
            uint64_t x;
            size_t off;
            if (!uvarint(&k, &x)) {
                t->nvals = voff;
                return false;
            }
            if (!push_vals(t, &x, 1, &off)) {
                *oom = true;
                return false;
            }
        }
        nargs += (uint32_t)(args[1] * 4);
    }
    tracedit_event ev = {.type = type, .has_data = spec->has_data, .nargs = nargs, .args = voff};
    if (spec->has_data) {
        uint64_t len;
        if (!uvarint(&k, &len) || len > k.n) {
            t->nvals = voff;
            return false;
        }
        if (!push_bytes(t, k.p, (size_t)len, &ev.data)) {
            *oom = true;
            return false;
        }
        ev.data_len = (size_t)len;
        k.p += len;
        k.n -= (size_t)len;
    }
    if (t->nevents >= UINT32_MAX || !GROW(t->events, t->events_cap, t->nevents + 1)) {
        *oom = true;
        return false;
    }
    t->events[t->nevents] = ev;
    *idx = (uint32_t)t->nevents++;
    *c = k;
    return true;
}

/* decode_batch decodes one top-level batch at c. false: not a complete batch. */
static bool decode_batch(tracedit_trace *t, cursor *c, bool *oom)
{
    cursor k = *c;
    tracedit_batch b = {0};
    if (k.n == 0)
        return false;
    b.kind = k.p[0];
    k.p++;
    k.n--;
    if (b.kind == GTR_EV_END_OF_GENERATION) {
        if (!GROW(t->batches, t->batches_cap, t->nbatches + 1)) {
            *oom = true;
            return false;
        }
        t->batches[t->nbatches++] = b;
        *c = k;
        return true;
    }
    if (b.kind != GTR_EV_EVENT_BATCH && b.kind != GTR_EV_EXPERIMENTAL_BATCH)
        return false;
    if (b.kind == GTR_EV_EXPERIMENTAL_BATCH) {
        if (k.n == 0)
            return false;
        b.exp = k.p[0];
        k.p++;
        k.n--;
    }
    uint64_t size;
    if (!uvarint(&k, &b.gen) || !uvarint(&k, &b.m) || !uvarint(&k, &b.time) ||
        !uvarint(&k, &size) || size > k.n)
        return false;
    cursor body = {k.p, (size_t)size};
    k.p += size;
    k.n -= (size_t)size;
    /* An ExperimentalBatch body has its own format (e.g. AllocFree's type tables): opaque. */
    while (b.kind == GTR_EV_EVENT_BATCH) {
        uint32_t idx;
        if (!decode_event(t, &body, &idx, oom))
            break;
        if (!GROW(b.evs, b.evs_cap, b.nev + 1)) {
            *oom = true;
            break;
        }
        b.evs[b.nev++] = idx;
    }
    if (*oom || !push_bytes(t, body.p, body.n, &b.tail) ||
        !GROW(t->batches, t->batches_cap, t->nbatches + 1)) {
        *oom = true;
        free(b.evs);
        return false;
    }
    b.tail_len = body.n;
    t->batches[t->nbatches++] = b;
    *c = k;
    return true;
}

gtr_status tracedit_decode(tracedit_trace *t, const uint8_t *data, size_t size, gtr_err *err)
{
    cursor c = {data, size};
    bool oom = false;
    char hdr[GTR_HEADER_MAX];

    tracedit_trace_reset(t);
    if (!ensure_pools(t))
        return nomem(err);
    static const uint8_t versions[] = {GTR_GO122, GTR_GO123, GTR_GO125, GTR_GO126};
    for (size_t i = 0; i < sizeof versions; i++) {
        size_t n = gtr_header_format(versions[i], hdr);
        if (size >= n && memcmp(data, hdr, n) == 0) {
            t->has_header = true;
            t->version = versions[i];
            c.p += n;
            c.n -= n;
            break;
        }
    }
    if (t->has_header) {
        while (decode_batch(t, &c, &oom))
            ;
        if (oom)
            return nomem(err);
    }
    if (!push_bytes(t, c.p, c.n, &t->tail))
        return nomem(err);
    t->tail_len = c.n;
    return GTR_OK;
}

/* Encoding. */

static size_t event_size(const tracedit_trace *t, const tracedit_event *e)
{
    const uint64_t *a = t->vals + e->args;
    size_t n = 1;
    for (uint32_t i = 0; i < e->nargs; i++) {
        uint64_t v = a[i];
        if (gtr_spec(e->type)->is_stack && i == 1)
            v = (e->nargs - 2) / 4;
        n += tracedit_uvarint_len(v);
    }
    if (e->has_data)
        n += tracedit_uvarint_len(e->data_len) + e->data_len;
    return n;
}

size_t tracedit_batch_body_size(const tracedit_trace *t, size_t b)
{
    const tracedit_batch *bt = &t->batches[b];
    size_t n = bt->tail_len;
    for (size_t i = 0; i < bt->nev; i++)
        n += event_size(t, &t->events[bt->evs[i]]);
    return n;
}

static void put_event(const tracedit_trace *t, const tracedit_event *e, gtr_buf *out)
{
    const uint64_t *a = t->vals + e->args;
    bool stack = gtr_spec(e->type)->is_stack;
    gtr_buf_putc(out, (char)e->type);
    for (uint32_t i = 0; i < e->nargs; i++)
        gtr_buf_put_uvarint(out, stack && i == 1 ? (e->nargs - 2) / 4 : a[i]);
    if (e->has_data) {
        gtr_buf_put_uvarint(out, e->data_len);
        gtr_buf_append(out, bytes_at(t, e->data), e->data_len);
    }
}

gtr_status tracedit_encode(const tracedit_trace *t, gtr_buf *out, gtr_err *err)
{
    if (t->has_header) {
        char hdr[GTR_HEADER_MAX];
        gtr_buf_append(out, hdr, gtr_header_format(t->version, hdr));
        for (size_t b = 0; b < t->nbatches; b++) {
            const tracedit_batch *bt = &t->batches[b];
            gtr_buf_putc(out, (char)bt->kind);
            if (bt->kind == GTR_EV_END_OF_GENERATION)
                continue;
            if (bt->kind == GTR_EV_EXPERIMENTAL_BATCH)
                gtr_buf_putc(out, (char)bt->exp);
            gtr_buf_put_uvarint(out, bt->gen);
            gtr_buf_put_uvarint(out, bt->m);
            gtr_buf_put_uvarint(out, bt->time);
            gtr_buf_put_uvarint(out, tracedit_batch_body_size(t, b));
            for (size_t i = 0; i < bt->nev; i++)
                put_event(t, &t->events[bt->evs[i]], out);
            gtr_buf_append(out, bytes_at(t, bt->tail), bt->tail_len);
        }
    }
    gtr_buf_append(out, bytes_at(t, t->tail), t->tail_len);
    if (gtr_buf_status(out) != GTR_OK)
        return nomem(err);
    return GTR_OK;
}

gtr_status tracedit_copy(tracedit_trace *dst, const tracedit_trace *src, gtr_err *err)
{
    tracedit_trace_reset(dst);
    if (!ensure_pools(dst) || !GROW(dst->events, dst->events_cap, src->nevents) ||
        !GROW(dst->vals, dst->vals_cap, src->nvals) ||
        !GROW(dst->bytes, dst->bytes_cap, src->nbytes) ||
        !GROW(dst->batches, dst->batches_cap, src->nbatches))
        return nomem(err);
    if (src->nevents)
        memcpy(dst->events, src->events, src->nevents * sizeof *src->events);
    if (src->nvals)
        memcpy(dst->vals, src->vals, src->nvals * sizeof *src->vals);
    if (src->nbytes)
        memcpy(dst->bytes, src->bytes, src->nbytes);
    dst->nevents = src->nevents;
    dst->nvals = src->nvals;
    dst->nbytes = src->nbytes;
    dst->has_header = src->has_header;
    dst->version = src->version;
    dst->tail = src->tail;
    dst->tail_len = src->tail_len;
    for (size_t b = 0; b < src->nbatches; b++) {
        tracedit_batch nb = src->batches[b];
        nb.evs = NULL;
        nb.evs_cap = 0;
        if (nb.nev > 0) {
            if (!GROW(nb.evs, nb.evs_cap, nb.nev))
                return nomem(err);
            memcpy(nb.evs, src->batches[b].evs, nb.nev * sizeof *nb.evs);
        }
        dst->batches[dst->nbatches++] = nb;
    }
    return GTR_OK;
}
