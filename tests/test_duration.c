/* SPDX-License-Identifier: BSD-3-Clause */
/* test_duration.c: cli_duration_string against Go's own table (time/time_test.go of Go
 * 1.27.3, durationTests, with TestDurationString's negated cases) and the unit boundaries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "duration.h"

#define NS INT64_C(1)
#define US (1000 * NS)
#define MS (1000 * US)
#define SEC (1000 * MS)
#define MIN (60 * SEC)
#define HOUR (60 * MIN)

static const struct {
    const char *str;
    int64_t d;
} go_tests[] = {
    {"0s", 0},
    {"1ns", 1 * NS},
    {"1.1\xc2\xb5s", 1100 * NS},
    {"2.2ms", 2200 * US},
    {"3.3s", 3300 * MS},
    {"4m5s", 4 * MIN + 5 * SEC},
    {"4m5.001s", 4 * MIN + 5001 * MS},
    {"5h6m7.001s", 5 * HOUR + 6 * MIN + 7001 * MS},
    {"8m0.000000001s", 8 * MIN + 1 * NS},
    {"2562047h47m16.854775807s", INT64_MAX},
    {"-2562047h47m16.854775808s", INT64_MIN},
};

static void test_duration_go_table_matches(void **state)
{
    char buf[CLI_DURATION_MAX], want[CLI_DURATION_MAX + 1];
    (void)state;
    for (size_t i = 0; i < sizeof go_tests / sizeof go_tests[0]; i++) {
        assert_string_equal(cli_duration_string(go_tests[i].d, buf), go_tests[i].str);
        if (go_tests[i].d > 0) { /* Go: (-d).String() == "-" + str */
            snprintf(want, sizeof want, "-%s", go_tests[i].str);
            assert_string_equal(cli_duration_string(-go_tests[i].d, buf), want);
        }
    }
}

static void test_duration_unit_boundaries_switch_units(void **state)
{
    char buf[CLI_DURATION_MAX];
    (void)state;
    assert_string_equal(cli_duration_string(999, buf), "999ns");
    assert_string_equal(cli_duration_string(1000, buf), "1\xc2\xb5s");
    assert_string_equal(cli_duration_string(12 * US, buf), "12\xc2\xb5s");
    assert_string_equal(cli_duration_string(999999, buf), "999.999\xc2\xb5s");
    assert_string_equal(cli_duration_string(MS, buf), "1ms");
    assert_string_equal(cli_duration_string(400560 * US, buf), "400.56ms");
    assert_string_equal(cli_duration_string(SEC - 1, buf), "999.999999ms");
    assert_string_equal(cli_duration_string(SEC, buf), "1s");
    assert_string_equal(cli_duration_string(1500 * MS, buf), "1.5s");
    assert_string_equal(cli_duration_string(MIN, buf), "1m0s");
    assert_string_equal(cli_duration_string(HOUR, buf), "1h0m0s");
    assert_string_equal(cli_duration_string(-1, buf), "-1ns");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_duration_go_table_matches),
        cmocka_unit_test(test_duration_unit_boundaries_switch_units),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
