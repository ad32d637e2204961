/* SPDX-License-Identifier: BSD-3-Clause */
/* gosort.h: Go's slices.SortFunc (pattern-defeating quicksort), element for element, so that
 * a table sorted with an unstable comparison comes out in the order Go's would. */
#ifndef GTR_CLI_GOSORT_H
#define GTR_CLI_GOSORT_H

#include <stddef.h>

/* cli_go_sort_func sorts the n elements of size bytes at base as Go's
 * slices.SortFunc(x, cmp) does (Go 1.27.3, slices/zsortanyfunc.go): the same comparisons and
 * swaps, so elements that compare equal end in Go's order. cmp returns <0, 0 or >0. */
void cli_go_sort_func(void *base, size_t n, size_t size,
                      int (*cmp)(const void *a, const void *b));

#endif /* GTR_CLI_GOSORT_H */
