/* SPDX-License-Identifier: BSD-3-Clause */
/* cli.h: the subcommands of the gotrace tool and the helpers they share.
 *
 * Conventions: every subcommand is `int cmd_<name>(int argc, char **argv)` with argv[0] the
 * subcommand's name; it returns the process exit status: 0 success, 1 failure (message on
 * stderr as "gotrace: <message>"), 2 usage error. `-h`/`--help` prints the usage to stdout
 * and returns 0. */
#ifndef GTR_CLI_H
#define GTR_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gtr/input.h"
#include "gtr/status.h"
#include "mapped_file.h"
#include "tgen/fixture.h"

int cmd_raw(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_reduce(int argc, char **argv);
int cmd_sim(int argc, char **argv);

/* Exit statuses. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* cli_fail prints "gotrace: <message>\n" to stderr and returns CLI_FAIL. */
int cli_fail(const char *fmt, ...) GTR_PRINTF(1, 2);
/* cli_fail_err prints "gotrace: <err's whole text>\n" and returns CLI_FAIL. */
int cli_fail_err(const gtr_err *err);
/* cli_fail_write prints "gotrace: writing OUTPUT: <cli_errno_text(errnum)>\n" and returns CLI_FAIL:
 * the one message of every mode for output that could not be written. OUTPUT is path, or
 * "stdout" when path is NULL or "-"; errnum 0 reads as EIO. */
int cli_fail_write(const char *path, int errnum);
/* cli_errno_text is Go's text for errnum (gtr_errno_text: "no such file or directory"), the
 * one wording of every mode's I/O messages. The text lives in a buffer the next call reuses. */
const char *cli_errno_text(int errnum);
/* cli_close_stdout flushes stdout: CLI_OK, or cli_fail_write(NULL, <the flush's errno>) when
 * it or an earlier write to stdout failed. */
int cli_close_stdout(void);
/* cli_help prints a mode's help text to stdout, as -h asks: CLI_OK, or cli_close_stdout's
 * failure when it could not be written (help to a full disk is an error, as any output). */
int cli_help(const char *text);
/* cli_usage prints "gotrace: <message>\n" then the usage text to stderr; returns CLI_USAGE. */
int cli_usage(const char *usage, const char *fmt, ...) GTR_PRINTF(2, 3);
/* cli_flag: arg is the flag name (given without dashes) as Go's flag package spells it, with
 * one dash or two: -name, --name, -name=VALUE, --name=VALUE. On a match *value is VALUE, or
 * NULL when there is no '='. */
bool cli_flag(const char *arg, const char *name, const char **value);
/* cli_bool_value parses a boolean flag's =VALUE (NULL: no '=', true) as Go's flag package does
 * (strconv.ParseBool); false for any other value, which is the usage error
 * "invalid boolean value \"VALUE\" for FLAG: parse error" (Go's wording). */
bool cli_bool_value(const char *value, bool *on);
/* cli_is_help: arg is -h, -help or --help. */
int cli_is_help(const char *arg);
/* cli_open_out opens path for writing ("-" or NULL: stdout). */
FILE *cli_open_out(const char *path);
/* cli_close_out flushes and closes f (not stdout, which is only flushed); returns 0 or -1. */
int cli_close_out(FILE *f);

/* ---- trace inputs that may be .test fixtures ---- */

/* The most bytes (after gunzip) read into memory to recognise or load a .test fixture: past
 * it an input is not taken for a fixture, and a fixture fails with the input's limit message
 * (Go has no such limit). */
#define CLI_FIXTURE_MAX TGEN_FIXTURE_MAX

/* The most bytes (after gunzip) of a trace held in memory because it comes on a stream
 * (stdin, a pipe) and must be read twice (stats): past it, "read stdin: input exceeds the
 * limit of 268435456 bytes". A file is read afresh instead, in bounded memory. */
#define CLI_STREAM_TRACE_MAX TGEN_TRACE_MAX

/* What cli_load_input delivers from a .test fixture. */
typedef enum cli_section {
    CLI_SECTION_WIRE,   /* the trace file converted to wire bytes, as testtrace.ParseFile does */
    CLI_SECTION_TEXT,   /* the trace file as written (the text format): for raw text2bytes */
} cli_section;

/* An input opened by cli_load_input. Only in, from_fixture, text_format and map are for the
 * caller. It stays where cli_load_input filled it in (in's release function points at map). */
typedef struct cli_input {
    gtr_input *in;       /* the trace to read; owned, released by cli_input_free */
    bool from_fixture;   /* in delivers a fixture's trace section from memory, never gunzipped
                          * (open any copy of it with gtr_input_open_memory_plain) */
    bool text_format;    /* the input (not a fixture) starts like the text format
                          * ("Trace Go1."): see cli_fail_trace_err */
    struct tgen_fixture *fixture;   /* private: the parsed fixture */
    struct txtar_archive *archive;  /* private: the archive (CLI_SECTION_TEXT) */
    struct cli_replay *replay;      /* private: the recording of a stream (stdin, a FIFO) */
    FILE *mem;                      /* private: the FILE replaying it */
    cli_mapped_file map;            /* a plain regular file, mapped (in reads it); data
                                     * NULL otherwise */
} cli_input;

/* cli_load_input opens the trace input path ("-": stdin) for validate, stats and raw
 * text2bytes, recognising .test fixtures. An input is a fixture when its name ends in
 * ".test", or (stdin, any other name) when its content, after an optional gunzip, is a txtar
 * archive whose files are exactly `expect` then `trace` and does not start like a wire trace
 * ("go 1.") or a text trace ("Trace Go1."). A fixture is gunzipped when its bytes are gzip
 * (our extension), parsed by tgen_fixture_parse (Go's testtrace.ParseFile) with path as its
 * name, and out->in delivers its trace section (want) with out->from_fixture set. For want
 * CLI_SECTION_WIRE, a plain (not gzip) regular file is mapped (out->map) and out->in reads
 * the mapping as a plain memory input, whose batches the reader takes in place; the pages of
 * each generation go as the reader is done with them (gtr_input_set_release). Any other
 * input is opened as gtr_input_open_path does (gzip sniffed, streamed), so it reads exactly
 * as before: a file is looked at and then reopened; a stream (stdin, a FIFO) is looked at
 * through a FILE that records the raw bytes read, and then read through one that replays
 * them before reading on (gtr_input has no public peek). Looking reads the first decompressed
 * bytes; only an input starting with neither magic is read further, at most CLI_FIXTURE_MAX
 * bytes, and no further than a NUL byte before its first line starting with "-- " (past
 * either it is not a fixture: tgen_read_fixture_candidate).
 * Errors: the input's open/read message ("open PATH: <reason>"), ParseFile's message for a
 * malformed fixture, "out of memory". On failure *out holds nothing to free; on success
 * release it with cli_input_free. */
gtr_status cli_load_input(const char *path, cli_section want, cli_input *out, gtr_err *err);

/* cli_fail_trace_err is cli_fail_err for an error reading the trace of ci: when ci is in the
 * text format and err is Go's "bad file format: not a Go execution trace?", a second line
 * says how to convert it. Returns CLI_FAIL. */
int cli_fail_trace_err(const cli_input *ci, const gtr_err *err);

/* cli_input_check_whole is cli_mapped_file_check of ci's mapping: when the file was cut
 * while being read, gotrace ends with "gotrace: read FILE: the file was truncated while being
 * read" and exit status 1 (whatever the reader made of the zeros past the cut). Call it
 * before reporting the outcome of reading ci. */
void cli_input_check_whole(const cli_input *ci);

/* cli_input_free releases what cli_load_input opened (and zeroes ci). */
void cli_input_free(cli_input *ci);

/* cli_read_decompressed reads the whole input path ("-": stdin), gunzipped when its bytes are
 * gzip, at most CLI_FIXTURE_MAX bytes, into a malloc'd buffer (NUL-terminated, the NUL not
 * counted in *len; the caller frees *data). Errors are the input's messages. */
gtr_status cli_read_decompressed(const char *path, char **data, size_t *len, gtr_err *err);

/* cli_has_suffix: name ends in suffix and is longer than it. */
bool cli_has_suffix(const char *name, const char *suffix);

#endif /* GTR_CLI_H */
