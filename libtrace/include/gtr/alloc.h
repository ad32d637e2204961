/* SPDX-License-Identifier: BSD-3-Clause */
/* alloc.h: the allocator hook. Every allocation libtrace makes goes through a gtr_alloc
 * given to a handle's constructor (NULL means libc). Fuzzers use it to inject allocation
 * failures; embedders use it to account memory. */
#ifndef GTR_ALLOC_H
#define GTR_ALLOC_H

#include "gtr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gtr_alloc {
    /* malloc_fn: like malloc(size); NULL on failure. */
    void *(*malloc_fn)(void *ctx, size_t size);
    /* realloc_fn: like realloc(ptr, size); NULL on failure (ptr stays valid). */
    void *(*realloc_fn)(void *ctx, void *ptr, size_t size);
    /* free_fn: like free(ptr); ptr may be NULL. */
    void (*free_fn)(void *ctx, void *ptr);
    void *ctx;
} gtr_alloc;

/* gtr_alloc_libc returns the allocator backed by malloc/realloc/free (a static object). */
GTR_API const gtr_alloc *gtr_alloc_libc(void);

#ifdef __cplusplus
}
#endif
#endif /* GTR_ALLOC_H */
