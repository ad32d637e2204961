/* SPDX-License-Identifier: BSD-3-Clause */
/* test_fixture.c: .test fixtures (testtrace.ParseFile) and the golden check (TestReaderGolden).
 * The expected messages are what Go's golden runner (the oracle's `check`) prints for the same
 * files; the wire bytes are checked against corpus/upstream/WIRE.sha256 (Go's text2bytes). */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tgen/fixture.h"

#include "sha256.h"

#define UPSTREAM GTR_SOURCE_DIR "/corpus/upstream"

static void test_fixture_sha256_known_answer(void **state)
{
    (void)state;
    char hex[65];
    sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    sha256_hex("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

/* --- fixtures ------------------------------------------------------------------------- */

static void test_fixture_upstream_wire_matches_go(void **state)
{
    (void)state;
    FILE *f = fopen(UPSTREAM "/WIRE.sha256", "r");
    char want[65], name[256], path[512];
    int n = 0;
    assert_non_null(f);
    while (fscanf(f, "%64s %255s", want, name) == 2) {
        tgen_fixture *fx;
        gtr_err err = GTR_ERR_INIT;
        snprintf(path, sizeof path, "%s/%s", UPSTREAM, name);
        if (tgen_fixture_parse_file(path, &fx, &err) != GTR_OK) {
            print_error("%s: %s\n", name, err.msg);
            fail();
        }
        size_t len;
        const uint8_t *wire = tgen_fixture_trace(fx, &len);
        char got[65];
        sha256_hex(wire, len, got);
        if (strcmp(got, want) != 0) {
            print_error("%s: wire sha256 %s, Go's %s\n", name, got, want);
            fail();
        }
        assert_true(len >= 16);
        assert_memory_equal(wire, "go 1.", 5);
        assert_true(tgen_fixture_version(fx) >= GTR_GO122);
        tgen_fixture_free(fx);
        n++;
    }
    fclose(f);
    assert_int_equal(n, 22);
}

static void test_fixture_parse_reads_version_and_expectation(void **state)
{
    (void)state;
    tgen_fixture *fx;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(tgen_fixture_parse_file(UPSTREAM "/go122-fail-first-gen-first.test", &fx, &err),
                     GTR_OK);
    assert_int_equal(tgen_fixture_version(fx), GTR_GO122);
    const tgen_expect *e = tgen_fixture_expect(fx);
    assert_true(tgen_expect_is_failure(e));
    assert_string_equal(tgen_expect_pattern(e, NULL), "expected a proc but didn't have one");
    size_t len;
    assert_memory_equal(tgen_fixture_trace(fx, &len), "go 1.22 trace\0\0\0", 16);
    tgen_fixture_free(fx);

    static const char text[] = "-- expect --\nSUCCESS\n-- trace --\nTrace Go1.23\n";
    assert_int_equal(tgen_fixture_parse("mem.test", text, sizeof text - 1, &fx, &err), GTR_OK);
    assert_int_equal(tgen_fixture_version(fx), GTR_GO123);
    assert_false(tgen_expect_is_failure(tgen_fixture_expect(fx)));
    assert_int_equal(len = 0, 0);
    tgen_fixture_trace(fx, &len);
    assert_int_equal(len, 16);
    tgen_fixture_free(fx);
}

/* Each case: a file name, its content, and Go's golden-runner verdict (NULL: pass). */
static const struct {
    const char *name;
    const char *content;
    const char *want;
} golden_cases[] = {
    {"zero.test", "",
     "failed to parse test file at zero.test: malformed test zero.test: wrong number of files"},
    {"three.test", "-- expect --\nSUCCESS\n-- trace --\nTrace Go1.22\n-- extra --\n",
     "failed to parse test file at three.test: malformed test three.test: wrong number of files"},
    {"badname1.test", "-- expectation --\nSUCCESS\n-- trace --\nTrace Go1.22\n",
     "failed to parse test file at badname1.test: malformed test badname1.test: bad filename "
     "expectation"},
    {"badname2.test", "-- expect --\nSUCCESS\n-- trace2 --\nTrace Go1.22\n",
     "failed to parse test file at badname2.test: malformed test badname2.test: bad filename "
     "trace2"},
    {"badver.test", "-- expect --\nSUCCESS\n-- trace --\nTrace Go1.99\n",
     "failed to parse test file at badver.test: malformed test badver.test: bad trace file: "
     "unknown or unsupported Go version 1.99"},
    {"badhdr.test", "-- expect --\nSUCCESS\n-- trace --\nHello\n",
     "failed to parse test file at badhdr.test: malformed test badhdr.test: bad trace file: "
     "failed to parse header"},
    {"badev.test",
     "-- expect --\nSUCCESS\n-- trace --\nTrace Go1.22\nEventBatch gen=1 m=0 time=0 size=x\n",
     "failed to parse test file at badev.test: malformed test badev.test: bad trace file: "
     "reading args for EventBatch: failed to parse argument value \"x\" for arg \"size\""},
    {"unk.test", "-- expect --\nSUCCESS\n-- trace --\nTrace Go1.22\nNoSuchEvent a=1\n",
     "failed to parse test file at unk.test: malformed test unk.test: bad trace file: "
     "unidentified event: NoSuchEvent"},
    {"badexp.test", "-- expect --\nBOGUS\n-- trace --\nTrace Go1.22\n",
     "failed to parse test file at badexp.test: internal error during badexp.test: failed to "
     "parse expectation \"BOGUS\\n\": bad header line: \"BOGUS\""},
    {"badre.test", "-- expect --\nFAILURE \"(?=x)\"\n-- trace --\nTrace Go1.22\n",
     "failed to parse test file at badre.test: internal error during badre.test: failed to "
     "parse expectation \"FAILURE \\\"(?=x)\\\"\\n\": malformed pattern: not a valid regexp: "
     "(?=x): error parsing regexp: invalid or unsupported Perl syntax: `(?=`"},
    {"empty.test", "-- expect --\nSUCCESS\n-- trace --\nTrace Go1.22\n",
     "unexpected error while reading the trace: no frequency event found"},
    {"emptyfail.test", "-- expect --\nFAILURE \"x\"\n-- trace --\nTrace Go1.22\n",
     "unexpected error while reading the trace: want something matching \"x\", got no "
     "frequency event found"},
    {"emptyok.test", "-- expect --\nFAILURE \"^no freq.*found$\"\n-- trace --\nTrace Go1.22\n",
     NULL},
    {"emptyexp.test", "-- expect --\n-- trace --\nTrace Go1.22\n",
     "unexpected error while reading the trace: no frequency event found"},
};

static char tmpdir[] = "/tmp/gtr-fixture-XXXXXX";
static char oldcwd[4096];

static int setup_dir(void **state)
{
    (void)state;
    if (getcwd(oldcwd, sizeof oldcwd) == NULL || mkdtemp(tmpdir) == NULL || chdir(tmpdir) != 0)
        return -1;
    for (size_t i = 0; i < sizeof golden_cases / sizeof golden_cases[0]; i++) {
        FILE *f = fopen(golden_cases[i].name, "wb");
        if (f == NULL)
            return -1;
        fputs(golden_cases[i].content, f);
        if (fclose(f) != 0)
            return -1;
    }
    return mkdir("adir.test", 0700);
}

static int teardown_dir(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof golden_cases / sizeof golden_cases[0]; i++)
        unlink(golden_cases[i].name);
    rmdir("adir.test");
    if (chdir(oldcwd) != 0)
        return -1;
    return rmdir(tmpdir);
}

static void test_fixture_check_verdicts_match_go(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof golden_cases / sizeof golden_cases[0]; i++) {
        gtr_err err = GTR_ERR_INIT;
        tgen_check_report rep;
        gtr_status st = tgen_fixture_check(golden_cases[i].name, &rep, &err);
        const char *want = golden_cases[i].want;
        if (want == NULL ? st != GTR_OK : (st >= 0 || strcmp(err.msg, want) != 0)) {
            print_error("%s: got %s, want %s\n", golden_cases[i].name, st < 0 ? err.msg : "ok",
                        want ? want : "ok");
            fail();
        }
        assert_int_equal(rep.failures, want == NULL ? 0 : 1);
    }
}

static void test_fixture_check_missing_and_directory_fail_like_go(void **state)
{
    (void)state;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(tgen_fixture_check("nonexistent.test", NULL, &err), GTR_E_IO);
    assert_string_equal(err.msg, "failed to parse test file at nonexistent.test: failed to read "
                                 "test file for nonexistent.test: open nonexistent.test: no such "
                                 "file or directory");
    assert_int_equal(tgen_fixture_check("adir.test", NULL, &err), GTR_E_IO);
    assert_string_equal(err.msg, "failed to parse test file at adir.test: failed to read test "
                                 "file for adir.test: read adir.test: is a directory");
}

static void test_fixture_parse_name_with_nul_is_bad_filename(void **state)
{
    (void)state;
    /* Go compares the whole name: "expect\0\0" is not "expect". */
    static const char text[] = "-- expect\0\0 --\nSUCCESS\n-- trace --\nTrace Go1.22\n";
    tgen_fixture *fx = (tgen_fixture *)&fx;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(tgen_fixture_parse("nul.test", text, sizeof text - 1, &fx, &err),
                     GTR_E_FORMAT);
    assert_null(fx);
    assert_string_equal(err.msg, "malformed test nul.test: bad filename expect");
}

static void test_fixture_parse_gzip_trace_section_is_not_decompressed(void **state)
{
    (void)state;
    /* Go's ParseFile feeds the trace file to the text reader as it is: a gzip-compressed
     * "Trace Go1.22\n" (gzip -n, mtime 0) is not a text trace ("failed to parse header"). */
    static const char text[] = "-- expect --\nSUCCESS\n-- trace --\n"
                               "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x0b\x29\x4a\x4c"
                               "\x4e\x55\x70\xcf\x37\xd4\x33\x32\xe2\x02\x00\xea\x67"
                               "\xd6\xc4\x0d\x00\x00\x00\n";
    tgen_fixture *fx = (tgen_fixture *)&fx;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(tgen_fixture_parse("gz.test", text, sizeof text - 1, &fx, &err),
                     GTR_E_FORMAT);
    assert_null(fx);
    assert_string_equal(err.msg, "malformed test gz.test: bad trace file: failed to parse header");
}

static void test_fixture_check_upstream_failure_fixture_passes(void **state)
{
    (void)state;
    gtr_err err = GTR_ERR_INIT;
    tgen_check_report rep;
    gtr_status st = tgen_fixture_check(UPSTREAM "/go122-fail-first-gen-first.test", &rep, &err);
    if (st != GTR_OK) {
        print_error("%s\n", err.msg);
        fail();
    }
    assert_int_equal(rep.failures, 0);
}

/* --- bounded reading of hostile input ---------------------------------------------------- */

/* temp_path makes an empty temporary file and returns its path (the caller unlinks, frees). */
static char *temp_path(void)
{
    char *path = strdup("/tmp/gtr-fixture-XXXXXX");
    assert_non_null(path);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    return path;
}

static void test_fixture_header_check_decides_on_the_first_bytes(void **state)
{
    (void)state;
    gtr_err err = GTR_ERR_INIT;
    static const char good[] = "go 1.22 trace\0\0\0", bad[] = "go 1.99 trace\0\0\0";
    char zeros[64] = {0}, spaces[4096];

    assert_int_equal(tgen_header_check(good, sizeof good - 1, false, &err), GTR_OK);
    assert_int_equal(tgen_header_check(bad, sizeof bad - 1, false, &err), GTR_E_VERSION);
    assert_string_equal(err.msg, "unknown or unsupported trace version go 1.99");
    assert_int_equal(tgen_header_check(zeros, sizeof zeros, false, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "bad file format: not a Go execution trace?");
    /* "go" and spaces to the end of what was read: the rest could still make a header. */
    memset(spaces, ' ', sizeof spaces);
    memcpy(spaces, "go", 2);
    gtr_err_clear(&err);
    assert_int_equal(tgen_header_check(spaces, sizeof spaces, false, &err), GTR_EOF);
    assert_int_equal(err.code, GTR_OK);
    /* ... unless the input ends there. */
    assert_int_equal(tgen_header_check(spaces, sizeof spaces, true, &err), GTR_E_FORMAT);
    gtr_err_clear(&err);
}

static void test_fixture_read_trace_stops_at_its_limit(void **state)
{
    (void)state;
    static char trace[10000] = "go 1.22 trace";
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    char *data = NULL;
    size_t len = 0;

    assert_int_equal(gtr_input_open_memory_plain(trace, sizeof trace, NULL, &in, &err), GTR_OK);
    assert_int_equal(tgen_read_trace(in, "t", 9999, &data, &len, &err), GTR_E_LIMIT);
    assert_string_equal(err.msg, "read t: input exceeds the limit of 9999 bytes");
    assert_null(data);
    gtr_input_free(in);

    assert_int_equal(gtr_input_open_memory_plain(trace, sizeof trace, NULL, &in, &err), GTR_OK);
    assert_int_equal(tgen_read_trace(in, "t", 10000, &data, &len, &err), GTR_OK);
    assert_int_equal(len, sizeof trace);
    assert_memory_equal(data, trace, sizeof trace);
    assert_int_equal(data[len], '\0');
    free(data);
    gtr_input_free(in);

    /* A bad header is the error, whatever follows. */
    memcpy(trace, "go 1.99", 7);
    assert_int_equal(gtr_input_open_memory_plain(trace, sizeof trace, NULL, &in, &err), GTR_OK);
    assert_int_equal(tgen_read_trace(in, "t", 10000, &data, &len, &err), GTR_E_VERSION);
    assert_string_equal(err.msg, "unknown or unsupported trace version go 1.99");
    assert_null(data);
    gtr_input_free(in);
    memcpy(trace, "go 1.22", 7);
    gtr_err_clear(&err);
}

/* An input that may be a fixture is read until it cannot be one: a NUL byte before its first
 * "-- " line ends the reading of 1 MiB of zeros after a 64 KiB read or so; after a file
 * marker, a NUL byte is a fixture's own business. */
static void test_fixture_candidate_stops_at_a_nul_before_the_first_file(void **state)
{
    (void)state;
    const size_t big = (size_t)1 << 20;
    char *text = calloc(1, big);
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    char *data = NULL;
    size_t len = 0;
    assert_non_null(text);

    memcpy(text, "comment\n", 8);
    assert_int_equal(gtr_input_open_memory_plain(text, big, NULL, &in, &err), GTR_OK);
    assert_int_equal(tgen_read_fixture_candidate(in, NULL, 0, &data, &len, &err), GTR_E_FORMAT);
    assert_null(data);
    assert_in_range(gtr_input_offset(in), 8, 128 << 10);
    gtr_input_free(in);

    static const char fixture[] = "-- expect --\nSUCCESS\n-- trace --\n";
    memcpy(text, fixture, sizeof fixture - 1);
    assert_int_equal(gtr_input_open_memory_plain(text, big, NULL, &in, &err), GTR_OK);
    assert_int_equal(tgen_read_fixture_candidate(in, NULL, 0, &data, &len, &err), GTR_OK);
    assert_int_equal(len, big);
    assert_true(tgen_fixture_sniff(data, len, NULL));
    free(data);
    gtr_input_free(in);

    /* The marker after a comment line, the head given apart. */
    static const char commented[] = "a comment\n-- expect --\nSUCCESS\n-- trace --\n";
    memcpy(text, commented + 4, sizeof commented - 5);
    assert_int_equal(gtr_input_open_memory_plain(text, big, NULL, &in, &err), GTR_OK);
    assert_int_equal(tgen_read_fixture_candidate(in, commented, 4, &data, &len, &err), GTR_OK);
    assert_int_equal(len, big + 4);
    assert_memory_equal(data, commented, sizeof commented - 1);
    free(data);
    gtr_input_free(in);
    gtr_err_clear(&err);
    free(text);
}

/* A wire input whose header fails gives its header's 16 bytes only (they decide the
 * verdict, and are all that is read): a 1 GiB file of them is not read whole. A huge .test fails on its size, before it is read. */
static void test_fixture_load_huge_inputs_is_bounded(void **state)
{
    (void)state;
    char *path = temp_path();
    gtr_err err = GTR_ERR_INIT;
    gtr_buf wire = {0};
    bool fixture = true;

    assert_int_equal(truncate(path, (off_t)1 << 30), 0);
    assert_int_equal(tgen_load_trace(path, &wire, &fixture, &err), GTR_OK);
    assert_false(fixture);
    assert_int_equal(wire.len, 16);

    tgen_fixture *f = NULL;
    assert_int_equal(tgen_fixture_parse_file(path, &f, &err), GTR_E_LIMIT);
    char want[256];
    snprintf(want, sizeof want,
             "failed to read test file for %s: read %s: input exceeds the limit of 67108864 "
             "bytes", path, path);
    assert_string_equal(err.msg, want);
    assert_null(f);

    /* Named .test, it is a fixture for tgen_load_trace: too large to hold. */
    char test_path[64];
    snprintf(test_path, sizeof test_path, "%s.test", path);   /* unique as path is */
    FILE *tf = fopen(test_path, "wb");
    assert_non_null(tf);
    fclose(tf);
    assert_int_equal(truncate(test_path, (off_t)1 << 30), 0);
    gtr_buf_reset(&wire);
    assert_int_equal(tgen_load_trace(test_path, &wire, &fixture, &err), GTR_E_LIMIT);
    snprintf(want, sizeof want, "read %s: input exceeds the limit of 67108864 bytes", test_path);
    assert_string_equal(err.msg, want);
    assert_int_equal(wire.len, 0);
    unlink(test_path);

    gtr_err_clear(&err);
    gtr_buf_free(&wire);
    unlink(path);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_sha256_known_answer),
        cmocka_unit_test(test_fixture_parse_gzip_trace_section_is_not_decompressed),
        cmocka_unit_test(test_fixture_upstream_wire_matches_go),
        cmocka_unit_test(test_fixture_parse_reads_version_and_expectation),
        cmocka_unit_test(test_fixture_check_verdicts_match_go),
        cmocka_unit_test(test_fixture_check_missing_and_directory_fail_like_go),
        cmocka_unit_test(test_fixture_parse_name_with_nul_is_bad_filename),
        cmocka_unit_test(test_fixture_check_upstream_failure_fixture_passes),
        cmocka_unit_test(test_fixture_header_check_decides_on_the_first_bytes),
        cmocka_unit_test(test_fixture_read_trace_stops_at_its_limit),
        cmocka_unit_test(test_fixture_load_huge_inputs_is_bounded),
        cmocka_unit_test(test_fixture_candidate_stops_at_a_nul_before_the_first_file),
    };
    return cmocka_run_group_tests_name("fixture", tests, setup_dir, teardown_dir);
}
