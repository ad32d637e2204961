/* SPDX-License-Identifier: BSD-3-Clause */
/* test_diff_compare.c: fuzz_diff's verdict (fuzz/diff/diff_compare.c). The normalisation of
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

#include "diff_compare.h"

static bool same_up_to(const char *a, const char *b)
{
    return fdiff_same_lines_up_to_numbers(a, strlen(a), b, strlen(b));
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
    assert_true(fdiff_same_lines_up_to_numbers("a\0b 1\nc", 7, "c\na\0b 2", 7));
    assert_false(fdiff_same_lines_up_to_numbers("a\0b\n", 4, "a\0c\n", 4));
}

static fdiff_reading reading(diff_end end, const char *dump, const char *msg)
{
    return (fdiff_reading){end, dump, strlen(dump), msg, strlen(msg)};
}

static void verdicts(void **state)
{
    (void)state;
    fdiff_reading ok = reading(DIFF_END_EOF, "M=-1 P=-1 G=-1 Sync Time=0\n", "");
    assert_int_equal(fdiff_compare(&ok, &ok), FDIFF_SAME);

    /* A Go panic is never compared. */
    fdiff_reading panic = reading(DIFF_END_PANIC, "", "runtime error: index out of range");
    fdiff_reading refused = reading(DIFF_END_READ, "x\n", "other");
    assert_int_equal(fdiff_compare(&refused, &panic), FDIFF_GO_PANIC);

    /* The same dump and ending, the message's lines reordered: maybe Go's map order. */
    fdiff_reading a = reading(DIFF_END_READ, "e1\n", "failed to advance:\nG 1\nG 2");
    fdiff_reading b = reading(DIFF_END_READ, "e1\n", "failed to advance:\nG 2\nG 1");
    assert_int_equal(fdiff_compare(&a, &b), FDIFF_MAP_ORDER);
    /* ... not when the endings differ, or the dumps do, or the lines differ beyond numbers. */
    fdiff_reading c = reading(DIFF_END_VALIDATOR, "e1\n", "failed to advance:\nG 2\nG 1");
    assert_int_equal(fdiff_compare(&a, &c), FDIFF_DIVERGES);
    fdiff_reading d = reading(DIFF_END_READ, "e2\n", "failed to advance:\nG 2\nG 1");
    assert_int_equal(fdiff_compare(&a, &d), FDIFF_DIVERGES);
    fdiff_reading e = reading(DIFF_END_READ, "e1\n", "failed to advance:\nP 2\nG 1");
    assert_int_equal(fdiff_compare(&a, &e), FDIFF_DIVERGES);
    /* Success against failure, and a different dump on success. */
    fdiff_reading f = reading(DIFF_END_EOF, "e1\n", "");
    assert_int_equal(fdiff_compare(&f, &a), FDIFF_DIVERGES);
    fdiff_reading g = reading(DIFF_END_EOF, "e2\n", "");
    assert_int_equal(fdiff_compare(&f, &g), FDIFF_DIVERGES);
    /* Our refusal where Go did not panic is a divergence. */
    fdiff_reading ours_refused = reading(DIFF_END_PANIC, "", "expected id 5 in trace.stack table");
    fdiff_reading go_read = reading(DIFF_END_EOF, "e1\n", "");
    assert_int_equal(fdiff_compare(&ours_refused, &go_read), FDIFF_DIVERGES);
}

static void reruns_of_go(void **state)
{
    (void)state;
    /* Go names the stack its map iteration met first, and that stack's bad field: ours is
     * one of Go's outputs. */
    fdiff_reading ours = reading(DIFF_END_READ, "", "found invalid file string ID 3 for stack 1");
    fdiff_reading first =
        reading(DIFF_END_READ, "", "found invalid func string ID 7 for stack 65536");
    fdiff_reading other = reading(DIFF_END_READ, "", "found invalid func string ID 6 for stack 2");
    assert_int_equal(fdiff_compare(&ours, &first), FDIFF_DIVERGES);
    assert_true(fdiff_rerun_explains(&ours, &first, &ours));
    /* Go varying among other outputs does not explain a divergence. */
    assert_false(fdiff_rerun_explains(&ours, &first, &other));
    assert_false(fdiff_rerun_explains(&ours, &first, &first));

    /* A map-order difference: a rerun with ours up to the order of the lines explains it,
     * the same output again does not. */
    fdiff_reading a = reading(DIFF_END_READ, "e1\n", "failed to advance:\nG 1\nG 2");
    fdiff_reading b = reading(DIFF_END_READ, "e1\n", "failed to advance:\nG 2\nG 1");
    fdiff_reading c = reading(DIFF_END_READ, "e1\n", "failed to advance:\nG 3\nG 1");
    assert_int_equal(fdiff_compare(&a, &b), FDIFF_MAP_ORDER);
    assert_true(fdiff_rerun_explains(&a, &b, &c));
    assert_true(fdiff_rerun_explains(&a, &b, &a));
    assert_false(fdiff_rerun_explains(&a, &b, &b));

    /* Go's events vary too (the M a ProcStatus takes from a map walk): ours is explained by
     * a run with ours's dump and its message up to the order of the lines. */
    fdiff_reading ours2 = reading(DIFF_END_READ, "M=1 x\nM=0 y\n", "frontier:\nG 1\nG 2");
    fdiff_reading first2 = reading(DIFF_END_READ, "M=0 y\nM=1 x\n", "frontier:\nG 1\nG 2");
    fdiff_reading same_dump = reading(DIFF_END_READ, "M=1 x\nM=0 y\n", "frontier:\nG 2\nG 1");
    fdiff_reading third_dump = reading(DIFF_END_READ, "M=1 y\nM=0 x\n", "frontier:\nG 2\nG 1");
    assert_int_equal(fdiff_compare(&ours2, &first2), FDIFF_DIVERGES);
    assert_true(fdiff_rerun_explains(&ours2, &first2, &same_dump));
    assert_false(fdiff_rerun_explains(&ours2, &first2, &third_dump));

    /* The ending counts: the same message after another ending is another output. */
    fdiff_reading a_valid = reading(DIFF_END_VALIDATOR, "e1\n", "failed to advance:\nG 1\nG 2");
    assert_false(fdiff_rerun_explains(&a, &b, &a_valid));
    /* A panic on another run explains nothing. */
    fdiff_reading panic = reading(DIFF_END_PANIC, "", "index out of range");
    assert_false(fdiff_rerun_explains(&a, &b, &panic));
}

static void mix_of_go_runs(void **state)
{
    (void)state;
    /* Two independent choices in Go's reading: ours took M=1 both times, Go's runs each
     * took M=1 once. */
    fdiff_reading ours = reading(DIFF_END_READ, "s\nM=1 a\nM=1 b\n", "G 1\nG 2");
    fdiff_reading first = reading(DIFF_END_READ, "s\nM=0 a\nM=1 b\n", "G 2\nG 1");
    fdiff_reading second = reading(DIFF_END_READ, "s\nM=1 a\nM=0 b\n", "G 1\nG 2");
    fdiff_mix m;
    assert_true(fdiff_mix_init(&m, &ours));
    fdiff_mix_add(&m, &ours, &first, &first);
    assert_false(fdiff_mix_explains(&m));   /* line 2 unseen, Go has not varied */
    fdiff_mix_add(&m, &ours, &first, &second);
    assert_true(fdiff_mix_explains(&m));
    fdiff_mix_free(&m);

    /* A line no run printed there: not explained, however often Go varies. */
    fdiff_reading bug = reading(DIFF_END_READ, "s\nM=1 a\nM=1 c\n", "G 1\nG 2");
    assert_true(fdiff_mix_init(&m, &bug));
    fdiff_mix_add(&m, &bug, &first, &first);
    fdiff_mix_add(&m, &bug, &first, &second);
    assert_false(fdiff_mix_explains(&m));
    fdiff_mix_free(&m);

    /* Go deterministic: the same run again explains nothing (a planted divergence). */
    fdiff_reading go = reading(DIFF_END_EOF, "s\nValue=4294967301\n", "");
    fdiff_reading cut = reading(DIFF_END_EOF, "s\nValue=5\n", "");
    assert_true(fdiff_mix_init(&m, &cut));
    fdiff_mix_add(&m, &cut, &go, &go);
    fdiff_mix_add(&m, &cut, &go, &go);
    assert_false(fdiff_mix_explains(&m));
    fdiff_mix_free(&m);

    /* Runs with another ending, another line count or a message of other lines count for
     * nothing. */
    fdiff_reading other_end = reading(DIFF_END_VALIDATOR, "s\nM=1 a\nM=1 b\n", "G 1\nG 2");
    fdiff_reading longer = reading(DIFF_END_READ, "s\nM=1 a\nM=1 b\nx\n", "G 1\nG 2");
    fdiff_reading other_msg = reading(DIFF_END_READ, "s\nM=1 a\nM=0 b\n", "P 1\nG 2");
    assert_true(fdiff_mix_init(&m, &ours));
    fdiff_mix_add(&m, &ours, &first, &first);
    fdiff_mix_add(&m, &ours, &first, &other_end);
    fdiff_mix_add(&m, &ours, &first, &longer);
    assert_false(fdiff_mix_explains(&m));
    fdiff_mix_free(&m);
    fdiff_reading ours_msg = reading(DIFF_END_READ, "s\nM=1 a\nM=1 b\n", "P 1\nP 2");
    assert_true(fdiff_mix_init(&m, &ours_msg));
    fdiff_mix_add(&m, &ours_msg, &first, &first);
    fdiff_mix_add(&m, &ours_msg, &first, &second);
    assert_false(fdiff_mix_explains(&m));   /* every line seen, no message like ours */
    fdiff_mix_add(&m, &ours_msg, &first, &other_msg);
    assert_false(fdiff_mix_explains(&m));   /* "P 1, G 2" is not "P 1, P 2" */
    fdiff_mix_free(&m);
}

static void first_difference(void **state)
{
    (void)state;
    size_t at = 99;
    assert_int_equal(fdiff_first_difference("a\nb\n", 4, "a\nb\n", 4, &at), SIZE_MAX);
    assert_int_equal(fdiff_first_difference("a\nb\nc\n", 6, "a\nb\nd\n", 6, &at), 2);
    assert_int_equal(at, 4);
    /* Within the first line. */
    assert_int_equal(fdiff_first_difference("abc\n", 4, "abd\n", 4, &at), 0);
    assert_int_equal(at, 0);
    /* One dump ends where the other goes on. */
    assert_int_equal(fdiff_first_difference("a\n", 2, "a\nb\n", 4, &at), 1);
    assert_int_equal(at, 2);
    assert_int_equal(fdiff_first_difference("", 0, "a\n", 2, &at), 0);
    assert_int_equal(at, 0);
}

static void report_shows_context_and_messages(void **state)
{
    (void)state;
    fdiff_reading ours = reading(DIFF_END_READ, "l1\nl2\nl3\nl4\nl5 ours\nl6\n", "bad thing");
    fdiff_reading go = reading(DIFF_END_VALIDATOR, "l1\nl2\nl3\nl4\nl5 go\n", "other thing");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    fdiff_report(f, &ours, &go);
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
    fdiff_reading eof = reading(DIFF_END_EOF, "l1\n", "");
    fdiff_reading fail = reading(DIFF_END_READ, "l1\n", "cut");
    f = open_memstream(&text, &len);
    assert_non_null(f);
    fdiff_report(f, &eof, &fail);
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
