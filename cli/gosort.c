/* SPDX-License-Identifier: BSD-3-Clause */
/* gosort.c: a port of Go's slices.SortFunc (slices/sort.go and slices/zsortanyfunc.go of Go
 * 1.27.3): pdqsort with insertion sort under 13 elements, heapsort past the recursion limit
 * (bits.Len(n)), Tukey's ninther for pivots, a pattern breaker seeded with the length, and
 * partial insertion sort for nearly sorted runs. The steps (and so the final order of equal
 * elements) follow Go's exactly, quirks included: partialInsertionSort's backward shift runs
 * down to index 1, not to a. Indices are ptrdiff_t as Go's ints are. */
#include <stdint.h>

#include "gosort.h"

typedef struct sorter {
    unsigned char *base;
    size_t size;
    int (*cmp)(const void *, const void *);
} sorter;

typedef enum { UNKNOWN_HINT, INCREASING_HINT, DECREASING_HINT } sorted_hint;

static int less(const sorter *s, ptrdiff_t i, ptrdiff_t j)
{
    return s->cmp(s->base + (size_t)i * s->size, s->base + (size_t)j * s->size) < 0;
}

static void swap(const sorter *s, ptrdiff_t i, ptrdiff_t j)
{
    unsigned char *x = s->base + (size_t)i * s->size, *y = s->base + (size_t)j * s->size;
    for (size_t k = 0; k < s->size; k++) {
        unsigned char t = x[k];
        x[k] = y[k];
        y[k] = t;
    }
}

/* bits_len: Go's bits.Len(uint(n)), the bits needed for n. */
static int bits_len(size_t n)
{
    int b = 0;
    for (; n != 0; n >>= 1)
        b++;
    return b;
}

static void insertion_sort(const sorter *s, ptrdiff_t a, ptrdiff_t b)
{
    for (ptrdiff_t i = a + 1; i < b; i++)
        for (ptrdiff_t j = i; j > a && less(s, j, j - 1); j--)
            swap(s, j, j - 1);
}

static void sift_down(const sorter *s, ptrdiff_t lo, ptrdiff_t hi, ptrdiff_t first)
{
    ptrdiff_t root = lo;
    for (;;) {
        ptrdiff_t child = 2 * root + 1;
        if (child >= hi)
            return;
        if (child + 1 < hi && less(s, first + child, first + child + 1))
            child++;
        if (!less(s, first + root, first + child))
            return;
        swap(s, first + root, first + child);
        root = child;
    }
}

static void heap_sort(const sorter *s, ptrdiff_t a, ptrdiff_t b)
{
    ptrdiff_t first = a, hi = b - a;
    for (ptrdiff_t i = (hi - 1) / 2; i >= 0; i--)
        sift_down(s, i, hi, first);
    for (ptrdiff_t i = hi - 1; i >= 0; i--) {
        swap(s, first, first + i);
        sift_down(s, 0, i, first);
    }
}

/* partition returns the pivot's new index; *already: nothing had to move. */
static ptrdiff_t partition(const sorter *s, ptrdiff_t a, ptrdiff_t b, ptrdiff_t pivot,
                           int *already)
{
    swap(s, a, pivot);
    ptrdiff_t i = a + 1, j = b - 1;
    while (i <= j && less(s, i, a))
        i++;
    while (i <= j && !less(s, j, a))
        j--;
    if (i > j) {
        swap(s, j, a);
        *already = 1;
        return j;
    }
    swap(s, i, j);
    i++;
    j--;
    for (;;) {
        while (i <= j && less(s, i, a))
            i++;
        while (i <= j && !less(s, j, a))
            j--;
        if (i > j)
            break;
        swap(s, i, j);
        i++;
        j--;
    }
    swap(s, j, a);
    *already = 0;
    return j;
}

static ptrdiff_t partition_equal(const sorter *s, ptrdiff_t a, ptrdiff_t b, ptrdiff_t pivot)
{
    swap(s, a, pivot);
    ptrdiff_t i = a + 1, j = b - 1;
    for (;;) {
        while (i <= j && !less(s, a, i))
            i++;
        while (i <= j && less(s, a, j))
            j--;
        if (i > j)
            break;
        swap(s, i, j);
        i++;
        j--;
    }
    return i;
}

static int partial_insertion_sort(const sorter *s, ptrdiff_t a, ptrdiff_t b)
{
    enum { MAX_STEPS = 5, SHORTEST_SHIFTING = 50 };
    ptrdiff_t i = a + 1;
    for (int step = 0; step < MAX_STEPS; step++) {
        while (i < b && !less(s, i, i - 1))
            i++;
        if (i == b)
            return 1;
        if (b - a < SHORTEST_SHIFTING)
            return 0;
        swap(s, i, i - 1);
        if (i - a >= 2) /* Go shifts down to index 1, whatever a is */
            for (ptrdiff_t j = i - 1; j >= 1 && less(s, j, j - 1); j--)
                swap(s, j, j - 1);
        if (b - i >= 2)
            for (ptrdiff_t j = i + 1; j < b && less(s, j, j - 1); j++)
                swap(s, j, j - 1);
    }
    return 0;
}

static void break_patterns(const sorter *s, ptrdiff_t a, ptrdiff_t b)
{
    ptrdiff_t length = b - a;
    if (length < 8)
        return;
    uint64_t random = (uint64_t)length;                        /* xorshift(length) */
    uint64_t modulus = UINT64_C(1) << bits_len((size_t)length); /* nextPowerOfTwo */
    for (ptrdiff_t idx = a + (length / 4) * 2 - 1; idx <= a + (length / 4) * 2 + 1; idx++) {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        ptrdiff_t other = (ptrdiff_t)(random & (modulus - 1));
        if (other >= length)
            other -= length;
        swap(s, idx, a + other);
    }
}

/* order2 and median keep Go's swap counting: the count says how sorted the samples were. */
static void order2(const sorter *s, ptrdiff_t *a, ptrdiff_t *b, int *swaps)
{
    if (less(s, *b, *a)) {
        ptrdiff_t t = *a;
        (*swaps)++;
        *a = *b;
        *b = t;
    }
}

static ptrdiff_t median(const sorter *s, ptrdiff_t a, ptrdiff_t b, ptrdiff_t c, int *swaps)
{
    order2(s, &a, &b, swaps);
    order2(s, &b, &c, swaps);
    order2(s, &a, &b, swaps);
    return b;
}

static ptrdiff_t median_adjacent(const sorter *s, ptrdiff_t a, int *swaps)
{
    return median(s, a - 1, a, a + 1, swaps);
}

static ptrdiff_t choose_pivot(const sorter *s, ptrdiff_t a, ptrdiff_t b, sorted_hint *hint)
{
    enum { SHORTEST_NINTHER = 50, MAX_SWAPS = 4 * 3 };
    ptrdiff_t l = b - a;
    int swaps = 0;
    ptrdiff_t i = a + l / 4 * 1, j = a + l / 4 * 2, k = a + l / 4 * 3;
    if (l >= 8) {
        if (l >= SHORTEST_NINTHER) {
            i = median_adjacent(s, i, &swaps);
            j = median_adjacent(s, j, &swaps);
            k = median_adjacent(s, k, &swaps);
        }
        j = median(s, i, j, k, &swaps);
    }
    *hint = swaps == 0 ? INCREASING_HINT : swaps == MAX_SWAPS ? DECREASING_HINT : UNKNOWN_HINT;
    return j;
}

static void reverse_range(const sorter *s, ptrdiff_t a, ptrdiff_t b)
{
    for (ptrdiff_t i = a, j = b - 1; i < j; i++, j--)
        swap(s, i, j);
}

static void pdqsort(const sorter *s, ptrdiff_t a, ptrdiff_t b, int limit)
{
    enum { MAX_INSERTION = 12 };
    int was_balanced = 1, was_partitioned = 1;
    for (;;) {
        ptrdiff_t length = b - a;
        if (length <= MAX_INSERTION) {
            insertion_sort(s, a, b);
            return;
        }
        if (limit == 0) { /* too many bad pivots: heapsort guarantees n log n */
            heap_sort(s, a, b);
            return;
        }
        if (!was_balanced) {
            break_patterns(s, a, b);
            limit--;
        }
        sorted_hint hint;
        ptrdiff_t pivot = choose_pivot(s, a, b, &hint);
        if (hint == DECREASING_HINT) {
            reverse_range(s, a, b);
            pivot = (b - 1) - (pivot - a);
            hint = INCREASING_HINT;
        }
        if (was_balanced && was_partitioned && hint == INCREASING_HINT &&
            partial_insertion_sort(s, a, b))
            return;
        /* The pivot equals the element before the range: no element is smaller. */
        if (a > 0 && !less(s, a - 1, pivot)) {
            a = partition_equal(s, a, b, pivot);
            continue;
        }
        int already;
        ptrdiff_t mid = partition(s, a, b, pivot, &already);
        was_partitioned = already;
        ptrdiff_t left = mid - a, right = b - mid, threshold = length / 8;
        if (left < right) {
            was_balanced = left >= threshold;
            pdqsort(s, a, mid, limit);
            a = mid + 1;
        } else {
            was_balanced = right >= threshold;
            pdqsort(s, mid + 1, b, limit);
            b = mid;
        }
    }
}

void cli_go_sort_func(void *base, size_t n, size_t size,
                      int (*cmp)(const void *a, const void *b))
{
    sorter s = {base, size, cmp};
    if (n > (size_t)PTRDIFF_MAX / (size != 0 ? size : 1))
        return;
    pdqsort(&s, 0, (ptrdiff_t)n, bits_len(n));
}
