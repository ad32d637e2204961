/* SPDX-License-Identifier: BSD-3-Clause */
/* test_mutator_ops.c: the structure-aware mutator's value-level and boundary operators
 * (fuzz/structure/ops_*.c: arg_cmp, stack_depth, ref_edge, truncate) do what the fuzzers
 * rely on: a decoded argument reaches the engine's byte mutator as 8 little-endian bytes and
 * comes back as the argument; stacks reach the format's frame-count limit and its
 * neighbours; frames name the last string ID and the one past it; outputs get cut short. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tgen/fixture.h"
#include "tracedit.h"
#include "fs/mutate.h"
#include "gtr/spec.h"

#define SEED GTR_SOURCE_DIR "/corpus/upstream/go122-annotations.test"
#define MAX_OUT (1u << 20)
#define ROUNDS 4000

/* A stand-in for LLVMFuzzerMutate: records 8-byte calls and writes a marker value there. */
#define MARKER UINT64_C(0x0123456789ABCDEF)
static unsigned value_calls;

static size_t marker_mutate(void *ctx, uint8_t *d, size_t size, size_t max)
{
    (void)ctx;
    (void)max;
    if (size == 8) {
        value_calls++;
        for (int i = 0; i < 8; i++)
            d[i] = (uint8_t)(MARKER >> (8 * i));
    } else if (size > 0) {
        d[size - 1] ^= 1;
    }
    return size;
}

typedef struct stats {
    unsigned marker_args;    /* outputs with an argument equal to MARKER */
    unsigned deep_stacks;    /* outputs with a stack of 101..128 frames */
    unsigned limit_stacks;   /* ... of exactly GTR_MAX_FRAMES_PER_STACK frames */
    unsigned edge_frames;    /* outputs with a frame naming max string ID + 1 */
    unsigned cut;            /* outputs that do not decode as whole batches */
} stats;

static void inspect(const uint8_t *d, size_t n, stats *s)
{
    tracedit_trace t;
    memset(&t, 0, sizeof t);
    assert_int_equal(tracedit_decode(&t, d, n, NULL), GTR_OK);
    bool marker = false, deep = false, limit = false, edge = false;
    for (size_t b = 0; b < t.nbatches; b++) {
        const tracedit_batch *bt = &t.batches[b];
        /* The generation's last string ID. */
        uint64_t max_string = 0;
        for (size_t x = 0; x < t.nbatches; x++) {
            if (t.batches[x].gen != bt->gen)
                continue;
            for (size_t i = 0; i < t.batches[x].nev; i++) {
                const tracedit_event *e = &t.events[t.batches[x].evs[i]];
                if (e->type == GTR_EV_STRING && e->nargs >= 1 && t.vals[e->args] > max_string)
                    max_string = t.vals[e->args];
            }
        }
        for (size_t i = 0; i < bt->nev; i++) {
            const tracedit_event *e = &t.events[bt->evs[i]];
            const uint64_t *a = t.vals + e->args;
            for (uint32_t k = 0; k < e->nargs; k++)
                marker |= a[k] == MARKER;
            if (e->type == GTR_EV_STACK && e->nargs >= 2) {
                uint32_t nfr = (e->nargs - 2) / 4;
                deep |= nfr > 100 && nfr <= GTR_MAX_FRAMES_PER_STACK;
                limit |= nfr == GTR_MAX_FRAMES_PER_STACK;
                for (uint32_t f = 0; f < nfr; f++)
                    edge |= a[3 + 4 * f] == max_string + 1 || a[4 + 4 * f] == max_string + 1;
            }
        }
    }
    s->marker_args += marker;
    s->deep_stacks += deep;
    s->limit_stacks += limit;
    s->edge_frames += edge;
    s->cut += t.tail_len > 0 || (t.nbatches > 0 && t.batches[t.nbatches - 1].tail_len > 0);
    tracedit_trace_free(&t);
}

static void test_mutator_ops_reach_values_and_boundaries(void **state)
{
    (void)state;
    gtr_buf seed = {0};
    gtr_err err = GTR_ERR_INIT;
    assert_true(tgen_load_trace(SEED, &seed, NULL, &err) >= 0);
    gtr_fs_options opt = {.byte_mutate = marker_mutate};
    gtr_fs_mutator *m = gtr_fs_mutator_new(&opt);
    assert_non_null(m);
    uint8_t *out = malloc(MAX_OUT);
    assert_non_null(out);
    stats s = {0};
    unsigned cmp_ops = 0;
    for (uint64_t i = 0; i < ROUNDS; i++) {
        size_t n = gtr_fs_mutate(m, (const uint8_t *)seed.data, seed.len, MAX_OUT, i, out);
        cmp_ops += strcmp(gtr_fs_mutator_last_op(m), "arg_cmp") == 0;
        inspect(out, n, &s);
    }
    print_message("arg_cmp %u (8-byte calls %u, marker outputs %u), deep stacks %u "
                  "(128 frames: %u), edge frames %u, cut %u of %d\n",
                  cmp_ops, value_calls, s.marker_args, s.deep_stacks, s.limit_stacks,
                  s.edge_frames, s.cut, ROUNDS);
    /* Each property shows up in a fair share of the rounds, not once by accident. */
    assert_true(cmp_ops > 0 && value_calls >= cmp_ops);
    assert_true(s.marker_args >= cmp_ops / 2);
    assert_true(s.deep_stacks >= 10);
    assert_true(s.limit_stacks >= 3);
    assert_true(s.edge_frames >= 10);
    assert_true(s.cut >= 5);
    free(out);
    gtr_fs_mutator_free(m);
    gtr_buf_free(&seed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mutator_ops_reach_values_and_boundaries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
