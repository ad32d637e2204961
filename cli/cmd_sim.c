/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_sim.c: `gotrace sim`: write a legal trace made by gsim, the scheduler model. */
#include <ctype.h>
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
    "  --events N    events in the threads' batches, exactly N (default 1000): the\n"
    "                statuses each generation opens with included, CPU samples and\n"
    "                the string and stack tables not; more only where the G\n"
    "                generations' statuses alone need more\n"
    "  --gens G      generations, at least (default 3; more when N/G > 1048576)\n"
    "  --procs P     GOMAXPROCS at the start, 1..256 (default 4)\n"
    "  -o FILE       output file (default: stdout, or - for stdout)\n"
    "  --test        write a .test fixture (txtar: expect SUCCESS, the trace in the text\n"
    "                format) instead of wire bytes; --test=BOOL as strconv.ParseBool reads it\n"
    "  --check       read the trace back with the reader and the validator, compare\n"
    "                every event with the model's record and print a summary; with\n"
    "                -o FILE the trace is written to FILE too, otherwise nowhere\n"
    "  -h, --help    print this help\n";

/* Why parse_u64 refused a value: Go's strconv errors as the flag package reports them. */
static const char parse_error[] = "parse error", range_error[] = "value out of range";

/* parse_u64 parses an unsigned integer as Go's strconv.ParseUint(s, 0, 64) does (decimal,
 * 0x hex, 0 octal): NULL, or why not (parse_error, range_error). */
static const char *parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (s == NULL || !isdigit((unsigned char)*s))
        return parse_error;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end != '\0')
        return parse_error;
    if (errno == ERANGE)
        return range_error;
    *out = (uint64_t)v;
    return NULL;
}

static bool parse_version(const char *s, gtr_go_version *v)
{
    uint64_t n;
    if (strncmp(s, "1.", 2) == 0)
        s += 2;
    else if (strncmp(s, "go1.", 4) == 0)
        s += 4;
    if (parse_u64(s, &n) != NULL || (n != 22 && n != 23 && n != 25 && n != 26))
        return false;
    *v = (gtr_go_version)n;
    return true;
}


/* write_trace writes the trace of (cfg, seed) to out ("-" or NULL: stdout), as a SUCCESS
 * fixture when test is set. */
static int write_trace(const gsim_config *cfg, uint64_t seed, bool test, const char *out)
{
    gsim_config c = *cfg;
    gsim_seed_state ss;
    gsim *s = NULL;
    gtr_err err = GTR_ERR_INIT;
    gtr_status st;
    int rc = CLI_OK;

    FILE *f = cli_open_out(out);
    if (f == NULL)
        return cli_fail("sim: creating %s: %s", out, cli_errno_text(errno));
    c.text = test;
    if (test)
        fputs("-- expect --\nSUCCESS\n-- trace --\n", f);
    if ((st = gsim_new(&c, gsim_choice_seed(&ss, seed), NULL, &s, &err)) >= 0)
        st = gsim_run(s, gtr_sink_file(f), NULL, NULL, &err);
    gsim_free(s);
    int werr = ferror(f) ? errno : 0;
    if (cli_close_out(f) != 0 || werr != 0)
        rc = cli_fail_write(out, werr ? werr : errno);
    else if (st < 0)
        rc = cli_fail_err(&err);
    gtr_err_clear(&err);
    return rc;
}

/* check_trace reads the trace of (cfg, seed) back against the model's record (gsim_check:
 * the model is deterministic, so it is the trace write_trace writes) and prints a summary. */
static int check_trace(const gsim_config *cfg, uint64_t seed)
{
    gsim_seed_state ss;
    gsim_stats st;
    gtr_err err = GTR_ERR_INIT;
    int rc;

    if (gsim_check(cfg, gsim_choice_seed(&ss, seed), NULL, 0, &st, &err) < 0) {
        gtr_err_wrapf(&err, "sim --seed %" PRIu64 " --go 1.%d", seed, (int)cfg->version);
        rc = cli_fail_err(&err);
    } else {
        printf("ok go1.%d seed %" PRIu64 ": %" PRIu64 " events, %" PRIu64 " generations, %" PRIu64
               " bytes, %" PRIu64 " events read back equal the record\n",
               (int)cfg->version, seed, st.events, st.gens, st.bytes, st.records);
        rc = cli_close_stdout();
    }
    gtr_err_clear(&err);
    return rc;
}

int cmd_sim(int argc, char **argv)
{
    gsim_config cfg;
    uint64_t seed = 1, n;
    const char *out = NULL;
    bool test = false, check = false;

    gsim_config_default(&cfg);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL, *why;
        const char *name = NULL;
        if (cli_is_help(a))
            return cli_help(usage);
        if (cli_flag(a, "test", &val)) {
            if (!cli_bool_value(val, &test))
                return cli_usage(usage,
                                 "sim: invalid boolean value \"%s\" for %.*s: parse error",
                                 val, (int)(val - 1 - a), a);
            continue;
        }
        if (cli_flag(a, "check", &val)) {
            if (!cli_bool_value(val, &check))
                return cli_usage(usage,
                                 "sim: invalid boolean value \"%s\" for %.*s: parse error",
                                 val, (int)(val - 1 - a), a);
            continue;
        }
        static const char *const valued[] = {"go", "seed", "events", "gens", "procs", "o"};
        for (size_t k = 0; k < sizeof valued / sizeof valued[0] && name == NULL; k++)
            if (cli_flag(a, valued[k], &val))
                name = valued[k];
        if (name == NULL)
            return cli_usage(usage,
                             a[0] == '-' ? "sim: unknown flag %s" : "sim: unexpected argument %s",
                             a);
        if (val == NULL) {
            if (++i == argc)
                return cli_usage(usage, "sim: flag needs an argument: %s", a);
            val = argv[i];
        }
        if (strcmp(name, "go") == 0) {
            if (!parse_version(val, &cfg.version))
                return cli_usage(usage, "sim: invalid value \"%s\" for flag -go: want 1.22, 1.23, "
                                 "1.25 or 1.26", val);
        } else if (strcmp(name, "o") == 0) {
            out = val;
        } else if ((why = parse_u64(val, &n)) != NULL) {
            return cli_usage(usage, "sim: invalid value \"%s\" for flag -%s: %s", val, name, why);
        } else if (strcmp(name, "seed") == 0) {
            seed = n;
        } else if (strcmp(name, "events") == 0) {
            cfg.events = n;
        } else if (strcmp(name, "gens") == 0) {
            if (n < 1)
                return cli_usage(usage, "sim: invalid value \"%s\" for flag -gens: at least 1",
                                 val);
            cfg.gens = n;
        } else {
            if (n < 1 || n > GSIM_MAX_PROCS)
                return cli_usage(usage, "sim: invalid value \"%s\" for flag -procs: want 1..%d",
                                 val, GSIM_MAX_PROCS);
            cfg.procs = (unsigned)n;
        }
    }

    if (check && out != NULL && strcmp(out, "-") == 0)
        return cli_usage(usage, "sim: --check prints its summary on stdout: give -o a file");
    int rc = CLI_OK;
    if (!check || out != NULL)
        rc = write_trace(&cfg, seed, test, out);
    if (rc == CLI_OK && check)
        rc = check_trace(&cfg, seed);
    return rc;
}
