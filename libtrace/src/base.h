/* SPDX-License-Identifier: BSD-3-Clause */
/* base.h: internal types shared by the high-level reader's parts (Go's base.go): the base
 * event, the schedule context, and the per-generation event table (strings, stacks, PCs,
 * extra strings, sync data, experimental batches). base.c implements the table. */
#ifndef GTR_SRC_BASE_H
#define GTR_SRC_BASE_H

#include "gtr/alloc.h"
#include "gtr/event.h"

/* A frame as stored in the table (Go's frame): strings are IDs into the table. */
typedef struct gtr__frame {
    uint64_t pc;
    uint64_t func_id;
    uint64_t file_id;
    uint64_t line;
} gtr__frame;

/* Go's `sync` struct embedded in evTable. */
typedef struct gtr__sync {
    double freq;                 /* frequency: ns per timestamp unit */
    bool has_clock_snapshot;
    uint64_t snap_time;          /* timestamp (trace clock units) */
    uint64_t snap_mono;
    uint64_t snap_wall_sec;      /* Unix seconds */
    uint64_t snap_wall_nsec;
} gtr__sync;

/* One experimental batch (trace.ExperimentalBatch). data is owned by the table. */
typedef struct gtr__exp_batch {
    gtr_threadid thread;
    const uint8_t *data;
    size_t len;
} gtr__exp_batch;

typedef struct gtr__ev_table gtr__ev_table;

/* Go's baseEvent: the unprocessed event. args excludes dt; slots past the spec's args are
 * "extra" space the ordering uses to smuggle data (Go's baseEvent.extra). */
typedef struct gtr__base_event {
    uint8_t type;
    gtr_time time;
    uint64_t args[GTR_MAX_TIMED_EVENT_ARGS - 1];
} gtr__base_event;

/* Table lookups. Every ID lookup returns false when the ID is not present; ID 0 is always
 * present and means "" / the empty stack (Go's dataTable.get). */
bool gtr__evt_string(const gtr__ev_table *t, uint64_t id, gtr_str *out);
bool gtr__evt_stack(const gtr__ev_table *t, uint64_t id, const uint64_t **pcs, size_t *npcs);
bool gtr__evt_frame(const gtr__ev_table *t, uint64_t pc, gtr__frame *out);
/* Extra strings (Go's addExtraString/getExtraString): "" is ID 0; others are interned. */
gtr_status gtr__evt_add_extra_string(gtr__ev_table *t, const char *s, size_t len,
                                     uint64_t *id, gtr_err *err);
gtr_str gtr__evt_extra_string(const gtr__ev_table *t, uint64_t id);
/* The sync data of the generation, and its experimental batches for experiment exp
 * (GTR_EXP_ALLOC_FREE, ...). */
const gtr__sync *gtr__evt_sync(const gtr__ev_table *t);
size_t gtr__evt_exp_batches(const gtr__ev_table *t, unsigned exp, const gtr__exp_batch **out);

/* Go's frequency.mul: Time(float64(t) * float64(f)), with Go's amd64 conversion of an
 * out-of-range float (INT64_MIN) instead of C's undefined behaviour. */
gtr_time gtr__freq_mul(double freq, uint64_t ts);

/* Helpers over the event layout (Go's Event{table, ctx, base}). */
static inline gtr_event gtr__make_event(const gtr__ev_table *t, gtr_goid g, gtr_procid p,
                                        gtr_threadid m, uint8_t type, gtr_time time)
{
    gtr_event e = {t, g, p, m, type, time, {0, 0, 0, 0}};
    return e;
}

#endif /* GTR_SRC_BASE_H */
