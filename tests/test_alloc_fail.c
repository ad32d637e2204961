/* SPDX-License-Identifier: BSD-3-Clause */
/* test_alloc_fail.c: replays fuzz/fuzz_alloc_fail.c over small traces, failing every
 * allocation in turn (once, and from there on), so each error path that an allocation
 * failure reaches runs under ASan/UBSan in plain ctest. The target aborts when an oracle
 * fails (a crash, a leak, a silent success with missing events), which fails this test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tgen/fixture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
uint64_t fuzz_alloc_fail_count(const uint8_t *data, size_t size);

static uint64_t fail_each(const char *path, bool gzip)
{
    gtr_buf wire = {0}, in = {0};
    gtr_err err = GTR_ERR_INIT;
    if (tgen_load_trace(path, &wire, NULL, &err) < 0)
        fail_msg("%s: %s", path, err.msg);
    if (gzip) {
        /* Feed the compressed file itself, so the gzip path's allocations fail too. */
        FILE *f = fopen(path, "rb");
        char chunk[4096];
        size_t n;
        assert_non_null(f);
        gtr_buf_reset(&wire);
        while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
            gtr_buf_append(&wire, chunk, n);
        fclose(f);
    }
    uint64_t count = fuzz_alloc_fail_count((const uint8_t *)wire.data, wire.len);
    assert_true(count > 0);
    for (uint64_t i = 0; i <= count + 1; i++) {
        for (int sticky = 0; sticky < 2; sticky++) {
            uint32_t w = (uint32_t)i | (sticky ? 0x80000000u : 0);
            uint8_t hdr[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16),
                              (uint8_t)(w >> 24)};
            gtr_buf_reset(&in);
            gtr_buf_append(&in, hdr, 4);
            gtr_buf_append(&in, wire.data, wire.len);
            assert_int_equal(LLVMFuzzerTestOneInput((const uint8_t *)in.data, in.len), 0);
        }
    }
    gtr_buf_free(&wire);
    gtr_buf_free(&in);
    return count;
}

static void test_alloc_fail_every_allocation_of_small_traces_fails_cleanly(void **state)
{
    static const char *const paths[] = {
        GTR_SOURCE_DIR "/corpus/upstream/go122-confuse-seq-across-generations.test",
        GTR_SOURCE_DIR "/corpus/upstream/go122-create-syscall-with-p.test",   /* a failure */
        GTR_SOURCE_DIR "/corpus/upstream/go123-sync.test",
        GTR_SOURCE_DIR "/corpus/upstream/go125-sync.test",
        GTR_SOURCE_DIR "/corpus/upstream/go122-task-across-generations.test",
        /* experimental batches: their lists are allocated with the first one */
        GTR_SOURCE_DIR "/corpus/tests/gtr-go126-allocfree.test",
    };
    (void)state;
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        uint64_t n = fail_each(paths[i], false);
        print_message("%s: %llu allocations, each failed in turn\n", strrchr(paths[i], '/') + 1,
                      (unsigned long long)n);
    }
}

static void test_alloc_fail_every_allocation_of_gzip_trace_fails_cleanly(void **state)
{
    (void)state;
    uint64_t n = fail_each(GTR_SOURCE_DIR "/corpus/real/testprog-annotations.trace.gz", true);
    print_message("testprog-annotations.trace.gz: %llu allocations\n", (unsigned long long)n);
}

static void test_alloc_fail_no_injection_matches_baseline(void **state)
{
    static const uint8_t garbage[] = {0, 0, 0, 0, 'g', 'o', ' ', '1', '.', '2', '2', ' ', 't',
                                      'r', 'a', 'c', 'e', 0, 0, 0, 1, 1, 0, 0, 5, 8, 200};
    (void)state;
    /* Index 0 (no failure), a malformed trace, and too-short inputs. */
    assert_int_equal(LLVMFuzzerTestOneInput(garbage, sizeof garbage), 0);
    assert_int_equal(LLVMFuzzerTestOneInput(garbage, 3), 0);
    assert_int_equal(LLVMFuzzerTestOneInput(garbage, 4), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_fail_no_injection_matches_baseline),
        cmocka_unit_test(test_alloc_fail_every_allocation_of_small_traces_fails_cleanly),
        cmocka_unit_test(test_alloc_fail_every_allocation_of_gzip_trace_fails_cleanly),
    };
    return cmocka_run_group_tests_name("alloc_fail", tests, NULL, NULL);
}
