/* SPDX-License-Identifier: BSD-3-Clause */
/* test_raw_cli.c: `gotrace raw`: modes, IN/OUT arguments and "-", gzip input, help and
 * usage errors (exit 2), read errors (partial output, then "gotrace: <Go's message>",
 * exit 1). Runs the built binary through the shell. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#define GOTRACE GTR_BINARY_DIR "/bin/gotrace"
#define REAL GTR_SOURCE_DIR "/corpus/real/"

static char dir[] = "/tmp/gtr_raw_cli_XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* run executes a shell command line (with $T the temp dir, $G gotrace) and returns the exit
 * status. */
static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int run(const char *fmt, ...)
{
    char body[2048], cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "T='%s'; G='%s'; %s", dir, GOTRACE, body);
    int st = system(cmd);
    assert_true(st != -1 && WIFEXITED(st));
    return WEXITSTATUS(st);
}

/* slurp returns the content of $T/name (malloc'd, NUL-terminated). */
static char *slurp(const char *name, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t cap = 1 << 16, len = 0;
    char *b = malloc(cap + 1);
    size_t k;
    while ((k = fread(b + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) {
            cap *= 2;
            b = realloc(b, cap + 1);
        }
    }
    fclose(f);
    b[len] = '\0';
    if (n != NULL)
        *n = len;
    return b;
}

static void test_raw_cli_help_and_usage_errors(void **state)
{
    (void)state;
    assert_int_equal(run("$G raw -h >$T/out 2>$T/err"), 0);
    char *out = slurp("out", NULL);
    assert_true(strncmp(out, "usage: gotrace raw text2bytes|bytes2text [IN [OUT]]\n", 52) == 0);
    free(out);
    assert_int_equal(run("$G raw bytes2text --help >$T/out 2>$T/err"), 0);
    assert_int_equal(run("$G raw >$T/out 2>$T/err"), 2);
    char *err = slurp("err", NULL);
    assert_true(strncmp(err, "gotrace: raw: missing mode", 26) == 0);
    assert_non_null(strstr(err, "usage: gotrace raw"));
    free(err);
    assert_int_equal(run("$G raw strip >$T/out 2>$T/err"), 2);
    err = slurp("err", NULL);
    assert_true(strncmp(err, "gotrace: raw: unknown mode strip\n", 33) == 0);
    free(err);
    assert_int_equal(run("$G raw text2bytes a b c >$T/out 2>$T/err"), 2);
    assert_int_equal(run("$G raw text2bytes --bogus >$T/out 2>$T/err"), 2);
}

static void test_raw_cli_converts_files_stdin_and_gzip(void **state)
{
    (void)state;
    /* gzip file in, text out to a file; then text back to bytes through stdin/stdout. */
    assert_int_equal(run("$G raw bytes2text " REAL "go1.23-testprog-annotations-stress.trace.gz "
                         "$T/a.txt 2>$T/err"),
                     0);
    size_t tn;
    char *text = slurp("a.txt", &tn);
    assert_true(strncmp(text, "Trace Go1.23\nEventBatch ", 24) == 0);
    assert_int_equal(run("$G raw text2bytes - - <$T/a.txt >$T/b.bin 2>$T/err"), 0);
    /* Bytes -> text -> bytes -> text is stable (the runtime's own bytes differ: it pads
     * varints, the writer does not). */
    assert_int_equal(run("$G raw bytes2text <$T/b.bin >$T/c.txt 2>$T/err"), 0);
    size_t cn;
    char *again = slurp("c.txt", &cn);
    assert_int_equal(cn, tn);
    assert_memory_equal(again, text, tn);
    free(again);
    free(text);
}

static void test_raw_cli_read_error_writes_partial_output_and_fails(void **state)
{
    (void)state;
    assert_int_equal(
        run("printf 'go 1.22 trace\\000\\000\\000\\020\\001\\002\\003\\055' >$T/bad.bin"), 0);
    assert_int_equal(run("$G raw bytes2text $T/bad.bin >$T/out 2>$T/err"), 1);
    char *out = slurp("out", NULL);
    assert_string_equal(out, "Trace Go1.22\nGoStart dt=1 g=2 g_seq=3\n");
    free(out);
    char *err = slurp("err", NULL);
    assert_string_equal(err, "gotrace: invalid event type: 45\n");
    free(err);
    assert_int_equal(
        run("printf 'Trace Go1.22\\nBogus x=1\\n' | $G raw text2bytes >$T/out 2>$T/err"), 1);
    err = slurp("err", NULL);
    assert_string_equal(err, "gotrace: unidentified event: Bogus\n");
    free(err);
    assert_int_equal(run("$G raw bytes2text $T/missing.bin >$T/out 2>$T/err"), 1);
    err = slurp("err", NULL);
    assert_non_null(strstr(err, "gotrace: open "));
    assert_non_null(strstr(err, "missing.bin: no such file or directory\n"));
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_cli_help_and_usage_errors),
        cmocka_unit_test(test_raw_cli_converts_files_stdin_and_gzip),
        cmocka_unit_test(test_raw_cli_read_error_writes_partial_output_and_fails),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
