/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_raw.c: in progress. */
#include "cli.h"

int cmd_raw(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_fail("raw: in progress");
}
