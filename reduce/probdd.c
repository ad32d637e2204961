/* SPDX-License-Identifier: BSD-3-Clause */
/* probdd.c: probabilistic delta debugging (ProbDD: Wang, Chen, Xiong, "Probabilistic Delta
 * Debugging", ESEC/FSE 2021).
 *
 * Each unit carries the probability that the failure needs it. A candidate removes the units
 * least likely to be needed, as many as maximise the expected number removed (k units whose
 * probabilities are p_1..p_k remove k * prod(1 - p_i) in expectation). When the candidate is
 * interesting they go; when it is not, one of them at least was needed, and Bayes' rule
 * raises each one's probability to p / (1 - prod(1 - p_i)). A unit whose probability reaches
 * 1 is kept without another test. So a failed test teaches something about every unit in it,
 * where ddmin forgets it at the next chunk size, and the units that failed together are not
 * tried together again.
 *
 * Ties go to the later unit: what depends on a unit (a GoStart on its GoCreate, a use on a
 * definition) mostly comes after it, so removing from the end lets its dependencies follow
 * (ddmin.c's backward pass, for the same reason). */
#include <stdlib.h>

#include "engine.h"

/* The prior: a unit is needed with probability 0.1 at first, so that the first candidates
 * remove about ten units each (k * 0.9^k is largest at k = 9 or 10), as ProbDD's paper
 * chooses. */
#define PROBDD_PRIOR 0.1

typedef struct unit_p {
    double p;      /* the probability that the failure needs the unit */
    size_t index;  /* the unit's index in the current trace */
} unit_p;

/* by_likelihood orders the units least likely needed first, the later first among equals. */
static int by_likelihood(const void *a, const void *b)
{
    const unit_p *x = a, *y = b;
    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    return x->index > y->index ? -1 : x->index < y->index ? 1 : 0;
}

/* by_index_desc orders units from the last to the first. */
static int by_index_desc(const void *a, const void *b)
{
    const unit_p *x = a, *y = b;
    return x->index > y->index ? -1 : x->index < y->index ? 1 : 0;
}

/* best_size returns how many of the first m units of u (ordered by by_likelihood) a candidate
 * removes: the k that maximises k * prod_{i<k} (1 - p_i), 0 when every unit is needed. */
static size_t best_size(const unit_p *u, size_t m)
{
    double keep = 1, best = 0;
    size_t k = 0;
    for (size_t i = 0; i < m && u[i].p < 1; i++) {
        keep *= 1 - u[i].p;
        double gain = (double)(i + 1) * keep;
        if (gain > best) {
            best = gain;
            k = i + 1;
        }
    }
    return k;
}

bool reduce__probdd(reducer *r, reduce__count_fn count, reduce__drop_fn drop)
{
    size_t n = count(&r->cur);
    bool any = false;
    if (n == 0)
        return false;
    /* p[i]: unit i's probability, in the current trace's order. */
    double *p = malloc(n * sizeof *p);
    unit_p *u = malloc(n * sizeof *u);
    if (p == NULL || u == NULL) {
        free(p);
        free(u);
        r->oom = r->halt = true;
        return false;
    }
    double prior = PROBDD_PRIOR;
    if (getenv("GTR_PROBDD_N"))
        prior = 1.0 / (double)n < PROBDD_PRIOR ? 1.0 / (double)n : PROBDD_PRIOR;
    for (size_t i = 0; i < n; i++)
        p[i] = prior;
    while (!r->halt) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (p[i] < 1)
                u[m++] = (unit_p){p[i], i};
        qsort(u, m, sizeof *u, by_likelihood);
        size_t k = best_size(u, m);
        if (k == 0)
            break;
        if (!reduce__start_cand(r))
            break;
        /* Remove the chosen units in runs of consecutive indices, the last run first, so
         * that the indices of the runs before it still hold. */
        qsort(u, k, sizeof *u, by_index_desc);
        for (size_t i = 0; i < k;) {
            size_t hi = u[i].index + 1, lo = u[i].index;
            for (i++; i < k && u[i].index + 1 == lo; i++)
                lo = u[i].index;
            drop(&r->cand, lo, hi);
        }
        if (reduce__try_cand(r)) {
            any = true;
            size_t w = 0, next = 0;
            /* u[0..k) is in descending index order: walk it backwards to skip the removed. */
            for (size_t i = 0; i < n; i++) {
                if (next < k && u[k - 1 - next].index == i) {
                    next++;
                    continue;
                }
                p[w++] = p[i];
            }
            n = w;
            /* A drop that took more than its units (a unit that held others) leaves indices
             * that no longer match: start the count again from the prior. */
            if (count(&r->cur) != n) {
                n = count(&r->cur);
                double *np = realloc(p, (n > 0 ? n : 1) * sizeof *p);
                if (np == NULL) {
                    r->oom = r->halt = true;
                    break;
                }
                p = np;
                for (size_t i = 0; i < n; i++)
                    p[i] = prior;
            }
            if (n == 0)
                break;
        } else {
            double keep = 1;
            for (size_t i = 0; i < k; i++)
                keep *= 1 - u[i].p;
            for (size_t i = 0; i < k; i++) {
                /* A unit removed alone and needed is certain (q is 1 up to rounding). */
                double q = k > 1 && keep < 1 ? u[i].p / (1 - keep) : 1;
                p[u[i].index] = q < 1 - 1e-9 ? q : 1;
            }
        }
    }
    free(p);
    free(u);
    return any;
}
