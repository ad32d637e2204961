/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_reader: throughput of the high-level reader on one trace, decompressed to memory
 * first: events/s and MB/s (of decompressed trace bytes) for parse-only and
 * parse+validate, the reader's peak allocated bytes, and the process's peak RSS.
 *
 *   bench_reader [-n RUNS] [-g GO_BENCH] TRACE
 *   bench_reader -1 parse|validate TRACE
 *
 * Each mode runs RUNS times (default 3); the median run is reported. A run on a small
 * trace reads it again until 50 ms of CPU time have passed, and divides. With -g, GO_BENCH is
 * Go's reader timed the same way (bench/gtrbench.go, built by ci/bench.sh), run as
 * "GO_BENCH serve TRACE 1": each of our runs is followed by one of its runs, so that the two
 * sides of a pair meet the same load, and the ratio printed is the median of the RUNS pairs'
 * ratios (each side's median run is printed too). Times are process CPU time (the machine
 * is shared; wall time is shown too).
 * With -1, the trace is read once in the one mode and only the event count is printed: for
 * instruction counts (callgrind, perf stat -e instructions) of the reader alone.
 * Measured, never asserted. */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gtr/gtr.h"
#include "gtr/reader.h"
#include "gtr/validate.h"

/* A counting allocator, to report the reader's own peak. */
typedef struct counter {
    size_t live, peak;
} counter;

#define HDR 16

static void *cnt_malloc(void *ctx, size_t n)
{
    counter *c = ctx;
    unsigned char *p = malloc(n + HDR);
    if (p == NULL)
        return NULL;
    memcpy(p, &n, sizeof n);
    c->live += n;
    if (c->live > c->peak)
        c->peak = c->live;
    return p + HDR;
}

static void cnt_free(void *ctx, void *ptr)
{
    counter *c = ctx;
    if (ptr == NULL)
        return;
    unsigned char *p = (unsigned char *)ptr - HDR;
    size_t n;
    memcpy(&n, p, sizeof n);
    c->live -= n;
    free(p);
}

static void *cnt_realloc(void *ctx, void *ptr, size_t n)
{
    counter *c = ctx;
    if (ptr == NULL)
        return cnt_malloc(ctx, n);
    unsigned char *p = (unsigned char *)ptr - HDR;
    size_t old;
    memcpy(&old, p, sizeof old);
    unsigned char *q = realloc(p, n + HDR);
    if (q == NULL)
        return NULL;
    memcpy(q, &n, sizeof n);
    c->live = c->live - old + n;
    if (c->live > c->peak)
        c->peak = c->live;
    return q + HDR;
}

/* now returns the process's CPU time: on a shared machine wall time mostly measures the
 * other processes. (Go's figures are its process CPU time too, GC threads included.) */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* run reads the whole trace once; returns the event count, or -1 on error. */
static long run(const char *data, size_t len, bool validate, const gtr_alloc *alc)
{
    gtr_err err = GTR_ERR_INIT;
    gtr_input *in;
    if (gtr_input_open_memory(data, len, alc, &in, &err) != GTR_OK) {
        fprintf(stderr, "bench_reader: %s\n", gtr_err_text(&err, NULL));
        return -1;
    }
    gtr_reader *r;
    if (gtr_reader_new(in, alc, &r, &err) != GTR_OK) {
        fprintf(stderr, "bench_reader: %s\n", gtr_err_text(&err, NULL));
        gtr_input_free(in);
        return -1;
    }
    gtr_validator *v = NULL;
    if (validate) {
        if (gtr_validator_new(alc, &v, &err) != GTR_OK) {
            fprintf(stderr, "bench_reader: %s\n", gtr_err_text(&err, NULL));
            gtr_reader_free(r);
            gtr_input_free(in);
            return -1;
        }
    }
    long n = 0;
    gtr_event ev;
    gtr_status st;
    if (v != NULL) {
        /* The library's validation loop, as gotrace validate runs it. */
        uint64_t k;
        st = gtr_validator_run(v, r, 0, &k, &err);
        n = (long)k;
    } else {
        while ((st = gtr_reader_next(r, &ev, &err)) == GTR_OK)
            n++;
    }
    if (st != GTR_EOF) {
        fprintf(stderr, "bench_reader: %s\n", gtr_err_text(&err, NULL));
        n = -1;
    }
    gtr_validator_free(v);
    gtr_reader_free(r);
    gtr_input_free(in);
    return n;
}

typedef struct figures {
    long events;
    double seconds;   /* median run, CPU time */
    double wall;      /* that run's wall time */
} figures;

static int cmp_figures(const void *a, const void *b)
{
    const figures *x = a, *y = b;
    return (x->seconds > y->seconds) - (x->seconds < y->seconds);
}

#define MAX_RUNS 101

static int cmp_double(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (*x > *y) - (*x < *y);
}

/* one_run is one run: the trace read as many times as 50 ms of CPU take (small traces),
 * the time per read counted. */
static bool one_run(const char *data, size_t len, bool validate, figures *out)
{
    double w0 = wall(), t0 = now(), dt;
    long n, reps = 0;
    do {
        n = run(data, len, validate, NULL);
        if (n < 0)
            return false;
        reps++;
        dt = now() - t0;
    } while (dt < 0.05);
    *out = (figures){n, dt / (double)reps, (wall() - w0) / (double)reps};
    return true;
}

/* go_server is "GO_BENCH serve TRACE 1", answering a "parse" or "validate" line with one
 * run's "events=N seconds=S wall=W". */
typedef struct go_server {
    pid_t pid;
    FILE *to, *from;
} go_server;

extern char **environ;

static bool go_start(go_server *g, const char *prog, const char *path)
{
    int in[2], out[2];
    if (pipe(in) != 0)
        return false;
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        return false;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, in[0]);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    posix_spawn_file_actions_addclose(&fa, out[1]);
    char serve[] = "serve", one[] = "1";
    char *prog_copy = strdup(prog), *path_copy = strdup(path);
    char *argv[] = {prog_copy, serve, path_copy, one, NULL};
    int rc = prog_copy != NULL && path_copy != NULL
                 ? posix_spawn(&g->pid, prog, &fa, NULL, argv, environ)
                 : ENOMEM;
    free(prog_copy);
    free(path_copy);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    g->to = rc == 0 ? fdopen(in[1], "w") : NULL;
    g->from = rc == 0 ? fdopen(out[0], "r") : NULL;
    if (g->to == NULL || g->from == NULL) {
        if (g->to != NULL)
            fclose(g->to);
        else
            close(in[1]);
        if (g->from != NULL)
            fclose(g->from);
        else
            close(out[0]);
        if (rc == 0)
            waitpid(g->pid, NULL, 0);
        return false;
    }
    return true;
}

static bool go_run(go_server *g, bool validate, figures *out)
{
    char line[256];
    if (fprintf(g->to, "%s\n", validate ? "validate" : "parse") < 0 || fflush(g->to) != 0 ||
        fgets(line, sizeof line, g->from) == NULL)
        return false;
    return sscanf(line, "events=%ld seconds=%lf wall=%lf", &out->events, &out->seconds,
                  &out->wall) == 3;
}

/* go_stop ends the server: true when it exited with status 0. */
static bool go_stop(go_server *g)
{
    fclose(g->to);
    fclose(g->from);
    int status;
    return waitpid(g->pid, &status, 0) == g->pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

/* ratios: the pairs' Go/C ratios, their median and range. */
typedef struct ratios {
    double median, min, max;
} ratios;

/* bench runs a mode RUNS times: *c is our median run. With g, each of our runs is followed
 * by one of Go's: *go is its median run, *ratio the pairs' Go/C ratios. */
static bool bench(const char *data, size_t len, bool validate, int runs, go_server *g,
                  figures *c, figures *go, ratios *ratio)
{
    figures cs[MAX_RUNS], gs[MAX_RUNS];
    double rs[MAX_RUNS];
    if (runs > MAX_RUNS)
        runs = MAX_RUNS;
    for (int i = 0; i < runs; i++) {
        if (!one_run(data, len, validate, &cs[i]))
            return false;
        if (g != NULL) {
            if (!go_run(g, validate, &gs[i])) {
                fprintf(stderr, "bench_reader: Go's run failed\n");
                return false;
            }
            rs[i] = gs[i].seconds / cs[i].seconds;
        }
    }
    qsort(cs, (size_t)runs, sizeof cs[0], cmp_figures);
    *c = cs[runs / 2];
    if (g != NULL) {
        qsort(gs, (size_t)runs, sizeof gs[0], cmp_figures);
        qsort(rs, (size_t)runs, sizeof rs[0], cmp_double);
        *go = gs[runs / 2];
        ratio->median = rs[runs / 2];   /* the median as of each side's runs */
        ratio->min = rs[0];
        ratio->max = rs[runs - 1];
    }
    return true;
}

static void print_row(const char *who, const char *mode, const figures *f, size_t len)
{
    printf("%-3s %-15s %9ld events %9.6f s cpu (%9.6f s wall) %7.2f M events/s %7.1f MB/s "
           "%6.1f ns/event\n",
           who, mode, f->events, f->seconds, f->wall, (double)f->events / f->seconds / 1e6,
           (double)len / f->seconds / 1e6, f->seconds * 1e9 / (double)f->events);
}

int main(int argc, char **argv)
{
    int runs = 3;
    const char *gobench = NULL;
    const char *once = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "-g") == 0 && i + 1 < argc)
            gobench = argv[++i];
        else if (strcmp(argv[i], "-1") == 0 && i + 1 < argc)
            once = argv[++i];
        else
            break;
    }
    if (i + 1 != argc || runs < 1 ||
        (once != NULL && strcmp(once, "parse") != 0 && strcmp(once, "validate") != 0)) {
        fprintf(stderr, "usage: bench_reader [-n RUNS] [-g GO_BENCH] TRACE\n"
                        "       bench_reader -1 parse|validate TRACE\n");
        return 2;
    }
    const char *path = argv[i];

    /* Decompress the whole trace to memory first. */
    gtr_err err = GTR_ERR_INIT;
    gtr_input *in;
    if (gtr_input_open_path(path, NULL, &in, &err) != GTR_OK) {
        fprintf(stderr, "bench_reader: %s\n", gtr_err_text(&err, NULL));
        return 1;
    }
    char *data = NULL;
    size_t len = 0;
    if (gtr_input_read_all(in, &data, &len, &err) != GTR_OK) {
        fprintf(stderr, "bench_reader: %s\n", gtr_err_text(&err, NULL));
        gtr_input_free(in);
        return 1;
    }
    gtr_input_free(in);
    if (once != NULL) {
        long n = run(data, len, strcmp(once, "validate") == 0, NULL);
        free(data);
        if (n < 0)
            return 1;
        printf("%ld events\n", n);
        return 0;
    }
    printf("trace %s: %zu bytes decompressed, median of %d runs\n", path, len, runs);

    counter c = {0, 0};
    gtr_alloc alc = {cnt_malloc, cnt_realloc, cnt_free, &c};
    if (run(data, len, false, &alc) < 0)
        return 1;
    size_t reader_peak = c.peak;

    go_server gsrv, *g = NULL;
    if (gobench != NULL) {
        signal(SIGPIPE, SIG_IGN);   /* a Go side that died is an error of go_run */
        if (!go_start(&gsrv, gobench, path)) {
            fprintf(stderr, "bench_reader: running %s failed\n", gobench);
            free(data);
            return 1;
        }
        g = &gsrv;
    }
    figures parse, validate, gp, gv;
    ratios rp = {0, 0, 0}, rv = {0, 0, 0};
    bool ok = bench(data, len, false, runs, g, &parse, &gp, &rp) &&
              bench(data, len, true, runs, g, &validate, &gv, &rv);
    if (g != NULL && !go_stop(g)) {
        fprintf(stderr, "bench_reader: %s failed\n", gobench);
        ok = false;
    }
    if (!ok) {
        free(data);
        return 1;
    }
    print_row("C", "parse", &parse, len);
    print_row("C", "parse+validate", &validate, len);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("C   reader peak allocated %zu bytes; process peak RSS %ld KiB (trace buffer "
           "included)\n",
           reader_peak, ru.ru_maxrss);
    if (g != NULL) {
        print_row("Go", "parse", &gp, len);
        print_row("Go", "parse+validate", &gv, len);
        if (gp.events != parse.events)
            printf("warning: event counts differ (C %ld, Go %ld)\n", parse.events, gp.events);
        printf("C/Go speed: parse %.1fx, parse+validate %.1fx (medians of %d paired runs; "
               "ranges %.1fx-%.1fx, %.1fx-%.1fx)\n",
               rp.median, rv.median, runs, rp.min, rp.max, rv.min, rv.max);
    }
    free(data);
    return 0;
}
