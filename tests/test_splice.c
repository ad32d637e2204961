/* SPDX-License-Identifier: BSD-3-Clause */
/* test_splice.c: the structure-aware mutator's splice operator (gtr_fs_splice, splice.c): a
 * scheduler-model generation or model batches spliced into an input, for every version the
 * model writes. The output is deterministic per seed, decodes whole with tracedit (every size
 * recomputed), holds the spliced generation or batches, fits max_size, and the consistent
 * splices validate; old v1 inputs and bytes that are not a trace are left to other operators. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tgen/fixture.h"
#include "tgen/judge.h"
#include "tracedit.h"
#include "fs/mutate.h"
#include "sha256.h"

#define UPSTREAM GTR_SOURCE_DIR "/corpus/upstream/"
#define REAL GTR_SOURCE_DIR "/corpus/real/"
#define MAX_OUT (1u << 20)
#define ROUNDS 60   /* splices per seed */

/* One seed per version the model writes, and a multi-generation one. */
static const char *const seed_paths[] = {
    UPSTREAM "go122-annotations.test",                 /* go1.22 */
    UPSTREAM "go122-task-across-generations.test",     /* go1.22, 2 generations */
    REAL "go1.23-testprog-annotations-stress.trace.gz",
    REAL "go1.25-testprog-annotations-stress.trace.gz",
    REAL "testprog-annotations.trace.gz",              /* go1.26 format (Go 1.27) */
};
#define NSEEDS (sizeof seed_paths / sizeof seed_paths[0])

static gtr_buf seeds[NSEEDS];
static uint8_t *out, *out2;

static int setup(void **state)
{
    (void)state;
    for (size_t i = 0; i < NSEEDS; i++) {
        gtr_err err = GTR_ERR_INIT;
        if (tgen_load_trace(seed_paths[i], &seeds[i], NULL, &err) < 0) {
            fprintf(stderr, "%s: %s\n", seed_paths[i], gtr_err_text(&err, NULL));
            gtr_err_clear(&err);
            return -1;
        }
    }
    out = malloc(MAX_OUT);
    out2 = malloc(MAX_OUT);
    return out != NULL && out2 != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < NSEEDS; i++)
        gtr_buf_free(&seeds[i]);
    free(out);
    free(out2);
    return 0;
}

static const uint8_t *sd(size_t i)
{
    return (const uint8_t *)seeds[i].data;
}

/* shape: generations (runs of body batches of one number) and body batches of a trace that
 * must decode whole (a v2 header, no undecodable tail anywhere). */
typedef struct shape {
    size_t gens, batches;
} shape;

static shape shape_of(const uint8_t *d, size_t n)
{
    tracedit_trace t;
    shape sh = {0, 0};
    memset(&t, 0, sizeof t);
    assert_int_equal(tracedit_decode(&t, d, n, NULL), GTR_OK);
    assert_true(t.has_header);
    assert_int_equal(t.tail_len, 0);
    uint64_t last = 0;
    bool open = false;
    for (size_t b = 0; b < t.nbatches; b++) {
        const tracedit_batch *bt = &t.batches[b];
        assert_int_equal(bt->tail_len, 0);
        if (bt->kind == GTR_EV_END_OF_GENERATION) {
            open = false;
            continue;
        }
        sh.batches++;
        if (!open || bt->gen != last)
            sh.gens++;
        open = true;
        last = bt->gen;
    }
    tracedit_trace_free(&t);
    return sh;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool valid(const uint8_t *d, size_t n)
{
    tgen_verdict v;
    bool ok = tgen_judge(d, n, NULL, NULL, &v) == GTR_OK && tgen_verdict_clean(&v);
    tgen_verdict_free(&v);
    return ok;
}

static void test_splice_same_seed_same_output(void **state)
{
    (void)state;
    gtr_fs_mutator *a = gtr_fs_mutator_new(NULL), *b = gtr_fs_mutator_new(NULL);
    size_t differ = 0;
    for (size_t i = 0; i < NSEEDS; i++) {
        size_t prev = 0;
        for (uint64_t seed = 1; seed <= 20; seed++) {
            size_t n = gtr_fs_splice(a, sd(i), seeds[i].len, MAX_OUT, seed, out);
            size_t m = gtr_fs_splice(b, sd(i), seeds[i].len, MAX_OUT, seed, out2);
            assert_int_not_equal(n, 0);
            assert_int_equal(n, m);
            assert_memory_equal(out, out2, n);
            assert_string_equal(gtr_fs_mutator_last_op(a), gtr_fs_mutator_last_op(b));
            differ += n != prev;
            prev = n;
        }
    }
    assert_true(differ > NSEEDS * 10);   /* and other seeds give other traces */
    gtr_fs_mutator_free(a);
    gtr_fs_mutator_free(b);
}

/* The splices of the seeds, 20 seeds each, pinned by their SHA-256: the output depends on the
 * seed alone, never on the compiler (each draw of the splice's generator is its own statement:
 * the order in which a function's arguments are evaluated is the compiler's choice, and
 * gcc's and clang's differ). A deliberate change to what splice.c draws changes the hash:
 * then pin the new one, as every mutant a seed gives changes with it. */
#define PINNED_SPLICES "7d8e44a7b3454c0e4018db47f547e3a7a563ffdc044d5081205f8715df6285ff"
static void test_splice_output_is_the_same_whatever_the_compiler(void **state)
{
    (void)state;
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    sha256_ctx c;
    char sum[65];
    sha256_init(&c);
    for (size_t i = 0; i < NSEEDS; i++) {
        for (uint64_t seed = 1; seed <= 20; seed++) {
            size_t n = gtr_fs_splice(m, sd(i), seeds[i].len, MAX_OUT, seed, out);
            sha256_update_sized(&c, out, n);
        }
    }
    sha256_final_hex(&c, sum);
    assert_string_equal(sum, PINNED_SPLICES);
    gtr_fs_mutator_free(m);
}

/* Every splice decodes whole and holds what it spliced: one more generation for a
 * generation splice, as many generations and more batches for a batch splice. Every kind
 * is drawn, for every version. */
static void test_splice_output_decodes_and_holds_the_splice(void **state)
{
    (void)state;
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    for (size_t i = 0; i < NSEEDS; i++) {
        shape in = shape_of(sd(i), seeds[i].len);
        size_t gen_kinds = 0, batch_kinds = 0;
        for (uint64_t seed = 0; seed < ROUNDS; seed++) {
            size_t n = gtr_fs_splice(m, sd(i), seeds[i].len, MAX_OUT, seed, out);
            assert_int_not_equal(n, 0);
            shape sh = shape_of(out, n);
            const char *kind = gtr_fs_mutator_last_op(m);
            if (starts_with(kind, "splice_gen_")) {
                gen_kinds++;
                assert_int_equal(sh.gens, in.gens + 1);
                assert_true(sh.batches > in.batches);
            } else {
                assert_true(starts_with(kind, "splice_batches_"));
                batch_kinds++;
                assert_int_equal(sh.gens, in.gens);
                assert_true(sh.batches > in.batches);
            }
        }
        assert_true(gen_kinds > ROUNDS / 5);
        assert_true(batch_kinds > ROUNDS / 5);
    }
    gtr_fs_mutator_free(m);
}

/* The consistent splices (kinds without "_raw") are meant to stay legal: nearly all of them
 * pass the reader and the validator. The inconsistent ones are meant to break. */
static void test_splice_consistent_splices_validate(void **state)
{
    (void)state;
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    size_t cons = 0, cons_ok = 0, raw = 0, raw_ok = 0;
    for (size_t i = 0; i < NSEEDS; i++) {
        for (uint64_t seed = 0; seed < ROUNDS; seed++) {
            size_t n = gtr_fs_splice(m, sd(i), seeds[i].len, MAX_OUT, seed, out);
            bool is_raw = strstr(gtr_fs_mutator_last_op(m), "_raw") != NULL, ok = valid(out, n);
            cons += !is_raw;
            cons_ok += !is_raw && ok;
            raw += is_raw;
            raw_ok += is_raw && ok;
        }
    }
    assert_true(cons > 0 && raw > 0);
    assert_true(cons_ok * 100 >= cons * 90);
    assert_true(raw_ok * 100 <= raw * 50);
    gtr_fs_mutator_free(m);
}

/* The result fits max_size whatever it is; a max_size too small for any model trace makes the
 * splice not apply. */
static void test_splice_output_fits_max_size(void **state)
{
    (void)state;
    static const size_t caps[] = {64, 700, 2000, 6000, 20000};
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    for (size_t i = 0; i < NSEEDS; i++) {
        for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
            for (uint64_t seed = 0; seed < 10; seed++) {
                memset(out, 0xAA, MAX_OUT);
                size_t n = gtr_fs_splice(m, sd(i), seeds[i].len, caps[c], seed, out);
                assert_true(n <= caps[c]);
                assert_int_equal(out[caps[c]], 0xAA);   /* nothing written past max_size */
                if (caps[c] == 64)
                    assert_int_equal(n, 0);   /* no model trace is that small */
            }
        }
    }
    gtr_fs_mutator_free(m);
}

/* Old-format traces (no v2 header) and bytes that are not a trace: the splice does not apply,
 * and the mutator falls back to its byte mutations for them. */
static void test_splice_v1_and_garbage_inputs_do_not_apply(void **state)
{
    (void)state;
    gtr_buf old = {0};
    gtr_err err = GTR_ERR_INIT;
    assert_true(tgen_load_trace(GTR_SOURCE_DIR "/corpus/old/go1.19-annotations.trace.gz", &old,
                                NULL, &err) >= 0);
    static const uint8_t garbage[] = "not a Go trace\x01\x02\x03";
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    for (uint64_t seed = 0; seed < 20; seed++) {
        assert_int_equal(gtr_fs_splice(m, (const uint8_t *)old.data, old.len, MAX_OUT, seed, out),
                         0);
        assert_string_equal(gtr_fs_mutator_last_op(m), "none");
        assert_int_equal(gtr_fs_splice(m, garbage, sizeof garbage, MAX_OUT, seed, out), 0);
        assert_int_equal(gtr_fs_splice(m, garbage, 0, MAX_OUT, seed, out), 0);
        size_t n = gtr_fs_mutate(m, (const uint8_t *)old.data, old.len, MAX_OUT, seed, out);
        assert_true(n >= 1 && n <= MAX_OUT);
        assert_string_equal(gtr_fs_mutator_last_op(m), "bytes");
    }
    gtr_fs_mutator_free(m);
    gtr_buf_free(&old);
}

/* Inputs the other operators have already mangled (the fuzzer's usual case): the splice
 * never fails to produce a well-framed trace within max_size when it applies. */
static void test_splice_survives_mutated_inputs(void **state)
{
    (void)state;
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    size_t applied = 0;
    for (uint64_t seed = 0; seed < 400; seed++) {
        size_t i = seed % NSEEDS, n = seeds[i].len;
        memcpy(out2, sd(i), n);
        for (uint64_t k = 0; k < 1 + seed % 4; k++)
            n = gtr_fs_mutate(m, out2, n, MAX_OUT, seed * 31 + k, out2);
        size_t max = seed % 2 ? MAX_OUT : 1 + n + seed * 37 % 5000;
        size_t r = gtr_fs_splice(m, out2, n, max, seed, out);
        assert_true(r <= max);
        if (r == 0)
            continue;
        applied++;
        tracedit_trace t;
        memset(&t, 0, sizeof t);
        assert_int_equal(tracedit_decode(&t, out, r, NULL), GTR_OK);
        tracedit_trace_free(&t);
        valid(out, r);   /* the reader and validator may refuse it, never crash on it */
    }
    assert_true(applied > 100);
    gtr_fs_mutator_free(m);
}

/* A header and nothing else (or bytes past it that do not decode): the splice adds a model
 * generation. */
static void test_splice_header_only_input_gets_a_generation(void **state)
{
    (void)state;
    static const uint8_t header[] = "go 1.23 trace\0\0\0";
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    for (uint64_t seed = 0; seed < 10; seed++) {
        size_t n = gtr_fs_splice(m, header, sizeof header - 1, MAX_OUT, seed, out);
        assert_int_not_equal(n, 0);
        assert_string_equal(gtr_fs_mutator_last_op(m), "splice_gen_before");
        assert_int_equal(shape_of(out, n).gens, 1);
        assert_true(valid(out, n));
    }
    gtr_fs_mutator_free(m);
}

/* gtr_fs_mutate draws splice among its operators, and names it for the engines; not with
 * no_splice. */
static void test_splice_drawn_by_the_mutator(void **state)
{
    (void)state;
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    size_t found = 0;
    for (uint64_t seed = 0; seed < 3000 && found == 0; seed++) {
        size_t i = seed % NSEEDS;
        gtr_fs_mutate(m, sd(i), seeds[i].len, MAX_OUT, seed, out);
        found += strcmp(gtr_fs_mutator_last_op(m), "splice") == 0;
    }
    assert_true(found > 0);
    bool named = false;
    for (size_t i = 0; i < gtr_fs_op_count(); i++)
        named |= strcmp(gtr_fs_op_name(i), "splice") == 0;
    assert_true(named);
    gtr_fs_mutator_free(m);
    /* ... unless told to leave it out. */
    gtr_fs_options opt = {.no_splice = true};
    m = gtr_fs_mutator_new(&opt);
    for (uint64_t seed = 0; seed < 3000; seed++) {
        size_t i = seed % NSEEDS;
        gtr_fs_mutate(m, sd(i), seeds[i].len, MAX_OUT, seed, out);
        assert_string_not_equal(gtr_fs_mutator_last_op(m), "splice");
    }
    gtr_fs_mutator_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_splice_same_seed_same_output),
        cmocka_unit_test(test_splice_output_is_the_same_whatever_the_compiler),
        cmocka_unit_test(test_splice_output_decodes_and_holds_the_splice),
        cmocka_unit_test(test_splice_consistent_splices_validate),
        cmocka_unit_test(test_splice_output_fits_max_size),
        cmocka_unit_test(test_splice_v1_and_garbage_inputs_do_not_apply),
        cmocka_unit_test(test_splice_survives_mutated_inputs),
        cmocka_unit_test(test_splice_header_only_input_gets_a_generation),
        cmocka_unit_test(test_splice_drawn_by_the_mutator),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
