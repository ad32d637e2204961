/* SPDX-License-Identifier: BSD-3-Clause */
/* idmap.c: the ID map (idmap.h). */
#include "idmap.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

/* Keys below base + 2*len + DENSE_SLACK (len: entries at insertion time) go to the dense
 * array: at least half of a grown window is in use, or it is small. */
#define DENSE_SLACK 64
#define DENSE_MIN 64
#define HASH_MIN 16

static size_t hash_home(uint64_t k, size_t cap)
{
    return (size_t)gtr__idmap_hash(k) & (cap - 1);
}

/* hash_find returns the cell holding key, or hcap when absent. */
static size_t hash_find(const gtr__idmap *m, uint64_t key)
{
    if (m->hlen == 0)
        return m->hcap;
    size_t mask = m->hcap - 1;
    for (size_t i = hash_home(key, m->hcap);; i = (i + 1) & mask) {
        if (m->hvals[i] == 0)
            return m->hcap;
        if (m->hkeys[i] == key)
            return i;
    }
}

static void hash_place(uint64_t *keys, uint64_t *vals, size_t cap, uint64_t key, uint64_t val)
{
    size_t i = hash_home(key, cap);
    while (vals[i] != 0)
        i = (i + 1) & (cap - 1);
    keys[i] = key;
    vals[i] = val;
}

/* hash_resize moves the hash entries into a table of ncap cells. */
static bool hash_resize(gtr__idmap *m, const gtr_alloc *a, size_t ncap)
{
    uint64_t *nk = gtr__calloc(a, ncap, sizeof *nk);
    uint64_t *nv = gtr__calloc(a, ncap, sizeof *nv);
    if (nk == NULL || nv == NULL) {
        gtr__free(a, nk);
        gtr__free(a, nv);
        return false;
    }
    for (size_t i = 0; i < m->hcap; i++) {
        if (m->hvals[i] != 0)
            hash_place(nk, nv, ncap, m->hkeys[i], m->hvals[i]);
    }
    gtr__free(a, m->hkeys);
    gtr__free(a, m->hvals);
    m->hkeys = nk;
    m->hvals = nv;
    m->hcap = ncap;
    return true;
}

static void hash_remove_at(gtr__idmap *m, size_t i)
{
    /* Backward-shift deletion keeps every probe sequence unbroken. */
    size_t mask = m->hcap - 1;
    size_t j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (m->hvals[j] == 0)
            break;
        size_t k = hash_home(m->hkeys[j], m->hcap);
        bool movable = (i <= j) ? (k <= i || k > j) : (k <= i && k > j);
        if (movable) {
            m->hkeys[i] = m->hkeys[j];
            m->hvals[i] = m->hvals[j];
            i = j;
        }
    }
    m->hvals[i] = 0;
    m->hlen--;
}

uint64_t gtr__idmap_get_sparse(const gtr__idmap *m, uint64_t key)
{
    size_t i = hash_find(m, key);
    return i < m->hcap ? m->hvals[i] : 0;
}

typedef enum grow_result { GROW_DECLINED, GROW_DONE, GROW_NOMEM } grow_result;

/* grow_dense tries to extend the dense window to cover key, up or down (keys less than 2^63
 * below the base count as below it), to at most 2*len + DENSE_SLACK entries. Declined (the
 * key then goes to the hash table, or the window slides) or out of memory, the map is
 * unchanged. */
static grow_result grow_dense(gtr__idmap *m, const gtr_alloc *a, uint64_t key)
{
    uint64_t limit = 2 * (uint64_t)m->len + DENSE_SLACK;
    uint64_t d = key - m->base; /* modular, as in gtr__idmap_get */
    bool down = d >= UINT64_C(1) << 63;
    uint64_t need = down ? (m->base - key) + m->ndense : d + 1;
    if (need > limit)
        return GROW_DECLINED;
    size_t ncap = m->ndense < DENSE_MIN / 2 ? DENSE_MIN : m->ndense * 2;
    if (ncap > limit)
        ncap = (size_t)limit;
    if (ncap < need)
        ncap = (size_t)need;
    uint64_t *nd = gtr__realloc_array(a, m->dense, ncap, sizeof *nd);
    if (nd == NULL)
        return GROW_NOMEM;
    /* Growing down, all the new room goes below: the next key down is likely near. */
    size_t shift = down ? ncap - m->ndense : 0;
    memmove(nd + shift, nd, m->ndense * sizeof *nd);
    memset(nd, 0, shift * sizeof *nd);
    memset(nd + shift + m->ndense, 0, (ncap - shift - m->ndense) * sizeof *nd);
    m->dense = nd;
    m->base -= shift;
    m->ndense = ncap;
    /* Hash entries now inside the window move to it. Removing one may shift another into its
     * cell: that cell is looked at again. */
    for (size_t i = 0; i < m->hcap && m->hlen > 0;) {
        if (m->hvals[i] != 0 && m->hkeys[i] - m->base < ncap) {
            nd[m->hkeys[i] - m->base] = m->hvals[i];
            hash_remove_at(m, i);
            continue;
        }
        i++;
    }
    return GROW_DONE;
}

/* hash_reserve makes room in the hash table for more entries. */
static bool hash_reserve(gtr__idmap *m, const gtr_alloc *a, size_t more)
{
    size_t ncap = m->hcap < HASH_MIN ? HASH_MIN : m->hcap;
    while ((m->hlen + more) * 2 > ncap) {
        if (ncap > SIZE_MAX / 4)
            return false;
        ncap *= 2;
    }
    return ncap == m->hcap || hash_resize(m, a, ncap);
}

/* slide_dense tries to move the window up so that key, above it, lands in its middle: the
 * entries below the new base go to the hash table, and those of the hash table inside the new
 * window come to the dense array. It declines when that would put more than a quarter of the
 * window's width into the hash table (a cluster of live IDs below: sliding back and forth
 * would cost more than hashing), and then waits for half a window's width of hash insertions
 * before trying again. A slide costs the window's width, so it also waits for a quarter of a
 * width of insertions since the last one (keys that only grow make half a width between two
 * slides): either way its cost is a constant per insertion, whatever keys an input chooses. */
static grow_result slide_dense(gtr__idmap *m, const gtr_alloc *a, uint64_t key)
{
    /* The window may straddle 2^64 (IDs are int64, so -1 is the top key). Keys less than
     * 2^63 above the base count as above it. */
    size_t w = m->ndense;
    uint64_t d = key - m->base;
    if (w < DENSE_MIN || d < w || d >= UINT64_C(1) << 63 || m->since_slide < w / 4)
        return GROW_DECLINED;
    if (m->slide_wait > 0) {
        m->slide_wait--;
        return GROW_DECLINED;
    }
    uint64_t nb = key - w / 2;
    uint64_t shift = d - w / 2; /* >= w/2 */
    size_t keep = shift < w ? w - (size_t)shift : 0;
    size_t nout = w - keep, evicted = 0;
    for (size_t i = 0; i < nout; i++)
        evicted += m->dense[i] != 0;
    if (evicted > w / 4) {
        m->slide_wait = w / 2;
        return GROW_DECLINED;
    }
    if (!hash_reserve(m, a, evicted))
        return GROW_NOMEM;
    for (size_t i = 0; i < nout; i++) {
        if (m->dense[i] != 0) {
            hash_place(m->hkeys, m->hvals, m->hcap, m->base + i, m->dense[i]);
            m->hlen++;
        }
    }
    memmove(m->dense, m->dense + nout, keep * sizeof *m->dense);
    memset(m->dense + keep, 0, nout * sizeof *m->dense);
    m->base = nb;
    /* Only keys of the newly covered part, nb + [keep, w), can be in the hash table and now
     * inside the window (the evicted keys are all below nb). */
    for (size_t j = keep; j < w && m->hlen > 0; j++) {
        size_t i = hash_find(m, nb + j);
        if (i < m->hcap) {
            m->dense[j] = m->hvals[i];
            hash_remove_at(m, i);
        }
    }
    m->since_slide = 0;
    return GROW_DONE;
}

/* make_room prepares key's place (dense or hashed) without adding it: false when out of
 * memory, the map then unchanged as far as its contents go. */
static bool make_room(gtr__idmap *m, const gtr_alloc *a, uint64_t key)
{
    if (key - m->base < m->ndense)
        return true;
    /* An empty map moves its window for free: to its first key, unless that key is within
     * reach of the window (small counters keep base 0). OS thread IDs and the like, few and
     * close together, are then dense too. */
    if (m->len == 0 && key - m->base >= DENSE_SLACK) {
        m->base = key - DENSE_MIN / 2;
        m->slide_wait = 0;
    }
    /* Out of memory is reported, not worked around with the hash table: a failed
     * allocation fails the call, whichever it is. */
    grow_result g = key - m->base >= m->ndense ? grow_dense(m, a, key) : GROW_DONE;
    if (g == GROW_DECLINED && m->slides)
        g = slide_dense(m, a, key);
    if (g == GROW_NOMEM)
        return false;
    return key - m->base < m->ndense || hash_reserve(m, a, 1);
}

/* place stores key -> val where make_room prepared. */
static void place(gtr__idmap *m, uint64_t key, uint64_t val)
{
    if (key - m->base < m->ndense) {
        m->dense[key - m->base] = val;
    } else {
        hash_place(m->hkeys, m->hvals, m->hcap, key, val);
        m->hlen++;
    }
    m->len++;
    m->since_slide++;
}

gtr_status gtr__idmap_put(gtr__idmap *m, const gtr_alloc *a, uint64_t key, uint64_t val)
{
    assert(val != 0 && gtr__idmap_get(m, key) == 0);
    if (!make_room(m, a, key))
        return GTR_E_NOMEM;
    place(m, key, val);
    return GTR_OK;
}

GTR__NOINLINE gtr_status gtr__idmap_put_index_slow(gtr__idmap *m, const gtr_alloc *a,
                                                   uint64_t key, size_t next, size_t *idx,
                                                   bool *found)
{
    uint64_t v = gtr__idmap_get(m, key);
    *found = v != 0;
    if (v != 0) {
        *idx = (size_t)(v - 1);
        return GTR_OK;
    }
    *idx = next;
    if ((uint64_t)next >= UINT64_MAX || !make_room(m, a, key))
        return GTR_E_NOMEM;
    place(m, key, (uint64_t)next + 1);
    return GTR_OK;
}

uint64_t gtr__idmap_delete(gtr__idmap *m, uint64_t key)
{
    uint64_t v = 0;
    uint64_t d = key - m->base;
    if (d < m->ndense) {
        v = m->dense[d];
        m->dense[d] = 0;
    } else {
        size_t i = hash_find(m, key);
        if (i < m->hcap) {
            v = m->hvals[i];
            hash_remove_at(m, i);
        }
    }
    if (v != 0)
        m->len--;
    return v;
}

bool gtr__idmap_next(const gtr__idmap *m, size_t *pos, uint64_t *key, uint64_t *val)
{
    while (*pos < m->ndense + m->hcap) {
        size_t i = (*pos)++;
        uint64_t v, k;
        if (i < m->ndense) {
            v = m->dense[i];
            k = m->base + i;
        } else {
            v = m->hvals[i - m->ndense];
            k = v != 0 ? m->hkeys[i - m->ndense] : 0;
        }
        if (v != 0) {
            *key = k;
            *val = v;
            return true;
        }
    }
    return false;
}

static int cmp_signed_key(const void *a, const void *b)
{
    int64_t x = (int64_t)*(const uint64_t *)a;
    int64_t y = (int64_t)*(const uint64_t *)b;
    return (x > y) - (x < y);
}

gtr_status gtr__idmap_sorted_keys(const gtr__idmap *m, const gtr_alloc *a, uint64_t **keys)
{
    *keys = NULL;
    if (m->len == 0)
        return GTR_OK;
    uint64_t *ks = gtr__calloc(a, m->len, sizeof *ks);
    if (ks == NULL)
        return GTR_E_NOMEM;
    size_t pos = 0, n = 0;
    uint64_t k, v;
    while (n < m->len && gtr__idmap_next(m, &pos, &k, &v))
        ks[n++] = k;
    qsort(ks, n, sizeof *ks, cmp_signed_key);
    *keys = ks;
    return GTR_OK;
}

void gtr__idmap_clear(gtr__idmap *m)
{
    if (m->ndense != 0)
        memset(m->dense, 0, m->ndense * sizeof *m->dense);
    if (m->hlen != 0)
        memset(m->hvals, 0, m->hcap * sizeof *m->hvals);
    m->hlen = 0;
    m->len = 0;
    m->slide_wait = 0;
    m->since_slide = 0;
}

void gtr__idmap_free(gtr__idmap *m, const gtr_alloc *a)
{
    gtr__free(a, m->dense);
    gtr__free(a, m->hkeys);
    gtr__free(a, m->hvals);
    memset(m, 0, sizeof *m);
}

/* ---- The store: records in chunks that never move. ---- */

#define CHUNK_SHIFT 6
#define CHUNK ((size_t)1 << CHUNK_SHIFT)

void gtr__idstore_init(gtr__idstore *s, const gtr_alloc *a, size_t elem_size)
{
    memset(s, 0, sizeof *s);
    s->alc = a;
    s->elem_size = elem_size;
}

static void *record_at(const gtr__idstore *s, size_t r)
{
    return s->chunks[r >> CHUNK_SHIFT] + (r & (CHUNK - 1)) * s->elem_size;
}

void gtr__idstore_destroy(gtr__idstore *s, void (*fini)(const gtr_alloc *, void *))
{
    if (fini != NULL) {
        for (size_t r = 0; r < s->nrecords; r++)
            fini(s->alc, record_at(s, r));
    }
    for (size_t i = 0; i < s->nchunks; i++)
        gtr__free(s->alc, s->chunks[i]);
    gtr__free(s->alc, s->chunks);
    gtr__free(s->alc, s->free_recs);
    gtr__idmap_free(&s->map, s->alc);
    memset(s, 0, sizeof *s);
}

/* new_record hands out a record: a recycled one, else a fresh zeroed one. */
static void *new_record(gtr__idstore *s)
{
    if (s->nfree > 0)
        return s->free_recs[--s->nfree];
    if ((s->nrecords >> CHUNK_SHIFT) >= s->nchunks) {
        if (!GTR__GROW(s->alc, s->chunks, s->chunks_cap, s->nchunks + 1))
            return NULL;
        /* Not zeroed here: a fresh record is zeroed when handed out (below), so a small
         * trace does not pay for clearing a whole chunk. */
        unsigned char *c = gtr__malloc(s->alc, CHUNK * s->elem_size);
        if (c == NULL)
            return NULL;
        s->chunks[s->nchunks++] = c;
    }
    if (!GTR__GROW(s->alc, s->free_recs, s->free_cap, s->nrecords + 1))
        return NULL;
    void *v = record_at(s, s->nrecords++);
    memset(v, 0, s->elem_size);
    return v;
}

GTR__NOINLINE void *gtr__idstore_insert_slow(gtr__idstore *s, uint64_t key)
{
    assert(gtr__idstore_get(s, key) == NULL);
    if (!make_room(&s->map, s->alc, key))
        return NULL;
    void *v = new_record(s);
    if (v == NULL)
        return NULL;
    place(&s->map, key, (uint64_t)(uintptr_t)v);
    return v;
}

void gtr__idstore_delete(gtr__idstore *s, uint64_t key)
{
    void *v = (void *)(uintptr_t)gtr__idmap_delete(&s->map, key);
    if (v == NULL)
        return;
    assert(s->nfree < s->free_cap);
    s->free_recs[s->nfree++] = v;
}
