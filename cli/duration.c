/* SPDX-License-Identifier: BSD-3-Clause */
/* duration.c: a port of Go's time.Duration.String (time/time.go of Go 1.27.3: Duration.format,
 * fmtFrac, fmtInt). The text is built backwards from the end of a 32-byte buffer, as Go does:
 * under one second a single unit (ns, µs, ms) with up to 0, 3 or 6 fraction digits; from one
 * second on h, m and s with up to 9 fraction digits, trailing zeros (and a bare point)
 * dropped. The magnitude is taken as uint64, so the most negative value prints correctly. */
#include <string.h>

#include "duration.h"

/* frac writes the fraction v / 10^prec (".12345", trailing zeros omitted, nothing when it is
 * 0) to buf[..*w), moving *w back; returns v / 10^prec. Go: fmtFrac. */
static uint64_t frac(char *buf, int *w, uint64_t v, int prec)
{
    int printed = 0;
    for (int i = 0; i < prec; i++) {
        unsigned digit = (unsigned)(v % 10);
        printed = printed || digit != 0;
        if (printed)
            buf[--*w] = (char)('0' + digit);
        v /= 10;
    }
    if (printed)
        buf[--*w] = '.';
    return v;
}

/* integer writes v in decimal to buf[..*w), moving *w back. Go: fmtInt. */
static void integer(char *buf, int *w, uint64_t v)
{
    if (v == 0) {
        buf[--*w] = '0';
        return;
    }
    for (; v > 0; v /= 10)
        buf[--*w] = (char)('0' + v % 10);
}

char *cli_duration_string(int64_t ns, char out[CLI_DURATION_MAX])
{
    char buf[CLI_DURATION_MAX];
    int w = CLI_DURATION_MAX;
    uint64_t u = (uint64_t)ns;
    const int neg = ns < 0;

    if (neg)
        u = -u;
    buf[--w] = '\0';
    if (u < UINT64_C(1000000000)) {
        /* Under a second: one smaller unit, so that the leading digit is not 0 (1.2ms). */
        int prec = 0;
        buf[--w] = 's';
        if (u == 0) {
            buf[--w] = '0';
            memcpy(out, buf + w, (size_t)(CLI_DURATION_MAX - w));
            return out;
        } else if (u < UINT64_C(1000)) {
            prec = 0;
            buf[--w] = 'n';
        } else if (u < UINT64_C(1000000)) {
            prec = 3;
            buf[--w] = '\xb5'; /* U+00B5 MICRO SIGN, UTF-8 0xC2 0xB5 */
            buf[--w] = '\xc2';
        } else {
            prec = 6;
            buf[--w] = 'm';
        }
        u = frac(buf, &w, u, prec);
        integer(buf, &w, u);
    } else {
        buf[--w] = 's';
        u = frac(buf, &w, u, 9);
        integer(buf, &w, u % 60); /* u: whole seconds */
        u /= 60;
        if (u > 0) { /* u: whole minutes */
            buf[--w] = 'm';
            integer(buf, &w, u % 60);
            u /= 60;
            if (u > 0) { /* u: whole hours; Go stops there, days vary in length */
                buf[--w] = 'h';
                integer(buf, &w, u);
            }
        }
    }
    if (neg)
        buf[--w] = '-';
    memcpy(out, buf + w, (size_t)(CLI_DURATION_MAX - w));
    return out;
}
