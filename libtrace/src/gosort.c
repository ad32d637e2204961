/* SPDX-License-Identifier: BSD-3-Clause */
/* gosort.c: Go's slices.SortFunc (src/slices/zsortanyfunc.go at go1.27.3), step for step.
 * pdqsort is not stable: equal elements end in an order that depends on the exact algorithm,
 * so the reader orders CPU samples and the frontier with Go's, and the CLI the rows of
 * gotraceeventstats' table, as Go does: insertion sort under 13 elements, heapsort past the
 * recursion limit (bits.Len(n)), Tukey's ninther for pivots, a pattern breaker seeded with
 * the length, partial insertion sort for nearly sorted runs. */
#include "gtr/sort.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct sorter {
    unsigned char *base;
    size_t size;
    int (*cmp)(const void *, const void *);
} sorter;

enum { UNKNOWN_HINT, INCREASING_HINT, DECREASING_HINT };

static bool s_less(const sorter *s, long i, long j)
{
    return s->cmp(s->base + (size_t)i * s->size, s->base + (size_t)j * s->size) < 0;
}

static void s_swap(const sorter *s, long i, long j)
{
    unsigned char tmp[64];
    unsigned char *a = s->base + (size_t)i * s->size, *b = s->base + (size_t)j * s->size;
    for (size_t off = 0; off < s->size; off += sizeof tmp) {
        size_t k = s->size - off < sizeof tmp ? s->size - off : sizeof tmp;
        memcpy(tmp, a + off, k);
        memcpy(a + off, b + off, k);
        memcpy(b + off, tmp, k);
    }
}

static void insertion_sort(const sorter *s, long a, long b)
{
    for (long i = a + 1; i < b; i++)
        for (long j = i; j > a && s_less(s, j, j - 1); j--)
            s_swap(s, j, j - 1);
}

static void sift_down(const sorter *s, long lo, long hi, long first)
{
    long root = lo;
    for (;;) {
        long child = 2 * root + 1;
        if (child >= hi)
            break;
        if (child + 1 < hi && s_less(s, first + child, first + child + 1))
            child++;
        if (!s_less(s, first + root, first + child))
            return;
        s_swap(s, first + root, first + child);
        root = child;
    }
}

static void heap_sort(const sorter *s, long a, long b)
{
    long first = a, lo = 0, hi = b - a;
    for (long i = (hi - 1) / 2; i >= 0; i--)
        sift_down(s, i, hi, first);
    for (long i = hi - 1; i >= 0; i--) {
        s_swap(s, first, first + i);
        sift_down(s, lo, i, first);
    }
}

static long partition(const sorter *s, long a, long b, long pivot, bool *already)
{
    s_swap(s, a, pivot);
    long i = a + 1, j = b - 1;
    while (i <= j && s_less(s, i, a))
        i++;
    while (i <= j && !s_less(s, j, a))
        j--;
    if (i > j) {
        s_swap(s, j, a);
        *already = true;
        return j;
    }
    s_swap(s, i, j);
    i++;
    j--;
    for (;;) {
        while (i <= j && s_less(s, i, a))
            i++;
        while (i <= j && !s_less(s, j, a))
            j--;
        if (i > j)
            break;
        s_swap(s, i, j);
        i++;
        j--;
    }
    s_swap(s, j, a);
    *already = false;
    return j;
}

static long partition_equal(const sorter *s, long a, long b, long pivot)
{
    s_swap(s, a, pivot);
    long i = a + 1, j = b - 1;
    for (;;) {
        while (i <= j && !s_less(s, a, i))
            i++;
        while (i <= j && s_less(s, a, j))
            j--;
        if (i > j)
            break;
        s_swap(s, i, j);
        i++;
        j--;
    }
    return i;
}

static bool partial_insertion_sort(const sorter *s, long a, long b)
{
    const int max_steps = 5;
    const long shortest_shifting = 50;
    long i = a + 1;
    for (int step = 0; step < max_steps; step++) {
        while (i < b && !s_less(s, i, i - 1))
            i++;
        if (i == b)
            return true;
        if (b - a < shortest_shifting)
            return false;
        s_swap(s, i, i - 1);
        /* Shift the smaller one to the left (Go's bound is j >= 1, not j > a). */
        if (i - a >= 2) {
            for (long j = i - 1; j >= 1; j--) {
                if (!s_less(s, j, j - 1))
                    break;
                s_swap(s, j, j - 1);
            }
        }
        /* Shift the greater one to the right. */
        if (b - i >= 2) {
            for (long j = i + 1; j < b; j++) {
                if (!s_less(s, j, j - 1))
                    break;
                s_swap(s, j, j - 1);
            }
        }
    }
    return false;
}

static unsigned bits_len(uint64_t x)
{
    unsigned n = 0;
    while (x != 0) {
        n++;
        x >>= 1;
    }
    return n;
}

static void break_patterns(const sorter *s, long a, long b)
{
    long length = b - a;
    if (length >= 8) {
        uint64_t random = (uint64_t)length;
        uint64_t modulus = (uint64_t)1 << bits_len((uint64_t)length);
        for (long idx = a + (length / 4) * 2 - 1; idx <= a + (length / 4) * 2 + 1; idx++) {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            long other = (long)(random & (modulus - 1));
            if (other >= length)
                other -= length;
            s_swap(s, idx, a + other);
        }
    }
}

static void order2(const sorter *s, long *a, long *b, int *swaps)
{
    if (s_less(s, *b, *a)) {
        (*swaps)++;
        long t = *a;
        *a = *b;
        *b = t;
    }
}

static long median(const sorter *s, long a, long b, long c, int *swaps)
{
    order2(s, &a, &b, swaps);
    order2(s, &b, &c, swaps);
    order2(s, &a, &b, swaps);
    return b;
}

static long choose_pivot(const sorter *s, long a, long b, int *hint)
{
    const long shortest_ninther = 50;
    const int max_swaps = 4 * 3;
    long l = b - a;
    int swaps = 0;
    long i = a + l / 4 * 1, j = a + l / 4 * 2, k = a + l / 4 * 3;
    if (l >= 8) {
        if (l >= shortest_ninther) {
            i = median(s, i - 1, i, i + 1, &swaps);
            j = median(s, j - 1, j, j + 1, &swaps);
            k = median(s, k - 1, k, k + 1, &swaps);
        }
        j = median(s, i, j, k, &swaps);
    }
    *hint = swaps == 0 ? INCREASING_HINT : swaps == max_swaps ? DECREASING_HINT : UNKNOWN_HINT;
    return j;
}

static void reverse_range(const sorter *s, long a, long b)
{
    for (long i = a, j = b - 1; i < j; i++, j--)
        s_swap(s, i, j);
}

static void pdqsort(const sorter *s, long a, long b, unsigned limit)
{
    const long max_insertion = 12;
    bool was_balanced = true, was_partitioned = true;
    for (;;) {
        long length = b - a;
        if (length <= max_insertion) {
            insertion_sort(s, a, b);
            return;
        }
        if (limit == 0) {
            heap_sort(s, a, b);
            return;
        }
        if (!was_balanced) {
            break_patterns(s, a, b);
            limit--;
        }
        int hint;
        long pivot = choose_pivot(s, a, b, &hint);
        if (hint == DECREASING_HINT) {
            reverse_range(s, a, b);
            pivot = (b - 1) - (pivot - a);
            hint = INCREASING_HINT;
        }
        if (was_balanced && was_partitioned && hint == INCREASING_HINT) {
            if (partial_insertion_sort(s, a, b))
                return;
        }
        if (a > 0 && !s_less(s, a - 1, pivot)) {
            a = partition_equal(s, a, b, pivot);
            continue;
        }
        bool already;
        long mid = partition(s, a, b, pivot, &already);
        was_partitioned = already;
        long left_len = mid - a, right_len = b - mid;
        long balance_threshold = length / 8;
        if (left_len < right_len) {
            was_balanced = left_len >= balance_threshold;
            pdqsort(s, a, mid, limit);
            a = mid + 1;
        } else {
            was_balanced = right_len >= balance_threshold;
            pdqsort(s, mid + 1, b, limit);
            b = mid;
        }
    }
}

void gtr_go_sort_func(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n < 2)
        return;
    sorter s = {base, size, cmp};
    pdqsort(&s, 0, (long)n, bits_len(n));
}
