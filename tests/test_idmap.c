/* SPDX-License-Identifier: BSD-3-Clause */
/* test_idmap.c: the ID map (libtrace/src/idmap.h): dense and sparse keys, the extremes of
 * the key space, growth and the sliding window, clearing for reuse, the store's stable
 * records and their recycling, and allocation failure at every allocation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "budget_alloc.h"
#include "idmap.h"
#include "mem.h"

/* A small deterministic generator, so that a failure replays. */
static uint64_t rng_next(uint64_t *s)
{
    *s += UINT64_C(0x9e3779b97f4a7c15);
    return gtr__idmap_hash(*s);
}

/* value_of is the value the tests store for key: nonzero, and distinct per key. */
static uint64_t value_of(uint64_t key)
{
    return (key ^ UINT64_C(0x5555555555555555)) | 1;
}

static void test_idmap_dense_keys_stay_in_the_window(void **state)
{
    (void)state;
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    gtr__idmap m = {0};
    for (uint64_t k = 0; k < 10000; k++)
        assert_int_equal(gtr__idmap_put(&m, a, k, value_of(k)), GTR_OK);
    assert_int_equal(m.len, 10000);
    assert_int_equal(m.hlen, 0);   /* counters never reach the hash table */
    assert_true(m.ndense >= 10000 && m.ndense <= 2 * 10000 + 64);
    for (uint64_t k = 0; k < 10000; k++)
        assert_int_equal(gtr__idmap_get(&m, k), value_of(k));
    assert_int_equal(gtr__idmap_get(&m, 10000), 0);
    for (uint64_t k = 0; k < 10000; k += 2)
        assert_int_equal(gtr__idmap_delete(&m, k), value_of(k));
    assert_int_equal(gtr__idmap_delete(&m, 0), 0);   /* already gone */
    for (uint64_t k = 0; k < 10000; k++)
        assert_int_equal(gtr__idmap_get(&m, k), k % 2 ? value_of(k) : 0);
    assert_int_equal(m.len, 5000);
    gtr__idmap_free(&m, a);
    assert_null(m.dense);
}

static void test_idmap_sparse_and_extreme_keys_hash(void **state)
{
    (void)state;
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    gtr__idmap m = {0};
    static const uint64_t extremes[] = {0, UINT64_MAX, UINT64_MAX - 1, UINT64_C(1) << 63,
                                        (UINT64_C(1) << 63) - 1, UINT64_C(0x4000a0)};
    for (size_t i = 0; i < sizeof extremes / sizeof *extremes; i++)
        assert_int_equal(gtr__idmap_put(&m, a, extremes[i], value_of(extremes[i])), GTR_OK);
    uint64_t seed = 1;
    for (int i = 0; i < 5000; i++) {
        uint64_t k = rng_next(&seed);
        if (gtr__idmap_get(&m, k) == 0)
            assert_int_equal(gtr__idmap_put(&m, a, k, value_of(k)), GTR_OK);
    }
    assert_true(m.hlen > 4000);   /* random keys are hashed, not given a huge window */
    assert_true(m.ndense <= 2 * m.len + 64);
    for (size_t i = 0; i < sizeof extremes / sizeof *extremes; i++)
        assert_int_equal(gtr__idmap_get(&m, extremes[i]), value_of(extremes[i]));
    seed = 1;
    for (int i = 0; i < 5000; i++) {
        uint64_t k = rng_next(&seed);
        assert_int_equal(gtr__idmap_get(&m, k), value_of(k));
    }
    assert_int_equal(gtr__idmap_get(&m, 12345), 0);
    for (size_t i = 0; i < sizeof extremes / sizeof *extremes; i++)
        assert_int_equal(gtr__idmap_delete(&m, extremes[i]), value_of(extremes[i]));
    for (size_t i = 0; i < sizeof extremes / sizeof *extremes; i++)
        assert_int_equal(gtr__idmap_get(&m, extremes[i]), 0);
    gtr__idmap_free(&m, a);
}

static void test_idmap_negative_and_positive_ids_around_zero(void **state)
{
    (void)state;
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    gtr__idmap m = {0};
    /* int64 IDs -1000 .. 999 in order: the top of the key space and its bottom, side by side
     * for a signed ID. */
    for (int64_t id = -1000; id < 1000; id++)
        assert_int_equal(gtr__idmap_put(&m, a, (uint64_t)id, value_of((uint64_t)id)), GTR_OK);
    for (int64_t id = -1000; id < 1000; id++)
        assert_int_equal(gtr__idmap_get(&m, (uint64_t)id), value_of((uint64_t)id));
    assert_int_equal(gtr__idmap_get(&m, (uint64_t)-1001), 0);
    assert_int_equal(gtr__idmap_get(&m, 1000), 0);
    uint64_t *keys = NULL;
    assert_int_equal(gtr__idmap_sorted_keys(&m, a, &keys), GTR_OK);
    for (size_t i = 0; i < 2000; i++)
        assert_int_equal((int64_t)keys[i], (int64_t)i - 1000);   /* signed order */
    gtr__free(a, keys);
    gtr__idmap_free(&m, a);
}

/* OS thread IDs: few, close together, far from 0. The window goes to them. */
static void test_idmap_window_starts_at_the_first_far_key(void **state)
{
    (void)state;
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    gtr__idmap m = {0};
    static const uint64_t tids[] = {123456, 123460, 123457, 123470, 123440, 123480, 123458};
    for (size_t i = 0; i < sizeof tids / sizeof *tids; i++)
        assert_int_equal(gtr__idmap_put(&m, a, tids[i], value_of(tids[i])), GTR_OK);
    assert_int_equal(m.hlen, 0);
    for (size_t i = 0; i < sizeof tids / sizeof *tids; i++)
        assert_int_equal(gtr__idmap_get(&m, tids[i]), value_of(tids[i]));
    assert_int_equal(gtr__idmap_get(&m, 123459), 0);
    /* Emptied, the map moves its window to the next first key. */
    for (size_t i = 0; i < sizeof tids / sizeof *tids; i++)
        gtr__idmap_delete(&m, tids[i]);
    assert_int_equal(gtr__idmap_put(&m, a, 7000000, 1), GTR_OK);
    assert_int_equal(gtr__idmap_put(&m, a, 7000001, 2), GTR_OK);
    assert_int_equal(m.hlen, 0);
    gtr__idmap_free(&m, a);
}

/* Keys met in descending order (goroutine statuses listed from the newest) grow the window
 * down, in amortised constant time. */
static void test_idmap_window_grows_down(void **state)
{
    (void)state;
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    gtr__idmap m = {0};
    for (uint64_t k = 200000; k >= 1; k--)
        assert_int_equal(gtr__idmap_put(&m, a, k, value_of(k)), GTR_OK);
    assert_int_equal(m.hlen, 0);
    assert_true(m.ndense <= 2 * m.len + 64);
    for (uint64_t k = 1; k <= 200000; k++)
        assert_int_equal(gtr__idmap_get(&m, k), value_of(k));
    assert_int_equal(gtr__idmap_get(&m, 0), 0);
    gtr__idmap_free(&m, a);
}

/* Goroutine IDs: each new one above the last, the old ones ending. The window follows, so
 * the live IDs stay dense and the memory stays proportional to them. */
static void test_idmap_window_slides_with_growing_keys(void **state)
{
    (void)state;
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    const uint64_t live = 300;
    for (int slides = 1; slides >= 0; slides--) {
        gtr__idmap m = {.slides = slides};
        for (uint64_t k = 1; k <= 200000; k++) {
            assert_int_equal(gtr__idmap_put(&m, a, k, value_of(k)), GTR_OK);
            if (k > live)
                assert_int_equal(gtr__idmap_delete(&m, k - live), value_of(k - live));
        }
        assert_int_equal(m.len, live);
        assert_true(m.ndense <= 4 * live + 64);
        /* Without slides (the default), the window stays where it grew: the keys are hashed. */
        assert_true(slides ? m.hlen < live / 2 : m.hlen == live);
        for (uint64_t k = 200000 - live + 1; k <= 200000; k++)
            assert_int_equal(gtr__idmap_get(&m, k), value_of(k));
        assert_int_equal(gtr__idmap_get(&m, 200000 - live), 0);
        gtr__idmap_free(&m, a);
    }
}

/* An input chooses the keys: after a wide window has emptied, each key one window's width
 * above the last would slide it, at the cost of its width. Slides wait for a quarter of a
 * width of insertions, so this stays linear; without that wait it takes tens of seconds. */
static void test_idmap_slides_cost_a_constant_per_insertion(void **state)
{
    (void)state;
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    gtr__idmap m = {.slides = true};
    for (uint64_t k = 1; k <= 200000; k++)
        assert_int_equal(gtr__idmap_put(&m, a, k, value_of(k)), GTR_OK);
    for (uint64_t k = 2; k <= 200000; k++)   /* goroutine 1 lives on */
        gtr__idmap_delete(&m, k);
    clock_t start = clock();
    uint64_t k = 200000;
    for (int i = 0; i < 5000; i++) {
        k += m.ndense;
        assert_int_equal(gtr__idmap_put(&m, a, k, value_of(k)), GTR_OK);
        assert_int_equal(gtr__idmap_get(&m, k), value_of(k));
        assert_int_equal(gtr__idmap_delete(&m, k), value_of(k));
    }
    assert_int_equal(gtr__idmap_get(&m, 1), value_of(1));
    assert_true((double)(clock() - start) / CLOCKS_PER_SEC < 2.0);
    gtr__idmap_free(&m, a);
}

/* A long-lived ID far below the others (goroutine 1) stays found as the window slides. */
static void test_idmap_old_key_survives_slides(void **state)
{
    (void)state;
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    gtr__idmap m = {.slides = true};
    assert_int_equal(gtr__idmap_put(&m, a, 1, 77), GTR_OK);
    for (uint64_t k = 100; k < 100000; k++) {
        assert_int_equal(gtr__idmap_put(&m, a, k, value_of(k)), GTR_OK);
        if (k >= 150)
            gtr__idmap_delete(&m, k - 50);
        assert_int_equal(gtr__idmap_get(&m, 1), 77);
    }
    assert_int_equal(gtr__idmap_delete(&m, 1), 77);
    gtr__idmap_free(&m, a);
}

/* The map against a plain list, over random operations on keys of every kind. */
static void test_idmap_matches_a_reference_under_random_operations(void **state)
{
    (void)state;
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    enum { N = 2048 };
    static uint64_t ref_key[N], ref_val[N];
    size_t nref = 0;
    gtr__idmap m = {.slides = true};
    uint64_t seed = 42, counter = 0;
    for (int step = 0; step < 60000; step++) {
        uint64_t r = rng_next(&seed), k;
        switch (r % 4) {
        case 0: k = counter++; break;                   /* growing counter */
        case 1: k = r >> 54; break;                     /* small */
        case 2: k = UINT64_MAX - (r >> 56); break;      /* just below 2^64 */
        default: k = rng_next(&seed); break;            /* anywhere */
        }
        size_t i = 0;
        while (i < nref && ref_key[i] != k)
            i++;
        if (i < nref && (r >> 8) % 2 == 0) {
            assert_int_equal(gtr__idmap_delete(&m, k), ref_val[i]);
            ref_key[i] = ref_key[nref - 1];
            ref_val[i] = ref_val[--nref];
        } else if (i == nref && nref < N) {
            uint64_t v = (r >> 1) | 1;
            assert_int_equal(gtr__idmap_put(&m, a, k, v), GTR_OK);
            ref_key[nref] = k;
            ref_val[nref++] = v;
        } else if (i < nref) {
            assert_int_equal(gtr__idmap_get(&m, k), ref_val[i]);
        }
        assert_int_equal(m.len, nref);
    }
    for (size_t i = 0; i < nref; i++)
        assert_int_equal(gtr__idmap_get(&m, ref_key[i]), ref_val[i]);
    /* Iteration visits each entry once. */
    size_t pos = 0, seen = 0;
    uint64_t k, v;
    while (gtr__idmap_next(&m, &pos, &k, &v)) {
        size_t i = 0;
        while (i < nref && ref_key[i] != k)
            i++;
        assert_true(i < nref);
        assert_int_equal(v, ref_val[i]);
        seen++;
    }
    assert_int_equal(seen, nref);
    gtr__idmap_free(&m, a);
}

/* One map serves one generation after another: clear keeps the memory. */
static void test_idmap_clear_empties_and_keeps_memory(void **state)
{
    (void)state;
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    gtr__idmap m = {0};
    for (int gen = 0; gen < 3; gen++) {
        uint64_t first = (uint64_t)gen * 1000;
        for (uint64_t k = first; k < first + 500; k++)
            assert_int_equal(gtr__idmap_put(&m, a, k, value_of(k)), GTR_OK);
        assert_int_equal(gtr__idmap_put(&m, a, UINT64_MAX - (uint64_t)gen, 5), GTR_OK);
        for (uint64_t k = first; k < first + 500; k++)
            assert_int_equal(gtr__idmap_get(&m, k), value_of(k));
        assert_int_equal(gtr__idmap_get(&m, UINT64_MAX - (uint64_t)gen), 5);
        uint64_t *dense = m.dense, *hvals = m.hvals;
        gtr__idmap_clear(&m);
        assert_ptr_equal(m.dense, dense);
        assert_ptr_equal(m.hvals, hvals);
        assert_int_equal(m.len, 0);
        for (uint64_t k = first; k < first + 500; k++)
            assert_int_equal(gtr__idmap_get(&m, k), 0);
        assert_int_equal(gtr__idmap_get(&m, UINT64_MAX - (uint64_t)gen), 0);
        size_t pos = 0;
        uint64_t k, v;
        assert_false(gtr__idmap_next(&m, &pos, &k, &v));
    }
    gtr__idmap_free(&m, a);
}

/* Index maps (Ps, stacks, strings, PCs -> their index in an array): the first index put
 * stays, index 0 included; negative fake P IDs and huge keys alike. */
static void test_idmap_index_keeps_the_first_index(void **state)
{
    (void)state;
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    gtr__idmap m = {0};
    uint64_t keys[300];
    size_t n = 0;
    for (int64_t p = -16; p < 200; p++)
        keys[n++] = (uint64_t)p;
    keys[n++] = (uint64_t)1 << 40;
    keys[n++] = UINT64_C(1) << 63;   /* INT64_MIN (-1 is UINT64_MAX, above) */
    keys[n++] = UINT64_C(0x4a3b2c);
    size_t idx;
    bool found;
    for (size_t i = 0; i < n; i++) {
        assert_false(gtr__idmap_get_index(&m, keys[i], &idx));
        assert_int_equal(gtr__idmap_put_index(&m, a, keys[i], i, &idx, &found), GTR_OK);
        assert_false(found);
        assert_int_equal(idx, i);
    }
    for (size_t i = 0; i < n; i++) {
        assert_true(gtr__idmap_get_index(&m, keys[i], &idx));
        assert_int_equal(idx, i);
        assert_int_equal(gtr__idmap_put_index(&m, a, keys[i], n + i, &idx, &found), GTR_OK);
        assert_true(found);
        assert_int_equal(idx, i);
    }
    assert_false(gtr__idmap_get_index(&m, 200, &idx));
    assert_false(gtr__idmap_get_index(&m, ((uint64_t)1 << 40) + 1, &idx));
    assert_int_equal(m.len, n);
    gtr__idmap_free(&m, a);

    budget b = {0};
    gtr_alloc none = budget_alloc(&b);
    assert_int_equal(gtr__idmap_put_index(&m, &none, 3, 0, &idx, &found), GTR_E_NOMEM);
    assert_false(gtr__idmap_get_index(&m, 3, &idx));
    gtr__idmap_free(&m, &none);
}

typedef struct rec {
    uint64_t id;
    char *buf;   /* a buffer the record owns, kept when it is recycled */
} rec;

static size_t fini_calls;

static void rec_fini(const gtr_alloc *a, void *p)
{
    rec *r = p;
    gtr__free(a, r->buf);
    fini_calls++;
}

static void test_idstore_records_never_move_and_are_recycled(void **state)
{
    (void)state;
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    gtr__idstore s;
    gtr__idstore_init(&s, a, sizeof(rec));
    s.map.slides = true;
    rec *first = gtr__idstore_insert(&s, 5);
    assert_non_null(first);
    assert_int_equal(first->id, 0);   /* fresh: zeroed */
    assert_null(first->buf);
    first->id = 5;
    first->buf = gtr__strndup(a, "five", 4);
    rec *far = gtr__idstore_insert(&s, UINT64_MAX);
    assert_non_null(far);
    far->id = UINT64_MAX;
    /* Dense growth, hash growth and window slides all happen under these. */
    for (uint64_t k = 6; k < 20000; k++) {
        rec *r = gtr__idstore_insert(&s, k * 3);
        assert_non_null(r);
        r->id = k * 3;
        if (k > 100)
            gtr__idstore_delete(&s, (k - 100) * 3);
    }
    assert_ptr_equal(gtr__idstore_get(&s, 5), first);
    assert_ptr_equal(gtr__idstore_get(&s, UINT64_MAX), far);
    assert_string_equal(first->buf, "five");
    assert_int_equal(far->id, UINT64_MAX);
    /* A deleted record comes back, buffers and all, to the next key inserted. */
    gtr__idstore_delete(&s, 5);
    assert_null(gtr__idstore_get(&s, 5));
    rec *again = gtr__idstore_insert(&s, 7);
    assert_ptr_equal(again, first);
    assert_string_equal(again->buf, "five");
    /* Iteration finds each present record. */
    size_t pos = 0, n = 0;
    uint64_t k;
    void *v;
    while (gtr__idstore_next(&s, &pos, &k, &v)) {
        rec *r = v;
        assert_true(k == 7 || r->id == k);
        n++;
    }
    assert_int_equal(n, s.map.len);
    size_t records = s.nrecords;
    fini_calls = 0;
    gtr__idstore_destroy(&s, rec_fini);
    assert_int_equal(fini_calls, records);   /* deleted records too */
}

/* The same work under an allocator that fails after n allocations, for every n up to the
 * work's need: each failure is reported, and the map keeps exactly what went in before. */
static void test_idmap_allocation_failure_is_reported_and_harmless(void **state)
{
    (void)state;
    for (int n = 0;; n++) {
        budget b = {n};
        gtr_alloc a = budget_alloc(&b);
        gtr__idmap m = {0};
        uint64_t seed = 7, inserted = 0;
        bool failed = false;
        for (uint64_t i = 0; i < 3000 && !failed; i++) {
            uint64_t k = i % 3 == 0 ? rng_next(&seed) : i;
            gtr_status st = gtr__idmap_put(&m, &a, k, value_of(k));
            if (st != GTR_OK) {
                assert_int_equal(st, GTR_E_NOMEM);
                assert_int_equal(gtr__idmap_get(&m, k), 0);
                failed = true;
            } else {
                inserted++;
            }
        }
        assert_int_equal(m.len, inserted);
        seed = 7;
        for (uint64_t i = 0; i < inserted; i++) {
            uint64_t k = i % 3 == 0 ? rng_next(&seed) : i;
            assert_int_equal(gtr__idmap_get(&m, k), value_of(k));
        }
        gtr__idmap_free(&m, &a);
        if (!failed)
            break;
        assert_true(n < 1000);
    }
}

static void test_idstore_allocation_failure_is_reported_and_harmless(void **state)
{
    (void)state;
    for (int n = 0;; n++) {
        budget b = {n};
        gtr_alloc a = budget_alloc(&b);
        gtr__idstore s;
        gtr__idstore_init(&s, &a, sizeof(rec));
        uint64_t inserted = 0;
        bool failed = false;
        for (uint64_t k = 0; k < 2000 && !failed; k++) {
            rec *r = gtr__idstore_insert(&s, k * 1000003);
            if (r == NULL) {
                assert_null(gtr__idstore_get(&s, k * 1000003));
                failed = true;
            } else {
                r->id = k;
                inserted++;
            }
        }
        assert_int_equal(s.map.len, inserted);
        for (uint64_t k = 0; k < inserted; k++) {
            rec *r = gtr__idstore_get(&s, k * 1000003);
            assert_non_null(r);
            assert_int_equal(r->id, k);
        }
        gtr__idstore_destroy(&s, NULL);
        if (!failed)
            break;
        assert_true(n < 1000);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idmap_dense_keys_stay_in_the_window),
        cmocka_unit_test(test_idmap_sparse_and_extreme_keys_hash),
        cmocka_unit_test(test_idmap_negative_and_positive_ids_around_zero),
        cmocka_unit_test(test_idmap_window_starts_at_the_first_far_key),
        cmocka_unit_test(test_idmap_window_grows_down),
        cmocka_unit_test(test_idmap_window_slides_with_growing_keys),
        cmocka_unit_test(test_idmap_slides_cost_a_constant_per_insertion),
        cmocka_unit_test(test_idmap_old_key_survives_slides),
        cmocka_unit_test(test_idmap_matches_a_reference_under_random_operations),
        cmocka_unit_test(test_idmap_clear_empties_and_keeps_memory),
        cmocka_unit_test(test_idmap_index_keeps_the_first_index),
        cmocka_unit_test(test_idstore_records_never_move_and_are_recycled),
        cmocka_unit_test(test_idmap_allocation_failure_is_reported_and_harmless),
        cmocka_unit_test(test_idstore_allocation_failure_is_reported_and_harmless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
