/* SPDX-License-Identifier: BSD-3-Clause */
/* expect.h: the expected outcome of reading a test trace (Go's testtrace.Expectation).
 *
 * A fixture's `expect` file starts with a line `SUCCESS` or `FAILURE <Go-quoted regexp>`; the
 * regexp must match (unanchored search, like Go's MatchString) the error that reading the
 * trace produces.
 *
 * Regexp dialect. Go's regexps are RE2; gotrace matches them with PCRE2 (UTF mode). Every
 * pattern first goes through a translator that follows Go's regexp/syntax parser: it rejects
 * what RE2 rejects and PCRE2 would accept, with Go's message ("error parsing regexp: <code>:
 * `<expr>`"), and rewrites what the two dialects read differently:
 *   - backreferences (\1, \k<n>, \g1), lookaround ((?=, (?!, (?<=, (?<!), atomic groups
 *     ((?>), comments ((?#), possessive and stacked quantifiers (a*+, a**, a{2}{3}), \C, \Z,
 *     \G, \K, \R, \h, \e, \cX, \X, \N and other unknown escapes, extra flags ((?x), (?n)),
 *     repeat counts above 1000, invalid UTF-8: rejected with Go's message;
 *   - \s means [\t\n\f\r ] (Go's Perl class, without \v); \v, \a and octal/hex escapes are
 *     emitted as code points; `$` matches only at the end of text (PCRE2_DOLLAR_ENDONLY) unless
 *     (?m); `{` that is not a valid repeat is a literal (Go: `a{,5}`, `a{01}`); named groups
 *     (?P<n>..)/(?<n>..) become plain groups (names are checked Go's way: [A-Za-z0-9_]+).
 *   - a repeat after a flag group applies to the operand before it, as in Go (`a(?i)*`);
 *     \p{Assigned} and \p{ASCII} (Go's extra names) are emulated; an unknown \p name gets Go's
 *     "invalid character class range" error.
 * Checked against Go's regexp on 700,000 random patterns and subjects. Remaining differences
 * (not fixture-relevant): under (?i), \p{..} classes are not case-folded (Go folds \p{Lu} to
 * match lower case too); PCRE2 accepts some property names Go rejects (binary properties);
 * a pattern PCRE2 rejects for a reason the translator does not check gets PCRE2's wording
 * ("error parsing regexp: <pcre2 message>: `<pattern>`"); Go's limit on nested repeat sizes
 * and program size, and the Unicode tables' versions, are not reproduced; a subject with invalid UTF-8 is matched with
 * PCRE2_MATCH_INVALID_UTF (invalid bytes never match) where Go reads each as U+FFFD; PCRE2's
 * backtracking is capped by a match limit (Go's RE2 is linear): hitting it is an error. */
#ifndef TGEN_EXPECT_H
#define TGEN_EXPECT_H

#include "gtr/buf.h"
#include "gtr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tgen_expect tgen_expect;   /* opaque; immutable once built */

/* tgen_expect_parse parses an expectation file (ParseExpectation). Only the first line
 * counts (bufio.Scanner: a trailing "\r" is dropped; a first line longer than 65535 bytes is
 * "bufio.Scanner: token too long"); empty data is SUCCESS. Errors (GTR_E_FORMAT) carry Go's
 * text: `bad header line for FAILURE: %q`, `bad header line: %q`,
 * `malformed pattern: not correctly quoted: %s: %v`,
 * `malformed pattern: not a valid regexp: %s: %v`. On success *out owns the expectation. */
GTR_API gtr_status tgen_expect_parse(const void *data, size_t len, tgen_expect **out,
                                     gtr_err *err);

/* tgen_expect_new_success: ExpectSuccess(). */
GTR_API gtr_status tgen_expect_new_success(tgen_expect **out, gtr_err *err);

/* tgen_expect_new_failure expects a failure whose message matches pattern[0..len) (Go's
 * regexp syntax; compiled now). Error: "error parsing regexp: ..." (GTR_E_FORMAT). */
GTR_API gtr_status tgen_expect_new_failure(const char *pattern, size_t len, tgen_expect **out,
                                           gtr_err *err);

/* tgen_expect_is_failure: the expectation is FAILURE. */
GTR_API bool tgen_expect_is_failure(const tgen_expect *e);

/* tgen_expect_pattern returns the regexp's source (NUL-terminated, owned by e; may contain
 * NUL bytes, *len gives the length when len != NULL), or NULL for SUCCESS. */
GTR_API const char *tgen_expect_pattern(const tgen_expect *e, size_t *len);

/* tgen_expect_match reports whether the FAILURE regexp matches s[0..n) somewhere. SUCCESS
 * expectations match nothing. Errors: the PCRE2 match limit, GTR_E_NOMEM. */
GTR_API gtr_status tgen_expect_match(const tgen_expect *e, const char *s, size_t n, bool *matched,
                                     gtr_err *err);

/* tgen_expect_check is Expectation.Check(got): got is the error reading the trace produced,
 * NULL (or got->code >= 0) meaning none. Returns GTR_OK when it conforms, else
 * GTR_E_INVALID with Go's message in err:
 * `unexpected error while reading the trace: %v`,
 * `expected error while reading the trace: want something matching %q, got none`,
 * `unexpected error while reading the trace: want something matching %q, got %s`. */
GTR_API gtr_status tgen_expect_check(const tgen_expect *e, const gtr_err *got, gtr_err *err);

/* tgen_expect_format appends the expectation file's text: "SUCCESS\n" or "FAILURE %q\n"
 * (testgen's Generate). */
GTR_API gtr_status tgen_expect_format(const tgen_expect *e, gtr_buf *out);

/* tgen_expect_format_failure appends "FAILURE %q\n" for pattern[0..len). */
GTR_API gtr_status tgen_expect_format_failure(gtr_buf *out, const char *pattern, size_t len);

/* tgen_expect_free releases e. NULL: no-op. */
GTR_API void tgen_expect_free(tgen_expect *e);

#ifdef __cplusplus
}
#endif
#endif /* TGEN_EXPECT_H */
