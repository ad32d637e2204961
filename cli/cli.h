/* SPDX-License-Identifier: BSD-3-Clause */
/* cli.h: the subcommands of the gotrace tool and the helpers they share.
 *
 * Conventions: every subcommand is `int cmd_<name>(int argc, char **argv)` with argv[0] the
 * subcommand's name; it returns the process exit status: 0 success, 1 failure (message on
 * stderr as "gotrace: <message>"), 2 usage error. `-h`/`--help` prints the usage to stdout
 * and returns 0. */
#ifndef GTR_CLI_H
#define GTR_CLI_H

#include <stdio.h>

#include "gtr/status.h"

int cmd_raw(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_reduce(int argc, char **argv);

/* Exit statuses. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* cli_fail prints "gotrace: <message>\n" to stderr and returns CLI_FAIL. */
int cli_fail(const char *fmt, ...) GTR_PRINTF(1, 2);
/* cli_fail_err prints "gotrace: <err->msg>\n" and returns CLI_FAIL. */
int cli_fail_err(const gtr_err *err);
/* cli_usage prints "gotrace: <message>\n" then the usage text to stderr; returns CLI_USAGE. */
int cli_usage(const char *usage, const char *fmt, ...) GTR_PRINTF(2, 3);
/* cli_is_help: arg is -h, -help or --help. */
int cli_is_help(const char *arg);
/* cli_open_out opens path for writing ("-" or NULL: stdout). */
FILE *cli_open_out(const char *path);
/* cli_close_out flushes and closes f (not stdout, which is only flushed); returns 0 or -1. */
int cli_close_out(FILE *f);

#endif /* GTR_CLI_H */
