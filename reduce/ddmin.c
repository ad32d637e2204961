/* SPDX-License-Identifier: BSD-3-Clause */
/* ddmin.c: the reduction engine (reduce.h): delta debugging on the trace-editing model.
 *
 * Delta debugging on the structure model. Phases, each a ddmin-style loop that removes chunks
 * of units (chunk size halving from n/2 to 1, a removal kept whenever the candidate is still
 * interesting):
 *   1. generations (runs of batches sharing a gen field, with their EndOfGeneration);
 *   2. batches;
 *   3. events (in any batch);
 *   4. stack frames (in any Stack event);
 *   5. bytes of the undecodable tails (of batches and of the trace);
 * then 6. values: every batch time/m/gen, event argument and string's data is tried at 0
 * (or empty), 1, and half its value (or length). The phases repeat until a round changes
 * nothing. Candidates are always encoded from the model, so sizes stay right. An old-format
 * trace (go 1.11-1.21, no v2 framing) is reduced by whole events, then by bytes (below). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"



double reduce__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* fingerprint is FNV-1a over the candidate's encoding: two candidates with the same bytes
 * are the same candidate, whatever edits made them. */
static uint64_t fingerprint(const gtr_buf *b)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < b->len; i++)
        h = (h ^ (uint8_t)b->data[i]) * 0x100000001b3ULL;
    return h != 0 ? h : 1;
}

/* seen_add records fp; true when it was already there. Out of memory, it records nothing
 * (a candidate may then be judged twice, which is only slower). */
static bool seen_add(seen_set *s, uint64_t fp)
{
    if ((s->len + 1) * 2 > s->cap) {
        size_t ncap = s->cap > 0 ? s->cap * 2 : 1024;
        uint64_t *slots = calloc(ncap, sizeof *slots);
        if (slots == NULL)
            return false;
        for (size_t i = 0; i < s->cap; i++) {
            if (s->slots[i] == 0)
                continue;
            size_t j = (size_t)s->slots[i] & (ncap - 1);
            while (slots[j] != 0)
                j = (j + 1) & (ncap - 1);
            slots[j] = s->slots[i];
        }
        free(s->slots);
        s->slots = slots;
        s->cap = ncap;
    }
    size_t j = (size_t)fp & (s->cap - 1);
    for (; s->slots[j] != 0; j = (j + 1) & (s->cap - 1))
        if (s->slots[j] == fp)
            return true;
    s->slots[j] = fp;
    s->len++;
    return false;
}

static void report(reducer *r, bool force)
{
    if (r->progress == NULL)
        return;
    double t = reduce__now();
    if (!force && t < r->next_report)
        return;
    r->next_report = t + 0.25;
    size_t events = 0;
    for (size_t b = 0; b < r->cur.nbatches; b++)
        events += r->cur.batches[b].nev;
    reduce_progress p = {r->cur_enc.len > 0 ? r->cur_enc.len : r->input_size, events,
                         r->stats->tests, t - r->started};
    r->progress(r->progress_ctx, &p);
}

/* try_cand encodes r->cand and keeps it as the current trace when it is interesting. A
 * candidate that encodes exactly as the current trace is no progress (an edit that changed
 * nothing): it is refused, so that no phase can loop on it; so is one judged before. */
bool reduce__try_cand(reducer *r)
{
    if (r->deadline > 0 && reduce__now() >= r->deadline) {
        r->halt = true;
        r->stats->budget_hit = true;
        return false;
    }
    gtr_buf_reset(&r->enc);
    if (tracedit_encode(&r->cand, &r->enc, NULL) != GTR_OK) {
        r->oom = r->halt = true;
        return false;
    }
    if (r->cur_enc.len > 0 && r->cur_enc.len == r->enc.len &&
        memcmp(r->cur_enc.data, r->enc.data, r->enc.len) == 0)
        return false;
    if (r->must_shrink && r->cur_enc.len > 0 && r->enc.len >= r->cur_enc.len)
        return false;
    if (seen_add(&r->seen, fingerprint(&r->enc)))
        return false;
    r->stats->tests++;
    report(r, false);
    if (!r->fn(r->ctx, (const uint8_t *)r->enc.data, r->enc.len))
        return false;
    tracedit_trace tmp = r->cur;
    r->cur = r->cand;
    r->cand = tmp;
    gtr_buf swap = r->cur_enc;
    r->cur_enc = r->enc;
    r->enc = swap;
    /* The model's pools keep every event an edit dropped: once most are dropped, the trace
     * is decoded again from its bytes, so that each copy of it costs what is left. */
    size_t live = 0;
    for (size_t b = 0; b < r->cur.nbatches; b++)
        live += r->cur.batches[b].nev;
    if (r->cur.nevents > 1024 && r->cur.nevents / 4 > live &&
        tracedit_decode(&r->cur, (const uint8_t *)r->cur_enc.data, r->cur_enc.len, NULL) != GTR_OK)
        r->oom = r->halt = true;
    return true;
}

/* oversized: a buffer sized for a much larger trace than the current one. The judge forks
 * the process for each candidate, and a fork costs in proportion to the memory mapped: once
 * a pass has cut a large trace down, the memory it was edited in goes. */
static bool oversized(size_t cap, size_t need)
{
    return cap > ((size_t)1 << 16) && cap / 4 > need;
}

bool reduce__start_cand(reducer *r)
{
    if (oversized(r->cand.events_cap, r->cur.nevents) || oversized(r->cand.bytes_cap, r->cur.nbytes) ||
        oversized(r->cand.vals_cap, r->cur.nvals))
        tracedit_trace_free(&r->cand);
    if (oversized(r->enc.cap, r->cur_enc.len))
        gtr_buf_free(&r->enc);
    if (tracedit_copy(&r->cand, &r->cur, NULL) != GTR_OK) {
        r->oom = r->halt = true;
        return false;
    }
    return true;
}


/* Generation runs: consecutive body batches with equal gen; an EndOfGeneration belongs to
 * the run before it. */
size_t reduce__count_gens(const tracedit_trace *t)
{
    size_t n = t->nbatches > 0;
    for (size_t b = 1; b < t->nbatches; b++) {
        const tracedit_batch *x = &t->batches[b];
        if (x->kind != GTR_EV_END_OF_GENERATION &&
            (t->batches[b - 1].kind == GTR_EV_END_OF_GENERATION || t->batches[b - 1].gen != x->gen))
            n++;
    }
    return n;
}

void reduce__drop_gens(tracedit_trace *t, size_t lo, size_t hi)
{
    /* Number the runs on the unmodified list first, then remove from the back. */
    size_t *run = malloc((t->nbatches + 1) * sizeof *run), g = 0;
    if (run == NULL)
        return;
    for (size_t b = 0; b < t->nbatches; b++) {
        const tracedit_batch *x = &t->batches[b];
        if (x->kind != GTR_EV_END_OF_GENERATION && b > 0 &&
            (t->batches[b - 1].kind == GTR_EV_END_OF_GENERATION || t->batches[b - 1].gen != x->gen))
            g++;
        run[b] = g;
    }
    for (size_t b = t->nbatches; b > 0; b--)
        if (run[b - 1] >= lo && run[b - 1] < hi)
            tracedit_remove_batch(t, b - 1);
    free(run);
}

static size_t count_batches(const tracedit_trace *t)
{
    return t->nbatches;
}

static void drop_batches(tracedit_trace *t, size_t lo, size_t hi)
{
    for (size_t b = hi; b > lo; b--)
        tracedit_remove_batch(t, b - 1);
}

static size_t count_events(const tracedit_trace *t)
{
    size_t n = 0;
    for (size_t b = 0; b < t->nbatches; b++)
        n += t->batches[b].nev;
    return n;
}

static void drop_events(tracedit_trace *t, size_t lo, size_t hi)
{
    size_t k = 0;
    for (size_t b = 0; b < t->nbatches; b++) {
        tracedit_batch *x = &t->batches[b];
        size_t w = 0;
        for (size_t i = 0; i < x->nev; i++, k++) {
            if (k < lo || k >= hi)
                x->evs[w++] = x->evs[i];
        }
        x->nev = w;
    }
}

static bool is_stack(const tracedit_trace *t, uint32_t ev)
{
    return t->events[ev].type == GTR_EV_STACK && t->events[ev].nargs >= 2;
}

static size_t count_frames(const tracedit_trace *t)
{
    size_t n = 0;
    for (size_t b = 0; b < t->nbatches; b++)
        for (size_t i = 0; i < t->batches[b].nev; i++)
            if (is_stack(t, t->batches[b].evs[i]))
                n += (t->events[t->batches[b].evs[i]].nargs - 2) / 4;
    return n;
}

static void drop_frames(tracedit_trace *t, size_t lo, size_t hi)
{
    size_t k = 0;
    for (size_t b = 0; b < t->nbatches; b++) {
        for (size_t i = 0; i < t->batches[b].nev; i++) {
            uint32_t ev = t->batches[b].evs[i];
            if (!is_stack(t, ev))
                continue;
            tracedit_event *e = &t->events[ev];
            uint32_t nfr = (e->nargs - 2) / 4, w = 0;
            uint64_t *a = t->vals + e->args;
            /* Compact in place: frames only move towards the front. */
            for (uint32_t f = 0; f < nfr; f++, k++) {
                if (k >= lo && k < hi)
                    continue;
                memmove(a + 2 + w * 4, a + 2 + f * 4, 4 * sizeof *a);
                w++;
            }
            e->nargs = 2 + w * 4;
            a[1] = w;
        }
    }
}

/* Undecodable tails, byte by byte: the units are the bytes of every batch's tail, then of
 * the trace's tail, in order. Removing a range keeps what surrounds it, so a cut batch can
 * lose body bytes and still be cut. */
static size_t count_tails(const tracedit_trace *t)
{
    size_t n = t->tail_len;
    for (size_t b = 0; b < t->nbatches; b++)
        n += t->batches[b].tail_len;
    return n;
}

/* cut_range removes bytes [lo, hi) (relative to this tail) from a tail of *len bytes at off. */
static void cut_range(tracedit_trace *t, size_t off, size_t *len, size_t lo, size_t hi)
{
    if (hi > *len)
        hi = *len;
    if (lo >= hi)
        return;
    memmove(t->bytes + off + lo, t->bytes + off + hi, *len - hi);
    *len -= hi - lo;
}

static void drop_tails(tracedit_trace *t, size_t lo, size_t hi)
{
    size_t base = 0;
    for (size_t b = 0; b <= t->nbatches && lo < hi; b++) {
        size_t off = b < t->nbatches ? t->batches[b].tail : t->tail;
        size_t *len = b < t->nbatches ? &t->batches[b].tail_len : &t->tail_len;
        size_t n = *len;
        if (hi > base && lo < base + n) {
            size_t a = lo > base ? lo - base : 0, z = hi - base;
            cut_range(t, off, len, a, z);
        }
        base += n;
    }
}

static bool has_tails(const tracedit_trace *t)
{
    if (t->tail_len > 0)
        return true;
    for (size_t b = 0; b < t->nbatches; b++)
        if (t->batches[b].tail_len > 0)
            return true;
    return false;
}

/* Old-format traces (the go 1.11, 1.19 and 1.21 headers) have no v2 header, so tracedit keeps
 * them whole as the trace's tail. Their events delimit themselves (readRawEvent in Go's
 * internal/tracev1: a type byte whose top two bits count the inline arguments, 3 meaning a
 * length-prefixed argument list; a String's id, length and bytes; after a length-prefixed
 * UserLog, its value string), so the reducer can drop whole events of the tail after its
 * 16-byte header, and whole batches before that, before it drops bytes. */
#define V1_HEADER_LEN 16
#define V1_EV_STRING 37   /* Go's tracev1 EvString */
#define V1_EV_USER_LOG 48 /* Go's tracev1 EvUserLog */

bool reduce_v1_header(const uint8_t *data, size_t size)
{
    static const char hdr[][V1_HEADER_LEN + 1] = {"go 1.11 trace\0\0\0", "go 1.19 trace\0\0\0",
                                                 "go 1.21 trace\0\0\0"};
    if (size < V1_HEADER_LEN)
        return false;
    for (size_t i = 0; i < sizeof hdr / sizeof hdr[0]; i++)
        if (memcmp(data, hdr[i], V1_HEADER_LEN) == 0)
            return true;
    return false;
}

static bool is_v1(const tracedit_trace *t)
{
    return !t->has_header && t->bytes != NULL &&
           reduce_v1_header(t->bytes + t->tail, t->tail_len);
}

/* v1_skip_uvarint moves *off past one uvarint of p[0..n) (Go's binary.Uvarint rules); false
 * if there is none. */
static bool v1_skip_uvarint(const uint8_t *p, size_t n, size_t *off, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < 10 && *off + i < n; i++) {
        uint8_t b = p[*off + i];
        if (b < 0x80) {
            if (i == 9 && b > 1)
                return false;
            *v = x | (uint64_t)b << (7 * i);
            *off += i + 1;
            return true;
        }
        x |= (uint64_t)(b & 0x7f) << (7 * i);
    }
    return false;
}

/* v1_event_len: the bytes of the event at p[0..n), or 0 when none is complete there. */
static size_t v1_event_len(const uint8_t *p, size_t n)
{
    if (n == 0)
        return 0;
    uint8_t typ = p[0] & 0x3f;
    unsigned narg = (unsigned)(p[0] >> 6) + 1;
    size_t off = 1;
    uint64_t v;
    if (typ == V1_EV_STRING) {
        if (!v1_skip_uvarint(p, n, &off, &v) || !v1_skip_uvarint(p, n, &off, &v) || v > n - off)
            return 0;
        return off + (size_t)v;
    }
    if (narg <= 3) {
        for (unsigned i = 0; i < narg; i++)
            if (!v1_skip_uvarint(p, n, &off, &v))
                return 0;
        return off;
    }
    if (!v1_skip_uvarint(p, n, &off, &v) || v > n - off)
        return 0;
    off += (size_t)v;
    if (typ == V1_EV_USER_LOG) {
        if (!v1_skip_uvarint(p, n, &off, &v) || v > n - off)
            return 0;
        off += (size_t)v;
    }
    return off;
}

/* The units of an old-format trace: its events, or its batches (the runs of events from one
 * EvBatch to the next; what comes before the first is a run too). */
#define V1_EV_BATCH 1 /* Go's tracev1 EvBatch */

/* v1_unit_offset: the offset in the tail of the start of unit k (events or batches, counting
 * from the first event after the header), or of the end of the last complete event when
 * there are fewer; *count gets how many units were walked. */
static size_t v1_unit_offset(const tracedit_trace *t, size_t k, bool batches, size_t *count)
{
    const uint8_t *p = t->bytes + t->tail;
    size_t off = V1_HEADER_LEN, units = 0;
    for (bool first = true;; first = false) {
        size_t len = v1_event_len(p + off, t->tail_len - off);
        if (len == 0)
            break;
        if (!batches || first || (p[off] & 0x3f) == V1_EV_BATCH) {
            if (units == k)
                break;
            units++;
        }
        off += len;
    }
    *count = units;
    return off;
}

static size_t count_v1_units(const tracedit_trace *t, bool batches)
{
    size_t n = 0;
    if (is_v1(t))
        v1_unit_offset(t, SIZE_MAX, batches, &n);
    return n;
}

static void drop_v1_units(tracedit_trace *t, size_t lo, size_t hi, bool batches)
{
    size_t n;
    size_t a = v1_unit_offset(t, lo, batches, &n), z = v1_unit_offset(t, hi, batches, &n);
    cut_range(t, t->tail, &t->tail_len, a, z);
}

static size_t count_v1_batches(const tracedit_trace *t)
{
    return count_v1_units(t, true);
}

static void drop_v1_batches(tracedit_trace *t, size_t lo, size_t hi)
{
    drop_v1_units(t, lo, hi, true);
}

static size_t count_v1_events(const tracedit_trace *t)
{
    return count_v1_units(t, false);
}

static void drop_v1_events(tracedit_trace *t, size_t lo, size_t hi)
{
    drop_v1_units(t, lo, hi, false);
}

/* ddmin removes chunks of units while the trace stays interesting. Returns true on progress. */
bool reduce__ddmin(reducer *r, reduce__count_fn count, reduce__drop_fn drop)
{
    size_t n = count(&r->cur);
    bool any = false;
    if (n == 0)
        return false;
    size_t chunk = n > 1 ? n / 2 : 1;
    for (bool backward = true;; backward = !backward) {
        bool progress = false;
        /* Passes alternate. From the last chunk to the first, what depends on a unit (a
         * GoStart on its GoCreate, a use on a definition), which mostly comes after it, is
         * removed first, so its dependencies can follow in the same pass instead of one per
         * pass; from the first to the last, other minima are found. */
        if (backward) {
            for (size_t end = count(&r->cur); end > 0 && !r->halt;) {
                size_t start = end > chunk ? end - chunk : 0;
                if (!reduce__start_cand(r))
                    return any;
                drop(&r->cand, start, end);
                if (reduce__try_cand(r))
                    progress = any = true;
                end = start;
            }
        } else {
            for (size_t start = 0; start < count(&r->cur) && !r->halt;) {
                size_t end = start + chunk, cnt = count(&r->cur);
                if (end > cnt)
                    end = cnt;
                if (!reduce__start_cand(r))
                    return any;
                drop(&r->cand, start, end);
                if (reduce__try_cand(r))
                    progress = any = true;
                else
                    start += chunk;
            }
        }
        if (r->halt)
            return any;
        /* A chunk size is done after a pass in each direction without progress. */
        if (!progress && !backward) {
            if (chunk == 1)
                return any;
            chunk /= 2;
        }
    }
}

/* Value shrinking. Slot k enumerates: per body batch gen, m, time; per event each argument
 * (a Stack's nframes excluded) and, for data events, the data length. */
typedef struct slot {
    uint64_t *v;        /* the value (NULL for data) */
    tracedit_event *data; /* an event whose data length shrinks */
} slot;

static bool find_slot(tracedit_trace *t, size_t k, slot *s)
{
    for (size_t b = 0; b < t->nbatches; b++) {
        tracedit_batch *x = &t->batches[b];
        if (x->kind == GTR_EV_END_OF_GENERATION)
            continue;
        uint64_t *hdr[3] = {&x->gen, &x->m, &x->time};
        if (k < 3) {
            *s = (slot){hdr[k], NULL};
            return true;
        }
        k -= 3;
        for (size_t i = 0; i < x->nev; i++) {
            tracedit_event *e = &t->events[x->evs[i]];
            for (uint32_t a = 0; a < e->nargs; a++) {
                if (e->type == GTR_EV_STACK && a == 1)
                    continue;
                if (k-- == 0) {
                    *s = (slot){t->vals + e->args + a, NULL};
                    return true;
                }
            }
            if (e->has_data && k-- == 0) {
                *s = (slot){NULL, e};
                return true;
            }
        }
    }
    return false;
}

static bool shrink_values(reducer *r)
{
    bool any = false;
    slot s;
    for (size_t k = 0; !r->halt; k++) {
        if (!find_slot(&r->cur, k, &s))
            break;
        uint64_t v = s.v != NULL ? *s.v : s.data->data_len;
        if (v == 0)
            continue;
        uint64_t tries[3] = {0, 1, v / 2};
        for (int i = 0; i < 3; i++) {
            if (tries[i] >= v || (i == 2 && (tries[2] <= 1)))
                continue;
            if (!reduce__start_cand(r) || !find_slot(&r->cand, k, &s))
                return any;
            if (s.v != NULL)
                *s.v = tries[i];
            else
                s.data->data_len = (size_t)tries[i];
            if (reduce__try_cand(r)) {
                any = true;
                break;
            }
        }
    }
    return any;
}

gtr_status reduce_ddmin(const uint8_t *data, size_t size, reduce_interesting fn, void *ctx,
                         gtr_buf *out, reduce_stats *stats, gtr_err *err)
{
    return reduce_ddmin_budget(data, size, fn, ctx, 0, out, stats, err);
}

gtr_status reduce_ddmin_budget(const uint8_t *data, size_t size, reduce_interesting fn,
                               void *ctx, double budget_s, gtr_buf *out, reduce_stats *stats,
                               gtr_err *err)
{
    reduce_engine opt = {.budget_s = budget_s};
    return reduce_ddmin_run(data, size, fn, ctx, &opt, out, stats, err);
}

gtr_status reduce_ddmin_run(const uint8_t *data, size_t size, reduce_interesting fn, void *ctx,
                            const reduce_engine *opt, gtr_buf *out, reduce_stats *stats,
                            gtr_err *err)
{
    static const reduce_engine defaults = {0};
    reduce_stats local;
    if (opt == NULL)
        opt = &defaults;
    reducer r = {.fn = fn, .ctx = ctx, .stats = stats != NULL ? stats : &local,
                 .progress = opt->on_progress, .progress_ctx = opt->progress_ctx,
                 .read_in_process = opt->read_in_process,
                 .started = reduce__now(), .input_size = size};
    if (opt->budget_s > 0)
        r.deadline = reduce__now() + opt->budget_s;
    gtr_status st = GTR_OK;

    memset(r.stats, 0, sizeof *r.stats);
    r.stats->tests = 1;
    if (!fn(ctx, data, size))
        return gtr_err_setf(err, GTR_E_USAGE, "the input does not show the failure");
    if ((st = tracedit_decode(&r.cur, data, size, err)) < 0)
        goto out;
    if (!r.cur.has_header && !is_v1(&r.cur)) {
        if (gtr_buf_append(out, data, size) < 0)
            st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        goto out;
    }
    /* The decoded form may differ from the input (canonical varints): start from it only if
     * it is still interesting, else keep the raw bytes. */
    if (!reduce__start_cand(&r) || !reduce__try_cand(&r)) {
        if (gtr_buf_append(out, data, size) < 0)
            st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        goto out;
    }
    for (bool progress = true; progress && !r.halt;) {
        r.stats->rounds++;
        progress = false;
        if (is_v1(&r.cur)) {
            /* An old-format trace: whole batches, events, then bytes (no v2 model to edit). */
            progress |= reduce__ddmin(&r, count_v1_batches, drop_v1_batches);
            progress |= reduce__ddmin(&r, count_v1_events, drop_v1_events);
            progress |= reduce__ddmin(&r, count_tails, drop_tails);
            continue;
        }
        if (r.stats->rounds == 1)
            progress |= reduce__format_passes(&r);
        progress |= reduce__ddmin(&r, reduce__count_gens, reduce__drop_gens);
        progress |= reduce__ddmin(&r, count_batches, drop_batches);
        progress |= reduce__ddmin(&r, count_events, drop_events);
        progress |= reduce__ddmin(&r, count_frames, drop_frames);
        if (has_tails(&r.cur))
            progress |= reduce__ddmin(&r, count_tails, drop_tails);
        progress |= reduce__renumber(&r);
        progress |= shrink_values(&r);
    }
    if (r.oom || tracedit_encode(&r.cur, out, err) < 0)
        st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
out:
    report(&r, true);
    free(r.seen.slots);
    tracedit_trace_free(&r.cur);
    tracedit_trace_free(&r.cand);
    gtr_buf_free(&r.enc);
    gtr_buf_free(&r.cur_enc);
    return st;
}

