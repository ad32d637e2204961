/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_check.c: `gotrace check [FILE.test|FILE.test.gz|-|DIR...]`: the golden runner. Each
 * fixture goes through tgen_fixture_check (Go's TestReaderGolden for one file); stdin and
 * gzip-compressed fixtures are read and gunzipped first, then parsed and checked the same way.
 * The output has the shape of the oracle's `gtroracle check`, so the two can be diffed. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "tgen/fixture.h"

static const char usage[] =
    "usage: gotrace check [--] [FILE.test|FILE.test.gz|-|DIR...]\n"
    "\n"
    "Checks .test fixtures (txtar: an `expect` file then a text `trace`) the way Go's\n"
    "TestReaderGolden does: the trace is converted to wire bytes, read with the reader, every\n"
    "event validated, and the outcome compared with the expectation (SUCCESS, or FAILURE with\n"
    "a regexp the error must match). \"-\", or no argument, reads one fixture from stdin,\n"
    "reported as `-`.\n"
    "A gzip-compressed fixture (FILE.test.gz, or any fixture whose bytes are gzip, stdin\n"
    "included) is gunzipped whole first, then checked as usual; this is our extension: Go's\n"
    "testtrace.ParseFile reads fixtures as they are. A DIR (a directory whose name ends in\n"
    "neither .test nor .test.gz) stands for every *.test and *.test.gz file in it, sorted by\n"
    "name.\n"
    "\n"
    "Prints `ok   NAME` or `FAIL NAME: <why>` per fixture (a newline inside <why> is written as\n"
    "\\n, so each fixture is one line), then `N passed, N failed`.\n"
    "Exit status: 0 all passed, 1 some failed, 2 usage error.\n"
    "\n"
    "flags:\n"
    "  --          end of the flags: every argument after it is a fixture or DIR\n"
    "  -h, --help  print this help\n";

typedef struct tally {
    unsigned passed, failed;
} tally;

/* print_failure prints "FAIL name: why" (why[0..n), newlines escaped) without ending the line. */
static void print_failure(const char *name, const char *why, size_t n)
{
    printf("FAIL %s: ", name);
    for (size_t i = 0; i < n; i++) {
        if (why[i] == '\n')
            fputs("\\n", stdout);
        else
            putchar(why[i]);
    }
}

/* is_gzip_file: the file at path starts with the gzip magic (1f 8b). */
static bool is_gzip_file(const char *path)
{
    unsigned char magic[2];
    FILE *fp = fopen(path, "rb");
    bool yes = fp != NULL && fread(magic, 1, 2, fp) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    if (fp != NULL)
        fclose(fp);
    return yes;
}

/* check_one is tgen_fixture_check, also for stdin ("-") and gzip-compressed fixtures, whose
 * bytes are read (and gunzipped) here and then go the same way, with the same messages. */
static gtr_status check_one(const char *path, tgen_check_report *rep, gtr_err *err)
{
    tgen_fixture *f = NULL;
    char *data = NULL;
    size_t len = 0;
    gtr_err sub = GTR_ERR_INIT;
    gtr_status st;

    if (strcmp(path, "-") != 0 && !is_gzip_file(path))
        return tgen_fixture_check(path, rep, err);
    rep->events = 0;
    rep->failures = 1;
    if ((st = cli_read_decompressed(path, &data, &len, &sub)) < 0) {
        /* Go: t.Fatalf("failed to parse test file at %s: %v", testPath, err) around
         * fmt.Errorf("failed to read test file for %s: %v", testPath, err) */
        gtr_err_move(err, &sub);
        return gtr_err_wrapf(err,
                             "failed to parse test file at %s: failed to read test file for %s",
                             path, path);
    }
    st = tgen_fixture_parse(path, data, len, &f, err);
    free(data);
    if (st < 0)
        /* Go: t.Fatalf("failed to parse test file at %s: %v", testPath, err) */
        return gtr_err_wrapf(err, "failed to parse test file at %s", path);
    st = tgen_fixture_check_parsed(f, rep, err);
    tgen_fixture_free(f);
    return st;
}

static void check_file(const char *path, tally *t)
{
    gtr_err err = GTR_ERR_INIT;
    tgen_check_report rep;

    if (check_one(path, &rep, &err) == GTR_OK) {
        printf("ok   %s\n", path);
        t->passed++;
    } else {
        size_t n;
        const char *why = gtr_err_text(&err, &n);
        print_failure(path, why, n);
        if (rep.failures > 1)
            printf(" (and %u more failures)", rep.failures - 1);
        putchar('\n');
        t->failed++;
    }
    gtr_err_clear(&err);
    fflush(stdout);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* is_fixture_name: name ends in .test or .test.gz (a file check reads, not a directory). */
static bool is_fixture_name(const char *name)
{
    return cli_has_suffix(name, ".test") || cli_has_suffix(name, ".test.gz");
}

/* check_dir checks every *.test and *.test.gz in dir, sorted. Returns CLI_OK or CLI_FAIL
 * (listing failed). */
static int check_dir(const char *dir, tally *t)
{
    DIR *d = opendir(dir);
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = CLI_OK;

    if (d == NULL) {
        const char *why = cli_errno_text(errno);
        print_failure(dir, why, strlen(why));
        putchar('\n');
        t->failed++;
        return CLI_OK;
    }
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !is_fixture_name(e->d_name))
            continue;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            char **nn = realloc(names, ncap * sizeof *nn);
            if (nn == NULL) {
                rc = cli_fail("check: out of memory listing %s", dir);
                goto out;
            }
            names = nn;
            cap = ncap;
        }
        if ((names[n] = strdup(e->d_name)) == NULL) {
            rc = cli_fail("check: out of memory listing %s", dir);
            goto out;
        }
        n++;
    }
    if (n == 0) {
        static const char none[] = "no .test files in the directory";
        print_failure(dir, none, sizeof none - 1);
        putchar('\n');
        t->failed++;
        goto out;
    }
    qsort(names, n, sizeof *names, cmp_names);
    size_t dlen = strlen(dir);
    bool slash = dlen > 0 && dir[dlen - 1] == '/';
    for (size_t i = 0; i < n; i++) {
        size_t plen = dlen + 1 + strlen(names[i]) + 1;
        char *path = malloc(plen);
        if (path == NULL) {
            rc = cli_fail("check: out of memory");
            goto out;
        }
        snprintf(path, plen, "%s%s%s", dir, slash ? "" : "/", names[i]);
        check_file(path, t);
        free(path);
    }
out:
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    closedir(d);
    return rc;
}

int cmd_check(int argc, char **argv)
{
    tally t = {0, 0};
    int nops = 0;
    bool operands = false;

    /* Flags first (up to "--"); everything else is an operand, kept in place in argv. */
    for (int i = 1; i < argc; i++) {
        if (!operands && strcmp(argv[i], "--") == 0) {
            operands = true;
            continue;
        }
        if (!operands && cli_is_help(argv[i])) {
            return cli_help(usage);
        }
        if (!operands && argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage(usage, "check: unknown flag %s", argv[i]);
        argv[1 + nops++] = argv[i];
    }
    /* As in every mode, no input means stdin. */
    static const char *const std_in[] = {"-"};
    const char *const *ops = nops > 0 ? (const char *const *)argv + 1 : std_in;
    if (nops == 0)
        nops = 1;

    for (int i = 0; i < nops; i++) {
        struct stat sb;
        if (!is_fixture_name(ops[i]) && stat(ops[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
            if (check_dir(ops[i], &t) != CLI_OK)
                return CLI_FAIL;
        } else {
            check_file(ops[i], &t);
        }
    }
    printf("%u passed, %u failed\n", t.passed, t.failed);
    if (cli_close_stdout() != CLI_OK)
        return CLI_FAIL;
    return t.failed > 0 ? CLI_FAIL : CLI_OK;
}
