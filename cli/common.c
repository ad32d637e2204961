/* SPDX-License-Identifier: BSD-3-Clause */
/* common.c: helpers shared by the gotrace subcommands. */
#include <stdarg.h>
#include <string.h>

#include "cli.h"

int cli_fail(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("gotrace: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_FAIL;
}

int cli_fail_err(const gtr_err *err)
{
    return cli_fail("%s", err->msg[0] != '\0' ? err->msg : gtr_status_text(err->code));
}

int cli_usage(const char *usage, const char *fmt, ...)
{
    va_list ap;
    fputs("gotrace: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fputs(usage, stderr);
    return CLI_USAGE;
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "-help") == 0 || strcmp(arg, "--help") == 0;
}

FILE *cli_open_out(const char *path)
{
    if (path == NULL || strcmp(path, "-") == 0)
        return stdout;
    return fopen(path, "wb");
}

int cli_close_out(FILE *f)
{
    if (f == stdout)
        return fflush(f) == 0 && !ferror(f) ? 0 : -1;
    int bad = ferror(f);
    return (fclose(f) == 0 && !bad) ? 0 : -1;
}
