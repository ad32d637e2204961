/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_stats.c: in progress. */
#include "cli.h"

int cmd_stats(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_fail("stats: in progress");
}
