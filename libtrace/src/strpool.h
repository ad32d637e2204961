/* SPDX-License-Identifier: BSD-3-Clause */
/* strpool.h: a pool of interned strings (strpool.c): each distinct text is copied once, and
 * equal texts intern to the same pointer, so that names kept across generations (the
 * validator's range names and task types, the ordering's region and task names) own their
 * bytes, compare by pointer, and cost no allocation once seen. */
#ifndef GTR_SRC_STRPOOL_H
#define GTR_SRC_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "gtr/alloc.h"

typedef struct gtr__strpool_slot {
    uint64_t hash;
    size_t len;
    char *s;   /* NULL: an empty slot */
} gtr__strpool_slot;

/* Zero-initialised: an empty pool. */
typedef struct gtr__strpool {
    gtr__strpool_slot *slots;   /* cap slots, a power of two (0: none yet) */
    size_t cap, len;
} gtr__strpool;

/* gtr__strpool_intern returns the pool's copy of s[0..len) (NUL-terminated, stable until the
 * pool is freed), copying it on its first use; NULL when memory runs out (the pool is as it
 * was). */
const char *gtr__strpool_intern(gtr__strpool *p, const gtr_alloc *a, const char *s,
                                size_t len);
/* gtr__strpool_find returns the pool's copy of s[0..len), or NULL when it was never
 * interned. */
const char *gtr__strpool_find(const gtr__strpool *p, const char *s, size_t len);
void gtr__strpool_free(gtr__strpool *p, const gtr_alloc *a);

#endif /* GTR_SRC_STRPOOL_H */
