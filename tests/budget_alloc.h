/* SPDX-License-Identifier: BSD-3-Clause */
/* budget_alloc.h: an allocator that fails every allocation after a budget of them, for the
 * unit tests' out-of-memory paths (tests only). */
#ifndef GTR_TESTS_BUDGET_ALLOC_H
#define GTR_TESTS_BUDGET_ALLOC_H

#include <stdlib.h>

#include "gtr/alloc.h"

typedef struct budget {
    int left;   /* allocations that still succeed */
} budget;

static inline void *budget_malloc(void *ctx, size_t n)
{
    budget *b = ctx;
    return b->left-- > 0 ? malloc(n ? n : 1) : NULL;
}

static inline void *budget_realloc(void *ctx, void *p, size_t n)
{
    budget *b = ctx;
    return b->left-- > 0 ? realloc(p, n ? n : 1) : NULL;
}

static inline void budget_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

/* budget_alloc is the allocator drawing on b. */
static inline gtr_alloc budget_alloc(budget *b)
{
    gtr_alloc a = {budget_malloc, budget_realloc, budget_free, b};
    return a;
}

#endif /* GTR_TESTS_BUDGET_ALLOC_H */
