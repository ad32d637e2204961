/* SPDX-License-Identifier: BSD-3-Clause */
/* oracle.c: ask Go's own reader (the oracle program built by ci/oracle-fetch.sh from Go
 * 1.27.3's src/internal/trace) about a trace or a fixture. Internal to reduce/. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fdio.h"
#include "oracle.h"
#include "reduce.h"

static bool read_fd(int fd, gtr_buf *out)
{
    char buf[8192];
    ssize_t k;
    lseek(fd, 0, SEEK_SET);
    while ((k = read(fd, buf, sizeof buf)) != 0) {
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return false;
        gtr_buf_append(out, buf, (size_t)k);
    }
    return gtr_buf_status(out) == GTR_OK;
}

/* temp_fd makes an unlinked temporary file. */
static int temp_fd(void)
{
    char path[] = "/tmp/gotrace-oracle-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    return fd;
}

/* run_oracle runs `oracle mode [arg]` with input[0..len) on stdin (arg NULL) or in a file
 * named by arg's "%s" (arg non-NULL: the file is made and its path substituted), a timeout
 * of timeout_s seconds; *status gets the exit status; out and errout receive stdout and
 * stderr. Returns false when the oracle could not be run to an exit. */
static bool run_oracle(const char *oracle, const char *mode, bool as_file, const void *input,
                       size_t len, unsigned timeout_s, int *status, gtr_buf *out, gtr_buf *errout)
{
    char path[] = "/tmp/gotrace-oracle-in-XXXXXX";
    int in_fd = as_file ? mkstemp(path) : temp_fd();
    int out_fd = temp_fd(), err_fd = temp_fd();
    bool ok = false;
    if (in_fd < 0 || out_fd < 0 || err_fd < 0 || !reduce_write_all(in_fd, input, len))
        goto done;
    lseek(in_fd, 0, SEEK_SET);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        goto done;
    if (pid == 0) {
        if (!as_file)
            dup2(in_fd, 0);
        else
            close(0);
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        alarm(timeout_s); /* kept across exec */
        if (as_file)
            execl(oracle, oracle, mode, path, (char *)NULL);
        else
            execl(oracle, oracle, mode, (char *)NULL);
        _exit(127);
    }
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0) {
        if (errno != EINTR)
            goto done;
    }
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) == 127)
        goto done;
    *status = WEXITSTATUS(ws);
    ok = (out == NULL || read_fd(out_fd, out)) && (errout == NULL || read_fd(err_fd, errout));
done:
    if (in_fd >= 0) {
        close(in_fd);
        if (as_file)
            unlink(path);
    }
    if (out_fd >= 0)
        close(out_fd);
    if (err_fd >= 0)
        close(err_fd);
    return ok;
}

bool reduce_oracle_usable(const char *oracle)
{
    return oracle != NULL && *oracle != '\0' && access(oracle, X_OK) == 0;
}

bool reduce_oracle_validate(const char *oracle, const uint8_t *wire, size_t len,
                            unsigned timeout_s, reduce_go_verdict *verdict, gtr_buf *msg)
{
    gtr_buf errout = {0};
    int status = -1;
    bool ok = run_oracle(oracle, "validate", false, wire, len, timeout_s, &status, NULL, &errout);
    if (ok) {
        switch (status) {
        case 0:
            *verdict = REDUCE_GO_PASS;
            break;
        case 1:
            *verdict = REDUCE_GO_READ_ERROR;
            break;
        case 3:
            *verdict = REDUCE_GO_VALIDATOR_ERROR;
            break;
        default:
            ok = false;
        }
    }
    if (ok && status != 0) {
        /* "error: <msg>\n" */
        const char *m = errout.data != NULL ? errout.data : "";
        size_t n = errout.len;
        if (n >= 7 && memcmp(m, "error: ", 7) == 0) {
            m += 7;
            n -= 7;
        }
        if (n > 0 && m[n - 1] == '\n')
            n--;
        gtr_buf_append(msg, m, n);
    }
    gtr_buf_free(&errout);
    return ok;
}

bool reduce_oracle_check(const char *oracle, const char *fixture, size_t len, unsigned timeout_s,
                         bool *passed, gtr_buf *line)
{
    gtr_buf out = {0};
    int status = -1;
    bool ok = run_oracle(oracle, "check", true, fixture, len, timeout_s, &status, &out, NULL) &&
              (status == 0 || status == 1);
    if (ok) {
        *passed = status == 0;
        /* The first line: "ok   PATH" or "FAIL PATH: why"; keep the verdict and the why. */
        const char *s = out.data != NULL ? out.data : "";
        size_t n = strcspn(s, "\n");
        const char *colon = memchr(s, ':', n);
        if (*passed)
            gtr_buf_puts(line, "ok");
        else if (colon != NULL)
            gtr_buf_append(line, colon + 2 <= s + n ? colon + 2 : colon + 1,
                           (size_t)(s + n - (colon + 2 <= s + n ? colon + 2 : colon + 1)));
        else
            gtr_buf_append(line, s, n);
    }
    gtr_buf_free(&out);
    return ok;
}

bool reduce_oracle_go_read(void *ctx, const uint8_t *data, size_t size, godiff_owned *out)
{
    const reduce_oracle_go *o = ctx;
    gtr_buf dump = {0}, errout = {0};
    int status = -1;
    memset(out, 0, sizeof *out);
    if (!run_oracle(o->oracle, "validate", false, data, size, o->timeout_s, &status, &dump,
                    &errout)) {
        gtr_buf_free(&dump);
        gtr_buf_free(&errout);
        return false;
    }
    /* 0: EOF; 1: a header or reader error; 3: a validator error, each "error: MSG\n" on
     * stderr; 2: Go's panic (the runtime's exit status), its text on stderr. */
    const char *m = errout.data != NULL ? errout.data : "";
    size_t n = errout.len;
    godiff_end end;
    switch (status) {
    case 0:
        end = GODIFF_END_EOF;
        n = 0;
        break;
    case 1:
        end = GODIFF_END_READ;
        break;
    case 3:
        end = GODIFF_END_VALIDATOR;
        break;
    case 2:
        end = GODIFF_END_PANIC;
        break;
    default:
        gtr_buf_free(&dump);
        gtr_buf_free(&errout);
        return false;
    }
    if (end != GODIFF_END_PANIC && n >= 7 && memcmp(m, "error: ", 7) == 0) {
        m += 7;
        n -= 7;
    }
    if (n > 0 && m[n - 1] == '\n')
        n--;
    out->dump = malloc(dump.len > 0 ? dump.len : 1);
    out->msg = malloc(n > 0 ? n : 1);
    bool ok = out->dump != NULL && out->msg != NULL;
    if (ok) {
        if (dump.len > 0)
            memcpy(out->dump, dump.data, dump.len);
        if (n > 0)
            memcpy(out->msg, m, n);
        out->r = (godiff_reading){end, out->dump, dump.len, out->msg, n};
    } else {
        godiff_owned_free(out);
    }
    gtr_buf_free(&dump);
    gtr_buf_free(&errout);
    return ok;
}
