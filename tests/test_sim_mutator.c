/* SPDX-License-Identifier: BSD-3-Clause */
/* test_sim_mutator.c: the table of compared constants (fuzz/cmp_consts.c) and the sim
 * target's custom mutator (fuzz/fuzz_sim_mutator.c), with libFuzzer's LLVMFuzzerMutate
 * replaced by a stub that counts its calls: small constants are not kept, a call site keeps
 * its latest constant, an empty table leaves every mutation to libFuzzer, and otherwise about
 * one mutation in eight writes a `set` corruption record (fuzz/sim_records.h) holding a kept
 * constant or its neighbour, at the end of the input or over a record it has, within
 * max_size and without touching the choice bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cmp_consts.h"
#include "sim_records.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

static unsigned engine_calls;

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
{
    (void)data;
    (void)max_size;
    engine_calls++;
    return size;
}

static uint64_t le(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* Runs first (cmocka runs the tests in order): the table starts empty. */
static void test_empty_table_leaves_mutations_to_libfuzzer(void **state)
{
    (void)state;
    uint8_t buf[64] = {1, 2, 3};
    uint64_t c = 7;
    assert_int_equal(gtr_cmpc_count(), 0);
    assert_false(gtr_cmpc_pick(0, &c));
    assert_int_equal(c, 7);
    engine_calls = 0;
    for (unsigned seed = 0; seed < 200; seed++)
        assert_int_equal(LLVMFuzzerCustomMutator(buf, 3, sizeof buf, seed), 3);
    assert_int_equal(engine_calls, 200);
}

static void test_table_keeps_large_constants_per_site(void **state)
{
    (void)state;
    uint64_t c = 0;
    gtr_cmpc_note(0x1000, 0);
    gtr_cmpc_note(0x1000, 255);
    gtr_cmpc_note(0x1000, (uint64_t)-1);
    gtr_cmpc_note(0x1000, (uint64_t)-256);
    assert_int_equal(gtr_cmpc_count(), 0);
    gtr_cmpc_note(0x1000, 256);
    assert_int_equal(gtr_cmpc_count(), 1);
    gtr_cmpc_note(0x1000, 0xC0FFEE);   /* the same site: replaced, not added */
    assert_int_equal(gtr_cmpc_count(), 1);
    assert_true(gtr_cmpc_pick(12345, &c));
    assert_int_equal(c, 0xC0FFEE);
    gtr_cmpc_note(0x2008, (uint64_t)-257);
    assert_int_equal(gtr_cmpc_count(), 2);
    bool seen_a = false, seen_b = false;
    for (uint64_t r = 0; r < 16; r++) {
        assert_true(gtr_cmpc_pick(r, &c));
        seen_a |= c == 0xC0FFEE;
        seen_b |= c == (uint64_t)-257;
    }
    assert_true(seen_a && seen_b);
}

static bool is_neighbour(uint64_t v, uint64_t c)
{
    return v == c || v == c + 1 || v == c - 1;
}

static void test_mutator_writes_set_records(void **state)
{
    (void)state;
    const uint8_t choices[20] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
    uint8_t buf[64];
    unsigned appended = 0, exact = 0;
    engine_calls = 0;
    for (unsigned seed = 0; seed < 4000; seed++) {
        memcpy(buf, choices, sizeof choices);
        size_t n = LLVMFuzzerCustomMutator(buf, sizeof choices, sizeof buf, seed);
        if (n == sizeof choices) {
            assert_memory_equal(buf, choices, sizeof choices);   /* the stub's turn */
            continue;
        }
        assert_int_equal(n, sizeof choices + SIM_REC_BYTES);
        assert_memory_equal(buf, choices, sizeof choices);
        const uint8_t *rec = buf + sizeof choices;
        assert_int_equal(rec[SIM_REC_BYTES - 1], SIM_MARKER + OP_SET);
        uint64_t v = le(rec, 8);
        assert_true(is_neighbour(v, 0xC0FFEE) || is_neighbour(v, (uint64_t)-257));
        exact += v == 0xC0FFEE || v == (uint64_t)-257;
        appended++;
    }
    assert_int_equal(appended + engine_calls, 4000);
    assert_in_range(appended, 300, 700);   /* one in eight */
    assert_true(exact > appended / 2);     /* the constant itself most often */

    /* No room: the input is left to libFuzzer. */
    engine_calls = 0;
    for (unsigned seed = 0; seed < 400; seed++) {
        memcpy(buf, choices, sizeof choices);
        assert_int_equal(LLVMFuzzerCustomMutator(buf, sizeof choices, sizeof choices, seed),
                         sizeof choices);
    }
    assert_int_equal(engine_calls, 400);
}

static void test_mutator_rewrites_existing_records(void **state)
{
    (void)state;
    uint8_t in[6 + 2 * SIM_REC_BYTES], buf[sizeof in];
    memset(in, 0x11, 6);
    for (int k = 0; k < 2; k++) {   /* two `drop` records, where = 0x01020304, arg 5 */
        uint8_t *rec = in + 6 + k * SIM_REC_BYTES;
        memset(rec, 0, 8);
        rec[8] = 4, rec[9] = 3, rec[10] = 2, rec[11] = 1, rec[12] = 5;
        rec[13] = SIM_MARKER + OP_DROP;
    }
    unsigned rewritten = 0;
    for (unsigned seed = 0; seed < 4000; seed++) {
        memcpy(buf, in, sizeof in);
        /* max_size == size: a rewrite is the only way to use a constant. */
        size_t n = LLVMFuzzerCustomMutator(buf, sizeof in, sizeof in, seed);
        assert_int_equal(n, sizeof in);
        if (memcmp(buf, in, sizeof in) == 0)
            continue;
        rewritten++;
        assert_memory_equal(buf, in, 6);
        int changed = 0;
        for (int k = 0; k < 2; k++) {
            const uint8_t *rec = buf + 6 + k * SIM_REC_BYTES, *old = in + 6 + k * SIM_REC_BYTES;
            if (memcmp(rec, old, SIM_REC_BYTES) == 0)
                continue;
            changed++;
            assert_memory_equal(rec + 8, old + 8, 5);   /* where and arg kept */
            assert_int_equal(rec[13], SIM_MARKER + OP_SET);
            uint64_t v = le(rec, 8);
            assert_true(is_neighbour(v, 0xC0FFEE) || is_neighbour(v, (uint64_t)-257));
        }
        assert_int_equal(changed, 1);
    }
    assert_in_range(rewritten, 300, 700);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_table_leaves_mutations_to_libfuzzer),
        cmocka_unit_test(test_table_keeps_large_constants_per_site),
        cmocka_unit_test(test_mutator_writes_set_records),
        cmocka_unit_test(test_mutator_rewrites_existing_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
