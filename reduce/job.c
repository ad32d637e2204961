/* SPDX-License-Identifier: BSD-3-Clause */
/* job.c: a job of one or more reductions (engine.h), as reduce_trace and reduce_diff_trace
 * run them: each reduction under what is left of the job's budget, its result the job's
 * current trace, its candidates and progress counted as the whole job's; then the end of its
 * result, Go's golden runner on the fixture written. */
#include "engine.h"
#include "oracle.h"

/* job_progress is a reduce_engine's on_progress for the job at ctx (a reduce__job): one
 * reduction's progress made the whole job's. */
static void job_progress(void *ctx, const reduce_progress *p)
{
    const reduce__job *job = ctx;
    reduce_progress whole = *p;
    whole.tests += job->tests_before;
    whole.elapsed = reduce__now() - job->started;
    job->progress(job->progress_ctx, &whole);
}

gtr_status reduce__job_reduce(reduce__job *job, const uint8_t *from, size_t len,
                              reduce_interesting fn, void *ctx, bool read_in_process,
                              reduce_result *r, gtr_err *err)
{
    double left = 0;
    if (job->deadline > 0 && (left = job->deadline - reduce__now()) <= 0) {
        r->stats.budget_hit = true;
        if (from != (const uint8_t *)r->wire.data) {
            gtr_buf_reset(&r->wire);
            gtr_buf_append(&r->wire, from, len);
        }
        return gtr_buf_status(&r->wire) < 0 ? gtr_err_setf(err, GTR_E_NOMEM, "out of memory")
                                            : GTR_OK;
    }
    job->tests_before = r->stats.tests;
    reduce_engine eng = {.budget_s = left,
                         .on_progress = job->progress != NULL ? job_progress : NULL,
                         .progress_ctx = job,
                         .read_in_process = read_in_process};
    gtr_buf out = {0};
    reduce_stats more;
    /* from may be r->wire's bytes: the engine only reads them, and r->wire is replaced once
     * it is done. */
    gtr_status st = reduce_ddmin_run(from, len, fn, ctx, &eng, &out, &more, err);
    if (st < 0) {
        gtr_buf_free(&out);
        return st;
    }
    gtr_buf_free(&r->wire);
    r->wire = out;
    r->stats.tests += more.tests;
    r->stats.rounds += more.rounds;
    r->stats.budget_hit |= more.budget_hit;
    return GTR_OK;
}

gtr_status reduce__job_finish(reduce_result *r, const char *oracle, unsigned timeout_s,
                              gtr_err *err)
{
    if (r->fixture.len > 0 && oracle != NULL) {
        bool passed = false;
        if (reduce_oracle_check(oracle, r->fixture.data, r->fixture.len, timeout_s, &passed,
                                &r->go_check))
            r->go_rejects = !passed;
    }
    if (r->fixture.len == 0 && r->why_wire.len == 0)
        gtr_buf_puts(&r->why_wire, "out of memory");
    return gtr_buf_status(&r->fixture) < 0 || gtr_buf_status(&r->why_wire) < 0 ||
                   gtr_buf_status(&r->kept) < 0
               ? gtr_err_setf(err, GTR_E_NOMEM, "out of memory")
               : GTR_OK;
}
