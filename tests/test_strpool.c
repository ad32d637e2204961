/* SPDX-License-Identifier: BSD-3-Clause */
/* test_strpool.c: the pool of interned strings (libtrace/src/strpool.c): equal texts intern to
 * one pointer, copies are stable as the pool grows, NUL bytes and the empty string are texts
 * like any other, and running out of memory is reported and leaves the pool usable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "budget_alloc.h"
#include "strpool.h"

static void test_strpool_equal_texts_share_one_copy(void **state)
{
    (void)state;
    gtr__strpool p = {0};
    const gtr_alloc *a = gtr_alloc_libc();
    char buf[] = "region";
    assert_null(gtr__strpool_find(&p, "region", 6));
    const char *x = gtr__strpool_intern(&p, a, buf, 6);
    assert_non_null(x);
    assert_ptr_not_equal(x, buf);   /* a copy, not the caller's bytes */
    buf[0] = 'R';
    assert_string_equal(x, "region");
    assert_ptr_equal(gtr__strpool_intern(&p, a, "region", 6), x);
    assert_ptr_equal(gtr__strpool_find(&p, "region", 6), x);
    assert_null(gtr__strpool_find(&p, "regio", 5));
    const char *y = gtr__strpool_intern(&p, a, "regio", 5);
    assert_ptr_not_equal(x, y);
    gtr__strpool_free(&p, a);
    assert_int_equal(p.cap, 0);
}

static void test_strpool_empty_and_nul_bytes_are_texts(void **state)
{
    (void)state;
    gtr__strpool p = {0};
    const gtr_alloc *a = gtr_alloc_libc();
    const char *e = gtr__strpool_intern(&p, a, "", 0);
    assert_non_null(e);
    assert_string_equal(e, "");
    const char *n1 = gtr__strpool_intern(&p, a, "a\0b", 3);
    const char *n2 = gtr__strpool_intern(&p, a, "a\0c", 3);
    const char *n3 = gtr__strpool_intern(&p, a, "a", 1);
    assert_ptr_not_equal(n1, n2);
    assert_ptr_not_equal(n1, n3);
    assert_memory_equal(n1, "a\0b", 4);
    assert_ptr_equal(gtr__strpool_find(&p, "a\0b", 3), n1);
    assert_ptr_equal(gtr__strpool_find(&p, "", 0), e);
    gtr__strpool_free(&p, a);
}

static void test_strpool_copies_stay_put_as_it_grows(void **state)
{
    (void)state;
    enum { N = 5000 };
    static const char *kept[N];
    gtr__strpool p = {0};
    const gtr_alloc *a = gtr_alloc_libc();
    char t[32];
    for (int i = 0; i < N; i++) {
        int n = snprintf(t, sizeof t, "name-%d", i);
        kept[i] = gtr__strpool_intern(&p, a, t, (size_t)n);
        assert_non_null(kept[i]);
    }
    assert_int_equal(p.len, N);
    assert_true(p.cap >= 2 * N);
    for (int i = 0; i < N; i++) {
        int n = snprintf(t, sizeof t, "name-%d", i);
        assert_string_equal(kept[i], t);
        assert_ptr_equal(gtr__strpool_find(&p, t, (size_t)n), kept[i]);
        assert_ptr_equal(gtr__strpool_intern(&p, a, t, (size_t)n), kept[i]);
    }
    assert_int_equal(p.len, N);
    gtr__strpool_free(&p, a);
}

static void test_strpool_out_of_memory_is_reported(void **state)
{
    (void)state;
    /* Each budget fails one allocation further on: the table's, then a copy's. */
    for (int n = 0; n < 6; n++) {
        budget b = {n};
        gtr_alloc a = budget_alloc(&b);
        gtr__strpool p = {0};
        const char *got[4] = {0};
        static const char *texts[4] = {"a", "b", "c", "d"};
        int ok = 0;
        for (int i = 0; i < 4; i++) {
            got[i] = gtr__strpool_intern(&p, &a, texts[i], 1);
            if (got[i] != NULL)
                ok++;
        }
        assert_true(ok < 4 || n >= 5);
        /* What was interned is still there, and nothing else. */
        for (int i = 0; i < 4; i++)
            assert_ptr_equal(gtr__strpool_find(&p, texts[i], 1), got[i]);
        assert_int_equal(p.len, (size_t)ok);
        gtr__strpool_free(&p, &a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strpool_equal_texts_share_one_copy),
        cmocka_unit_test(test_strpool_empty_and_nul_bytes_are_texts),
        cmocka_unit_test(test_strpool_copies_stay_put_as_it_grows),
        cmocka_unit_test(test_strpool_out_of_memory_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
