/* SPDX-License-Identifier: BSD-3-Clause */
/* test_mutator.c: the structure-aware mutator (fuzz/structure/include/fs/mutate.h). */
#include <dlfcn.h>
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

/* Seeds that validate (Go's own fixtures with a SUCCESS expectation and small real traces). */
static const char *const seed_paths[] = {
    UPSTREAM "go122-annotations.test",
    UPSTREAM "go122-confuse-seq-across-generations.test",
    UPSTREAM "go122-create-syscall-reuse-thread-id.test",
    UPSTREAM "go122-syscall-steal-proc-simple.test",
    UPSTREAM "go122-task-across-generations.test",
    UPSTREAM "go123-sync.test",
    UPSTREAM "go125-sync.test",
    REAL "testprog-annotations.trace.gz",
    REAL "testprog-many-start-stop.trace.gz",
    REAL "testprog-wait-on-pipe.trace.gz",
};
#define NSEEDS (sizeof seed_paths / sizeof seed_paths[0])

static gtr_buf seeds[NSEEDS];

static int setup(void **state)
{
    (void)state;
    for (size_t i = 0; i < NSEEDS; i++) {
        gtr_err err = GTR_ERR_INIT;
        if (tgen_load_trace(seed_paths[i], &seeds[i], NULL, &err) < 0) {
            fprintf(stderr, "%s: %s\n", seed_paths[i], err.msg);
            return -1;
        }
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < NSEEDS; i++)
        gtr_buf_free(&seeds[i]);
    return 0;
}

static const uint8_t *sd(size_t i)
{
    return (const uint8_t *)seeds[i % NSEEDS].data;
}

static size_t sz(size_t i)
{
    return seeds[i % NSEEDS].len;
}

static void test_mutator_seeds_validate(void **state)
{
    (void)state;
    for (size_t i = 0; i < NSEEDS; i++) {
        tgen_verdict r;
        gtr_status st = tgen_judge(sd(i), sz(i), NULL, NULL, &r) == GTR_OK && tgen_verdict_clean(&r) ? GTR_OK : GTR_E_INVALID;
        if (st != GTR_OK)
            fail_msg("%s: %s%s", seed_paths[i], r.end_err.msg, r.valid_err.msg);
        tgen_verdict_free(&r);
    }
}

static void test_mutator_same_seed_same_output(void **state)
{
    gtr_fs_mutator *m1 = gtr_fs_mutator_new(NULL), *m2 = gtr_fs_mutator_new(NULL);
    static uint8_t o1[1 << 16], o2[1 << 16];
    (void)state;
    size_t differ = 0;
    for (uint64_t s = 0; s < 300; s++) {
        size_t n1 = gtr_fs_mutate(m1, sd(s), sz(s), sizeof o1, s, o1);
        /* m2 runs another mutation first: no state may leak between calls. */
        gtr_fs_mutate(m2, sd(s + 1), sz(s + 1), sizeof o2, s + 12345, o2);
        size_t n2 = gtr_fs_mutate(m2, sd(s), sz(s), sizeof o2, s, o2);
        assert_int_equal(n1, n2);
        assert_memory_equal(o1, o2, n1);
        differ += n1 != sz(s) || memcmp(o1, sd(s), n1) != 0;
    }
    assert_true(differ > 270);   /* mutants differ from their seed */
    gtr_fs_mutator_free(m1);
    gtr_fs_mutator_free(m2);
}

/* 1,000 mutants of the seeds, with dictionary values, pinned by their SHA-256: a mutant depends
 * on its seed alone, never on the compiler (no two draws of the generator in one expression
 * whose order of evaluation is unspecified: a call's arguments, the two sides of `=`, `+` or
 * `>>`). A deliberate change to what an operator draws changes the hash: then pin the new one,
 * as every mutant a seed gives changes with it. */
#define PINNED_MUTANTS "3f1f22b9d72fd8d8c226873d4991c6e0cb6d3c84097a0b40553b4ac770b9c823"
static void test_mutator_output_is_the_same_whatever_the_compiler(void **state)
{
    static const uint64_t values[] = {0, 1, 2, 7, 64, 1000, 65535, 1u << 20};
    gtr_fs_options opt = {.values = values, .nvalues = sizeof values / sizeof values[0]};
    gtr_fs_mutator *m = gtr_fs_mutator_new(&opt);
    static uint8_t o[1 << 16];
    sha256_ctx c;
    char sum[65];
    (void)state;
    sha256_init(&c);
    for (uint64_t s = 0; s < 1000; s++) {
        size_t n = gtr_fs_mutate(m, sd(s), sz(s), sizeof o, s, o);
        sha256_update_sized(&c, o, n);
    }
    sha256_final_hex(&c, sum);
    assert_string_equal(sum, PINNED_MUTANTS);
    gtr_fs_mutator_free(m);
}

static void test_mutator_output_fits_max_size(void **state)
{
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    uint8_t *out = malloc(1 << 16);
    (void)state;
    static const size_t caps[] = {1, 2, 16, 17, 40, 100, 1000, 4096};
    for (uint64_t s = 0; s < 400; s++) {
        size_t cap = caps[s % (sizeof caps / sizeof caps[0])];
        /* Exact-size buffer: ASan catches any write past cap. */
        uint8_t *o = malloc(cap);
        size_t n = gtr_fs_mutate(m, sd(s), sz(s), cap, s, o);
        assert_in_range(n, 1, cap);
        free(o);
        n = gtr_fs_crossover(m, sd(s), sz(s), sd(s + 3), sz(s + 3), cap, s, out);
        assert_in_range(n, 1, cap);
    }
    free(out);
    gtr_fs_mutator_free(m);
}

static void test_mutator_garbage_and_empty_inputs_survive(void **state)
{
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    uint8_t in[512], out[1024];
    uint64_t x = 0x123456789abcdefULL;
    (void)state;
    assert_int_equal(gtr_fs_mutate(m, in, 0, sizeof out, 1, out) >= 1, 1);
    for (int r = 0; r < 3000; r++) {
        size_t n = (size_t)(r % 512);
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            in[i] = (uint8_t)((x & 1) ? x % 60 : x >> 24);
        }
        if (r % 2 && n >= 16)
            memcpy(in, r % 4 == 1 ? "go 1.22 trace\0\0\0" : "go 1.26 trace\0\0\0", 16);
        size_t k = gtr_fs_mutate(m, in, n, sizeof out, (uint64_t)r, out);
        assert_in_range(k, 1, sizeof out);
        /* The mutant feeds the next round, as in a fuzzing loop. */
        k = gtr_fs_mutate(m, out, k, sizeof out, (uint64_t)r + 1, out);
        assert_in_range(k, 1, sizeof out);
        k = gtr_fs_crossover(m, in, n, out, k, sizeof in, (uint64_t)r, in);
        (void)k;
    }
    gtr_fs_mutator_free(m);
}

/* The goal of structure awareness: at least 40% of mutants pass full validation. */
static void test_mutator_valid_rate_at_least_40_percent(void **state)
{
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    uint8_t *out = malloc(1 << 20);
    size_t valid = 0, n = 600;
    (void)state;
    for (size_t i = 0; i < n; i++) {
        size_t k = gtr_fs_mutate(m, sd(i), sz(i), 1 << 20, 1000 + i, out);
        tgen_verdict r;
        valid += tgen_judge(out, k, NULL, NULL, &r) == GTR_OK && tgen_verdict_clean(&r);
        tgen_verdict_free(&r);
    }
    print_message("valid mutants: %zu/%zu\n", valid, n);
    assert_true(valid * 100 >= n * 40);
    free(out);
    gtr_fs_mutator_free(m);
}

static size_t hook_calls;

static size_t count_hook(void *ctx, uint8_t *data, size_t size, size_t max_size)
{
    (void)ctx;
    (void)max_size;
    hook_calls++;
    if (size > 0)
        data[size - 1] ^= 0x55;
    return size;
}

static void test_mutator_byte_share_goes_through_engine_hook(void **state)
{
    gtr_fs_options opt = {.byte_mutate = count_hook, .byte_percent = 100};
    gtr_fs_mutator *m = gtr_fs_mutator_new(&opt);
    uint8_t out[1 << 16];
    (void)state;
    hook_calls = 0;
    for (uint64_t s = 0; s < 50; s++) {
        size_t k = gtr_fs_mutate(m, sd(s), sz(s), sizeof out, s, out);
        assert_int_equal(k, sz(s));
        assert_int_equal(out[k - 1], sd(s)[k - 1] ^ 0x55);
        assert_string_equal(gtr_fs_mutator_last_op(m), "bytes");
    }
    assert_int_equal(hook_calls, 50);
    gtr_fs_mutator_free(m);
}

static void test_mutator_crossover_generation_splice_reads(void **state)
{
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    uint8_t *out = malloc(1 << 20);
    size_t gen_ok = 0, gen_n = 0;
    (void)state;
    for (uint64_t s = 0; s < 200; s++) {
        /* Cross a multi-generation trace with itself. */
        size_t k = gtr_fs_crossover(m, sd(1), sz(1), sd(1), sz(1), 1 << 20, s, out);
        tracedit_trace t = {0};
        assert_int_equal(tracedit_decode(&t, out, k, NULL), GTR_OK);
        assert_true(t.has_header);
        assert_int_equal(t.tail_len, 0);
        tracedit_trace_free(&t);
        if (strcmp(gtr_fs_mutator_last_op(m), "crossover_gen") == 0) {
            tgen_verdict r;
            gen_n++;
            gen_ok += tgen_judge(out, k, NULL, NULL, &r) == GTR_OK && r.end == TGEN_END_EOF;
            tgen_verdict_free(&r);
        }
    }
    assert_true(gen_n > 50);
    print_message("generation-aligned crossovers that read: %zu/%zu\n", gen_ok, gen_n);
    assert_true(gen_ok > 0);
    free(out);
    gtr_fs_mutator_free(m);
}

/* The AFL++ custom mutator shared object: load it as afl-fuzz does and drive its hooks. */
static void test_mutator_afl_shared_object_fuzzes_and_trims(void **state)
{
    void *so = dlopen(GTR_BINARY_DIR "/lib/libgtr_fs_afl.so", RTLD_NOW | RTLD_LOCAL);
    (void)state;
    if (so == NULL)
        fail_msg("dlopen: %s", dlerror());
    void *(*init)(void *, unsigned);
    size_t (*fuzz)(void *, uint8_t *, size_t, uint8_t **, uint8_t *, size_t, size_t);
    int32_t (*init_trim)(void *, uint8_t *, size_t);
    size_t (*trim)(void *, uint8_t **);
    int32_t (*post_trim)(void *, unsigned char);
    const char *(*describe)(void *, size_t);
    void (*deinit)(void *);
    /* POSIX's way to store a dlsym result in a function pointer. */
#define SYM(var, name) (*(void **)&(var) = dlsym(so, name))
    SYM(init, "afl_custom_init");
    SYM(fuzz, "afl_custom_fuzz");
    SYM(init_trim, "afl_custom_init_trim");
    SYM(trim, "afl_custom_trim");
    SYM(post_trim, "afl_custom_post_trim");
    SYM(describe, "afl_custom_describe");
    SYM(deinit, "afl_custom_deinit");
#undef SYM
    assert_non_null(init);
    assert_non_null(fuzz);
    assert_non_null(init_trim);
    assert_non_null(trim);
    assert_non_null(post_trim);
    assert_non_null(describe);
    assert_non_null(deinit);
    void *st = init(NULL, 7);
    assert_non_null(st);
    uint8_t *buf = malloc(sz(1)), *out = NULL;
    memcpy(buf, sd(1), sz(1));
    size_t valid = 0;
    for (int i = 0; i < 100; i++) {
        size_t n = fuzz(st, buf, sz(1), &out, i % 8 == 0 ? buf : NULL, sz(1), 1 << 16);
        assert_in_range(n, 1, 1 << 16);
        assert_non_null(out);
        assert_true(strlen(describe(st, 32)) > 0);
        tgen_verdict r;
        valid += tgen_judge(out, n, NULL, NULL, &r) == GTR_OK && tgen_verdict_clean(&r);
        tgen_verdict_free(&r);
    }
    assert_true(valid > 30);
    /* Trim, accepting every candidate that is no bigger: ends with an empty trace. */
    int32_t steps = init_trim(st, buf, sz(1));
    assert_true(steps > 0);
    size_t last = sz(1);
    for (int32_t k = 0; k < steps;) {
        size_t n = trim(st, &out);
        assert_true(n <= last);
        last = n;
        k = post_trim(st, 1);
    }
    assert_int_equal(last, 16);   /* only the header is left */
    deinit(st);
    free(buf);
    dlclose(so);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mutator_seeds_validate),
        cmocka_unit_test(test_mutator_same_seed_same_output),
        cmocka_unit_test(test_mutator_output_is_the_same_whatever_the_compiler),
        cmocka_unit_test(test_mutator_output_fits_max_size),
        cmocka_unit_test(test_mutator_garbage_and_empty_inputs_survive),
        cmocka_unit_test(test_mutator_valid_rate_at_least_40_percent),
        cmocka_unit_test(test_mutator_byte_share_goes_through_engine_hook),
        cmocka_unit_test(test_mutator_crossover_generation_splice_reads),
        cmocka_unit_test(test_mutator_afl_shared_object_fuzzes_and_trims),
    };
    return cmocka_run_group_tests_name("mutator", tests, setup, teardown);
}
