/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_gen.c: in progress. */
#include "cli.h"

int cmd_gen(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_fail("gen: in progress");
}
