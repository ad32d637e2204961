/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testdata/generators/go122-fail-first-gen-first.go at go1.27.3.
 *
 * Regression test for #55160.
 *
 * The issue is that the parser reads ahead to the first batch of the
 * next generation to find generation boundaries, but if it finds an
 * error, it needs to delay handling that error until later. Previously
 * it would handle that error immediately and a totally valid generation
 * would be skipped for parsing and rejected because of an error in a
 * batch in the following generation.
 *
 * This test captures this behavior by making both the first generation
 * and second generation bad. It requires that the issue in the first
 * generation, which is caught when actually ordering events, be reported
 * instead of the second one.
 */
#include "generators.h"

void tgen_gen_go122_fail_first_gen_first(tgen_trace *t)
{
    /* A running goroutine emits a task begin. */
    tgen_trace_raw(t, GTR_EV_EVENT_BATCH, 1 /* gen */, 0 /* thread ID */, 0 /* timestamp */,
                   5 /* batch length */);
    tgen_trace_raw(t, GTR_EV_FREQUENCY, 15625000);

    /* A running goroutine emits a task begin. */
    tgen_trace_raw(t, GTR_EV_EVENT_BATCH, 1 /* gen */, 0 /* thread ID */, 0 /* timestamp */,
                   5 /* batch length */);
    tgen_trace_raw(t, GTR_EV_GO_CREATE, 0 /* timestamp delta */, 1 /* go ID */, 0, 0);

    /* Write an invalid batch event for the next generation. */
    tgen_trace_raw(t, GTR_EV_EVENT_BATCH, 2 /* gen */, 0 /* thread ID */, 0 /* timestamp */,
                   50 /* batch length (invalid) */);

    /* We should fail at the first issue, not the second one. */
    tgen_expect_failure(t, "expected a proc but didn't have one");
}
