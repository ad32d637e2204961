/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_reduce.c: in progress. */
#include "cli.h"

int cmd_reduce(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_fail("reduce: in progress");
}
