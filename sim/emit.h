/* SPDX-License-Identifier: BSD-3-Clause */
/* emit.h (private): the model's trace writer. It lays out each generation as the runtime
 * does (and as testgen writes it): for go1.25+ a sync batch first (Sync, Frequency,
 * ClockSnapshot), then the per-M event batches (each flushed once it holds half of
 * MaxBatchSize, so memory stays bounded), then for older versions a lone Frequency batch,
 * the CPU samples batch, the Stacks and Strings batches, and for go1.26 EndOfGeneration.
 * Events go out through libtrace's raw writers (wire or text); sizes are
 * gtr_raw_event_encoded_size. Strings and stacks come from fixed vocabularies
 * (emit_vocab_string, emit_stack_frame), interned per generation. */
#ifndef GSIM_EMIT_H
#define GSIM_EMIT_H

#include "gsim/sim.h"

/* The string vocabulary: index 0 is "" (string ID 0); the categories below. */
enum {
    VOC_NONE = 0,
    VOC_STOP = 1,   VOC_NSTOP = 4,      /* GoStop reasons */
    VOC_BLOCK = 5,  VOC_NBLOCK = 10,    /* GoBlock reasons */
    VOC_STW = 15,   VOC_NSTW = 6,       /* STW kinds */
    VOC_TASK = 21,  VOC_NTASK = 6,      /* task types */
    VOC_REGION = 27, VOC_NREGION = 6,   /* region types */
    VOC_KEY = 33,   VOC_NKEY = 4,       /* log categories */
    VOC_VALUE = 37, VOC_NVALUE = 11,    /* log messages (the last 5 long: VOC_LONG_LENS) */
    VOC_LABEL = 48, VOC_NLABEL = 4,     /* goroutine labels */
    VOC_FUNC = 52,  VOC_NFUNC = 48,     /* frame functions */
    VOC_FILE = 100, VOC_NFILE = 12,     /* frame files */
    VOC_COUNT = 112
};

/* The long log messages: lengths at the boundaries of a varint length prefix (one byte up
 * to 127, two from 128) and of a byte (255/256). */
#define VOC_NLONG 5
#define VOC_LONG_LENS {127, 128, 129, 255, 256}
#define VOC_MAX_LEN 256

/* Stack shapes: depth 0..GTR_MAX_FRAMES_PER_STACK times EMIT_STACK_VARIANTS. */
#define EMIT_STACK_VARIANTS 2
#define EMIT_NSHAPES ((GTR_MAX_FRAMES_PER_STACK + 1) * EMIT_STACK_VARIANTS)

typedef struct emitter emitter;

gtr_status emit_new(const gtr_alloc *alc, gtr_go_version v, bool text, gtr_sink sink,
                    size_t nms, uint64_t freq, emitter **out, gtr_err *err);
void emit_free(emitter *e);
/* emit_ns: the reader's Time for timestamp ts (Go's frequency.mul). */
gtr_time emit_ns(const emitter *e, uint64_t ts);
/* emit_gen_begin starts generation gen whose batches all start at t0 (> 0); writes the sync
 * batch for go1.25+ (ClockSnapshot at t0+1, wall time wall_sec). */
gtr_status emit_gen_begin(emitter *e, uint64_t gen, uint64_t t0, int64_t wall_sec);
/* emit_exp_batch writes an ExperimentalBatch of the AllocFree experiment for thread m
 * (go1.23+) holding data[0..len). */
gtr_status emit_exp_batch(emitter *e, uint64_t m, const uint8_t *data, size_t len);
/* emit_event appends a timed event (args after dt) at time ts to thread mi's batch. */
gtr_status emit_event(emitter *e, size_t mi, uint8_t type, uint64_t ts, const uint64_t *args,
                      size_t nargs);
/* emit_string / emit_stack intern a vocabulary string or a stack shape in the current
 * generation and return its ID (0 for "" and for depth 0). */
uint64_t emit_string(emitter *e, unsigned voc);
uint64_t emit_stack(emitter *e, unsigned shape);
unsigned emit_shape_depth(unsigned shape);
/* emit_sample adds a CPU sample (written in the generation's CPU samples batch). */
gtr_status emit_sample(emitter *e, uint64_t ts, uint64_t m, uint64_t p, uint64_t g,
                       uint64_t stack);
bool emit_samples_full(const emitter *e);   /* EMIT_MAX_SAMPLES this generation */
/* emit_gen_end writes the rest of the generation. */
gtr_status emit_gen_end(emitter *e);
/* emit_finish flushes the writer. */
gtr_status emit_finish(emitter *e);
uint64_t emit_bytes(const emitter *e);

#define EMIT_MAX_SAMPLES 1024   /* CPU samples per generation */

#endif /* GSIM_EMIT_H */
