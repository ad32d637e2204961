/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_validate.c: `gotrace validate [--log-events] [FILE|-]`: read a trace with the
 * high-level reader and check every event with the validator (Go's testtrace.Validator),
 * told the trace's version as Go's tests do. FILE may be a .test fixture (cli_load_input): its
 * trace section, as wire bytes, is read instead. With --log-events each event's String() is
 * printed before it is validated, so the dump ends with the failing event. This is the hot
 * path of the benchmarks: lines are formatted into one reused buffer and written in 64 KiB
 * blocks; no per-event allocation. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "gtr/diagnosis.h"
#include "gtr/reader.h"
#include "progress.h"
#include "gtr/validate.h"

static const char usage_text[] =
    "usage: gotrace validate [--log-events] [--explain] [--progress|--quiet] [--] [FILE|-]\n"
    "\n"
    "Reads the execution trace FILE (default or \"-\": stdin; gzip is accepted) and validates\n"
    "every event as Go's internal/trace tests do (testtrace.Validator, told the trace's\n"
    "version). Exits 0 when the whole trace is valid; otherwise prints \"gotrace: <error>\"\n"
    "on stderr and exits 1. Usage errors exit 2.\n"
    "\n"
    "FILE may also be a .test fixture: a name ending in .test, or (stdin, any other name) a\n"
    "txtar archive whose files are exactly `expect` then `trace` (gzip is accepted). Its trace\n"
    "file is converted to wire bytes as Go's testtrace.ParseFile does and validated as that\n"
    "wire trace would be; the expectation is not checked (that is `gotrace check`). A\n"
    "malformed fixture fails with ParseFile's message.\n"
    "\n"
    "flags (with one dash or two, as Go's flag package reads them):\n"
    "  --log-events  print each event's String() (Go's Event.String) on stdout, one per\n"
    "                line, before validating it; --log-events=BOOL sets it as Go's\n"
    "                strconv.ParseBool reads BOOL (true, false, 1, 0, t, f, ...)\n"
    "  --explain     when the trace is stuck (Go's \"broken trace: failed to advance\"),\n"
    "                print after Go's message why: for each thread's next event, the\n"
    "                goroutine, proc or GC condition it waits on, what it needs, what the\n"
    "                resource has now and the event that last changed it (beyond Go; the\n"
    "                message itself is unchanged)\n"
    "  --progress    show progress on stderr (bytes read, a percentage when the size is\n"
    "                known, events, events/s), even when stderr is not a terminal; by\n"
    "                default it is shown only on a terminal (not while --log-events writes\n"
    "                to that terminal)\n"
    "  --quiet       never show progress\n"
    "  --            end of the flags: the next argument is FILE, even if it starts with -\n"
    "  -h, --help    print this help\n";

enum { STDOUT_BUFFER = 1 << 16, FLUSH_AT = 1 << 16 };

/* flush_lines writes the pending event lines; 0, or the errno of the failed write. */
static int flush_lines(gtr_buf *lines)
{
    int werr = 0;
    errno = 0;
    if (lines->len > 0 && fwrite(lines->data, 1, lines->len, stdout) != lines->len)
        werr = errno != 0 ? errno : EIO;
    gtr_buf_reset(lines);
    return werr;
}

/* print_diagnosis writes, after Go's message, why r could not advance, when that is how it
 * failed. */
static void print_diagnosis(const gtr_reader *r, const gtr_history *hist)
{
    gtr_diagnosis *d = NULL;
    gtr_buf text = {0};
    if (gtr_reader_diagnose(r, hist, &d, NULL) == GTR_OK && gtr_diagnosis_format(d, &text) == GTR_OK)
        fprintf(stderr, "gotrace: %s", text.data);
    gtr_buf_free(&text);
    gtr_diagnosis_free(d);
}

int cmd_validate(int argc, char **argv)
{
    const char *path = NULL, *val, *bad = NULL;
    bool log_events = false, explain = false, only_args = false;
    cli_progress_mode pmode = CLI_PROGRESS_AUTO;
    cli_progress prog = {0};
    cli_input ci = {0};
    gtr_reader *r = NULL;
    gtr_validator *v = NULL;
    gtr_event_formatter *fmt = NULL;   /* with --log-events */
    gtr_history *hist = NULL;          /* with --explain */
    gtr_buf lines = {0};   /* pending event lines, written in blocks */
    gtr_event ev;
    gtr_err err = GTR_ERR_INIT;
    int rc = CLI_FAIL;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_args && cli_is_help(a)) {
            return cli_help(usage_text);
        } else if (!only_args && cli_flag(a, "log-events", &val)) {
            if (!cli_bool_value(val, &log_events))
                return cli_usage(usage_text,
                                 "validate: invalid boolean value \"%s\" for %.*s: parse error",
                                 val, (int)(val - 1 - a), a);
        } else if (!only_args && cli_flag(a, "explain", &val)) {
            if (!cli_bool_value(val, &explain))
                return cli_usage(usage_text,
                                 "validate: invalid boolean value \"%s\" for %.*s: parse error",
                                 val, (int)(val - 1 - a), a);
        } else if (!only_args && cli_progress_flag(a, &pmode, &bad)) {
            if (bad != NULL)
                return cli_usage(usage_text,
                                 "validate: invalid boolean value \"%s\" for %.*s: parse error",
                                 bad, (int)(bad - 1 - a), a);
        } else if (!only_args && strcmp(a, "--") == 0) {
            only_args = true;
        } else if (!only_args && a[0] == '-' && a[1] != '\0') {
            return cli_usage(usage_text, "validate: unknown flag %s", a);
        } else if (path == NULL) {
            path = a;
        } else {
            return cli_usage(usage_text, "validate: more than one input (%s, %s)", path, a);
        }
    }
    if (path == NULL)
        path = "-";
    setvbuf(stdout, NULL, _IOFBF, STDOUT_BUFFER);

    if (cli_load_input(path, CLI_SECTION_WIRE, &ci, &err) < 0 ||
        gtr_reader_new(ci.in, NULL, &r, &err) < 0 || gtr_validator_new(NULL, &v, &err) < 0 ||
        (log_events && gtr_event_formatter_new(NULL, &fmt, &err) < 0) ||
        (explain && gtr_history_new(NULL, &hist, &err) < 0)) {
        cli_input_check_whole(&ci);
        rc = cli_fail_trace_err(&ci, &err);
        goto end;
    }
    gtr_validator_set_go_version(v, gtr_reader_go_version(r));
    cli_progress_start(&prog, pmode, "validate", ci.in,
                       ci.from_fixture ? 0 : cli_file_size(path, ci.in), log_events);
    /* Without --log-events or --explain, the library's loop (gtr_validator_run), a chunk of
     * events at a time for the progress line. */
    while (!log_events && !explain) {
        uint64_t n;
        gtr_status st = gtr_validator_run(v, r, CLI_PROGRESS_EVERY, &n, &err);
        cli_progress_events(&prog, n);
        if (st == GTR_EOF)
            goto done;
        if (st < 0)
            goto fail;
    }
    for (;;) {
        gtr_status st = gtr_reader_next(r, &ev, &err);
        if (st == GTR_EOF)
            break;
        if (st < 0)
            goto fail;
        cli_progress_event(&prog);
        if (explain && gtr_history_note(hist, r, &ev) == GTR_E_NOMEM) {
            gtr_err_setf(&err, GTR_E_NOMEM, "out of memory");
            goto fail;
        }
        if (log_events) {
            size_t before = lines.len;
            if (gtr_event_formatter_format(fmt, &ev, &lines, &err) < 0) {
                /* Where Go's String() panics (an ID missing from its table: a cut old trace
                 * can name a stack it never defined), Go prints nothing of the event, then
                 * the panic's text: so do we, as an error. */
                lines.len = before;
                goto fail;
            }
            gtr_buf_putc(&lines, '\n');
            int werr;
            if (lines.len >= FLUSH_AT && (werr = flush_lines(&lines)) != 0) {
                cli_progress_end(&prog, false);
                rc = cli_fail_write(NULL, werr);
                goto end;
            }
        }
        if (gtr_validator_event(v, &ev, &err) < 0)
            goto fail;
    }
done:;
    cli_input_check_whole(&ci);
    int werr = flush_lines(&lines);
    cli_progress_end(&prog, werr == 0);
    rc = werr != 0 ? cli_fail_write(NULL, werr) : cli_close_stdout();
    goto end;
fail:
    cli_input_check_whole(&ci);
    /* The dump ends with the failing event, then the error goes to stderr. */
    flush_lines(&lines);
    cli_progress_end(&prog, false);
    rc = cli_fail_err(&err);
    if (explain)
        print_diagnosis(r, hist);
end:
    gtr_err_clear(&err);
    gtr_buf_free(&lines);
    gtr_event_formatter_free(fmt);
    gtr_history_free(hist);
    gtr_validator_free(v);
    gtr_reader_free(r);
    cli_input_free(&ci);
    return rc;
}
