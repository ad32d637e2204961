/* SPDX-License-Identifier: BSD-3-Clause */
/* test_sim_generate.c: gsim_generate (sim/generate.c), a model run into memory with its size
 * capped: the same bytes as gsim_run into a buffer, appended after what the buffer holds, and
 * past the cap GTR_E_LIMIT with the buffer left as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gsim/sim.h"

static const gtr_go_version versions[] = {GTR_GO122, GTR_GO123, GTR_GO125, GTR_GO126};

static void run(const gsim_config *c, uint64_t seed, gtr_buf *out)
{
    gsim_seed_state st;
    gsim *s;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gsim_new(c, gsim_choice_seed(&st, seed), NULL, &s, &err), GTR_OK);
    assert_int_equal(gsim_run(s, gtr_sink_buf(out), NULL, NULL, &err), GTR_OK);
    gsim_free(s);
}

static void test_sim_generate_same_bytes_as_run(void **state)
{
    (void)state;
    gsim_config c;
    gsim_config_default(&c);
    c.events = 300;
    for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++) {
        c.version = versions[v];
        gtr_buf want = {0}, got = {0};
        gsim_seed_state st;
        gsim_stats stats;
        gtr_err err = GTR_ERR_INIT;
        run(&c, 7 + v, &want);
        gtr_buf_append(&got, "prefix", 6);
        assert_int_equal(gsim_generate(&c, gsim_choice_seed(&st, 7 + v), NULL, 0, &got, &stats,
                                       &err),
                         GTR_OK);
        assert_int_equal(got.len, 6 + want.len);
        assert_memory_equal(got.data, "prefix", 6);
        assert_memory_equal(got.data + 6, want.data, want.len);
        assert_int_equal(stats.bytes, want.len);
        assert_int_equal(stats.events, 300);
        /* A cap of exactly the trace's size is enough. */
        gtr_buf_reset(&got);
        assert_int_equal(gsim_generate(&c, gsim_choice_seed(&st, 7 + v), NULL, want.len, &got,
                                       NULL, &err),
                         GTR_OK);
        assert_int_equal(got.len, want.len);
        gtr_buf_free(&want);
        gtr_buf_free(&got);
    }
}

static void test_sim_generate_past_the_cap_fails_and_keeps_the_buffer(void **state)
{
    (void)state;
    gsim_config c;
    gsim_config_default(&c);
    c.events = 2000;
    gtr_buf want = {0}, got = {0};
    gsim_seed_state st;
    gtr_err err = GTR_ERR_INIT;
    run(&c, 3, &want);
    gtr_buf_append(&got, "keep", 4);
    assert_int_equal(gsim_generate(&c, gsim_choice_seed(&st, 3), NULL, want.len - 1, &got, NULL,
                                   &err),
                     GTR_E_LIMIT);
    assert_non_null(strstr(gtr_err_text(&err, NULL), "gsim: trace exceeds"));
    assert_int_equal(got.len, 4);
    assert_memory_equal(got.data, "keep", 4);
    gtr_err_clear(&err);
    /* A bad configuration is refused before anything is written. */
    c.procs = 0;
    assert_int_equal(gsim_generate(&c, gsim_choice_seed(&st, 3), NULL, 0, &got, NULL, &err),
                     GTR_E_USAGE);
    assert_int_equal(got.len, 4);
    gtr_err_clear(&err);
    gtr_buf_free(&want);
    gtr_buf_free(&got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sim_generate_same_bytes_as_run),
        cmocka_unit_test(test_sim_generate_past_the_cap_fails_and_keeps_the_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
