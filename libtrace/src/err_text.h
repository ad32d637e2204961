/* SPDX-License-Identifier: BSD-3-Clause */
/* err_text.h: an error's text set without printf, for refusals that run hot.
 *
 * The accessors refuse with Go's panic text when called on an event of another kind, and the
 * fuzz targets probe every one of them: a vsnprintf for each refusal costs more than the
 * rest of the call. These give the same bytes with a memcpy and a few divisions. */
#ifndef GTR_ERR_TEXT_H
#define GTR_ERR_TEXT_H

#include <stdint.h>
#include <string.h>

#include "gtr/status.h"

/* gtr__err_setn sets err's text to s[0..n) and its code; returns code. NULL err: no-op. */
static inline gtr_status gtr__err_setn(gtr_err *err, gtr_status code, const char *s, size_t n)
{
    return gtr_err_setn(err, code, s, n);
}

/* GTR__ERR_LIT(err, code, "literal"): gtr__err_setn of a string literal. */
#define GTR__ERR_LIT(err, code, lit) gtr__err_setn((err), (code), "" lit, sizeof(lit) - 1)

/* gtr__err_put appends s[0..n) at b[*at]; b has room (callers size it for their texts). */
static inline void gtr__err_put(char *b, size_t *at, const char *s, size_t n)
{
    memcpy(b + *at, s, n);
    *at += n;
}

/* gtr__err_put_dec appends v in decimal (Go's %d), with a '-' when neg. */
static inline void gtr__err_put_dec(char *b, size_t *at, uint64_t v, bool neg)
{
    char d[20];
    size_t k = sizeof d;
    do {
        d[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    if (neg)
        b[(*at)++] = '-';
    gtr__err_put(b, at, d + k, sizeof d - k);
}

/* gtr__err_index is Go's "runtime error: index out of range [i] with length n" panic. */
static inline gtr_status gtr__err_index(gtr_err *err, uint64_t i, uint64_t n)
{
    static const char head[] = "runtime error: index out of range [";
    static const char mid[] = "] with length ";
    char b[sizeof head + sizeof mid + 40];
    size_t at = 0;
    if (err == NULL)
        return GTR_E_USAGE;
    gtr__err_put(b, &at, head, sizeof head - 1);
    gtr__err_put_dec(b, &at, i, false);
    gtr__err_put(b, &at, mid, sizeof mid - 1);
    gtr__err_put_dec(b, &at, n, false);
    return gtr__err_setn(err, GTR_E_USAGE, b, at);
}

#endif /* GTR_ERR_TEXT_H */
