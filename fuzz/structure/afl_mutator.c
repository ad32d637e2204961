/* SPDX-License-Identifier: BSD-3-Clause */
/* afl_mutator.c: the structure-aware mutator as an AFL++ custom mutator shared object
 * (AFL_CUSTOM_MUTATOR_LIBRARY=.../libgtr_fs_afl.so). Built uninstrumented. Besides fuzz it
 * implements describe and a structure-preserving trim (init_trim/trim/post_trim) that drops
 * whole batches, then single events, re-encoding with sizes recomputed. One call in eight
 * with a second input (add_buf) is a batch-level crossover. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracedit.h"
#include "fs/mutate.h"

#define OUT_CAP (1u << 20)

typedef struct afl_state {
    gtr_fs_mutator *m;
    uint64_t seed;
    uint8_t *out;
    /* trimming */
    tracedit_trace base, cand;
    gtr_buf enc;
    size_t step, steps;   /* step < nbatches: drop batch; then events */
    size_t iter, total;   /* trim iterations done; the count init_trim announced */
} afl_state;

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
const char *afl_custom_describe(void *data, size_t max_description_len);
int32_t afl_custom_init_trim(void *data, uint8_t *buf, size_t buf_size);
size_t afl_custom_trim(void *data, uint8_t **out_buf);
int32_t afl_custom_post_trim(void *data, unsigned char success);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    afl_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    gtr_fs_options opt = {.byte_percent = 10};
    opt.no_splice = getenv("GTR_FS_NO_SPLICE") != NULL;
    uint64_t *values = NULL;
    const char *path = getenv("GTR_FS_VALUES");   /* a decoded-domain dictionary */
    if (path != NULL && gtr_fs_load_values(path, &values, &opt.nvalues))
        opt.values = values;
    s->m = gtr_fs_mutator_new(&opt);
    free(values);
    s->out = malloc(OUT_CAP);
    if (s->m == NULL || s->out == NULL) {
        gtr_fs_mutator_free(s->m);
        free(s->out);
        free(s);
        return NULL;
    }
    s->seed = seed;
    return s;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
    afl_state *s = data;
    size_t cap = max_size < OUT_CAP ? max_size : OUT_CAP, n;
    uint64_t seed = ++s->seed * 0x9e3779b97f4a7c15ULL;
    if (add_buf != NULL && add_buf_size > 0 && (seed >> 61) == 0)
        n = gtr_fs_crossover(s->m, buf, buf_size, add_buf, add_buf_size, cap, seed, s->out);
    else
        n = gtr_fs_mutate(s->m, buf, buf_size, cap, seed, s->out);
    if (n == 0) {   /* AFL++ needs a non-empty result */
        s->out[0] = buf_size ? buf[0] : 0;
        n = 1;
    }
    *out_buf = s->out;
    return n;
}

const char *afl_custom_describe(void *data, size_t max_description_len)
{
    afl_state *s = data;
    static char d[64];
    size_t n = max_description_len < sizeof d ? max_description_len : sizeof d;
    if (n == 0)
        return "";
    strncpy(d, gtr_fs_mutator_last_op(s->m), n - 1);
    d[n - 1] = '\0';
    return d;
}

static size_t nevents(const tracedit_trace *t)
{
    size_t n = 0;
    for (size_t b = 0; b < t->nbatches; b++)
        n += t->batches[b].nev;
    return n;
}

int32_t afl_custom_init_trim(void *data, uint8_t *buf, size_t buf_size)
{
    afl_state *s = data;
    if (tracedit_decode(&s->base, buf, buf_size, NULL) != GTR_OK || !s->base.has_header)
        return 0;
    s->step = s->iter = 0;
    s->steps = s->base.nbatches + nevents(&s->base);
    s->total = s->steps > INT32_MAX ? INT32_MAX : s->steps;
    return (int32_t)s->total;
}

/* candidate builds base minus the current step's batch or event. */
static void candidate(afl_state *s)
{
    tracedit_copy(&s->cand, &s->base, NULL);
    size_t k = s->step;
    if (k < s->cand.nbatches) {
        tracedit_remove_batch(&s->cand, k);
        return;
    }
    k -= s->cand.nbatches;
    for (size_t b = 0; b < s->cand.nbatches; b++) {
        if (k < s->cand.batches[b].nev) {
            tracedit_batch_remove(&s->cand, b, k);
            return;
        }
        k -= s->cand.batches[b].nev;
    }
}

size_t afl_custom_trim(void *data, uint8_t **out_buf)
{
    afl_state *s = data;
    candidate(s);
    gtr_buf_reset(&s->enc);
    tracedit_encode(&s->cand, &s->enc, NULL);
    size_t n = s->enc.len < OUT_CAP ? s->enc.len : OUT_CAP;
    memcpy(s->out, s->enc.data, n);
    *out_buf = s->out;
    return n;
}

int32_t afl_custom_post_trim(void *data, unsigned char success)
{
    afl_state *s = data;
    s->iter++;
    if (success) {
        /* Keep the smaller trace; the same step now names the next item. */
        tracedit_copy(&s->base, &s->cand, NULL);
        s->steps = s->base.nbatches + nevents(&s->base);
    } else {
        s->step++;
    }
    /* Each iteration removes an item or moves past one, so there are at most total of them.
     * AFL++ stops once the returned index reaches init_trim's count. */
    if (s->step >= s->steps || s->iter >= s->total)
        return (int32_t)s->total;
    return (int32_t)s->iter;
}

void afl_custom_deinit(void *data)
{
    afl_state *s = data;
    if (s == NULL)
        return;
    gtr_fs_mutator_free(s->m);
    tracedit_trace_free(&s->base);
    tracedit_trace_free(&s->cand);
    gtr_buf_free(&s->enc);
    free(s->out);
    free(s);
}
