/* SPDX-License-Identifier: BSD-3-Clause */
/* test_heap.c: the frontier min-heap (Go's TestHeap) and Go's slices.SortFunc order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base.h"
#include "batchcursor.h"
#include "gtr/sort.h"

#define NCURSORS 64

static gtr__batch_cursor cursors[NCURSORS];
static size_t ncursors;

static gtr__batch_cursor *make_cursor(int64_t v)
{
    assert_true(ncursors < NCURSORS);
    gtr__batch_cursor *bc = &cursors[ncursors++];
    memset(bc, 0, sizeof *bc);
    bc->ev.time = v;
    return bc;
}

/* check_heap is Go's checkHeap: every parent is no later than its children; and each entry
 * holds its cursor's time. */
static void check_heap(gtr__heap_entry *heap, size_t n)
{
    for (size_t i = 0; i < n; i++)
        assert_int_equal(heap[i].time, heap[i].bc->ev.time);
    for (size_t i = 1; i < n; i++)
        assert_true(gtr__batch_cursor_compare(heap[(i - 1) / 2].bc, heap[i].bc) <= 0);
}

static void test_heap_insert_update_remove_keeps_order(void **state)
{
    (void)state;
    gtr__heap_entry heap[NCURSORS];
    size_t n = 0;
    ncursors = 0;

    /* Insert a bunch of values into the heap. */
    check_heap(heap, n);
    gtr__heap_insert(heap, &n, make_cursor(5));
    check_heap(heap, n);
    for (int64_t i = -20; i < 20; i++) {
        gtr__heap_insert(heap, &n, make_cursor(i));
        check_heap(heap, n);
    }
    assert_int_equal(n, 41);

    /* Update an element in the middle to be the new minimum. */
    for (size_t i = 0; i < n; i++) {
        if (heap[i].bc->ev.time == 5) {
            heap[i].bc->ev.time = -21;
            gtr__heap_update(heap, n, i);
            break;
        }
    }
    check_heap(heap, n);
    assert_int_equal(heap[0].bc->ev.time, -21);

    /* Update the minimum element to be smaller. There should be no change. */
    heap[0].bc->ev.time = -22;
    gtr__heap_update(heap, n, 0);
    check_heap(heap, n);
    assert_int_equal(heap[0].bc->ev.time, -22);

    /* Update the last element to be larger. There should be no change. */
    heap[n - 1].bc->ev.time = 21;
    gtr__heap_update(heap, n, n - 1);
    check_heap(heap, n);
    assert_int_equal(heap[n - 1].bc->ev.time, 21);

    /* Update the last element to be smaller. */
    heap[n - 1].bc->ev.time = 7;
    gtr__heap_update(heap, n, n - 1);
    check_heap(heap, n);
    assert_int_not_equal(heap[n - 1].bc->ev.time, 21);

    /* Remove an element in the middle. */
    for (size_t i = 0; i < n; i++) {
        if (heap[i].bc->ev.time == 5) {
            gtr__heap_remove(heap, &n, i);
            break;
        }
    }
    check_heap(heap, n);
    for (size_t i = 0; i < n; i++)
        assert_int_not_equal(heap[i].bc->ev.time, 5);

    /* Remove the tail. */
    gtr__heap_remove(heap, &n, n - 1);
    check_heap(heap, n);

    /* Remove from the head, and make sure the result is sorted. */
    size_t l = n;
    gtr__batch_cursor *removed[NCURSORS];
    for (size_t i = 0; i < l; i++) {
        removed[i] = heap[0].bc;
        gtr__heap_remove(heap, &n, 0);
        check_heap(heap, n);
    }
    assert_int_equal(n, 0);
    for (size_t i = 1; i < l; i++)
        assert_true(gtr__batch_cursor_compare(removed[i - 1], removed[i]) <= 0);
}

/* Equal times: the heap's sift steps decide which cursor surfaces; Go's min3 prefers the
 * parent, then the left child. */
static void test_heap_equal_times_keep_go_tie_order(void **state)
{
    (void)state;
    gtr__heap_entry heap[NCURSORS];
    size_t n = 0;
    ncursors = 0;
    gtr__batch_cursor *a = make_cursor(10), *b = make_cursor(10), *c = make_cursor(10);
    gtr__heap_insert(heap, &n, a);
    gtr__heap_insert(heap, &n, b);
    gtr__heap_insert(heap, &n, c);
    /* Nothing moves on equal times. */
    assert_ptr_equal(heap[0].bc, a);
    assert_ptr_equal(heap[1].bc, b);
    assert_ptr_equal(heap[2].bc, c);
    /* Removing the root sifts the last element (c) down past nothing: c becomes root. */
    gtr__heap_remove(heap, &n, 0);
    assert_ptr_equal(heap[0].bc, c);
    assert_ptr_equal(heap[1].bc, b);
}

/* Go's heap, transcribed literally (swaps, min3 with maxTime): the reference the library's
 * hole-moving sifts must match element for element. */
static size_t ref_min3(gtr__batch_cursor **b, size_t n, size_t i0, size_t i1, size_t i2)
{
    size_t min_idx = i0;
    int64_t min_t = INT64_MAX;
    if (i0 < n)
        min_t = b[i0]->ev.time;
    if (i1 < n && b[i1]->ev.time < min_t) {
        min_t = b[i1]->ev.time;
        min_idx = i1;
    }
    if (i2 < n && b[i2]->ev.time < min_t)
        min_idx = i2;
    return min_idx;
}

static void ref_swap(gtr__batch_cursor **h, size_t i, size_t j)
{
    gtr__batch_cursor *t = h[i];
    h[i] = h[j];
    h[j] = t;
}

static size_t ref_up(gtr__batch_cursor **h, size_t i)
{
    while (i > 0 && h[(i - 1) / 2]->ev.time > h[i]->ev.time) {
        ref_swap(h, (i - 1) / 2, i);
        i = (i - 1) / 2;
    }
    return i;
}

static void ref_down(gtr__batch_cursor **h, size_t n, size_t i)
{
    for (;;) {
        size_t m = ref_min3(h, n, i, 2 * i + 1, 2 * i + 2);
        if (m == i)
            break;
        ref_swap(h, i, m);
        i = m;
    }
}

/* Random inserts, updates (a cursor's time moved either way) and removals, with times from
 * a small range so that ties are everywhere: after each step the heap equals Go's. */
static void test_heap_matches_go_heap_step_by_step(void **state)
{
    (void)state;
    gtr__heap_entry heap[NCURSORS];
    gtr__batch_cursor *ref[NCURSORS];
    size_t n = 0, rn = 0;
    uint64_t rng = 0x9e3779b97f4a7c15u;
    ncursors = 0;
    for (int step = 0; step < 200000; step++) {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        unsigned op = (unsigned)(rng % 8);
        int64_t t = (int64_t)((rng >> 8) % 6);
        if (n == 0 || (op < 2 && n < NCURSORS)) {
            gtr__batch_cursor *bc = NULL;   /* the first cursor not in the heap */
            for (size_t k = 0; k < NCURSORS && bc == NULL; k++) {
                gtr__batch_cursor *c = &cursors[k];
                bool used = false;
                for (size_t j = 0; j < n; j++)
                    used = used || heap[j].bc == c;
                if (!used)
                    bc = c;
            }
            assert_non_null(bc);
            bc->ev.time = t;
            gtr__heap_insert(heap, &n, bc);
            ref[rn++] = bc;
            ref_up(ref, rn - 1);
        } else if (op < 7) {
            size_t i = (size_t)((rng >> 20) % n);
            if (op < 5)
                i = 0;   /* the reader's common case: the head moves on */
            heap[i].bc->ev.time = t;
            gtr__heap_update(heap, n, i);
            if (ref_up(ref, i) == i)
                ref_down(ref, rn, i);
        } else {
            size_t i = (size_t)((rng >> 20) % n);
            gtr__heap_remove(heap, &n, i);
            while (i > 0) {
                ref_swap(ref, (i - 1) / 2, i);
                i = (i - 1) / 2;
            }
            ref_swap(ref, 0, rn - 1);
            rn--;
            ref_down(ref, rn, 0);
        }
        assert_int_equal(n, rn);
        for (size_t j = 0; j < n; j++)
            assert_ptr_equal(heap[j].bc, ref[j]);
    }
}

typedef struct keyed {
    int64_t t, id;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    int64_t x = ((const keyed *)a)->t, y = ((const keyed *)b)->t;
    return (x > y) - (x < y);
}

/* The expected orders were printed by Go 1.27.3's slices.SortFunc on the same inputs. */
static void test_heap_sort_func_ties_match_go(void **state)
{
    (void)state;
    static const int64_t want1[200] = {
        0, 130, 143, 91, 39, 195, 156, 65, 52, 26, 104, 169, 182, 13, 78, 117, 111, 176, 124,
        150, 20, 46, 59, 189, 163, 137, 7, 98, 72, 33, 85, 170, 53, 157, 105, 79, 144, 1, 183,
        27, 40, 14, 66, 118, 131, 196, 92, 8, 86, 21, 164, 151, 177, 125, 190, 47, 112, 73, 99,
        138, 60, 34, 132, 184, 106, 15, 54, 67, 119, 93, 171, 197, 2, 158, 41, 28, 80, 145, 100,
        191, 152, 35, 139, 165, 22, 126, 74, 87, 48, 178, 113, 61, 9, 55, 133, 16, 120, 29, 68,
        159, 146, 172, 81, 198, 3, 42, 185, 107, 94, 10, 140, 23, 166, 62, 114, 49, 179, 36,
        101, 127, 192, 75, 153, 88, 108, 82, 121, 95, 69, 173, 160, 30, 43, 147, 134, 186, 56,
        4, 199, 17, 63, 193, 180, 37, 167, 102, 141, 24, 11, 89, 115, 128, 76, 50, 154, 109, 18,
        31, 83, 5, 70, 161, 96, 148, 187, 57, 122, 135, 174, 44, 51, 103, 25, 129, 168, 90, 194,
        64, 155, 116, 38, 181, 12, 142, 77, 58, 162, 110, 188, 136, 6, 97, 19, 149, 123, 32, 71,
        175, 84, 45};
    static const int64_t want2[60] = {
        59, 58, 57, 56, 55, 54, 53, 52, 49, 51, 50, 46, 47, 48, 43, 45, 44, 40, 42, 41,
        39, 38, 37, 36, 35, 34, 31, 33, 32, 29, 30, 28, 27, 26, 25, 24, 23, 22, 19, 21,
        20, 16, 17, 18, 13, 15, 14, 10, 12, 11, 9,  8,  7,  6,  5,  4,  3,  2,  1,  0};
    keyed x[200];
    for (int64_t i = 0; i < 200; i++) {
        x[i].t = (i * 7919) % 13;
        x[i].id = i;
    }
    gtr_go_sort_func(x, 200, sizeof x[0], keyed_cmp);
    for (size_t i = 0; i < 200; i++)
        assert_int_equal(x[i].id, want1[i]);

    keyed y[60];
    for (int64_t i = 0; i < 60; i++) {
        y[i].t = (60 - i) / 3;
        y[i].id = i;
    }
    gtr_go_sort_func(y, 60, sizeof y[0], keyed_cmp);
    for (size_t i = 0; i < 60; i++)
        assert_int_equal(y[i].id, want2[i]);
}

/* gtr__heap_update_root with its memo against gtr__heap_update(0) on a twin heap, through
 * random root moves, updates elsewhere, inserts and removes with many equal times: the same
 * layout after every step, and the memo answered most root updates. */
static void test_heap_update_root_memo_is_update(void **state)
{
    (void)state;
    gtr__batch_cursor a[NCURSORS], b[NCURSORS];
    gtr__heap_entry ha[NCURSORS], hb[NCURSORS];
    uint64_t rng = 0x853c49e6748fea9bu;
    size_t hits = 0, root_updates = 0;
    for (int round = 0; round < 300; round++) {
        size_t n = 0, nb = 0, used = 0;
        gtr__heap_root_memo memo = {0, false};
        for (int step = 0; step < 400; step++) {
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            unsigned op = (unsigned)(rng >> 60);
            int64_t t = (int64_t)((rng >> 20) % 8);   /* few values: many ties */
            if (n == 0 || (op < 2 && used < NCURSORS)) {
                if (used == NCURSORS)
                    break;
                memset(&a[used], 0, sizeof a[used]);
                memset(&b[used], 0, sizeof b[used]);
                a[used].ev.time = b[used].ev.time = t;
                gtr__heap_insert(ha, &n, &a[used]);
                gtr__heap_insert(hb, &nb, &b[used]);
                used++;
                memo.ok = false;
            } else if (op < 3) {
                size_t i = (size_t)(rng >> 8) % n;
                gtr__heap_remove(ha, &n, i);
                gtr__heap_remove(hb, &nb, i);
                memo.ok = false;
            } else if (op < 5 && n > 1) {
                size_t i = 1 + (size_t)(rng >> 8) % (n - 1);
                ha[i].bc->ev.time = hb[i].bc->ev.time = t;
                gtr__heap_update(ha, n, i);
                gtr__heap_update(hb, nb, i);
                memo.ok = false;
            } else {
                /* The root's cursor moves on: its time grows (or stays), as a batch's do. */
                ha[0].bc->ev.time += t >> 2;
                hb[0].bc->ev.time += t >> 2;
                bool was = memo.ok && ha[0].bc->ev.time <= memo.kids_min;
                gtr__heap_update_root(ha, n, &memo);
                gtr__heap_update(hb, nb, 0);
                root_updates++;
                hits += was;
            }
            assert_int_equal(n, nb);
            for (size_t i = 0; i < n; i++)
                assert_int_equal(ha[i].bc - a, hb[i].bc - b);
            for (size_t i = 0; i < n; i++)
                assert_int_equal(ha[i].time, ha[i].bc->ev.time);
        }
    }
    assert_true(root_updates > 10000);
    /* Both kinds of root update happened: the memo's answer, and the full sift. */
    assert_true(hits * 3 > root_updates);
    assert_true(hits * 10 < root_updates * 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heap_insert_update_remove_keeps_order),
        cmocka_unit_test(test_heap_equal_times_keep_go_tie_order),
        cmocka_unit_test(test_heap_matches_go_heap_step_by_step),
        cmocka_unit_test(test_heap_sort_func_ties_match_go),
        cmocka_unit_test(test_heap_update_root_memo_is_update),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
