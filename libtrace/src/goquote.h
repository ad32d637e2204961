/* SPDX-License-Identifier: BSD-3-Clause */
/* goquote.h: the pieces of Go's unicode/utf8, unicode and strconv that the raw layer needs
 * besides Quote/Unquote: rune decoding with Go's error semantics, unicode.IsSpace,
 * strconv.IsPrint. */
#ifndef GTR_SRC_GOQUOTE_H
#define GTR_SRC_GOQUOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GTR__RUNE_ERROR 0xFFFD

/* gtr__utf8_decode: utf8.DecodeRune(p[0..n)): the rune and its width; (RuneError, 1) for an
 * invalid or incomplete encoding, (RuneError, 0) when n is 0. */
size_t gtr__utf8_decode(const uint8_t *p, size_t n, int32_t *r);
/* gtr__utf8_decode_last: utf8.DecodeLastRune(p[0..n)). */
size_t gtr__utf8_decode_last(const uint8_t *p, size_t n, int32_t *r);
/* gtr__utf8_encode: utf8.AppendRune: 1..4 bytes into out; invalid runes encode RuneError. */
size_t gtr__utf8_encode(uint8_t out[4], int32_t r);
/* gtr__unicode_is_space: unicode.IsSpace (equal to fmt's isSpace). */
bool gtr__unicode_is_space(int32_t r);
/* gtr__go_is_print: strconv.IsPrint. */
bool gtr__go_is_print(int32_t r);

#endif /* GTR_SRC_GOQUOTE_H */
