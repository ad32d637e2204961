/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_reduce.c: `gotrace reduce`: shrink a trace that fails or crashes to a minimal one that
 * fails the same way, written as a .test fixture Go's golden runner accepts (reduce.h does
 * the work; this file reads the flags and writes the files). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "godiff.h"
#include "progress.h"
#include "reduce.h"
#include "tgen/expect.h"
#include "tgen/fixture.h"

static const char usage_text[] =
    "usage: gotrace reduce [flags] [INPUT|-]\n"
    "\n"
    "Shrinks INPUT (a wire trace, gzip-compressed or not, or a .test fixture's\n"
    "trace; '-' or none is stdin) that fails or crashes to a minimal trace failing\n"
    "the same way, and writes it as a .test fixture that `gotrace check` and Go's\n"
    "TestReaderGolden accept.\n"
    "\n"
    "The failure kept is judged as Go's golden runner judges a trace: a header or reader\n"
    "error (with no validator error before it) becomes FAILURE \"<regexp>\"; an error in a\n"
    "go1.25+ first generation is moved behind a synthesised valid first generation; a crash\n"
    "or hang gets what Go's reader says of the reduced trace (needs the oracle). A failure no\n"
    "fixture can hold (a validator error, bytes the text format cannot name, a crash without\n"
    "the oracle, any old-format go 1.11-1.21 trace) is written as wire bytes instead, with\n"
    "a note on stderr why; the exit status is then 0 too.\n"
    "\n"
    "Where it writes (--out OUT):\n"
    "  OUT.test   the fixture to OUT.test, or the wire bytes to OUT.trace beside it\n"
    "  -          stdout, for either (wire bytes never to a terminal)\n"
    "  no --out   the fixture to stdout; wire bytes are never written there\n"
    "             unasked: that is a failure asking for --out\n"
    "  any other  that file itself, whichever is written (a device such as\n"
    "             /dev/stdout too; nothing is created beside it), the note on\n"
    "             stderr saying when it is wire bytes\n"
    "A directory (or a name ending in /) is a usage error: name the file.\n"
    "\n"
    "flags:\n"
    "  --expect REGEXP   keep a failure whose message matches REGEXP (Go regexp syntax);\n"
    "                    default: the input's own failure, the message with numbers free\n"
    "  --out OUT         where to write (above; default: stdout); -o OUT is the same\n"
    "  --timeout SECONDS time allowed to each candidate before it counts as a hang\n"
    "                    (a whole number from 1 to 86400; default 10); each candidate\n"
    "                    that hangs costs that long, so reduce a hang with a small one\n"
    "  --budget SECONDS  stop reducing after SECONDS and write the smallest trace found by\n"
    "                    then (it fails the same way; the summary says the budget ended it);\n"
    "                    a whole number, 0 (the default) for no limit\n"
    "  --oracle PATH     Go's oracle (gtroracle from ci/oracle-fetch.sh), used for the\n"
    "                    expectation of a crash or hang and to check the fixture with Go's\n"
    "                    golden runner; default $GTR_ORACLE, else\n"
    "                    ~/.cache/gotrace-oracle/gtroracle when it exists\n"
    "  --no-oracle       do not use Go's oracle\n"
    "  --diff            keep a divergence from Go, not a failure: each candidate must\n"
    "                    read differently in gotrace and in Go's reader (not only as Go's\n"
    "                    own runs differ), with the input's endings and first differing\n"
    "                    event kind, or messages (numbers free). The fixture expects Go's\n"
    "                    verdict: a divergence fixture. Not with --expect\n"
    "  --go-reader in-process|oracle\n"
    "                    Go's reader for --diff: loaded from --go-library (the default\n"
    "                    when there is one; not in a static gotrace), or the oracle\n"
    "                    program per candidate\n"
    "  --go-library PATH Go's reader, a shared library (ci/go-diff-archive.sh --shared,\n"
    "                    or ci/go-releases-bench.sh --shared); default $GTR_GO_LIBRARY,\n"
    "                    else ~/.cache/gotrace-oracle/gtrdiff/libgtrdiff.so\n"
    "  --no-synthesis    reduce a stuck trace (\"failed to advance\") from its own events\n"
    "                    only; by default a trace built for the same reason from its\n"
    "                    diagnosis (see validate --explain) is the start when it shows the\n"
    "                    failure and the same reason\n"
    "  --progress        show where the reduction stands on stderr (the trace's bytes and\n"
    "                    events, the candidates judged, the time), even when stderr is not a\n"
    "                    terminal; by default it is shown only on a terminal\n"
    "  --quiet           never show progress\n"
    "  -h, --help        this help\n"
    "\n"
    "Exit status: 0 written, 1 failure (nothing to reduce, no reproduction, I/O), 2 usage.\n";

/* flag_value: argv[*i] is the flag name (cli_flag's spellings); its value is after '=' or
 * the next argument, which it consumes. NULL when argv[*i] is another flag; *missing is set
 * when the flag has no value. */
static const char *flag_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
    const char *v;
    if (!cli_flag(argv[*i], name, &v))
        return NULL;
    if (v != NULL)
        return v;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

static int write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = cli_open_out(path);
    if (f == NULL)
        return cli_fail_write(path, errno);
    size_t put = fwrite(data, 1, len, f);
    int e = errno;
    if (cli_close_out(f) < 0 || put != len)
        return cli_fail_write(path, put != len ? e : errno);
    return CLI_OK;
}

/* Where reduce writes (--out, -o), the rule the help text states:
 *   no --out   the fixture to stdout; wire bytes never go there unasked: a failure that says
 *              to give --out;
 *   -          stdout, for either (wire bytes not when stdout is a terminal);
 *   F.test     the fixture to F.test, or the wire bytes to F.trace beside it;
 *   any other  the file itself, whichever is written (a device or FIFO included: nothing is
 *              ever created beside it), the note on stderr saying when it is wire bytes;
 *   a directory, or a name ending in '/': a usage error, found before any work. */

/* out_is_directory: path names a directory (or ends in '/', as a directory would). */
static bool out_is_directory(const char *path)
{
    struct stat sb;
    size_t n = strlen(path);
    return (n > 0 && path[n - 1] == '/') || (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode));
}

/* wire_path is where the wire bytes go for --out out (not "-"): F.test -> F.trace, unless
 * F.test is there and is not a regular file; any other name is out itself. The result is
 * malloc'd (NULL: out of memory). */
static char *wire_path(const char *out)
{
    struct stat sb;
    size_t n = strlen(out);
    if (!cli_has_suffix(out, ".test") || (stat(out, &sb) == 0 && !S_ISREG(sb.st_mode)))
        return strdup(out);
    n -= 5;
    char *p = malloc(n + 7);
    if (p != NULL) {
        memcpy(p, out, n);
        memcpy(p + n, ".trace", 7);
    }
    return p;
}

/* check_expect compiles --expect's pattern before any input is read, so that a pattern Go's
 * regexp/syntax rejects is a usage error (Go's flag package words it "invalid value %q for
 * flag -NAME: <Set's error>"), not a failure found after judging the input. */
static int check_expect(const char *pattern)
{
    tgen_expect *re = NULL;
    gtr_err err = GTR_ERR_INIT;
    int rc = CLI_OK;

    if (tgen_expect_new_failure(pattern, strlen(pattern), &re, &err) < 0) {
        size_t n;
        const char *why = gtr_err_text(&err, &n);
        if (err.code == GTR_E_NOMEM)
            rc = cli_fail_err(&err);
        else
            rc = cli_usage(usage_text, "reduce: invalid value \"%s\" for flag --expect: %.*s",
                           pattern, (int)n, why);
    }
    tgen_expect_free(re);
    gtr_err_clear(&err);
    return rc;
}

/* default_from_cache: $env when it is set, else the file rel of the oracle's cache
 * (~/.cache/gotrace-oracle/rel) when it is there with the access mode, else NULL. */
static const char *default_from_cache(const char *env, const char *rel, int mode, char *buf,
                                      size_t cap)
{
    const char *v = getenv(env);
    if (v != NULL && *v != '\0')
        return v;
    const char *home = getenv("HOME");
    if (home == NULL || *home == '\0')
        return NULL;
    snprintf(buf, cap, "%s/.cache/gotrace-oracle/%s", home, rel);
    return access(buf, mode) == 0 ? buf : NULL;
}

/* show_progress draws where the reduction stands: the current trace, the candidates, the
 * time. */
static void show_progress(void *ctx, const reduce_progress *p)
{
    char line[192];
    snprintf(line, sizeof line, "%zu bytes, %zu events, %zu candidates, %.0f s", p->bytes,
             p->events, p->tests, p->elapsed);
    cli_progress_text(ctx, line);
}

/* free_go_library frees the handle of Go's library (the library stays loaded). A static
 * gotrace never loads one and must not link the loader: dlopen in a static program only warns
 * at link time and fails at run time. */
static void free_go_library(godiff_go_library *lib)
{
#ifdef GTR_CLI_STATIC
    (void)lib;
#else
    godiff_go_library_free(lib);
#endif
}

/* diff_go_reader chooses Go's reader for --diff (--go-reader, or the default: in process when
 * Go's shared library is there, else the oracle program) into *d; a usage error when there is
 * none, or --expect is given too, CLI_FAIL when the library does not load. *lib gets the
 * loaded library, for the caller to free. */
static int diff_go_reader(const char *want, const char *library, bool library_given,
                          const char *expect, const char *oracle, reduce_oracle_go *og,
                          reduce_diff_options *d, godiff_go_library **lib)
{
    if (expect != NULL)
        return cli_usage(usage_text, "reduce: --diff and --expect cannot go together: --diff "
                                     "keeps the input's divergence from Go, --expect a "
                                     "failure's message");
    bool in_process = want != NULL ? strcmp(want, "in-process") == 0 : library != NULL;
#ifdef GTR_CLI_STATIC
    /* A static program cannot dlopen a library that needs the C library's shared object:
     * the process would hold two C libraries. */
    if (in_process && (want != NULL || library_given))
        return cli_usage(usage_text,
                         "reduce: --go-reader in-process: this gotrace is linked statically and "
                         "cannot load Go's reader (configure with -DGTR_STATIC_CLI=OFF), or use "
                         "--go-reader oracle");
    in_process = false;
#else
    (void)library_given;
    if (in_process) {
        if (library == NULL)
            return cli_usage(usage_text,
                             "reduce: --go-reader in-process: no Go reader library (build it "
                             "with ci/go-diff-archive.sh --shared, or give --go-library PATH)");
        gtr_err err = GTR_ERR_INIT;
        if (godiff_go_library_open(library, lib, &err) < 0) {
            gtr_err_wrapf(&err, "reduce");
            int rc = cli_fail_err(&err);
            gtr_err_clear(&err);
            return rc;
        }
        d->go = godiff_go_library_read;
        d->go_ctx = *lib;
        d->go_minor = godiff_go_library_minor(*lib);
        return CLI_OK;
    }
#endif
    if (oracle == NULL || access(oracle, X_OK) != 0)
        return cli_usage(usage_text,
                         "reduce: --diff needs Go's reader: %s%s%s",
                         oracle != NULL ? "the oracle " : "",
                         oracle != NULL ? oracle : "",
                         oracle != NULL ? " is not an executable file; give Go's oracle "
                                          "(--oracle PATH, $GTR_ORACLE or ci/oracle-fetch.sh)"
                                        : "give Go's oracle (--oracle PATH, $GTR_ORACLE or "
                                          "ci/oracle-fetch.sh), or Go's reader as a library "
                                          "(ci/go-diff-archive.sh --shared, --go-library PATH)");
    d->go = reduce_oracle_go_read;
    d->go_ctx = og;
    d->go_runs = 64;   /* a process per run: judge.sh's GO_RUNS_ORDER */
    d->header_as_read = true;
    return CLI_OK;
}

int cmd_reduce(int argc, char **argv)
{
    const char *input = NULL, *expect = NULL, *out_path = NULL, *oracle = NULL;
    unsigned timeout = 10, budget = 0;
    bool no_oracle = false, no_synthesis = false, diff = false;
    const char *go_reader = NULL, *go_library = NULL;
    int rc;
    char oracle_buf[4096], library_buf[4096];
    cli_progress_mode pmode = CLI_PROGRESS_AUTO;
    const char *bad = NULL;

    for (int i = 1; i < argc; i++) {
        const char *v;
        bool missing = false;
        if (cli_is_help(argv[i])) {
            return cli_help(usage_text);
        }
        const char *nv;
        if (cli_flag(argv[i], "no-oracle", &nv) && nv == NULL) {
            no_oracle = true;
        } else if (cli_flag(argv[i], "no-synthesis", &nv) && nv == NULL) {
            no_synthesis = true;
        } else if (cli_flag(argv[i], "diff", &nv) && nv == NULL) {
            diff = true;
        } else if (!missing && (v = flag_value(argc, argv, &i, "go-reader", &missing)) != NULL) {
            if (strcmp(v, "in-process") != 0 && strcmp(v, "oracle") != 0)
                return cli_usage(usage_text,
                                 "reduce: --go-reader %s: want in-process or oracle", v);
            go_reader = v;
        } else if (!missing && (v = flag_value(argc, argv, &i, "go-library", &missing)) != NULL) {
            go_library = v;
        } else if (cli_progress_flag(argv[i], &pmode, &bad)) {
            if (bad != NULL)
                return cli_usage(usage_text,
                                 "reduce: invalid boolean value \"%s\" for %.*s: parse error",
                                 bad, (int)(bad - 1 - argv[i]), argv[i]);
        } else if ((v = flag_value(argc, argv, &i, "expect", &missing)) != NULL) {
            expect = v;
        } else if ((v = flag_value(argc, argv, &i, "out", &missing)) != NULL ||
                   (!missing && (v = flag_value(argc, argv, &i, "o", &missing)) != NULL)) {
            out_path = v;
        } else if (!missing && (v = flag_value(argc, argv, &i, "timeout", &missing)) != NULL) {
            char *end;
            errno = 0;
            unsigned long t = strtoul(v, &end, 10);
            if (*v < '0' || *v > '9' || *end != '\0' || errno != 0 || t < 1 || t > 86400)
                return cli_usage(usage_text,
                                 "reduce: --timeout %s: want a whole number of seconds from 1 "
                                 "to 86400",
                                 v);
            timeout = (unsigned)t;
        } else if (!missing && (v = flag_value(argc, argv, &i, "budget", &missing)) != NULL) {
            char *end;
            errno = 0;
            unsigned long b = strtoul(v, &end, 10);
            if (*v < '0' || *v > '9' || *end != '\0' || errno != 0 || b > 86400 * 365)
                return cli_usage(usage_text,
                                 "reduce: --budget %s: want a whole number of seconds (0: no "
                                 "limit)",
                                 v);
            budget = (unsigned)b;
        } else if (!missing && (v = flag_value(argc, argv, &i, "oracle", &missing)) != NULL) {
            oracle = v;
        } else if (missing) {
            return cli_usage(usage_text, "reduce: flag needs an argument: %s", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage(usage_text, "reduce: unknown flag %s", argv[i]);
        } else if (input == NULL) {
            input = argv[i];
        } else {
            return cli_usage(usage_text, "reduce: more than one input");
        }
    }
    if (input == NULL)
        input = "-";   /* as in every mode, no input means stdin */
    if (expect != NULL && (rc = check_expect(expect)) != CLI_OK)
        return rc;
    if (out_path != NULL && strcmp(out_path, "-") != 0 && out_is_directory(out_path))
        return cli_usage(usage_text, "reduce: --out %s: is a directory; name the file to write "
                         "(FILE.test)", out_path);
    if (no_oracle)
        oracle = NULL;
    else if (oracle == NULL)
        oracle = default_from_cache("GTR_ORACLE", "gtroracle", X_OK, oracle_buf,
                                    sizeof oracle_buf);
    reduce_oracle_go oracle_go = {oracle, timeout};
    reduce_diff_options dopt = {0};
    godiff_go_library *go_lib = NULL;
    if (!diff && (go_reader != NULL || go_library != NULL))
        return cli_usage(usage_text, "reduce: --%s is for --diff",
                         go_reader != NULL ? "go-reader" : "go-library");
    if (diff && go_library != NULL && go_reader != NULL && strcmp(go_reader, "oracle") == 0)
        return cli_usage(usage_text, "reduce: --go-library is for --go-reader in-process");
    const char *library = go_library;
    if (library == NULL)
        library = default_from_cache("GTR_GO_LIBRARY", "gtrdiff/libgtrdiff.so", R_OK,
                                     library_buf, sizeof library_buf);
    if (diff && (rc = diff_go_reader(go_reader, library, go_library != NULL, expect, oracle,
                                     &oracle_go, &dopt, &go_lib)) != CLI_OK)
        return rc;

    gtr_buf wire = {0};
    gtr_err err = GTR_ERR_INIT;
    reduce_result res;
    struct timespec t0, t1;

    if (tgen_load_trace(input, &wire, NULL, &err) < 0) {
        gtr_buf_free(&wire);
        free_go_library(go_lib);
        gtr_err_wrapf(&err, "reduce");
        rc = cli_fail_err(&err);
        gtr_err_clear(&err);
        return rc;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cli_progress prog;
    cli_progress_start(&prog, pmode, "reduce", NULL, 0, out_path == NULL);
    reduce_options opt = {.expect = expect,
                          .expect_len = expect != NULL ? strlen(expect) : 0,
                          .timeout_s = timeout,
                          .budget_s = budget,
                          .oracle = oracle,
                          .no_synthesis = no_synthesis,
                          .progress = prog.on ? show_progress : NULL,
                          .progress_ctx = &prog};
    gtr_status rst =
        diff ? reduce_diff_trace((const uint8_t *)wire.data, wire.len, &opt, &dopt, &res, &err)
             : reduce_trace((const uint8_t *)wire.data, wire.len, &opt, &res, &err);
    cli_progress_end(&prog, rst >= 0);
    if (rst < 0) {
        gtr_buf_free(&wire);
        free_go_library(go_lib);
        gtr_err_wrapf(&err, "reduce: %s", input);
        rc = cli_fail_err(&err);
        gtr_err_clear(&err);
        return rc;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

    const char *written;
    char *wpath = NULL;
    size_t written_len;
    if (res.fixture.len > 0) {
        rc = write_bytes(out_path, res.fixture.data, res.fixture.len);
        written = out_path != NULL && strcmp(out_path, "-") != 0 ? out_path : "stdout";
        written_len = res.fixture.len;
    } else {
        bool to_stdout = out_path != NULL && strcmp(out_path, "-") == 0;
        if (out_path == NULL || (to_stdout && isatty(1))) {
            rc = cli_fail("reduce: no fixture can hold this failure (%s); wire bytes are "
                          "not written to %s: give --out FILE.test to write them to "
                          "FILE.trace%s",
                          res.why_wire.data, to_stdout ? "a terminal" : "stdout unasked",
                          to_stdout ? "" : " (or -o - for stdout)");
            goto out;
        }
        wpath = to_stdout ? NULL : wire_path(out_path);
        if (!to_stdout && wpath == NULL) {
            rc = cli_fail("reduce: out of memory");
            goto out;
        }
        fprintf(stderr,
                "gotrace: reduce: no fixture: %s; writing the reduced trace as wire bytes "
                "to %s instead (a regression input for fuzz/regressions/)\n",
                res.why_wire.data, wpath != NULL ? wpath : "stdout");
        rc = write_bytes(wpath, res.wire.data, res.wire.len);
        written = wpath != NULL ? wpath : "stdout";
        written_len = res.wire.len;
    }
    if (rc != CLI_OK)
        goto out;
    if (diff)
        fprintf(stderr, "gotrace: reduce: kept the input's divergence from Go (%s)\n",
                res.kept.data != NULL ? res.kept.data : "");
    else
        fprintf(stderr, "gotrace: reduce: kept the input's %s: %.*s\n",
                reduce_kind_text(res.kind),
                (int)strcspn(res.kept.data != NULL ? res.kept.data : "", "\n"),
                res.kept.data != NULL ? res.kept.data : "");
    if (res.synthesized)
        fprintf(stderr, "gotrace: reduce: the trace was built from the input's diagnosis, stuck "
                        "for the same reason (--no-synthesis: from its own events)\n");
    fprintf(stderr,
            "gotrace: reduce: %s: %zu bytes, %zu batches, %zu events -> %s: %zu bytes%s "
            "(trace of %zu wire bytes, %zu batches, %zu events); %zu candidates, %zu rounds, "
            "%.1f s%s\n",
            input, res.in_bytes, res.in_batches, res.in_events, written, written_len,
            diff && res.fixture.len > 0 ? ", a divergence fixture (Go's verdict)" : "",
            res.wire.len, res.out_batches, res.out_events, res.stats.tests, res.stats.rounds,
            secs, res.stats.budget_hit ? " (the --budget ended it)" : "");
    if (diff && res.fixture.len > 0 && dopt.go_minor > 0 && dopt.go_minor != GODIFF_GO_MINOR)
        fprintf(stderr,
                "gotrace: reduce: %s is a divergence fixture of Go 1.%d: its expectation is "
                "that release's verdict, which Go 1.27.3's golden runner need not accept (it "
                "was not asked)\n",
                written, dopt.go_minor);
    else if (diff && res.fixture.len > 0)
        fprintf(stderr,
                "gotrace: reduce: %s is a divergence fixture: its expectation is Go's verdict, "
                "which Go's golden runner accepts; gotrace reads the trace differently "
                "(ci/difftest.sh shows how) until the divergence is fixed\n",
                written);
    if (res.go_check.len > 0 && res.go_rejects)
        fprintf(stderr, "gotrace: reduce: warning: Go's golden runner rejects the fixture (%s)%s\n",
                res.go_check.data,
                res.kind == REDUCE_KEEP_READ_ERROR || res.kind == REDUCE_KEEP_LATER_GEN_ERROR
                    ? ": gotrace check accepts it, so gotrace and Go disagree on this trace, a "
                      "divergence to report"
                    : "");
out:
    free(wpath);
    free_go_library(go_lib);
    reduce_result_free(&res);
    gtr_buf_free(&wire);
    return rc;
}
