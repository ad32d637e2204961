/* SPDX-License-Identifier: BSD-3-Clause */
/* batch.h: a batch of trace events as framed on the wire (Go's batch.go): its header is
 * decoded, its data is not. Also the in-memory uvarint readers the table parsers use. */
#ifndef GTR_SRC_BATCH_H
#define GTR_SRC_BATCH_H

#include "base.h"
#include "gtr/input.h"

/* gtr__batch is Go's batch. data points into storage chosen by the reader (the
 * generation's arena or a scratch buffer). next links the batches of one M (generation.c);
 * GTR__BATCH_NONE ends the list. */
#define GTR__BATCH_NONE UINT32_MAX
typedef struct gtr__batch {
    gtr_threadid m;
    uint64_t time;         /* timestamp (unconverted) */
    const uint8_t *data;
    size_t len;
    uint8_t exp;           /* gtr_experiment; GTR_EXP_NONE for a plain batch */
    uint32_t next;
} gtr__batch;

/* Batch kinds (Go's batch.isStringsBatch, ...): decided by the experiment and the first
 * data byte. */
bool gtr__batch_is_strings(const gtr__batch *b);
bool gtr__batch_is_stacks(const gtr__batch *b);
bool gtr__batch_is_cpu_samples(const gtr__batch *b);
bool gtr__batch_is_sync(const gtr__batch *b, gtr_go_version v);
bool gtr__batch_is_end_of_generation(const gtr__batch *b);
/* gtr__batch_is_structural: one of strings, stacks, CPU samples, sync (the batches that are
 * parsed into the table rather than kept), judged from exp and the first data byte. */
bool gtr__batch_kind_is_structural(uint8_t exp, uint8_t first, gtr_go_version v);

/* gtr__batch_dest chooses where readBatch puts a batch's data once the first data byte is
 * known: it returns a buffer of at least size bytes. NULL means out of memory. */
typedef uint8_t *(*gtr__batch_dest)(void *ctx, uint8_t exp, uint8_t first, size_t size);

/* gtr__batch_read is Go's readBatch: it reads the next batch from in into *b and its
 * generation into *gen. GTR_EOF at a clean end of input (also, as in Go, when the input
 * ends right after an ExperimentalBatch byte). An EndOfGeneration byte gives a batch with
 * m = GTR_NO_THREAD and data = that byte. Errors carry Go's messages:
 * "expected batch event, got event %d", "error reading batch gen: %w", "error reading batch
 * M ID: %w", "error reading batch timestamp: %w", "error reading batch size: %w", "invalid
 * batch size %d, maximum is %d", "failed to read full batch: read %d but wanted %d". */
gtr_status gtr__batch_read(gtr_input *in, gtr__batch_dest dest, void *dest_ctx, gtr__batch *b,
                           uint64_t *gen, gtr_err *err);

/* An in-memory byte reader with Go's bytes.Reader + binary.ReadUvarint semantics. */
typedef struct gtr__bytes {
    const uint8_t *p;
    size_t len;
    size_t off;
} gtr__bytes;

/* gtr__bytes_uvarint: binary.ReadUvarint over r. No byte left is Go's bare io.EOF: GTR_EOF
 * with the text "EOF" (Go's reader passes it up unwrapped, and its callers see the end of
 * the trace). Errors (GTR_E_FORMAT): "unexpected EOF" (the varint is cut), "binary: varint
 * overflows a 64-bit integer". */
gtr_status gtr__bytes_uvarint(gtr__bytes *r, uint64_t *v, gtr_err *err);

/* gtr__uvarint is binary.Uvarint over p[0..n): the value and the byte count; the count is 0
 * when p ends inside the varint and negative on overflow. */
static inline int gtr__uvarint(const uint8_t *p, size_t n, uint64_t *v)
{
    if (n > 0 && p[0] < 0x80) { /* most values fit one byte */
        *v = p[0];
        return 1;
    }
    uint64_t x = 0;
    unsigned s = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t b = p[i];
        if (i == 10)
            return -(int)(i + 1);
        if (b < 0x80) {
            if (i == 9 && b > 1)
                return -(int)(i + 1);
            *v = x | (uint64_t)b << s;
            return (int)i + 1;
        }
        x |= (uint64_t)(b & 0x7f) << s;
        s += 7;
    }
    *v = 0;
    return 0;
}

/* GTR__UVARINT_MAX is the most bytes a uvarint takes (binary.MaxVarintLen64). */
#define GTR__UVARINT_MAX 10

/* gtr__uvarint_unchecked decodes a uvarint from p, which has at least GTR__UVARINT_MAX
 * readable bytes: the byte after it, or NULL when the varint overflows (gtr__uvarint then
 * gives the error). */
static inline const uint8_t *gtr__uvarint_unchecked(const uint8_t *p, uint64_t *v)
{
    uint64_t b = p[0];
    if (b < 0x80) {
        *v = b;
        return p + 1;
    }
    uint64_t x = b & 0x7f;
    for (unsigned i = 1; i < GTR__UVARINT_MAX; i++) {
        b = p[i];
        if (b < 0x80) {
            if (i == GTR__UVARINT_MAX - 1 && b > 1)
                return NULL;
            *v = x | b << (7 * i);
            return p + i + 1;
        }
        x |= (b & 0x7f) << (7 * i);
    }
    return NULL;
}

#endif /* GTR_SRC_BATCH_H */
