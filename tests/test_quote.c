/* SPDX-License-Identifier: BSD-3-Clause */
/* test_quote.c: gtr_go_quote / gtr_go_unquote against strconv.Quote / strconv.Unquote:
 * hand-picked cases for every escape rule, then the vectors Go 1.27.3 generated in
 * tests/data/quote_vectors.txt (random byte strings, every byte, a rune sweep, random
 * escape soups). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "goquote.h"
#include "gtr/raw.h"

static void check_quote(const char *in, size_t n, const char *want)
{
    gtr_buf b;
    gtr_buf_init(&b, NULL);
    assert_int_equal(gtr_go_quote(&b, in, n), GTR_OK);
    assert_string_equal(b.data, want);
    gtr_buf_free(&b);
}

#define Q(lit, want) check_quote((lit), sizeof(lit) - 1, (want))

/* check_unquote: want NULL means "invalid syntax". */
static void check_unquote(const char *in, const char *want, size_t want_len)
{
    gtr_buf b;
    gtr_buf_init(&b, NULL);
    gtr_buf_puts(&b, "keep");
    gtr_err err = GTR_ERR_INIT;
    gtr_err_clear(&err);
    gtr_status st = gtr_go_unquote(&b, in, strlen(in), &err);
    if (want == NULL) {
        assert_int_equal(st, GTR_E_FORMAT);
        assert_string_equal(err.msg, "invalid syntax");
        assert_int_equal(b.len, 4); /* nothing appended on failure */
    } else {
        assert_int_equal(st, GTR_OK);
        assert_int_equal(b.len, 4 + want_len);
        assert_memory_equal(b.data + 4, want, want_len);
    }
    gtr_buf_free(&b);
}

#define U(in, want) check_unquote((in), (want), sizeof(want) - 1)
#define UBAD(in) check_unquote((in), NULL, 0)

static void test_quote_escapes_match_go(void **state)
{
    (void)state;
    Q("", "\"\"");
    Q("hello", "\"hello\"");
    Q("\"\\", "\"\\\"\\\\\"");
    Q("'`", "\"'`\"");
    Q("\a\b\f\n\r\t\v", "\"\\a\\b\\f\\n\\r\\t\\v\"");
    Q("\x00\x01\x1f\x7f", "\"\\x00\\x01\\x1f\\x7f\"");
    Q("\xff\xfe", "\"\\xff\\xfe\"");
    Q("\xc3", "\"\\xc3\"");                      /* incomplete rune */
    Q("\xc0\x80", "\"\\xc0\\x80\"");             /* overlong */
    Q("\xed\xa0\x80", "\"\\xed\\xa0\\x80\"");    /* surrogate */
    Q("\xf4\x90\x80\x80", "\"\\xf4\\x90\\x80\\x80\""); /* above U+10FFFF */
    Q("\xc3\xa9", "\"\xc3\xa9\"");               /* é is printable */
    Q("\xc2\xa0", "\"\\u00a0\"");                /* NBSP is not */
    Q("\xc2\xad", "\"\\u00ad\"");                /* soft hyphen */
    Q("\xc2\x85", "\"\\u0085\"");
    Q("\xe2\x80\xa8", "\"\\u2028\"");
    Q("\xef\xbb\xbf", "\"\\ufeff\"");
    Q("\xef\xbf\xbd", "\"\xef\xbf\xbd\"");       /* a real U+FFFD is printable */
    Q("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");
    Q("\xf3\xa0\x80\x81", "\"\\U000e0001\"");     /* language tag */
    Q("\xf4\x8f\xbf\xbf", "\"\\U0010ffff\"");
}

static void test_unquote_forms_match_go(void **state)
{
    (void)state;
    U("\"\"", "");
    U("\"abc\"", "abc");
    U("\"\\a\\b\\f\\n\\r\\t\\v\\\\\\\"\"", "\a\b\f\n\r\t\v\\\"");
    U("\"\\x41\\xff\"", "A\xff");
    U("\"\\101\\377\\000\"", "A\xff\x00");
    U("\"\\u00e9\\U0001F600\"", "\xc3\xa9\xf0\x9f\x98\x80");
    U("\"\xff\"", "\xef\xbf\xbd");          /* an invalid byte becomes U+FFFD */
    U("`a\\n\rb`", "a\\nb");                /* raw strings drop \r */
    U("``", "");
    U("'a'", "a");
    U("'\\n'", "\n");
    U("'\\''", "'");
    U("'\xc3\xa9'", "\xc3\xa9");
    U("''", "");
    UBAD("");
    UBAD("\"");
    UBAD("\"abc");
    UBAD("abc");
    UBAD("\"a\"b");
    UBAD("\"\\'\"");                        /* \' only inside '' */
    UBAD("'\\\"'");                         /* \" only inside "" */
    UBAD("\"\\400\"");                      /* octal above 255 */
    UBAD("\"\\18\"");
    UBAD("\"\\x4\"");
    UBAD("\"\\xg0\"");
    UBAD("\"\\ud800\"");                    /* surrogate */
    UBAD("\"\\U00110000\"");
    UBAD("\"\\z\"");
    UBAD("\"a\nb\"");
    UBAD("\"\\\"");
    UBAD("'ab'");
    UBAD("'''");
    U("'\xff'", "\xef\xbf\xbd");
    UBAD("`a`b");
    UBAD("`abc");
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* unhex decodes a hex field ("-" is empty) into a malloc'd buffer. */
static uint8_t *unhex_field(const char *s, size_t *n)
{
    if (strcmp(s, "-") == 0) {
        *n = 0;
        return malloc(1);
    }
    size_t len = strlen(s);
    assert_int_equal(len % 2, 0);
    uint8_t *b = malloc(len / 2 + 1);
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        assert_true(hi >= 0 && lo >= 0);
        b[i] = (uint8_t)(hi << 4 | lo);
    }
    *n = len / 2;
    return b;
}

static void test_quote_go_vectors_match(void **state)
{
    (void)state;
    FILE *f = fopen(GTR_SOURCE_DIR "/tests/data/quote_vectors.txt", "r");
    assert_non_null(f);
    char line[4096];
    int nq = 0, nu = 0, nbad = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\n")] = '\0';
        char kind[4], a[2048], b[2048];
        assert_int_equal(sscanf(line, "%3s %2047s %2047s", kind, a, b), 3);
        size_t in_n, want_n;
        uint8_t *in = unhex_field(a, &in_n);
        gtr_buf out;
        gtr_buf_init(&out, NULL);
        if (strcmp(kind, "Q") == 0) {
            uint8_t *want = unhex_field(b, &want_n);
            assert_int_equal(gtr_go_quote(&out, in, in_n), GTR_OK);
            if (out.len != want_n || memcmp(out.data, want, want_n) != 0)
                fail_msg("Quote mismatch on line: %s\n got: %s", line, out.data);
            free(want);
            nq++;
        } else {
            assert_string_equal(kind, "U");
            gtr_err err = GTR_ERR_INIT;
            gtr_status st = gtr_go_unquote(&out, (const char *)in, in_n, &err);
            if (strcmp(b, "ERR") == 0) {
                if (st != GTR_E_FORMAT)
                    fail_msg("Unquote accepted what Go rejects: %s", line);
                nbad++;
            } else {
                uint8_t *want = unhex_field(b, &want_n);
                if (st != GTR_OK)
                    fail_msg("Unquote rejected what Go accepts: %s", line);
                if (out.len != want_n || (want_n > 0 && memcmp(out.data, want, want_n) != 0))
                    fail_msg("Unquote mismatch on line: %s", line);
                free(want);
            }
            nu++;
        }
        gtr_buf_free(&out);
        free(in);
    }
    fclose(f);
    /* The file holds 400 random + 256 byte + rune-sweep Quote vectors and 700 Unquote ones. */
    assert_true(nq > 3000);
    assert_int_equal(nu, 700);
    assert_true(nbad > 100 && nbad < nu);
}

static void test_quote_unquote_roundtrip_every_byte_pair(void **state)
{
    (void)state;
    gtr_buf q, u;
    gtr_buf_init(&q, NULL);
    gtr_buf_init(&u, NULL);
    for (int a = 0; a < 256; a++) {
        for (int b = 0; b < 256; b++) {
            uint8_t s[2] = {(uint8_t)a, (uint8_t)b};
            gtr_buf_reset(&q);
            gtr_buf_reset(&u);
            assert_int_equal(gtr_go_quote(&q, s, 2), GTR_OK);
            assert_int_equal(gtr_go_unquote(&u, q.data, q.len, NULL), GTR_OK);
            assert_int_equal(u.len, 2);
            assert_memory_equal(u.data, s, 2);
        }
    }
    gtr_buf_free(&q);
    gtr_buf_free(&u);
}

static void test_utf8_decode_matches_go_rules(void **state)
{
    (void)state;
    int32_t r;
    assert_int_equal(gtr__utf8_decode((const uint8_t *)"", 0, &r), 0);
    assert_int_equal(r, GTR__RUNE_ERROR);
    assert_int_equal(gtr__utf8_decode((const uint8_t *)"\xe2\x82\xac", 3, &r), 3);
    assert_int_equal(r, 0x20ac);
    assert_int_equal(gtr__utf8_decode((const uint8_t *)"\xe2\x82", 2, &r), 1);
    assert_int_equal(r, GTR__RUNE_ERROR);
    assert_int_equal(gtr__utf8_decode((const uint8_t *)"\xe0\x80\x80", 3, &r), 1);
    assert_int_equal(gtr__utf8_decode_last((const uint8_t *)"a\xe2\x82\xac", 4, &r), 3);
    assert_int_equal(r, 0x20ac);
    assert_int_equal(gtr__utf8_decode_last((const uint8_t *)"a\xe2\x82", 3, &r), 1);
    assert_int_equal(r, GTR__RUNE_ERROR);
    assert_int_equal(gtr__utf8_decode_last((const uint8_t *)"\x80\x80\x80\x80\x80", 5, &r), 1);
    assert_true(gtr__unicode_is_space(0x3000));
    assert_true(gtr__unicode_is_space(0x85));
    assert_false(gtr__unicode_is_space(0x200b));
    assert_false(gtr__unicode_is_space(0x180e));
    assert_false(gtr__unicode_is_space(-1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quote_escapes_match_go),
        cmocka_unit_test(test_unquote_forms_match_go),
        cmocka_unit_test(test_quote_go_vectors_match),
        cmocka_unit_test(test_quote_unquote_roundtrip_every_byte_pair),
        cmocka_unit_test(test_utf8_decode_matches_go_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
