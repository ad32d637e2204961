/* SPDX-License-Identifier: BSD-3-Clause */
/* snapshot.c: the reader's state between two events (gtr/snapshot.h), beyond Go. It reads the
 * ordering through its accessors and walks each thread's batches again to count the events
 * advanced; the reader is not changed. */
#include "gtr/snapshot.h"

#include <string.h>

#include "mem.h"
#include "order.h"
#include "reader_priv.h"

struct gtr_snapshot {
    const gtr_alloc *alc;
    uint64_t gen;
    gtr_snapshot_thread *threads;
    size_t nthreads;
    gtr_snapshot_resource *gs, *ps;
    size_t ngs, nps, gs_cap, ps_cap;
    bool gc_running;
    uint64_t gc_seq;
};

gtr_status gtr_reader_snapshot(gtr_reader *r, gtr_snapshot **out, gtr_err *err)
{
    if (out == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_reader_snapshot: NULL argument");
    *out = NULL;
    if (r == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_reader_snapshot: NULL argument");
    size_t n = gtr__reader_threads(r);
    if (n == 0 || gtr__reader_generation(r) == 0)
        return gtr_err_setf(err, GTR_E_USAGE, "the reader is not inside a generation");
    const gtr_alloc *alc = gtr__alloc_or_libc(NULL);
    gtr_snapshot *s = gtr__calloc(alc, 1, sizeof *s);
    if (s == NULL || (s->threads = gtr__calloc(alc, n, sizeof *s->threads)) == NULL)
        goto nomem;
    s->alc = alc;
    s->gen = gtr__reader_generation(r);
    const gtr__ordering *o = gtr__reader_ordering(r);
    for (size_t i = 0; i < n; i++) {
        gtr_snapshot_thread *t = &s->threads[s->nthreads];
        if (!gtr__reader_thread(r, i, &t->m, &t->advanced, NULL)) {
            gtr_snapshot_free(s);
            return gtr_err_setf(err, GTR_E_USAGE, "the reader is not inside a generation");
        }
        gtr__ordering_thread(o, t->m, &t->g, &t->p);
        s->nthreads++;
    }
    gtr__resource_state st;
    int64_t id;
    for (size_t pos = 0; gtr__ordering_next_resource(o, false, &pos, &id, &st);) {
        if (!GTR__GROW(alc, s->gs, s->gs_cap, s->ngs + 1))
            goto nomem;
        gtr_snapshot_resource *g = &s->gs[s->ngs++];
        *g = (gtr_snapshot_resource){id, st.status, st.seq_gen, st.seq, 0, {0}};
        g->nranges = (uint8_t)gtr__ordering_ranges(o, false, id, g->ranges, GTR_SNAPSHOT_RANGES);
    }
    for (size_t pos = 0; gtr__ordering_next_resource(o, true, &pos, &id, &st);) {
        if (!GTR__GROW(alc, s->ps, s->ps_cap, s->nps + 1))
            goto nomem;
        gtr_snapshot_resource *p = &s->ps[s->nps++];
        *p = (gtr_snapshot_resource){id, st.status, st.seq_gen, st.seq, 0, {0}};
        p->nranges = (uint8_t)gtr__ordering_ranges(o, true, id, p->ranges, GTR_SNAPSHOT_RANGES);
    }
    gtr__ordering_summary sum = gtr__ordering_summary_of(o);
    s->gc_running = sum.gc_running;
    s->gc_seq = sum.gc_seq;
    *out = s;
    return GTR_OK;
nomem:
    gtr_snapshot_free(s);
    return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
}

uint64_t gtr_snapshot_generation(const gtr_snapshot *s)
{
    return s != NULL ? s->gen : 0;
}

size_t gtr_snapshot_nthreads(const gtr_snapshot *s)
{
    return s != NULL ? s->nthreads : 0;
}

const gtr_snapshot_thread *gtr_snapshot_thread_at(const gtr_snapshot *s, size_t i)
{
    return s != NULL && i < s->nthreads ? &s->threads[i] : NULL;
}

size_t gtr_snapshot_ngoroutines(const gtr_snapshot *s)
{
    return s != NULL ? s->ngs : 0;
}

const gtr_snapshot_resource *gtr_snapshot_goroutine_at(const gtr_snapshot *s, size_t i)
{
    return s != NULL && i < s->ngs ? &s->gs[i] : NULL;
}

size_t gtr_snapshot_nprocs(const gtr_snapshot *s)
{
    return s != NULL ? s->nps : 0;
}

const gtr_snapshot_resource *gtr_snapshot_proc_at(const gtr_snapshot *s, size_t i)
{
    return s != NULL && i < s->nps ? &s->ps[i] : NULL;
}

bool gtr_snapshot_gc(const gtr_snapshot *s, uint64_t *seq)
{
    if (s == NULL)
        return false;
    if (seq != NULL)
        *seq = s->gc_seq;
    return s->gc_running;
}

void gtr_snapshot_free(gtr_snapshot *s)
{
    if (s == NULL)
        return;
    gtr__free(s->alc, s->threads);
    gtr__free(s->alc, s->gs);
    gtr__free(s->alc, s->ps);
    gtr__free(s->alc, s);
}
