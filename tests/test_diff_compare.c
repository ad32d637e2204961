/* SPDX-License-Identifier: BSD-3-Clause */
/* test_diff_compare.c: fuzz_diff's verdict (godiff/godiff_compare.c). The normalisation of
 * Go's map-order messages must agree with ci/difffuzz/judge.sh's
 * comparison (sed making each digit run N, then LC_ALL=C sort) (numbers, order, final newline,
 * repeated lines, NUL bytes); the verdict separates the same reading, a Go panic, a possible
 * map-order difference and a divergence; which reruns of Go explain a difference; the report shows the first differing event line
 * in context and both messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "godiff.h"

static bool same_up_to(const char *a, const char *b)
{
    return godiff_same_lines_up_to_numbers(a, strlen(a), b, strlen(b));
}

static void normalise_numbers_and_order(void **state)
{
    (void)state;
    /* Go's dumpOrdering: the same entries in another map order, with other IDs. */
    assert_true(same_up_to("G 1: running\nG 22: waiting\n", "G 22: waiting\nG 1: running\n"));
    assert_true(same_up_to("proc 3 on thread 7", "proc 12 on thread 0"));
    /* A digit run is one N, however long. */
    assert_true(same_up_to("id 1", "id 123456789012345678901234567890"));
    /* Not a digit run against none. */
    assert_false(same_up_to("id 1", "id "));
    assert_false(same_up_to("id 1", "id N1"));
    assert_true(same_up_to("id N", "id 7"));   /* sed makes both "id N" */
    /* Other words differ. */
    assert_false(same_up_to("G 1: running", "G 1: waiting"));
}

static void normalise_lines(void **state)
{
    (void)state;
    /* A final newline ends the last line; it does not add one. */
    assert_true(same_up_to("a\nb", "b\na\n"));
    assert_true(same_up_to("", ""));
    /* An empty line is a line. */
    assert_false(same_up_to("a\n\nb", "a\nb"));
    assert_true(same_up_to("a\n\nb", "\nb\na"));
    /* The same lines, counted: sort keeps duplicates. */
    assert_false(same_up_to("x 1\nx 2\ny", "x 1\ny\ny"));
    assert_true(same_up_to("x 1\nx 2\ny", "y\nx 9\nx 8"));
    /* A line that is a prefix of another sorts first and still differs. */
    assert_false(same_up_to("ab\na", "ab\nab"));
    /* NUL bytes are bytes (a string echoed in a message may hold one). */
    assert_true(godiff_same_lines_up_to_numbers("a\0b 1\nc", 7, "c\na\0b 2", 7));
    assert_false(godiff_same_lines_up_to_numbers("a\0b\n", 4, "a\0c\n", 4));
}

static godiff_reading reading(godiff_end end, const char *dump, const char *msg)
{
    return (godiff_reading){end, dump, strlen(dump), msg, strlen(msg)};
}

static void verdicts(void **state)
{
    (void)state;
    godiff_reading ok = reading(GODIFF_END_EOF, "M=-1 P=-1 G=-1 Sync Time=0\n", "");
    assert_int_equal(godiff_compare(&ok, &ok), GODIFF_SAME);

    /* A Go panic is never compared. */
    godiff_reading panic = reading(GODIFF_END_PANIC, "", "runtime error: index out of range");
    godiff_reading refused = reading(GODIFF_END_READ, "x\n", "other");
    assert_int_equal(godiff_compare(&refused, &panic), GODIFF_GO_PANIC);

    /* The same dump and ending, the message's lines reordered: maybe Go's map order. */
    godiff_reading a = reading(GODIFF_END_READ, "e1\n", "failed to advance:\nG 1\nG 2");
    godiff_reading b = reading(GODIFF_END_READ, "e1\n", "failed to advance:\nG 2\nG 1");
    assert_int_equal(godiff_compare(&a, &b), GODIFF_MAP_ORDER);
    /* ... not when the endings differ, or the dumps do, or the lines differ beyond numbers. */
    godiff_reading c = reading(GODIFF_END_VALIDATOR, "e1\n", "failed to advance:\nG 2\nG 1");
    assert_int_equal(godiff_compare(&a, &c), GODIFF_DIVERGES);
    godiff_reading d = reading(GODIFF_END_READ, "e2\n", "failed to advance:\nG 2\nG 1");
    assert_int_equal(godiff_compare(&a, &d), GODIFF_DIVERGES);
    godiff_reading e = reading(GODIFF_END_READ, "e1\n", "failed to advance:\nP 2\nG 1");
    assert_int_equal(godiff_compare(&a, &e), GODIFF_DIVERGES);
    /* Success against failure, and a different dump on success. */
    godiff_reading f = reading(GODIFF_END_EOF, "e1\n", "");
    assert_int_equal(godiff_compare(&f, &a), GODIFF_DIVERGES);
    godiff_reading g = reading(GODIFF_END_EOF, "e2\n", "");
    assert_int_equal(godiff_compare(&f, &g), GODIFF_DIVERGES);
    /* Our refusal where Go did not panic is a divergence. */
    godiff_reading ours_refused = reading(GODIFF_END_PANIC, "", "expected id 5 in trace.stack table");
    godiff_reading go_read = reading(GODIFF_END_EOF, "e1\n", "");
    assert_int_equal(godiff_compare(&ours_refused, &go_read), GODIFF_DIVERGES);
}

static void reruns_of_go(void **state)
{
    (void)state;
    /* Go names the stack its map iteration met first, and that stack's bad field: ours is
     * one of Go's outputs. */
    godiff_reading ours = reading(GODIFF_END_READ, "", "found invalid file string ID 3 for stack 1");
    godiff_reading first =
        reading(GODIFF_END_READ, "", "found invalid func string ID 7 for stack 65536");
    godiff_reading other = reading(GODIFF_END_READ, "", "found invalid func string ID 6 for stack 2");
    assert_int_equal(godiff_compare(&ours, &first), GODIFF_DIVERGES);
    assert_true(godiff_rerun_explains(&ours, &first, &ours));
    /* Go varying among other outputs does not explain a divergence. */
    assert_false(godiff_rerun_explains(&ours, &first, &other));
    assert_false(godiff_rerun_explains(&ours, &first, &first));

    /* A map-order difference: a rerun with ours up to the order of the lines explains it,
     * the same output again does not. */
    godiff_reading a = reading(GODIFF_END_READ, "e1\n", "failed to advance:\nG 1\nG 2");
    godiff_reading b = reading(GODIFF_END_READ, "e1\n", "failed to advance:\nG 2\nG 1");
    godiff_reading c = reading(GODIFF_END_READ, "e1\n", "failed to advance:\nG 3\nG 1");
    assert_int_equal(godiff_compare(&a, &b), GODIFF_MAP_ORDER);
    assert_true(godiff_rerun_explains(&a, &b, &c));
    assert_true(godiff_rerun_explains(&a, &b, &a));
    assert_false(godiff_rerun_explains(&a, &b, &b));

    /* Go's events vary too (the M a ProcStatus takes from a map walk): ours is explained by
     * a run with ours's dump and its message up to the order of the lines. */
    godiff_reading ours2 = reading(GODIFF_END_READ, "M=1 x\nM=0 y\n", "frontier:\nG 1\nG 2");
    godiff_reading first2 = reading(GODIFF_END_READ, "M=0 y\nM=1 x\n", "frontier:\nG 1\nG 2");
    godiff_reading same_dump = reading(GODIFF_END_READ, "M=1 x\nM=0 y\n", "frontier:\nG 2\nG 1");
    godiff_reading third_dump = reading(GODIFF_END_READ, "M=1 y\nM=0 x\n", "frontier:\nG 2\nG 1");
    assert_int_equal(godiff_compare(&ours2, &first2), GODIFF_DIVERGES);
    assert_true(godiff_rerun_explains(&ours2, &first2, &same_dump));
    assert_false(godiff_rerun_explains(&ours2, &first2, &third_dump));

    /* The ending counts: the same message after another ending is another output. */
    godiff_reading a_valid = reading(GODIFF_END_VALIDATOR, "e1\n", "failed to advance:\nG 1\nG 2");
    assert_false(godiff_rerun_explains(&a, &b, &a_valid));
    /* A panic on another run explains nothing. */
    godiff_reading panic = reading(GODIFF_END_PANIC, "", "index out of range");
    assert_false(godiff_rerun_explains(&a, &b, &panic));
}

static void mix_of_go_runs(void **state)
{
    (void)state;
    /* Two independent choices in Go's reading: ours took M=1 both times, Go's runs each
     * took M=1 once. */
    godiff_reading ours = reading(GODIFF_END_READ, "s\nM=1 a\nM=1 b\n", "G 1\nG 2");
    godiff_reading first = reading(GODIFF_END_READ, "s\nM=0 a\nM=1 b\n", "G 2\nG 1");
    godiff_reading second = reading(GODIFF_END_READ, "s\nM=1 a\nM=0 b\n", "G 1\nG 2");
    godiff_mix m;
    assert_true(godiff_mix_init(&m, &ours));
    godiff_mix_add(&m, &ours, &first, &first);
    assert_false(godiff_mix_explains(&m));   /* line 2 unseen, Go has not varied */
    godiff_mix_add(&m, &ours, &first, &second);
    assert_true(godiff_mix_explains(&m));
    godiff_mix_free(&m);

    /* A line no run printed there: not explained, however often Go varies. */
    godiff_reading bug = reading(GODIFF_END_READ, "s\nM=1 a\nM=1 c\n", "G 1\nG 2");
    assert_true(godiff_mix_init(&m, &bug));
    godiff_mix_add(&m, &bug, &first, &first);
    godiff_mix_add(&m, &bug, &first, &second);
    assert_false(godiff_mix_explains(&m));
    godiff_mix_free(&m);

    /* Go deterministic: the same run again explains nothing (a planted divergence). */
    godiff_reading go = reading(GODIFF_END_EOF, "s\nValue=4294967301\n", "");
    godiff_reading cut = reading(GODIFF_END_EOF, "s\nValue=5\n", "");
    assert_true(godiff_mix_init(&m, &cut));
    godiff_mix_add(&m, &cut, &go, &go);
    godiff_mix_add(&m, &cut, &go, &go);
    assert_false(godiff_mix_explains(&m));
    godiff_mix_free(&m);

    /* Runs with another ending, another line count or a message of other lines count for
     * nothing. */
    godiff_reading other_end = reading(GODIFF_END_VALIDATOR, "s\nM=1 a\nM=1 b\n", "G 1\nG 2");
    godiff_reading longer = reading(GODIFF_END_READ, "s\nM=1 a\nM=1 b\nx\n", "G 1\nG 2");
    godiff_reading other_msg = reading(GODIFF_END_READ, "s\nM=1 a\nM=0 b\n", "P 1\nG 2");
    assert_true(godiff_mix_init(&m, &ours));
    godiff_mix_add(&m, &ours, &first, &first);
    godiff_mix_add(&m, &ours, &first, &other_end);
    godiff_mix_add(&m, &ours, &first, &longer);
    assert_false(godiff_mix_explains(&m));
    godiff_mix_free(&m);
    godiff_reading ours_msg = reading(GODIFF_END_READ, "s\nM=1 a\nM=1 b\n", "P 1\nP 2");
    assert_true(godiff_mix_init(&m, &ours_msg));
    godiff_mix_add(&m, &ours_msg, &first, &first);
    godiff_mix_add(&m, &ours_msg, &first, &second);
    assert_false(godiff_mix_explains(&m));   /* every line seen, no message like ours */
    godiff_mix_add(&m, &ours_msg, &first, &other_msg);
    assert_false(godiff_mix_explains(&m));   /* "P 1, G 2" is not "P 1, P 2" */
    godiff_mix_free(&m);
}

static void first_difference(void **state)
{
    (void)state;
    size_t at = 99;
    assert_int_equal(godiff_first_difference("a\nb\n", 4, "a\nb\n", 4, &at), SIZE_MAX);
    assert_int_equal(godiff_first_difference("a\nb\nc\n", 6, "a\nb\nd\n", 6, &at), 2);
    assert_int_equal(at, 4);
    /* Within the first line. */
    assert_int_equal(godiff_first_difference("abc\n", 4, "abd\n", 4, &at), 0);
    assert_int_equal(at, 0);
    /* One dump ends where the other goes on. */
    assert_int_equal(godiff_first_difference("a\n", 2, "a\nb\n", 4, &at), 1);
    assert_int_equal(at, 2);
    assert_int_equal(godiff_first_difference("", 0, "a\n", 2, &at), 0);
    assert_int_equal(at, 0);
}

static void report_shows_context_and_messages(void **state)
{
    (void)state;
    godiff_reading ours = reading(GODIFF_END_READ, "l1\nl2\nl3\nl4\nl5 ours\nl6\n", "bad thing");
    godiff_reading go = reading(GODIFF_END_VALIDATOR, "l1\nl2\nl3\nl4\nl5 go\n", "other thing");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    godiff_report(f, &ours, &go);
    fclose(f);
    const char *want =
        "==== fuzz_diff: gotrace and Go 1.27.3 disagree\n"
        "event dumps: the first difference is on line 5 (byte 12):\n"
        "            l2\n"
        "            l3\n"
        "            l4\n"
        "  gotrace: l5 ours\n"
        "  go:      l5 go\n"
        "gotrace ended: reader error\n"
        "gotrace message: bad thing\n"
        "go      ended: validator error\n"
        "go      message: other thing\n";
    assert_string_equal(text, want);
    free(text);

    /* The same dumps: only the endings and messages differ. */
    godiff_reading eof = reading(GODIFF_END_EOF, "l1\n", "");
    godiff_reading fail = reading(GODIFF_END_READ, "l1\n", "cut");
    f = open_memstream(&text, &len);
    assert_non_null(f);
    godiff_report(f, &eof, &fail);
    fclose(f);
    assert_non_null(strstr(text, "event dumps: the same (3 bytes)\n"));
    assert_non_null(strstr(text, "gotrace ended: EOF, every event valid\ngo      ended: reader error\n"
                                 "go      message: cut\n"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(normalise_numbers_and_order),
        cmocka_unit_test(normalise_lines),
        cmocka_unit_test(verdicts),
        cmocka_unit_test(reruns_of_go),
        cmocka_unit_test(mix_of_go_runs),
        cmocka_unit_test(first_difference),
        cmocka_unit_test(report_shows_context_and_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
