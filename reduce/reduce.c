/* SPDX-License-Identifier: BSD-3-Clause */
/* reduce.c: the whole job of `gotrace reduce` (reduce.h): choose the failure to keep under
 * Go's golden judgment, reduce, and make a fixture that the golden runner accepts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtr/raw.h"
#include "oracle.h"
#include "reduce.h"
#include "engine.h"
#include "tgen/fixture.h"
#include "tracedit.h"
#include "txtar.h"

#define DEFAULT_TIMEOUT 10

/* What a candidate must show. */
typedef struct keeper {
    reduce_kind kind;
    bool via_text;                /* judge candidates through the text format (what a
                                   * fixture holds), not as wire bytes */
    bool relaxed;                 /* READ_ERROR behind validator errors (--expect): they
                                   * may stay while reducing */
    bool artifact;                /* LATER_GEN_ERROR kept as the input shows it: the Sync
                                   * validator error, then the reader error */
    tgen_expect *re;              /* message kinds */
    gtr_buf stuck;                /* a reader error "failed to advance": why the input is
                                   * stuck (tgen_verdict.stuck), which every candidate must
                                   * show too, so that no reduction slips to another stuck
                                   * trace; empty otherwise */
    char failed_on[32];           /* a reader error of the ordering: the type of the event
                                   * it refused (tgen_verdict.failed_on), which every
                                   * candidate must fail on too ("expected a proc but didn't
                                   * have one" is the same message on a GoCreate and a
                                   * GoStop); "" otherwise */
    char signature[512];          /* crash, hang */
    unsigned timeout;
    const char *go_gate;          /* crash, hang: Go's oracle, whose validator must accept
                                   * every kept candidate (so that Go's verdict can be the
                                   * fixture's expectation); NULL: no such condition */
    reduce__job job;              /* the job's budget and progress */
    gtr_err io_err;               /* a probe that could not run */
    bool io_failed;
} keeper;

/* same_stuck: a candidate's stuck shape is the input's (both empty when it is not stuck). */
static bool same_stuck(const gtr_buf *want, const gtr_buf *got)
{
    return want->len == got->len && (want->len == 0 || memcmp(want->data, got->data, want->len) == 0);
}

/* shows judges a probe against the kept failure. */
static bool shows(keeper *k, const reduce_probe *p)
{
    bool matched = false;
    const tgen_verdict *v = &p->verdict;
    switch (k->kind) {
    case REDUCE_KEEP_CRASH:
    case REDUCE_KEEP_HANG:
        return p->outcome != REDUCE_JUDGED && strcmp(p->signature, k->signature) == 0;
    case REDUCE_KEEP_READ_ERROR:
    case REDUCE_KEEP_LATER_GEN_ERROR:
        /* What the golden runner can hold: no validator error, then the error (or, kept as
         * the input shows it, only the first Sync's). */
        if (p->outcome != REDUCE_JUDGED || v->end == TGEN_END_EOF ||
            (k->artifact ? !tgen_verdict_first_sync_artifact(v) : !k->relaxed && v->invalid > 0))
            return false;
        if (!same_stuck(&k->stuck, &v->stuck) || strcmp(k->failed_on, v->failed_on) != 0)
            return false;
        return tgen_expect_match(k->re, gtr_err_text(&v->end_err, NULL), v->end_err.len,
                                 &matched, NULL) == GTR_OK &&
               matched;
    case REDUCE_KEEP_DIVERGENCE:   /* diff.c's own keeper */
        return false;
    case REDUCE_KEEP_VALIDATOR_ERROR:
        if (p->outcome != REDUCE_JUDGED || v->invalid == 0 || tgen_verdict_first_sync_artifact(v))
            return false;
        return tgen_expect_match(k->re, gtr_err_text(&v->valid_err, NULL), v->valid_err.len,
                                 &matched, NULL) == GTR_OK &&
               matched;
    }
    return false;
}

static bool interesting(void *ctx, const uint8_t *data, size_t size)
{
    keeper *k = ctx;
    reduce_probe p;
    if (k->io_failed)
        return false;
    if ((k->via_text ? reduce_probe_run_text : reduce_probe_run)(data, size, k->timeout, &p,
                                                                 &k->io_err) < 0) {
        k->io_failed = true;
        return false;
    }
    bool shown = !p.unnameable && shows(k, &p);
    tgen_verdict_free(&p.verdict);
    if (!shown)
        return false;
    if (k->go_gate != NULL) {
        reduce_go_verdict gv;
        gtr_buf msg = {0};
        bool ran = reduce_oracle_validate(k->go_gate, data, size, k->timeout, &gv, &msg);
        gtr_buf_free(&msg);
        return ran && gv != REDUCE_GO_VALIDATOR_ERROR;
    }
    return true;
}

void reduce__count_model(const uint8_t *data, size_t size, size_t *nbatches, size_t *nevents)
{
    tracedit_trace t = {0};
    *nbatches = *nevents = 0;
    if (tracedit_decode(&t, data, size, NULL) == GTR_OK) {
        for (size_t b = 0; b < t.nbatches; b++) {
            if (t.batches[b].kind == GTR_EV_END_OF_GENERATION)
                continue;
            (*nbatches)++;
            *nevents += t.batches[b].nev;
        }
    }
    tracedit_trace_free(&t);
}

void reduce_result_free(reduce_result *r)
{
    gtr_buf_free(&r->fixture);
    gtr_buf_free(&r->wire);
    gtr_buf_free(&r->why_wire);
    gtr_buf_free(&r->kept);
    gtr_buf_free(&r->go_check);
}

const char *reduce_kind_text(reduce_kind k)
{
    switch (k) {
    case REDUCE_KEEP_READ_ERROR:
        return "reader error";
    case REDUCE_KEEP_LATER_GEN_ERROR:
        return "reader error in the first generation";
    case REDUCE_KEEP_VALIDATOR_ERROR:
        return "validator error";
    case REDUCE_KEEP_CRASH:
        return "crash";
    case REDUCE_KEEP_HANG:
        return "hang";
    case REDUCE_KEEP_DIVERGENCE:
        return "divergence from Go";
    }
    return "failure";
}

/* first_line appends s's first line to out, with "..." when more follows. */
void reduce__first_line(gtr_buf *out, const char *s)
{
    size_t n = strcspn(s, "\n");
    gtr_buf_append(out, s, n);
    if (s[n] != '\0' && s[n + 1] != '\0')
        gtr_buf_puts(out, " ...");
}

/* undecodable_bytes counts the bytes of wire[0..len) that the model keeps as opaque tails:
 * the text format has no way to write them. */
static size_t undecodable_bytes(const uint8_t *wire, size_t len)
{
    tracedit_trace t = {0};
    size_t n = 0;
    if (tracedit_decode(&t, wire, len, NULL) == GTR_OK) {
        n = t.tail_len;
        for (size_t b = 0; b < t.nbatches; b++)
            n += t.batches[b].tail_len;
    }
    tracedit_trace_free(&t);
    return n;
}

/* build_fixture appends to out the fixture for wire[0..len): comment, expectation exp_text
 * and the trace in the text format. False, with the reason in why, when the text format
 * cannot name the trace's bytes. */
bool reduce__build_fixture(gtr_buf *out, const uint8_t *wire, size_t len, const char *exp_text,
                          const char *comment, gtr_buf *why)
{
    gtr_buf text = {0};
    gtr_err err = GTR_ERR_INIT;
    bool ok = false;
    if (reduce_v1_header(wire, len)) {
        gtr_buf_puts(why, "the trace is in the old format (go 1.11-1.21), which the text format "
                          "(go 1.22+) cannot hold");
        goto out;
    }
    if (gtr_raw_wire_to_text(wire, len, &text, &err) < 0) {
        gtr_buf_printf(why, "the trace needs bytes the text format cannot name (%s)",
                       gtr_err_text(&err, NULL));
        goto out;
    }
    txtar_file files[2] = {{"expect", 6, exp_text, strlen(exp_text)},
                           {"trace", 5, text.data, text.len}};
    txtar_archive a = {comment, strlen(comment), files, 2};
    size_t alen;
    char *archive = txtar_format(&a, &alen);
    if (archive == NULL) {
        gtr_buf_puts(why, "out of memory");
        goto out;
    }
    if (alen > TGEN_FIXTURE_MAX) {
        /* gotrace check would refuse to read it. */
        gtr_buf_printf(why, "its fixture would be %zu bytes, over the %llu bytes gotrace check "
                            "reads",
                       alen, (unsigned long long)TGEN_FIXTURE_MAX);
        free(archive);
        goto out;
    }
    ok = gtr_buf_append(out, archive, alen) == GTR_OK;
    free(archive);
out:
    gtr_err_clear(&err);
    gtr_buf_free(&text);
    return ok;
}

/* fixture_holds parses fixture[0..len), made from wire[0..wire_len), as `gotrace check` does
 * and judges its trace in a child: a reader error's fixture must pass the golden check, a
 * crash's or hang's must still crash or hang the same way. False, with the reason in why,
 * when it does not. */
static bool fixture_holds(keeper *k, const char *fixture, size_t len, const uint8_t *wire,
                          size_t wire_len, gtr_buf *why)
{
    tgen_fixture *f = NULL;
    gtr_err err = GTR_ERR_INIT, cerr = GTR_ERR_INIT;
    reduce_probe p;
    bool ok = false, crash = k->kind == REDUCE_KEEP_CRASH || k->kind == REDUCE_KEEP_HANG;
    if (tgen_fixture_parse("reduced.test", fixture, len, &f, &err) < 0) {
        gtr_buf_printf(why, "its fixture does not parse (%s)", gtr_err_text(&err, NULL));
        gtr_err_clear(&err);
        return false;
    }
    size_t wlen;
    const uint8_t *w = tgen_fixture_trace(f, &wlen);
    if (reduce_probe_run(w, wlen, k->timeout, &p, &err) < 0) {
        gtr_buf_puts(why, gtr_err_text(&err, NULL));
    } else if (crash) {
        if (shows(k, &p))
            ok = true;
        else
            gtr_buf_printf(why, "its text form no longer %s the same way",
                           k->kind == REDUCE_KEEP_CRASH ? "crashes" : "hangs");
    } else if (p.outcome != REDUCE_JUDGED) {
        gtr_buf_printf(why, "its fixture %s under gotrace check (%s)",
                       p.outcome == REDUCE_CRASH ? "crashes" : "hangs", p.signature);
    } else if (tgen_verdict_check(&p.verdict, tgen_fixture_expect(f), NULL, &cerr) < 0) {
        size_t opaque = undecodable_bytes(wire, wire_len);
        if (opaque > 0)
            gtr_buf_printf(why,
                           "the failure needs bytes the text format cannot name (%zu byte%s "
                           "that do not decode as events; its text form fails otherwise: ",
                           opaque, opaque == 1 ? "" : "s");
        else
            gtr_buf_puts(why, "its text form does not reproduce the failure (");
        reduce__first_line(why, gtr_err_text(&cerr, NULL));
        gtr_buf_puts(why, ")");
    } else if (!same_stuck(&k->stuck, &p.verdict.stuck)) {
        /* Both golden runners would pass it, but it fails for another reason than its input
         * (it slipped): a reducer failure, never written. */
        gtr_buf_puts(why, "its fixture is stuck for another reason than its input (input: ");
        reduce__first_line(why, k->stuck.data != NULL ? k->stuck.data : "");
        gtr_buf_puts(why, "; fixture: ");
        reduce__first_line(why, p.verdict.stuck.data != NULL ? p.verdict.stuck.data : "not stuck");
        gtr_buf_puts(why, ")");
    } else if (strcmp(k->failed_on, p.verdict.failed_on) != 0) {
        gtr_buf_printf(why, "its fixture fails on another event than its input (input: %s; "
                            "fixture: %s)",
                       k->failed_on[0] != '\0' ? k->failed_on : "no event",
                       p.verdict.failed_on[0] != '\0' ? p.verdict.failed_on : "no event");
    } else {
        ok = true;
    }
    tgen_verdict_free(&p.verdict);
    gtr_err_clear(&err);
    gtr_err_clear(&cerr);
    tgen_fixture_free(f);
    return ok;
}

/* failure_expectation appends the FAILURE line for a message. */
static void failure_expectation(gtr_buf *exp, const char *pattern, size_t len)
{
    tgen_expect_format_failure(exp, pattern, len);
}

/* go_expectation asks the oracle what Go says of wire: an expectation for a fixture, or false
 * (with the reason in why) when Go's own judgment cannot be a fixture. */
static bool go_expectation(const char *oracle, const uint8_t *wire, size_t len, unsigned timeout,
                           gtr_buf *exp, gtr_buf *why)
{
    reduce_go_verdict gv;
    gtr_buf msg = {0}, re = {0};
    bool ok = false;
    if (!reduce_oracle_validate(oracle, wire, len, timeout, &gv, &msg)) {
        gtr_buf_printf(why, "Go's oracle (%s) could not be run", oracle);
    } else if (gv == REDUCE_GO_PASS) {
        gtr_buf_puts(exp, "SUCCESS\n");
        ok = true;
    } else if (gv == REDUCE_GO_READ_ERROR) {
        reduce_message_regexp(msg.data != NULL ? msg.data : "", &re);
        failure_expectation(exp, re.data != NULL ? re.data : "", re.len);
        ok = true;
    } else {
        gtr_buf_puts(why, "Go's validator rejects the reduced trace (");
        reduce__first_line(why, msg.data != NULL ? msg.data : "");
        gtr_buf_puts(why, "), so no fixture can hold it");
    }
    gtr_buf_free(&msg);
    gtr_buf_free(&re);
    return ok;
}

/* reduce_more reduces from[0..] (from may be &r->wire) into r->wire under k, adding to
 * r->stats. */
static gtr_status reduce_more(keeper *k, const gtr_buf *from, reduce_result *r, gtr_err *err)
{
    bool read_in_process = k->kind == REDUCE_KEEP_READ_ERROR ||
                           k->kind == REDUCE_KEEP_LATER_GEN_ERROR;
    return reduce__job_reduce(&k->job, (const uint8_t *)from->data, from->len, interesting, k,
                              read_in_process, r, err);
}

gtr_status reduce_trace(const uint8_t *data, size_t size, const reduce_options *opt,
                        reduce_result *r, gtr_err *err)
{
    keeper k = {.timeout = opt->timeout_s > 0 ? opt->timeout_s : DEFAULT_TIMEOUT,
                .job = {.progress = opt->progress,
                        .progress_ctx = opt->progress_ctx,
                        .deadline = opt->budget_s > 0 ? reduce__now() + opt->budget_s : 0,
                        .started = reduce__now()}};
    gtr_buf start = {0}, pattern = {0}, exp = {0}, comment = {0};
    reduce_probe p;
    gtr_status st;
    const char *oracle = reduce_oracle_usable(opt->oracle) ? opt->oracle : NULL;

    memset(r, 0, sizeof *r);
    r->in_bytes = size;
    reduce__count_model(data, size, &r->in_batches, &r->in_events);
    if ((st = reduce_probe_run(data, size, k.timeout, &p, err)) < 0)
        goto out;

    /* The failure to keep. */
    const char *msg = NULL;
    size_t msg_len = 0;
    if (p.outcome == REDUCE_CRASH || p.outcome == REDUCE_HANG) {
        k.kind = p.outcome == REDUCE_CRASH ? REDUCE_KEEP_CRASH : REDUCE_KEEP_HANG;
        snprintf(k.signature, sizeof k.signature, "%s", p.signature);
        gtr_buf_puts(&r->kept, p.signature);
        if (opt->expect != NULL) {
            st = gtr_err_setf(err, GTR_E_USAGE,
                              "the input %s (%s): --expect needs a failure with a message",
                              p.outcome == REDUCE_CRASH ? "crashes" : "hangs", p.signature);
            goto out;
        }
    } else if (p.verdict.end == TGEN_END_HEADER && !reduce_v1_header(data, size)) {
        /* (An old-format trace is parsed whole by NewReader: its error is kept as a read
         * error, below.) */
        st = gtr_err_setf(err, GTR_E_FORMAT, "no trace to reduce: ");
        gtr_err_append(err, &p.verdict.end_err);
        goto out;
    } else if (p.verdict.invalid > 0 && !tgen_verdict_first_sync_artifact(&p.verdict)) {
        k.kind = REDUCE_KEEP_VALIDATOR_ERROR;
        msg = gtr_err_text(&p.verdict.valid_err, &msg_len);
    } else if (p.verdict.end == TGEN_END_READ || p.verdict.end == TGEN_END_HEADER) {
        k.kind = p.verdict.invalid > 0 ? REDUCE_KEEP_LATER_GEN_ERROR : REDUCE_KEEP_READ_ERROR;
        msg = gtr_err_text(&p.verdict.end_err, &msg_len);
        gtr_buf_append(&k.stuck, p.verdict.stuck.data, p.verdict.stuck.len);
        memcpy(k.failed_on, p.verdict.failed_on, sizeof k.failed_on);
    } else {
        st = gtr_err_setf(err, GTR_E_USAGE,
                          "the input reads and validates: there is no failure to keep");
        goto out;
    }
    if (msg != NULL) {
        gtr_buf_append(&r->kept, msg, msg_len);
        if (opt->expect != NULL)
            gtr_buf_append(&pattern, opt->expect, opt->expect_len);
        else
            reduce_message_regexp(msg, &pattern);
        if ((st = tgen_expect_new_failure(pattern.data != NULL ? pattern.data : "", pattern.len,
                                          &k.re, err)) < 0)
            goto out;
        bool matched = false;
        if ((st = tgen_expect_match(k.re, msg, msg_len, &matched, err)) < 0)
            goto out;
        /* --expect may name the reader error behind a validator error: keep that one, the
         * validator's errors free to go while reducing (only a result without them can be a
         * fixture). */
        if (!matched && opt->expect != NULL && k.kind == REDUCE_KEEP_VALIDATOR_ERROR &&
            p.verdict.end == TGEN_END_READ) {
            size_t e_len;
            const char *e = gtr_err_text(&p.verdict.end_err, &e_len);
            if ((st = tgen_expect_match(k.re, e, e_len, &matched, err)) < 0)
                goto out;
            if (matched) {
                k.kind = REDUCE_KEEP_READ_ERROR;
                k.relaxed = true;
                gtr_buf_append(&k.stuck, p.verdict.stuck.data, p.verdict.stuck.len);
                memcpy(k.failed_on, p.verdict.failed_on, sizeof k.failed_on);
                msg = e;
                msg_len = e_len;
                gtr_buf_reset(&r->kept);
                gtr_buf_append(&r->kept, e, e_len);
            }
        }
        if (!matched) {
            gtr_buf m = {0};
            reduce__first_line(&m, msg);
            st = gtr_err_setf(err, GTR_E_USAGE,
                              "--expect does not match the input's failure (%s: %s)",
                              reduce_kind_text(k.kind), m.data != NULL ? m.data : "");
            gtr_buf_free(&m);
            goto out;
        }
    }

    /* The starting point: the input, or for a first-generation error the input behind a
     * synthesised first generation, where the same error surfaces one generation later. */
    gtr_buf_append(&start, data, size);
    if (k.kind == REDUCE_KEEP_LATER_GEN_ERROR) {
        gtr_buf w = {0};
        if (reduce_prepend_generation(data, size, &w, NULL) == GTR_OK &&
            interesting(&k, (const uint8_t *)w.data, w.len)) {
            gtr_buf_free(&start);
            start = w;
        } else {
            /* Nothing in front reproduces it: keep it as the input shows it. */
            gtr_buf_free(&w);
            k.artifact = true;
        }
    }
    /* A stuck trace: a trace built for the same reason, when the keeper takes it, is a far
     * better start than the input (the events before a failure deep in a large generation
     * matter only through the state they leave). */
    if (k.stuck.len > 0 && !k.artifact && !opt->no_synthesis) {
        gtr_buf syn = {0};
        if (reduce_synthesize_stuck((const uint8_t *)start.data, start.len, &syn) == GTR_OK &&
            interesting(&k, (const uint8_t *)syn.data, syn.len)) {
            gtr_buf_free(&start);
            start = syn;
            r->synthesized = true;
        } else {
            gtr_buf_free(&syn);
        }
    }
    /* A failure a fixture can hold is reduced through the text format too, so that what is
     * kept is what the fixture will hold (unless the input's text form loses it: bytes the
     * text format cannot name). */
    bool text_ok = false;
    if (k.kind != REDUCE_KEEP_VALIDATOR_ERROR && !k.artifact) {
        k.via_text = true;
        text_ok = interesting(&k, (const uint8_t *)start.data, start.len);
        k.via_text = false;
    }
    /* A crash's expectation is Go's verdict: keep only candidates Go's validator accepts,
     * when it accepts the input. */
    if ((k.kind == REDUCE_KEEP_CRASH || k.kind == REDUCE_KEEP_HANG) && oracle != NULL) {
        k.go_gate = oracle;
        if (!interesting(&k, (const uint8_t *)start.data, start.len))
            k.go_gate = NULL;
    }
    if (!interesting(&k, (const uint8_t *)start.data, start.len)) {
        st = k.io_failed ? gtr_err_setf(err, GTR_E_IO, "%s", gtr_err_text(&k.io_err, NULL))
                         : gtr_err_setf(err, GTR_E_USAGE, "the failure does not reproduce: %s",
                                        r->kept.data != NULL ? r->kept.data : "");
        goto out;
    }
    /* First as wire bytes, which is fast on a large trace; then through the text format,
     * from that result when its text form still shows the failure, else from the input. */
    if ((st = reduce_more(&k, &start, r, err)) < 0)
        goto out;
    if (text_ok) {
        k.via_text = true;
        if (!interesting(&k, (const uint8_t *)r->wire.data, r->wire.len)) {
            gtr_buf_reset(&r->wire);
            gtr_buf_append(&r->wire, start.data, start.len);
        }
        if ((st = reduce_more(&k, &r->wire, r, err)) < 0)
            goto out;
    }
    if (k.relaxed) {
        /* Without the validator's errors now? Then reduce on from there, strictly. */
        k.relaxed = false;
        if (interesting(&k, (const uint8_t *)r->wire.data, r->wire.len)) {
            if ((st = reduce_more(&k, &r->wire, r, err)) < 0)
                goto out;
        } else {
            k.relaxed = true;
        }
    }
    if (k.io_failed) {
        st = gtr_err_setf(err, GTR_E_IO, "%s", gtr_err_text(&k.io_err, NULL));
        goto out;
    }
    reduce__count_model((const uint8_t *)r->wire.data, r->wire.len, &r->out_batches, &r->out_events);
    r->kind = k.kind;

    /* The fixture. */
    const uint8_t *w = (const uint8_t *)r->wire.data;
    size_t wlen = r->wire.len;
    gtr_buf_puts(&comment, "Reduced by gotrace reduce (");
    gtr_buf_puts(&comment, reduce_kind_text(k.kind));
    gtr_buf_puts(&comment, ": ");
    reduce__first_line(&comment, r->kept.data != NULL ? r->kept.data : "");
    gtr_buf_puts(&comment, ").\n");
    if (r->synthesized) {
        gtr_buf_puts(&comment, "Stuck for the input's reason, built from its diagnosis:\n");
        gtr_buf_append(&comment, k.stuck.data, k.stuck.len);
    }
    if (k.failed_on[0] != '\0')
        gtr_buf_printf(&comment, "The reader refuses a %s, as it refused the input's.\n",
                       k.failed_on);
    switch (k.kind) {
    case REDUCE_KEEP_LATER_GEN_ERROR:
    case REDUCE_KEEP_READ_ERROR:
        if (k.artifact) {
            gtr_buf_puts(&r->why_wire,
                         "the error is in a go1.25+ first generation, which Go's reader "
                         "announces with a Sync the validator rejects, and no valid generation "
                         "in front of it reproduces the error");
            break;
        }
        if (k.relaxed) {
            gtr_buf_puts(&r->why_wire, "the reader error --expect names stays behind a "
                                       "validator error, and the golden runner fails a "
                                       "fixture on every validator error");
            break;
        }
        if (k.kind == REDUCE_KEEP_LATER_GEN_ERROR)
            gtr_buf_puts(&comment,
                         "The error was in the input's first generation. Go's reader announces "
                         "a\nfirst generation it cannot read with a Sync that has no clock "
                         "snapshot,\nwhich the validator rejects, so a minimal valid generation "
                         "was put in\nfront and the same error surfaces in the second one.\n");
        failure_expectation(&exp, pattern.data, pattern.len);
        if (reduce__build_fixture(&r->fixture, w, wlen, exp.data, comment.data, &r->why_wire) &&
            !fixture_holds(&k, r->fixture.data, r->fixture.len, w, wlen, &r->why_wire))
            gtr_buf_reset(&r->fixture);
        break;
    case REDUCE_KEEP_DIVERGENCE:   /* never kept here (reduce_diff_trace) */
        break;
    case REDUCE_KEEP_VALIDATOR_ERROR:
        gtr_buf_puts(&r->why_wire,
                     "the failure is the validator's, and Go's golden runner fails a fixture "
                     "on every validator error, so no expectation can hold it");
        break;
    case REDUCE_KEEP_CRASH:
    case REDUCE_KEEP_HANG:
        if (oracle == NULL) {
            gtr_buf_printf(&r->why_wire,
                           "the expectation of a %s must come from Go's reader, and there is no "
                           "oracle (set GTR_ORACLE, or run ci/oracle-fetch.sh)",
                           reduce_kind_text(k.kind));
            break;
        }
        gtr_buf_puts(&comment, "The expectation is what Go's reader says of this trace.\n");
        /* gotrace itself crashes or hangs on it: only Go's golden runner can accept this
         * fixture until the library is fixed. */
        if (!go_expectation(oracle, w, wlen, k.timeout, &exp, &r->why_wire)) {
            /* Go may reject it only for a first generation it cannot read (go1.25+): try
             * the same trace behind a valid first generation. */
            gtr_buf alt = {0}, why = {0};
            if (reduce_prepend_generation(w, wlen, &alt, NULL) == GTR_OK &&
                interesting(&k, (const uint8_t *)alt.data, alt.len) &&
                go_expectation(oracle, (const uint8_t *)alt.data, alt.len, k.timeout, &exp, &why)) {
                gtr_buf_free(&r->wire);
                r->wire = alt;
                gtr_buf_init(&alt, NULL);
                gtr_buf_reset(&r->why_wire);
                w = (const uint8_t *)r->wire.data;
                wlen = r->wire.len;
                reduce__count_model(w, wlen, &r->out_batches, &r->out_events);
                gtr_buf_puts(&comment, "A minimal valid first generation was put in front, so "
                                       "that Go's validator accepts the first Sync.\n");
            }
            gtr_buf_free(&alt);
            gtr_buf_free(&why);
        }
        if (exp.len > 0 &&
            reduce__build_fixture(&r->fixture, w, wlen, exp.data, comment.data, &r->why_wire) &&
            !fixture_holds(&k, r->fixture.data, r->fixture.len, w, wlen, &r->why_wire))
            gtr_buf_reset(&r->fixture);
        break;
    }

    /* Go's golden runner on what we wrote. */
    st = reduce__job_finish(r, oracle, k.timeout, err);
out:
    tgen_verdict_free(&p.verdict);
    gtr_err_clear(&k.io_err);
    tgen_expect_free(k.re);
    gtr_buf_free(&k.stuck);
    gtr_buf_free(&start);
    gtr_buf_free(&pattern);
    gtr_buf_free(&exp);
    gtr_buf_free(&comment);
    if (st < 0)
        reduce_result_free(r);
    return st;
}

gtr_status reduce_message_regexp(const char *msg, gtr_buf *out)
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
