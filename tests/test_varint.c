/* SPDX-License-Identifier: BSD-3-Clause */
/* test_varint.c: gtr_input_uvarint against binary.ReadUvarint's edge cases, through both the
 * in-window fast path (input followed by padding) and the byte-at-a-time path (input ends
 * right after the varint, or arrives from a FILE one chunk at a time). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gtr/buf.h"
#include "gtr/input.h"

#define OVERFLOW_MSG "binary: varint overflows a 64-bit integer"

typedef struct {
    gtr_status st;
    uint64_t v;
    uint64_t consumed;
    char msg[GTR_ERR_MSG_CAP];
} result;

/* read_one reads one uvarint from bytes b[0..n) followed by pad bytes of 0x55. */
static result read_one(const uint8_t *b, size_t n, size_t pad)
{
    uint8_t mem[64];
    assert_true(n + pad <= sizeof mem);
    if (n > 0)
        memcpy(mem, b, n);
    memset(mem + n, 0x55, pad);
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(mem, n + pad, NULL, &in, &err), GTR_OK);
    result r;
    memset(&r, 0, sizeof r);
    gtr_err_clear(&err);
    r.st = gtr_input_uvarint(in, &r.v, &err);
    r.consumed = gtr_input_offset(in);
    snprintf(r.msg, sizeof r.msg, "%s", err.msg);
    gtr_input_free(in);
    return r;
}

/* check runs both paths and asserts they agree with the expectation. */
static void check(const uint8_t *b, size_t n, gtr_status st, uint64_t v, uint64_t consumed,
                  const char *msg)
{
    for (size_t pad = 0; pad <= 16; pad += 16) {
        result r = read_one(b, n, pad);
        assert_int_equal(r.st, st);
        if (st == GTR_OK)
            assert_true(r.v == v);
        assert_true(r.consumed == consumed);
        assert_string_equal(r.msg, msg);
    }
}

static void test_varint_single_bytes_decode(void **state)
{
    (void)state;
    for (unsigned i = 0; i < 0x80; i++) {
        uint8_t b = (uint8_t)i;
        check(&b, 1, GTR_OK, i, 1, "");
    }
}

static void test_varint_roundtrip_with_buf_encoder_matches(void **state)
{
    (void)state;
    const uint64_t vals[] = {0, 1, 127, 128, 255, 256, 16383, 16384, (1ull << 21) - 1,
                             1ull << 21, (1ull << 35) + 5, (1ull << 56) - 1, 1ull << 56,
                             (1ull << 63) - 1, 1ull << 63, UINT64_MAX - 1, UINT64_MAX};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        gtr_buf b;
        gtr_buf_init(&b, NULL);
        assert_int_equal(gtr_buf_put_uvarint(&b, vals[i]), GTR_OK);
        check((const uint8_t *)b.data, b.len, GTR_OK, vals[i], b.len, "");
        gtr_buf_free(&b);
    }
}

static void test_varint_max_ten_bytes_decodes(void **state)
{
    (void)state;
    const uint8_t max[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    check(max, sizeof max, GTR_OK, UINT64_MAX, 10, "");
    /* Non-minimal encodings are accepted, as Go does. */
    const uint8_t zero10[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
    check(zero10, sizeof zero10, GTR_OK, 0, 10, "");
    const uint8_t one2[] = {0x81, 0x00};
    check(one2, sizeof one2, GTR_OK, 1, 2, "");
}

static void test_varint_tenth_byte_above_one_overflows(void **state)
{
    (void)state;
    const uint8_t b[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    check(b, sizeof b, GTR_E_FORMAT, 0, 10, OVERFLOW_MSG);
    const uint8_t c[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f};
    check(c, sizeof c, GTR_E_FORMAT, 0, 10, OVERFLOW_MSG);
}

static void test_varint_eleven_bytes_overflows_after_ten(void **state)
{
    (void)state;
    /* The 10th byte has its continuation bit: Go stops after 10 bytes without reading the
     * 11th. */
    const uint8_t b[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
    check(b, sizeof b, GTR_E_FORMAT, 0, 10, OVERFLOW_MSG);
    check(b, 10, GTR_E_FORMAT, 0, 10, OVERFLOW_MSG);
}

static void test_varint_empty_input_is_eof(void **state)
{
    (void)state;
    result r = read_one(NULL, 0, 0);
    assert_int_equal(r.st, GTR_EOF);
    assert_string_equal(r.msg, "EOF");
    assert_true(r.consumed == 0);
}

static void test_varint_truncated_is_unexpected_eof(void **state)
{
    (void)state;
    const uint8_t b[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    for (size_t n = 1; n <= sizeof b; n++) {
        result r = read_one(b, n, 0);
        assert_int_equal(r.st, GTR_E_FORMAT);
        assert_string_equal(r.msg, "unexpected EOF");
        assert_true(r.consumed == n);
    }
}

static void test_varint_limit_error_passes_through(void **state)
{
    (void)state;
    const uint8_t b[] = {0x81, 0x82, 0x03};
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(b, sizeof b, NULL, &in, &err), GTR_OK);
    gtr_input_set_limit(in, 2);
    uint64_t v;
    assert_int_equal(gtr_input_uvarint(in, &v, &err), GTR_E_LIMIT);
    assert_string_equal(err.msg, "input exceeds the limit of 2 bytes");
    /* Sticky. */
    assert_int_equal(gtr_input_uvarint(in, &v, &err), GTR_E_LIMIT);
    gtr_input_free(in);
}

static void test_varint_sequence_from_file_across_chunks_decodes(void **state)
{
    (void)state;
    /* 100000 varints spanning several 64 KiB chunks, read from a FILE. */
    FILE *f = tmpfile();
    assert_non_null(f);
    gtr_buf b;
    gtr_buf_init(&b, NULL);
    for (uint64_t i = 0; i < 100000; i++)
        gtr_buf_put_uvarint(&b, i * 0x9e3779b97f4a7c15ull);
    assert_int_equal(gtr_buf_status(&b), GTR_OK);
    assert_int_equal(fwrite(b.data, 1, b.len, f), b.len);
    rewind(f);
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_file(f, NULL, &in, &err), GTR_OK);
    for (uint64_t i = 0; i < 100000; i++) {
        uint64_t v;
        assert_int_equal(gtr_input_uvarint(in, &v, &err), GTR_OK);
        assert_true(v == i * 0x9e3779b97f4a7c15ull);
    }
    uint64_t v;
    assert_int_equal(gtr_input_uvarint(in, &v, &err), GTR_EOF);
    assert_true(gtr_input_offset(in) == b.len);
    gtr_input_free(in);
    fclose(f);
    gtr_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_varint_single_bytes_decode),
        cmocka_unit_test(test_varint_roundtrip_with_buf_encoder_matches),
        cmocka_unit_test(test_varint_max_ten_bytes_decodes),
        cmocka_unit_test(test_varint_tenth_byte_above_one_overflows),
        cmocka_unit_test(test_varint_eleven_bytes_overflows_after_ten),
        cmocka_unit_test(test_varint_empty_input_is_eof),
        cmocka_unit_test(test_varint_truncated_is_unexpected_eof),
        cmocka_unit_test(test_varint_limit_error_passes_through),
        cmocka_unit_test(test_varint_sequence_from_file_across_chunks_decodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
