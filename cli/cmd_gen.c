/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_gen.c: `gotrace gen`: run the testgen generators, writing <name>.test fixtures (Go's
 * testdata/mktests.go, whose GOTRACETEST regexp filter NAME-REGEXP mirrors). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "cli.h"
#include "tgen/tgen.h"

static const char usage[] =
    "usage: gotrace gen [--out DIR] [--list] [NAME-REGEXP]\n"
    "\n"
    "Runs every testgen generator whose name matches NAME-REGEXP (a PCRE2 pattern, unanchored;\n"
    "default: all) and writes DIR/<name>.test for each. The output is deterministic, so\n"
    "regenerating into a fresh directory and diffing against corpus/tests finds drift.\n"
    "Without --out, DIR is the corpus/tests of the gotrace repository the current directory\n"
    "is in (the nearest directory, up from here, holding corpus/tests and\n"
    "testgen/generators); outside a repository --out is needed.\n"
    "\n"
    "flags (with one dash or two, as Go's flag package reads them):\n"
    "  --out DIR   output directory, created with every missing level (default: the\n"
    "              repository's corpus/tests); also --out=DIR\n"
    "  --list      print the matching generators' names and trace versions, write nothing;\n"
    "              --list=BOOL sets it as Go's strconv.ParseBool reads BOOL\n"
    "  -h, --help  print this help\n";

static int write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return cli_fail("creating %s: %s", path, cli_errno_text(errno));
    bool wrote = fwrite(data, 1, len, f) == len;
    int werr = errno;
    if (cli_close_out(f) != 0 || !wrote)
        return cli_fail_write(path, wrote ? errno : werr);
    return CLI_OK;
}

static bool is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* repo_tests_dir finds the default output directory: DIR/corpus/tests of the nearest
 * directory DIR, from the current one up to /, that holds corpus/tests and
 * testgen/generators. Returns it malloc'd, or NULL (none, or the current directory cannot be
 * named). */
static char *repo_tests_dir(void)
{
    static const char tests[] = "/corpus/tests", gens[] = "/testgen/generators";
    char dir[PATH_MAX], probe[PATH_MAX + sizeof gens];

    if (getcwd(dir, sizeof dir) == NULL)
        return NULL;
    for (;;) {
        size_t n = strlen(dir);
        const char *base = strcmp(dir, "/") == 0 ? "" : dir;
        snprintf(probe, sizeof probe, "%s%s", base, gens);
        if (is_dir(probe)) {
            snprintf(probe, sizeof probe, "%s%s", base, tests);
            if (is_dir(probe))
                return strdup(probe);
        }
        if (n <= 1)
            return NULL;
        char *slash = strrchr(dir, '/');
        if (slash == dir)
            slash[1] = '\0';
        else
            *slash = '\0';
    }
}

/* make_dirs is `mkdir -p path`: every missing level is created. Returns CLI_OK, or fails with
 * "creating LEVEL: <reason>" for the level that could not be made. */
static int make_dirs(const char *path)
{
    char *p = strdup(path);
    int rc = CLI_OK;

    if (p == NULL)
        return cli_fail("out of memory");
    for (char *s = p + 1;; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && (errno != EEXIST || !is_dir(p))) {
            rc = cli_fail("creating %s: %s", p, cli_errno_text(errno == EEXIST ? ENOTDIR : errno));
            break;
        }
        *s = c;
        if (c == '\0')
            break;
    }
    free(p);
    return rc;
}

int cmd_gen(int argc, char **argv)
{
    const char *out_dir = NULL, *pattern = NULL;
    char *repo_dir = NULL;
    pcre2_code *re = NULL;
    pcre2_match_data *md = NULL;
    const tgen_generator *gens;
    size_t ngens, matched = 0;
    bool list = false;
    int rc = CLI_OK;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val;
        if (cli_is_help(a)) {
            return cli_help(usage);
        } else if (cli_flag(a, "out", &val)) {
            if (val == NULL) {
                if (++i == argc)
                    return cli_usage(usage, "gen: flag needs an argument: %s", a);
                val = argv[i];
            }
            if (val[0] == '\0')
                return cli_usage(usage,
                                 "gen: invalid value \"\" for flag %.*s: empty directory name",
                                 (int)strcspn(a, "="), a);
            out_dir = val;
        } else if (cli_flag(a, "list", &val)) {
            if (!cli_bool_value(val, &list))
                return cli_usage(usage,
                                 "gen: invalid boolean value \"%s\" for %.*s: parse error",
                                 val, (int)(val - 1 - a), a);
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage(usage, "gen: unknown flag %s", a);
        } else if (pattern != NULL) {
            return cli_usage(usage, "gen: at most one NAME-REGEXP");
        } else {
            pattern = a;
        }
    }
    if (pattern != NULL) {
        int ecode;
        PCRE2_SIZE eoff;
        re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0, &ecode, &eoff, NULL);
        if (re == NULL) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(ecode, msg, sizeof msg);
            return cli_usage(usage, "gen: bad NAME-REGEXP %s: %s at offset %zu", pattern,
                             (const char *)msg, (size_t)eoff);
        }
        if ((md = pcre2_match_data_create_from_pattern(re, NULL)) == NULL) {
            pcre2_code_free(re);
            return cli_fail("out of memory");
        }
    }
    if (!list && out_dir == NULL) {
        if ((repo_dir = repo_tests_dir()) == NULL) {
            rc = cli_usage(usage, "gen: --out DIR is needed outside the gotrace repository (no "
                                  "directory holding corpus/tests and testgen/generators "
                                  "here or above)");
            goto done;
        }
        out_dir = repo_dir;
    }
    if (!list && (rc = make_dirs(out_dir)) != CLI_OK)
        goto done;

    gens = tgen_generators(&ngens);
    for (size_t i = 0; i < ngens && rc == CLI_OK; i++) {
        const tgen_generator *g = &gens[i];
        gtr_buf out = {0};
        gtr_err err = GTR_ERR_INIT;
        char *path;
        size_t plen;

        if (re != NULL && pcre2_match(re, (PCRE2_SPTR)g->name, strlen(g->name), 0, 0, md,
                                      NULL) < 0)
            continue;
        matched++;
        if (list) {
            printf("%s\tgo1.%d\n", g->name, (int)g->version);
            continue;
        }
        gtr_err_clear(&err);
        if (tgen_run(g, &out, &err) < 0) {
            gtr_buf_free(&out);
            rc = cli_fail_err(&err);
            gtr_err_clear(&err);
            break;
        }
        plen = strlen(out_dir) + strlen(g->name) + sizeof "/.test";
        if ((path = malloc(plen)) == NULL) {
            gtr_buf_free(&out);
            rc = cli_fail("out of memory");
            break;
        }
        snprintf(path, plen, "%s/%s.test", out_dir, g->name);
        rc = write_file(path, out.data, out.len);
        free(path);
        gtr_buf_free(&out);
    }
    if (rc == CLI_OK && matched == 0)
        rc = cli_fail("no generator matches %s", pattern != NULL ? pattern : "");
    if (rc == CLI_OK && list)
        rc = cli_close_stdout();
done:
    free(repo_dir);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    return rc;
}
