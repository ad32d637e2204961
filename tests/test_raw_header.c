/* SPDX-License-Identifier: BSD-3-Clause */
/* test_raw_header.c: gtr_header_read (version.ReadHeader, an Fscanf of
 * "go 1.%d trace\x00\x00\x00"): which headers are accepted, how many bytes they consume
 * (exactly the matched ones, as with Go's bufio.Reader), and headers that straddle the
 * input's 64 KiB windows. Accept/reject outcomes were checked against gtroracle. */
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
#include "gtr/raw.h"

#define BAD "bad file format: not a Go execution trace?"

typedef struct {
    const char *in;
    size_t len;
    int version;        /* accepted version, or 0 */
    size_t consumed;    /* bytes consumed when accepted */
    const char *err;    /* message when rejected */
} hdr_case;

#define OK_(s, v) {s, sizeof(s) - 1, v, sizeof(s) - 1, NULL}
#define OKX(s, v, n) {s, sizeof(s) - 1, v, n, NULL}
#define BAD_(s, msg) {s, sizeof(s) - 1, 0, 0, msg}

static const hdr_case cases[] = {
    OK_("go 1.22 trace\0\0\0", 22),
    OKX("go 1.26 trace\0\0\0\x01\x02", 26, 16),     /* stops after the third NUL */
    OK_("go   1.23   trace\0\0\0", 23),            /* spaces match one or more spaces */
    OK_("go\t1.25\v\ftrace\0\0\0", 25),
    OK_("go 1. \t22 trace\0\0\0", 22),              /* %d skips leading spaces */
    OK_("go 1.\r22 trace\0\0\0", 22),               /* a lone \r is a space */
    OK_("go 1.0022 trace\0\0\0", 22),               /* leading zeros */
    OK_("go\xc2\xa0" "1.22 trace\0\0\0", 22),        /* U+00A0 */
    OK_("go\xc2\x85" "1.22 trace\0\0\0", 22),        /* U+0085 */
    OK_("go\xe3\x80\x80" "1.22\xe2\x80\x83trace\0\0\0", 22), /* U+3000, U+2003 */
    OK_("go 1.11 trace\0\0\0", 11),                 /* v1 headers are valid versions */
    OK_("go 1.19 trace\0\0\0", 19),
    OK_("go 1.21 trace\0\0\0", 21),
    BAD_("go 1.24 trace\0\0\0", "unknown or unsupported trace version go 1.24"),
    BAD_("go 1.5 trace\0\0\0", "unknown or unsupported trace version go 1.5"),
    BAD_("go 1.4294967295 trace\0\0\0", "unknown or unsupported trace version go 1.4294967295"),
    BAD_("go 1.4294967296 trace\0\0\0", BAD),     /* does not fit the uint32 */
    BAD_("go 1.4294967318 trace\0\0\0", BAD),
    BAD_("go 1.99999999999999999999999 trace\0\0\0", BAD),
    BAD_("go 1.-22 trace\0\0\0", BAD),             /* no sign for an unsigned operand */
    BAD_("go 1.+22 trace\0\0\0", BAD),
    BAD_("go 1.22trace\0\0\0", BAD),               /* the space needs a space */
    BAD_("go\n1.22 trace\0\0\0", BAD),             /* newlines never match */
    BAD_("go 1.\n22 trace\0\0\0", BAD),
    BAD_("go 1.\r\n22 trace\0\0\0", BAD),
    BAD_("go\xff" "1.22 trace\0\0\0", BAD),
    BAD_("go 1.22 trace\0\0", BAD),
    BAD_("go 1.22 trace", BAD),
    BAD_("go 1.22 ", BAD),
    BAD_("", BAD),
    BAD_("Go 1.22 trace\0\0\0", BAD),
    BAD_("go 1.x trace\0\0\0", BAD),
};

static void test_header_cases_match_go(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const hdr_case *c = &cases[i];
        gtr_input *in = NULL;
        gtr_err err = GTR_ERR_INIT;
        assert_int_equal(gtr_input_open_memory(c->in, c->len, NULL, &in, &err), GTR_OK);
        gtr_go_version v = 0;
        gtr_err_clear(&err);
        gtr_status st = gtr_header_read(in, &v, &err);
        if (c->version != 0) {
            if (st != GTR_OK)
                fail_msg("case %zu: %s", i, err.msg);
            assert_int_equal(v, c->version);
            assert_true(gtr_input_offset(in) == c->consumed);
        } else {
            if (st >= 0)
                fail_msg("case %zu accepted", i);
            if (strcmp(err.msg, c->err) != 0)
                fail_msg("case %zu: %s, want %s", i, err.msg, c->err);
        }
        gtr_input_free(in);
    }
}

/* big_header builds "go" + k ideographic spaces + "1." + z zeros + "22 trace\0\0\0" +
 * a GoStart event, so that runes and digits straddle 64 KiB window boundaries. */
static void big_header(gtr_buf *b, size_t k, size_t z)
{
    gtr_buf_puts(b, "go");
    for (size_t i = 0; i < k; i++)
        gtr_buf_puts(b, "\xe3\x80\x80");
    gtr_buf_puts(b, "1.");
    for (size_t i = 0; i < z; i++)
        gtr_buf_putc(b, '0');
    gtr_buf_append(b, "22 trace\0\0\0\x10\x01\x02\x03", 15);
    assert_int_equal(gtr_buf_status(b), GTR_OK);
}

static void check_big(gtr_input *in, size_t hdr_len)
{
    gtr_err err = GTR_ERR_INIT;
    gtr_go_version v;
    assert_int_equal(gtr_header_read(in, &v, &err), GTR_OK);
    assert_int_equal(v, GTR_GO122);
    assert_true(gtr_input_offset(in) == hdr_len);
    /* The header was consumed; the events follow. */
    assert_int_equal(gtr_input_byte(in), 0x10);
    uint64_t x;
    assert_int_equal(gtr_input_uvarint(in, &x, &err), GTR_OK);
    assert_true(x == 1);
}

static void test_header_straddling_windows_reads_exactly(void **state)
{
    (void)state;
    /* 21845 ideographic spaces: the last one spans bytes 65534..65536. */
    const size_t ks[] = {21844, 21845, 21846};
    for (size_t i = 0; i < 3; i++) {
        gtr_buf b;
        gtr_buf_init(&b, NULL);
        big_header(&b, ks[i], 70000);
        size_t hdr_len = b.len - 4;

        /* From a FILE (64 KiB chunks). */
        FILE *f = tmpfile();
        assert_int_equal(fwrite(b.data, 1, b.len, f), b.len);
        rewind(f);
        gtr_input *in = NULL;
        gtr_err err = GTR_ERR_INIT;
        assert_int_equal(gtr_input_open_file(f, NULL, &in, &err), GTR_OK);
        check_big(in, hdr_len);
        gtr_input_free(in);
        fclose(f);

        /* From gzip (64 KiB output windows). */
        uLongf zn = compressBound((uLong)b.len) + 64;
        uint8_t *z = malloc(zn);
        z_stream zs;
        memset(&zs, 0, sizeof zs);
        assert_int_equal(deflateInit2(&zs, 1, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
        zs.next_in = (Bytef *)b.data;
        zs.avail_in = (uInt)b.len;
        zs.next_out = z;
        zs.avail_out = (uInt)zn;
        assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
        size_t zlen = zn - zs.avail_out;
        deflateEnd(&zs);
        assert_int_equal(gtr_input_open_memory(z, zlen, NULL, &in, &err), GTR_OK);
        assert_true(gtr_input_is_gzip(in));
        check_big(in, hdr_len);
        gtr_input_free(in);
        free(z);
        gtr_buf_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_cases_match_go),
        cmocka_unit_test(test_header_straddling_windows_reads_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
