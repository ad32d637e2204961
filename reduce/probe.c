/* SPDX-License-Identifier: BSD-3-Clause */
/* probe.c: judge one trace in a forked child (reduce.h), so that a crash, an abort or a hang
 * of the library is observed rather than suffered. The child runs tgen_judge (on the trace,
 * or on what its text form gives back) and sends the verdict back through a pipe; its stderr goes to a temporary file, read for the sanitizer's
 * report when it dies. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fdio.h"
#include "gtr/raw.h"
#include "reduce.h"

/* crash_signature extracts the sanitizer's error kind and first frame from a report. */
static void crash_signature(const char *report, char *sig, size_t cap, size_t used)
{
    const char *kind = strstr(report, "ERROR: ");
    const char *frame = strstr(report, "#0 0x");
    const char *ub = strstr(report, ": runtime error: ");
    const char *as = strstr(report, "Assertion `");
    if (kind != NULL) {
        kind += 7;
        size_t n = strcspn(kind, " \n");
        /* "AddressSanitizer: heap-buffer-overflow": two words. */
        if (kind[n] == ' ')
            n += 1 + strcspn(kind + n + 1, " \n");
        used += (size_t)snprintf(sig + used, cap - used, " %.*s", (int)n, kind);
    }
    if (ub != NULL && used < cap) {
        const char *ls = ub;
        while (ls > report && ls[-1] != '\n')
            ls--;
        used += (size_t)snprintf(sig + used, cap - used, " UBSan at %.*s", (int)(ub - ls), ls);
    }
    if (as != NULL && used < cap)
        used += (size_t)snprintf(sig + used, cap - used, " %.*s", (int)strcspn(as, "\n"), as);
    if (frame != NULL && used < cap) {
        const char *in = strstr(frame, " in ");
        if (in != NULL && in < frame + strcspn(frame, "\n")) {
            in += 4;
            snprintf(sig + used, cap - used, " in %.*s", (int)strcspn(in, " \n"), in);
        }
    }
}

/* via_text: the verdict the child sends back; its unnameable byte says the conversion to
 * and from the text format failed. The two messages follow it on the pipe (their lengths are
 * in the struct; its heap pointers mean nothing in the parent). */
typedef struct child_report {
    tgen_verdict verdict;
    bool unnameable;
} child_report;

/* judge_via_text converts data to the text format and back, as a fixture holds it, then
 * judges that. */
static void judge_via_text(const uint8_t *data, size_t size, child_report *rep)
{
    gtr_buf text = {0}, wire = {0};
    if (gtr_raw_wire_to_text(data, size, &text, NULL) < 0 ||
        gtr_raw_text_to_wire(text.data != NULL ? text.data : "", text.len, &wire, NULL) < 0) {
        rep->unnameable = true;
    } else {
        uint8_t *exact = malloc(wire.len > 0 ? wire.len : 1);
        if (exact == NULL)
            _exit(3);
        if (wire.len > 0)
            memcpy(exact, wire.data, wire.len);
        if (tgen_judge(exact, wire.len, NULL, NULL, &rep->verdict) < 0)
            _exit(3);
    }
    gtr_buf_free(&text);
    gtr_buf_free(&wire);
}

static gtr_status probe(const uint8_t *data, size_t size, unsigned timeout_s, bool via_text,
                        reduce_probe *p, gtr_err *err)
{
    int rp[2], e;
    char why[128];
    FILE *errf = tmpfile();
    memset(p, 0, sizeof *p);
    if (errf == NULL || pipe(rp) < 0) {
        e = errno;
        if (errf != NULL)
            fclose(errf);
        return gtr_err_setf(err, GTR_E_IO, "pipe: %s", gtr_errno_text(e, why, sizeof why));
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        e = errno;
        close(rp[0]);
        close(rp[1]);
        fclose(errf);
        return gtr_err_setf(err, GTR_E_IO, "fork: %s", gtr_errno_text(e, why, sizeof why));
    }
    if (pid == 0) {
        close(rp[0]);
        dup2(fileno(errf), 2);
        alarm(timeout_s);
        /* The report (about 8 KiB) fits in the pipe: the child never blocks on it. */
        static child_report rep;
        /* An exact-size copy, so that the sanitizers see a read one byte past the end (a
         * gtr_buf keeps a NUL after its bytes). */
        uint8_t *exact = malloc(size > 0 ? size : 1);
        if (exact == NULL)
            _exit(3);
        if (size > 0)
            memcpy(exact, data, size);
        if (via_text)
            judge_via_text(exact, size, &rep);
        else if (tgen_judge(exact, size, NULL, NULL, &rep.verdict) < 0)
            _exit(3);
        size_t n1, n2;
        const char *t1 = gtr_err_text(&rep.verdict.end_err, &n1);
        const char *t2 = gtr_err_text(&rep.verdict.valid_err, &n2);
        child_report flat = rep;
        flat.verdict.end_err.heap = flat.verdict.valid_err.heap = NULL;
        flat.verdict.stuck.data = NULL;
        reduce_write_all(rp[1], &flat, sizeof flat);
        reduce_write_all(rp[1], t1, n1);
        reduce_write_all(rp[1], t2, n2);
        if (rep.verdict.stuck.len > 0)
            reduce_write_all(rp[1], rep.verdict.stuck.data, rep.verdict.stuck.len);
        _exit(0);
    }
    close(rp[1]);
    int status = 0;
    /* Read to EOF before waiting: long messages may not fit in the pipe. */
    gtr_buf got = {0};
    char chunk[4096];
    for (;;) {
        ssize_t k = read(rp[0], chunk, sizeof chunk);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        gtr_buf_append(&got, chunk, (size_t)k);
    }
    close(rp[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    static child_report rep;
    if (got.len >= sizeof rep)
        memcpy(&rep, got.data, sizeof rep);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && got.len >= sizeof rep &&
        got.len - sizeof rep ==
            rep.verdict.end_err.len + rep.verdict.valid_err.len + rep.verdict.stuck.len) {
        const char *t1 = got.data + sizeof rep;
        p->outcome = REDUCE_JUDGED;
        p->verdict = rep.verdict;
        p->unnameable = rep.unnameable;
        gtr_err_init(&p->verdict.end_err);
        gtr_err_init(&p->verdict.valid_err);
        gtr_err_setn(&p->verdict.end_err, rep.verdict.end_err.code, t1, rep.verdict.end_err.len);
        gtr_err_setn(&p->verdict.valid_err, rep.verdict.valid_err.code,
                     t1 + rep.verdict.end_err.len, rep.verdict.valid_err.len);
        gtr_buf_init(&p->verdict.stuck, NULL);
        if (rep.verdict.stuck.len > 0)
            gtr_buf_append(&p->verdict.stuck,
                           t1 + rep.verdict.end_err.len + rep.verdict.valid_err.len,
                           rep.verdict.stuck.len);
    } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
        memset(&p->verdict, 0, sizeof p->verdict);
        p->outcome = REDUCE_HANG;
        snprintf(p->signature, sizeof p->signature, "timeout");
    } else {
        memset(&p->verdict, 0, sizeof p->verdict);
        p->outcome = REDUCE_CRASH;
        size_t used = (size_t)snprintf(p->signature, sizeof p->signature, "%s %d",
                                       WIFSIGNALED(status) ? "signal" : "exit",
                                       WIFSIGNALED(status) ? WTERMSIG(status)
                                                           : WEXITSTATUS(status));
        /* Read the first 64 KiB of the child's stderr. */
        static char report[1 << 16];
        size_t n;
        rewind(errf);
        n = fread(report, 1, sizeof report - 1, errf);
        report[n] = '\0';
        crash_signature(report, p->signature, sizeof p->signature, used);
    }
    gtr_buf_free(&got);
    fclose(errf);
    return GTR_OK;
}

gtr_status reduce_probe_run(const uint8_t *data, size_t size, unsigned timeout_s,
                            reduce_probe *p, gtr_err *err)
{
    return probe(data, size, timeout_s, false, p, err);
}

gtr_status reduce_probe_run_text(const uint8_t *data, size_t size, unsigned timeout_s,
                                 reduce_probe *p, gtr_err *err)
{
    return probe(data, size, timeout_s, true, p, err);
}
