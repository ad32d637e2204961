/* SPDX-License-Identifier: BSD-3-Clause */
/* test_base.c: status codes (gtr_err itself: test_err.c), gtr_buf (growth, printf, uvarint,
 * sticky allocation failure, take) and sinks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gtr/buf.h"
#include "gtr/status.h"

static void test_status_names_and_signs(void **state)
{
    (void)state;
    assert_string_equal(gtr_status_name(GTR_OK), "GTR_OK");
    assert_string_equal(gtr_status_name(GTR_EOF), "GTR_EOF");
    assert_string_equal(gtr_status_name(GTR_E_LIMIT), "GTR_E_LIMIT");
    assert_string_equal(gtr_status_name((gtr_status)-99), "GTR_E_UNKNOWN");
    assert_string_equal(gtr_status_text(GTR_E_NOMEM), "out of memory");
    assert_true(GTR_EOF > 0);
    assert_true(GTR_E_FORMAT < 0 && GTR_E_IO < 0 && GTR_E_NOMEM < 0);
}

static void *fail_malloc(void *ctx, size_t n)
{
    (void)ctx;
    (void)n;
    return NULL;
}

static void *fail_realloc(void *ctx, void *p, size_t n)
{
    (void)ctx;
    (void)p;
    (void)n;
    return NULL;
}

static void plain_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static void test_buf_appends_printf_uvarint_and_take(void **state)
{
    (void)state;
    gtr_buf b;
    gtr_buf_init(&b, NULL);
    assert_null(b.data);
    for (int i = 0; i < 10000; i++)
        gtr_buf_putc(&b, (char)('a' + i % 26));
    assert_int_equal(b.len, 10000);
    assert_int_equal(b.data[b.len], '\0');
    gtr_buf_reset(&b);
    gtr_buf_printf(&b, "%s=%llu", "dt", 18446744073709551615ull);
    gtr_buf_puts(&b, "!");
    assert_string_equal(b.data, "dt=18446744073709551615!");
    gtr_buf_reset(&b);
    const struct {
        uint64_t v;
        const char *enc;
        size_t n;
    } uv[] = {{0, "\x00", 1}, {127, "\x7f", 1}, {128, "\x80\x01", 2}, {300, "\xac\x02", 2},
              {UINT64_MAX, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10}};
    for (size_t i = 0; i < 5; i++) {
        gtr_buf_reset(&b);
        assert_int_equal(gtr_buf_put_uvarint(&b, uv[i].v), GTR_OK);
        assert_int_equal(b.len, uv[i].n);
        assert_memory_equal(b.data, uv[i].enc, uv[i].n);
    }
    size_t n;
    char *p = gtr_buf_take(&b, &n);
    assert_int_equal(n, 10);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    free(p);
    gtr_buf_free(&b);
}

static void test_buf_allocation_failure_is_sticky(void **state)
{
    (void)state;
    gtr_alloc a = {fail_malloc, fail_realloc, plain_free, NULL};
    gtr_buf b;
    gtr_buf_init(&b, &a);
    assert_int_equal(gtr_buf_puts(&b, "x"), GTR_E_NOMEM);
    assert_true(b.failed);
    assert_int_equal(gtr_buf_putc(&b, 'y'), GTR_E_NOMEM);
    assert_int_equal(gtr_buf_status(&b), GTR_E_NOMEM);
    gtr_buf_reset(&b);
    assert_int_equal(gtr_buf_status(&b), GTR_OK);
    gtr_buf_free(&b);
    /* An impossible size fails instead of wrapping around. */
    gtr_buf c;
    gtr_buf_init(&c, NULL);
    gtr_buf_puts(&c, "abc");
    assert_int_equal(gtr_buf_reserve(&c, SIZE_MAX - 2), GTR_E_NOMEM);
    gtr_buf_free(&c);
}

static void test_sinks_deliver_bytes(void **state)
{
    (void)state;
    gtr_buf b;
    gtr_buf_init(&b, NULL);
    gtr_sink s = gtr_sink_buf(&b);
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(s.write(s.ctx, "hello ", 6, &err), GTR_OK);
    assert_int_equal(s.write(s.ctx, "world", 5, &err), GTR_OK);
    assert_string_equal(b.data, "hello world");
    gtr_buf_free(&b);
    FILE *f = tmpfile();
    gtr_sink fs = gtr_sink_file(f);
    assert_int_equal(fs.write(fs.ctx, "abc", 3, &err), GTR_OK);
    fflush(f);
    rewind(f);
    char got[4] = {0};
    assert_int_equal(fread(got, 1, 3, f), 3);
    assert_string_equal(got, "abc");
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_names_and_signs),
        cmocka_unit_test(test_buf_appends_printf_uvarint_and_take),
        cmocka_unit_test(test_buf_allocation_failure_is_sticky),
        cmocka_unit_test(test_sinks_deliver_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
