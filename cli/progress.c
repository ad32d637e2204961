/* SPDX-License-Identifier: BSD-3-Clause */
/* progress.c: the progress line of long runs (progress.h). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"

/* The refresh period, in seconds. */
#define REFRESH 0.25

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool cli_progress_flag(const char *arg, cli_progress_mode *mode, const char **bad)
{
    const char *val;
    bool on;
    cli_progress_mode set;

    if (cli_flag(arg, "progress", &val))
        set = CLI_PROGRESS_ON;
    else if (cli_flag(arg, "quiet", &val))
        set = CLI_PROGRESS_OFF;
    else
        return false;
    if (!cli_bool_value(val, &on)) {
        *bad = val;
        return true;
    }
    if (on)
        *mode = set;
    else if (*mode == set)
        *mode = CLI_PROGRESS_AUTO;
    return true;
}

void cli_progress_start(cli_progress *p, cli_progress_mode mode, const char *label,
                        const gtr_input *in, uint64_t total, bool stdout_busy)
{
    memset(p, 0, sizeof *p);
    p->tty = isatty(STDERR_FILENO) == 1;
    if (mode == CLI_PROGRESS_AUTO)
        p->on = p->tty && !(stdout_busy && isatty(STDOUT_FILENO) == 1);
    else
        p->on = mode == CLI_PROGRESS_ON;
    p->label = label;
    p->in = in;
    p->total = total;
    p->next = CLI_PROGRESS_EVERY;
    if (p->on) {
        p->start = p->last = now();
        /* On a terminal the first tick (CLI_PROGRESS_EVERY events in) draws at once: a run
         * of a fraction of a second still shows where it is, and what it draws does not
         * depend on how fast the machine is. */
        if (p->tty)
            p->last -= REFRESH;
    }
}

/* scaled writes v with an SI suffix: 950, 12.3k, 4.56M, 7.89G. */
static void scaled(char *buf, size_t n, double v, const char *unit)
{
    static const char *const prefix[] = {"", "k", "M", "G", "T"};
    int i = 0;
    while (v >= 1000 && i < 4) {
        v /= 1000;
        i++;
    }
    if (i == 0)
        snprintf(buf, n, "%.0f%s%s", v, unit[0] != '\0' ? " " : "", unit);
    else
        snprintf(buf, n, "%.*f%s%s%s", v < 10 ? 2 : v < 100 ? 1 : 0, v, unit[0] ? " " : "",
                 prefix[i], unit);
}

/* draw prints the line; end: NULL while running, else the last line's ending. */
static void draw(cli_progress *p, double t, const char *end)
{
    char bytes[64] = "", num[32], events[32], rate[32];
    double secs = t - p->start;

    if (p->in != NULL) {
        uint64_t off = gtr_input_offset(p->in);
        scaled(num, sizeof num, (double)off, "B");
        if (p->total > 0 && off > p->total)
            p->total = 0; /* the estimate was wrong (a gzip ISIZE that wrapped): drop it */
        if (p->total > 0) {
            double f = (double)off / (double)p->total * 100;
            snprintf(bytes, sizeof bytes, "%s read (%.0f%%), ", num, f > 100 ? 100 : f);
        } else {
            snprintf(bytes, sizeof bytes, "%s read, ", num);
        }
    }
    scaled(events, sizeof events, (double)p->events, "");
    scaled(rate, sizeof rate, secs > 0 ? (double)p->events / secs : 0, "");
    fflush(stdout);
    if (p->text[0] != '\0')
        fprintf(stderr, "%sgotrace %s: %s%s%s", p->tty ? "\r" : "", p->label, p->text,
                end != NULL ? end : "", p->tty ? "\033[K" : "\n");
    else
        fprintf(stderr, "%sgotrace %s: %s%s events, %s events/s%s%s", p->tty ? "\r" : "",
                p->label, bytes, events, rate, end != NULL ? end : "", p->tty ? "\033[K" : "\n");
    fflush(stderr);
    p->drawn = p->tty;
}

void cli_progress_tick(cli_progress *p)
{
    double t = now();
    p->next = p->events + CLI_PROGRESS_EVERY;
    if (t - p->last < REFRESH)
        return;
    p->last = t;
    draw(p, t, NULL);
}

void cli_progress_text(cli_progress *p, const char *text)
{
    if (!p->on)
        return;
    snprintf(p->text, sizeof p->text, "%s", text);
    p->last = now();
    draw(p, p->last, NULL);
}

void cli_progress_end(cli_progress *p, bool ok)
{
    if (!p->on)
        return;
    if (p->tty) {
        if (p->drawn)
            fputs("\r\033[K", stderr);
    } else {
        draw(p, now(), ok ? ", done" : ", stopped");
    }
    fflush(stderr);
    p->on = false;
    p->drawn = false;
}

uint64_t cli_file_size(const char *path, const gtr_input *in)
{
    struct stat sb;
    unsigned char isize[4];
    FILE *f;
    uint64_t n = 0;

    if (path == NULL || strcmp(path, "-") == 0)
        return 0;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size <= 0)
        return 0;
    if (in == NULL || !gtr_input_is_gzip(in))
        return (uint64_t)sb.st_size;
    /* gzip: the last member's ISIZE, the uncompressed size mod 2^32 (RFC 1952). Right for
     * the usual single-member file under 4 GiB; when it is not, the reader outgrows it and
     * cli_progress drops the percentage. */
    if (sb.st_size < 18 || (f = fopen(path, "rb")) == NULL)
        return 0;
    if (fseek(f, -4, SEEK_END) == 0 && fread(isize, 1, 4, f) == 4)
        n = (uint64_t)isize[0] | (uint64_t)isize[1] << 8 | (uint64_t)isize[2] << 16 |
            (uint64_t)isize[3] << 24;
    fclose(f);
    return n;
}
