/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_check.c: in progress. */
#include "cli.h"

int cmd_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_fail("check: in progress");
}
