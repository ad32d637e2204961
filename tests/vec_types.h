/* SPDX-License-Identifier: BSD-3-Clause */
/* vec_types.h: the types of the generated event test vectors (event_vectors.h) and the
 * helpers that rebuild, in C, the table and events Go used to produce them. */
#ifndef GTR_TESTS_VEC_TYPES_H
#define GTR_TESTS_VEC_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base.h"

typedef struct vec_string {
    uint64_t id;
    const char *s;
    size_t len;
} vec_string;

typedef struct vec_frame {
    uint64_t pc, func, file, line;
} vec_frame;

typedef struct vec_stack {
    uint64_t id;
    size_t n;
    uint64_t pcs[4];
} vec_stack;

/* An event over table 0 (none), 1 (the base table) or 2 (the base table plus the clock
 * snapshot given here), and what Go says about it (String() or the validator's error). */
typedef struct vec_event {
    int table;
    uint8_t type;
    int64_t time, g, p, m;
    uint64_t args[4];
    uint64_t snap_time, mono, wall_sec, wall_nsec;
    double freq;
    const char *want;
} vec_event;

typedef struct vec_panic {
    const char *name;
    const char *msg;
} vec_panic;

typedef struct vec_enum {
    char what;
    int64_t n;
    const char *want;
} vec_enum;

/* A MakeEvent case: Go's String() of the made event, or Go's error. */
typedef struct vec_make {
    const char *name;
    bool is_error;
    const char *want;
} vec_make;

typedef struct vec_scenario {
    const char *name;
    int version;
    bool skip_clock_checks;
    const vec_event *evs;
    size_t n;
} vec_scenario;

#endif /* GTR_TESTS_VEC_TYPES_H */
