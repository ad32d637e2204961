/* SPDX-License-Identifier: BSD-3-Clause */
/* alloc.c: the libc allocator and the overflow-checked helpers of mem.h. */
#include <stdlib.h>
#include <string.h>

#include "mem.h"

static void *libc_malloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size ? size : 1);
}

static void *libc_realloc(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    return realloc(ptr, size ? size : 1);
}

static void libc_free(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

static const gtr_alloc libc_alloc = {libc_malloc, libc_realloc, libc_free, NULL};

const gtr_alloc *gtr_alloc_libc(void)
{
    return &libc_alloc;
}

const gtr_alloc *gtr__alloc_or_libc(const gtr_alloc *alc)
{
    return alc != NULL ? alc : &libc_alloc;
}

void *gtr__malloc(const gtr_alloc *a, size_t size)
{
    a = gtr__alloc_or_libc(a);
    return a->malloc_fn(a->ctx, size);
}

void *gtr__calloc(const gtr_alloc *a, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size)
        return NULL;
    void *p = gtr__malloc(a, n * size);
    if (p != NULL)
        memset(p, 0, n * size);
    return p;
}

void *gtr__realloc_array(const gtr_alloc *a, void *p, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size)
        return NULL;
    a = gtr__alloc_or_libc(a);
    return a->realloc_fn(a->ctx, p, n * size);
}

void gtr__free(const gtr_alloc *a, void *p)
{
    if (p == NULL)
        return;
    a = gtr__alloc_or_libc(a);
    a->free_fn(a->ctx, p);
}

char *gtr__strndup(const gtr_alloc *a, const char *s, size_t n)
{
    if (n == SIZE_MAX)
        return NULL;
    char *p = gtr__malloc(a, n + 1);
    if (p == NULL)
        return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

bool gtr__grow(const gtr_alloc *a, void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap < 8 ? 8 : *cap;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return false;
        ncap *= 2;
    }
    void *np = gtr__realloc_array(a, *p, ncap, size);
    if (np == NULL)
        return false;
    *p = np;
    *cap = ncap;
    return true;
}
