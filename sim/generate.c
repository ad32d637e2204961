/* SPDX-License-Identifier: BSD-3-Clause */
/* generate.c: gsim_generate, a model run into memory with a cap on its size (sim.h). */
#include "gsim/sim.h"

typedef struct capped {
    gtr_buf *buf;
    size_t max;   /* 0: no cap */
} capped;

static gtr_status capped_append(void *ctx, const void *data, size_t n, gtr_err *err)
{
    capped *c = ctx;
    if (c->max > 0 && n > c->max - c->buf->len)
        return gtr_err_setf(err, GTR_E_LIMIT, "gsim: trace exceeds %zu bytes", c->max);
    if (gtr_buf_append(c->buf, data, n) < 0)
        return gtr_err_setf(err, GTR_E_NOMEM, "gsim: out of memory");
    return GTR_OK;
}

gtr_status gsim_generate(const gsim_config *c, gsim_choice ch, const gtr_alloc *alc,
                         size_t max_bytes, gtr_buf *out, gsim_stats *stats, gtr_err *err)
{
    gsim *s;
    gtr_status st;
    size_t start = out->len;
    capped cp = {out, max_bytes > 0 ? start + max_bytes : 0};
    gtr_sink sink = {capped_append, &cp};
    if (max_bytes > 0 && start + max_bytes < start)
        cp.max = 0;   /* no cap can be passed */
    if ((st = gsim_new(c, ch, alc, &s, err)) < 0)
        return st;
    st = gsim_run(s, sink, NULL, NULL, err);
    if (stats != NULL)
        gsim_get_stats(s, stats);
    gsim_free(s);
    if (st < 0)
        out->len = start;   /* nothing of a failed run is kept */
    return st;
}
