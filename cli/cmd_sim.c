/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_sim.c: `gotrace sim`: write a legal trace made by gsim, the scheduler model. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gsim/sim.h"

static const char usage[] =
    "usage: gotrace sim [--go 1.N] [--seed S] [--events N] [--gens G] [--procs P] [-o FILE]\n"
    "                   [--test] [--check]\n"
    "\n"
    "Writes a trace made by gsim, a model of the Go scheduler (Ms, Ps, Gs, syscalls, GC,\n"
    "coroutines, annotations, CPU samples; every generation re-declares every status), that\n"
    "Go's reader reads to EOF and Go's validator accepts. The same flags give the same bytes.\n"
    "It streams, generation by generation, in constant memory.\n"
    "\n"
    "flags (with one dash or two, as Go's flag package reads them; also --flag=VALUE):\n"
    "  --go 1.N      trace version: 1.22, 1.23, 1.25 or 1.26 (default 1.26)\n"
    "  --seed S      the seed of the model's choices, an unsigned integer (default 1)\n"
    "  --events N    events to write (default 1000)\n"
    "  --gens G      generations, at least (default 3; more when N/G > 1048576)\n"
    "  --procs P     GOMAXPROCS at the start, 1..256 (default 4)\n"
    "  -o FILE       output file (default: stdout, or - for stdout)\n"
    "  --test        write a .test fixture (txtar: expect SUCCESS, the trace in the text\n"
    "                format) instead of wire bytes; --test=BOOL as strconv.ParseBool reads it\n"
    "  --check       write nothing: read the trace back with the reader and the validator and\n"
    "                compare every event with the model's record; prints a summary\n"
    "  -h, --help    print this help\n";

/* parse_u64 parses a decimal unsigned integer (Go's strconv.ParseUint(s, 0, 64) subset). */
static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (s == NULL || *s == '\0' || *s == '-' || *s == '+')
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno != 0 || *end != '\0')
        return false;
    *out = (uint64_t)v;
    return true;
}

static bool parse_version(const char *s, gtr_go_version *v)
{
    uint64_t n;
    if (strncmp(s, "1.", 2) == 0)
        s += 2;
    else if (strncmp(s, "go1.", 4) == 0)
        s += 4;
    if (!parse_u64(s, &n) || (n != 22 && n != 23 && n != 25 && n != 26))
        return false;
    *v = (gtr_go_version)n;
    return true;
}


int cmd_sim(int argc, char **argv)
{
    gsim_config cfg;
    uint64_t seed = 1, n;
    const char *out = NULL;
    bool test = false, check = false;
    gtr_err err = GTR_ERR_INIT;

    gsim_config_default(&cfg);
    gtr_err_clear(&err);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        const char *name = NULL;
        if (cli_is_help(a)) {
            return cli_help(usage);
        }
        if (cli_flag(a, "test", &val)) {
            if (!cli_bool_value(val, &test))
                return cli_usage(usage, "invalid boolean value \"%s\" for %.*s: parse error", val,
                                 (int)(val - 1 - a), a);
            continue;
        }
        if (cli_flag(a, "check", &val)) {
            if (!cli_bool_value(val, &check))
                return cli_usage(usage, "invalid boolean value \"%s\" for %.*s: parse error", val,
                                 (int)(val - 1 - a), a);
            continue;
        }
        static const char *const valued[] = {"go", "seed", "events", "gens", "procs", "o"};
        for (size_t k = 0; k < sizeof valued / sizeof valued[0] && name == NULL; k++)
            if (cli_flag(a, valued[k], &val))
                name = valued[k];
        if (name == NULL)
            return cli_usage(usage, a[0] == '-' ? "unknown flag %s" : "unexpected argument %s",
                             a);
        if (val == NULL) {
            if (++i == argc)
                return cli_usage(usage, "flag needs an argument: %s", a);
            val = argv[i];
        }
        if (strcmp(name, "go") == 0) {
            if (!parse_version(val, &cfg.version))
                return cli_usage(usage, "invalid value \"%s\" for flag -go: want 1.22, 1.23, "
                                 "1.25 or 1.26", val);
        } else if (strcmp(name, "o") == 0) {
            out = val;
        } else if (!parse_u64(val, &n)) {
            return cli_usage(usage, "invalid value \"%s\" for flag -%s: parse error", val, name);
        } else if (strcmp(name, "seed") == 0) {
            seed = n;
        } else if (strcmp(name, "events") == 0) {
            cfg.events = n;
        } else if (strcmp(name, "gens") == 0) {
            if (n < 1)
                return cli_usage(usage, "invalid value \"%s\" for flag -gens: at least 1", val);
            cfg.gens = n;
        } else {
            if (n < 1 || n > GSIM_MAX_PROCS)
                return cli_usage(usage, "invalid value \"%s\" for flag -procs: want 1..%d", val,
                                 GSIM_MAX_PROCS);
            cfg.procs = (unsigned)n;
        }
    }

    gsim_seed_state ss;
    gsim_choice ch = gsim_choice_seed(&ss, seed);
    if (check) {
        gsim_stats st;
        if (gsim_check(&cfg, ch, NULL, 0, &st, &err) < 0)
            return cli_fail("sim --seed %" PRIu64 " --go 1.%d: %s", seed, (int)cfg.version,
                            err.msg);
        printf("ok go1.%d seed %" PRIu64 ": %" PRIu64 " events, %" PRIu64 " generations, %" PRIu64
               " bytes, %" PRIu64 " events read back equal the record\n",
               (int)cfg.version, seed, st.events, st.gens, st.bytes, st.records);
        return cli_close_stdout();
    }

    FILE *f = cli_open_out(out);
    if (f == NULL)
        return cli_fail("creating %s: %s", out, cli_errno_text(errno));
    gsim *s = NULL;
    gtr_status st;
    cfg.text = test;
    if (test)
        fputs("-- expect --\nSUCCESS\n-- trace --\n", f);
    if ((st = gsim_new(&cfg, ch, NULL, &s, &err)) >= 0)
        st = gsim_run(s, gtr_sink_file(f), NULL, NULL, &err);
    gsim_free(s);
    int werr = ferror(f) ? errno : 0;
    if (cli_close_out(f) != 0 || werr != 0)
        return cli_fail_write(out, werr ? werr : errno);
    if (st < 0)
        return cli_fail_err(&err);
    return CLI_OK;
}
