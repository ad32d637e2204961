/* SPDX-License-Identifier: BSD-3-Clause */
/* strpool.c: the pool of interned strings (strpool.h): open addressing with linear probing
 * over FNV-1a hashes, kept at most half full. */
#include "strpool.h"

#include <string.h>

#include "mem.h"

static uint64_t str_hash(const char *s, size_t n)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (size_t i = 0; i < n; i++) {
        h ^= (uint8_t)s[i];
        h *= UINT64_C(1099511628211);
    }
    return h;
}

/* probe returns the slot holding s (hash h), or the empty slot where it would go. */
static gtr__strpool_slot *probe(const gtr__strpool *p, uint64_t h, const char *s, size_t len)
{
    size_t mask = p->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        gtr__strpool_slot *e = &p->slots[i];
        if (e->s == NULL || (e->hash == h && e->len == len && memcmp(e->s, s, len) == 0))
            return e;
    }
}

const char *gtr__strpool_find(const gtr__strpool *p, const char *s, size_t len)
{
    if (p->cap == 0)
        return NULL;
    return probe(p, str_hash(s, len), s, len)->s;
}

/* grow doubles the table (the first: 64 slots); false when memory runs out. */
static bool grow(gtr__strpool *p, const gtr_alloc *a)
{
    size_t ncap = p->cap ? p->cap * 2 : 64;
    gtr__strpool_slot *slots = gtr__calloc(a, ncap, sizeof *slots);
    if (slots == NULL)
        return false;
    for (size_t j = 0; j < p->cap; j++) {
        if (p->slots[j].s == NULL)
            continue;
        size_t i = (size_t)p->slots[j].hash & (ncap - 1);
        while (slots[i].s != NULL)
            i = (i + 1) & (ncap - 1);
        slots[i] = p->slots[j];
    }
    gtr__free(a, p->slots);
    p->slots = slots;
    p->cap = ncap;
    return true;
}

const char *gtr__strpool_intern(gtr__strpool *p, const gtr_alloc *a, const char *s, size_t len)
{
    uint64_t h = str_hash(s, len);
    if (p->cap != 0) {
        const char *found = probe(p, h, s, len)->s;
        if (found != NULL)
            return found;
    }
    if ((p->len + 1) * 2 > p->cap && !grow(p, a))
        return NULL;
    gtr__strpool_slot *e = probe(p, h, s, len);
    e->s = gtr__strndup(a, s, len);
    if (e->s == NULL)
        return NULL;
    e->hash = h;
    e->len = len;
    p->len++;
    return e->s;
}

void gtr__strpool_free(gtr__strpool *p, const gtr_alloc *a)
{
    for (size_t i = 0; i < p->cap; i++)
        gtr__free(a, p->slots[i].s);
    gtr__free(a, p->slots);
    memset(p, 0, sizeof *p);
}
