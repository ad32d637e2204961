/* SPDX-License-Identifier: BSD-3-Clause */
/* sort.h: Go's slices.SortFunc, for output that must list equal elements in Go's order. */
#ifndef GTR_SORT_H
#define GTR_SORT_H

#include <stddef.h>

#include "gtr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* gtr_go_sort_func sorts the n elements of size bytes at base as Go 1.27.3's
 * slices.SortFunc(x, cmp) does (pdqsort): the same comparisons and swaps, so that elements
 * that compare equal end in the order Go's leaves them (it is not stable). cmp returns < 0,
 * 0 or > 0. The reader orders CPU samples and its frontier with it, as Go's does. */
GTR_API void gtr_go_sort_func(void *base, size_t n, size_t size,
                              int (*cmp)(const void *a, const void *b));

#ifdef __cplusplus
}
#endif

#endif /* GTR_SORT_H */
