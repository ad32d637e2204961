/* SPDX-License-Identifier: BSD-3-Clause */
/* test_txtar.c: txtar parse/format against the semantics of golang.org/x/tools/txtar. The
 * expected values were checked against Go's txtar package. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "txtar.h"

#define S(lit) lit, sizeof(lit) - 1

static void assert_bytes(const char *got, size_t got_len, const char *want, size_t want_len)
{
    if (got_len != want_len || (want_len > 0 && memcmp(got, want, want_len) != 0)) {
        print_error("got %zu bytes \"%.*s\", want %zu bytes \"%.*s\"\n", got_len, (int)got_len,
                    got ? got : "", want_len, (int)want_len, want);
        fail();
    }
}

static void assert_file(const txtar_archive *a, size_t i, const char *name, const char *data,
                        size_t data_len)
{
    assert_true(i < a->nfiles);
    assert_string_equal(a->files[i].name, name);
    assert_int_equal(a->files[i].name_len, strlen(name));
    assert_bytes(a->files[i].data, a->files[i].data_len, data, data_len);
}

/* Go's own test case (archive_test.go "basic"). */
static void test_txtar_parse_basic_matches_go(void **state)
{
    (void)state;
    static const char in[] = "comment1\n"
                             "comment2\n"
                             "-- file1 --\n"
                             "File 1 text.\n"
                             "-- foo ---\n"
                             "More file 1 text.\n"
                             "-- file 2 --\n"
                             "File 2 text.\n"
                             "-- empty --\n"
                             "-- noNL --\n"
                             "hello world\n"
                             "-- empty filename line --\n"
                             "some content\n"
                             "-- --\n";
    txtar_archive *a = txtar_parse(in, sizeof in - 1);
    assert_non_null(a);
    assert_bytes(a->comment, a->comment_len, S("comment1\ncomment2\n"));
    assert_int_equal(a->nfiles, 5);
    assert_file(a, 0, "file1", S("File 1 text.\n-- foo ---\nMore file 1 text.\n"));
    assert_file(a, 1, "file 2", S("File 2 text.\n"));
    assert_file(a, 2, "empty", S(""));
    assert_file(a, 3, "noNL", S("hello world\n"));
    assert_file(a, 4, "empty filename line", S("some content\n-- --\n"));
    txtar_free(a);
}

static void test_txtar_parse_no_trailing_newline_gets_one(void **state)
{
    (void)state;
    txtar_archive *a = txtar_parse(S("c\n-- a --\nx\n-- b --\nlast"));
    assert_non_null(a);
    assert_file(a, 0, "a", S("x\n"));
    assert_file(a, 1, "b", S("last\n"));
    txtar_free(a);

    /* Comment only, no newline: the comment gets the newline. */
    a = txtar_parse(S("just a comment"));
    assert_non_null(a);
    assert_int_equal(a->nfiles, 0);
    assert_null(a->files);
    assert_bytes(a->comment, a->comment_len, S("just a comment\n"));
    txtar_free(a);
}

static void test_txtar_parse_marker_without_newline_is_marker(void **state)
{
    (void)state;
    txtar_archive *a = txtar_parse(S("-- a --\nbody\n-- b --"));
    assert_non_null(a);
    assert_int_equal(a->comment_len, 0);
    assert_int_equal(a->nfiles, 2);
    assert_file(a, 0, "a", S("body\n"));
    assert_file(a, 1, "b", S(""));
    txtar_free(a);
}

static void test_txtar_parse_marker_inside_line_is_data(void **state)
{
    (void)state;
    /* Markers count only at the start of a line. */
    txtar_archive *a = txtar_parse(S("-- a --\nx -- b --\n -- c --\n--d --\n-- e--\n"));
    assert_non_null(a);
    assert_int_equal(a->nfiles, 1);
    assert_file(a, 0, "a", S("x -- b --\n -- c --\n--d --\n-- e--\n"));
    txtar_free(a);
}

static void test_txtar_parse_empty_input_is_empty_archive(void **state)
{
    (void)state;
    txtar_archive *a = txtar_parse(NULL, 0);
    assert_non_null(a);
    assert_int_equal(a->comment_len, 0);
    assert_int_equal(a->nfiles, 0);
    txtar_free(a);
}

static void test_txtar_parse_empty_files_have_no_data(void **state)
{
    (void)state;
    txtar_archive *a = txtar_parse(S("-- a --\n-- b --\n-- c --\n"));
    assert_non_null(a);
    assert_int_equal(a->nfiles, 3);
    assert_file(a, 0, "a", S(""));
    assert_file(a, 1, "b", S(""));
    assert_file(a, 2, "c", S(""));
    txtar_free(a);
}

static void test_txtar_parse_crlf_marker_is_not_marker(void **state)
{
    (void)state;
    /* "-- a --\r" does not end in " --": the whole input is comment. */
    txtar_archive *a = txtar_parse(S("-- a --\r\nx\r\n"));
    assert_non_null(a);
    assert_int_equal(a->nfiles, 0);
    assert_bytes(a->comment, a->comment_len, S("-- a --\r\nx\r\n"));
    txtar_free(a);

    /* A CR inside the marker, before " --", is trimmed from the name. */
    a = txtar_parse(S("-- a\r --\ndata\r\n"));
    assert_non_null(a);
    assert_int_equal(a->nfiles, 1);
    assert_file(a, 0, "a", S("data\r\n"));
    txtar_free(a);
}

static void test_txtar_parse_name_trimmed_unicode_space(void **state)
{
    (void)state;
    /* strings.TrimSpace trims Unicode spaces too: NBSP (C2 A0), U+3000, tabs. An invalid
     * byte (\xff) is not a space and stays. */
    txtar_archive *a = txtar_parse(S("--  \t\xc2\xa0name\xe3\x80\x80\v --\n1\n"
                                     "-- \xffx\xc2 --\n2\n"
                                     "-- \xc2\x85 --\n3\n"));
    assert_non_null(a);
    assert_int_equal(a->nfiles, 2);
    assert_file(a, 0, "name", S("1\n"));
    assert_file(a, 1, "\xffx\xc2", S("2\n-- \xc2\x85 --\n3\n"));
    txtar_free(a);
}

static void test_txtar_parse_short_markers_are_data(void **state)
{
    (void)state;
    /* "-- --" is too short; "--  --" has an empty name; "-- x --" is the shortest marker. */
    txtar_archive *a = txtar_parse(S("-- --\n--  --\n---  ---\n-- x --"));
    assert_non_null(a);
    assert_bytes(a->comment, a->comment_len, S("-- --\n--  --\n---  ---\n"));
    assert_int_equal(a->nfiles, 1);
    assert_file(a, 0, "x", S(""));
    txtar_free(a);
}

static void test_txtar_parse_nul_bytes_kept(void **state)
{
    (void)state;
    static const char in[] = "a\0b\n-- f\0g --\nx\0y";
    txtar_archive *a = txtar_parse(in, sizeof in - 1);
    assert_non_null(a);
    assert_bytes(a->comment, a->comment_len, "a\0b\n", 4);
    assert_int_equal(a->nfiles, 1);
    assert_int_equal(a->files[0].name_len, 3);
    assert_memory_equal(a->files[0].name, "f\0g", 4);
    assert_bytes(a->files[0].data, a->files[0].data_len, "x\0y\n", 4);
    txtar_free(a);
}

static void test_txtar_parse_copies_input(void **state)
{
    (void)state;
    char *in = strdup("-- expect --\nSUCCESS\n-- trace --\nTrace Go1.22\n");
    assert_non_null(in);
    txtar_archive *a = txtar_parse(in, strlen(in));
    memset(in, 'X', strlen(in));
    free(in);
    assert_non_null(a);
    assert_non_null(txtar_find(a, "trace"));
    assert_bytes(txtar_find(a, "trace")->data, txtar_find(a, "trace")->data_len,
                 S("Trace Go1.22\n"));
    assert_bytes(txtar_find(a, "expect")->data, txtar_find(a, "expect")->data_len,
                 S("SUCCESS\n"));
    assert_null(txtar_find(a, "missing"));
    txtar_free(a);
}

static void test_txtar_format_adds_missing_newlines(void **state)
{
    (void)state;
    txtar_file files[] = {
        {"a", 1, "no newline", 10},
        {"b", 1, "", 0},
        {"c", 1, "ok\n", 3},
    };
    txtar_archive a = {"comment", 7, files, 3};
    size_t len = 0;
    char *out = txtar_format(&a, &len);
    assert_non_null(out);
    assert_int_equal(len, txtar_format_len(&a));
    assert_bytes(out, len, S("comment\n-- a --\nno newline\n-- b --\n-- c --\nok\n"));
    assert_int_equal(out[len], '\0');
    free(out);

    txtar_archive empty = {NULL, 0, NULL, 0};
    out = txtar_format(&empty, &len);
    assert_non_null(out);
    assert_int_equal(len, 0);
    free(out);
}

static void test_txtar_format_parse_roundtrip_is_identity(void **state)
{
    (void)state;
    static const char in[] = "comment\n\n-- expect --\nFAILURE \"x\"\n-- trace --\n"
                             "Trace Go1.23\nEventBatch gen=1 m=0 time=0 size=5\n";
    txtar_archive *a = txtar_parse(in, sizeof in - 1);
    assert_non_null(a);
    size_t len;
    char *out = txtar_format(a, &len);
    assert_non_null(out);
    assert_bytes(out, len, in, sizeof in - 1);
    free(out);
    txtar_free(a);
}

static void test_txtar_parse_file_missing_sets_errno(void **state)
{
    (void)state;
    errno = 0;
    assert_null(txtar_parse_file("/nonexistent/dir/x.test"));
    assert_int_equal(errno, ENOENT);
}

static void test_txtar_parse_file_reads_fixture(void **state)
{
    (void)state;
    txtar_archive *a =
        txtar_parse_file(GTR_SOURCE_DIR "/corpus/upstream/go122-fail-first-gen-first.test");
    assert_non_null(a);
    assert_int_equal(a->nfiles, 2);
    assert_string_equal(a->files[0].name, "expect");
    assert_string_equal(a->files[1].name, "trace");
    assert_bytes(a->files[0].data, a->files[0].data_len,
                 S("FAILURE \"expected a proc but didn't have one\"\n"));
    txtar_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_txtar_parse_basic_matches_go),
        cmocka_unit_test(test_txtar_parse_no_trailing_newline_gets_one),
        cmocka_unit_test(test_txtar_parse_marker_without_newline_is_marker),
        cmocka_unit_test(test_txtar_parse_marker_inside_line_is_data),
        cmocka_unit_test(test_txtar_parse_empty_input_is_empty_archive),
        cmocka_unit_test(test_txtar_parse_empty_files_have_no_data),
        cmocka_unit_test(test_txtar_parse_crlf_marker_is_not_marker),
        cmocka_unit_test(test_txtar_parse_name_trimmed_unicode_space),
        cmocka_unit_test(test_txtar_parse_short_markers_are_data),
        cmocka_unit_test(test_txtar_parse_nul_bytes_kept),
        cmocka_unit_test(test_txtar_parse_copies_input),
        cmocka_unit_test(test_txtar_format_adds_missing_newlines),
        cmocka_unit_test(test_txtar_format_parse_roundtrip_is_identity),
        cmocka_unit_test(test_txtar_parse_file_missing_sets_errno),
        cmocka_unit_test(test_txtar_parse_file_reads_fixture),
    };
    return cmocka_run_group_tests_name("txtar", tests, NULL, NULL);
}
