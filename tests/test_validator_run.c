/* SPDX-License-Identifier: BSD-3-Clause */
/* test_validator_run.c: gtr_validator_run is the loop of gtr_reader_next and
 * gtr_validator_event, in the library. On every real trace of corpus/real and corpus/old and
 * every reader fuzz seed of corpus/fuzz/reader (traces that end, that fail in the reader, and
 * that fail in the validator), run whole and in chunks of 1, 3 and 4096 events, it must end
 * with the loop's status, the loop's message byte for byte (none at the end of the trace,
 * where the loop has the reader's "EOF") and the loop's event count. The loop sets the
 * validator's version from the reader, as Go's tests do; gtr_validator_run is left to take
 * it itself. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gtr/gtr.h"

/* outcome: how a trace's validation ended. */
typedef struct outcome {
    gtr_status st;
    char *text;      /* the error's whole text (malloc'd) */
    size_t len;
    uint64_t events; /* events read, the rejected one included */
} outcome;

static void outcome_free(outcome *o)
{
    free(o->text);
    memset(o, 0, sizeof *o);
}

static void set_text(outcome *o, const gtr_err *err)
{
    size_t n;
    const char *t = gtr_err_text(err, &n);
    o->text = malloc(n + 1);
    assert_non_null(o->text);
    memcpy(o->text, t, n);
    o->text[n] = '\0';
    o->len = n;
}

/* open_pair opens a reader and a validator on the file at path (gzip or not), the validator
 * set to the reader's version when set_version; false when the header is refused (both ways
 * of validating then see the same gtr_reader_new error). */
static bool open_pair(const char *path, bool set_version, gtr_input **in, gtr_reader **r,
                      gtr_validator **v)
{
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_path(path, NULL, in, &err), GTR_OK);
    if (gtr_reader_new(*in, NULL, r, &err) != GTR_OK) {
        gtr_err_clear(&err);
        gtr_input_free(*in);
        return false;
    }
    assert_int_equal(gtr_validator_new(NULL, v, &err), GTR_OK);
    if (set_version)
        gtr_validator_set_go_version(*v, gtr_reader_go_version(*r));
    gtr_err_clear(&err);
    return true;
}

static void close_pair(gtr_input *in, gtr_reader *r, gtr_validator *v)
{
    gtr_validator_free(v);
    gtr_reader_free(r);
    gtr_input_free(in);
}

/* by_loop validates the file at path with the caller's loop. */
static bool by_loop(const char *path, outcome *o)
{
    gtr_input *in;
    gtr_reader *r;
    gtr_validator *v;
    gtr_err err = GTR_ERR_INIT;
    gtr_event ev;

    memset(o, 0, sizeof *o);
    if (!open_pair(path, true, &in, &r, &v))
        return false;
    for (;;) {
        if ((o->st = gtr_reader_next(r, &ev, &err)) != GTR_OK)
            break;
        o->events++;
        if ((o->st = gtr_validator_event(v, &ev, &err)) != GTR_OK)
            break;
    }
    set_text(o, &err);
    gtr_err_clear(&err);
    close_pair(in, r, v);
    return true;
}

/* by_run validates the file at path with gtr_validator_run, chunk events a call (0: one
 * call). */
static void by_run(const char *path, uint64_t chunk, outcome *o)
{
    gtr_input *in;
    gtr_reader *r;
    gtr_validator *v;
    gtr_err err = GTR_ERR_INIT;

    memset(o, 0, sizeof *o);
    assert_true(open_pair(path, false, &in, &r, &v));
    for (;;) {
        uint64_t n = UINT64_MAX;
        o->st = gtr_validator_run(v, r, chunk, &n, &err);
        assert_true(n != UINT64_MAX);
        if (chunk != 0)
            assert_true(n <= chunk);
        o->events += n;
        if (o->st != GTR_OK)
            break;
        /* GTR_OK means the chunk was full; it is a success, like GTR_EOF: no error. */
        assert_int_not_equal(chunk, 0);
        assert_int_equal(n, chunk);
        assert_int_equal(err.code, GTR_OK);
        assert_int_equal(err.len, 0);
    }
    set_text(o, &err);
    gtr_err_clear(&err);
    close_pair(in, r, v);
}

/* check_one: every way of running gtr_validator_run agrees with the loop on the file at
 * path. Counts the loop's outcome kinds. */
static void check_one(const char *path, unsigned *eof, unsigned *invalid, unsigned *other)
{
    static const uint64_t chunks[] = {0, 1, 3, 4096};
    outcome want, got;

    if (!by_loop(path, &want))
        return;
    if (want.st == GTR_EOF)
        ++*eof;
    else if (want.st == GTR_E_INVALID)
        ++*invalid;
    else
        ++*other;
    if (want.st == GTR_EOF) {
        /* The loop ends with the reader's "EOF"; gtr_validator_run's success leaves none. */
        assert_string_equal(want.text, "EOF");
        want.text[0] = '\0';
        want.len = 0;
    }
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        by_run(path, chunks[i], &got);
        if (got.st != want.st || got.events != want.events || got.len != want.len ||
            memcmp(got.text, want.text, want.len) != 0)
            fail_msg("%s, chunks of %llu: gtr_validator_run ended with status %d after %llu "
                     "events (%s); the loop with %d after %llu (%s)",
                     path, (unsigned long long)chunks[i], (int)got.st,
                     (unsigned long long)got.events, got.text, (int)want.st,
                     (unsigned long long)want.events, want.text);
        outcome_free(&got);
    }
    outcome_free(&want);
}

/* check_dir runs check_one on every file of GTR_SOURCE_DIR/sub whose name ends in suffix
 * ("" for all); returns how many it read. */
static unsigned check_dir(const char *sub, const char *suffix, unsigned *eof, unsigned *invalid,
                          unsigned *other)
{
    char dir[1024], path[2048];
    snprintf(dir, sizeof dir, "%s/%s", GTR_SOURCE_DIR, sub);
    DIR *d = opendir(dir);
    if (d == NULL)
        fail_msg("cannot open %s", dir);
    unsigned files = 0;
    struct dirent *de;
    size_t sl = strlen(suffix);
    while ((de = readdir(d)) != NULL) {
        size_t nl = strlen(de->d_name);
        if (de->d_name[0] == '.' || nl < sl || strcmp(de->d_name + nl - sl, suffix) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        check_one(path, eof, invalid, other);
        files++;
    }
    closedir(d);
    return files;
}

static void test_validator_run_matches_loop_on_real_traces(void **state)
{
    (void)state;
    unsigned eof = 0, invalid = 0, other = 0;
    unsigned files = check_dir("corpus/real", ".trace.gz", &eof, &invalid, &other);
    assert_true(files >= 20);
    assert_true(eof >= 20);   /* real traces validate */
}

/* The old traces (go 1.11, 1.19, 1.21): most validate, two end in Go's validator error. */
static void test_validator_run_matches_loop_on_old_traces(void **state)
{
    (void)state;
    unsigned eof = 0, invalid = 0, other = 0;
    unsigned files = check_dir("corpus/old", ".trace.gz", &eof, &invalid, &other);
    assert_true(files >= 20);
    assert_true(eof >= 20);
    assert_true(invalid > 0);
}

/* A version the caller set is kept: a go1.22 trace validated as of the current version
 * fails at its first Sync, which has no clock snapshot before Go 1.25. */
static void test_validator_run_keeps_a_version_set_by_the_caller(void **state)
{
    (void)state;
    char path[1024];
    gtr_input *in;
    gtr_reader *r;
    gtr_validator *v;
    gtr_err err = GTR_ERR_INIT;
    uint64_t n;
    snprintf(path, sizeof path, "%s/corpus/real/go1.22-testprog-annotations-stress.trace.gz",
             GTR_SOURCE_DIR);
    assert_true(open_pair(path, false, &in, &r, &v));
    assert_int_equal(gtr_reader_go_version(r), GTR_GO122);
    gtr_validator_set_go_version(v, GTR_GO_CURRENT);
    assert_int_equal(gtr_validator_run(v, r, 0, &n, &err), GTR_E_INVALID);
    assert_int_equal(n, 1);
    assert_string_equal(gtr_err_text(&err, NULL), "sync 1 has no clock snapshot");
    gtr_err_clear(&err);
    close_pair(in, r, v);

    /* The same trace with the reader's version, taken by gtr_validator_run: to the end, and
     * no error left in err. */
    assert_true(open_pair(path, false, &in, &r, &v));
    assert_int_equal(gtr_validator_run(v, r, 0, &n, &err), GTR_EOF);
    assert_true(n > 1);
    assert_int_equal(err.code, GTR_OK);
    assert_string_equal(gtr_err_text(&err, NULL), "");
    close_pair(in, r, v);
}

static void test_validator_run_matches_loop_on_fuzz_seeds(void **state)
{
    (void)state;
    unsigned eof = 0, invalid = 0, other = 0;
    unsigned files = check_dir("corpus/fuzz/reader", "", &eof, &invalid, &other);
    assert_true(files >= 100);
    /* The seeds reach all three ends: the trace's, the validator's errors, the reader's. */
    assert_true(eof > 0);
    assert_true(invalid > 0);
    assert_true(other > 0);
}

static void test_validator_run_null_arguments_are_usage_errors(void **state)
{
    (void)state;
    gtr_err err = GTR_ERR_INIT;
    uint64_t n = 7;
    assert_int_equal(gtr_validator_run(NULL, NULL, 0, &n, &err), GTR_E_USAGE);
    assert_int_equal(n, 0);
    assert_string_equal(gtr_err_text(&err, NULL), "gtr_validator_run: NULL argument");
    gtr_err_clear(&err);
    assert_int_equal(gtr_validator_run(NULL, NULL, 0, NULL, NULL), GTR_E_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validator_run_matches_loop_on_real_traces),
        cmocka_unit_test(test_validator_run_matches_loop_on_old_traces),
        cmocka_unit_test(test_validator_run_keeps_a_version_set_by_the_caller),
        cmocka_unit_test(test_validator_run_matches_loop_on_fuzz_seeds),
        cmocka_unit_test(test_validator_run_null_arguments_are_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
