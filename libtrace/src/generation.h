/* SPDX-License-Identifier: BSD-3-Clause */
/* generation.h: one trace generation, buffered and decoded (Go's generation.go): its event
 * batches grouped by M, its tables (strings, stacks, PC frames, sync data, experimental
 * batches) and its CPU samples.
 *
 * A generation object is reused: each read empties it first (keeping its memory), which ends
 * the lifetime of everything the previous generation handed out. */
#ifndef GTR_SRC_GENERATION_H
#define GTR_SRC_GENERATION_H

#include "batch.h"
#include "idmap.h"

/* Go's cpuSample: time is a timestamp until the generation is complete, then a Time. */
typedef struct gtr__cpu_sample {
    gtr_goid g;
    gtr_procid p;
    gtr_threadid m;
    gtr_time time;
    uint64_t stack;
} gtr__cpu_sample;

/* The event batches of one M: a list through gtr__batch.next. */
typedef struct gtr__mbatches {
    gtr_threadid m;
    uint32_t first, last;
} gtr__mbatches;

typedef struct gtr__generation {
    const gtr_alloc *alc;
    gtr_go_version ver;
    uint64_t gen;
    gtr__ev_table *evt;
    uint64_t min_ts;

    /* Event batches in the order read; the batches of one M are linked through next. */
    gtr__batch *batches;
    size_t nbatches, batches_cap;
    /* Go's batchMs: the Ms in order of first appearance, with their first and last batch. */
    gtr__mbatches *ms;
    size_t nms, ms_cap;
    gtr__idmap mindex;      /* M -> index into ms */

    gtr__cpu_sample *cpu;   /* sorted by time once the generation is complete */
    size_t ncpu, cpu_cap;

    uint8_t *scratch;       /* table batches are parsed here; grown on demand up to */
    size_t scratch_cap;     /* GTR_MAX_BATCH_SIZE (the largest batch seen so far) */

    /* Spill state (traces before Go 1.26): the first batch of the next generation. */
    bool has_spill;
    uint64_t spill_gen;
    gtr__batch spill;
    uint8_t *spill_buf;     /* grown to the largest spilled batch (at most MaxBatchSize) */
    size_t spill_cap;
} gtr__generation;

gtr_status gtr__generation_new(const gtr_alloc *alc, gtr_go_version ver, gtr__generation **out,
                               gtr_err *err);
void gtr__generation_free(gtr__generation *g);

/* gtr__generation_read is Go's readGeneration (Go 1.26+ traces): it reads batches up to
 * the next EndOfGeneration. GTR_OK: g holds the generation. GTR_EOF: the trace ended
 * cleanly, there is no further generation. Errors: Go's messages, among them "incomplete
 * generation found; trace likely truncated", "invalid generation number %d", "broken trace:
 * missing end-of-generation event, or generations are interleaved", "no frequency event
 * found", "no clock snapshot event found". */
gtr_status gtr__generation_read(gtr__generation *g, gtr_input *in, gtr_err *err);

/* gtr__generation_read_with_spill is Go's readGenerationWithSpill (traces before Go 1.26):
 * it starts from the spilled batch (g->has_spill) and reads until the first batch of the
 * next generation, which it spills. GTR_OK: g holds the generation; if reading the next
 * batch failed after the generation had begun, that error is in *spill_err (code < 0) and is
 * to be reported after the generation (Go's deferred spill error); else spill_err->code is
 * GTR_OK. A negative status: there is no generation; the error is in err. */
gtr_status gtr__generation_read_with_spill(gtr__generation *g, gtr_input *in, gtr_err *spill_err,
                                           gtr_err *err);

#endif /* GTR_SRC_GENERATION_H */
