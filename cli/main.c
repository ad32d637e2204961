/* SPDX-License-Identifier: BSD-3-Clause */
/* main.c: the gotrace command line: `gotrace <mode> [flags] [FILE|-]`, `gotrace help [MODE]`,
 * `gotrace version` (or --version). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "gtr/version.h"

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
    {"sim", cmd_sim, "write a legal trace made by a model of the Go scheduler (gsim)"},
};

enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

/* The Go reader this is a port of: its messages and output are matched byte for byte. */
#define GOTRACE_PORTS "internal/trace of Go 1.27.3"

static void usage(FILE *f)
{
    fputs("usage: gotrace <mode> [flags] [args]\n\nmodes:\n", f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fputs("  help      'gotrace help' prints this; 'gotrace help MODE' the flags of MODE\n"
          "  version   print gotrace's version and the Go reader it ports (also --version)\n"
          "\nRun 'gotrace <mode> -h' for the flags of a mode. Inputs may be gzip-compressed.\n",
          f);
}

static const char version_usage[] =
    "usage: gotrace version (or gotrace --version)\n"
    "\n"
    "Prints gotrace's version and the Go reader it ports, whose messages and output\n"
    "gotrace reproduces byte for byte (" GOTRACE_PORTS ").\n"
    "\n"
    "flags:\n"
    "  -h, --help  print this help\n";

/* print_usage is `gotrace -h`, `gotrace help` and the help of help: the top-level usage on
 * stdout, whose write is checked as any output. */
static int print_usage(void)
{
    usage(stdout);
    return cli_close_stdout();
}

/* find_command returns the mode called name, or NULL. */
static int (*find_command(const char *name))(int, char **)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return commands[i].run;
    return NULL;
}

/* print_version: the version of the libtrace linked in (gtr/version.h, which PROJECT_VERSION
 * is read from). */
static int print_version(void)
{
    printf("gotrace %s\na port of %s\n", gtr_version(), GOTRACE_PORTS);
    return cli_close_stdout();
}

/* help is `gotrace help [MODE]`: the top-level usage, or MODE's -h text. Help asked of help
 * itself (`help help`, `help -h`) is the top-level usage, which describes help; `help
 * version` is `version -h`. */
static int help(int argc, char **argv)
{
    if (argc == 1 || (argc == 2 && (strcmp(argv[1], "help") == 0 || cli_is_help(argv[1]))))
        return print_usage();
    if (argc == 2 && strcmp(argv[1], "version") == 0)
        return cli_help(version_usage);
    int (*run)(int, char **) = argc == 2 ? find_command(argv[1]) : NULL;
    if (argc > 2 || run == NULL) {
        if (argc > 2)
            fputs("gotrace: help: at most one MODE\n", stderr);
        else
            fprintf(stderr, "gotrace: help: unknown mode %s\n", argv[1]);
        usage(stderr);
        return CLI_USAGE;
    }
    char flag[] = "-h";
    char *sub[] = {argv[1], flag, NULL};
    return run(2, sub);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (cli_is_help(argv[1]))
        return print_usage();
    if (strcmp(argv[1], "help") == 0)
        return help(argc - 1, argv + 1);
    if (strcmp(argv[1], "version") == 0 || strcmp(argv[1], "--version") == 0 ||
        strcmp(argv[1], "-version") == 0) {
        if (argc == 3 && cli_is_help(argv[2]))
            return cli_help(version_usage);
        if (argc > 2) {
            fprintf(stderr, "gotrace: %s takes no arguments\n", argv[1]);
            usage(stderr);
            return CLI_USAGE;
        }
        return print_version();
    }
    int (*run)(int, char **) = find_command(argv[1]);
    if (run != NULL)
        return run(argc - 1, argv + 1);
    fprintf(stderr, "gotrace: unknown mode %s\n", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}
