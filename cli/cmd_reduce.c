/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_reduce.c: `gotrace reduce INPUT [--expect REGEXP] [--out FILE.test] [--timeout S]`:
 * shrink a trace that fails or crashes to a small one that fails the same way, and write it
 * as a .test regression fixture (txtar: `expect`, then `trace` in the text format).
 *
 * What "the same way" means:
 *   --expect REGEXP   the reader (or, if that is how the input fails, the validator) fails
 *                     with a message matching REGEXP (Go syntax, matched with PCRE2);
 *   otherwise         the input's own failure: the same message with numbers free to change
 *                     (the message's first line, escaped, each number replaced by [0-9]+), or
 *                     the same crash (signal or exit status, sanitizer error kind and first
 *                     stack frame), or a hang.
 * Every candidate runs in a forked child, so crashes are observed, not suffered.
 *
 * The fixture's expectation: FAILURE "<regexp>" for a reader error, so `gotrace check`
 * passes on it. A validator failure gets SUCCESS (the reader accepts the trace; check then
 * reports the validator's error, which is what the fixture records). For a crash or hang the
 * expectation must come from Go: the reducer runs Go's reader (the oracle named by
 * $GTR_ORACLE, default /root/.cache/gotrace-oracle/gtroracle) on the reduced trace; without
 * it, the reduced trace is written as wire bytes instead. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "fs/check.h"
#include "fs/model.h"
#include "fs/reduce.h"
#include "tgen/expect.h"
#include "txtar.h"

static const char usage_text[] =
    "usage: gotrace reduce INPUT [--expect REGEXP] [--out FILE.test] [--timeout SECONDS]\n"
    "\n"
    "Shrinks INPUT (a wire trace, gzip or not, or a .test fixture's trace) that fails or\n"
    "crashes to a minimal trace failing the same way, and writes it as a .test fixture\n"
    "(to stdout without --out). --expect keeps a failure whose message matches REGEXP;\n"
    "without it the input's own failure (same message up to numbers, or same crash) is kept.\n";

#define DEFAULT_ORACLE "/root/.cache/gotrace-oracle/gtroracle"

typedef struct judge {
    gtr_fs_outcome kind;        /* READ_ERROR, VALID_ERROR, CRASH or TIMEOUT */
    tgen_expect *re;            /* message modes */
    char signature[512];        /* crash mode */
    unsigned timeout;
} judge;

static bool interesting(void *ctx, const uint8_t *data, size_t size)
{
    judge *j = ctx;
    gtr_fs_probe p;
    bool matched = false;
    if (gtr_fs_probe_run(data, size, j->timeout, &p, NULL) < 0 || p.outcome != j->kind)
        return false;
    if (j->kind == GTR_FS_CRASH || j->kind == GTR_FS_TIMEOUT)
        return strcmp(p.signature, j->signature) == 0;
    return tgen_expect_match(j->re, p.msg.msg, strlen(p.msg.msg), &matched, NULL) == GTR_OK &&
           matched;
}

static size_t count_events(const uint8_t *data, size_t size, size_t *nbatches)
{
    gtr_fs_trace t = {0};
    size_t n = 0;
    *nbatches = 0;
    if (gtr_fs_decode(&t, data, size, NULL) == GTR_OK) {
        *nbatches = t.nbatches;
        for (size_t b = 0; b < t.nbatches; b++)
            n += t.batches[b].nev;
    }
    gtr_fs_trace_free(&t);
    return n;
}

/* go_oracle runs Go's reader on data; *failed and msg receive its verdict. false when the
 * oracle is not available. */
static bool go_oracle(const uint8_t *data, size_t size, bool *failed, gtr_buf *msg)
{
    const char *oracle = getenv("GTR_ORACLE");
    if (oracle == NULL || *oracle == '\0')
        oracle = DEFAULT_ORACLE;
    if (access(oracle, X_OK) != 0)
        return false;
    char in_path[] = "/tmp/gotrace-reduce-in-XXXXXX", err_path[] = "/tmp/gotrace-reduce-err-XXXXXX";
    int in_fd = mkstemp(in_path), err_fd = mkstemp(err_path);
    bool ok = false;
    if (in_fd < 0 || err_fd < 0)
        goto out;
    if (write(in_fd, data, size) != (ssize_t)size)
        goto out;
    lseek(in_fd, 0, SEEK_SET);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        dup2(in_fd, 0);
        dup2(err_fd, 2);
        if (devnull >= 0)
            dup2(devnull, 1);
        execl(oracle, oracle, "validate", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) > 1)
        goto out;
    *failed = WEXITSTATUS(status) == 1;
    if (*failed) {
        char buf[GTR_ERR_MSG_CAP];
        ssize_t n = pread(err_fd, buf, sizeof buf - 1, 0);
        buf[n > 0 ? n : 0] = '\0';
        /* Go's oracle prints "error: <msg>". */
        const char *m = strncmp(buf, "error: ", 7) == 0 ? buf + 7 : buf;
        gtr_buf_puts(msg, m);
    }
    ok = true;
out:
    if (in_fd >= 0) {
        close(in_fd);
        unlink(in_path);
    }
    if (err_fd >= 0) {
        close(err_fd);
        unlink(err_path);
    }
    return ok;
}

static int write_file(const char *path, const void *data, size_t len)
{
    FILE *f = cli_open_out(path);
    if (f == NULL)
        return cli_fail("open %s: %s", path, strerror(errno));
    fwrite(data, 1, len, f);
    if (cli_close_out(f) < 0)
        return cli_fail("write %s: %s", path ? path : "stdout", strerror(errno));
    return CLI_OK;
}

int cmd_reduce(int argc, char **argv)
{
    const char *input = NULL, *expect = NULL, *out_path = NULL;
    unsigned timeout = 10;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(usage_text, stdout);
            return CLI_OK;
        }
        if ((strcmp(argv[i], "--expect") == 0 || strcmp(argv[i], "-expect") == 0) && i + 1 < argc)
            expect = argv[++i];
        else if ((strcmp(argv[i], "--out") == 0 || strcmp(argv[i], "-o") == 0) && i + 1 < argc)
            out_path = argv[++i];
        else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
            timeout = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage(usage_text, "reduce: unknown flag %s", argv[i]);
        else if (input == NULL)
            input = argv[i];
        else
            return cli_usage(usage_text, "reduce: more than one input");
    }
    if (input == NULL)
        return cli_usage(usage_text, "reduce: no input");
    if (timeout == 0)
        timeout = 10;

    gtr_buf wire = {0}, reduced = {0}, pattern = {0}, text = {0}, exp_text = {0}, comment = {0};
    gtr_err err;
    judge j = {.timeout = timeout};
    int rc = CLI_FAIL;
    gtr_fs_probe p;

    if (gtr_fs_load_trace(input, &wire, &err) < 0) {
        rc = cli_fail_err(&err);
        goto out;
    }
    if (gtr_fs_probe_run((const uint8_t *)wire.data, wire.len, timeout, &p, &err) < 0) {
        rc = cli_fail_err(&err);
        goto out;
    }
    j.kind = p.outcome;
    if (expect != NULL) {
        gtr_buf_puts(&pattern, expect);
    } else if (p.outcome == GTR_FS_READ_ERROR || p.outcome == GTR_FS_VALID_ERROR) {
        gtr_fs_message_regexp(p.msg.msg, &pattern);
    } else if (p.outcome == GTR_FS_CRASH || p.outcome == GTR_FS_TIMEOUT) {
        snprintf(j.signature, sizeof j.signature, "%s", p.signature);
    } else {
        rc = cli_fail("reduce: %s reads and validates: there is no failure to keep", input);
        goto out;
    }
    if (pattern.len > 0) {
        if (p.outcome != GTR_FS_READ_ERROR && p.outcome != GTR_FS_VALID_ERROR) {
            rc = cli_fail("reduce: %s does not fail with an error message (%s)", input,
                          p.outcome == GTR_FS_PASS ? "it validates" : p.signature);
            goto out;
        }
        if (tgen_expect_new_failure(pattern.data, pattern.len, &j.re, &err) < 0) {
            rc = cli_fail_err(&err);
            goto out;
        }
    }
    if (!interesting(&j, (const uint8_t *)wire.data, wire.len)) {
        rc = cli_fail("reduce: %s: the failure does not match or does not reproduce: %s", input,
                      p.outcome == GTR_FS_CRASH || p.outcome == GTR_FS_TIMEOUT ? p.signature
                                                                               : p.msg.msg);
        goto out;
    }

    gtr_fs_reduce_stats stats;
    if (gtr_fs_reduce((const uint8_t *)wire.data, wire.len, interesting, &j, &reduced, &stats,
                      &err) < 0) {
        rc = cli_fail_err(&err);
        goto out;
    }
    size_t nb0, nb1;
    size_t ne0 = count_events((const uint8_t *)wire.data, wire.len, &nb0);
    size_t ne1 = count_events((const uint8_t *)reduced.data, reduced.len, &nb1);
    fprintf(stderr,
            "gotrace: reduce: %zu bytes, %zu batches, %zu events -> %zu bytes, %zu batches, "
            "%zu events (%zu candidates, %zu rounds)\n",
            wire.len, nb0, ne0, reduced.len, nb1, ne1, stats.tests, stats.rounds);

    /* The expectation. */
    const char *what;
    if (j.kind == GTR_FS_READ_ERROR) {
        tgen_expect_format_failure(&exp_text, pattern.data, pattern.len);
        what = "reader error";
    } else if (j.kind == GTR_FS_VALID_ERROR) {
        gtr_buf_puts(&exp_text, "SUCCESS\n");
        what = "validator error (the reader accepts the trace)";
    } else {
        bool failed = false;
        gtr_buf msg = {0};
        if (!go_oracle((const uint8_t *)reduced.data, reduced.len, &failed, &msg)) {
            fprintf(stderr, "gotrace: reduce: no Go oracle to tell the expectation of a %s; "
                            "writing the reduced trace as wire bytes\n",
                    j.kind == GTR_FS_CRASH ? "crash" : "hang");
            gtr_buf_free(&msg);
            rc = write_file(out_path, reduced.data, reduced.len);
            goto out;
        }
        if (failed) {
            gtr_buf re = {0};
            gtr_fs_message_regexp(msg.data ? msg.data : "", &re);
            tgen_expect_format_failure(&exp_text, re.data ? re.data : "", re.len);
            gtr_buf_free(&re);
        } else {
            gtr_buf_puts(&exp_text, "SUCCESS\n");
        }
        gtr_buf_free(&msg);
        what = j.kind == GTR_FS_CRASH ? "crash; expectation from Go's reader"
                                      : "hang; expectation from Go's reader";
    }
    gtr_buf_printf(&comment, "Reduced by gotrace reduce (%s: %s).\n", what,
                   j.kind == GTR_FS_CRASH || j.kind == GTR_FS_TIMEOUT ? j.signature : p.msg.msg);
    /* Only the first line of a long message goes in the comment. */
    char *nl = strchr(comment.data, '\n');
    if (nl != NULL && (size_t)(nl - comment.data) + 1 < comment.len) {
        comment.len = (size_t)(nl - comment.data);
        gtr_buf_puts(&comment, "...).\n");
    }
    if (gtr_fs_wire_to_text((const uint8_t *)reduced.data, reduced.len, &text, &err) < 0) {
        rc = cli_fail_err(&err);
        goto out;
    }
    txtar_file files[2] = {{"expect", 6, exp_text.data, exp_text.len},
                           {"trace", 5, text.data, text.len}};
    txtar_archive a = {comment.data, comment.len, files, 2};
    size_t alen;
    char *archive = txtar_format(&a, &alen);
    if (archive == NULL) {
        rc = cli_fail("out of memory");
        goto out;
    }
    rc = write_file(out_path, archive, alen);
    free(archive);
out:
    tgen_expect_free(j.re);
    gtr_buf_free(&wire);
    gtr_buf_free(&reduced);
    gtr_buf_free(&pattern);
    gtr_buf_free(&text);
    gtr_buf_free(&exp_text);
    gtr_buf_free(&comment);
    return rc;
}
