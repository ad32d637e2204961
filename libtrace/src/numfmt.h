/* SPDX-License-Identifier: BSD-3-Clause */
/* numfmt.h: decimal and hex digits without printf, for Event.String() (event.c), the hot path
 * of `gotrace validate --log-events`. Inline: each call writes a few bytes. */
#ifndef GTR_SRC_NUMFMT_H
#define GTR_SRC_NUMFMT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const char gtr__digit_pairs[] =
    "000102030405060708091011121314151617181920212223242526272829"
    "303132333435363738394041424344454647484950515253545556575859"
    "606162636465666768697071727374757677787980818283848586878889"
    "90919293949596979899";

/* gtr__put2digits writes d < 100 as two digits. */
static inline void gtr__put2digits(char *p, uint32_t d)
{
    memcpy(p, gtr__digit_pairs + 2 * d, 2);
}

/* gtr__fmt_8digits writes v < 10^8 as exactly 8 digits (leading zeros), in 32-bit arithmetic
 * whose two halves do not depend on each other. */
static inline void gtr__fmt_8digits(char *p, uint32_t v)
{
    uint32_t hi = v / 10000, lo = v % 10000;
    gtr__put2digits(p, hi / 100);
    gtr__put2digits(p + 2, hi % 100);
    gtr__put2digits(p + 4, lo / 100);
    gtr__put2digits(p + 6, lo % 100);
}

/* gtr__fmt_u32_short writes v < 10^8 in decimal at dst and returns the length: the digits are
 * counted first, then written from the end two at a time. */
static inline size_t gtr__fmt_u32_short(char *dst, uint32_t v)
{
    if (v < 10) {   /* most Ps and many Gs */
        *dst = (char)('0' + v);
        return 1;
    }
    if (v < 100) {
        gtr__put2digits(dst, v);
        return 2;
    }
    size_t n = v < 1000       ? 3
               : v < 10000    ? 4
               : v < 100000   ? 5
               : v < 1000000  ? 6
               : v < 10000000 ? 7
                              : 8;
    char *p = dst + n;
    while (v >= 100) {
        p -= 2;
        gtr__put2digits(p, v % 100);
        v /= 100;
    }
    if (v >= 10)
        gtr__put2digits(p - 2, v);
    else
        p[-1] = (char)('0' + v);
    return n;
}

/* gtr__fmt_u64 writes v in decimal at dst (at most 20 bytes) and returns the length. Trace
 * times have 13 digits or more: they are cut into 8-digit groups, written with 32-bit
 * divisions. */
static inline size_t gtr__fmt_u64(char *dst, uint64_t v)
{
    if (v < 100000000)
        return gtr__fmt_u32_short(dst, (uint32_t)v);
    uint64_t hi = v / 100000000;
    uint32_t lo = (uint32_t)(v - hi * 100000000);
    size_t n;
    if (hi < 100000000) {
        n = gtr__fmt_u32_short(dst, (uint32_t)hi);
    } else {
        uint64_t top = hi / 100000000;   /* < 10^4: v < 2^64 < 10^20 */
        n = gtr__fmt_u32_short(dst, (uint32_t)top);
        gtr__fmt_8digits(dst + n, (uint32_t)(hi - top * 100000000));
        n += 8;
    }
    gtr__fmt_8digits(dst + n, lo);
    return n + 8;
}

/* gtr__fmt_i64 writes v in decimal (a '-' first when negative) and returns the length (at
 * most 20 bytes). */
static inline size_t gtr__fmt_i64(char *dst, int64_t v)
{
    if (v >= 0)
        return gtr__fmt_u64(dst, (uint64_t)v);
    *dst = '-';
    return 1 + gtr__fmt_u64(dst + 1, -(uint64_t)v);
}

/* The longest i64 (20 bytes: "-9223372036854775808"). */
#define GTR__I64_MAX_LEN 20

/* gtr__fmt_hex writes v in lower-case hex at dst (at most 16 bytes) and returns the length. */
static inline size_t gtr__fmt_hex(char *dst, uint64_t v)
{
    static const char digits[] = "0123456789abcdef";
    char t[16];
    size_t n = 0;
    do {
        t[sizeof t - 1 - n++] = digits[v & 15];
        v >>= 4;
    } while (v != 0);
    memcpy(dst, t + sizeof t - n, n);
    return n;
}

#endif /* GTR_SRC_NUMFMT_H */
