/* SPDX-License-Identifier: BSD-3-Clause */
/* main.c: the gotrace command line: `gotrace <mode> [flags] [FILE|-]`. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"raw", cmd_raw, "convert between the wire and text formats (text2bytes|bytes2text)"},
    {"validate", cmd_validate, "read and validate a trace; --log-events prints every event"},
    {"stats", cmd_stats, "events and bytes per event type, generations, Ms/Ps/Gs seen"},
    {"check", cmd_check, "golden runner: check .test fixtures against their expectation"},
    {"gen", cmd_gen, "run the testgen generators, writing .test fixtures"},
    {"reduce", cmd_reduce, "shrink a crashing or failing trace to a minimal .test fixture"},
};

static void usage(FILE *f)
{
    fputs("usage: gotrace <mode> [flags] [args]\n\nmodes:\n", f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fputs("\nRun 'gotrace <mode> -h' for the flags of a mode. Inputs may be gzip-compressed.\n", f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (cli_is_help(argv[1])) {
        usage(stdout);
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "gotrace: unknown mode %s\n", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}
