/* SPDX-License-Identifier: BSD-3-Clause */
/* progress.h: progress of a long run on stderr (validate, stats, raw conversions).
 *
 * A line "gotrace MODE: 12.3 MB read (45%), 1.20M events, 2.05M events/s", refreshed about
 * four times a second: in place on a terminal ("\r", erased at the end), one line per refresh
 * otherwise, plus a last line with the totals. The clock is looked at once every
 * CLI_PROGRESS_EVERY events only, so an event costs an increment and a compare.
 *
 * By default (--progress and --quiet not given) progress is shown only when stderr is a
 * terminal and stdout is not that terminal receiving the mode's output; --progress forces it
 * (to a file or a pipe too), --quiet silences it. */
#ifndef GTR_CLI_PROGRESS_H
#define GTR_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "gtr/input.h"

typedef enum cli_progress_mode {
    CLI_PROGRESS_AUTO = 0,   /* neither flag: only on a terminal */
    CLI_PROGRESS_ON,         /* --progress */
    CLI_PROGRESS_OFF,        /* --quiet */
} cli_progress_mode;

enum { CLI_PROGRESS_EVERY = 4096 };

typedef struct cli_progress {
    bool on;             /* showing anything at all */
    bool tty;            /* stderr is a terminal: redraw in place */
    bool drawn;          /* a line is on the terminal, to erase */
    const char *label;   /* "validate", "stats", "raw bytes2text" */
    const gtr_input *in; /* where the bytes come from (gtr_input_offset); may be NULL */
    uint64_t total;      /* bytes in all, 0 when unknown (no percentage) */
    uint64_t events;     /* events so far */
    uint64_t next;       /* event count at which to look at the clock */
    double start, last;  /* monotonic seconds: the start and the last refresh */
    char text[192];      /* cli_progress_text's line, drawn in place of bytes and events */
} cli_progress;

/* cli_progress_flag: arg is --progress[=BOOL] or --quiet[=BOOL] (one dash or two), which is
 * applied to *mode; true when arg was one of them. A bad BOOL is a usage error: *bad is set
 * to the flag's value and true is returned. */
bool cli_progress_flag(const char *arg, cli_progress_mode *mode, const char **bad);

/* cli_progress_start starts showing the progress of label's reading of in (NULL: bytes are
 * not shown), whose total size is total bytes (0: unknown). stdout_busy: the mode writes its
 * output to stdout as it goes (then, by default, no progress when stdout is a terminal). */
void cli_progress_start(cli_progress *p, cli_progress_mode mode, const char *label,
                        const gtr_input *in, uint64_t total, bool stdout_busy);

/* cli_progress_event counts one event, refreshing the line when it is time. */
void cli_progress_tick(cli_progress *p);
static inline void cli_progress_event(cli_progress *p)
{
    if (++p->events >= p->next && p->on)
        cli_progress_tick(p);
}

/* cli_progress_events counts n events at once. */
static inline void cli_progress_events(cli_progress *p, uint64_t n)
{
    p->events += n;
    if (p->events >= p->next && p->on)
        cli_progress_tick(p);
}

/* cli_progress_text shows text as the progress line (for a mode that counts something else
 * than events read, such as reduce's candidates), now: the caller decides how often. */
void cli_progress_text(cli_progress *p, const char *text);

/* cli_progress_end ends the line: erased on a terminal, otherwise a last line with the totals
 * ending in ", done" (ok) or ", stopped" (the run failed). Call it before printing anything
 * else to stderr; a second call, or one before cli_progress_start on a zeroed p, does
 * nothing. */
void cli_progress_end(cli_progress *p, bool ok);

/* cli_file_size: the bytes in will deliver from the regular file at path: its size, or for a
 * gzip-compressed file (in tells) the size its gzip trailer gives (an estimate: see
 * progress.c); 0 when unknown (stdin, a pipe, no file). */
uint64_t cli_file_size(const char *path, const gtr_input *in);

#endif /* GTR_CLI_PROGRESS_H */
