/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/version/version.go (ReadHeader) at go1.27.3.
 *
 * ReadHeader is fmt.Fscanf(r, "go 1.%d trace\x00\x00\x00", &v) on a bufio.Reader, an
 * io.RuneScanner, so the scanner's one-rune lookahead is pushed back and exactly the matched
 * bytes are consumed. The rules of fmt's doScanf for this format:
 *   - literal characters must match the next rune;
 *   - a space in the format (not next to a newline) matches one or more non-newline spaces,
 *     or end of input;
 *   - %d first skips spaces (a newline is "unexpected newline"), then needs at least one
 *     ASCII digit and takes all following digits (no sign: the operand, Version, is a
 *     uint32); the value must fit 32 bits, leading zeros are fine.
 * Any failure is "bad file format: not a Go execution trace?". */
#include <inttypes.h>

#include "goquote.h"
#include "gtr/raw.h"
#include "input_priv.h"

typedef enum { HDR_OK, HDR_EOF, HDR_FAIL } hdr_res;

/* peek_rune decodes the next rune (bufio.Reader.ReadRune) without consuming it. */
static hdr_res peek_rune(gtr_input *in, int32_t *r, size_t *w, gtr_err *err)
{
    const uint8_t *p;
    size_t avail;
    /* One byte, and more only for a multi-byte rune: a pipe that sends a 16-byte header and
     * stalls is judged on those 16 bytes, as Go's rune-at-a-time read of it does. */
    gtr_status st = gtr__input_peek(in, 1, &p, &avail);
    if (st >= 0 && avail > 0 && p[0] >= 0x80)
        st = gtr__input_peek(in, p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : 2, &p, &avail);
    if (st < 0) {
        gtr_input_error(in, err);
        return HDR_FAIL;
    }
    if (avail == 0) {
        if (gtr_input_error(in, err) != GTR_OK)
            return HDR_FAIL;
        return HDR_EOF;
    }
    *w = gtr__utf8_decode(p, avail, r);
    return HDR_OK;
}

/* An input error (I/O, gzip, limit) is passed through instead of "bad file format": it
 * says more. Returns true when err holds one. */
static bool input_failed(gtr_input *in, gtr_err *err)
{
    return gtr_input_error(in, err) != GTR_OK;
}

/* literal matches one format character. */
static bool literal(gtr_input *in, int32_t c, gtr_err *err)
{
    int32_t r;
    size_t w;
    if (peek_rune(in, &r, &w, err) != HDR_OK || r != c)
        return false;
    gtr__input_skip(in, w);
    return true;
}

/* space matches a lone space of the format (advance's trailingSpace with no newline). */
static bool space(gtr_input *in, gtr_err *err)
{
    int32_t r;
    size_t w;
    hdr_res res = peek_rune(in, &r, &w, err);
    if (res == HDR_EOF)
        return true; /* end of input matches */
    if (res != HDR_OK || !gtr__unicode_is_space(r) || r == '\n')
        return false; /* "expected space in input to match format" */
    do {
        gtr__input_skip(in, w);
        res = peek_rune(in, &r, &w, err);
    } while (res == HDR_OK && gtr__unicode_is_space(r) && r != '\n');
    return res != HDR_FAIL;
}

/* scan_uint32 is SkipSpace + scanUint('d', 32). */
static bool scan_uint32(gtr_input *in, uint32_t *v, gtr_err *err)
{
    int32_t r;
    size_t w;
    hdr_res res;
    for (;;) { /* SkipSpace */
        res = peek_rune(in, &r, &w, err);
        if (res != HDR_OK)
            break;
        if (r == '\n')
            return false; /* "unexpected newline" */
        if (!gtr__unicode_is_space(r))
            break;
        gtr__input_skip(in, w);
    }
    if (res != HDR_OK || r < '0' || r > '9')
        return false; /* io.EOF or "expected integer" */
    uint64_t x = 0;
    bool overflow = false;
    while (res == HDR_OK && r >= '0' && r <= '9') {
        if (x > (UINT64_MAX - 9) / 10)
            overflow = true; /* strconv.ParseUint: value out of range (or beyond 32 bits) */
        else
            x = x * 10 + (uint64_t)(r - '0');
        gtr__input_skip(in, w);
        res = peek_rune(in, &r, &w, err);
    }
    if (res == HDR_FAIL || overflow || x > UINT32_MAX)
        return false; /* "unsigned integer overflow on token ..." */
    *v = (uint32_t)x;
    return true;
}

static gtr_status header_read(gtr_input *in, gtr_go_version *v, gtr_err *err)
{
    uint32_t ver = 0;
    bool ok = literal(in, 'g', err) && literal(in, 'o', err) && space(in, err) &&
              literal(in, '1', err) && literal(in, '.', err) && scan_uint32(in, &ver, err) &&
              space(in, err);
    for (const char *t = "trace"; ok && *t != '\0'; t++)
        ok = literal(in, *t, err);
    for (int i = 0; ok && i < 3; i++)
        ok = literal(in, 0, err);
    if (!ok) {
        if (input_failed(in, err))
            return err->code;
        /* Go: fmt.Errorf("bad file format: not a Go execution trace?") */
        return gtr_err_setf(err, GTR_E_FORMAT, "bad file format: not a Go execution trace?");
    }
    if (!gtr_go_version_valid(ver))
        /* Go: fmt.Errorf("unknown or unsupported trace version go 1.%d", v) */
        return gtr_err_setf(err, GTR_E_VERSION,
                            "unknown or unsupported trace version go 1.%" PRIu32, ver);
    *v = (gtr_go_version)ver;
    return GTR_OK;
}

gtr_status gtr_header_read(gtr_input *in, gtr_go_version *v, gtr_err *err)
{
    if (err != NULL)
        return header_read(in, v, err);
    gtr_err local = GTR_ERR_INIT;
    gtr_status st = header_read(in, v, &local);
    gtr_err_clear(&local);
    return st;
}
