/* SPDX-License-Identifier: BSD-3-Clause */
/* input_priv.h: what the raw layer's readers need beyond input.h: lookahead (bufio.Reader's
 * ReadRune/UnreadRune, used by Fscanf) and line reading (bufio.Scanner). */
#ifndef GTR_SRC_INPUT_PRIV_H
#define GTR_SRC_INPUT_PRIV_H

#include "gtr/buf.h"
#include "gtr/input.h"

#define GTR__INPUT_PEEK_MAX 16

/* gtr__input_peek makes the next min(n, GTR__INPUT_PEEK_MAX) bytes contiguous at *p without
 * consuming them. *avail is smaller than asked only at the end of input, or before an input
 * error (which the next read then reports). Returns an error only when no byte is
 * available and the input has failed. */
gtr_status gtr__input_peek(gtr_input *in, size_t n, const uint8_t **p, size_t *avail);
/* gtr__input_skip consumes n bytes of a successful peek (at most *avail). */
void gtr__input_skip(gtr_input *in, size_t n);

/* gtr__input_borrow hands out the next n bytes in place, consumed, when they lie in memory
 * that outlives the input: a plain (not gzip) memory input (gtr_input_open_memory), whose
 * caller keeps the data alive until gtr_input_free. Returns false, consuming nothing, for any
 * other input or when fewer than n bytes are at hand; the caller then copies with
 * gtr_input_read. */
bool gtr__input_borrow(gtr_input *in, size_t n, const uint8_t **p);
/* gtr__input_borrow_rest is gtr__input_borrow of everything left in such an input (*n bytes
 * at *p, then the input is at its end). False, consuming nothing, for any other input, at
 * the end of input, after an error, or when a limit cuts the input short (a read then
 * reports it). */
bool gtr__input_borrow_rest(gtr_input *in, const uint8_t **p, size_t *n);

/* gtr__input_release_before tells the input's release function (gtr_input_set_release),
 * if any, that no byte before offset is borrowed any more. */
void gtr__input_release_before(gtr_input *in, uint64_t offset);

/* gtr__input_read_line reads the next line into line (reset first) as bufio.Scanner with
 * ScanLines does: the line ends at '\n' (not included), one trailing '\r' is dropped, a last
 * line without '\n' counts if it is not empty. GTR_EOF ("EOF") when no line is left. An input
 * error after part of a line returns that part first, then the error. A line of 64 KiB or
 * more (its '\r' counted) fails as Go's scanner fails it, GTR_E_FORMAT "bufio.Scanner: token
 * too long", having held at most 64 KiB of it. */
gtr_status gtr__input_read_line(gtr_input *in, gtr_buf *line, gtr_err *err);

#endif /* GTR_SRC_INPUT_PRIV_H */
