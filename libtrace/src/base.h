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
/* gtr__evt_has_stack, gtr__evt_has_string: whether a stack or string ID is present (the
 * lookups above without their results), for checks on every event. */
bool gtr__evt_has_stack(const gtr__ev_table *t, uint64_t id);
bool gtr__evt_has_string(const gtr__ev_table *t, uint64_t id);
/* gtr__evt_id_index is the dense part of a table's stack and string ID lookups, for checks
 * made on every event: an ID below nstacks with stacks[id] != 0 is a stack of the table
 * (likewise strings); one it does not show may still be (gtr__evt_has_stack and
 * gtr__evt_has_string tell). gtr__evt_id_index_of's answer is good until the table's
 * strings or stacks change. */
typedef struct gtr__evt_id_index {
    const uint32_t *stacks, *strings;
    size_t nstacks, nstrings;
    const gtr_str *str_vals; /* str_vals[strings[id] - 1]: string id's text */
} gtr__evt_id_index;
gtr__evt_id_index gtr__evt_id_index_of(const gtr__ev_table *t);
/* gtr__evt_string_in is gtr__evt_string(t, id, out) with the common case, an ID in x (t's
 * index), answered inline. */
static inline bool gtr__evt_string_in(const gtr__ev_table *t, const gtr__evt_id_index *x,
                                      uint64_t id, gtr_str *out)
{
    if (id < x->nstrings && x->strings[id] != 0) {
        *out = x->str_vals[x->strings[id] - 1];
        return true;
    }
    return gtr__evt_string(t, id, out);
}

/* gtr__table_ids_bad is the test of Go's Event.validateTableIDs for an event of type t (not
 * a Sync) with arguments args (after dt) and table tab: each stack ID, then each string ID
 * the spec names, must be 0 or in the table (strings of stack frames were validated as the
 * stacks were read). true, with *stack and *id, for the first one that is not. */
static inline bool gtr__table_ids_bad(const gtr__ev_table *tab, uint8_t t, const uint64_t *args,
                                      bool *stack, uint64_t *id)
{
    const gtr_event_spec *spec = gtr_spec(t);
    for (unsigned k = 0; k < spec->nstack_ids + spec->nstring_ids; k++) {
        bool is_stack = k < spec->nstack_ids;
        uint64_t v = args[(is_stack ? spec->stack_ids[k]
                                    : spec->string_ids[k - spec->nstack_ids]) - 1];
        if (v != 0 && (tab == NULL || !(is_stack ? gtr__evt_has_stack(tab, v)
                                                 : gtr__evt_has_string(tab, v)))) {
            *stack = is_stack;
            *id = v;
            return true;
        }
    }
    return false;
}
/* gtr__event_validate_table_ids is Go's Event.validateTableIDs: GTR_OK, or GTR_E_FORMAT with
 * "found invalid stack ID %d for event %s" or "found invalid string ID %d for event %s" for
 * the first ID gtr__table_ids_bad finds. */
gtr_status gtr__event_validate_table_ids(const gtr_event *ev, gtr_err *err);
/* Extra strings (Go's addExtraString/getExtraString): "" is ID 0; others are interned. */
gtr_status gtr__evt_add_extra_string(gtr__ev_table *t, const char *s, size_t len,
                                     uint64_t *id, gtr_err *err);
gtr_str gtr__evt_extra_string(const gtr__ev_table *t, uint64_t id);
/* gtr__evt_extra_of_string is gtr__evt_add_extra_string of the text of string_id (present in
 * t), remembered per string until the table changes: the same ID, in the same order of
 * first additions, for a lookup. */
gtr_status gtr__evt_extra_of_string(gtr__ev_table *t, uint64_t string_id, uint64_t *id,
                                    gtr_err *err);
/* The sync data of the generation, and its experimental batches for experiment exp
 * (GTR_EXP_ALLOC_FREE, ...). */
const gtr__sync *gtr__evt_sync(const gtr__ev_table *t);
size_t gtr__evt_exp_batches(const gtr__ev_table *t, unsigned exp, const gtr__exp_batch **out);

/* gtr__f64_to_i64 is Go's conversion of a float64 to int64 on amd64: x truncated, and
 * INT64_MIN when x is out of range or NaN (where C's conversion is undefined). */
static inline int64_t gtr__f64_to_i64(double x)
{
    if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
        return INT64_MIN;
    return (int64_t)x;
}

/* Go's frequency.mul: Time(float64(t) * float64(f)), with Go's amd64 conversion of an
 * out-of-range float (gtr__f64_to_i64). */
gtr_time gtr__freq_mul(double freq, uint64_t ts);
/* gtr__freq_mul_inline is the same, inlined for the event decoding loop. */
static inline gtr_time gtr__freq_mul_inline(double freq, uint64_t ts)
{
    return (gtr_time)gtr__f64_to_i64((double)ts * freq);
}

/* --- Building a table (base.c; used by generation.c and by other components' tests). ---
 * A table owns everything it holds (strings, stacks, frames, extra strings, experimental
 * batch data) in one arena. gtr__evt_reset empties it for the next generation but keeps its
 * memory, so a reader's footprint is that of its largest generation. */
gtr_status gtr__evt_new(const gtr_alloc *alc, gtr__ev_table **out, gtr_err *err);
void gtr__evt_free(gtr__ev_table *t);
void gtr__evt_reset(gtr__ev_table *t);
/* gtr__evt_alloc returns n bytes (aligned to 8) from the table's arena, valid until the
 * table is reset or freed; NULL when out of memory. n must be at most GTR__EVT_ALLOC_MAX. */
#define GTR__EVT_ALLOC_MAX GTR_MAX_BATCH_SIZE
void *gtr__evt_alloc(gtr__ev_table *t, size_t n);
/* gtr__evt_add_string copies s[0..len) as string id (Go's dataTable.insert). An ID already
 * present (ID 0 always is) fails with Go's message "multiple strings with the same ID:
 * id=%d, new=%v, existing=%v" (GTR_E_FORMAT). */
gtr_status gtr__evt_add_string(gtr__ev_table *t, uint64_t id, const char *s, size_t len,
                               gtr_err *err);
/* gtr__evt_add_string_borrowed is gtr__evt_add_string without the copy: s[0..len] (NUL at
 * s[len]) must stay valid as long as the table (the v1 converter's string block). */
gtr_status gtr__evt_add_string_borrowed(gtr__ev_table *t, uint64_t id, const char *s,
                                        size_t len, gtr_err *err);
/* gtr__evt_add_stack copies pcs[0..n) as stack id; duplicates fail with "multiple
 * trace.stacks with the same ID: id=%d, new=%v, existing=%v", each %v a "\t%#v\n" per pc. */
gtr_status gtr__evt_add_stack(gtr__ev_table *t, uint64_t id, const uint64_t *pcs, size_t n,
                              gtr_err *err);
/* gtr__evt_add_frame records f for f->pc unless that PC already has a frame (the first
 * definition wins, as in Go's addStacks). */
gtr_status gtr__evt_add_frame(gtr__ev_table *t, const gtr__frame *f, gtr_err *err);
/* gtr__evt_set_sync replaces the table's sync data; gtr__evt_sync_mut gives write access. */
void gtr__evt_set_sync(gtr__ev_table *t, const gtr__sync *s);
gtr__sync *gtr__evt_sync_mut(gtr__ev_table *t);
/* gtr__evt_add_exp_batch appends an experimental batch for experiment exp (1..255). With
 * copy the data is copied into the table's arena (len at most GTR__EVT_ALLOC_MAX); without,
 * the caller keeps data alive as long as the table (the reader passes arena data). */
gtr_status gtr__evt_add_exp_batch(gtr__ev_table *t, unsigned exp, gtr_threadid thread,
                                  const uint8_t *data, size_t len, bool copy, gtr_err *err);
/* gtr__evt_compactify picks the lookup representation of the string and stack tables once
 * all are inserted (Go's compactify: dense arrays when IDs are small and dense). Lookups
 * are correct before and after. */
gtr_status gtr__evt_compactify(gtr__ev_table *t, gtr_err *err);
/* gtr__evt_validate_stack_strings is Go's validateStackStrings: every PC of every stack has
 * a frame whose func and file string IDs exist. Messages: "found unknown pc %x for stack
 * %d", "found invalid func string ID %d for stack %d", "found invalid file string ID %d for
 * stack %d" (GTR_E_FORMAT). */
gtr_status gtr__evt_validate_stack_strings(const gtr__ev_table *t, gtr_err *err);
/* gtr__evt_serial names the table's contents: it changes whenever a string, stack or frame
 * is added and when the table is reset, and no other table (in the process) ever has the
 * same one. A cache of text made from a table's stacks is valid while the serial is. */
uint64_t gtr__evt_serial(const gtr__ev_table *t);
/* Counts, for tests and statistics. */
size_t gtr__evt_nstrings(const gtr__ev_table *t);
size_t gtr__evt_nstacks(const gtr__ev_table *t);



/* Helpers over the event layout (Go's Event{table, ctx, base}). */
static inline gtr_event gtr__make_event(const gtr__ev_table *t, gtr_goid g, gtr_procid p,
                                        gtr_threadid m, uint8_t type, gtr_time time)
{
    gtr_event e = {t, g, p, m, type, time, {0, 0, 0, 0}};
    return e;
}

/* Go's tracev2GoStatus2GoState and tracev2ProcStatus2ProcState (order.go; order.c): the
 * state a status event puts its goroutine or proc in (the Bad status: Undetermined). The
 * ordering and Event.StateTransition share them. */
extern const uint8_t gtr__gostatus2state[5];
extern const uint8_t gtr__procstatus2state[5];

#endif /* GTR_SRC_BASE_H */
