/* SPDX-License-Identifier: BSD-3-Clause */
/* diff.c: `gotrace reduce --diff` (reduce.h): shrink a trace on which gotrace and Go's own
 * reader disagree to a minimal one on which they disagree the same way, and write the fixture
 * of Go's verdict (a regression fixture for the divergence).
 *
 * Each candidate is read by gotrace in a forked child (a candidate that crashes or hangs
 * gotrace is another failure, not the reducer's end) and by Go through the caller's
 * godiff_go_fn (the archive in process, or the oracle program). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine.h"
#include "fdio.h"
#include "gtr/raw.h"
#include "oracle.h"
#include "reduce.h"
#include "tgen/expect.h"
#include "tgen/fixture.h"

#define DEFAULT_TIMEOUT 10
#define DEFAULT_GO_RUNS 512
#define KIND_MAX 64   /* an event kind's bytes in a signature */

/* ---- The signature. ---- */

/* line_len: the length of s[0..len)'s first line (s need not end in NUL). */
static size_t line_len(const char *s, size_t len)
{
    const char *nl = len > 0 ? memchr(s, '\n', len) : NULL;
    return nl != NULL ? (size_t)(nl - s) : len;
}

/* put_masked appends msg[0..len)'s first line, numbers masked (reduce_message_regexp), or
 * "-" when there is no message. */
static void put_masked(gtr_buf *out, const char *msg, size_t len)
{
    if (len == 0) {
        gtr_buf_putc(out, '-');
        return;
    }
    char *s = malloc(len + 1);
    if (s == NULL) {
        gtr_buf_puts(out, "\x01");   /* never equal to a real signature; out may be fine */
        return;
    }
    memcpy(s, msg, len);
    s[len] = '\0';
    reduce_message_regexp(s, out);
    free(s);
}

/* put_event_kind appends the kind of the event whose String() holds the line of dump[0..len)
 * that starts at `at`: a continuation line (a stack frame, indented) belongs to the event
 * above it; the kind is the first word that is not a NAME=VALUE field, digits masked as "N";
 * "(end)" when the dump ends at `at`. */
static void put_event_kind(gtr_buf *out, const char *dump, size_t len, size_t at)
{
    if (at >= len) {
        gtr_buf_puts(out, "(end)");
        return;
    }
    while (at > 0 && (dump[at] == '\t' || dump[at] == ' ')) {
        at--;   /* the previous line's newline */
        while (at > 0 && dump[at - 1] != '\n')
            at--;
    }
    const char *p = dump + at, *end = memchr(p, '\n', len - at);
    if (end == NULL)
        end = dump + len;
    while (p < end) {
        while (p < end && *p == ' ')
            p++;
        const char *w = p;
        while (p < end && *p != ' ')
            p++;
        if (w == p)
            break;
        if (memchr(w, '=', (size_t)(p - w)) != NULL)
            continue;   /* M=0, P=-1, G=1 */
        size_t shown = 0;
        for (const char *c = w; c < p && shown < KIND_MAX; shown++) {
            if (*c >= '0' && *c <= '9') {
                while (c < p && *c >= '0' && *c <= '9')
                    c++;
                gtr_buf_putc(out, 'N');
            } else {
                gtr_buf_putc(out, *c++);
            }
        }
        return;
    }
    gtr_buf_puts(out, "(no kind)");
}

gtr_status reduce_diff_signature(const godiff_reading *ours, const godiff_reading *go,
                                 gtr_buf *out)
{
    gtr_buf_printf(out, "gotrace: %s; Go: %s; ", godiff_end_name(ours->end),
                   godiff_end_name(go->end));
    size_t at;
    size_t line = godiff_first_difference(ours->dump, ours->dump_len, go->dump, go->dump_len,
                                          &at);
    if (ours->end != go->end || line == SIZE_MAX) {
        gtr_buf_puts(out, ours->end != go->end ? "endings differ: gotrace says "
                                               : "messages differ: gotrace says ");
        put_masked(out, ours->end != GODIFF_END_EOF ? ours->msg : "", ours->msg_len);
        gtr_buf_puts(out, ", Go says ");
        put_masked(out, go->end != GODIFF_END_EOF ? go->msg : "", go->msg_len);
    } else {
        gtr_buf_puts(out, "dumps differ: the first differing event is gotrace's ");
        put_event_kind(out, ours->dump, ours->dump_len, at);
        gtr_buf_puts(out, ", Go's ");
        put_event_kind(out, go->dump, go->dump_len, at);
    }
    return gtr_buf_status(out);
}

/* ---- Reading a candidate. ---- */

/* A reading by gotrace, made in a child. */
typedef struct ours_reading {
    godiff_end end;
    gtr_buf dump, msg;
} ours_reading;

static void ours_free(ours_reading *o)
{
    gtr_buf_free(&o->dump);
    gtr_buf_free(&o->msg);
}

typedef struct child_header {
    uint32_t end;
    uint64_t dump_len, msg_len;
} child_header;

static bool read_into(int fd, gtr_buf *b, uint64_t n)
{
    char chunk[8192];
    while (n > 0) {
        size_t k = n < sizeof chunk ? (size_t)n : sizeof chunk;
        if (!reduce_read_exact(fd, chunk, k) || gtr_buf_append(b, chunk, k) < 0)
            return false;
        n -= k;
    }
    return true;
}

/* read_ours reads data[0..size) with libtrace (godiff_read_ours) in a forked child with a
 * timeout, the reading coming back through an unlinked temporary file. False when the child
 * crashed or hung (*failed then set) or when the file or the fork failed (*failed clear). */
static bool read_ours(const uint8_t *data, size_t size, const reduce_diff_options *d,
                      unsigned timeout_s, ours_reading *o, bool *failed)
{
    char path[] = "/tmp/gotrace-diff-XXXXXX";
    int fd = mkstemp(path);
    bool ok = false;
    *failed = false;
    memset(o, 0, sizeof *o);
    if (fd < 0)
        return false;
    unlink(path);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd);
        return false;
    }
    if (pid == 0) {
        alarm(timeout_s);
        gtr_buf dump = {0};
        gtr_err err = GTR_ERR_INIT;
        int minor = d->go_minor > 0 ? d->go_minor : GODIFF_GO_MINOR;
        godiff_end end = godiff_read_ours(data, size, minor, &dump, &err);
        size_t msg_len = 0;
        const char *msg = end == GODIFF_END_EOF ? "" : gtr_err_text(&err, &msg_len);
        child_header h = {(uint32_t)end, dump.len, msg_len};
        bool put = gtr_buf_status(&dump) == GTR_OK && reduce_write_all(fd, &h, sizeof h) &&
                   reduce_write_all(fd, dump.data != NULL ? dump.data : "", dump.len) &&
                   reduce_write_all(fd, msg, msg_len);
        _exit(put ? 0 : 3);
    }
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0) {
        if (errno != EINTR) {
            close(fd);
            return false;
        }
    }
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        *failed = true;
        close(fd);
        return false;
    }
    child_header h;
    lseek(fd, 0, SEEK_SET);
    ok = reduce_read_exact(fd, &h, sizeof h) && h.end <= GODIFF_END_PANIC &&
         read_into(fd, &o->dump, h.dump_len) && read_into(fd, &o->msg, h.msg_len);
    o->end = (godiff_end)h.end;
    close(fd);
    if (!ok)
        ours_free(o);
    return ok;
}

typedef enum judgment {
    J_DIVERGES,      /* a divergence Go's reruns do not explain, with the wanted signature */
    J_OTHER,         /* a divergence with another signature */
    J_AGREE,         /* the same reading */
    J_NONDET,        /* ours is one of Go's outputs (its reruns explain the difference) */
    J_GO_PANIC,      /* Go panicked: not compared */
    J_OURS_FAILED,   /* gotrace crashed or hung */
    J_UNNAMEABLE,    /* the text format cannot hold the candidate (via_text) */
    J_IO             /* a child, a file or Go could not be had */
} judgment;

/* What a candidate must show. */
typedef struct dkeeper {
    const reduce_diff_options *d;
    int runs;                     /* runs of Go on the input and on the fixture's trace */
    int cand_runs;                /* on the candidates between (runs / 8, at least 2) */
    bool candidate;               /* judging a candidate: cand_runs */
    unsigned timeout;
    gtr_buf sig;                  /* the input's signature; empty while judging the input */
    bool via_text;                /* judge what a fixture holds: wire -> text -> wire */
    reduce__job job;              /* the job's budget and progress */
    bool io_failed;
    char io_what[256];
} dkeeper;

/* judge reads data[0..size) on both sides; *sig gets the signature of a divergence (NULL:
 * not wanted) and *go_out, when not NULL, Go's first reading (released by the caller, on
 * every judgment but J_IO, J_OURS_FAILED and J_UNNAMEABLE). */
static judgment judge(dkeeper *k, const uint8_t *data, size_t size, gtr_buf *sig,
                      godiff_owned *go_out)
{
    gtr_buf text = {0}, wire = {0}, mine = {0};
    ours_reading o;
    godiff_owned go;
    bool failed;
    judgment j = J_IO;
    if (k->via_text) {
        if (gtr_raw_wire_to_text(data, size, &text, NULL) < 0 ||
            gtr_raw_text_to_wire(text.data != NULL ? text.data : "", text.len, &wire, NULL) < 0) {
            gtr_buf_free(&text);
            gtr_buf_free(&wire);
            return J_UNNAMEABLE;
        }
        data = (const uint8_t *)wire.data;
        size = wire.len;
    }
    if (!read_ours(data, size, k->d, k->timeout, &o, &failed)) {
        if (!failed)
            snprintf(k->io_what, sizeof k->io_what, "cannot read a candidate in a child: %s",
                     strerror(errno));
        j = failed ? J_OURS_FAILED : J_IO;
        goto out;
    }
    if (k->d->header_as_read && o.end == GODIFF_END_HEADER)
        o.end = GODIFF_END_READ;
    if (!k->d->go(k->d->go_ctx, data, size, &go)) {
        snprintf(k->io_what, sizeof k->io_what, "Go's reader could not be run");
        ours_free(&o);
        goto out;
    }
    godiff_reading ours = {o.end, o.dump.data != NULL ? o.dump.data : "", o.dump.len,
                           o.msg.data != NULL ? o.msg.data : "", o.msg.len};
    switch (godiff_compare(&ours, &go.r)) {
    case GODIFF_SAME:
        j = J_AGREE;
        break;
    case GODIFF_GO_PANIC:
        j = J_GO_PANIC;
        break;
    case GODIFF_MAP_ORDER:
    case GODIFF_DIVERGES:
        /* The signature first: a candidate diverging another way needs no reruns of Go. */
        if (sig == NULL)
            sig = &mine;
        reduce_diff_signature(&ours, &go.r, sig);
        if (k->sig.len > 0 &&
            (sig->len != k->sig.len || memcmp(sig->data, k->sig.data, sig->len) != 0))
            j = J_OTHER;
        else if (godiff_go_explains(k->d->go, k->d->go_ctx, data, size, &ours, &go.r,
                                    k->candidate ? k->cand_runs : k->runs))
            j = J_NONDET;
        else
            j = J_DIVERGES;
        break;
    }
    if (go_out != NULL)
        *go_out = go;
    else
        godiff_owned_free(&go);
    ours_free(&o);
out:
    gtr_buf_free(&mine);
    gtr_buf_free(&text);
    gtr_buf_free(&wire);
    if (j == J_IO)
        k->io_failed = true;
    return j;
}

/* A candidate: its divergence has the input's signature, which all of Go's runs on the input
 * showed to be no nondeterminism of Go's, so fewer runs stand for it (cand_runs: a map-order
 * difference that all of them miss is caught by the fixture's check, with runs). */
static bool interesting(void *ctx, const uint8_t *data, size_t size)
{
    dkeeper *k = ctx;
    k->candidate = true;
    bool yes = !k->io_failed && judge(k, data, size, NULL, NULL) == J_DIVERGES;
    k->candidate = false;
    return yes;
}

/* reduce_from reduces from[0..len) (r->wire's bytes too) into r->wire under k, adding to
 * r->stats. */
static gtr_status reduce_from(dkeeper *k, const char *from, size_t len, reduce_result *r,
                              gtr_err *err)
{
    return reduce__job_reduce(&k->job, (const uint8_t *)from, len, interesting, k, false, r,
                              err);
}

/* go_verdict appends to exp the expectation of Go's reading g (SUCCESS, or FAILURE with its
 * message's first line, numbers free); false, with the reason in why, when Go's validator
 * rejected the trace (no expectation can hold that). */
static bool go_verdict(const godiff_reading *g, gtr_buf *exp, gtr_buf *why)
{
    gtr_buf re = {0};
    switch (g->end) {
    case GODIFF_END_EOF:
        gtr_buf_puts(exp, "SUCCESS\n");
        return true;
    case GODIFF_END_HEADER:
    case GODIFF_END_READ:
        put_masked(&re, g->msg, g->msg_len);
        tgen_expect_format_failure(exp, re.data != NULL ? re.data : "", re.len);
        gtr_buf_free(&re);
        return true;
    case GODIFF_END_VALIDATOR:
    case GODIFF_END_PANIC:
        break;
    }
    gtr_buf_puts(why, "Go's validator rejects the reduced trace, and Go's golden runner fails "
                      "a fixture on every validator error, so no expectation can hold Go's "
                      "verdict");
    return false;
}

/* describe appends to comment how the two readings of the fixture's trace differ. */
static void describe(gtr_buf *comment, const godiff_reading *ours, const godiff_reading *go)
{
    size_t at;
    size_t line = godiff_first_difference(ours->dump, ours->dump_len, go->dump, go->dump_len,
                                          &at);
    if (line != SIZE_MAX) {
        gtr_buf_printf(comment, "The event dumps differ first on line %zu:\n", line + 1);
        const struct {
            const char *who;
            const godiff_reading *r;
        } side[2] = {{"gotrace", ours}, {"Go     ", go}};
        for (int i = 0; i < 2; i++) {
            const godiff_reading *r = side[i].r;
            if (at >= r->dump_len) {
                gtr_buf_printf(comment, "  %s: (the dump ends here)\n", side[i].who);
                continue;
            }
            const char *nl = memchr(r->dump + at, '\n', r->dump_len - at);
            size_t n = nl != NULL ? (size_t)(nl - (r->dump + at)) : r->dump_len - at;
            gtr_buf_printf(comment, "  %s: %.*s%s\n", side[i].who, (int)(n < 300 ? n : 300),
                           r->dump + at, n > 300 ? " [...]" : "");
        }
    }
    const godiff_reading *both[2] = {ours, go};
    for (int i = 0; i < 2; i++) {
        const godiff_reading *r = both[i];
        gtr_buf_printf(comment, "%s ends: %s", i == 0 ? "gotrace" : "Go     ",
                       godiff_end_name(r->end));
        if (r->end != GODIFF_END_EOF) {
            size_t n = line_len(r->msg, r->msg_len);
            gtr_buf_printf(comment, ": %.*s%s", (int)(n < 300 ? n : 300), r->msg,
                           n < r->msg_len || n > 300 ? " ..." : "");
        }
        gtr_buf_putc(comment, '\n');
    }
}

/* fixture_diverges: the trace the fixture holds still diverges with the input's signature;
 * then the comment's readings are those of that trace. */
static bool fixture_diverges(dkeeper *k, const gtr_buf *fixture, gtr_buf *why)
{
    tgen_fixture *f = NULL;
    gtr_err err = GTR_ERR_INIT;
    bool ok = false;
    if (tgen_fixture_parse("reduced.test", fixture->data, fixture->len, &f, &err) < 0) {
        gtr_buf_printf(why, "its fixture does not parse (%s)", gtr_err_text(&err, NULL));
        gtr_err_clear(&err);
        return false;
    }
    size_t wlen;
    const uint8_t *w = tgen_fixture_trace(f, &wlen);
    bool via = k->via_text;
    k->via_text = false;
    judgment j = judge(k, w, wlen, NULL, NULL);
    k->via_text = via;
    if (j == J_DIVERGES)
        ok = true;
    else
        gtr_buf_puts(why, "the trace its fixture holds (the text form) no longer diverges the "
                          "same way");
    tgen_fixture_free(f);
    return ok;
}

gtr_status reduce_diff_trace(const uint8_t *data, size_t size, const reduce_options *opt,
                             const reduce_diff_options *dopt, reduce_result *r, gtr_err *err)
{
    dkeeper k = {.d = dopt,
                 .runs = dopt->go_runs > 0 ? dopt->go_runs : DEFAULT_GO_RUNS,
                 .timeout = opt->timeout_s > 0 ? opt->timeout_s : DEFAULT_TIMEOUT,
                 .job = {.progress = opt->progress,
                         .progress_ctx = opt->progress_ctx,
                         .deadline = opt->budget_s > 0 ? reduce__now() + opt->budget_s : 0,
                         .started = reduce__now()}};
    gtr_buf exp = {0}, comment = {0};
    godiff_owned go = {0};
    gtr_status st = GTR_OK;
    const char *oracle = reduce_oracle_usable(opt->oracle) ? opt->oracle : NULL;

    k.cand_runs = k.runs / 8 > 2 ? k.runs / 8 : 2;
    memset(r, 0, sizeof *r);
    r->kind = REDUCE_KEEP_DIVERGENCE;
    r->in_bytes = size;
    reduce__count_model(data, size, &r->in_batches, &r->in_events);
    if (opt->expect != NULL) {
        st = gtr_err_setf(err, GTR_E_USAGE, "--diff keeps a divergence, not a message: "
                                            "--expect cannot go with it");
        goto out;
    }
    if (dopt->go == NULL) {
        st = gtr_err_setf(err, GTR_E_USAGE, "--diff needs Go's reader");
        goto out;
    }

    /* The divergence to keep. */
    gtr_buf sig = {0};
    judgment j = judge(&k, data, size, &sig, &go);
    switch (j) {
    case J_DIVERGES:
        break;
    case J_AGREE:
        st = gtr_err_setf(err, GTR_E_USAGE,
                          "gotrace and Go agree on the input (%s): there is no divergence "
                          "to keep",
                          godiff_end_name(go.r.end));
        break;
    case J_NONDET:
        st = gtr_err_setf(err, GTR_E_USAGE,
                          "gotrace differs from Go only as Go's own runs of the input differ "
                          "(Go's map order): there is no divergence to keep");
        break;
    case J_GO_PANIC: {
        st = gtr_err_setf(err, GTR_E_USAGE,
                          "Go panics on the input (%.*s): there is no divergence to keep "
                          "(corpus/go-panics keeps such inputs)",
                          (int)line_len(go.r.msg, go.r.msg_len), go.r.msg);
        break;
    }
    case J_OURS_FAILED:
        st = gtr_err_setf(err, GTR_E_USAGE,
                          "gotrace crashes or hangs on the input: reduce that without --diff "
                          "first");
        break;
    case J_OTHER:
    case J_UNNAMEABLE:
    case J_IO:
        st = gtr_err_setf(err, GTR_E_IO, "%s", k.io_what[0] != '\0' ? k.io_what : "I/O error");
        break;
    }
    godiff_owned_free(&go);   /* {0} unless judge set it */
    if (st < 0) {
        gtr_buf_free(&sig);
        goto out;
    }
    k.sig = sig;
    gtr_buf_append(&r->kept, sig.data, sig.len);

    /* First as wire bytes; then, when the input's text form diverges the same way, through
     * the text format (what the fixture will hold), from that result or else the input. */
    k.via_text = true;
    bool text_ok = interesting(&k, data, size);
    k.via_text = false;
    if ((st = reduce_from(&k, (const char *)data, size, r, err)) < 0)
        goto out;
    if (text_ok) {
        k.via_text = true;
        if (!interesting(&k, (const uint8_t *)r->wire.data, r->wire.len)) {
            gtr_buf_reset(&r->wire);
            gtr_buf_append(&r->wire, data, size);
        }
        if ((st = reduce_from(&k, r->wire.data, r->wire.len, r, err)) < 0)
            goto out;
    }
    if (k.io_failed) {
        st = gtr_err_setf(err, GTR_E_IO, "%s", k.io_what);
        goto out;
    }
    const uint8_t *w = (const uint8_t *)r->wire.data;
    size_t wlen = r->wire.len;
    reduce__count_model(w, wlen, &r->out_batches, &r->out_events);

    /* The fixture: Go's verdict, and the comment saying how gotrace differs. */
    ours_reading o;
    bool failed;
    if (!read_ours(w, wlen, dopt, k.timeout, &o, &failed) ||
        !dopt->go(dopt->go_ctx, w, wlen, &go)) {
        if (o.dump.data != NULL || o.msg.data != NULL)
            ours_free(&o);
        st = gtr_err_setf(err, GTR_E_IO, "cannot read the reduced trace again");
        goto out;
    }
    if (dopt->header_as_read && o.end == GODIFF_END_HEADER)
        o.end = GODIFF_END_READ;
    godiff_reading ours = {o.end, o.dump.data != NULL ? o.dump.data : "", o.dump.len,
                           o.msg.data != NULL ? o.msg.data : "", o.msg.len};
    gtr_buf_puts(&comment, "Reduced by gotrace reduce --diff: a divergence fixture.\n");
    bool earlier = dopt->go_minor > 0 && dopt->go_minor != GODIFF_GO_MINOR;
    if (earlier)
        gtr_buf_printf(&comment, "gotrace and Go 1.%d's reader disagree on this trace (",
                       dopt->go_minor);
    else
        gtr_buf_puts(&comment, "gotrace and Go 1.27.3's reader disagree on this trace (");
    gtr_buf_append(&comment, sig.data, sig.len);
    if (earlier)
        gtr_buf_printf(&comment, ").\nThe expectation is Go 1.%d's verdict: gotrace reads the "
                                 "trace as Go 1.27.3 does,\nso Go changed this since "
                                 "(fuzz/releases/README.md).\n",
                       dopt->go_minor);
    else
        gtr_buf_puts(&comment, ").\nThe expectation is Go's verdict, which Go's golden runner "
                               "accepts; ci/difftest.sh\nshows the divergence until gotrace "
                               "reads the trace as Go does.\n");
    describe(&comment, &ours, &go.r);
    if (go_verdict(&go.r, &exp, &r->why_wire) &&
        reduce__build_fixture(&r->fixture, w, wlen, exp.data, comment.data, &r->why_wire) &&
        !fixture_diverges(&k, &r->fixture, &r->why_wire))
        gtr_buf_reset(&r->fixture);
    ours_free(&o);
    godiff_owned_free(&go);

    /* Go's golden runner on what we wrote; not against an earlier release, whose verdict
     * Go 1.27.3's runner need not share. */
    bool same_release = dopt->go_minor == 0 || dopt->go_minor == GODIFF_GO_MINOR;
    st = reduce__job_finish(r, same_release ? oracle : NULL, k.timeout, err);
out:
    gtr_buf_free(&k.sig);
    gtr_buf_free(&exp);
    gtr_buf_free(&comment);
    if (st < 0)
        reduce_result_free(r);
    return st;
}
