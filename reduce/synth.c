/* SPDX-License-Identifier: BSD-3-Clause */
/* synth.c: a minimal valid generation in front of a trace (reduce.h).
 *
 * Go's reader announces a go1.25+ generation it cannot read with a Sync that carries no
 * clock snapshot; the validator accepts that only after the first generation (Sync N > 1).
 * A fixture that should expect such an error therefore needs one good generation before it.
 * The one made here is what every generation must have (generation.go: "no frequency event
 * found", "no clock snapshot event found"): a batch on no thread holding the sync (go1.25+)
 * or frequency (before) events, then the EndOfGeneration marker (go1.26+). Its clock snapshot
 * is the smallest valid one (mono 1, wall at the Unix epoch, trace time 1 tick), so any real
 * snapshot after it increases. */
#include <string.h>

#include "reduce.h"
#include "tracedit.h"

#define NO_THREAD UINT64_MAX

static gtr_status add_to_batch(tracedit_trace *t, size_t b, uint8_t type, const uint64_t *args,
                               uint32_t nargs)
{
    uint32_t idx;
    gtr_status st = tracedit_add_event(t, type, args, nargs, false, NULL, 0, &idx);
    if (st < 0)
        return st;
    return tracedit_batch_insert(t, b, t->batches[b].nev, idx);
}

gtr_status reduce_prepend_generation(const uint8_t *data, size_t size, gtr_buf *out,
                                     gtr_err *err)
{
    tracedit_trace t = {0};
    gtr_status st = tracedit_decode(&t, data, size, err);
    if (st < 0)
        goto out;
    if (!t.has_header) {
        st = gtr_err_setf(err, GTR_E_USAGE, "not a Go execution trace of a known version");
        goto out;
    }
    /* The trace's first generation number; renumber when there is no room below it. */
    uint64_t first = 0;
    for (size_t b = 0; b < t.nbatches; b++) {
        if (t.batches[b].kind != GTR_EV_END_OF_GENERATION) {
            first = t.batches[b].gen;
            break;
        }
    }
    uint64_t gen = first - 1;
    if (first <= 1 || first == UINT64_MAX) {
        for (size_t b = 0; b < t.nbatches; b++) {
            tracedit_batch *x = &t.batches[b];
            if (x->kind != GTR_EV_END_OF_GENERATION && x->gen != 0 && x->gen != UINT64_MAX)
                x->gen++;
        }
        gen = 1;
    }
    tracedit_batch tmpl = {.kind = GTR_EV_EVENT_BATCH, .gen = gen, .m = NO_THREAD, .time = 1};
    if ((st = tracedit_insert_batch(&t, 0, &tmpl)) < 0)
        goto nomem;
    static const uint64_t freq[1] = {1000000000};
    static const uint64_t clock[4] = {0 /* dt */, 1 /* mono */, 0 /* sec */, 0 /* nsec */};
    if (t.version >= GTR_GO125) {
        if ((st = add_to_batch(&t, 0, GTR_EV_SYNC, freq, 0)) < 0 ||
            (st = add_to_batch(&t, 0, GTR_EV_FREQUENCY, freq, 1)) < 0 ||
            (st = add_to_batch(&t, 0, GTR_EV_CLOCK_SNAPSHOT, clock, 4)) < 0)
            goto nomem;
    } else if ((st = add_to_batch(&t, 0, GTR_EV_FREQUENCY, freq, 1)) < 0) {
        goto nomem;
    }
    if (t.version >= GTR_GO126) {
        tracedit_batch eog = {.kind = GTR_EV_END_OF_GENERATION};
        if ((st = tracedit_insert_batch(&t, 1, &eog)) < 0)
            goto nomem;
    }
    st = tracedit_encode(&t, out, err);
    goto out;
nomem:
    st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
out:
    tracedit_trace_free(&t);
    return st;
}
