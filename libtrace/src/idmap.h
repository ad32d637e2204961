/* SPDX-License-Identifier: BSD-3-Clause */
/* idmap.h: libtrace's one map from a trace ID (goroutine, proc, thread, task, stack, string,
 * PC, ...) to a value.
 *
 * gtr__idmap maps any uint64 key (0 and UINT64_MAX included; int64 IDs such as -1 are their
 * two's complement) to a nonzero uint64 value. Keys in a window [base, base + ndense) live
 * in a dense array, all others in an open-addressing hash table (linear probing, load at
 * most one half). The window is bounded in proportion to the number of entries, so sparse
 * keys cost no memory. It starts at 0 for small counters and at the first key otherwise (OS
 * thread IDs), and grows up and down to the keys near it. In a map whose keys only grow
 * (goroutines, tasks: a fresh ID each time, the old ones ending), the owner sets `slides`:
 * keys above the window then slide it up, so that the recent keys stay dense. A zeroed
 * gtr__idmap is empty; the allocator is passed to the calls that may allocate.
 *
 * gtr__idstore is the same map whose values are fixed-size records at addresses that never
 * move while the store lives (a caller may keep a pointer to one record while inserting
 * others). A deleted record's memory is recycled, buffers and all, by a later insertion, so
 * that the steady state allocates nothing.
 *
 * Allocation failure leaves either map as it was and is reported (GTR_E_NOMEM, NULL). */
#ifndef GTR_SRC_IDMAP_H
#define GTR_SRC_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler.h"
#include "gtr/alloc.h"
#include "gtr/status.h"

/* gtr__idmap_hash spreads an integer key over the bits a table index takes (splitmix64's
 * finaliser): IDs are counters, PCs and OS thread IDs, whose low bits alone cluster. */
static inline uint64_t gtr__idmap_hash(uint64_t k)
{
    k ^= k >> 30;
    k *= UINT64_C(0xbf58476d1ce4e5b9);
    k ^= k >> 27;
    k *= UINT64_C(0x94d049bb133111eb);
    return k ^ (k >> 31);
}

typedef struct gtr__idmap {
    uint64_t base;      /* dense[key - base] (modulo 2^64) is key's value, 0 when absent */
    uint64_t *dense;
    size_t ndense;
    uint64_t *hkeys;    /* other keys; hvals[i] is 0 for an empty cell */
    uint64_t *hvals;
    size_t hcap, hlen;
    size_t len;         /* entries in total */
    bool slides;        /* the window follows growing keys (set by the owner) */
    size_t slide_wait;  /* hash insertions to wait before trying to slide the window again */
    size_t since_slide; /* insertions since the window last slid */
} gtr__idmap;

/* gtr__idmap_get_sparse is gtr__idmap_get for a key outside the dense window. */
uint64_t gtr__idmap_get_sparse(const gtr__idmap *m, uint64_t key);

/* gtr__idmap_get returns key's value, 0 when absent. The dense case is inline. */
static GTR__ALWAYS_INLINE uint64_t gtr__idmap_get(const gtr__idmap *m, uint64_t key)
{
    uint64_t d = key - m->base; /* wraps for a key below the window */
    if (d < m->ndense)
        return m->dense[d];
    return gtr__idmap_get_sparse(m, key);
}

/* gtr__idmap_put adds key, which must be absent, with value val (nonzero). GTR_E_NOMEM
 * leaves the map unchanged. */
gtr_status gtr__idmap_put(gtr__idmap *m, const gtr_alloc *a, uint64_t key, uint64_t val);
/* gtr__idmap_delete removes key and returns its value (0: it was absent). Never allocates. */
uint64_t gtr__idmap_delete(gtr__idmap *m, uint64_t key);
/* gtr__idmap_next iterates the map in its internal order: *pos starts at 0. Inserting or
 * deleting ends an iteration. */
bool gtr__idmap_next(const gtr__idmap *m, size_t *pos, uint64_t *key, uint64_t *val);
/* gtr__idmap_sorted_keys returns the keys in ascending order of their signed (int64) value
 * in *keys (NULL for an empty map; free with a). */
gtr_status gtr__idmap_sorted_keys(const gtr__idmap *m, const gtr_alloc *a, uint64_t **keys);
/* gtr__idmap_clear removes every entry and keeps the memory for reuse. */
void gtr__idmap_clear(gtr__idmap *m);
/* gtr__idmap_free releases the memory and leaves the map empty (zeroed). */
void gtr__idmap_free(gtr__idmap *m, const gtr_alloc *a);

/* Index maps: a gtr__idmap from a key to an index into an array (0 included), which it
 * stores plus one. */

/* gtr__idmap_get_index: true and *idx when key is present. The dense case is inline. */
static GTR__ALWAYS_INLINE bool gtr__idmap_get_index(const gtr__idmap *m, uint64_t key,
                                                    size_t *idx)
{
    uint64_t v = gtr__idmap_get(m, key);
    if (v == 0)
        return false;
    *idx = (size_t)(v - 1);
    return true;
}

/* gtr__idmap_peek_index is gtr__idmap_get_index without the hash table, and without a call:
 * true and *idx when key is in the dense window and present; false says nothing of the hash
 * table (for fast paths that fall back on a full lookup). */
static GTR__ALWAYS_INLINE bool gtr__idmap_peek_index(const gtr__idmap *m, uint64_t key,
                                                     size_t *idx)
{
    uint64_t d = key - m->base;
    if (d >= m->ndense || m->dense[d] == 0)
        return false;
    *idx = (size_t)(m->dense[d] - 1);
    return true;
}

/* gtr__idmap_put_index_slow is gtr__idmap_put_index past its inline case. */
gtr_status gtr__idmap_put_index_slow(gtr__idmap *m, const gtr_alloc *a, uint64_t key,
                                     size_t next, size_t *idx, bool *found);

/* gtr__idmap_put_index sets *idx to key's index: the one it has (*found true), else next,
 * which key then gets (*found false). GTR_E_NOMEM leaves the map unchanged. A present key
 * in the dense window is inline. */
static GTR__ALWAYS_INLINE gtr_status gtr__idmap_put_index(gtr__idmap *m, const gtr_alloc *a,
                                                          uint64_t key, size_t next,
                                                          size_t *idx, bool *found)
{
    uint64_t d = key - m->base;
    if (d < m->ndense && m->dense[d] != 0) {
        *idx = (size_t)(m->dense[d] - 1);
        *found = true;
        return GTR_OK;
    }
    return gtr__idmap_put_index_slow(m, a, key, next, idx, found);
}

typedef struct gtr__idstore {
    gtr__idmap map;       /* key -> the address of its record */
    const gtr_alloc *alc;
    size_t elem_size;
    unsigned char **chunks;  /* records, GTR__IDSTORE_CHUNK to a chunk */
    size_t nchunks, chunks_cap;
    size_t nrecords;         /* records ever handed out */
    void **free_recs;        /* deleted records; capacity kept >= nrecords so that deleting
                              * never allocates */
    size_t nfree, free_cap;
} gtr__idstore;

void gtr__idstore_init(gtr__idstore *s, const gtr_alloc *a, size_t elem_size);
/* gtr__idstore_destroy frees the store; fini (if not NULL) first releases the buffers of
 * every record ever handed out, present or deleted. */
void gtr__idstore_destroy(gtr__idstore *s, void (*fini)(const gtr_alloc *, void *));

/* gtr__idstore_get returns key's record, NULL when absent. */
static GTR__ALWAYS_INLINE void *gtr__idstore_get(const gtr__idstore *s, uint64_t key)
{
    return (void *)(uintptr_t)gtr__idmap_get(&s->map, key);
}

/* gtr__idstore_peek is gtr__idstore_get without the hash table, and without a call: key's
 * record when key is in the dense window, else NULL (which says nothing of the hash table),
 * for fast paths that fall back on a full lookup. */
static GTR__ALWAYS_INLINE void *gtr__idstore_peek(const gtr__idstore *s, uint64_t key)
{
    uint64_t d = key - s->map.base;
    return d < s->map.ndense ? (void *)(uintptr_t)s->map.dense[d] : NULL;
}

/* gtr__idstore_insert_slow is gtr__idstore_insert's whole work. */
void *gtr__idstore_insert_slow(gtr__idstore *s, uint64_t key);

/* gtr__idstore_insert adds key, which must be absent, and returns its record: a fresh one is
 * zeroed, a recycled one keeps what its previous owner left in it. NULL when out of memory.
 * A key inside the dense window that takes a recycled record (task IDs: each task takes the
 * last ended one's) is inline. */
static GTR__ALWAYS_INLINE void *gtr__idstore_insert(gtr__idstore *s, uint64_t key)
{
    uint64_t d = key - s->map.base;
    if (d < s->map.ndense && s->nfree > 0) {
        void *v = s->free_recs[--s->nfree];
        s->map.dense[d] = (uint64_t)(uintptr_t)v;
        s->map.len++;
        s->map.since_slide++;
        return v;
    }
    return gtr__idstore_insert_slow(s, key);
}

/* gtr__idstore_delete removes key (if present); its record waits for reuse. */
void gtr__idstore_delete(gtr__idstore *s, uint64_t key);

/* gtr__idstore_next iterates the store as gtr__idmap_next does. */
static inline bool gtr__idstore_next(const gtr__idstore *s, size_t *pos, uint64_t *key,
                                     void **rec)
{
    uint64_t v;
    if (!gtr__idmap_next(&s->map, pos, key, &v))
        return false;
    *rec = (void *)(uintptr_t)v;
    return true;
}

#endif /* GTR_SRC_IDMAP_H */
