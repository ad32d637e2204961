/* SPDX-License-Identifier: BSD-3-Clause */
/* test_base.c: status codes, gtr_err (setf, wrapf as fmt.Errorf("...: %w"), truncation,
 * copy), gtr_buf (growth, printf, uvarint, sticky allocation failure, take) and sinks. */
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

static void test_err_setf_and_wrapf_compose_like_go(void **state)
{
    (void)state;
    gtr_err err;
    gtr_err_clear(&err);
    assert_int_equal(err.code, GTR_OK);
    assert_string_equal(err.msg, "");
    assert_int_equal(gtr_err_setf(&err, GTR_E_FORMAT, "invalid event type: %d", 45),
                     GTR_E_FORMAT);
    assert_string_equal(err.msg, "invalid event type: 45");
    assert_false(err.truncated);
    assert_int_equal(gtr_err_wrapf(&err, "reading frame %d's PC for stack %d", 2, 7),
                     GTR_E_FORMAT);
    assert_string_equal(err.msg, "reading frame 2's PC for stack 7: invalid event type: 45");
    assert_int_equal(gtr_err_wrapf(&err, "outer"), GTR_E_FORMAT);
    assert_string_equal(err.msg,
                        "outer: reading frame 2's PC for stack 7: invalid event type: 45");
    /* A wrap keeps the code of the wrapped error. */
    gtr_err_setf(&err, GTR_E_IO, "read x: broken pipe");
    assert_int_equal(gtr_err_wrapf(&err, "ctx"), GTR_E_IO);
    /* NULL err: codes still flow. */
    assert_int_equal(gtr_err_setf(NULL, GTR_E_ORDER, "x"), GTR_E_ORDER);
    assert_int_equal(gtr_err_wrapf(NULL, "x"), GTR_E_FORMAT);
    gtr_err copy;
    gtr_err_copy(&copy, &err);
    assert_int_equal(copy.code, GTR_E_IO);
    assert_string_equal(copy.msg, "ctx: read x: broken pipe");
    gtr_err_copy(&copy, NULL);
    assert_int_equal(copy.code, GTR_OK);
}

static void test_err_long_messages_truncate_keeping_the_head(void **state)
{
    (void)state;
    gtr_err err;
    char big[GTR_ERR_MSG_CAP * 2];
    memset(big, 'd', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    gtr_err_setf(&err, GTR_E_ORDER, "broken trace: %s", big);
    assert_true(err.truncated);
    assert_int_equal(strlen(err.msg), GTR_ERR_MSG_CAP - 1);
    assert_memory_equal(err.msg, "broken trace: ddd", 17);
    /* Wrapping a full message keeps the prefix and cuts the tail. */
    gtr_err_wrapf(&err, "context");
    assert_true(err.truncated);
    assert_int_equal(strlen(err.msg), GTR_ERR_MSG_CAP - 1);
    assert_memory_equal(err.msg, "context: broken trace: ", 23);
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
    gtr_err err;
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
        cmocka_unit_test(test_err_setf_and_wrapf_compose_like_go),
        cmocka_unit_test(test_err_long_messages_truncate_keeping_the_head),
        cmocka_unit_test(test_buf_appends_printf_uvarint_and_take),
        cmocka_unit_test(test_buf_allocation_failure_is_sticky),
        cmocka_unit_test(test_sinks_deliver_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
