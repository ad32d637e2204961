/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testtrace/expectation.go at go1.27.3.
 *
 * Go compiles the FAILURE pattern with package regexp (RE2 syntax); we use PCRE2. Between
 * the two sits translate(), a walk over the pattern that follows Go's regexp/syntax parser
 * (parse, parsePerlFlags, parseRepeat, parseClass, parseEscape, parseUnicodeClass in
 * src/regexp/syntax/parse.go) closely enough to reject, with Go's messages, everything RE2
 * rejects that PCRE2 would accept, and to rewrite the constructs the dialects read
 * differently into unambiguous PCRE2 (every literal inside a class and every escaped literal
 * becomes \x{HEX}; \s becomes Go's [\t\n\f\r ]). expect.h lists the remaining differences. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "tgen/expect.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "gtr/raw.h"

/* Go's regexp/syntax error codes (ErrorCode strings). */
#define ERR_INVALID_CHAR_RANGE "invalid character class range"
#define ERR_INVALID_ESCAPE "invalid escape sequence"
#define ERR_INVALID_NAMED_CAPTURE "invalid named capture"
#define ERR_INVALID_PERL_OP "invalid or unsupported Perl syntax"
#define ERR_INVALID_REPEAT_OP "invalid nested repetition operator"
#define ERR_INVALID_REPEAT_SIZE "invalid repeat count"
#define ERR_INVALID_UTF8 "invalid UTF-8"
#define ERR_MISSING_BRACKET "missing closing ]"
#define ERR_MISSING_PAREN "missing closing )"
#define ERR_MISSING_REPEAT_ARGUMENT "missing argument to repetition operator"
#define ERR_TRAILING_BACKSLASH "trailing backslash at end of expression"
#define ERR_UNEXPECTED_PAREN "unexpected )"

/* Go's bufio.MaxScanTokenSize: the longest first line ParseExpectation can read is one less
 * (the buffer must hold the line and see past it). */
#define SCAN_MAX_TOKEN 65536

/* PCRE2 backtracking cap: Go's RE2 never backtracks; a pathological pattern errors here. */
#define MATCH_LIMIT 10000000u

#define NONE ((size_t)-1)
#define RUNE_ERROR 0xFFFD
#define MAX_RUNE 0x10FFFF

struct tgen_expect {
    bool failure;
    char *pattern;          /* NUL-terminated copy, NULL for SUCCESS */
    size_t pattern_len;
    pcre2_code *code;
    pcre2_match_context *mctx;
};

/* --- UTF-8, as Go's utf8.DecodeRuneInString ------------------------------------------- */

/* decode_rune decodes the rune at p[0..n): returns its size (0 for n == 0, 1 with
 * RUNE_ERROR for invalid input). *bad tells invalid input from a literal U+FFFD. */
static size_t decode_rune(const unsigned char *p, size_t n, int32_t *r, bool *bad)
{
    *bad = false;
    if (n == 0) {
        *r = RUNE_ERROR;
        return 0;
    }
    unsigned char c = p[0];
    if (c < 0x80) {
        *r = c;
        return 1;
    }
    size_t need;
    int32_t v;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        need = 2, v = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 3, v = c & 0x0F;
        if (c == 0xE0)
            lo = 0xA0;
        if (c == 0xED)
            hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 4, v = c & 0x07;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else {
        goto bad;
    }
    if (n < need || p[1] < lo || p[1] > hi)
        goto bad;
    v = (v << 6) | (p[1] & 0x3F);
    for (size_t k = 2; k < need; k++) {
        if (p[k] < 0x80 || p[k] > 0xBF)
            goto bad;
        v = (v << 6) | (p[k] & 0x3F);
    }
    *r = v;
    return need;
bad:
    *r = RUNE_ERROR;
    *bad = true;
    return 1;
}

/* --- The RE2 -> PCRE2 translator --------------------------------------------------------- */

typedef struct tr {
    const unsigned char *s;  /* the whole pattern */
    size_t n;
    gtr_buf *out;            /* the PCRE2 pattern */
    gtr_err *err;
} tr;

/* re_error: Go's syntax.Error.Error(): "error parsing regexp: " + code + ": `" + expr + "`". */
static gtr_status re_error(tr *t, const char *code, size_t from, size_t to)
{
    return gtr_err_setf(t->err, GTR_E_FORMAT, "error parsing regexp: %s: `%.*s`", code,
                        (int)(to - from), (const char *)t->s + from);
}

/* next_rune is Go's nextRune at t->s[i]: the rune and its size, or the invalid UTF-8 error
 * (whose expression is the rest of the pattern). */
static gtr_status next_rune(tr *t, size_t i, int32_t *r, size_t *size)
{
    bool bad;
    *size = decode_rune(t->s + i, t->n - i, r, &bad);
    if (bad)
        return re_error(t, ERR_INVALID_UTF8, i, t->n);
    return GTR_OK;
}

/* check_utf8 is Go's checkUTF8 on t->s[from..to). */
static gtr_status check_utf8(tr *t, size_t from, size_t to)
{
    while (from < to) {
        int32_t r;
        bool bad;
        size_t sz = decode_rune(t->s + from, to - from, &r, &bad);
        if (bad)
            return gtr_err_setf(t->err, GTR_E_FORMAT, "error parsing regexp: %s: `%.*s`",
                                ERR_INVALID_UTF8, (int)(to - from), (const char *)t->s + from);
        from += sz;
    }
    return GTR_OK;
}

static bool is_alnum(int32_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int unhex(int32_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void emit_rune(tr *t, int32_t r)
{
    gtr_buf_printf(t->out, "\\x{%lx}", (unsigned long)r);
}

/* parse_escape is Go's parseEscape at the backslash t->s[i]: the rune and the index after
 * the escape. */
static gtr_status parse_escape(tr *t, size_t i, int32_t *r, size_t *next)
{
    size_t p = i + 1, sz;
    int32_t c;
    gtr_status st;

    if (p >= t->n)
        return re_error(t, ERR_TRAILING_BACKSLASH, p, p);
    if ((st = next_rune(t, p, &c, &sz)) < 0)
        return st;
    p += sz;
    if (c < 0x80 && !is_alnum(c)) {
        /* Escaped non-word characters are always themselves. */
        *r = c;
        *next = p;
        return GTR_OK;
    }
    switch (c) {
    case '1': case '2': case '3': case '4': case '5': case '6': case '7':
        /* A single non-zero digit is a backreference: not supported. */
        if (p >= t->n || t->s[p] < '0' || t->s[p] > '7')
            break;
        goto octal;
    case '0':
    octal:
        /* Up to three octal digits; we have one. */
        *r = c - '0';
        for (int k = 1; k < 3; k++) {
            if (p >= t->n || t->s[p] < '0' || t->s[p] > '7')
                break;
            *r = *r * 8 + (t->s[p] - '0');
            p++;
        }
        *next = p;
        return GTR_OK;
    case 'x': {
        if (p >= t->n)
            break;
        if ((st = next_rune(t, p, &c, &sz)) < 0)
            return st;
        p += sz;
        if (c == '{') {
            /* Any number of hex digits in braces, at least one. */
            int nhex = 0;
            int32_t v = 0;
            for (;;) {
                if (p >= t->n)
                    goto invalid;
                if ((st = next_rune(t, p, &c, &sz)) < 0)
                    return st;
                p += sz;
                if (c == '}')
                    break;
                int h = unhex(c);
                if (h < 0)
                    goto invalid;
                v = v * 16 + h;
                if (v > MAX_RUNE)
                    goto invalid;
                nhex++;
            }
            if (nhex == 0)
                goto invalid;
            *r = v;
            *next = p;
            return GTR_OK;
        }
        /* Two hex digits. */
        int x = unhex(c);
        if ((st = next_rune(t, p, &c, &sz)) < 0)
            return st;
        p += sz;
        int y = unhex(c);
        if (x < 0 || y < 0)
            break;
        *r = x * 16 + y;
        *next = p;
        return GTR_OK;
    }
    /* C escapes; no \b (word boundary outside classes, rejected inside). */
    case 'a': *r = '\a'; *next = p; return GTR_OK;
    case 'f': *r = '\f'; *next = p; return GTR_OK;
    case 'n': *r = '\n'; *next = p; return GTR_OK;
    case 'r': *r = '\r'; *next = p; return GTR_OK;
    case 't': *r = '\t'; *next = p; return GTR_OK;
    case 'v': *r = '\v'; *next = p; return GTR_OK;
    default:
        break;
    }
invalid:
    return re_error(t, ERR_INVALID_ESCAPE, i, p);
}

/* perl_class is Go's parsePerlClassEscape: \d \D \s \S \w \W at t->s[i]. Emits the PCRE2
 * equivalent (in or out of a class) and returns true. */
static bool perl_class(tr *t, size_t i, bool in_class)
{
    if (t->n - i < 2 || t->s[i] != '\\')
        return false;
    switch (t->s[i + 1]) {
    case 'd': case 'D': case 'w': case 'W':
        gtr_buf_append(t->out, t->s + i, 2);
        return true;
    case 's': /* Go: [\t\n\f\r ] (no \v, unlike PCRE2) */
        gtr_buf_puts(t->out, in_class ? "\\x{9}\\x{a}\\x{c}\\x{d}\\x{20}"
                                      : "[\\x{9}\\x{a}\\x{c}\\x{d}\\x{20}]");
        return true;
    case 'S':
        gtr_buf_puts(t->out, in_class ? "\\x{0}-\\x{8}\\x{b}\\x{e}-\\x{1f}\\x{21}-\\x{10ffff}"
                                      : "[^\\x{9}\\x{a}\\x{c}\\x{d}\\x{20}]");
        return true;
    default:
        return false;
    }
}

/* canonical_is reports whether Go's canonicalName(name) equals want: '_', '-' and ' ' dropped,
 * the first letter upper-case, the others lower-case. */
static bool canonical_is(const unsigned char *name, size_t n, const char *want)
{
    size_t k = 0;
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = name[i];
        if (c == '_' || c == '-' || c == ' ')
            continue;
        if (first && c >= 'a' && c <= 'z')
            c = (unsigned char)(c - 'a' + 'A');
        else if (!first && c >= 'A' && c <= 'Z')
            c = (unsigned char)(c - 'A' + 'a');
        first = false;
        if (want[k] == '\0' || (unsigned char)want[k] != c)
            return false;
        k++;
    }
    return want[k] == '\0';
}

/* pcre2_knows_property reports whether PCRE2 compiles \p{name}. */
static bool pcre2_knows_property(const unsigned char *name, size_t n)
{
    char pat[80];
    int code;
    PCRE2_SIZE off;
    if (n > sizeof pat - 5)
        return false;
    memcpy(pat, "\\p{", 3);
    memcpy(pat + 3, name, n);
    pat[3 + n] = '}';
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, n + 4, PCRE2_UTF, &code, &off, NULL);
    pcre2_code_free(re);
    return re != NULL;
}

/* unicode_class is Go's parseUnicodeClass at t->s[i] (\p or \P). *handled is false when
 * t->s[i] does not start one. Go's table lookup (unicodeTable) is approximated by PCRE2's,
 * which matches names loosely too (and knows Any), plus Go's extra names Assigned and ASCII; a name
 * neither knows gets Go's error. */
static gtr_status unicode_class(tr *t, size_t i, bool in_class, size_t *next, bool *handled)
{
    *handled = false;
    if (t->n - i < 2 || t->s[i] != '\\' || (t->s[i + 1] != 'p' && t->s[i + 1] != 'P'))
        return GTR_OK;
    *handled = true;
    size_t p = i + 2, sz, name, name_end, seq_end;
    int32_t c;
    gtr_status st;
    if ((st = next_rune(t, p, &c, &sz)) < 0)
        return st;
    if (c != '{') {
        /* Single-letter name. */
        name = p;
        name_end = seq_end = p + sz;
    } else {
        const unsigned char *end = memchr(t->s + i, '}', t->n - i);
        if (end == NULL) {
            if ((st = check_utf8(t, i, t->n)) < 0)
                return st;
            return re_error(t, ERR_INVALID_CHAR_RANGE, i, t->n);
        }
        name = i + 3;
        name_end = (size_t)(end - t->s);
        seq_end = name_end + 1;
        if ((st = check_utf8(t, name, name_end)) < 0)
            return st;
    }
    bool neg = t->s[i + 1] == 'P';
    if (name < name_end && t->s[name] == '^') {
        neg = !neg;
        name++;
    }
    const unsigned char *nm = t->s + name;
    size_t nlen = name_end - name;
    if (canonical_is(nm, nlen, "Assigned")) {
        gtr_buf_puts(t->out, neg ? "\\p{Cn}" : "\\P{Cn}");
    } else if (canonical_is(nm, nlen, "Ascii")) {
        gtr_buf_puts(t->out, neg ? (in_class ? "\\x{80}-\\x{10ffff}" : "[^\\x{0}-\\x{7f}]")
                                 : (in_class ? "\\x{0}-\\x{7f}" : "[\\x{0}-\\x{7f}]"));
    } else if (nlen > 0 && pcre2_knows_property(nm, nlen)) {
        gtr_buf_puts(t->out, neg ? "\\P{" : "\\p{");
        gtr_buf_append(t->out, nm, nlen);
        gtr_buf_putc(t->out, '}');
    } else {
        return re_error(t, ERR_INVALID_CHAR_RANGE, i, seq_end);
    }
    *next = seq_end;
    return GTR_OK;
}

static const char *const posix_classes[] = {
    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph",
    "lower", "print", "punct", "space", "upper", "word",  "xdigit",
};

/* named_class is Go's parseNamedClass at t->s[i] ("[:name:]" inside a class). */
static gtr_status named_class(tr *t, size_t i, size_t *next, bool *handled)
{
    *handled = false;
    if (t->n - i <= 2 || t->s[i] != '[' || t->s[i + 1] != ':')
        return GTR_OK;
    size_t k;
    for (k = i + 2; k + 1 < t->n; k++) {
        if (t->s[k] == ':' && t->s[k + 1] == ']')
            break;
    }
    if (k + 1 >= t->n)
        return GTR_OK;
    size_t end = k + 2, nm = i + 2;
    if (t->s[nm] == '^')
        nm++;
    for (size_t c = 0; c < sizeof posix_classes / sizeof posix_classes[0]; c++) {
        size_t l = strlen(posix_classes[c]);
        if (k - nm == l && memcmp(t->s + nm, posix_classes[c], l) == 0) {
            gtr_buf_append(t->out, t->s + i, end - i);
            *handled = true;
            *next = end;
            return GTR_OK;
        }
    }
    return re_error(t, ERR_INVALID_CHAR_RANGE, i, end);
}

/* class_char is Go's parseClassChar at t->s[i]; class is the index of the class's '['. */
static gtr_status class_char(tr *t, size_t i, size_t class, int32_t *r, size_t *next)
{
    size_t sz;
    gtr_status st;
    if (i >= t->n)
        return re_error(t, ERR_MISSING_BRACKET, class, t->n);
    if (t->s[i] == '\\')
        return parse_escape(t, i, r, next);
    if ((st = next_rune(t, i, r, &sz)) < 0)
        return st;
    *next = i + sz;
    return GTR_OK;
}

/* parse_class is Go's parseClass at the '[' t->s[i]. */
static gtr_status parse_class(tr *t, size_t i, size_t *next)
{
    size_t p = i + 1;
    bool first = true, handled;
    gtr_status st;

    gtr_buf_putc(t->out, '[');
    if (p < t->n && t->s[p] == '^') {
        gtr_buf_putc(t->out, '^');
        p++;
    }
    while (p >= t->n || t->s[p] != ']' || first) {
        first = false;
        if ((st = named_class(t, p, &p, &handled)) < 0)
            return st;
        if (handled)
            continue;
        if ((st = unicode_class(t, p, true, &p, &handled)) < 0)
            return st;
        if (handled)
            continue;
        if (p < t->n && perl_class(t, p, true)) {
            p += 2;
            continue;
        }
        size_t rng = p;
        int32_t lo, hi;
        if ((st = class_char(t, p, i, &lo, &p)) < 0)
            return st;
        hi = lo;
        /* [a-] means (a|-), so check for the final ]. */
        if (t->n - p >= 2 && t->s[p] == '-' && t->s[p + 1] != ']') {
            if ((st = class_char(t, p + 1, i, &hi, &p)) < 0)
                return st;
            if (hi < lo)
                return re_error(t, ERR_INVALID_CHAR_RANGE, rng, p);
        }
        emit_rune(t, lo);
        if (hi != lo) {
            gtr_buf_putc(t->out, '-');
            emit_rune(t, hi);
        }
    }
    gtr_buf_putc(t->out, ']');
    *next = p + 1;
    return GTR_OK;
}

/* parse_int is Go's parser.parseInt at t->s[*p]: decimal, no leading zeros, -1 when too big. */
static bool parse_int(tr *t, size_t *p, long *v)
{
    size_t i = *p;
    if (i >= t->n || t->s[i] < '0' || t->s[i] > '9')
        return false;
    if (t->n - i >= 2 && t->s[i] == '0' && t->s[i + 1] >= '0' && t->s[i + 1] <= '9')
        return false;
    long n = 0;
    for (; i < t->n && t->s[i] >= '0' && t->s[i] <= '9'; i++) {
        if (n >= 100000000L)
            n = -1;
        if (n >= 0)
            n = n * 10 + (t->s[i] - '0');
    }
    *p = i;
    *v = n;
    return true;
}

/* parse_repeat is Go's parseRepeat at the '{' t->s[i]: {min}, {min,} (max -1), {min,max}. */
static bool parse_repeat(tr *t, size_t i, long *min, long *max, size_t *after)
{
    size_t p = i + 1;
    if (!parse_int(t, &p, min) || p >= t->n)
        return false;
    if (t->s[p] != ',') {
        *max = *min;
    } else {
        p++;
        if (p >= t->n)
            return false;
        if (t->s[p] == '}') {
            *max = -1;
        } else if (!parse_int(t, &p, max)) {
            return false;
        } else if (*max < 0) {
            *min = -1; /* too big */
        }
    }
    if (p >= t->n || t->s[p] != '}')
        return false;
    *after = p + 1;
    return true;
}

/* perl_flags is Go's parsePerlFlags at "(?" (t->s[i]). *opened: a group was opened. */
static gtr_status perl_flags(tr *t, size_t i, size_t *next, bool *opened)
{
    size_t len = t->n - i;
    bool with_p = len > 4 && t->s[i + 2] == 'P' && t->s[i + 3] == '<';
    bool with_name = len > 3 && t->s[i + 2] == '<';
    gtr_status st;

    *opened = false;
    if (with_p || with_name) {
        size_t start = i + (with_p ? 4 : 3);
        const unsigned char *gt = memchr(t->s + i, '>', len);
        if (gt == NULL) {
            if ((st = check_utf8(t, i, t->n)) < 0)
                return st;
            return re_error(t, ERR_INVALID_NAMED_CAPTURE, i, t->n);
        }
        size_t end = (size_t)(gt - t->s);
        if ((st = check_utf8(t, start, end)) < 0)
            return st;
        bool valid = end > start;
        for (size_t k = start; k < end; k++) {
            if (t->s[k] != '_' && !is_alnum(t->s[k]))
                valid = false;
        }
        if (!valid)
            return re_error(t, ERR_INVALID_NAMED_CAPTURE, i, end + 1);
        /* Names only matter to submatch APIs: a plain group matches the same. */
        gtr_buf_putc(t->out, '(');
        *opened = true;
        *next = end + 1;
        return GTR_OK;
    }

    /* Non-capturing group, perhaps with flags: copy the flags, which mean the same in
     * PCRE2 (i, m, s, U). */
    size_t p = i + 2, sz;
    int sign = 1;
    bool saw = false;
    while (p < t->n) {
        int32_t c;
        if ((st = next_rune(t, p, &c, &sz)) < 0)
            return st;
        p += sz;
        if (c == 'i' || c == 'm' || c == 's' || c == 'U') {
            saw = true;
        } else if (c == '-') {
            if (sign < 0)
                break;
            sign = -1;
            saw = false;
        } else if (c == ':' || c == ')') {
            if (sign < 0 && !saw)
                break;
            if (p - i > 3 || c == ':')
                gtr_buf_append(t->out, t->s + i, p - i);
            *opened = c == ':';
            *next = p;
            return GTR_OK;
        } else {
            break;
        }
    }
    return re_error(t, ERR_INVALID_PERL_OP, i, p);
}

/* The translator's parse state, beyond Go's: where the operand on top of Go's parse stack
 * starts in the output (so a repeat can wrap it), the output offsets of the open groups, and
 * flag groups waiting to be written. */
typedef struct tstate {
    bool operand;      /* the stack's top can take a repetition operator */
    bool top_repeat;   /* ... and it is a repetition itself */
    size_t atom;       /* output offset where that operand starts */
    size_t *groups;    /* output offsets of the open groups' '(' */
    size_t depth, cap;
    gtr_buf pending;   /* flag-only groups, e.g. "(?i)" */
} tstate;

static gtr_status push_group(tr *t, tstate *ts)
{
    if (ts->depth == ts->cap) {
        size_t ncap = ts->cap ? ts->cap * 2 : 16;
        size_t *ng = ncap > ts->cap ? realloc(ts->groups, ncap * sizeof *ng) : NULL;
        if (ng == NULL)
            return gtr_err_setf(t->err, GTR_E_NOMEM, "out of memory");
        ts->groups = ng;
        ts->cap = ncap;
    }
    ts->groups[ts->depth++] = t->out->len;
    ts->operand = ts->top_repeat = false;
    return GTR_OK;
}

/* atom_begins notes that an operand starts at the current end of the output. */
static void atom_begins(tr *t, tstate *ts)
{
    ts->atom = t->out->len;
    ts->operand = true;
    ts->top_repeat = false;
}

/* flush_pending writes the deferred flag groups. Go applies a repeat that follows a flag group
 * to the operand before it (`a(?i)*` is `a*` then `(?i)`); PCRE2 does not, so flag groups are
 * written only once it is known that no repeat follows. The repeat's greediness (which (?U)
 * may change) does not matter: only whether the pattern matches does. */
static void flush_pending(tr *t, tstate *ts)
{
    if (ts->pending.len > 0) {
        gtr_buf_append(t->out, ts->pending.data, ts->pending.len);
        gtr_buf_reset(&ts->pending);
    }
}

/* wrap_atom turns the operand on top into a group, so that a second repetition can apply to
 * a first one (Go allows `a*(?i)*`; PCRE2 rejects `a**`). */
static gtr_status wrap_atom(tr *t, tstate *ts)
{
    gtr_buf *o = t->out;
    gtr_status st = gtr_buf_reserve(o, 4);
    if (st < 0)
        return gtr_err_setf(t->err, GTR_E_NOMEM, "out of memory");
    memmove(o->data + ts->atom + 3, o->data + ts->atom, o->len - ts->atom);
    memcpy(o->data + ts->atom, "(?:", 3);
    o->len += 3;
    o->data[o->len] = '\0';
    return gtr_buf_putc(o, ')');
}

/* translate_token handles the token at t->s[*i] (one iteration of Go's parse loop); *repeat
 * receives Go's `repeat` (where a repetition operator started, or NONE). */
static gtr_status translate_token(tr *t, tstate *ts, size_t *i, size_t last_repeat,
                                  size_t *repeat)
{
    unsigned char c = t->s[*i];
    size_t sz;
    gtr_status st;

    *repeat = NONE;
    if (c == '*' || c == '+' || c == '?' || c == '{') {
        size_t before = *i, after = *i + 1;
        long min = 0, max = 0;
        if (c == '{' && !parse_repeat(t, *i, &min, &max, &after)) {
            /* Not a repeat: { is a literal. */
            flush_pending(t, ts);
            atom_begins(t, ts);
            gtr_buf_puts(t->out, "\\{");
            *i += 1;
            return GTR_OK;
        }
        if (c == '{' && (min < 0 || min > 1000 || max > 1000 || (max >= 0 && min > max)))
            return re_error(t, ERR_INVALID_REPEAT_SIZE, before, after);
        if (after < t->n && t->s[after] == '?')
            after++;
        /* Go: stacked repetition (a**, a++) is a syntax error. */
        if (last_repeat != NONE)
            return re_error(t, ERR_INVALID_REPEAT_OP, last_repeat, after);
        if (!ts->operand)
            return re_error(t, ERR_MISSING_REPEAT_ARGUMENT, before, after);
        if (ts->top_repeat && (st = wrap_atom(t, ts)) < 0)
            return st;
        gtr_buf_append(t->out, t->s + before, after - before);
        ts->top_repeat = true;
        flush_pending(t, ts);
        *repeat = before;
        *i = after;
        return GTR_OK;
    }

    if (c == '(' && t->n - *i >= 2 && t->s[*i + 1] == '?') {
        gtr_buf scratch = {0}, *out = t->out;
        bool opened;
        t->out = &scratch;
        st = perl_flags(t, *i, i, &opened);
        t->out = out;
        if (st >= 0 && opened) {
            /* A group opens: the flags before it apply from here on. */
            flush_pending(t, ts);
            if ((st = push_group(t, ts)) >= 0)
                gtr_buf_append(t->out, scratch.data, scratch.len);
        } else if (st >= 0) {
            /* A flag-only group: defer it (see flush_pending). */
            gtr_buf_append(&ts->pending, scratch.data, scratch.len);
        }
        gtr_buf_free(&scratch);
        return st;
    }

    flush_pending(t, ts);
    switch (c) {
    case '(':
        if ((st = push_group(t, ts)) < 0)
            return st;
        gtr_buf_putc(t->out, '(');
        *i += 1;
        break;
    case '|':
        gtr_buf_putc(t->out, '|');
        ts->operand = ts->top_repeat = false;
        *i += 1;
        break;
    case ')':
        if (ts->depth == 0)
            return re_error(t, ERR_UNEXPECTED_PAREN, 0, t->n);
        gtr_buf_putc(t->out, ')');
        ts->atom = ts->groups[--ts->depth];
        ts->operand = true;
        ts->top_repeat = false;
        *i += 1;
        break;
    case '^':
    case '$':
        /* Go lets an empty-width assertion take a repetition (^*); PCRE2 wants a group. */
        atom_begins(t, ts);
        gtr_buf_printf(t->out, "(?:%c)", c);
        *i += 1;
        break;
    case '.':
        atom_begins(t, ts);
        gtr_buf_putc(t->out, '.');
        *i += 1;
        break;
    case '[':
        atom_begins(t, ts);
        if ((st = parse_class(t, *i, i)) < 0)
            return st;
        break;
    case '\\': {
        if (t->n - *i >= 2) {
            unsigned char e = t->s[*i + 1];
            if (e == 'A' || e == 'b' || e == 'B' || e == 'z') {
                atom_begins(t, ts);
                gtr_buf_printf(t->out, "(?:\\%c)", e);
                *i += 2;
                break;
            }
            if (e == 'C') /* any byte; not supported */
                return re_error(t, ERR_INVALID_ESCAPE, *i, *i + 2);
            if (e == 'Q') {
                /* \Q ... \E: the ... is always literals. */
                size_t lit = *i + 2, end = lit;
                while (end < t->n &&
                       !(t->s[end] == '\\' && end + 1 < t->n && t->s[end + 1] == 'E'))
                    end++;
                for (size_t k = lit; k < end; k += sz) {
                    int32_t r;
                    if ((st = next_rune(t, k, &r, &sz)) < 0)
                        return gtr_err_setf(t->err, GTR_E_FORMAT,
                                            "error parsing regexp: %s: `%.*s`", ERR_INVALID_UTF8,
                                            (int)(end - k), (const char *)t->s + k);
                    atom_begins(t, ts);
                    emit_rune(t, r);
                }
                *i = end < t->n ? end + 2 : t->n;
                break;
            }
        }
        bool handled;
        size_t at = t->out->len;
        if ((st = unicode_class(t, *i, false, i, &handled)) < 0)
            return st;
        if (handled) {
            ts->atom = at;
            ts->operand = true;
            ts->top_repeat = false;
            break;
        }
        atom_begins(t, ts);
        if (perl_class(t, *i, false)) {
            *i += 2;
            break;
        }
        int32_t r;
        if ((st = parse_escape(t, *i, &r, i)) < 0)
            return st;
        emit_rune(t, r);
        break;
    }
    default: {
        int32_t r;
        if ((st = next_rune(t, *i, &r, &sz)) < 0)
            return st;
        atom_begins(t, ts);
        gtr_buf_append(t->out, t->s + *i, sz);
        *i += sz;
        break;
    }
    }
    return GTR_OK;
}

/* translate writes the PCRE2 form of the Go regexp t->s into t->out (Go's parse loop). */
static gtr_status translate(tr *t)
{
    tstate ts;
    size_t i = 0, last_repeat = NONE;
    gtr_status st = GTR_OK;

    memset(&ts, 0, sizeof ts);
    while (i < t->n) {
        size_t repeat;
        if ((st = translate_token(t, &ts, &i, last_repeat, &repeat)) < 0)
            goto out;
        last_repeat = repeat;
    }
    flush_pending(t, &ts);
    if (ts.depth > 0) {
        st = re_error(t, ERR_MISSING_PAREN, 0, t->n);
        goto out;
    }
    if ((st = gtr_buf_status(t->out)) < 0 || (st = gtr_buf_status(&ts.pending)) < 0)
        st = gtr_err_setf(t->err, GTR_E_NOMEM, "out of memory");
out:
    free(ts.groups);
    gtr_buf_free(&ts.pending);
    return st;
}

/* compile turns the Go regexp pattern[0..len) into e->code, or fails with Go's message. */
static gtr_status compile(tgen_expect *e, const char *pattern, size_t len, gtr_err *err)
{
    gtr_buf pcre = {0};
    tr t = {(const unsigned char *)pattern, len, &pcre, err};
    gtr_status st = translate(&t);
    pcre2_compile_context *cctx = NULL;

    if (st < 0)
        goto out;
    if ((st = gtr_buf_reserve(&pcre, 1)) < 0) /* data is non-NULL even for "" */
        goto out;
    if ((cctx = pcre2_compile_context_create(NULL)) == NULL) {
        st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        goto out;
    }
    pcre2_set_newline(cctx, PCRE2_NEWLINE_LF);
    int code;
    PCRE2_SIZE off;
    e->code = pcre2_compile((PCRE2_SPTR)pcre.data, pcre.len,
                            PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_MATCH_INVALID_UTF |
                                PCRE2_NEVER_BACKSLASH_C,
                            &code, &off, cctx);
    if (e->code == NULL) {
        PCRE2_UCHAR msg[256];
        if (pcre2_get_error_message(code, msg, sizeof msg) < 0)
            strcpy((char *)msg, "unknown PCRE2 error");
        st = gtr_err_setf(err, GTR_E_FORMAT, "error parsing regexp: %s: `%.*s`", (char *)msg,
                          (int)len, pattern);
        goto out;
    }
    if ((e->mctx = pcre2_match_context_create(NULL)) == NULL) {
        st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        goto out;
    }
    pcre2_set_match_limit(e->mctx, MATCH_LIMIT);
    st = GTR_OK;
out:
    pcre2_compile_context_free(cctx);
    gtr_buf_free(&pcre);
    return st;
}

/* --- Expectations ------------------------------------------------------------------------- */

void tgen_expect_free(tgen_expect *e)
{
    if (e == NULL)
        return;
    pcre2_match_context_free(e->mctx);
    pcre2_code_free(e->code);
    free(e->pattern);
    free(e);
}

gtr_status tgen_expect_new_success(tgen_expect **out, gtr_err *err)
{
    *out = calloc(1, sizeof **out);
    if (*out == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    return GTR_OK;
}

gtr_status tgen_expect_new_failure(const char *pattern, size_t len, tgen_expect **out,
                                   gtr_err *err)
{
    tgen_expect *e = calloc(1, sizeof *e);
    gtr_status st;

    *out = NULL;
    if (e == NULL || (e->pattern = malloc(len + 1)) == NULL) {
        free(e);
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    }
    e->failure = true;
    if (len > 0)
        memcpy(e->pattern, pattern, len);
    e->pattern[len] = '\0';
    e->pattern_len = len;
    if ((st = compile(e, pattern, len, err)) < 0) {
        tgen_expect_free(e);
        return st;
    }
    *out = e;
    return GTR_OK;
}

/* quote appends strconv.Quote(s) to b (for %q). */
static const char *quote(gtr_buf *b, const char *s, size_t n)
{
    gtr_buf_reset(b);
    gtr_go_quote(b, s, n);
    return gtr_buf_status(b) == GTR_OK ? b->data : "";
}

gtr_status tgen_expect_parse(const void *data, size_t len, tgen_expect **out, gtr_err *err)
{
    const char *s = len > 0 ? data : "";
    const char *nl = memchr(s, '\n', len);
    size_t line = nl != NULL ? (size_t)(nl - s) : len;
    gtr_buf q = {0}, pat = {0};
    gtr_err sub = GTR_ERR_INIT;
    gtr_status st;

    *out = NULL;
    if (len == 0) /* no line at all: s.Scan() is false and s.Err() nil */
        return tgen_expect_new_success(out, err);
    if (line >= SCAN_MAX_TOKEN)
        return gtr_err_setf(err, GTR_E_FORMAT, "bufio.Scanner: token too long");
    if (line > 0 && s[line - 1] == '\r') /* ScanLines drops a final \r */
        line--;

    const char *sp = memchr(s, ' ', line);
    size_t head = sp != NULL ? (size_t)(sp - s) : line;
    if (head == 7 && memcmp(s, "SUCCESS", 7) == 0)
        return tgen_expect_new_success(out, err);
    if (!(head == 7 && memcmp(s, "FAILURE", 7) == 0)) {
        /* Go: fmt.Errorf("bad header line: %q", s.Text()) */
        st = gtr_err_setf(err, GTR_E_FORMAT, "bad header line: %s", quote(&q, s, line));
        goto out;
    }
    if (sp == NULL) {
        /* Go: fmt.Errorf("bad header line for FAILURE: %q", s.Text()) */
        st = gtr_err_setf(err, GTR_E_FORMAT, "bad header line for FAILURE: %s",
                          quote(&q, s, line));
        goto out;
    }
    const char *quoted = sp + 1;
    size_t qlen = line - head - 1;
    if ((st = gtr_go_unquote(&pat, quoted, qlen, &sub)) < 0) {
        /* Go: fmt.Errorf("malformed pattern: not correctly quoted: %s: %v", quoted, err) */
        gtr_err_setf(err, st == GTR_E_NOMEM ? GTR_E_NOMEM : GTR_E_FORMAT,
                     "malformed pattern: not correctly quoted: ");
        gtr_err_appendn(err, quoted, qlen);
        gtr_err_appendn(err, ": ", 2);
        st = gtr_err_appendn(err, gtr_err_text(&sub, NULL), sub.len);
        goto out;
    }
    if ((st = gtr_buf_reserve(&pat, 1)) < 0) {
        st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        goto out;
    }
    if ((st = tgen_expect_new_failure(pat.data, pat.len, out, &sub)) < 0) {
        /* Go: fmt.Errorf("malformed pattern: not a valid regexp: %s: %v", pattern, err) */
        gtr_err_setf(err, sub.code, "malformed pattern: not a valid regexp: ");
        gtr_err_appendn(err, pat.data, pat.len);
        gtr_err_appendn(err, ": ", 2);
        st = gtr_err_appendn(err, gtr_err_text(&sub, NULL), sub.len);
        goto out;
    }
    st = GTR_OK;
out:
    gtr_err_clear(&sub);
    gtr_buf_free(&q);
    gtr_buf_free(&pat);
    return st;
}

bool tgen_expect_is_failure(const tgen_expect *e)
{
    return e->failure;
}

const char *tgen_expect_pattern(const tgen_expect *e, size_t *len)
{
    if (len != NULL)
        *len = e->pattern_len;
    return e->pattern;
}

gtr_status tgen_expect_match(const tgen_expect *e, const char *s, size_t n, bool *matched,
                             gtr_err *err)
{
    *matched = false;
    if (!e->failure)
        return GTR_OK;
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    if (md == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    int rc = pcre2_match(e->code, (PCRE2_SPTR)(n > 0 ? s : ""), n, 0, 0, md, e->mctx);
    pcre2_match_data_free(md);
    if (rc >= 0) {
        *matched = true;
        return GTR_OK;
    }
    if (rc == PCRE2_ERROR_NOMATCH)
        return GTR_OK;
    PCRE2_UCHAR msg[256];
    if (pcre2_get_error_message(rc, msg, sizeof msg) < 0)
        strcpy((char *)msg, "unknown PCRE2 error");
    return gtr_err_setf(err, rc == PCRE2_ERROR_NOMEMORY ? GTR_E_NOMEM : GTR_E_LIMIT,
                        "matching regexp %s: %s", e->pattern, (char *)msg);
}

gtr_status tgen_expect_check(const tgen_expect *e, const gtr_err *got, gtr_err *err)
{
    bool failed = got != NULL && got->code < 0;
    gtr_buf q = {0};
    gtr_status st = GTR_OK;

    if (!e->failure && failed) {
        /* Go: fmt.Errorf("unexpected error while reading the trace: %v", err) */
        gtr_err_setf(err, GTR_E_INVALID, "unexpected error while reading the trace: ");
        return gtr_err_appendn(err, gtr_err_text(got, NULL), got->len);
    }
    if (e->failure && !failed) {
        /* Go: fmt.Errorf("expected error while reading the trace: want something matching
         * %q, got none", e.errorMatcher) */
        st = gtr_err_setf(err, GTR_E_INVALID,
                          "expected error while reading the trace: want something matching %s, "
                          "got none",
                          quote(&q, e->pattern, e->pattern_len));
    } else if (e->failure) {
        bool matched;
        size_t n;
        const char *text = gtr_err_text(got, &n);
        if ((st = tgen_expect_match(e, text, n, &matched, err)) < 0)
            goto out;
        if (!matched) {
            /* Go: fmt.Errorf("unexpected error while reading the trace: want something
             * matching %q, got %s", e.errorMatcher, err.Error()) */
            gtr_err_setf(err, GTR_E_INVALID,
                         "unexpected error while reading the trace: want something "
                         "matching %s, got ",
                         quote(&q, e->pattern, e->pattern_len));
            st = gtr_err_appendn(err, text, n);
        }
    }
out:
    gtr_buf_free(&q);
    return st;
}

gtr_status tgen_expect_format_failure(gtr_buf *out, const char *pattern, size_t len)
{
    gtr_buf_puts(out, "FAILURE ");
    gtr_go_quote(out, pattern, len);
    gtr_buf_putc(out, '\n');
    return gtr_buf_status(out);
}

gtr_status tgen_expect_format(const tgen_expect *e, gtr_buf *out)
{
    if (!e->failure)
        return gtr_buf_puts(out, "SUCCESS\n");
    return tgen_expect_format_failure(out, e->pattern, e->pattern_len);
}
