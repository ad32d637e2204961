/* SPDX-License-Identifier: BSD-3-Clause */
/* mem.h: internal allocation helpers over a gtr_alloc. Nothing in libtrace calls malloc
 * directly; array sizes are overflow-checked here. */
#ifndef GTR_SRC_MEM_H
#define GTR_SRC_MEM_H

#include "gtr/alloc.h"

/* gtr__alloc_or_libc: alc, or the libc allocator when alc is NULL. */
const gtr_alloc *gtr__alloc_or_libc(const gtr_alloc *alc);
void *gtr__malloc(const gtr_alloc *a, size_t size);
void *gtr__calloc(const gtr_alloc *a, size_t n, size_t size);
/* gtr__realloc_array resizes p to n elements of size bytes; NULL on overflow or failure
 * (p stays valid). */
void *gtr__realloc_array(const gtr_alloc *a, void *p, size_t n, size_t size);
void gtr__free(const gtr_alloc *a, void *p);
/* gtr__strndup copies s[0..n) into a NUL-terminated allocation. */
char *gtr__strndup(const gtr_alloc *a, const char *s, size_t n);

/* gtr__grow ensures *cap >= need for an array *p of elements of size bytes, growing
 * geometrically. Returns false (leaving *p and *cap) on overflow or allocation failure. */
bool gtr__grow(const gtr_alloc *a, void **p, size_t *cap, size_t need, size_t size);

/* The capacity test is inline: GTR__GROW sits in per-event loops where it almost never grows.
 * cap and need are evaluated twice (no side effects in them). */
#define GTR__GROW(a, arr, cap, need) \
    ((need) <= (cap) || gtr__grow((a), (void **)&(arr), &(cap), (need), sizeof *(arr)))

#endif /* GTR_SRC_MEM_H */
