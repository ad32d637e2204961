/* Port of src/internal/trace/reader.go at go1.27.3. */
/* SPDX-License-Identifier: BSD-3-Clause */
/* reader.c: the high-level reader (Go's Reader and ReadEvent).
 *
 * The v2 parsing algorithm:
 * (1) Read in all the batches of the next generation from the stream.
 *   (a) Use the size field in the header to quickly find all batches.
 * (2) Parse out the strings, stacks, CPU samples, and timestamp conversion data.
 * (3) Group each event batch by M, sorted by timestamp (a batch cursor per M).
 * (4) Organize the batch cursors in a min-heap, ordered by the timestamp of the next event
 *     for each M.
 * (5) Try to advance the next event for the M at the top of the min-heap.
 *   (a) On success, select that M.
 *   (b) On failure, sort the min-heap and try to advance other Ms. Select the first M that
 *       advances.
 *   (c) If there's nothing left to advance, goto (1).
 * (6) Select the latest event for the selected M and get it ready to be returned.
 * (7) Read the next event for the selected M and update the min-heap.
 * (8) Return the selected event, goto (5) on the next call.
 *
 * Every event gets its table IDs validated (a queued event by the ordering, as it is queued,
 * with its error held for its place in the queue) and its time forced to increase strictly. A Sync
 * event starts every generation and ends the trace. Traces before Go 1.26 have no
 * end-of-generation marker: the first batch of the next generation is "spilled" while
 * reading a generation, and an error reading it is reported only after the generation's
 * events (and a Sync). One generation object is reused for every generation, so the
 * previous generation's data ends where the next generation's Sync is returned.
 *
 * Version dispatch (Go's NewReader): "go 1.22" to "go 1.26" traces take the generational
 * path above; "go 1.11", "go 1.19" and "go 1.21" traces take the v1 path: the whole trace is
 * parsed at once by tracev1/ (Go's internal/tracev1) and its events are converted to v2
 * events by tracev1_convert.c (Go's tracev1.go), between a first and a last Sync. Every
 * other header fails in gtr_header_read ("unknown or unsupported trace version go 1.%d"). */
#include <stddef.h>
#include <string.h>

#include "gtr/raw.h"
#include "gtr/reader.h"
#include "gtr/sort.h"

#include "batchcursor.h"
#include "compiler.h"
#include "generation.h"
#include "input_priv.h"
#include "mem.h"
#include "order.h"
#include "reader_priv.h"
#include "tracev1_convert.h"

/* Where a reader stands. gtr_reader_next's common case is READING's: one test. */
typedef enum reader_phase {
    READING = 0,   /* a v2 reader in good standing */
    V1,            /* a v1 reader in good standing (read_v1_event) */
    ERROR_DUE,     /* sticky holds an error met reading ahead (hold_error), due once the
                    * events queued before it are taken */
    FAILED,        /* sticky holds the error every call returns */
    DONE,          /* every call returns EOF */
} reader_phase;

/* A generation's read error, held back until after a Sync: Go's readGenErr (1.26+) is
 * DEFERRED_ERROR after the Sync that ends the last good generation; spillErr with
 * spillErrSync (before 1.26) is DEFERRED_SYNC_FIRST until that Sync is emitted. */
typedef enum deferred_error {
    DEFERRED_NONE = 0,
    DEFERRED_SYNC_FIRST,   /* emit the final Sync, then the error */
    DEFERRED_ERROR,        /* the error is next */
} deferred_error;

struct gtr_reader {
    const gtr_alloc *alc;
    gtr_input *in;
    gtr_input *owned_in;     /* in, when the reader opened it (gtr_reader_open_path) */
    gtr_go_version ver;
    gtr_time last_ts;

    gtr__generation *gen;    /* storage of the current generation */
    bool have_gen;           /* Go's r.gen != nil */
    gtr__cursor_ctx cctx;
    gtr__batch_cursor *cursors;
    size_t cursors_cap;
    gtr__heap_entry *frontier;
    size_t nfrontier, frontier_cap;
    gtr__heap_root_memo frontier_memo;   /* cleared on every change but the root's update */
    size_t cpu_next;         /* Go's r.cpuSamples is gen->cpu[cpu_next, ncpu) */

    gtr__ordering *order;
    gtr__v1_converter *v1;   /* the v1 path (go 1.11, 1.19, 1.21): Go's r.v1Events */
    uint64_t syncs;
    reader_phase phase;
    /* A generation's read error, held in deferred_err: Go's readGenErr (1.26+), or its
     * spillErr and spillErrSync (before 1.26). */
    deferred_error deferred;
    uint32_t ahead;          /* the most events advance_ahead queues now (AHEAD_MIN..MAX) */
    bool stuck;              /* no event of the frontier could advance: it stays as it was
                              * for gtr_reader_diagnose */

    /* The 4 KiB messages come last: gtr_reader_new zeroes only what precedes them, so a
     * reader that never fails never touches their pages (a fuzzer makes one per input). */
    gtr_err deferred_err;
    gtr_err sticky;
    gtr_err scratch_err;     /* for callers passing a NULL err */
};

/* mark_done ends the reading at EOF; mark_failed keeps err as the sticky error every later
 * call returns. */
static void mark_done(gtr_reader *r)
{
    r->phase = DONE;
}

static void mark_failed(gtr_reader *r, const gtr_err *err)
{
    r->phase = FAILED;
    gtr_err_copy(&r->sticky, err);
}

/* How many events advance_ahead queues at most: AHEAD_MIN at first, doubled each time the
 * queue fills, up to AHEAD_MAX. Enough that the reader's per-call work is shared by many
 * events, small enough that the queue stays in L1; small at first, so that a short trace (a
 * fuzzer's input) does not pay for a large queue. */
enum { AHEAD_MIN = 8, AHEAD_MAX = 64 };

static void sync_event(gtr_event *ev, const gtr__ev_table *table, gtr_time ts, uint64_t n);

/* reader_alloc allocates a reader for in and version v with nothing else set up. */
static gtr_reader *reader_alloc(gtr_input *in, const gtr_alloc *alc, gtr_go_version v)
{
    gtr_reader *r = gtr__malloc(alc, sizeof *r);
    if (r == NULL)
        return NULL;
    memset(r, 0, offsetof(gtr_reader, deferred_err));
    gtr_err_init(&r->deferred_err);
    gtr_err_init(&r->sticky);
    gtr_err_init(&r->scratch_err);
    gtr_err_set_alloc(&r->deferred_err, alc);
    gtr_err_set_alloc(&r->sticky, alc);
    gtr_err_set_alloc(&r->scratch_err, alc);
    r->alc = alc;
    r->in = in;
    r->ver = v;
    r->ahead = AHEAD_MIN;
    return r;
}

/* read_rest reads the rest of the input into one buffer allocated with alc (Go's
 * io.ReadAll in tracev1.Parse). The input's limit, if set, caps it. */
static gtr_status read_rest(gtr_input *in, const gtr_alloc *alc, uint8_t **data, size_t *len,
                            gtr_err *err)
{
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 4096 && !GTR__GROW(alc, buf, cap, n + 65536)) {
            gtr__free(alc, buf);
            return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        }
        size_t got;
        gtr_status st = gtr_input_read(in, buf + n, cap - n, &got, err);
        if (st != GTR_OK) {
            gtr__free(alc, buf);
            return st;
        }
        n += got;
        if (got == 0)
            break;
    }
    *data = buf;
    *len = n;
    return GTR_OK;
}

/* new_v1_reader is NewReader's v1 case: tracev1.Parse, then convertV1Trace. */
static gtr_status new_v1_reader(gtr_input *in, const gtr_alloc *alc, gtr_go_version v,
                                gtr_reader **out, gtr_err *err)
{
    /* A plain memory input's bytes outlive the reader: they are parsed in place. */
    const uint8_t *data = NULL;
    uint8_t *owned = NULL;
    size_t len = 0;
    gtr_status st;
    if (!gtr__input_borrow_rest(in, &data, &len)) {
        if ((st = read_rest(in, alc, &owned, &len, err)) != GTR_OK)
            return st;
        data = owned;
    }
    gtr__v1_trace tr;
    if ((st = gtr__v1_parse(data, len, owned, v, alc, &tr, err)) != GTR_OK)
        return st;
    gtr_reader *r = reader_alloc(in, alc, v);
    if (r == NULL) {
        gtr__v1_trace_free(&tr);
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    }
    if ((st = gtr__v1_converter_new(alc, &tr, &r->v1, err)) != GTR_OK) {
        gtr_reader_free(r);
        return st;
    }
    r->phase = V1;
    /* The converter has copied the strings: a borrowed input is done with. */
    if (owned == NULL)
        gtr__input_release_before(in, gtr_input_offset(in));
    *out = r;
    return GTR_OK;
}

/* read_v1_event is ReadEvent's v1 case. */
static gtr_status read_v1_event(gtr_reader *r, gtr_event *ev, gtr_err *err)
{
    gtr_time t;
    if (r->syncs == 0 && gtr__v1_converter_peek_time(r->v1, &t)) {
        /* Always emit a sync event first, if we have any events at all. */
        r->syncs++;
        sync_event(ev, gtr__v1_converter_table(r->v1), (gtr_time)((uint64_t)t - 1), r->syncs);
        return GTR_OK;
    }
    gtr_status st = gtr__v1_converter_next(r->v1, ev, err);
    if (st == GTR_EOF) {
        /* Always emit a sync event at the end. */
        gtr_err_clear(err);
        mark_done(r);
        r->syncs++;
        sync_event(ev, NULL,
                   (gtr_time)((uint64_t)gtr__v1_converter_last_time(r->v1) + 1), r->syncs);
        return GTR_OK;
    }
    return st;
}

static gtr_status reader_new(gtr_input *in, const gtr_alloc *alc, gtr_reader **out,
                             gtr_err *err)
{
    gtr_err_clear(err);
    if (in == NULL || out == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_reader_new: NULL argument");
    *out = NULL;
    alc = gtr__alloc_or_libc(alc);

    gtr_go_version v;
    gtr_status st = gtr_header_read(in, &v, err);
    if (st != GTR_OK)
        return st;
    switch (v) {
    case GTR_GO122:
    case GTR_GO123:
    case GTR_GO125:
    case GTR_GO126:
        break;   /* the generational path (v2): below */
    case GTR_GO111:
    case GTR_GO119:
    case GTR_GO121:
        /* The v1 path: parse the whole trace now, convert its events as they are read. */
        return new_v1_reader(in, alc, v, out, err);
    default:
        /* Go: "unknown or unsupported version go 1.%d" */
        return gtr_err_setf(err, GTR_E_VERSION, "unknown or unsupported version go 1.%d",
                            (int)v);
    }

    gtr_reader *r = reader_alloc(in, alc, v);
    if (r == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    st = gtr__generation_new(alc, v, &r->gen, err);
    if (st == GTR_OK)
        st = gtr__ordering_new(alc, &r->order, err);
    if (st != GTR_OK) {
        gtr_reader_free(r);
        return st;
    }
    gtr__ordering_set_version(r->order, (uint64_t)v);
    gtr__cursor_ctx_init(&r->cctx);
    *out = r;
    return GTR_OK;
}

gtr_status gtr_reader_new(gtr_input *in, const gtr_alloc *alc, gtr_reader **out, gtr_err *err)
{
    if (err != NULL)
        return reader_new(in, alc, out, err);
    gtr_err local = GTR_ERR_INIT;
    gtr_status st = reader_new(in, alc, out, &local);
    gtr_err_clear(&local);
    return st;
}

gtr_status gtr_reader_open_path(const char *path, const gtr_alloc *alc, gtr_reader **out,
                                gtr_err *err)
{
    gtr_input *in;
    gtr_status st;

    if (path == NULL || out == NULL) {
        if (out != NULL)
            *out = NULL;
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_reader_open_path: NULL argument");
    }
    if ((st = gtr_input_open_path(path, alc, &in, err)) != GTR_OK) {
        *out = NULL;
        return st;
    }
    if ((st = gtr_reader_new(in, alc, out, err)) != GTR_OK) {
        gtr_input_free(in);
        return st;
    }
    (*out)->owned_in = in;
    return GTR_OK;
}

void gtr_reader_free(gtr_reader *r)
{
    if (r == NULL)
        return;
    gtr_input *owned_in = r->owned_in;
    gtr_err_clear(&r->deferred_err);
    gtr_err_clear(&r->sticky);
    gtr_err_clear(&r->scratch_err);
    gtr__generation_free(r->gen);
    gtr__ordering_free(r->order);
    gtr__v1_converter_free(r->v1);
    gtr__free(r->alc, r->cursors);
    gtr__free(r->alc, r->frontier);
    gtr__free(r->alc, r);
    gtr_input_free(owned_in);
}

gtr_go_version gtr_reader_go_version(const gtr_reader *r)
{
    return r->ver;
}

/* sync_event is Go's syncEvent. */
static void sync_event(gtr_event *ev, const gtr__ev_table *table, gtr_time ts, uint64_t n)
{
    *ev = gtr__make_event(table, GTR_NO_GOROUTINE, GTR_NO_PROC, GTR_NO_THREAD,
                          GTR_EV_SYNC_EVENT, ts);
    ev->args_[0] = n;
}

/* final_sync emits a Sync without a table at the last timestamp. */
static gtr_status final_sync(gtr_reader *r, gtr_event *ev)
{
    r->syncs++;
    sync_event(ev, NULL, r->last_ts, r->syncs);
    return GTR_OK;
}

/* install_gen is Go's installGen: it sets up the frontier of the generation just read and
 * returns its Sync event (or the final Sync when there is no generation). */
static gtr_status install_gen(gtr_reader *r, bool have, gtr_event *ev, gtr_err *err)
{
    if (!have) {
        r->have_gen = false;
        mark_done(r);
        return final_sync(r, ev);
    }
    gtr__generation *g = r->gen;
    r->have_gen = true;
    r->cpu_next = 0;
    r->cctx.batches = g->batches;
    gtr__cursor_ctx_set_freq(&r->cctx, gtr__evt_sync(g->evt)->freq);

    /* Reset the frontier: one cursor per M, in order of first appearance. */
    r->nfrontier = 0;
    r->frontier_memo.ok = false;
    if (!GTR__GROW(r->alc, r->cursors, r->cursors_cap, g->nms) ||
        !GTR__GROW(r->alc, r->frontier, r->frontier_cap, g->nms))
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    for (size_t i = 0; i < g->nms; i++) {
        gtr__batch_cursor *bc = &r->cursors[i];
        gtr__batch_cursor_init(bc, &r->cctx, g->ms[i].m, g->ms[i].first);
        bool ok;
        gtr_status st = gtr__batch_cursor_next(bc, &r->cctx, &ok, err);
        if (st != GTR_OK)
            return st;
        if (!ok)
            continue;   /* there aren't actually any events in these batches */
        gtr__heap_insert(r->frontier, &r->nfrontier, bc);
    }
    /* With a frontier, ReadEvent advances an event of this generation next. */
    if (r->nfrontier > 0)
        gtr__ordering_begin_generation(r->order, g->evt, g->gen);
    r->syncs++;

    /* Always emit a sync event at the beginning of the generation. */
    sync_event(ev, g->evt, gtr__freq_mul(r->cctx.freq, g->min_ts), r->syncs);
    return GTR_OK;
}

/* next_gen_with_spill is Go's nextGenWithSpill (traces before Go 1.26), its deferred error
 * taken by read_event. */
static gtr_status next_gen_with_spill(gtr_reader *r, gtr_event *ev, gtr_err *err)
{
    if (r->have_gen && !r->gen->has_spill) {
        /* A generation was read, the frontier is empty and nothing was spilled: no further
         * generation, we're done. Emit the final sync event. */
        mark_done(r);
        return final_sync(r, ev);
    }

    /* Read the next generation. A deferred error reading the following batch lands in
     * r->deferred_err (code GTR_OK when there is none). */
    gtr_status st = gtr__generation_read_with_spill(r->gen, r->in, &r->deferred_err, err);
    if (st != GTR_OK) {
        if (st == GTR_E_NOMEM || st == GTR_E_USAGE)
            return st;
        /* No generation: emit a Sync, then report the error. */
        r->have_gen = false;
        gtr_err_copy(&r->deferred_err, err);
        gtr_err_clear(err);
        r->deferred = DEFERRED_ERROR;
        return final_sync(r, ev);
    }
    if (r->deferred_err.code != GTR_OK)
        r->deferred = DEFERRED_SYNC_FIRST;
    return install_gen(r, true, ev, err);
}

/* append_frontier appends Go's dumpFrontier. */
static void append_frontier(const gtr_reader *r, gtr_buf *b)
{
    for (size_t i = 0; i < r->nfrontier; i++) {
        const gtr__batch_cursor *bc = r->frontier[i].bc;
        const gtr_event_spec *spec = gtr_spec(bc->ev.type);
        gtr_buf_printf(b, "M %lld [%s time=%lld", (long long)bc->m,
                       spec->name ? spec->name : "", (long long)bc->ev.time);
        for (size_t a = 1; a < spec->nargs; a++)
            gtr_buf_printf(b, " %s=%llu", spec->args[a],
                           (unsigned long long)bc->ev.args[a - 1]);
        gtr_buf_puts(b, "]\n");
    }
}

/* broken_trace formats Go's "broken trace: <what>:\n[gen=%d]\n\n%s\n%s\n". */
static gtr_status broken_trace(const gtr_reader *r, const char *what, gtr_err *err)
{
    gtr_buf b;
    gtr_buf_init(&b, r->alc);
    gtr_buf_printf(&b, "broken trace: %s:\n[gen=%llu]\n\n", what,
                   (unsigned long long)r->gen->gen);
    append_frontier(r, &b);
    gtr_buf_putc(&b, '\n');
    gtr__ordering_dump(r->order, &b);
    gtr_buf_putc(&b, '\n');
    gtr_status st;
    if (gtr_buf_status(&b) != GTR_OK)
        st = gtr_err_setf(err, GTR_E_ORDER, "broken trace: %s", what);
    else
        st = gtr_err_setn(err, GTR_E_ORDER, b.data, b.len);
    gtr_buf_free(&b);
    return st;
}

/* step is Go's tryAdvance up to its heap update, which is the caller's: the ordering advances
 * by bc's event and, when it did (a->ok), bc reads its next event (*more: it had one). An error
 * leaves the queue as it was before the step, or cut before the first event naming an ID not
 * in the table. */
static GTR__ALWAYS_INLINE gtr_status step(gtr__ordering *o, gtr__cursor_ctx *cctx,
                                          gtr__batch_cursor *bc, gtr__advanced *a, bool *more,
                                          gtr_err *err)
{
    gtr_status st = gtr__ordering_advance(o, &bc->ev, bc->m, &bc->mstate, a, err);
    if (st != GTR_OK || !a->ok)
        return st;
    /* Refresh the cursor's event. */
    st = gtr__batch_cursor_next(bc, cctx, more, err);
    if (st != GTR_OK) {
        gtr__ordering_drop_last(o);
        return st;
    }
    /* ReadEvent's validateTableIDs of each event it returns, after the cursor's error, which
     * it returns first. */
    return a->check_ids ? gtr__ordering_check_ids(o, err) : GTR_OK;
}

/* try_advance is ReadEvent's tryAdvance(i) for i > 0 (advance_rest's). */
static gtr_status try_advance(gtr_reader *r, size_t i, bool *ok, gtr_err *err)
{
    bool more;
    gtr__advanced a;
    gtr_status st = step(r->order, &r->cctx, r->frontier[i].bc, &a, &more, err);
    *ok = a.ok;
    if (st != GTR_OK || !a.ok)
        return st;
    r->frontier_memo.ok = false;
    if (more)
        gtr__heap_update(r->frontier, r->nfrontier, i);
    else
        gtr__heap_remove(r->frontier, &r->nfrontier, i);   /* nothing else to read */
    return GTR_OK;
}

static gtr_status advance_ahead(gtr_reader *r, gtr_err *err);

/* next_sample_time is the time of the next CPU sample, INT64_MAX when none is left: Go injects
 * it before the frontier's head when it is earlier. */
static gtr_time next_sample_time(const gtr_reader *r)
{
    return r->cpu_next < r->gen->ncpu ? r->gen->cpu[r->cpu_next].time : INT64_MAX;
}

/* cpu_sample_due is ReadEvent's test for injecting the next CPU sample: one is left, and the
 * frontier is empty or its head is later. */
static bool cpu_sample_due(const gtr_reader *r)
{
    if (!r->have_gen || r->cpu_next >= r->gen->ncpu)
        return false;
    return r->nfrontier == 0 || r->gen->cpu[r->cpu_next].time < r->frontier[0].time;
}

/* read_event is ReadEvent without its deferred fix-up. */
static gtr_status read_event(gtr_reader *r, gtr_event *ev, gtr_err *err)
{
    /* Consume any events in the ordering first. */
    if (gtr__ordering_next(r->order, ev))
        return GTR_OK;
    if (r->phase == ERROR_DUE) {
        gtr_err_copy(err, &r->sticky);
        return r->sticky.code;
    }

    size_t ncpu = r->have_gen ? r->gen->ncpu - r->cpu_next : 0;

    /* Check if we need to refresh the generation. */
    if (r->nfrontier == 0 && ncpu == 0) {
        if (r->deferred == DEFERRED_ERROR) {
            gtr_err_copy(err, &r->deferred_err);
            return r->deferred_err.code;
        }
        if (r->deferred == DEFERRED_SYNC_FIRST) {
            r->deferred = DEFERRED_ERROR;
            return final_sync(r, ev);
        }
        if (r->ver < GTR_GO126)
            return next_gen_with_spill(r, ev, err);
        gtr_status st = gtr__generation_read(r->gen, r->in, err);
        if (st < 0) {
            if (st == GTR_E_NOMEM || st == GTR_E_USAGE)
                return st;
            /* Emit the sync event ending the current generation, and queue the error for
             * the next call. */
            gtr_err_copy(&r->deferred_err, err);
            gtr_err_clear(err);
            r->deferred = DEFERRED_ERROR;
            r->have_gen = false;
            return final_sync(r, ev);
        }
        return install_gen(r, st == GTR_OK, ev, err);
    }

    /* Inject a CPU sample if it comes next. */
    if (cpu_sample_due(r)) {
        const gtr__cpu_sample *s = &r->gen->cpu[r->cpu_next];
        *ev = gtr__make_event(r->gen->evt, s->g, s->p, s->m, GTR_EV_CPU_SAMPLE, s->time);
        ev->args_[0] = s->stack;
        r->cpu_next++;
        /* Go's validateTableIDs of ReadEvent (a queued event's is the ordering's). */
        return gtr__event_validate_table_ids(ev, err);
    }

    /* Try to advance the head of the frontier, which should have the minimum timestamp.
     * This should be by far the most common case. */
    if (r->nfrontier == 0)
        /* Go: "broken trace: frontier is empty:\n[gen=%d]\n\n%s\n%s\n" */
        return broken_trace(r, "frontier is empty", err);
    gtr_status st = advance_ahead(r, err);
    if (st != GTR_OK)
        return st;
    /* Pick off the next event on the queue. At this point, one must exist. */
    if (!gtr__ordering_next(r->order, ev))
        /* Go panics: "invariant violation: advance successful, but queue is empty" */
        return gtr_err_setf(err, GTR_E_ORDER,
                            "invariant violation: advance successful, but queue is empty");
    return GTR_OK;
}

/* advance_rest is the rest of ReadEvent's advance when the frontier's head cannot advance:
 * the first other cursor in time order that advances. */
static gtr_status advance_rest(gtr_reader *r, gtr_err *err)
{
    /* Try to advance the rest of the frontier, in timestamp order: a sorted min-heap is still
     * a min-heap. This path should be rare. */
    gtr_go_sort_func(r->frontier, r->nfrontier, sizeof *r->frontier, gtr__heap_entry_compare);
    r->frontier_memo.ok = false;
    for (size_t i = 1; i < r->nfrontier; i++) {
        bool ok;
        gtr_status st = try_advance(r, i, &ok, err);
        if (st != GTR_OK)
            return st;
        if (ok)
            return GTR_OK;
    }
    /* Go: "broken trace: failed to advance: frontier:\n[gen=%d]\n\n%s\n%s\n" */
    r->stuck = true;
    return broken_trace(r, "failed to advance: frontier", err);
}

/* hold_error takes an error met by advance_ahead. With events of earlier steps queued, they
 * come first, as from Go's ReadEvent called once for each, and the error after them: r->sticky
 * holds it until then. */
static gtr_status hold_error(gtr_reader *r, gtr_status st, gtr_err *err)
{
    if (gtr__ordering_queued(r->order) == 0)
        return st;
    gtr_err_copy(&r->sticky, err);
    gtr_err_clear(err);
    r->phase = ERROR_DUE;
    return GTR_OK;
}

/* advance_heads is ReadEvent's tryAdvance(0), done again as long as it advances, no CPU sample
 * is due before the head and fewer steps were taken than r->ahead events lacked in the queue
 * (a step queues one to three, so the queue stays bounded). While the head stays the head
 * (its time not after its children's), the heap is left as it is but for the head's time;
 * once it moves past them the heap is updated (Go's heapUpdate(0)), or the head removed when
 * it runs out (heapRemove(0)), which ends the run. *ok false: the head cannot advance. */
static gtr_status advance_heads(gtr_reader *r, bool *ok, gtr_err *err)
{
    gtr__ordering *const o = r->order;
    size_t queued = gtr__ordering_queued(o);
    size_t steps = queued < r->ahead ? r->ahead - queued : 1;
    for (;;) {
        gtr__heap_entry *head = &r->frontier[0];
        gtr__batch_cursor *bc = head->bc;
        gtr_time limit = gtr__heap_root_kids_min(r->frontier, r->nfrontier, &r->frontier_memo);
        gtr_time sample = next_sample_time(r);
        if (sample < limit)
            limit = sample;
        for (;;) {
            bool more;
            gtr__advanced a;
            gtr_status st = step(o, &r->cctx, bc, &a, &more, err);
            *ok = a.ok;
            if (st != GTR_OK || !a.ok) {
                head->time = bc->ev.time;
                return st;
            }
            if (!more) {
                r->frontier_memo.ok = false;
                gtr__heap_remove(r->frontier, &r->nfrontier, 0);   /* nothing else to read */
                return GTR_OK;
            }
            bool full = --steps == 0;
            if (bc->ev.time > limit) {
                gtr__heap_update_root(r->frontier, r->nfrontier, &r->frontier_memo);
                if (full || sample < r->frontier[0].time)
                    return GTR_OK;
                break;
            }
            if (full) {
                head->time = bc->ev.time;
                return GTR_OK;
            }
        }
    }
}

/* advance_ahead is ReadEvent's advance of the frontier (its head, or else the first cursor
 * in time order that advances), and then the advances of the ReadEvent calls after it while
 * they would need neither a new generation nor a CPU sample, until r->ahead events are
 * queued. The steps are Go's, in Go's order: the ordering and the frontier change exactly as
 * one ReadEvent call at a time would change them, and the queue only holds the events until
 * they are asked for. Called with the queue empty, the frontier not, and no CPU sample due
 * before its head. */
static gtr_status advance_ahead(gtr_reader *r, gtr_err *err)
{
    for (;;) {
        bool ok;
        gtr_status st = advance_heads(r, &ok, err);
        if (st == GTR_OK && !ok)
            st = advance_rest(r, err);
        if (st != GTR_OK)
            return hold_error(r, st, err);
        if (gtr__ordering_queued(r->order) >= r->ahead) {
            if (r->ahead < AHEAD_MAX)
                r->ahead *= 2;
            return GTR_OK;
        }
        /* What the next ReadEvent call would do before advancing: a new generation, or a
         * CPU sample first. */
        if (r->nfrontier == 0 || cpu_sample_due(r))
            return GTR_OK;
    }
}

/* event_out ends gtr_reader_next for a good v2 event: Go's deferred fix-up in ReadEvent after
 * the table ID check (the ordering's, for a queued event; read_event's, for a CPU sample):
 * its time is made strictly later than the last one's. */
static GTR__ALWAYS_INLINE gtr_status event_out(gtr_reader *r, gtr_event *ev)
{
    if (ev->time_ <= r->last_ts)
        ev->time_ = (gtr_time)((uint64_t)r->last_ts + 1);
    r->last_ts = ev->time_;
    return GTR_OK;
}

/* reader_next is gtr_reader_next's whole work. gtr__reader_next_ref takes the common case
 * itself (the same steps, in the same order) and calls this for the rest. */
static GTR__NOINLINE gtr_status reader_next(gtr_reader *r, gtr_event *ev, gtr_err *err)
{
    if (r == NULL || ev == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_reader_next: NULL argument");
    if (err == NULL)
        err = &r->scratch_err;   /* no gtr_err on the stack of the hot path */
    gtr_err_clear(err);
    if (r->phase == FAILED) {
        gtr_err_copy(err, &r->sticky);
        return r->sticky.code;
    }
    /* Return only EOF if we're done. */
    if (r->phase == DONE) {
        memset(ev, 0, sizeof *ev);
        return gtr_err_setf(err, GTR_EOF, "EOF");
    }

    if (r->phase == V1) {
        /* The v1 path: no table ID check and no time fix-up here (the converter has its
         * own), as in Go. */
        gtr_status st = read_v1_event(r, ev, err);
        if (st != GTR_OK) {
            mark_failed(r, err);
        }
        return st;
    }
    gtr_status st = read_event(r, ev, err);
    if (st == GTR_EOF) {
        /* A bare io.EOF from inside a table batch: Go's ReadEvent returns it as is, which
         * ends the trace for its callers. */
        mark_done(r);
        memset(ev, 0, sizeof *ev);
        return gtr_err_setf(err, GTR_EOF, "EOF");
    }
    if (st != GTR_OK) {
        mark_failed(r, err);   /* an error sticks: every later call returns it */
        return st;
    }
    return event_out(r, ev);
}

/* gtr__reader_next_ref (reader_priv.h) is the one way to the next event. Its common case is
 * an event the ordering has queued, for a v2 reader in good standing: read_event's first
 * step, then the time fix-up (the ordering checked its table IDs as it queued it), on the
 * event in its queue slot. It is small, and taken inline by gtr_reader_next and, under
 * link-time optimisation, by gtr_validator_run's loop; everything else, first calls and
 * errors included, goes to reader_next. */
GTR__LTO_INLINE_BEGIN
GTR__LTO_INLINE gtr_status gtr__reader_next_ref(gtr_reader *r, gtr_event *buf, gtr_event **ev,
                                                gtr_err *err)
{
    gtr_event *slot;
    if (r->phase != READING || (slot = gtr__ordering_pop(r->order)) == NULL) {
        *ev = buf;
        return reader_next(r, buf, err);
    }
    *ev = slot;
    return event_out(r, slot);
}
GTR__LTO_INLINE_END

gtr_status gtr_reader_next(gtr_reader *r, gtr_event *ev, gtr_err *err)
{
    if (r == NULL || ev == NULL)
        return reader_next(r, ev, err);
    if (err != NULL)
        gtr_err_clear(err);
    gtr_event *out;
    gtr_status st = gtr__reader_next_ref(r, ev, &out, err);
    if (out != ev)
        *ev = *out;
    return st;
}

/* gtr__reader_stuck (reader_priv.h). */
bool gtr__reader_stuck(const gtr_reader *r, gtr__stuck_view *out)
{
    if (r == NULL || !r->stuck || !r->have_gen)
        return false;
    out->frontier = r->frontier;
    out->n = r->nfrontier;
    out->order = r->order;
    out->gen = r->gen->gen;
    out->ver = r->ver;
    return true;
}

/* gtr__reader_generation (reader_priv.h). */
uint64_t gtr__reader_generation(const gtr_reader *r)
{
    return r != NULL && r->have_gen ? r->gen->gen : 0;
}

/* v2_readable: a v2 reader that has not failed nor ended (an error may be due after the
 * events queued before it). */
static bool v2_readable(const gtr_reader *r)
{
    return r->phase == READING || r->phase == ERROR_DUE;
}

/* gtr__reader_thread (reader_priv.h). */
bool gtr__reader_thread(gtr_reader *r, size_t i, gtr_threadid *m, uint64_t *advanced,
                        gtr_err *err)
{
    if (r == NULL || !r->have_gen || !v2_readable(r) || i >= r->gen->nms)
        return false;
    const gtr__batch_cursor *bc = &r->cursors[i];
    bool waiting = false;   /* its next event is read and not advanced yet */
    for (size_t f = 0; f < r->nfrontier && !waiting; f++)
        waiting = r->frontier[f].bc == bc;
    /* Walk the thread's events again, up to the one the cursor holds. */
    gtr__batch_cursor walk;
    gtr__batch_cursor_init(&walk, &r->cctx, r->gen->ms[i].m, r->gen->ms[i].first);
    uint64_t n = 0;
    for (;;) {
        bool ok;
        if (gtr__batch_cursor_next(&walk, &r->cctx, &ok, err) != GTR_OK)
            return false;
        if (!ok || (waiting && walk.idx == bc->idx && walk.pos == bc->pos))
            break;
        n++;
    }
    *m = r->gen->ms[i].m;
    *advanced = n;
    return true;
}

/* gtr__reader_threads (reader_priv.h). */
size_t gtr__reader_threads(const gtr_reader *r)
{
    return r != NULL && r->have_gen && v2_readable(r) ? r->gen->nms : 0;
}

/* gtr__reader_ordering (reader_priv.h). */
const gtr__ordering *gtr__reader_ordering(const gtr_reader *r)
{
    return r->order;
}
