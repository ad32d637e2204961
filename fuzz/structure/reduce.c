/* SPDX-License-Identifier: BSD-3-Clause */
/* reduce.c: the trace reducer (fs/reduce.h).
 *
 * Delta debugging on the structure model. Phases, each a ddmin-style loop that removes chunks
 * of units (chunk size halving from n/2 to 1, a removal kept whenever the candidate is still
 * interesting):
 *   1. generations (runs of batches sharing a gen field, with their EndOfGeneration);
 *   2. batches;
 *   3. events (in any batch);
 *   4. stack frames (in any Stack event);
 * then 5. values: every batch time/m/gen, event argument and string's data is tried at 0
 * (or empty), 1, and half its value (or length). The phases repeat until a round changes
 * nothing. Candidates are always encoded from the model, so sizes stay right. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fs/check.h"
#include "fs/model.h"
#include "fs/reduce.h"

typedef struct reducer {
    gtr_fs_interesting fn;
    void *ctx;
    gtr_fs_trace cur, cand;
    gtr_buf enc;
    gtr_fs_reduce_stats *stats;
    bool oom;
} reducer;

/* try_cand encodes r->cand and keeps it as the current trace when it is interesting. */
static bool try_cand(reducer *r)
{
    gtr_buf_reset(&r->enc);
    if (gtr_fs_encode(&r->cand, &r->enc, NULL) != GTR_OK) {
        r->oom = true;
        return false;
    }
    r->stats->tests++;
    if (!r->fn(r->ctx, (const uint8_t *)r->enc.data, r->enc.len))
        return false;
    gtr_fs_trace tmp = r->cur;
    r->cur = r->cand;
    r->cand = tmp;
    return true;
}

static bool start_cand(reducer *r)
{
    if (gtr_fs_copy(&r->cand, &r->cur, NULL) != GTR_OK) {
        r->oom = true;
        return false;
    }
    return true;
}

/* Units. count returns how many the trace has; drop removes units [lo, hi). */
typedef size_t (*count_fn)(const gtr_fs_trace *t);
typedef void (*drop_fn)(gtr_fs_trace *t, size_t lo, size_t hi);

/* Generation runs: consecutive body batches with equal gen; an EndOfGeneration belongs to
 * the run before it. */
static size_t count_gens(const gtr_fs_trace *t)
{
    size_t n = t->nbatches > 0;
    for (size_t b = 1; b < t->nbatches; b++) {
        const gtr_fs_batch *x = &t->batches[b];
        if (x->kind != GTR_EV_END_OF_GENERATION &&
            (t->batches[b - 1].kind == GTR_EV_END_OF_GENERATION || t->batches[b - 1].gen != x->gen))
            n++;
    }
    return n;
}

static void drop_gens(gtr_fs_trace *t, size_t lo, size_t hi)
{
    /* Number the runs on the unmodified list first, then remove from the back. */
    size_t *run = malloc((t->nbatches + 1) * sizeof *run), g = 0;
    if (run == NULL)
        return;
    for (size_t b = 0; b < t->nbatches; b++) {
        const gtr_fs_batch *x = &t->batches[b];
        if (x->kind != GTR_EV_END_OF_GENERATION && b > 0 &&
            (t->batches[b - 1].kind == GTR_EV_END_OF_GENERATION || t->batches[b - 1].gen != x->gen))
            g++;
        run[b] = g;
    }
    for (size_t b = t->nbatches; b > 0; b--)
        if (run[b - 1] >= lo && run[b - 1] < hi)
            gtr_fs_remove_batch(t, b - 1);
    free(run);
}

static size_t count_batches(const gtr_fs_trace *t)
{
    return t->nbatches;
}

static void drop_batches(gtr_fs_trace *t, size_t lo, size_t hi)
{
    for (size_t b = hi; b > lo; b--)
        gtr_fs_remove_batch(t, b - 1);
}

static size_t count_events(const gtr_fs_trace *t)
{
    size_t n = 0;
    for (size_t b = 0; b < t->nbatches; b++)
        n += t->batches[b].nev;
    return n;
}

static void drop_events(gtr_fs_trace *t, size_t lo, size_t hi)
{
    size_t k = 0;
    for (size_t b = 0; b < t->nbatches; b++) {
        gtr_fs_batch *x = &t->batches[b];
        size_t w = 0;
        for (size_t i = 0; i < x->nev; i++, k++) {
            if (k < lo || k >= hi)
                x->evs[w++] = x->evs[i];
        }
        x->nev = w;
    }
}

static bool is_stack(const gtr_fs_trace *t, uint32_t ev)
{
    return t->events[ev].type == GTR_EV_STACK && t->events[ev].nargs >= 2;
}

static size_t count_frames(const gtr_fs_trace *t)
{
    size_t n = 0;
    for (size_t b = 0; b < t->nbatches; b++)
        for (size_t i = 0; i < t->batches[b].nev; i++)
            if (is_stack(t, t->batches[b].evs[i]))
                n += (t->events[t->batches[b].evs[i]].nargs - 2) / 4;
    return n;
}

static void drop_frames(gtr_fs_trace *t, size_t lo, size_t hi)
{
    size_t k = 0;
    for (size_t b = 0; b < t->nbatches; b++) {
        for (size_t i = 0; i < t->batches[b].nev; i++) {
            uint32_t ev = t->batches[b].evs[i];
            if (!is_stack(t, ev))
                continue;
            gtr_fs_event *e = &t->events[ev];
            uint32_t nfr = (e->nargs - 2) / 4, w = 0;
            uint64_t *a = t->vals + e->args;
            /* Compact in place: frames only move towards the front. */
            for (uint32_t f = 0; f < nfr; f++, k++) {
                if (k >= lo && k < hi)
                    continue;
                memmove(a + 2 + w * 4, a + 2 + f * 4, 4 * sizeof *a);
                w++;
            }
            e->nargs = 2 + w * 4;
            a[1] = w;
        }
    }
}

/* ddmin removes chunks of units while the trace stays interesting. Returns true on progress. */
static bool ddmin(reducer *r, count_fn count, drop_fn drop)
{
    size_t n = count(&r->cur);
    bool any = false;
    if (n == 0)
        return false;
    size_t chunk = n > 1 ? n / 2 : 1;
    for (;;) {
        bool progress = false;
        for (size_t start = 0; start < count(&r->cur) && !r->oom;) {
            size_t end = start + chunk, cnt = count(&r->cur);
            if (end > cnt)
                end = cnt;
            if (!start_cand(r))
                return any;
            drop(&r->cand, start, end);
            if (try_cand(r))
                progress = any = true;
            else
                start += chunk;
        }
        if (r->oom)
            return any;
        if (!progress) {
            if (chunk == 1)
                return any;
            chunk /= 2;
        }
    }
}

/* Value shrinking. Slot k enumerates: per body batch gen, m, time; per event each argument
 * (a Stack's nframes excluded) and, for data events, the data length. */
typedef struct slot {
    uint64_t *v;        /* the value (NULL for data) */
    gtr_fs_event *data; /* an event whose data length shrinks */
} slot;

static bool find_slot(gtr_fs_trace *t, size_t k, slot *s)
{
    for (size_t b = 0; b < t->nbatches; b++) {
        gtr_fs_batch *x = &t->batches[b];
        if (x->kind == GTR_EV_END_OF_GENERATION)
            continue;
        uint64_t *hdr[3] = {&x->gen, &x->m, &x->time};
        if (k < 3) {
            *s = (slot){hdr[k], NULL};
            return true;
        }
        k -= 3;
        for (size_t i = 0; i < x->nev; i++) {
            gtr_fs_event *e = &t->events[x->evs[i]];
            for (uint32_t a = 0; a < e->nargs; a++) {
                if (e->type == GTR_EV_STACK && a == 1)
                    continue;
                if (k-- == 0) {
                    *s = (slot){t->vals + e->args + a, NULL};
                    return true;
                }
            }
            if (e->has_data && k-- == 0) {
                *s = (slot){NULL, e};
                return true;
            }
        }
    }
    return false;
}

static bool shrink_values(reducer *r)
{
    bool any = false;
    slot s;
    for (size_t k = 0; !r->oom; k++) {
        if (!find_slot(&r->cur, k, &s))
            break;
        uint64_t v = s.v != NULL ? *s.v : s.data->data_len;
        if (v == 0)
            continue;
        uint64_t tries[3] = {0, 1, v / 2};
        for (int i = 0; i < 3; i++) {
            if (tries[i] >= v || (i == 2 && (tries[2] <= 1)))
                continue;
            if (!start_cand(r) || !find_slot(&r->cand, k, &s))
                return any;
            if (s.v != NULL)
                *s.v = tries[i];
            else
                s.data->data_len = (size_t)tries[i];
            if (try_cand(r)) {
                any = true;
                break;
            }
        }
    }
    return any;
}

gtr_status gtr_fs_reduce(const uint8_t *data, size_t size, gtr_fs_interesting fn, void *ctx,
                         gtr_buf *out, gtr_fs_reduce_stats *stats, gtr_err *err)
{
    gtr_fs_reduce_stats local;
    reducer r = {.fn = fn, .ctx = ctx, .stats = stats != NULL ? stats : &local};
    gtr_status st = GTR_OK;

    memset(r.stats, 0, sizeof *r.stats);
    r.stats->tests = 1;
    if (!fn(ctx, data, size))
        return gtr_err_setf(err, GTR_E_USAGE, "the input does not show the failure");
    if ((st = gtr_fs_decode(&r.cur, data, size, err)) < 0)
        goto out;
    if (!r.cur.has_header) {
        if (gtr_buf_append(out, data, size) < 0)
            st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        goto out;
    }
    /* The decoded form may differ from the input (canonical varints): start from it only if
     * it is still interesting, else keep the raw bytes. */
    if (!start_cand(&r) || !try_cand(&r)) {
        if (gtr_buf_append(out, data, size) < 0)
            st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        goto out;
    }
    for (bool progress = true; progress && !r.oom;) {
        r.stats->rounds++;
        progress = false;
        progress |= ddmin(&r, count_gens, drop_gens);
        progress |= ddmin(&r, count_batches, drop_batches);
        progress |= ddmin(&r, count_events, drop_events);
        progress |= ddmin(&r, count_frames, drop_frames);
        progress |= shrink_values(&r);
    }
    if (r.oom || gtr_fs_encode(&r.cur, out, err) < 0)
        st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
out:
    gtr_fs_trace_free(&r.cur);
    gtr_fs_trace_free(&r.cand);
    gtr_buf_free(&r.enc);
    return st;
}

/* Probing in a child process. */

static bool write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        c += k;
        n -= (size_t)k;
    }
    return true;
}

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

gtr_status gtr_fs_probe_run(const uint8_t *data, size_t size, unsigned timeout_s,
                            gtr_fs_probe *p, gtr_err *err)
{
    int rp[2];
    FILE *errf = tmpfile();
    memset(p, 0, sizeof *p);
    if (errf == NULL || pipe(rp) < 0) {
        if (errf != NULL)
            fclose(errf);
        return gtr_err_setf(err, GTR_E_IO, "pipe: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(rp[0]);
        close(rp[1]);
        fclose(errf);
        return gtr_err_setf(err, GTR_E_IO, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(rp[0]);
        dup2(fileno(errf), 2);
        alarm(timeout_s);
        gtr_fs_result res;
        gtr_fs_check(data, size, NULL, NULL, &res);
        int outcome = res.read < 0    ? GTR_FS_READ_ERROR
                      : res.valid < 0 ? GTR_FS_VALID_ERROR
                                      : GTR_FS_PASS;
        const char *msg = outcome == GTR_FS_READ_ERROR    ? res.read_err.msg
                          : outcome == GTR_FS_VALID_ERROR ? res.valid_err.msg
                                                          : "";
        char o = (char)outcome;
        write_all(rp[1], &o, 1);
        write_all(rp[1], msg, strlen(msg));
        _exit(0);
    }
    close(rp[1]);
    /* The child writes at most 1 + GTR_ERR_MSG_CAP bytes: less than a pipe holds. */
    char buf[GTR_ERR_MSG_CAP + 2];
    size_t got = 0;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    for (;;) {
        ssize_t k = read(rp[0], buf + got, sizeof buf - 1 - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(rp[0]);
    buf[got] = '\0';
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && got >= 1) {
        p->outcome = (gtr_fs_outcome)buf[0];
        if (p->outcome != GTR_FS_PASS)
            gtr_err_setf(&p->msg, p->outcome == GTR_FS_READ_ERROR ? GTR_E_FORMAT : GTR_E_INVALID,
                         "%s", buf + 1);
    } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
        p->outcome = GTR_FS_TIMEOUT;
        snprintf(p->signature, sizeof p->signature, "timeout");
    } else {
        p->outcome = GTR_FS_CRASH;
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
    fclose(errf);
    return GTR_OK;
}

gtr_status gtr_fs_message_regexp(const char *msg, gtr_buf *out)
{
    size_t n = strcspn(msg, "\n");
    for (size_t i = 0; i < n;) {
        char c = msg[i];
        if (c >= '0' && c <= '9') {
            while (i < n && msg[i] >= '0' && msg[i] <= '9')
                i++;
            gtr_buf_puts(out, "[0-9]+");
            continue;
        }
        if (strchr("\\.+*?()|[]{}^$", c) != NULL)
            gtr_buf_putc(out, '\\');
        gtr_buf_putc(out, c);
        i++;
    }
    return gtr_buf_status(out);
}
