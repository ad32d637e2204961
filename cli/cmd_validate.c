/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_validate.c: in progress. */
#include "cli.h"

int cmd_validate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_fail("validate: in progress");
}
