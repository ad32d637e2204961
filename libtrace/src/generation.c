/* Port of src/internal/trace/generation.go at go1.27.3. */
/* SPDX-License-Identifier: BSD-3-Clause */
/* generation.c: buffering and decoding the structural parts of one generation.
 *
 * Batches are read one at a time. Event batches (and experimental ones) are read straight
 * into the table's arena and linked per M; string, stack, CPU sample and sync batches are
 * read into a scratch buffer and decoded into the table at once. Every count is bounded by
 * the bytes actually present: a batch is at most GTR_MAX_BATCH_SIZE bytes, a string at most
 * GTR_MAX_EVENT_TRAILER_DATA_SIZE, a stack at most GTR_MAX_FRAMES_PER_STACK frames. */
#include <math.h>
#include <string.h>

#include "generation.h"
#include "gtr/sort.h"

#include "input_priv.h"
#include "mem.h"

gtr_status gtr__generation_new(const gtr_alloc *alc, gtr_go_version ver, gtr__generation **out,
                               gtr_err *err)
{
    alc = gtr__alloc_or_libc(alc);
    gtr__generation *g = gtr__calloc(alc, 1, sizeof *g);
    if (g == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    g->alc = alc;
    g->ver = ver;
    if (gtr__evt_new(alc, &g->evt, err) != GTR_OK) {
        gtr__generation_free(g);
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    }
    *out = g;
    return GTR_OK;
}

void gtr__generation_free(gtr__generation *g)
{
    if (g == NULL)
        return;
    const gtr_alloc *alc = g->alc;
    gtr__evt_free(g->evt);
    gtr__free(alc, g->batches);
    gtr__free(alc, g->ms);
    gtr__idmap_free(&g->mindex, alc);
    gtr__free(alc, g->cpu);
    gtr__free(alc, g->scratch);
    gtr__free(alc, g->spill_buf);
    gtr__free(alc, g);
}

static void generation_reset(gtr__generation *g)
{
    gtr__evt_reset(g->evt);
    g->gen = 0;
    g->min_ts = 0;
    g->nbatches = 0;
    g->nms = 0;
    gtr__idmap_clear(&g->mindex);
    g->ncpu = 0;
}

/* batch_dest puts table batches in the scratch buffer and the others in the arena. */
static uint8_t *batch_dest(void *ctx, uint8_t exp, uint8_t first, size_t size)
{
    gtr__generation *g = ctx;
    if (gtr__batch_kind_is_structural(exp, first, g->ver)) {
        /* size <= GTR_MAX_BATCH_SIZE (checked by the batch reader), so the scratch buffer
         * never exceeds it; small traces never pay for a 64 KiB buffer. */
        if (size > g->scratch_cap) {
            size_t cap = g->scratch_cap;
            void *p = g->scratch;
            if (!gtr__grow(g->alc, &p, &cap, size, 1))
                return NULL;
            g->scratch = p;
            g->scratch_cap = cap;
        }
        return g->scratch;
    }
    return gtr__evt_alloc(g->evt, size);
}

static gtr_status nomem(gtr_err *err)
{
    return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
}

/* add_strings is Go's addStrings. */
static gtr_status add_strings(gtr__generation *g, const gtr__batch *b, gtr_err *err)
{
    gtr__bytes r = {b->data, b->len, 1};   /* the EvStrings byte is consumed */
    while (r.off < r.len) {
        /* Read the header. */
        uint8_t ev = r.p[r.off++];
        if (ev != GTR_EV_STRING)
            /* Go: "expected string event, got %d" */
            return gtr_err_setf(err, GTR_E_FORMAT, "expected string event, got %d", ev);
        /* Read the string's ID and length. */
        uint64_t id, len;
        gtr_status st = gtr__bytes_uvarint(&r, &id, err);
        if (st != GTR_OK)
            return st;
        st = gtr__bytes_uvarint(&r, &len, err);
        if (st != GTR_OK)
            return st;
        if (len > GTR_MAX_EVENT_TRAILER_DATA_SIZE)
            /* Go: "invalid string size %d, maximum is %d" */
            return gtr_err_setf(err, GTR_E_FORMAT, "invalid string size %llu, maximum is %d",
                                (unsigned long long)len, GTR_MAX_EVENT_TRAILER_DATA_SIZE);
        /* Copy out the string. */
        size_t n = r.len - r.off < len ? r.len - r.off : (size_t)len;
        if (n != len)
            /* Go: "failed to read full string: read %d but wanted %d" */
            return gtr_err_setf(err, GTR_E_FORMAT,
                                "failed to read full string: read %zu but wanted %llu", n,
                                (unsigned long long)len);
        st = gtr__evt_add_string(g->evt, id, (const char *)r.p + r.off, n, err);
        if (st != GTR_OK)
            return st;
        r.off += n;
    }
    return GTR_OK;
}

/* add_stacks is Go's addStacks. */
static gtr_status add_stacks(gtr__generation *g, const gtr__batch *b, gtr_err *err)
{
    static const char *const field[4] = {"PC", "funcID", "fileID", "line"};
    uint64_t pcs[GTR_MAX_FRAMES_PER_STACK];
    gtr__bytes r = {b->data, b->len, 1};   /* the EvStacks byte is consumed */
    while (r.off < r.len) {
        /* Read the header. */
        uint8_t ev = r.p[r.off++];
        if (ev != GTR_EV_STACK)
            /* Go: "expected stack event, got %d" */
            return gtr_err_setf(err, GTR_E_FORMAT, "expected stack event, got %d", ev);
        /* Read the stack's ID and how many frames are in it. */
        uint64_t id, nframes;
        gtr_status st = gtr__bytes_uvarint(&r, &id, err);
        if (st != GTR_OK)
            return st;
        st = gtr__bytes_uvarint(&r, &nframes, err);
        if (st != GTR_OK)
            return st;
        if (nframes > GTR_MAX_FRAMES_PER_STACK)
            /* Go: "invalid stack size %d, maximum is %d" */
            return gtr_err_setf(err, GTR_E_FORMAT, "invalid stack size %llu, maximum is %d",
                                (unsigned long long)nframes, GTR_MAX_FRAMES_PER_STACK);
        /* Each frame consists of 4 fields: pc, funcID (string), fileID (string), line. */
        for (uint64_t i = 0; i < nframes; i++) {
            uint64_t v[4];
            for (int k = 0; k < 4; k++) {
                st = gtr__bytes_uvarint(&r, &v[k], err);
                if (st == GTR_EOF)
                    err->code = GTR_E_FORMAT;   /* a wrapped io.EOF is an error */
                if (st != GTR_OK)
                    /* Go: "reading frame %d's PC for stack %d: %w" (and funcID, fileID,
                     * line) */
                    return gtr_err_wrapf(err, "reading frame %llu's %s for stack %llu",
                                         (unsigned long long)(i + 1), field[k],
                                         (unsigned long long)id);
            }
            pcs[i] = v[0];
            gtr__frame f = {v[0], v[1], v[2], v[3]};
            st = gtr__evt_add_frame(g->evt, &f, err);
            if (st != GTR_OK)
                return st;
        }
        /* Add the stack to the table. */
        st = gtr__evt_add_stack(g->evt, id, pcs, (size_t)nframes, err);
        if (st != GTR_OK)
            return st;
    }
    return GTR_OK;
}

/* add_cpu_samples is Go's addCPUSamples. */
static gtr_status add_cpu_samples(gtr__generation *g, const gtr__batch *b, gtr_err *err)
{
    gtr__bytes r = {b->data, b->len, 1};   /* the EvCPUSamples byte is consumed */
    while (r.off < r.len) {
        /* Read the header. */
        uint8_t ev = r.p[r.off++];
        if (ev != GTR_EV_CPU_SAMPLE)
            /* Go: "expected CPU sample event, got %d" */
            return gtr_err_setf(err, GTR_E_FORMAT, "expected CPU sample event, got %d", ev);
        /* Read the sample's timestamp, M, P, G and stack. */
        uint64_t v[5];
        for (int k = 0; k < 5; k++) {
            gtr_status st = gtr__bytes_uvarint(&r, &v[k], err);
            if (st != GTR_OK)
                return st;
        }
        if (!GTR__GROW(g->alc, g->cpu, g->cpu_cap, g->ncpu + 1))
            return nomem(err);
        gtr__cpu_sample *s = &g->cpu[g->ncpu++];
        s->time = (gtr_time)v[0];   /* N.B. this is really a timestamp until fix-up */
        s->m = (gtr_threadid)v[1];
        s->p = (gtr_procid)v[2];
        s->g = v[3] == 0 ? GTR_NO_GOROUTINE : (gtr_goid)v[3];
        s->stack = v[4];
    }
    return GTR_OK;
}

/* set_sync_batch is Go's setSyncBatch. */
static gtr_status set_sync_batch(gtr__generation *g, const gtr__batch *b, gtr_err *err)
{
    gtr__sync *s = gtr__evt_sync_mut(g->evt);
    gtr__bytes r = {b->data, b->len, 0};
    if (g->ver >= GTR_GO125)
        r.off = 1;   /* the EvSync byte */
    uint64_t last_ts = b->time;
    while (r.off < r.len) {
        /* Read the header. */
        uint8_t ev = r.p[r.off++];
        gtr_status st;
        if (ev == GTR_EV_FREQUENCY) {
            if (s->freq != 0)
                /* Go: "found multiple frequency events" */
                return gtr_err_setf(err, GTR_E_FORMAT, "found multiple frequency events");
            /* Read the frequency, in timestamp units per second. */
            uint64_t f;
            st = gtr__bytes_uvarint(&r, &f, err);
            if (st != GTR_OK)
                return st;
            /* Convert to nanoseconds per timestamp unit. */
            /* Go: frequency(1.0 / (float64(f) / 1e9)); a zero frequency gives +Inf in Go's
             * IEEE arithmetic. Spelled out so no float division by zero happens here
             * (UBSan's float-divide-by-zero flags it). */
            double units_per_ns = (double)f / 1e9;
            s->freq = units_per_ns == 0 ? INFINITY : 1.0 / units_per_ns;
        } else if (ev == GTR_EV_CLOCK_SNAPSHOT && g->ver >= GTR_GO125) {
            if (s->has_clock_snapshot)
                /* Go: "found multiple clock snapshot events" */
                return gtr_err_setf(err, GTR_E_FORMAT, "found multiple clock snapshot events");
            s->has_clock_snapshot = true;
            uint64_t tdiff, mono, sec, nsec;
            st = gtr__bytes_uvarint(&r, &tdiff, err);
            if (st != GTR_OK)
                return st;
            last_ts += tdiff;
            s->snap_time = last_ts;
            st = gtr__bytes_uvarint(&r, &mono, err);
            if (st != GTR_OK)
                return st;
            s->snap_mono = mono;
            st = gtr__bytes_uvarint(&r, &sec, err);
            if (st != GTR_OK)
                return st;
            st = gtr__bytes_uvarint(&r, &nsec, err);
            if (st != GTR_OK)
                return st;
            s->snap_wall_sec = sec;
            s->snap_wall_nsec = nsec;
        } else {
            /* Go: "expected frequency or clock snapshot event, got %d" */
            return gtr_err_setf(err, GTR_E_FORMAT,
                                "expected frequency or clock snapshot event, got %d", ev);
        }
    }
    return GTR_OK;
}

/* add_event_batch appends b to its M's list (Go's default case of processBatch). */
static gtr_status add_event_batch(gtr__generation *g, const gtr__batch *b, gtr_err *err)
{
    if (g->nbatches >= GTR__BATCH_NONE - 1 ||
        !GTR__GROW(g->alc, g->batches, g->batches_cap, g->nbatches + 1))
        return nomem(err);
    uint32_t bi = (uint32_t)g->nbatches;
    size_t mi;
    bool found;
    if (gtr__idmap_put_index(&g->mindex, g->alc, (uint64_t)b->m, g->nms, &mi, &found) != GTR_OK)
        return nomem(err);
    if (!found) {
        if (!GTR__GROW(g->alc, g->ms, g->ms_cap, g->nms + 1))
            return nomem(err);
        g->ms[mi].m = b->m;
        g->ms[mi].first = bi;
        g->nms++;
    } else {
        g->batches[g->ms[mi].last].next = bi;
    }
    g->ms[mi].last = bi;
    g->batches[bi] = *b;
    g->batches[bi].next = GTR__BATCH_NONE;
    g->nbatches++;
    return GTR_OK;
}

/* process_batch is Go's processBatch. The data of event and experimental batches must live
 * in the arena. */
static gtr_status process_batch(gtr__generation *g, const gtr__batch *b, gtr_err *err)
{
    if (gtr__batch_is_strings(b))
        return add_strings(g, b, err);
    if (gtr__batch_is_stacks(b))
        return add_stacks(g, b, err);
    if (gtr__batch_is_cpu_samples(b))
        return add_cpu_samples(g, b, err);
    if (gtr__batch_is_sync(b, g->ver))
        return set_sync_batch(g, b, err);
    if (b->exp != GTR_EXP_NONE)
        return gtr__evt_add_exp_batch(g->evt, b->exp, b->m, b->data, b->len, false, err);
    if (gtr__batch_is_end_of_generation(b))
        /* Go: "internal error: unexpectedly processing EndOfGeneration; broken trace?" */
        return gtr_err_setf(err, GTR_E_FORMAT,
                            "internal error: unexpectedly processing EndOfGeneration; broken "
                            "trace?");
    return add_event_batch(g, b, err);
}

static int cpu_sample_cmp(const void *a, const void *b)
{
    gtr_time x = ((const gtr__cpu_sample *)a)->time, y = ((const gtr__cpu_sample *)b)->time;
    return (x > y) - (x < y);
}

/* finish checks the generation's invariants and completes its tables (the common tail of
 * Go's readGeneration and readGenerationWithSpill). */
static gtr_status finish(gtr__generation *g, gtr_err *err)
{
    const gtr__sync *s = gtr__evt_sync(g->evt);
    if (s->freq == 0)
        /* Go: "no frequency event found" */
        return gtr_err_setf(err, GTR_E_FORMAT, "no frequency event found");
    if (g->ver >= GTR_GO125 && !s->has_clock_snapshot)
        /* Go: "no clock snapshot event found" */
        return gtr_err_setf(err, GTR_E_FORMAT, "no clock snapshot event found");

    /* N.B. Trust that the batch order is correct: timestamps may just be plain wrong, the
     * source of truth is the order in the trace and the sequence numbers. A wrong batch
     * order shows up as a failure to advance the frontier. */

    /* Compactify stacks and strings for faster lookups, then validate the stacks. */
    gtr_status st = gtr__evt_compactify(g->evt, err);
    if (st != GTR_OK)
        return st;
    st = gtr__evt_validate_stack_strings(g->evt, err);
    if (st != GTR_OK)
        return st;

    /* Now that we have the frequency, fix up the CPU samples and sort them (Go's
     * fixUpCPUSamples, with Go's unstable sort). */
    for (size_t i = 0; i < g->ncpu; i++)
        g->cpu[i].time = gtr__freq_mul(s->freq, (uint64_t)g->cpu[i].time);
    gtr_go_sort_func(g->cpu, g->ncpu, sizeof *g->cpu, cpu_sample_cmp);
    return GTR_OK;
}

gtr_status gtr__generation_read(gtr__generation *g, gtr_input *in, gtr_err *err)
{
    if (g->ver < GTR_GO126)
        /* Go: "internal error: readGeneration called for <1.26 trace" */
        return gtr_err_setf(err, GTR_E_USAGE,
                            "internal error: readGeneration called for <1.26 trace");
    generation_reset(g);
    /* The last generation's batches, read in place from a memory input, are done with. */
    gtr__input_release_before(in, gtr_input_offset(in));

    /* Read batches one at a time until we hit the end of the generation. */
    for (;;) {
        gtr__batch b;
        uint64_t gen;
        gtr_status st = gtr__batch_read(in, batch_dest, g, &b, &gen, err);
        if (st == GTR_EOF) {
            if (g->nms != 0)
                /* Go: "incomplete generation found; trace likely truncated" */
                return gtr_err_setf(err, GTR_E_FORMAT,
                                    "incomplete generation found; trace likely truncated");
            gtr_err_clear(err);
            return GTR_EOF;   /* all done */
        }
        if (st != GTR_OK)
            return st;
        if (g->gen == 0)
            g->gen = gen;
        if (gtr__batch_is_end_of_generation(&b))
            break;
        if (gen == 0)
            /* Go: "invalid generation number %d" (0 is a sentinel of the runtime) */
            return gtr_err_setf(err, GTR_E_FORMAT, "invalid generation number %llu",
                                (unsigned long long)gen);
        if (gen != g->gen)
            /* Go: "broken trace: missing end-of-generation event, or generations are
             * interleaved" */
            return gtr_err_setf(err, GTR_E_FORMAT,
                                "broken trace: missing end-of-generation event, or "
                                "generations are interleaved");
        if (g->min_ts == 0 || b.time < g->min_ts)
            g->min_ts = b.time;
        st = process_batch(g, &b, err);
        if (st != GTR_OK)
            return st;
    }
    return finish(g, err);
}

/* spill_batch keeps b, the first batch of the next generation, in the spill buffer. */
static gtr_status spill_batch(gtr__generation *g, const gtr__batch *b, uint64_t gen,
                              gtr_err *err)
{
    if (!GTR__GROW(g->alc, g->spill_buf, g->spill_cap, b->len))
        return nomem(err);
    g->spill = *b;
    if (b->len != 0)
        memcpy(g->spill_buf, b->data, b->len);
    g->spill.data = b->len != 0 ? g->spill_buf : NULL;
    g->spill_gen = gen;
    g->has_spill = true;
    return GTR_OK;
}

gtr_status gtr__generation_read_with_spill(gtr__generation *g, gtr_input *in, gtr_err *spill_err,
                                           gtr_err *err)
{
    gtr_err_clear(spill_err);
    if (g->ver >= GTR_GO126)
        /* Go: "internal error: readGenerationWithSpill called for Go 1.26+ trace" */
        return gtr_err_setf(err, GTR_E_USAGE,
                            "internal error: readGenerationWithSpill called for Go 1.26+ trace");
    generation_reset(g);
    /* The last generation's batches are done with (the spilled one is a copy). */
    gtr__input_release_before(in, gtr_input_offset(in));

    /* Process the spilled batch, which contains real data. */
    if (g->has_spill) {
        g->has_spill = false;
        gtr__batch b = g->spill;
        g->gen = g->spill_gen;
        g->min_ts = b.time;
        if (b.len != 0 && !gtr__batch_kind_is_structural(b.exp, b.data[0], g->ver)) {
            uint8_t *p = gtr__evt_alloc(g->evt, b.len);
            if (p == NULL)
                return nomem(err);
            memcpy(p, b.data, b.len);
            b.data = p;
        }
        gtr_status st = process_batch(g, &b, err);
        if (st != GTR_OK)
            return st;
    }

    /* Read batches one at a time until we hit the next generation. */
    for (;;) {
        gtr__batch b;
        uint64_t gen;
        gtr_status st = gtr__batch_read(in, batch_dest, g, &b, &gen, err);
        if (st == GTR_EOF) {
            gtr_err_clear(err);
            break;
        }
        if (st != GTR_OK) {
            if (g->gen != 0 && st != GTR_E_NOMEM) {
                /* This may be an error reading the first batch of the next generation:
                 * forge ahead with what we've got, and report the error after it. (Running
                 * out of memory is ours, not the trace's: it is never deferred.) */
                gtr_err_copy(spill_err, err);
                gtr_err_clear(err);
                break;
            }
            return st;
        }
        if (gen == 0)
            /* Go: "invalid generation number %d" (0 is a sentinel of the runtime) */
            return gtr_err_setf(err, GTR_E_FORMAT, "invalid generation number %llu",
                                (unsigned long long)gen);
        if (g->gen == 0)
            g->gen = gen;
        if (gen == g->gen + 1) {
            st = spill_batch(g, &b, gen, err);
            if (st != GTR_OK)
                return st;
            break;
        }
        if (gen != g->gen)
            /* Go: "generations out of order" (fail fast: batches mixed across generations
             * would make this one unparseable anyway) */
            return gtr_err_setf(err, GTR_E_FORMAT, "generations out of order");
        if (g->min_ts == 0 || b.time < g->min_ts)
            g->min_ts = b.time;
        st = process_batch(g, &b, err);
        if (st != GTR_OK)
            return st;
    }
    return finish(g, err);
}
