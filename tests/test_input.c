/* SPDX-License-Identifier: BSD-3-Clause */
/* test_input.c: gtr_input: memory, FILE and path sources, gzip sniffing and streaming
 * (concatenated members, truncation, corruption, trailing bytes), the byte limit, the
 * allocator hook. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "gtr/buf.h"
#include "gtr/input.h"
#include "input_priv.h"

/* gz compresses src into a fresh malloc'd gzip member. */
static uint8_t *gz(const void *src, size_t n, size_t *out_len)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&zs, (uLong)n) + 64;
    uint8_t *out = malloc(cap);
    assert_non_null(out);
    zs.next_in = (Bytef *)(uintptr_t)src;
    zs.avail_in = (uInt)n;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    *out_len = cap - zs.avail_out;
    deflateEnd(&zs);
    return out;
}

/* pattern fills a buffer with compressible but non-trivial bytes. */
static uint8_t *pattern(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    assert_non_null(p);
    uint32_t x = 12345;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (uint8_t)((x >> 16) % 7 + 'a');
    }
    return p;
}

/* slurp reads the whole input; returns the status and the bytes. */
static gtr_status slurp(gtr_input *in, char **data, size_t *len, gtr_err *err)
{
    *data = NULL;
    *len = 0;
    return gtr_input_read_all(in, data, len, err);
}

static void test_input_memory_plain_reads_back(void **state)
{
    (void)state;
    const char msg[] = "go 1.26 trace\0\0\0hello";
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(msg, sizeof msg - 1, NULL, &in, &err), GTR_OK);
    assert_false(gtr_input_is_gzip(in));
    char b[5];
    size_t got;
    assert_int_equal(gtr_input_read(in, b, 3, &got, &err), GTR_OK);
    assert_int_equal(got, 3);
    assert_memory_equal(b, "go ", 3);
    assert_true(gtr_input_offset(in) == 3);
    assert_int_equal(gtr_input_byte(in), '1');
    char *rest;
    size_t n;
    assert_int_equal(slurp(in, &rest, &n, &err), GTR_OK);
    assert_int_equal(n, sizeof msg - 5);
    assert_memory_equal(rest, msg + 4, n);
    assert_int_equal(rest[n], '\0');
    free(rest);
    /* At the end: -1 with a clean status, and short reads succeed. */
    assert_int_equal(gtr_input_byte(in), -1);
    assert_int_equal(gtr_input_error(in, &err), GTR_OK);
    assert_int_equal(gtr_input_read(in, b, 5, &got, &err), GTR_OK);
    assert_int_equal(got, 0);
    gtr_input_free(in);
}

static void test_input_empty_memory_is_eof(void **state)
{
    (void)state;
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(NULL, 0, NULL, &in, &err), GTR_OK);
    assert_int_equal(gtr_input_byte(in), -1);
    assert_int_equal(gtr_input_error(in, &err), GTR_OK);
    gtr_input_free(in);
    gtr_input_free(NULL);
}

static void test_input_open_missing_path_fails_with_open_message(void **state)
{
    (void)state;
    gtr_input *in = (gtr_input *)1;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_path("/nonexistent/dir/x.trace", NULL, &in, &err), GTR_E_IO);
    assert_null(in);
    assert_string_equal(err.msg, "open /nonexistent/dir/x.trace: no such file or directory");
}

static void test_input_memory_plain_never_decompresses(void **state)
{
    (void)state;
    size_t n = 1000, zn;
    uint8_t *plain = pattern(n);
    uint8_t *z = gz(plain, n, &zn);
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory_plain(z, zn, NULL, &in, &err), GTR_OK);
    assert_false(gtr_input_is_gzip(in));
    /* The compressed bytes come back as they are. */
    for (size_t i = 0; i < zn; i++)
        assert_int_equal(gtr_input_byte(in), z[i]);
    assert_int_equal(gtr_input_byte(in), -1);
    assert_int_equal(gtr_input_error(in, &err), GTR_OK);
    gtr_input_free(in);
    free(z);
    free(plain);
}

static void test_input_gzip_memory_large_streams(void **state)
{
    (void)state;
    size_t n = 300000, zn;
    uint8_t *plain = pattern(n);
    uint8_t *z = gz(plain, n, &zn);
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(z, zn, NULL, &in, &err), GTR_OK);
    assert_true(gtr_input_is_gzip(in));
    /* Byte at a time across the 64 KiB output windows. */
    for (size_t i = 0; i < n; i++)
        assert_int_equal(gtr_input_byte(in), plain[i]);
    assert_int_equal(gtr_input_byte(in), -1);
    assert_int_equal(gtr_input_error(in, &err), GTR_OK);
    assert_true(gtr_input_offset(in) == n);
    gtr_input_free(in);
    free(z);
    free(plain);
}

/* gtr_input_open_file is declared with a FILE *, so that a pointer to anything else is a
 * compile error at the call, not a stream read from the wrong memory. */
_Static_assert(__builtin_types_compatible_p(__typeof__(gtr_input_open_file),
                                            gtr_status(FILE *, const gtr_alloc *, gtr_input **,
                                                       gtr_err *)),
               "gtr_input_open_file takes a FILE *");

static void test_input_gzip_path_and_file_stream(void **state)
{
    (void)state;
    size_t n = 200000, zn;
    uint8_t *plain = pattern(n);
    uint8_t *z = gz(plain, n, &zn);
    char path[] = "/tmp/gtr_test_input_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w+b");
    assert_non_null(f);
    assert_int_equal(fwrite(z, 1, zn, f), zn);
    fflush(f);

    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    char *data;
    size_t len;
    assert_int_equal(gtr_input_open_path(path, NULL, &in, &err), GTR_OK);
    assert_true(gtr_input_is_gzip(in));
    assert_int_equal(slurp(in, &data, &len, &err), GTR_OK);
    assert_int_equal(len, n);
    assert_memory_equal(data, plain, n);
    free(data);
    gtr_input_free(in);

    rewind(f);
    assert_int_equal(gtr_input_open_file(f, NULL, &in, &err), GTR_OK);
    assert_true(gtr_input_is_gzip(in));
    assert_int_equal(slurp(in, &data, &len, &err), GTR_OK);
    assert_int_equal(len, n);
    assert_memory_equal(data, plain, n);
    free(data);
    gtr_input_free(in);
    fclose(f);
    remove(path);
    free(z);
    free(plain);
}

static void test_input_gzip_concatenated_members_concatenate(void **state)
{
    (void)state;
    size_t an, bn;
    uint8_t *a = gz("hello, ", 7, &an);
    uint8_t *b = gz("world", 5, &bn);
    uint8_t *e;
    size_t en;
    e = gz("", 0, &en); /* an empty member in the middle */
    uint8_t *cat = malloc(an + en + bn);
    memcpy(cat, a, an);
    memcpy(cat + an, e, en);
    memcpy(cat + an + en, b, bn);
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    char *data;
    size_t len;
    assert_int_equal(gtr_input_open_memory(cat, an + en + bn, NULL, &in, &err), GTR_OK);
    assert_int_equal(slurp(in, &data, &len, &err), GTR_OK);
    assert_int_equal(len, 12);
    assert_memory_equal(data, "hello, world", 12);
    free(data);
    gtr_input_free(in);
    free(cat);
    free(a);
    free(b);
    free(e);
}

static void test_input_gzip_truncated_fails_unexpected_eof(void **state)
{
    (void)state;
    size_t n = 5000, zn;
    uint8_t *plain = pattern(n);
    uint8_t *z = gz(plain, n, &zn);
    for (size_t cut = 2; cut < zn; cut++) {
        gtr_input *in = NULL;
        gtr_err err = GTR_ERR_INIT;
        char *data;
        size_t len;
        assert_int_equal(gtr_input_open_memory(z, cut, NULL, &in, &err), GTR_OK);
        gtr_status st = slurp(in, &data, &len, &err);
        assert_int_equal(st, GTR_E_FORMAT);
        assert_string_equal(err.msg, "unexpected EOF");
        assert_true(len <= n);
        if (len > 0)
            assert_memory_equal(data, plain, len);
        free(data);
        /* Sticky. */
        assert_int_equal(gtr_input_byte(in), -1);
        assert_int_equal(gtr_input_error(in, &err), GTR_E_FORMAT);
        gtr_input_free(in);
    }
    free(z);
    free(plain);
}

static void test_input_gzip_bad_crc_fails_checksum(void **state)
{
    (void)state;
    size_t zn;
    uint8_t *z = gz("some trace bytes", 16, &zn);
    z[zn - 8] ^= 0x01; /* CRC32 */
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    char *data;
    size_t len;
    assert_int_equal(gtr_input_open_memory(z, zn, NULL, &in, &err), GTR_OK);
    assert_int_equal(slurp(in, &data, &len, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "gzip: invalid checksum");
    free(data);
    gtr_input_free(in);
    free(z);
}

static void test_input_gzip_bad_header_fails(void **state)
{
    (void)state;
    size_t zn;
    uint8_t *z = gz("x", 1, &zn);
    z[2] = 7; /* compression method other than deflate */
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    char *data;
    size_t len;
    assert_int_equal(gtr_input_open_memory(z, zn, NULL, &in, &err), GTR_OK);
    assert_int_equal(slurp(in, &data, &len, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "gzip: invalid header");
    free(data);
    gtr_input_free(in);
    free(z);
}

static void test_input_gzip_corrupt_deflate_fails_without_crash(void **state)
{
    (void)state;
    size_t n = 4000, zn;
    uint8_t *plain = pattern(n);
    uint8_t *z = gz(plain, n, &zn);
    /* Flip every byte of the deflate body in turn: each input fails cleanly or (rarely)
     * decodes; none crashes. */
    int failures = 0;
    for (size_t i = 10; i < zn - 8; i++) {
        z[i] ^= 0xa5;
        gtr_input *in = NULL;
        gtr_err err = GTR_ERR_INIT;
        char *data;
        size_t len;
        assert_int_equal(gtr_input_open_memory(z, zn, NULL, &in, &err), GTR_OK);
        gtr_status st = slurp(in, &data, &len, &err);
        if (st != GTR_OK) {
            assert_int_equal(st, GTR_E_FORMAT);
            assert_true(strncmp(err.msg, "flate: corrupt input", 20) == 0 ||
                        strcmp(err.msg, "gzip: invalid checksum") == 0 ||
                        strcmp(err.msg, "unexpected EOF") == 0 ||
                        strcmp(err.msg, "gzip: invalid header") == 0);
            failures++;
        }
        free(data);
        gtr_input_free(in);
        z[i] ^= 0xa5;
    }
    assert_true(failures > 0);
    free(z);
    free(plain);
}

static void test_input_gzip_trailing_garbage_fails_header(void **state)
{
    (void)state;
    size_t zn;
    uint8_t *z = gz("abc", 3, &zn);
    uint8_t *t = malloc(zn + 4);
    memcpy(t, z, zn);
    memcpy(t + zn, "junk", 4);
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    char *data;
    size_t len;
    assert_int_equal(gtr_input_open_memory(t, zn + 4, NULL, &in, &err), GTR_OK);
    assert_int_equal(slurp(in, &data, &len, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "gzip: invalid header");
    free(data);
    gtr_input_free(in);
    /* One stray byte after the member: Go's header read hits io.ErrUnexpectedEOF. */
    assert_int_equal(gtr_input_open_memory(t, zn + 1, NULL, &in, &err), GTR_OK);
    assert_int_equal(slurp(in, &data, &len, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "unexpected EOF");
    free(data);
    gtr_input_free(in);
    free(t);
    free(z);
}

static void test_input_lone_magic_byte_is_plain(void **state)
{
    (void)state;
    const uint8_t one[] = {0x1f};
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(one, 1, NULL, &in, &err), GTR_OK);
    assert_false(gtr_input_is_gzip(in));
    assert_int_equal(gtr_input_byte(in), 0x1f);
    assert_int_equal(gtr_input_byte(in), -1);
    gtr_input_free(in);
    /* The same through a FILE. */
    FILE *f = tmpfile();
    fputc(0x1f, f);
    rewind(f);
    assert_int_equal(gtr_input_open_file(f, NULL, &in, &err), GTR_OK);
    assert_false(gtr_input_is_gzip(in));
    assert_int_equal(gtr_input_byte(in), 0x1f);
    assert_int_equal(gtr_input_byte(in), -1);
    assert_int_equal(gtr_input_error(in, &err), GTR_OK);
    gtr_input_free(in);
    fclose(f);
}

static void test_input_limit_exact_size_reads_cleanly(void **state)
{
    (void)state;
    const char msg[] = "0123456789";
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    char *data;
    size_t len;
    assert_int_equal(gtr_input_open_memory(msg, 10, NULL, &in, &err), GTR_OK);
    gtr_input_set_limit(in, 10);
    assert_int_equal(slurp(in, &data, &len, &err), GTR_OK);
    assert_int_equal(len, 10);
    free(data);
    gtr_input_free(in);
}

static void test_input_limit_exceeded_fails(void **state)
{
    (void)state;
    const char msg[] = "0123456789";
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    char *data;
    size_t len;
    assert_int_equal(gtr_input_open_memory(msg, 10, NULL, &in, &err), GTR_OK);
    gtr_input_set_limit(in, 4);
    assert_int_equal(slurp(in, &data, &len, &err), GTR_E_LIMIT);
    assert_int_equal(len, 4);
    assert_string_equal(err.msg, "input exceeds the limit of 4 bytes");
    free(data);
    gtr_input_free(in);

    /* Applies after decompression: a small gzip of a large input. */
    size_t n = 1 << 20, zn;
    uint8_t *zeros = calloc(n, 1);
    uint8_t *z = gz(zeros, n, &zn);
    assert_true(zn < 4096);
    assert_int_equal(gtr_input_open_memory(z, zn, NULL, &in, &err), GTR_OK);
    gtr_input_set_limit(in, 100000);
    assert_int_equal(slurp(in, &data, &len, &err), GTR_E_LIMIT);
    assert_int_equal(len, 100000);
    free(data);
    gtr_input_free(in);

    /* Limit set mid-read cuts the current window. */
    assert_int_equal(gtr_input_open_memory(msg, 10, NULL, &in, &err), GTR_OK);
    assert_int_equal(gtr_input_byte(in), '0');
    gtr_input_set_limit(in, 3);
    assert_int_equal(gtr_input_byte(in), '1');
    assert_int_equal(gtr_input_byte(in), '2');
    assert_int_equal(gtr_input_byte(in), -1);
    assert_int_equal(gtr_input_error(in, &err), GTR_E_LIMIT);
    gtr_input_free(in);
    free(z);
    free(zeros);
}

/* A failing allocator: succeeds `budget` times, then fails. */
typedef struct {
    int budget;
} fail_ctx;

static void *f_malloc(void *ctx, size_t n)
{
    fail_ctx *c = ctx;
    if (c->budget-- <= 0)
        return NULL;
    return malloc(n ? n : 1);
}

static void *f_realloc(void *ctx, void *p, size_t n)
{
    fail_ctx *c = ctx;
    if (c->budget-- <= 0)
        return NULL;
    return realloc(p, n ? n : 1);
}

static void f_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static void test_input_allocation_failures_fail_cleanly(void **state)
{
    (void)state;
    size_t zn;
    uint8_t *z = gz("allocation failure", 18, &zn);
    int ok = 0;
    for (int budget = 0; budget < 12; budget++) {
        fail_ctx c = {budget};
        gtr_alloc a = {f_malloc, f_realloc, f_free, &c};
        gtr_input *in = NULL;
        gtr_err err = GTR_ERR_INIT;
        gtr_status st = gtr_input_open_memory(z, zn, &a, &in, &err);
        if (st != GTR_OK) {
            assert_int_equal(st, GTR_E_NOMEM);
            assert_null(in);
            continue;
        }
        char buf[32];
        size_t got;
        st = gtr_input_read(in, buf, sizeof buf, &got, &err);
        if (st == GTR_OK) {
            assert_int_equal(got, 18);
            ok++;
        } else {
            assert_int_equal(st, GTR_E_NOMEM);
        }
        gtr_input_free(in);
    }
    assert_true(ok > 0);
    free(z);
}

static void test_input_peek_across_windows_is_contiguous(void **state)
{
    (void)state;
    size_t n = 200000, zn;
    uint8_t *plain = pattern(n);
    uint8_t *z = gz(plain, n, &zn);
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(z, zn, NULL, &in, &err), GTR_OK);
    /* Walk to just before the first 64 KiB window boundary, then peek over it. */
    size_t at = (64u << 10) - 3;
    for (size_t i = 0; i < at; i++)
        assert_int_equal(gtr_input_byte(in), plain[i]);
    const uint8_t *p;
    size_t avail;
    assert_int_equal(gtr__input_peek(in, 16, &p, &avail), GTR_OK);
    assert_int_equal(avail, 16);
    assert_memory_equal(p, plain + at, 16);
    assert_true(gtr_input_offset(in) == at); /* nothing consumed */
    /* A second peek inside the splice, then consume part of it. */
    assert_int_equal(gtr__input_peek(in, 4, &p, &avail), GTR_OK);
    assert_memory_equal(p, plain + at, 4);
    gtr__input_skip(in, 5);
    assert_true(gtr_input_offset(in) == at + 5);
    assert_int_equal(gtr__input_peek(in, 16, &p, &avail), GTR_OK);
    assert_memory_equal(p, plain + at + 5, 16);
    /* Everything after comes out in order. */
    char *rest;
    size_t rn;
    assert_int_equal(slurp(in, &rest, &rn, &err), GTR_OK);
    assert_int_equal(rn, n - at - 5);
    assert_memory_equal(rest, plain + at + 5, rn);
    free(rest);
    /* At the end, a peek finds nothing. */
    assert_int_equal(gtr__input_peek(in, 4, &p, &avail), GTR_OK);
    assert_int_equal(avail, 0);
    gtr_input_free(in);
    free(z);
    free(plain);
}

static void test_input_peek_short_at_end_and_limit(void **state)
{
    (void)state;
    const char msg[] = "abcdef";
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    const uint8_t *p;
    size_t avail;
    assert_int_equal(gtr_input_open_memory(msg, 6, NULL, &in, &err), GTR_OK);
    assert_int_equal(gtr_input_byte(in), 'a');
    assert_int_equal(gtr__input_peek(in, 16, &p, &avail), GTR_OK);
    assert_int_equal(avail, 5);
    assert_memory_equal(p, "bcdef", 5);
    gtr_input_free(in);

    /* A limit inside the peek: the bytes before it are seen, then reads fail. */
    assert_int_equal(gtr_input_open_memory(msg, 6, NULL, &in, &err), GTR_OK);
    gtr_input_set_limit(in, 3);
    assert_int_equal(gtr__input_peek(in, 16, &p, &avail), GTR_OK);
    assert_int_equal(avail, 3);
    gtr__input_skip(in, 3);
    assert_int_equal(gtr_input_byte(in), -1);
    assert_int_equal(gtr_input_error(in, &err), GTR_E_LIMIT);
    gtr_input_free(in);
}

/* gtr__input_borrow hands out a plain memory input's own bytes, and nothing else. */
static void test_input_borrow_only_from_plain_memory(void **state)
{
    (void)state;
    const char msg[] = "abcdefgh";
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    const uint8_t *p = NULL;

    /* Plain memory: in place, consumed; more than is left: nothing, nothing consumed. */
    assert_int_equal(gtr_input_open_memory(msg, 8, NULL, &in, &err), GTR_OK);
    assert_int_equal(gtr_input_byte(in), 'a');
    assert_true(gtr__input_borrow(in, 3, &p));
    assert_ptr_equal(p, (const uint8_t *)msg + 1);
    assert_true(gtr_input_offset(in) == 4);
    assert_false(gtr__input_borrow(in, 5, &p));
    assert_true(gtr_input_offset(in) == 4);
    assert_true(gtr__input_borrow(in, 4, &p));
    assert_ptr_equal(p, (const uint8_t *)msg + 4);
    assert_int_equal(gtr_input_byte(in), -1);
    gtr_input_free(in);

    /* A limit cuts what can be borrowed; reading on then fails at the limit. */
    assert_int_equal(gtr_input_open_memory(msg, 8, NULL, &in, &err), GTR_OK);
    gtr_input_set_limit(in, 4);
    assert_false(gtr__input_borrow(in, 5, &p));
    assert_true(gtr__input_borrow(in, 4, &p));
    assert_false(gtr__input_borrow(in, 1, &p));
    assert_int_equal(gtr_input_byte(in), -1);
    assert_int_equal(gtr_input_error(in, &err), GTR_E_LIMIT);
    gtr_input_free(in);

    /* A peek short at the end moved the last bytes into the input's own splice buffer:
     * they are read, not borrowed. */
    assert_int_equal(gtr_input_open_memory(msg, 8, NULL, &in, &err), GTR_OK);
    assert_true(gtr__input_borrow(in, 5, &p));
    size_t avail;
    assert_int_equal(gtr__input_peek(in, 16, &p, &avail), GTR_OK);
    assert_int_equal(avail, 3);
    assert_false(gtr__input_borrow(in, 1, &p));
    assert_int_equal(gtr_input_byte(in), 'f');
    gtr_input_free(in);

    /* Gzip memory is inflated into the input's buffer: never borrowed. */
    size_t zn;
    uint8_t *z = gz(msg, 8, &zn);
    assert_int_equal(gtr_input_open_memory(z, zn, NULL, &in, &err), GTR_OK);
    assert_int_equal(gtr_input_byte(in), 'a');
    assert_false(gtr__input_borrow(in, 1, &p));
    assert_int_equal(gtr_input_byte(in), 'b');
    gtr_input_free(in);
    free(z);

    /* A FILE is read into the input's buffer: never borrowed. */
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(msg, 1, 8, f), 8);
    rewind(f);
    assert_int_equal(gtr_input_open_file(f, NULL, &in, &err), GTR_OK);
    assert_int_equal(gtr_input_byte(in), 'a');
    assert_false(gtr__input_borrow(in, 1, &p));
    assert_int_equal(gtr_input_byte(in), 'b');
    gtr_input_free(in);
    fclose(f);
    gtr_err_clear(&err);
}

/* gtr__input_borrow_rest: all that is left of a plain memory input, in place. */
static void test_input_borrow_rest_only_whole_plain_memory(void **state)
{
    (void)state;
    const char msg[] = "abcdefgh";
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    const uint8_t *p = NULL;
    size_t n = 0;

    assert_int_equal(gtr_input_open_memory(msg, 8, NULL, &in, &err), GTR_OK);
    assert_int_equal(gtr_input_byte(in), 'a');
    assert_true(gtr__input_borrow_rest(in, &p, &n));
    assert_ptr_equal(p, (const uint8_t *)msg + 1);
    assert_int_equal(n, 7);
    assert_int_equal(gtr_input_byte(in), -1);          /* at the end */
    assert_int_equal(gtr_input_error(in, &err), GTR_OK);
    assert_false(gtr__input_borrow_rest(in, &p, &n));  /* nothing left */
    gtr_input_free(in);

    /* A limit that cuts the input: nothing borrowed, and reading reports the limit. */
    assert_int_equal(gtr_input_open_memory(msg, 8, NULL, &in, &err), GTR_OK);
    gtr_input_set_limit(in, 4);
    assert_false(gtr__input_borrow_rest(in, &p, &n));
    char *all;
    size_t len;
    assert_int_equal(slurp(in, &all, &len, &err), GTR_E_LIMIT);
    free(all);
    gtr_input_free(in);
    /* A limit the input fits in is no cut. */
    assert_int_equal(gtr_input_open_memory(msg, 8, NULL, &in, &err), GTR_OK);
    gtr_input_set_limit(in, 8);
    assert_true(gtr__input_borrow_rest(in, &p, &n));
    assert_int_equal(n, 8);
    gtr_input_free(in);

    /* Gzip: never. */
    size_t zn;
    uint8_t *z = gz(msg, 8, &zn);
    assert_int_equal(gtr_input_open_memory(z, zn, NULL, &in, &err), GTR_OK);
    assert_false(gtr__input_borrow_rest(in, &p, &n));
    assert_int_equal(gtr_input_byte(in), 'a');
    gtr_input_free(in);
    free(z);
    gtr_err_clear(&err);
}

static void test_input_read_line_scanner_rules(void **state)
{
    (void)state;
    /* CRLF, a lone CR kept inside a line, an empty line, a last line without newline. */
    const char text[] = "one\r\ntw\ro\n\nlast\r";
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    gtr_buf line;
    gtr_buf_init(&line, NULL);
    assert_int_equal(gtr_input_open_memory(text, sizeof text - 1, NULL, &in, &err), GTR_OK);
    assert_int_equal(gtr__input_read_line(in, &line, &err), GTR_OK);
    assert_string_equal(line.data, "one");
    assert_int_equal(gtr__input_read_line(in, &line, &err), GTR_OK);
    assert_string_equal(line.data, "tw\ro");
    assert_int_equal(gtr__input_read_line(in, &line, &err), GTR_OK);
    assert_int_equal(line.len, 0);
    assert_int_equal(gtr__input_read_line(in, &line, &err), GTR_OK);
    assert_string_equal(line.data, "last");
    assert_int_equal(gtr__input_read_line(in, &line, &err), GTR_EOF);
    assert_string_equal(err.msg, "EOF");
    gtr_input_free(in);

    /* Lines across gzip windows, a CR right at a boundary (every line under the scanner's
     * 64 KiB). */
    size_t n = (64u << 10) + 1 + 60000 + 1, zn;
    char *big = malloc(n);
    memset(big, 'x', n);
    big[2] = '\n';
    big[(64u << 10) - 1] = '\r';
    big[64u << 10] = '\n';
    big[n - 1] = '\n';
    uint8_t *z = gz(big, n, &zn);
    assert_int_equal(gtr_input_open_memory(z, zn, NULL, &in, &err), GTR_OK);
    assert_int_equal(gtr__input_read_line(in, &line, &err), GTR_OK);
    assert_int_equal(line.len, 2);
    assert_int_equal(gtr__input_read_line(in, &line, &err), GTR_OK);
    assert_int_equal(line.len, (64u << 10) - 1 - 3);
    assert_int_equal(gtr__input_read_line(in, &line, &err), GTR_OK);
    assert_int_equal(line.len, n - (64u << 10) - 2);
    assert_int_equal(gtr__input_read_line(in, &line, &err), GTR_EOF);
    gtr_input_free(in);
    free(z);
    free(big);
    gtr_buf_free(&line);
}

/* read_one_line opens text[0..n) and reads its first line. */
static gtr_status read_one_line(const char *text, size_t n, gtr_buf *line, gtr_err *err)
{
    gtr_input *in = NULL;
    assert_int_equal(gtr_input_open_memory_plain(text, n, NULL, &in, err), GTR_OK);
    gtr_status st = gtr__input_read_line(in, line, err);
    gtr_input_free(in);
    return st;
}

static void test_input_read_line_over_scanner_limit_fails_token_too_long(void **state)
{
    (void)state;
    /* Go's bufio.Scanner (checked with Go's text reader): 65,535 bytes and a newline, or at
     * the end, is a line; 65,536 is too long either way, a final CR counted. */
    const size_t max = 64u << 10;
    char *text = malloc(max + 2);
    gtr_buf line;
    gtr_err err = GTR_ERR_INIT;
    gtr_buf_init(&line, NULL);
    memset(text, 'x', max + 2);

    text[max - 1] = '\n';
    assert_int_equal(read_one_line(text, max, &line, &err), GTR_OK);
    assert_int_equal(line.len, max - 1);
    assert_int_equal(read_one_line(text, max - 1, &line, &err), GTR_OK);
    assert_int_equal(line.len, max - 1);

    text[max - 1] = 'x';
    text[max] = '\n';
    assert_int_equal(read_one_line(text, max + 1, &line, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "bufio.Scanner: token too long");
    assert_int_equal(read_one_line(text, max, &line, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "bufio.Scanner: token too long");

    text[max - 1] = '\r';
    assert_int_equal(read_one_line(text, max + 1, &line, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "bufio.Scanner: token too long");
    text[max - 2] = '\r';
    text[max - 1] = '\n';
    assert_int_equal(read_one_line(text, max, &line, &err), GTR_OK);
    assert_int_equal(line.len, max - 2);

    gtr_err_clear(&err);
    gtr_buf_free(&line);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_input_memory_plain_reads_back),
        cmocka_unit_test(test_input_empty_memory_is_eof),
        cmocka_unit_test(test_input_memory_plain_never_decompresses),
        cmocka_unit_test(test_input_open_missing_path_fails_with_open_message),
        cmocka_unit_test(test_input_gzip_memory_large_streams),
        cmocka_unit_test(test_input_gzip_path_and_file_stream),
        cmocka_unit_test(test_input_gzip_concatenated_members_concatenate),
        cmocka_unit_test(test_input_gzip_truncated_fails_unexpected_eof),
        cmocka_unit_test(test_input_gzip_bad_crc_fails_checksum),
        cmocka_unit_test(test_input_gzip_bad_header_fails),
        cmocka_unit_test(test_input_gzip_corrupt_deflate_fails_without_crash),
        cmocka_unit_test(test_input_gzip_trailing_garbage_fails_header),
        cmocka_unit_test(test_input_lone_magic_byte_is_plain),
        cmocka_unit_test(test_input_limit_exact_size_reads_cleanly),
        cmocka_unit_test(test_input_limit_exceeded_fails),
        cmocka_unit_test(test_input_allocation_failures_fail_cleanly),
        cmocka_unit_test(test_input_peek_across_windows_is_contiguous),
        cmocka_unit_test(test_input_peek_short_at_end_and_limit),
        cmocka_unit_test(test_input_read_line_scanner_rules),
        cmocka_unit_test(test_input_read_line_over_scanner_limit_fails_token_too_long),
        cmocka_unit_test(test_input_borrow_only_from_plain_memory),
        cmocka_unit_test(test_input_borrow_rest_only_whole_plain_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
