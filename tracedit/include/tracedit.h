/* SPDX-License-Identifier: BSD-3-Clause */
/* tracedit.h: the trace-editing model: a wire trace as generations of batches of events,
 * to edit and re-encode. The reducer (reduce/), the structure-aware mutator (fuzz/structure/)
 * and other tools build on it; it depends only on libtrace's spec table and buffers.
 *
 * tracedit_decode turns wire bytes into a header, a list of top-level batches (EventBatch,
 * ExperimentalBatch, and the one-byte EndOfGeneration marker of Go 1.26) and, inside each
 * batch, events decoded with the spec table of the trace's version (type, arguments, stack
 * frames, data trailer). It never rejects input: bytes it cannot decode are kept as opaque
 * tails (the rest of a batch body after its last decodable event; the rest of the input after
 * its last complete batch; the whole input when the header is not a v2 header), so
 * decode→encode reproduces the input except that varints become canonical. tracedit_encode
 * writes the model back, recomputing every batch size, string length and stack frame count.
 *
 * The model is a transparent value so the mutator and reducer can edit it. Events live in one
 * append-only array; batches hold indices into it, so moving or duplicating an event is an
 * index operation. Arguments live in one uint64 pool, data bytes and opaque tails in one byte
 * pool. Memory comes from libc (this is tooling, not libtrace). */
#ifndef GTR_TRACEDIT_H
#define GTR_TRACEDIT_H

#include "gtr/buf.h"
#include "gtr/spec.h"
#include "gtr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One event inside a batch. For a Stack the args are id, nframes, then 4 values per frame
 * (nframes is recomputed from nargs on encode). */
typedef struct tracedit_event {
    uint8_t type;        /* gtr_event_type */
    bool has_data;       /* spec has a data trailer */
    uint32_t nargs;
    size_t args;         /* offset into tracedit_trace.vals */
    size_t data;         /* offset into tracedit_trace.bytes */
    size_t data_len;
} tracedit_event;

/* One top-level batch. kind GTR_EV_END_OF_GENERATION has no header fields and no body. */
typedef struct tracedit_batch {
    uint8_t kind;        /* GTR_EV_EVENT_BATCH, GTR_EV_EXPERIMENTAL_BATCH, GTR_EV_END_OF_GENERATION */
    uint8_t exp;         /* experiment byte of an ExperimentalBatch */
    uint64_t gen, m, time;
    uint32_t *evs;       /* indices into tracedit_trace.events, in batch order */
    size_t nev, evs_cap;
    size_t tail, tail_len;   /* undecodable rest of the body, in tracedit_trace.bytes */
} tracedit_batch;

typedef struct tracedit_trace {
    bool has_header;     /* a v2 header was decoded; version is valid */
    uint64_t version;    /* gtr_go_version */
    tracedit_batch *batches;
    size_t nbatches, batches_cap;
    tracedit_event *events;
    size_t nevents, events_cap;
    uint64_t *vals;
    size_t nvals, vals_cap;
    uint8_t *bytes;
    size_t nbytes, bytes_cap;
    size_t tail, tail_len;   /* undecodable rest of the input, in bytes */
} tracedit_trace;

/* tracedit_trace_reset empties t, keeping its memory; tracedit_trace_free releases it. A
 * zero-initialised tracedit_trace is empty. */
void tracedit_trace_reset(tracedit_trace *t);
void tracedit_trace_free(tracedit_trace *t);

/* tracedit_decode decodes data[0..size) into t (which it resets first). Only fails with
 * GTR_E_NOMEM. */
gtr_status tracedit_decode(tracedit_trace *t, const uint8_t *data, size_t size, gtr_err *err);

/* tracedit_encode appends the wire form of t to out. Only fails with GTR_E_NOMEM. */
gtr_status tracedit_encode(const tracedit_trace *t, gtr_buf *out, gtr_err *err);

/* tracedit_copy makes dst an independent copy of src (dst is reset first). */
gtr_status tracedit_copy(tracedit_trace *dst, const tracedit_trace *src, gtr_err *err);

/* Editing helpers. All return GTR_OK or GTR_E_NOMEM (indices are the caller's to check). */
/* tracedit_add_event appends a detached event (not in any batch) and stores its index. args
 * and data are copied (they may point into t's own pools). */
gtr_status tracedit_add_event(tracedit_trace *t, uint8_t type, const uint64_t *args, uint32_t nargs,
                            bool has_data, const uint8_t *data, size_t data_len, uint32_t *idx);
/* tracedit_add_bytes appends a copy of data[0..n) to the byte pool and stores its offset. */
gtr_status tracedit_add_bytes(tracedit_trace *t, const uint8_t *data, size_t n, size_t *off);
/* tracedit_dup_event appends a copy of event ev (args and data copied) and stores its index. */
gtr_status tracedit_dup_event(tracedit_trace *t, uint32_t ev, uint32_t *idx);
/* tracedit_batch_insert inserts event index ev at position pos (<= nev) of batch b. */
gtr_status tracedit_batch_insert(tracedit_trace *t, size_t b, size_t pos, uint32_t ev);
/* tracedit_batch_remove removes the event at position pos of batch b (the event stays in the
 * events array, unreferenced). */
void tracedit_batch_remove(tracedit_trace *t, size_t b, size_t pos);
/* tracedit_insert_batch inserts a new empty batch at position pos (<= nbatches), with the
 * header fields of tmpl (its events and tail are not copied). */
gtr_status tracedit_insert_batch(tracedit_trace *t, size_t pos, const tracedit_batch *tmpl);
/* tracedit_remove_batch removes batch pos. */
void tracedit_remove_batch(tracedit_trace *t, size_t pos);
/* tracedit_set_args replaces the arguments of event ev with a copy of args[0..nargs). */
gtr_status tracedit_set_args(tracedit_trace *t, uint32_t ev, const uint64_t *args, uint32_t nargs);

/* tracedit_event_args returns a pointer to event ev's arguments (valid until the next edit). */
static inline uint64_t *tracedit_event_args(const tracedit_trace *t, uint32_t ev)
{
    return t->vals + t->events[ev].args;
}

/* tracedit_batch_body_size returns the encoded size of batch b's body (its `size` field). */
size_t tracedit_batch_body_size(const tracedit_trace *t, size_t b);

/* tracedit_uvarint_len: bytes of the LEB128 encoding of v. */
static inline size_t tracedit_uvarint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

#ifdef __cplusplus
}
#endif
#endif /* GTR_TRACEDIT_H */
