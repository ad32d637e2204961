/* SPDX-License-Identifier: BSD-3-Clause */
/* test_err.c: gtr_err carries its whole text and its length, as a Go string does: setf and
 * wrapf as fmt.Errorf("...: %w"), messages far beyond the inline buffer, NUL bytes, copy and
 * move, arguments that point into the error itself, and allocation failures while a message
 * is built (the leading part survives, marked truncated; nothing leaks). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gtr/alloc.h"
#include "gtr/buf.h"
#include "gtr/status.h"

/* ---- a counting allocator that fails the n-th call (n = 0: never) ---------------------- */

typedef struct counting {
    unsigned calls, fail_at;
    long live;   /* allocations not yet freed */
} counting;

static void *c_malloc(void *ctx, size_t n)
{
    counting *c = ctx;
    if (++c->calls == c->fail_at)
        return NULL;
    void *p = malloc(n ? n : 1);
    if (p != NULL)
        c->live++;
    return p;
}

static void *c_realloc(void *ctx, void *p, size_t n)
{
    counting *c = ctx;
    if (++c->calls == c->fail_at)
        return NULL;
    void *q = realloc(p, n ? n : 1);
    if (q != NULL && p == NULL)
        c->live++;
    return q;
}

static void c_free(void *ctx, void *p)
{
    counting *c = ctx;
    if (p != NULL)
        c->live--;
    free(p);
}

/* big_text fills a malloc'd buffer of n bytes with a recognisable pattern (no NUL). */
static char *big_text(size_t n)
{
    char *s = malloc(n + 1);
    assert_non_null(s);
    for (size_t i = 0; i < n; i++)
        s[i] = (char)('a' + i % 26);
    s[n] = '\0';
    return s;
}

static void assert_text(const gtr_err *err, const char *want, size_t n)
{
    size_t len;
    const char *got = gtr_err_text(err, &len);
    assert_int_equal(len, n);
    assert_int_equal(err->len, n);
    assert_memory_equal(got, want, n);
    assert_int_equal(got[n], '\0');
    /* msg is always a NUL-terminated prefix of the text. */
    size_t head = n < GTR_ERR_MSG_CAP - 1 ? n : GTR_ERR_MSG_CAP - 1;
    assert_memory_equal(err->msg, want, head);
    assert_int_equal(err->msg[head], '\0');
}

static void test_err_setf_and_wrapf_compose_like_go(void **state)
{
    (void)state;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(err.code, GTR_OK);
    assert_string_equal(gtr_err_text(&err, NULL), "");
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
    assert_int_equal(gtr_err_setn(NULL, GTR_E_ORDER, "x", 1), GTR_E_ORDER);
    assert_string_equal(gtr_err_text(NULL, NULL), "");
    gtr_err copy = GTR_ERR_INIT;
    gtr_err_copy(&copy, &err);
    assert_int_equal(copy.code, GTR_E_IO);
    assert_string_equal(copy.msg, "ctx: read x: broken pipe");
    gtr_err_copy(&copy, NULL);
    assert_int_equal(copy.code, GTR_OK);
    assert_int_equal(copy.len, 0);
    gtr_err_clear(&err);
    gtr_err_clear(&copy);
}

static void test_err_long_messages_keep_their_whole_text(void **state)
{
    (void)state;
    static const size_t sizes[] = {GTR_ERR_MSG_CAP - 1, GTR_ERR_MSG_CAP, 5000, 1 << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        char *dump = big_text(n);
        gtr_err err = GTR_ERR_INIT;
        assert_int_equal(gtr_err_setf(&err, GTR_E_ORDER, "broken trace: %s", dump), GTR_E_ORDER);
        assert_false(err.truncated);
        gtr_buf want = {0};
        gtr_buf_printf(&want, "broken trace: %s", dump);
        assert_text(&err, want.data, want.len);
        /* A later, short message releases the long one (ASan sees no leak). */
        gtr_err_setf(&err, GTR_E_FORMAT, "short");
        assert_text(&err, "short", 5);
        assert_null(err.heap);
        gtr_buf_free(&want);
        free(dump);
        gtr_err_clear(&err);
    }
}

static void test_err_nul_bytes_survive_setn_append_copy_and_move(void **state)
{
    (void)state;
    static const char task[] = "a\0b";   /* a task type echoed in a validator message */
    gtr_err err = GTR_ERR_INIT, copy = GTR_ERR_INIT, moved = GTR_ERR_INIT;
    gtr_err_setf(&err, GTR_E_INVALID, "found invalid task ID for task of type ");
    assert_int_equal(gtr_err_appendn(&err, task, 3), GTR_E_INVALID);
    static const char want[] = "found invalid task ID for task of type a\0b";
    assert_text(&err, want, sizeof want - 1);
    /* Long, with NULs throughout. */
    char *bin = big_text(70000);
    for (size_t i = 0; i < 70000; i += 97)
        bin[i] = '\0';
    gtr_err_setn(&err, GTR_E_INVALID, bin, 70000);
    assert_text(&err, bin, 70000);
    gtr_err_copy(&copy, &err);
    assert_int_equal(copy.code, GTR_E_INVALID);
    assert_text(&copy, bin, 70000);
    gtr_err_move(&moved, &copy);
    assert_text(&moved, bin, 70000);
    assert_int_equal(copy.code, GTR_OK);
    assert_int_equal(copy.len, 0);
    assert_null(copy.heap);
    /* fputs writes every byte. */
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(gtr_err_fputs(&moved, f), 0);
    assert_int_equal(ftell(f), 70000);
    fclose(f);
    free(bin);
    gtr_err_clear(&err);
    gtr_err_clear(&copy);
    gtr_err_clear(&moved);
}

static void test_err_wrapf_chains_grow_past_the_inline_buffer(void **state)
{
    (void)state;
    gtr_err err = GTR_ERR_INIT;
    gtr_buf want = {0}, next = {0};
    gtr_err_setf(&err, GTR_E_FORMAT, "unexpected EOF");
    gtr_buf_puts(&want, "unexpected EOF");
    for (int i = 0; i < 2000; i++) {
        assert_int_equal(gtr_err_wrapf(&err, "reading frame %d's PC for stack %d", i, i * 3),
                         GTR_E_FORMAT);
        gtr_buf_reset(&next);
        gtr_buf_printf(&next, "reading frame %d's PC for stack %d: ", i, i * 3);
        gtr_buf_append(&next, want.data, want.len);
        gtr_buf_reset(&want);
        gtr_buf_append(&want, next.data, next.len);
    }
    assert_true(err.len > 64 * 1024);
    assert_text(&err, want.data, want.len);
    assert_false(err.truncated);
    gtr_buf_free(&want);
    gtr_buf_free(&next);
    gtr_err_clear(&err);
}

static void test_err_arguments_may_point_into_the_error_itself(void **state)
{
    (void)state;
    gtr_err err = GTR_ERR_INIT;
    char *dump = big_text(3000);
    gtr_err_setf(&err, GTR_E_ORDER, "%s", dump);
    /* setf with its own (heap) text as an argument, then its inline one. */
    gtr_err_setf(&err, GTR_E_ORDER, "outer: %s", gtr_err_text(&err, NULL));
    assert_int_equal(err.len, 3007);
    assert_memory_equal(gtr_err_text(&err, NULL) + 7, dump, 3000);
    gtr_err_setf(&err, GTR_E_ORDER, "x");
    gtr_err_setf(&err, GTR_E_ORDER, "%s%s", err.msg, err.msg);
    assert_text(&err, "xx", 2);
    /* Appending its own text doubles it. */
    gtr_err_setn(&err, GTR_E_ORDER, dump, 3000);
    gtr_err_appendn(&err, gtr_err_text(&err, NULL), err.len);
    assert_int_equal(err.len, 6000);
    assert_memory_equal(gtr_err_text(&err, NULL) + 3000, dump, 3000);
    /* Copy and move onto itself are no-ops. */
    gtr_err_copy(&err, &err);
    gtr_err_move(&err, &err);
    assert_int_equal(err.len, 6000);
    free(dump);
    gtr_err_clear(&err);
}

static void test_err_allocation_failure_keeps_the_leading_part(void **state)
{
    (void)state;
    counting c = {0, 1, 0};
    gtr_alloc a = {c_malloc, c_realloc, c_free, &c};
    char *dump = big_text(10000);
    gtr_err err = GTR_ERR_INIT;
    gtr_err_set_alloc(&err, &a);

    /* setf: the first allocation fails. */
    assert_int_equal(gtr_err_setf(&err, GTR_E_ORDER, "broken trace: %s", dump), GTR_E_ORDER);
    assert_true(err.truncated);
    assert_int_equal(err.len, GTR_ERR_MSG_CAP - 1);
    assert_memory_equal(gtr_err_text(&err, NULL), "broken trace: abcd", 18);
    assert_null(err.heap);
    /* A short message needs no allocation and is whole again. */
    gtr_err_setf(&err, GTR_E_FORMAT, "short");
    assert_false(err.truncated);
    assert_text(&err, "short", 5);

    /* wrapf over a long text: the wrap's allocation fails, the context and the head stay. */
    c.calls = 0;
    c.fail_at = 2;
    gtr_err_setn(&err, GTR_E_ORDER, dump, 10000);   /* call 1 succeeds */
    assert_false(err.truncated);
    gtr_err_wrapf(&err, "context");                   /* call 2 fails */
    assert_true(err.truncated);
    assert_int_equal(err.len, GTR_ERR_MSG_CAP - 1);
    assert_memory_equal(err.msg, "context: abcd", 13);
    assert_null(err.heap);
    /* A truncated text stays marked through copy and further wraps. */
    c.fail_at = 0;
    gtr_err_wrapf(&err, "outer");
    assert_true(err.truncated);
    assert_memory_equal(err.msg, "outer: context: abcd", 20);
    gtr_err copy = GTR_ERR_INIT;
    gtr_err_copy(&copy, &err);
    assert_true(copy.truncated);
    gtr_err_clear(&copy);

    /* copy and appendn into an err whose allocation fails. */
    gtr_err big = GTR_ERR_INIT;
    gtr_err_setn(&big, GTR_E_INVALID, dump, 10000);   /* libc */
    c.calls = 0;
    c.fail_at = 1;
    gtr_err_copy(&err, &big);
    assert_true(err.truncated);
    assert_int_equal(err.code, GTR_E_INVALID);
    assert_memory_equal(err.msg, dump, GTR_ERR_MSG_CAP - 1);
    c.calls = 0;
    gtr_err_setf(&err, GTR_E_INVALID, "found invalid task ID for task of type ");
    gtr_err_appendn(&err, dump, 10000);
    assert_true(err.truncated);
    assert_memory_equal(err.msg, "found invalid task ID for task of type abc", 42);
    /* move between allocators copies (and here fails the same way). */
    c.calls = 0;
    gtr_err_move(&err, &big);
    assert_true(err.truncated);
    assert_int_equal(big.len, 0);

    gtr_err_clear(&big);
    gtr_err_clear(&err);
    assert_int_equal(c.live, 0);
    free(dump);
}

static void test_err_every_allocation_failure_in_a_chain_is_clean(void **state)
{
    (void)state;
    char *dump = big_text(1000);
    for (unsigned fail = 1; fail <= 12; fail++) {
        counting c = {0, fail, 0};
        gtr_alloc a = {c_malloc, c_realloc, c_free, &c};
        gtr_err err = GTR_ERR_INIT, copy = GTR_ERR_INIT;
        gtr_err_set_alloc(&err, &a);
        gtr_err_set_alloc(&copy, &a);
        gtr_err_setf(&err, GTR_E_FORMAT, "%s", dump);
        for (int i = 0; i < 4; i++)
            gtr_err_wrapf(&err, "level %d %s", i, dump);
        gtr_err_appendn(&err, dump, 1000);
        gtr_err_copy(&copy, &err);
        gtr_err_move(&err, &copy);
        /* Whatever failed, the text starts the way the whole one does. */
        assert_memory_equal(err.msg, "level 3 abc", 11);
        assert_int_equal(err.code, GTR_E_FORMAT);
        assert_true(err.truncated == (fail <= c.calls));
        gtr_err_clear(&err);
        gtr_err_clear(&copy);
        assert_int_equal(c.live, 0);
    }
    free(dump);
}

/* gtr_errno_text is Go's syscall.Errno text on Linux (zerrors_linux_amd64.go's table). */
static void test_err_errno_text_is_gos(void **state)
{
    char buf[128], small[8];
    (void)state;
    assert_string_equal(gtr_errno_text(ENOENT, buf, sizeof buf), "no such file or directory");
    assert_string_equal(gtr_errno_text(ENOSPC, buf, sizeof buf), "no space left on device");
    assert_string_equal(gtr_errno_text(EIO, buf, sizeof buf), "input/output error");
    assert_string_equal(gtr_errno_text(EISDIR, buf, sizeof buf), "is a directory");
    /* Go: "RFS specific error" (EDOTDOT keeps its acronym); past the table, "errno N". */
    assert_string_equal(gtr_errno_text(73, buf, sizeof buf), "RFS specific error");
    assert_string_equal(gtr_errno_text(4242, buf, sizeof buf), "errno 4242");
    /* Cut to fit, NUL-terminated. */
    assert_string_equal(gtr_errno_text(ENOENT, small, sizeof small), "no such");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_err_setf_and_wrapf_compose_like_go),
        cmocka_unit_test(test_err_long_messages_keep_their_whole_text),
        cmocka_unit_test(test_err_nul_bytes_survive_setn_append_copy_and_move),
        cmocka_unit_test(test_err_wrapf_chains_grow_past_the_inline_buffer),
        cmocka_unit_test(test_err_arguments_may_point_into_the_error_itself),
        cmocka_unit_test(test_err_allocation_failure_keeps_the_leading_part),
        cmocka_unit_test(test_err_every_allocation_failure_in_a_chain_is_clean),
        cmocka_unit_test(test_err_errno_text_is_gos),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
