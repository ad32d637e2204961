/* SPDX-License-Identifier: BSD-3-Clause */
/* test_mutator_table.c: every row of the structure-aware mutator's operator table
 * (fuzz/structure/mutate.c, gtr__fs_ops) works on its own: applied through
 * gtr__fs_apply_op to a set of seeds (Go fixtures of one and of several generations, and the
 * same fixtures with one batch split in two, where merge_batch has batches to merge), it
 * applies at least once, changes the trace at least once, and every result decodes with
 * tracedit and re-encodes to the same bytes (truncate's, cut short by design, are a shorter
 * prefix of the input re-encoded). The table's names are unique and are the names
 * gtr_fs_op_name gives, and every weight is above zero (gtr_fs_mutate can draw the row). So a
 * row cannot be lost, emptied or left unreachable without this failing.
 *
 * Inapplicable by design: splice in a build without the scheduler model (sim/); the test then
 * checks that it never applies. arg_dict needs a dictionary: the mutator is given one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mutator.h"
#include "tgen/fixture.h"

#define UPSTREAM GTR_SOURCE_DIR "/corpus/upstream/"
#define MAX_OUT (1u << 20)
#define SEEDS_PER_INPUT 12

static const char *const fixtures[] = {
    "go122-annotations.test",          /* tasks, regions, strings, stacks */
    "go122-annotations-stress.test",
    "go122-gc-stress.test",            /* several generations */
    "go122-task-across-generations.test",
    "go122-confuse-seq-across-generations.test",
    "go122-syscall-steal-proc-gen-boundary.test",
    "go123-sync.test",                 /* Sync batches */
    "go125-sync.test",
};
#define NFIXTURES (sizeof fixtures / sizeof fixtures[0])

typedef struct input {
    uint8_t *data;
    size_t size;
} input;

/* The seed set: the fixtures, then each with one batch split (split_batch's first result). */
typedef struct seed_set {
    input in[2 * NFIXTURES];
    size_t n;
} seed_set;

static size_t op_index(const char *name)
{
    for (size_t i = 0; i < gtr__fs_nops; i++)
        if (strcmp(gtr__fs_ops[i].name, name) == 0)
            return i;
    fail_msg("no operator %s in the table", name);
    return 0;
}

static void add_input(seed_set *s, const uint8_t *d, size_t n)
{
    s->in[s->n].data = malloc(n);
    assert_non_null(s->in[s->n].data);
    memcpy(s->in[s->n].data, d, n);
    s->in[s->n].size = n;
    s->n++;
}

static int setup(void **state)
{
    seed_set *s = calloc(1, sizeof *s);
    uint8_t *out = malloc(MAX_OUT);
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    assert_true(s != NULL && out != NULL && m != NULL);
    for (size_t f = 0; f < NFIXTURES; f++) {
        char path[512];
        gtr_buf b = {0};
        gtr_err err = GTR_ERR_INIT;
        snprintf(path, sizeof path, "%s%s", UPSTREAM, fixtures[f]);
        assert_true(tgen_load_trace(path, &b, NULL, &err) >= 0);
        add_input(s, (const uint8_t *)b.data, b.len);
        gtr_buf_free(&b);
    }
    size_t split = op_index("split_batch");
    for (size_t f = 0; f < NFIXTURES; f++) {
        for (uint64_t seed = 0; seed < 64; seed++) {
            size_t n = gtr__fs_apply_op(m, split, s->in[f].data, s->in[f].size, MAX_OUT, seed,
                                        out);
            if (n > 0) {
                add_input(s, out, n);
                break;
            }
        }
    }
    free(out);
    gtr_fs_mutator_free(m);
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    seed_set *s = *state;
    for (size_t i = 0; i < s->n; i++)
        free(s->in[i].data);
    free(s);
    return 0;
}

/* reencode: d[0..n) decoded by tracedit and encoded again into *b; false when it does not
 * decode as a v2 trace. */
static bool reencode(const uint8_t *d, size_t n, gtr_buf *b)
{
    tracedit_trace t;
    memset(&t, 0, sizeof t);
    gtr_buf_reset(b);
    bool ok = tracedit_decode(&t, d, n, NULL) == GTR_OK && t.has_header &&
              tracedit_encode(&t, b, NULL) == GTR_OK;
    tracedit_trace_free(&t);
    return ok;
}

/* well_formed: out re-encodes to itself; or, cut short on purpose, it is a shorter prefix of
 * the input re-encoded. */
static bool well_formed(const uint8_t *out, size_t n, bool cut, const input *in)
{
    gtr_buf b = {0};
    bool ok = cut ? reencode(in->data, in->size, &b) && n < b.len && memcmp(b.data, out, n) == 0
                  : reencode(out, n, &b) && b.len == n && memcmp(b.data, out, n) == 0;
    gtr_buf_free(&b);
    return ok;
}

static void test_mutator_table_every_operator_applies_and_yields_a_trace(void **state)
{
    const seed_set *s = *state;
    static const uint64_t values[] = {0, 1, 127, 128, 1u << 20};
    gtr_fs_options opt = {.values = values, .nvalues = sizeof values / sizeof values[0]};
    gtr_fs_mutator *m = gtr_fs_mutator_new(&opt);
    uint8_t *out = malloc(MAX_OUT);
    assert_true(m != NULL && out != NULL);
    size_t truncate = op_index("truncate"), splice = op_index("splice");
    for (size_t op = 0; op < gtr__fs_nops; op++) {
        unsigned applied = 0, changed = 0, tries = 0;
        for (size_t i = 0; i < s->n; i++) {
            for (uint64_t seed = 0; seed < SEEDS_PER_INPUT; seed++, tries++) {
                size_t n = gtr__fs_apply_op(m, op, s->in[i].data, s->in[i].size, MAX_OUT,
                                            seed, out);
                if (n == 0) {
                    assert_string_equal(gtr_fs_mutator_last_op(m), "none");
                    continue;
                }
                applied++;
                assert_string_equal(gtr_fs_mutator_last_op(m), gtr__fs_ops[op].name);
                changed += n != s->in[i].size || memcmp(out, s->in[i].data, n) != 0;
                if (!well_formed(out, n, op == truncate, &s->in[i]))
                    fail_msg("%s on input %zu, seed %u: the result is not a whole trace",
                             gtr__fs_ops[op].name, i, (unsigned)seed);
            }
        }
        print_message("%-14s applied %4u of %u, changed the trace %4u times\n",
                      gtr__fs_ops[op].name, applied, tries, changed);
#ifndef GTR_FS_HAVE_SIM
        if (op == splice) {   /* no scheduler model in this build: inapplicable */
            assert_int_equal(applied, 0);
            continue;
        }
#else
        (void)splice;
#endif
        if (applied == 0 || changed == 0)
            fail_msg("operator %s never %s", gtr__fs_ops[op].name,
                     applied == 0 ? "applied" : "changed the trace");
    }
    free(out);
    gtr_fs_mutator_free(m);
}

static void test_mutator_table_names_are_unique_and_weights_drawn(void **state)
{
    (void)state;
    assert_true(gtr__fs_nops > 0);
    assert_int_equal(gtr_fs_op_count(), gtr__fs_nops + 2);   /* and "bytes", "multi" */
    for (size_t i = 0; i < gtr__fs_nops; i++) {
        assert_non_null(gtr__fs_ops[i].apply);
        assert_true(gtr__fs_ops[i].weight > 0);
        assert_string_equal(gtr_fs_op_name(i), gtr__fs_ops[i].name);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(gtr__fs_ops[i].name, gtr__fs_ops[j].name);
    }
    assert_string_equal(gtr_fs_op_name(gtr__fs_nops), "bytes");
    assert_string_equal(gtr_fs_op_name(gtr__fs_nops + 1), "multi");
    assert_null(gtr_fs_op_name(gtr__fs_nops + 2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mutator_table_names_are_unique_and_weights_drawn),
        cmocka_unit_test(test_mutator_table_every_operator_applies_and_yields_a_trace),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
