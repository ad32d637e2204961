/* SPDX-License-Identifier: BSD-3-Clause */
/* test_expect.c: fixture expectations (testtrace.Expectation) and the RE2 dialect on PCRE2.
 * The regexp tables were generated with Go 1.27.3 (regexp.Compile, MatchString). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tgen/expect.h"

#define S(lit) lit, sizeof(lit) - 1

/* Generated from Go 1.27.3's regexp.Compile. */
static const struct { const char *pattern; const char *msg; } go_rejects[] = {
    {"(a)\\1", "error parsing regexp: invalid escape sequence: `\\1`"},
    {"(?=x)", "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"},
    {"(?!x)", "error parsing regexp: invalid or unsupported Perl syntax: `(?!`"},
    {"(?<=x)", "error parsing regexp: invalid named capture: `(?<=x)`"},
    {"(?<!x)", "error parsing regexp: invalid named capture: `(?<!x)`"},
    {"(?>x)", "error parsing regexp: invalid or unsupported Perl syntax: `(?>`"},
    {"(?#c)", "error parsing regexp: invalid or unsupported Perl syntax: `(?#`"},
    {"(?|a)", "error parsing regexp: invalid or unsupported Perl syntax: `(?|`"},
    {"(?x)a", "error parsing regexp: invalid or unsupported Perl syntax: `(?x`"},
    {"(?P=n)", "error parsing regexp: invalid or unsupported Perl syntax: `(?P`"},
    {"(?P>n)", "error parsing regexp: invalid or unsupported Perl syntax: `(?P`"},
    {"(?<n>a)\\k<n>", "error parsing regexp: invalid escape sequence: `\\k`"},
    {"\\Z", "error parsing regexp: invalid escape sequence: `\\Z`"},
    {"\\G", "error parsing regexp: invalid escape sequence: `\\G`"},
    {"\\K", "error parsing regexp: invalid escape sequence: `\\K`"},
    {"\\R", "error parsing regexp: invalid escape sequence: `\\R`"},
    {"\\h", "error parsing regexp: invalid escape sequence: `\\h`"},
    {"\\e", "error parsing regexp: invalid escape sequence: `\\e`"},
    {"\\cA", "error parsing regexp: invalid escape sequence: `\\c`"},
    {"\\C", "error parsing regexp: invalid escape sequence: `\\C`"},
    {"\\8", "error parsing regexp: invalid escape sequence: `\\8`"},
    {"\\g1", "error parsing regexp: invalid escape sequence: `\\g`"},
    {"\\X", "error parsing regexp: invalid escape sequence: `\\X`"},
    {"\\N", "error parsing regexp: invalid escape sequence: `\\N`"},
    {"a**", "error parsing regexp: invalid nested repetition operator: `**`"},
    {"a*+", "error parsing regexp: invalid nested repetition operator: `*+`"},
    {"a++", "error parsing regexp: invalid nested repetition operator: `++`"},
    {"a?+", "error parsing regexp: invalid nested repetition operator: `?+`"},
    {"a+?+", "error parsing regexp: invalid nested repetition operator: `+?+`"},
    {"a{2}{3}", "error parsing regexp: invalid nested repetition operator: `{2}{3}`"},
    {"a{1001}", "error parsing regexp: invalid repeat count: `{1001}`"},
    {"a{2,1}", "error parsing regexp: invalid repeat count: `{2,1}`"},
    {"[\\1]", "error parsing regexp: invalid escape sequence: `\\1`"},
    {"[\\b]", "error parsing regexp: invalid escape sequence: `\\b`"},
    {"[\\Z]", "error parsing regexp: invalid escape sequence: `\\Z`"},
    {"[[:foo:]]", "error parsing regexp: invalid character class range: `[:foo:]`"},
    {"(", "error parsing regexp: missing closing ): `(`"},
    {")", "error parsing regexp: unexpected ): `)`"},
    {"[a", "error parsing regexp: missing closing ]: `[a`"},
    {"x\\", "error parsing regexp: trailing backslash at end of expression: ``"},
    {"\\x{110000}", "error parsing regexp: invalid escape sequence: `\\x{110000`"},
    {"\\x4", "error parsing regexp: invalid escape sequence: `\\x4`"},
    {"\xff", "error parsing regexp: invalid UTF-8: `\xff`"},
    {"a(\xff" "b", "error parsing regexp: invalid UTF-8: `\xff" "b`"},
    {"(?", "error parsing regexp: invalid or unsupported Perl syntax: `(?`"},
    {"(?P", "error parsing regexp: invalid or unsupported Perl syntax: `(?P`"},
    {"(?i", "error parsing regexp: invalid or unsupported Perl syntax: `(?i`"},
    {"(?i-)", "error parsing regexp: invalid or unsupported Perl syntax: `(?i-)`"},
    {"(?-:a)", "error parsing regexp: invalid or unsupported Perl syntax: `(?-:`"},
    {"**", "error parsing regexp: missing argument to repetition operator: `*`"},
    {"a|*", "error parsing regexp: missing argument to repetition operator: `*`"},
    {"(*)", "error parsing regexp: missing argument to repetition operator: `*`"},
    {"x{2}*", "error parsing regexp: invalid nested repetition operator: `{2}*`"},
    {"\\p{}", "error parsing regexp: invalid character class range: `\\p{}`"},
    {"\\p", "error parsing regexp: invalid character class range: `\\p`"},
    {"[z-a]", "error parsing regexp: invalid character class range: `z-a`"},
    {"(?P<>a)", "error parsing regexp: invalid named capture: `(?P<>`"},
    {"(?P<a-b>x)", "error parsing regexp: invalid named capture: `(?P<a-b>`"},
    {"(?<n", "error parsing regexp: invalid named capture: `(?<n`"},
    {"a)", "error parsing regexp: unexpected ): `a)`"},
    {"((a)", "error parsing regexp: missing closing ): `((a)`"},
    {"\\x{}", "error parsing regexp: invalid escape sequence: `\\x{}`"},
    {"\\xg1", "error parsing regexp: invalid escape sequence: `\\xg1`"},
    {"[\\x{zz}]", "error parsing regexp: invalid escape sequence: `\\x{z`"},
    {"\\Q\\E*", "error parsing regexp: missing argument to repetition operator: `*`"},
    {"\\pk", "error parsing regexp: invalid character class range: `\\pk`"},
    {"\\p{Foo}", "error parsing regexp: invalid character class range: `\\p{Foo}`"},
};
static const struct { const char *pattern; const char *subject; size_t len; bool match; } go_matches[] = {
    {"a$", "a\n", 2, false},
    {"a$", "xa", 2, true},
    {"(?m)a$", "a\nb", 3, true},
    {"a\\z", "a\n", 2, false},
    {"\\s", "\v", 1, false},
    {"\\s", "\f", 1, true},
    {"\\S", "\v", 1, true},
    {"[\\s]", "\v", 1, false},
    {"[\\S]", "\v", 1, true},
    {"[^\\S]", " ", 1, true},
    {"a{,5}", "a{,5}", 5, true},
    {"a{,5}", "aaa", 3, false},
    {"a{01}", "a{01}", 5, true},
    {"a{2}", "aa", 2, true},
    {"(?i)ABC", "xabcx", 5, true},
    {"(?P<n>x)y", "xy", 2, true},
    {"(?<n_1>x)y", "xy", 2, true},
    {"\\x{41}", "A", 1, true},
    {"\\x41", "A", 1, true},
    {"\\101", "A", 1, true},
    {"\\0", "\x00", 1, true},
    {"\\Qa.b\\E", "a.b", 3, true},
    {"\\Qa.b\\E", "axb", 3, false},
    {"(?s).", "\n", 1, true},
    {".", "\n", 1, false},
    {"[^a]", "\n", 1, true},
    {"\\pL", "é", 2, true},
    {"\\PL", "é", 2, false},
    {"\\p{Greek}", "λ", 2, true},
    {"\\p{^Greek}", "λ", 2, false},
    {"[\\p{Lu}]", "A", 1, true},
    {"[[:^alpha:]]", "1", 1, true},
    {"[[:word:]]+$", "a_1", 3, true},
    {"[]a]", "]", 1, true},
    {"[a-]", "-", 1, true},
    {"[\\]]", "]", 1, true},
    {"[\\-]", "-", 1, true},
    {"x*?y", "xxy", 3, true},
    {"(?U)x+", "xxx", 3, true},
    {"a|b", "b", 1, true},
    {"^$", "", 0, true},
    {"\\bfoo\\b", "a foo b", 7, true},
    {"\\Bfoo", "afoo", 4, true},
    {"\\v", "\v", 1, true},
    {"\\a\\f\\t\\n\\r", "\a\f\t\n\r", 5, true},
    {"é+", "ééé", 6, true},
    {"[é-ë]", "ê", 2, true},
    {"(?i)é", "É", 2, true},
    {"(?i)k", "K", 3, true},
    {"}", "}", 1, true},
    {"]", "]", 1, true},
    {"\\.", ".", 1, true},
    {"\\_", "_", 1, true},
    {"#x", "#x", 2, true},
    {"a b", "a b", 3, true},
    {"(?)a", "a", 1, true},
    {"(?i:A)b", "ab", 2, true},
    {"(?i:A)b", "aB", 2, false},
    {"^*a", "a", 1, true},
    /* A repeat after a flag group applies to the operand before it. */
    {"a(?i)*b", "b", 1, true},
    {"a*(?i)*b", "aab", 3, true},
    {"x(?U)+y", "xxy", 3, true},
    {"\\p{greek}", "\u03bb", 2, true},
    {"\\p{Assigned}", "a", 1, true},
    {"\\P{ASCII}", "\u00e9", 2, true},
    {"[\\p{ascii}]", "\u00e9", 2, false},
    {"\\p{^Greek}", "a", 1, true},
    {"(?i)(?P<n>a)(?-i)B", "AB", 2, true},
    {"$*a", "a", 1, true},
    {"\\b*x\\B?", "x", 1, true},
    {".*expected a proc but didn't have one.*", "broken trace: expected a proc but didn't have one", 49, true},
    {"\\[", "[", 1, true},
    {"[[]", "[", 1, true},
    {"[[:]", ":", 1, true},
    {"[.a]", ".", 1, true},
    {"[=a]", "=", 1, true},
    {"\\$\\^", "$^", 2, true},
};

static tgen_expect *parse_ok(const char *data, size_t len)
{
    tgen_expect *e = NULL;
    gtr_err err = GTR_ERR_INIT;
    gtr_status st = tgen_expect_parse(data, len, &e, &err);
    if (st != GTR_OK) {
        print_error("parse %.*s: %s\n", (int)len, data, err.msg);
        fail();
    }
    return e;
}

static void assert_parse_fails(const char *data, size_t len, const char *want)
{
    tgen_expect *e = (tgen_expect *)&e;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(tgen_expect_parse(data, len, &e, &err), GTR_E_FORMAT);
    assert_null(e);
    assert_string_equal(err.msg, want);
}

static void test_expect_parse_success_variants_succeed(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        size_t n;
    } ok[] = {{S("SUCCESS\n")}, {S("SUCCESS")}, {S("SUCCESS\r\n")}, {S("SUCCESS trailing words\n")},
              {S("")},          {S("SUCCESS\nFAILURE \"ignored: only the first line counts\"\n")}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        tgen_expect *e = parse_ok(ok[i].s, ok[i].n);
        assert_false(tgen_expect_is_failure(e));
        assert_null(tgen_expect_pattern(e, NULL));
        gtr_err err = GTR_ERR_INIT;
        assert_int_equal(tgen_expect_check(e, NULL, &err), GTR_OK);
        tgen_expect_free(e);
    }
}

static void test_expect_parse_failure_unquotes_pattern(void **state)
{
    (void)state;
    tgen_expect *e = parse_ok(S("FAILURE \"expected a proc but didn't have one\"\n"));
    size_t len;
    assert_true(tgen_expect_is_failure(e));
    assert_string_equal(tgen_expect_pattern(e, &len), "expected a proc but didn't have one");
    assert_int_equal(len, strlen("expected a proc but didn't have one"));
    tgen_expect_free(e);

    /* Escapes are Go's: \\. is a literal dot in the regexp; a raw string works too. */
    e = parse_ok(S("FAILURE \"a\\\\.b\\t\"\r\n"));
    assert_string_equal(tgen_expect_pattern(e, NULL), "a\\.b\t");
    tgen_expect_free(e);
    e = parse_ok(S("FAILURE `x+`"));
    assert_string_equal(tgen_expect_pattern(e, NULL), "x+");
    tgen_expect_free(e);
}

static void test_expect_parse_bad_lines_fail_with_go_messages(void **state)
{
    (void)state;
    assert_parse_fails(S("FAILURE\n"), "bad header line for FAILURE: \"FAILURE\"");
    assert_parse_fails(S("FAILURE\r\n"), "bad header line for FAILURE: \"FAILURE\"");
    assert_parse_fails(S("BOGUS \"x\"\n"), "bad header line: \"BOGUS \\\"x\\\"\"");
    assert_parse_fails(S("\n"), "bad header line: \"\"");
    assert_parse_fails(S("success\n"), "bad header line: \"success\"");
    assert_parse_fails(S(" SUCCESS\n"), "bad header line: \" SUCCESS\"");
    assert_parse_fails(S("FAILURE x\n"), "malformed pattern: not correctly quoted: x: invalid syntax");
    assert_parse_fails(S("FAILURE \"x\" \n"),
                       "malformed pattern: not correctly quoted: \"x\" : invalid syntax");
    assert_parse_fails(S("FAILURE \n"), "malformed pattern: not correctly quoted: : invalid syntax");
    assert_parse_fails(S("FAILURE \"(a)\\\\1\"\n"),
                       "malformed pattern: not a valid regexp: (a)\\1: error parsing regexp: "
                       "invalid escape sequence: `\\1`");
    assert_parse_fails(S("FAILURE \"(?=x)\"\n"),
                       "malformed pattern: not a valid regexp: (?=x): error parsing regexp: "
                       "invalid or unsupported Perl syntax: `(?=`");
}

static void test_expect_parse_long_first_line_fails_like_scanner(void **state)
{
    (void)state;
    size_t n = 65536;
    char *buf = malloc(n + 2);
    assert_non_null(buf);
    /* 65535 bytes then a newline: the scanner reads the line (which is then a bad header). */
    memset(buf, 'x', n + 2);
    buf[65535] = '\n';
    tgen_expect *e;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(tgen_expect_parse(buf, 65536, &e, &err), GTR_E_FORMAT);
    assert_memory_equal(err.msg, "bad header line: \"xxx", 21);
    /* The whole line is quoted, as Go's %q does: no cap on the message. */
    assert_int_equal(err.len, sizeof "bad header line: " - 1 + 65535 + 2);
    gtr_err_clear(&err);
    /* 65536 bytes before the newline (or the end): bufio.ErrTooLong. */
    buf[65535] = 'x';
    buf[65536] = '\n';
    assert_parse_fails(buf, 65537, "bufio.Scanner: token too long");
    assert_parse_fails(buf, 65536, "bufio.Scanner: token too long");
    memcpy(buf, "SUCCESS ", 8);
    assert_parse_fails(buf, 65536, "bufio.Scanner: token too long");
    assert_non_null(e = parse_ok(buf, 65535));
    tgen_expect_free(e);
    free(buf);
}

static void test_expect_check_reports_go_messages(void **state)
{
    (void)state;
    tgen_expect *ok = parse_ok(S("SUCCESS\n"));
    tgen_expect *bad = parse_ok(S("FAILURE \"expected a proc\"\n"));
    gtr_err got = GTR_ERR_INIT, err = GTR_ERR_INIT;

    gtr_err_setf(&got, GTR_E_ORDER, "broken trace: expected a proc but didn't have one");
    assert_int_equal(tgen_expect_check(ok, &got, &err), GTR_E_INVALID);
    assert_string_equal(err.msg, "unexpected error while reading the trace: broken trace: "
                                 "expected a proc but didn't have one");
    assert_int_equal(tgen_expect_check(bad, &got, &err), GTR_OK);

    assert_int_equal(tgen_expect_check(bad, NULL, &err), GTR_E_INVALID);
    assert_string_equal(err.msg, "expected error while reading the trace: want something "
                                 "matching \"expected a proc\", got none");
    gtr_err none = GTR_ERR_INIT;
    gtr_err_clear(&none);
    assert_int_equal(tgen_expect_check(bad, &none, &err), GTR_E_INVALID);

    gtr_err_setf(&got, GTR_E_FORMAT, "invalid batch size 7");
    assert_int_equal(tgen_expect_check(bad, &got, &err), GTR_E_INVALID);
    assert_string_equal(err.msg, "unexpected error while reading the trace: want something "
                                 "matching \"expected a proc\", got invalid batch size 7");
    tgen_expect_free(ok);
    tgen_expect_free(bad);
}

static void test_expect_regexp_go_rejects_are_rejected_verbatim(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof go_rejects / sizeof go_rejects[0]; i++) {
        tgen_expect *e = (tgen_expect *)&e;
        gtr_err err = GTR_ERR_INIT;
        gtr_status st = tgen_expect_new_failure(go_rejects[i].pattern,
                                                strlen(go_rejects[i].pattern), &e, &err);
        if (st != GTR_E_FORMAT || strcmp(err.msg, go_rejects[i].msg) != 0) {
            print_error("pattern %s: got status %d %s, want %s\n", go_rejects[i].pattern, st,
                        st < 0 ? err.msg : "(ok)", go_rejects[i].msg);
            fail();
        }
        assert_null(e);
    }
}

static void test_expect_regexp_matches_like_go(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof go_matches / sizeof go_matches[0]; i++) {
        tgen_expect *e;
        gtr_err err = GTR_ERR_INIT;
        bool m;
        if (tgen_expect_new_failure(go_matches[i].pattern, strlen(go_matches[i].pattern), &e,
                                    &err) != GTR_OK) {
            print_error("pattern %s: %s\n", go_matches[i].pattern, err.msg);
            fail();
        }
        assert_int_equal(tgen_expect_match(e, go_matches[i].subject, go_matches[i].len, &m, &err),
                         GTR_OK);
        if (m != go_matches[i].match) {
            print_error("pattern %s on %s: got %d, want %d\n", go_matches[i].pattern,
                        go_matches[i].subject, m, go_matches[i].match);
            fail();
        }
        tgen_expect_free(e);
    }
}

static void test_expect_regexp_nul_in_pattern_matches(void **state)
{
    (void)state;
    tgen_expect *e;
    gtr_err err = GTR_ERR_INIT;
    bool m;
    assert_int_equal(tgen_expect_new_failure("a\0b", 3, &e, &err), GTR_OK);
    assert_int_equal(tgen_expect_match(e, "xa\0bx", 5, &m, &err), GTR_OK);
    assert_true(m);
    assert_int_equal(tgen_expect_match(e, "ab", 2, &m, &err), GTR_OK);
    assert_false(m);
    tgen_expect_free(e);
}

static void test_expect_regexp_catastrophic_pattern_hits_limit(void **state)
{
    (void)state;
    tgen_expect *e;
    gtr_err err = GTR_ERR_INIT;
    bool m;
    char subject[64];
    memset(subject, 'a', sizeof subject);
    subject[sizeof subject - 1] = 'b';
    assert_int_equal(tgen_expect_new_failure(S("^(a|a)*$"), &e, &err), GTR_OK);
    gtr_status st = tgen_expect_match(e, subject, sizeof subject, &m, &err);
    /* Go answers false in linear time; PCRE2 either finds no match or reports the limit. */
    assert_true(st == GTR_OK || st == GTR_E_LIMIT);
    assert_false(m);
    tgen_expect_free(e);
}

static void test_expect_format_quotes_like_go(void **state)
{
    (void)state;
    gtr_buf b = {0};
    tgen_expect *e;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(tgen_expect_format_failure(&b, S("a\"b\\.\n")), GTR_OK);
    assert_string_equal(b.data, "FAILURE \"a\\\"b\\\\.\\n\"\n");
    gtr_buf_reset(&b);
    assert_int_equal(tgen_expect_new_success(&e, &err), GTR_OK);
    assert_int_equal(tgen_expect_format(e, &b), GTR_OK);
    assert_string_equal(b.data, "SUCCESS\n");
    tgen_expect_free(e);
    /* Format then parse gives the same pattern back. */
    gtr_buf_reset(&b);
    assert_int_equal(tgen_expect_new_failure(S(".*expected a proc but didn't have one.*"), &e, &err),
                     GTR_OK);
    assert_int_equal(tgen_expect_format(e, &b), GTR_OK);
    assert_string_equal(b.data, "FAILURE \".*expected a proc but didn't have one.*\"\n");
    tgen_expect_free(e);
    e = parse_ok(b.data, b.len);
    assert_string_equal(tgen_expect_pattern(e, NULL), ".*expected a proc but didn't have one.*");
    tgen_expect_free(e);
    gtr_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expect_parse_success_variants_succeed),
        cmocka_unit_test(test_expect_parse_failure_unquotes_pattern),
        cmocka_unit_test(test_expect_parse_bad_lines_fail_with_go_messages),
        cmocka_unit_test(test_expect_parse_long_first_line_fails_like_scanner),
        cmocka_unit_test(test_expect_check_reports_go_messages),
        cmocka_unit_test(test_expect_regexp_go_rejects_are_rejected_verbatim),
        cmocka_unit_test(test_expect_regexp_matches_like_go),
        cmocka_unit_test(test_expect_regexp_nul_in_pattern_matches),
        cmocka_unit_test(test_expect_regexp_catastrophic_pattern_hits_limit),
        cmocka_unit_test(test_expect_format_quotes_like_go),
    };
    return cmocka_run_group_tests_name("expect", tests, NULL, NULL);
}
