/* SPDX-License-Identifier: BSD-3-Clause */
/* test_version.c: the version has one source (gtr/version.h) and every place agrees with it:
 * the macros, gtr_version() and gtr_version_number() of the static and the shared library,
 * and CMake's PROJECT_VERSION (GTR_PROJECT_VERSION, given by tests/cli.cmake), which the
 * soname and `gotrace --version` follow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gtr/gtr.h"

#ifndef GTR_PROJECT_VERSION
#error "GTR_PROJECT_VERSION must be defined (tests/cli.cmake)"
#endif

static void test_version_macros_agree_with_cmake(void **state)
{
    char want[32];
    (void)state;
    snprintf(want, sizeof want, "%d.%d.%d", GTR_VERSION_MAJOR, GTR_VERSION_MINOR,
             GTR_VERSION_PATCH);
    assert_string_equal(GTR_VERSION_STRING, want);
    assert_string_equal(GTR_VERSION_STRING, GTR_PROJECT_VERSION);
    assert_int_equal(GTR_VERSION_NUMBER,
                     GTR_VERSION_MAJOR * 10000 + GTR_VERSION_MINOR * 100 + GTR_VERSION_PATCH);
}

static void test_version_runtime_matches_header(void **state)
{
    (void)state;
    assert_string_equal(gtr_version(), GTR_VERSION_STRING);
    assert_int_equal(gtr_version_number(), GTR_VERSION_NUMBER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_macros_agree_with_cmake),
        cmocka_unit_test(test_version_runtime_matches_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
