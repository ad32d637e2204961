/* SPDX-License-Identifier: BSD-3-Clause */
/* sim.h: gsim, a model of the Go scheduler (Ms, Ps and Gs) as the runtime traces it, that
 * writes legal Go execution traces (v2 format, go1.22, go1.23, go1.25, go1.26) and knows every
 * event it wrote.
 *
 * Every decision the model takes (which M acts, which goroutine starts, how deep a stack
 * is, ...) is drawn from a choice source: a seeded generator (the CLI), or a byte string (the
 * fuzz target; bytes past the end read as 0). The model only ever chooses among legal
 * moves, so every choice string gives a trace that Go's reader reads to EOF and Go's
 * validator accepts.
 *
 *     gsim_config c;
 *     gsim_seed_state st;
 *     gsim_config_default(&c);
 *     gsim *s;
 *     if (gsim_new(&c, gsim_choice_seed(&st, 42), NULL, &s, &err) == GTR_OK) {
 *         gsim_run(s, gtr_sink_file(stdout), NULL, NULL, &err);
 *         gsim_free(s);
 *     }
 *
 * Streaming: the trace is written generation by generation and each thread's batch is
 * flushed when it reaches half of MaxBatchSize, so memory does not grow with the number of
 * events: the model's state is bounded by the number of procs, threads and goroutines
 * (GSIM_MAX_GOROUTINES live at once) and by the fixed string and stack vocabularies.
 *
 * The record: for every event Go's reader will return (derived events and Sync events
 * included) the model calls the record callback with what the reader must say: kind, time
 * (after Go's fix-ups), goroutine/proc/thread context, and for state transitions the resource
 * and its old and new states. gsim_check runs the model and compares the reader's events
 * with the record, validating every event on the way.
 *
 * Ownership: a gsim owns its state (gsim_free); the choice source's state is the caller's
 * and must outlive the gsim. Not thread-safe; no globals. */
#ifndef GSIM_SIM_H
#define GSIM_SIM_H

#include "gtr/buf.h"
#include "gtr/event.h"
#include "gtr/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- choice sources ---- */

/* A choice source: next returns a value in [0, n) (n >= 1). */
typedef struct gsim_choice {
    uint64_t (*next)(void *ctx, uint64_t n);
    void *ctx;
} gsim_choice;

/* The seeded source (splitmix64): the same seed gives the same choices. */
typedef struct gsim_seed_state {
    uint64_t s;
} gsim_seed_state;
gsim_choice gsim_choice_seed(gsim_seed_state *st, uint64_t seed);

/* The byte-string source: each choice takes the bytes it needs (1 for n <= 256, 2 for
 * n <= 65536, ...) little-endian, reduced modulo n; past the end every byte is 0.
 * data is borrowed and must outlive the source. */
typedef struct gsim_bytes_state {
    const uint8_t *data;
    size_t len, pos;
} gsim_bytes_state;
gsim_choice gsim_choice_bytes(gsim_bytes_state *st, const uint8_t *data, size_t len);

/* ---- configuration ---- */

#define GSIM_MAX_PROCS 256
#define GSIM_MAX_GOROUTINES 256      /* live at once */
#define GSIM_MAX_GEN_EVENTS (UINT64_C(1) << 20)   /* events per generation at most */

typedef struct gsim_config {
    gtr_go_version version;   /* GTR_GO122, GTR_GO123, GTR_GO125 or GTR_GO126 */
    uint64_t events;          /* events in the threads' batches, exactly (statuses included;
                               * CPU samples, string and stack tables not): more only when
                               * the generations' statuses alone need more */
    uint64_t gens;            /* generations (more if events/gens > GSIM_MAX_GEN_EVENTS) */
    unsigned procs;           /* GOMAXPROCS at the start, 1..GSIM_MAX_PROCS */
    bool text;                /* write the text format instead of the wire format */
} gsim_config;

/* gsim_config_default: go1.26, 1000 events, 3 generations, 4 procs, wire format. */
void gsim_config_default(gsim_config *c);

/* gsim_config_choose draws a configuration from ch (the fuzz target's first choices): any
 * version, 1..8 procs (now and then up to 64), 1..4 generations, 0..max_events events
 * spread over octaves (as many traces of 1-2 events as of 511-1000: mostly short ones, which
 * a fuzzer runs many times faster). */
void gsim_config_choose(gsim_config *c, gsim_choice ch, uint64_t max_events);

/* ---- the record ---- */

typedef struct gsim_record {
    uint8_t kind;        /* gtr_event_kind */
    uint8_t type;        /* the wire event type, or GTR_EV_SYNC_EVENT */
    gtr_time time;       /* Event.Time() */
    gtr_goid g;          /* Event.Goroutine() */
    gtr_procid p;        /* Event.Proc() */
    gtr_threadid m;      /* Event.Thread() */
    /* State transitions only: */
    uint8_t res_kind;    /* gtr_resource_kind */
    int64_t res_id;
    uint8_t from, to;    /* gtr_go_state or gtr_proc_state */
    /* Sync only: the generation's AllocFree experimental batches (go1.23+). */
    uint32_t exp_batches;
} gsim_record;

typedef void (*gsim_record_fn)(void *ctx, const gsim_record *r);

/* ---- the model ---- */

typedef struct gsim gsim;   /* opaque */

/* gsim_new checks c (GTR_E_USAGE with the reason) and creates a model drawing from ch.
 * alc NULL: libc. */
gtr_status gsim_new(const gsim_config *c, gsim_choice ch, const gtr_alloc *alc, gsim **out,
                    gtr_err *err);
void gsim_free(gsim *s);   /* NULL: no-op */

/* gsim_run writes the whole trace to sink (header first), calling rec (if not NULL) for
 * every event the reader will return, in order. Once per gsim. */
gtr_status gsim_run(gsim *s, gtr_sink sink, gsim_record_fn rec, void *rec_ctx, gtr_err *err);

/* What gsim_run wrote. */
typedef struct gsim_stats {
    uint64_t events;        /* wire events in M batches */
    uint64_t gens;
    uint64_t bytes;
    uint64_t records;       /* events the reader returns (Syncs included) */
    uint64_t goroutines;    /* goroutines that ever existed */
    uint64_t max_stack;     /* deepest stack written */
} gsim_stats;
void gsim_get_stats(const gsim *s, gsim_stats *out);

/* gsim_generate runs a model of c over ch (gsim_new, then gsim_run) and appends the whole
 * trace to out. max_bytes caps what the run may append (0: no cap): past it the run stops
 * with GTR_E_LIMIT ("gsim: trace exceeds N bytes"). On failure out is left as it was (its
 * length restored). stats (may be NULL) receives the model's figures. For callers that want
 * a small model trace in memory, such as the structure-aware mutator's splice operator. */
gtr_status gsim_generate(const gsim_config *c, gsim_choice ch, const gtr_alloc *alc,
                         size_t max_bytes, gtr_buf *out, gsim_stats *stats, gtr_err *err);

/* gsim_check runs a model of c over ch into memory, reads the trace back with libtrace's
 * reader, validates every event and compares each with the record. GTR_OK when the reader
 * reaches EOF, the validator accepts every event and the events equal the record; otherwise
 * an error whose message says which event differs and how (GTR_E_INVALID), or the reader's
 * or validator's error wrapped with "event N". max_bytes caps the trace held in memory
 * (0: 256 MiB). stats (may be NULL) receives the model's figures. */
gtr_status gsim_check(const gsim_config *c, gsim_choice ch, const gtr_alloc *alc,
                      size_t max_bytes, gsim_stats *stats, gtr_err *err);

#ifdef __cplusplus
}
#endif
#endif /* GSIM_SIM_H */
