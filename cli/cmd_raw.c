/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_raw.c: `gotrace raw text2bytes|bytes2text [IN [OUT]]`, the port of Go's
 * testdata/cmd/gotraceraw: convert between the wire and the text formats. IN and OUT default
 * to stdin and stdout ("-" names them too); IN may be gzip-compressed, and for text2bytes a
 * .test fixture (cli_load_input), whose trace section is converted. On a read error the
 * events converted so far are written, then "gotrace: <Go's message>" and exit 1. */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "gtr/raw.h"
#include "progress.h"

static const char usage_text[] =
    "usage: gotrace raw text2bytes|bytes2text [IN [OUT]]\n"
    "\n"
    "  text2bytes  read a trace in the text format, write the wire format\n"
    "  bytes2text  read a trace in the wire format, write the text format\n"
    "\n"
    "IN and OUT default to stdin and stdout ('-'); IN may be gzip-compressed.\n"
    "For text2bytes, IN may also be a .test fixture: a name ending in .test, or (stdin, any\n"
    "other name) a txtar archive whose files are exactly `expect` then `trace` (gzip is\n"
    "accepted); its trace file is converted. A malformed fixture fails with the message of\n"
    "Go's testtrace.ParseFile.\n"
    "\n"
    "The text format is Go's (internal/trace/raw/doc.go); its grammar, with the error of\n"
    "every rule, is doc/text-format.md in gotrace's sources.\n"
    "\n"
    "flags (with one dash or two, anywhere after the mode):\n"
    "  --progress  show progress on stderr (bytes read, a percentage when the size is known,\n"
    "              events, events/s), even when stderr is not a terminal; by default it is\n"
    "              shown only on a terminal (not while OUT is that terminal)\n"
    "  --quiet     never show progress\n"
    "  -h, --help  print this help\n";

typedef enum { TEXT2BYTES, BYTES2TEXT } raw_mode;

/* The output: a FILE that remembers why a write failed. */
typedef struct out_file {
    FILE *f;
    int werr;   /* errno of the first failed write, 0 while none failed */
} out_file;

static gtr_status out_write(void *ctx, const void *data, size_t n, gtr_err *err)
{
    out_file *o = ctx;
    errno = 0;
    if (n > 0 && fwrite(data, 1, n, o->f) != n) {
        if (o->werr == 0)
            o->werr = errno != 0 ? errno : EIO;
        return gtr_err_setf(err, GTR_E_IO, "write error");
    }
    return GTR_OK;
}

/* convert runs one conversion; returns a gtr_status with err filled on failure (a failed
 * write: out->werr set). */
static gtr_status convert(raw_mode mode, gtr_input *in, out_file *out, cli_progress *prog,
                          gtr_err *err)
{
    gtr_sink sink = {out_write, out};
    gtr_status st, wst;
    gtr_raw_event ev;
    if (mode == BYTES2TEXT) {
        gtr_raw_reader *r = NULL;
        gtr_text_writer *w = NULL;
        if ((st = gtr_raw_reader_new(in, NULL, &r, err)) != GTR_OK)
            return st;
        if ((st = gtr_text_writer_new(sink, gtr_raw_reader_version(r), NULL, &w, err)) !=
            GTR_OK) {
            gtr_raw_reader_free(r);
            return st;
        }
        while ((st = gtr_raw_reader_next(r, &ev, err)) == GTR_OK) {
            cli_progress_event(prog);
            if ((st = gtr_text_writer_write(w, &ev, err)) != GTR_OK)
                break;
        }
        gtr_err werr = GTR_ERR_INIT;
        wst = gtr_text_writer_flush(w, &werr);
        gtr_err_clear(&werr);
        gtr_text_writer_free(w);
        gtr_raw_reader_free(r);
    } else {
        gtr_text_reader *r = NULL;
        gtr_raw_writer *w = NULL;
        if ((st = gtr_text_reader_new(in, NULL, &r, err)) != GTR_OK)
            return st;
        if ((st = gtr_raw_writer_new(sink, gtr_text_reader_version(r), NULL, &w, err)) !=
            GTR_OK) {
            gtr_text_reader_free(r);
            return st;
        }
        while ((st = gtr_text_reader_next(r, &ev, err)) == GTR_OK) {
            cli_progress_event(prog);
            if ((st = gtr_raw_writer_write(w, &ev, err)) != GTR_OK)
                break;
        }
        gtr_err werr = GTR_ERR_INIT;
        wst = gtr_raw_writer_flush(w, &werr);
        gtr_err_clear(&werr);
        gtr_raw_writer_free(w);
        gtr_text_reader_free(r);
    }
    if (st == GTR_EOF)
        st = GTR_OK;
    if (st == GTR_OK && wst != GTR_OK)
        return gtr_err_setf(err, wst, "writing output failed");
    return st;
}

int cmd_raw(int argc, char **argv)
{
    if (argc >= 2 && cli_is_help(argv[1])) {
        return cli_help(usage_text);
    }
    if (argc < 2)
        return cli_usage(usage_text, "raw: missing mode (text2bytes or bytes2text)");
    raw_mode mode;
    if (strcmp(argv[1], "text2bytes") == 0)
        mode = TEXT2BYTES;
    else if (strcmp(argv[1], "bytes2text") == 0)
        mode = BYTES2TEXT;
    else
        return cli_usage(usage_text, "raw: unknown mode %s", argv[1]);
    const char *paths[2] = {"-", "-"}, *bad = NULL;
    int npaths = 0;
    cli_progress_mode pmode = CLI_PROGRESS_AUTO;
    cli_progress prog = {0};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            return cli_help(usage_text);
        }
        if (cli_progress_flag(a, &pmode, &bad)) {
            if (bad != NULL)
                return cli_usage(usage_text,
                                 "raw: invalid boolean value \"%s\" for %.*s: parse error", bad,
                                 (int)(bad - 1 - a), a);
            continue;
        }
        if (a[0] == '-' && a[1] != '\0')
            return cli_usage(usage_text, "raw: unknown flag %s", a);
        if (npaths == 2)
            return cli_usage(usage_text, "raw: too many arguments");
        paths[npaths++] = a;
    }
    const char *in_path = paths[0];
    const char *out_path = paths[1];

    gtr_err err = GTR_ERR_INIT;
    cli_input ci = {0};
    gtr_status st = mode == TEXT2BYTES ? cli_load_input(in_path, CLI_SECTION_TEXT, &ci, &err)
                                       : gtr_input_open_path(in_path, NULL, &ci.in, &err);
    if (st != GTR_OK) {
        int rc = cli_fail_err(&err);
        gtr_err_clear(&err);
        cli_input_free(&ci);
        return rc;
    }
    out_file out = {cli_open_out(out_path), 0};
    if (out.f == NULL) {
        gtr_err_clear(&err);
        cli_input_free(&ci);
        return cli_fail("open %s: %s", out_path, cli_errno_text(errno));
    }
    cli_progress_start(&prog, pmode, mode == TEXT2BYTES ? "raw text2bytes" : "raw bytes2text",
                       ci.in, ci.from_fixture ? 0 : cli_file_size(in_path, ci.in),
                       out.f == stdout);
    st = convert(mode, ci.in, &out, &prog, &err);
    cli_progress_end(&prog, st == GTR_OK);
    cli_input_free(&ci);
    errno = 0;
    if (cli_close_out(out.f) != 0 && out.werr == 0)
        out.werr = errno != 0 ? errno : EIO;
    int rc = CLI_OK;
    if (out.werr != 0)
        rc = cli_fail_write(out_path, out.werr);
    else if (st != GTR_OK)
        rc = cli_fail_err(&err);
    gtr_err_clear(&err);
    return rc;
}
