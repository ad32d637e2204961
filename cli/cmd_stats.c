/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_stats.c: `gotrace stats [FILE|-]`: what a trace is made of. First the table of Go's
 * internal/trace/testdata/cmd/gotraceeventstats ("size" mode; the tool left Go's tree after
 * Go 1.26): every event type's encoded bytes and count over the wire events, computed with
 * the raw reader, the same 256 rows in the same format and order (Go's sort is not stable:
 * the order of rows of equal bytes is that of its pdqsort, ported in libtrace (gtr/sort.h)); followed by
 * figures from the high-level reader (generations, batches, distinct Ms/Ps/Gs, events per
 * kind, first and last timestamps). FILE may be a .test fixture (cli_load_input): the figures
 * are those of its trace section as wire bytes. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "duration.h"
#include "gtr/sort.h"
#include "progress.h"
#include "gtr/raw.h"
#include "gtr/reader.h"
#include "tgen/fixture.h"

static const char usage_text[] =
    "usage: gotrace stats [--progress|--quiet] [--] [FILE|-]\n"
    "\n"
    "Prints statistics about the execution trace FILE (default or \"-\": stdin; gzip is\n"
    "accepted). Output, in two parts:\n"
    "\n"
    "1. The table of Go's gotraceeventstats (its \"size\" mode, the last version Go shipped,\n"
    "   in internal/trace/testdata/cmd up to Go 1.26), over the wire events (raw reader):\n"
    "   the same rows and format, so that the table reads as Go's does:\n"
    "     Event  Bytes  %  Count  %\n"
    "     -      -      -  -      -\n"
    "     <name> <encoded bytes> <% of the decompressed input> <count> <% of wire events>\n"
    "   one row for each of the 256 event types, zero rows included, sorted by bytes\n"
    "   (descending); each % with two decimals (12.34%, NaN% for 0 of 0); columns aligned as\n"
    "   Go's text/tabwriter (minwidth 3, padding 2). <name> is the event's spec name (empty\n"
    "   for a type number the version leaves unused), or \"<unknown (N)>\" past the version's\n"
    "   table. Go sorts with slices.SortFunc, which is not stable: rows of equal bytes (the\n"
    "   zero rows, at least) come in the order its pattern-defeating quicksort leaves them\n"
    "   in; gotrace sorts with a port of it, so the table is Go's line for line.\n"
    "   A go 1.11/1.19/1.21 trace has no table (Go's raw reader does not read that format):\n"
    "   one line says so, and part 2 has \"generations: 1\" (Go reads it as one), \"-\" for\n"
    "   batches and wire events.\n"
    "2. After a blank line, one \"key: value\" line each (high-level reader):\n"
    "     bytes: <decompressed input size, header included>\n"
    "     generations: <distinct generation numbers of the EventBatch headers>\n"
    "     batches: <EventBatch headers>\n"
    "     wire events: <raw events, batch headers included>\n"
    "     events: <events of the high-level reader, Syncs included>\n"
    "     events <Kind>: <count>   (one line per event kind present, in EventKind order)\n"
    "     Ms: <distinct thread IDs>, Ps: <distinct proc IDs>, Gs: <distinct goroutine IDs>\n"
    "         (each on its own line; IDs from the events' contexts and state transitions)\n"
    "     first timestamp: <Time>, last timestamp: <Time>  (the trace clock in ns, printed\n"
    "         as Go prints a trace.Time), duration: <last - first as Go's time.Duration\n"
    "         prints it: 400.56ms, 1.5s, 12us written with the micro sign, 0s>\n"
    "         (\"-\" for all three when there is no event)\n"
    "\n"
    "FILE may also be a .test fixture: a name ending in .test, or (stdin, any other name) a\n"
    "txtar archive whose files are exactly `expect` then `trace` (gzip is accepted). The\n"
    "statistics are those of its trace file converted to wire bytes (as Go's\n"
    "testtrace.ParseFile does); a malformed fixture fails with ParseFile's message.\n"
    "\n"
    "Both parts read the whole trace: a plain file from a mapping, a gzip file afresh for\n"
    "each part; a trace on stdin or a pipe is held in memory, at most 256 MiB of it\n"
    "(decompressed; past it: \"read stdin: input exceeds the limit of 268435456 bytes\").\n"
    "\n"
    "Exits 0; 1 (\"gotrace: <error>\") when the trace cannot be read, after printing the\n"
    "table when only the high-level reader fails; 2 on usage errors.\n"
    "\n"
    "flags (with one dash or two, as Go's flag package reads them):\n"
    "  --progress  show progress on stderr (bytes, a percentage, events, events/s, for each\n"
    "              of the two passes), even when stderr is not a terminal; by default it is\n"
    "              shown only on a terminal\n"
    "  --quiet     never show progress\n"
    "  --          end of the flags: the next argument is FILE, even if it starts with -\n"
    "  -h, --help  print this help\n";

/* ---- a set of int64 IDs ---- */

typedef struct idset {
    int64_t *keys;
    bool *used;
    size_t cap, len;
} idset;

static size_t idset_slot(const idset *s, int64_t id)
{
    uint64_t h = (uint64_t)id * UINT64_C(0x9e3779b97f4a7c15);
    size_t i = (size_t)(h >> 20) & (s->cap - 1);
    while (s->used[i] && s->keys[i] != id)
        i = (i + 1) & (s->cap - 1);
    return i;
}

static bool idset_add(idset *s, int64_t id)
{
    size_t i;
    if ((s->len + 1) * 2 > s->cap) {
        idset n = {NULL, NULL, s->cap ? s->cap * 2 : 256, 0};
        n.keys = calloc(n.cap, sizeof *n.keys);
        n.used = calloc(n.cap, sizeof *n.used);
        if (n.keys == NULL || n.used == NULL) {
            free(n.keys);
            free(n.used);
            return false;
        }
        for (size_t j = 0; j < s->cap; j++) {
            if (s->used[j]) {
                i = idset_slot(&n, s->keys[j]);
                n.used[i] = true;
                n.keys[i] = s->keys[j];
                n.len++;
            }
        }
        free(s->keys);
        free(s->used);
        *s = n;
    }
    i = idset_slot(s, id);
    if (!s->used[i]) {
        s->used[i] = true;
        s->keys[i] = id;
        s->len++;
    }
    return true;
}

static void idset_free(idset *s)
{
    free(s->keys);
    free(s->used);
}

/* The trace the two passes read: bytes in memory (data: a mapped file, a fixture's trace, a
 * stream read whole), or a regular file each pass opens afresh (path), so that a gzip file
 * is never held whole. */
typedef struct stats_source {
    const char *data;   /* NULL: read path */
    size_t len;
    const char *path;
    uint64_t size;      /* the bytes a pass reads: len, or the file's (an estimate when gzip) */
} stats_source;

/* source_open opens src for one pass: the bytes in memory as they are (decompressed
 * already: a fixture's are never gunzipped, as in Go), or the file with gzip sniffed. */
static gtr_status source_open(const stats_source *src, gtr_input **in, gtr_err *err)
{
    if (src->data != NULL)
        return gtr_input_open_memory_plain(src->data, src->len, NULL, in, err);
    return gtr_input_open_path(src->path, NULL, in, err);
}

/* ---- the size table (gotraceeventstats) ---- */

typedef struct type_stat {
    unsigned type;
    uint64_t count, bytes;
} type_stat;

/* by_bytes_desc: Go's cmp.Compare(b.bytes, a.bytes). Equal bytes compare equal: their order is
 * that of Go's slices.SortFunc, which gtr_go_sort_func reproduces. */
static int by_bytes_desc(const void *a, const void *b)
{
    const type_stat *x = a, *y = b;
    return (x->bytes < y->bytes) - (x->bytes > y->bytes);
}

enum { NCOLS = 5, CELL = 48 };

typedef struct row {
    char cell[NCOLS][CELL];
} row;

static void percent(char *out, uint64_t part, uint64_t whole)
{
    if (whole == 0)
        snprintf(out, CELL, "NaN%%");
    else
        snprintf(out, CELL, "%.2f%%", (double)part / (double)whole * 100);
}

/* print_table prints rows as Go's tabwriter.NewWriter(w, 3, 8, 2, ' ', 0) does: each column
 * but the last padded to its widest cell plus 2 (at least 3). */
static void print_table(const row *rows, size_t n)
{
    size_t width[NCOLS] = {0};
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < NCOLS - 1; c++) {
            size_t w = strlen(rows[i].cell[c]) + 2;
            if (w > width[c])
                width[c] = w < 3 ? 3 : w;
        }
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < NCOLS - 1; c++)
            printf("%-*s", (int)width[c], rows[i].cell[c]);
        printf("%s\n", rows[i].cell[NCOLS - 1]);
    }
}

typedef struct raw_figures {
    uint64_t events, batches, generations;
    uint64_t bytes;   /* the decompressed input's size, header included (0: not known yet) */
    bool v1;          /* an old-format trace: no raw figures */
} raw_figures;

static int size_table(const stats_source *src, cli_progress_mode pmode, raw_figures *fig,
                      gtr_err *err)
{
    cli_progress prog = {0};
    type_stat stats[256];
    row rows[2 + 256];
    size_t nrows = 0;
    gtr_input *in = NULL;
    gtr_raw_reader *r = NULL;
    gtr_raw_event ev;
    gtr_status st;
    uint64_t last_gen = 0;
    size_t nspecs;
    int rc = CLI_FAIL;

    for (unsigned i = 0; i < 256; i++)
        stats[i] = (type_stat){i, 0, 0};
    if (source_open(src, &in, err) < 0 || gtr_raw_reader_new(in, NULL, &r, err) < 0)
        goto end;
    if (gtr_raw_reader_version(r) < GTR_GO122) {
        fig->v1 = true;
        printf("(no size table: Go's raw reader does not read the go 1.%d format)\n",
               (int)gtr_raw_reader_version(r));
        rc = CLI_OK;
        goto end;
    }
    cli_progress_start(&prog, pmode, "stats (raw events)", in, src->size, false);
    while ((st = gtr_raw_reader_next(r, &ev, err)) == GTR_OK) {
        cli_progress_event(&prog);
        stats[ev.type].count++;
        stats[ev.type].bytes += gtr_raw_event_encoded_size(&ev);
        fig->events++;
        if (ev.type == GTR_EV_EVENT_BATCH && ev.nargs > 0) {
            if (fig->batches == 0 || ev.args[0] != last_gen)
                fig->generations++;
            last_gen = ev.args[0];
            fig->batches++;
        }
    }
    cli_progress_end(&prog, st == GTR_EOF);
    if (st < 0)
        goto end;
    fig->bytes = gtr_input_offset(in);
    gtr_go_sort_func(stats, 256, sizeof stats[0], by_bytes_desc);
    nspecs = gtr_go_version_nspecs(gtr_raw_reader_version(r));
    rows[nrows++] = (row){{"Event", "Bytes", "%", "Count", "%"}};
    rows[nrows++] = (row){{"-", "-", "-", "-", "-"}};
    for (unsigned i = 0; i < 256; i++) {
        const type_stat *s = &stats[i];
        row *w = &rows[nrows];
        const char *name = s->type < nspecs ? gtr_spec((uint8_t)s->type)->name : NULL;
        if (s->type >= nspecs)
            snprintf(w->cell[0], CELL, "<unknown (%u)>", s->type);
        else
            snprintf(w->cell[0], CELL, "%s", name != NULL ? name : "");
        snprintf(w->cell[1], CELL, "%" PRIu64, s->bytes);
        percent(w->cell[2], s->bytes, fig->bytes);
        snprintf(w->cell[3], CELL, "%" PRIu64, s->count);
        percent(w->cell[4], s->count, fig->events);
        nrows++;
    }
    print_table(rows, nrows);
    rc = CLI_OK;
end:
    cli_progress_end(&prog, false);
    gtr_raw_reader_free(r);
    gtr_input_free(in);
    return rc;
}

/* ---- the high-level figures ---- */

static int high_level(const stats_source *src, cli_progress_mode pmode, const raw_figures *fig,
                      gtr_err *err)
{
    cli_progress prog = {0};
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    idset ms = {0}, ps = {0}, gs = {0};
    uint64_t kinds[GTR_EVENT_EXPERIMENTAL + 1] = {0}, events = 0;
    gtr_time first = 0, last = 0;
    gtr_event ev;
    gtr_status st;
    bool ok = true;
    int rc = CLI_FAIL;

    if (source_open(src, &in, err) < 0 || gtr_reader_new(in, NULL, &r, err) < 0)
        goto end;
    cli_progress_start(&prog, pmode, "stats (reader)", in, src->size, false);
    while ((st = gtr_reader_next(r, &ev, err)) == GTR_OK) {
        gtr_event_kind k = gtr_event_get_kind(&ev);
        cli_progress_event(&prog);
        gtr_state_transition tr;
        if (events++ == 0)
            first = gtr_event_time(&ev);
        last = gtr_event_time(&ev);
        kinds[k <= GTR_EVENT_EXPERIMENTAL ? k : 0]++;
        if (gtr_event_thread(&ev) != GTR_NO_THREAD)
            ok &= idset_add(&ms, gtr_event_thread(&ev));
        if (gtr_event_proc(&ev) != GTR_NO_PROC)
            ok &= idset_add(&ps, gtr_event_proc(&ev));
        if (gtr_event_goroutine(&ev) != GTR_NO_GOROUTINE)
            ok &= idset_add(&gs, gtr_event_goroutine(&ev));
        if (k == GTR_EVENT_STATE_TRANSITION && gtr_event_state_transition(&ev, &tr, NULL) == GTR_OK) {
            if (tr.resource.kind == GTR_RESOURCE_GOROUTINE && tr.resource.id != GTR_NO_GOROUTINE)
                ok &= idset_add(&gs, tr.resource.id);
            else if (tr.resource.kind == GTR_RESOURCE_PROC && tr.resource.id != GTR_NO_PROC)
                ok &= idset_add(&ps, tr.resource.id);
        }
        if (!ok) {
            gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
            goto end;
        }
    }
    cli_progress_end(&prog, st == GTR_EOF);
    if (st < 0)
        goto end;
    /* An old-format trace has no size table: its size is what this pass read. */
    printf("\nbytes: %" PRIu64 "\n", fig->v1 ? gtr_input_offset(in) : fig->bytes);
    if (fig->v1) {
        printf("generations: 1\nbatches: -\nwire events: -\n");
    } else {
        printf("generations: %" PRIu64 "\n", fig->generations);
        printf("batches: %" PRIu64 "\n", fig->batches);
        printf("wire events: %" PRIu64 "\n", fig->events);
    }
    printf("events: %" PRIu64 "\n", events);
    for (int k = 0; k <= GTR_EVENT_EXPERIMENTAL; k++)
        if (kinds[k] != 0)
            printf("events %s: %" PRIu64 "\n", gtr_event_kind_string((gtr_event_kind)k), kinds[k]);
    printf("Ms: %zu\nPs: %zu\nGs: %zu\n", ms.len, ps.len, gs.len);
    if (events == 0) {
        printf("first timestamp: -\nlast timestamp: -\nduration: -\n");
    } else {
        char dur[CLI_DURATION_MAX];
        cli_duration_string((int64_t)((uint64_t)last - (uint64_t)first), dur);
        printf("first timestamp: %" PRId64 "\nlast timestamp: %" PRId64 "\nduration: %s\n",
               first, last, dur);
    }
    rc = CLI_OK;
end:
    cli_progress_end(&prog, false);
    idset_free(&ms);
    idset_free(&ps);
    idset_free(&gs);
    gtr_reader_free(r);
    gtr_input_free(in);
    return rc;
}

int cmd_stats(int argc, char **argv)
{
    const char *path = NULL, *bad = NULL;
    bool only_args = false;
    cli_progress_mode pmode = CLI_PROGRESS_AUTO;
    cli_input ci = {0};
    char *data = NULL;
    size_t len = 0;
    raw_figures fig = {0, 0, 0, 0, false};
    gtr_err err = GTR_ERR_INIT;
    int rc = CLI_FAIL;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_args && cli_is_help(a)) {
            return cli_help(usage_text);
        } else if (!only_args && cli_progress_flag(a, &pmode, &bad)) {
            if (bad != NULL)
                return cli_usage(usage_text,
                                 "stats: invalid boolean value \"%s\" for %.*s: parse error",
                                 bad, (int)(bad - 1 - a), a);
        } else if (!only_args && strcmp(a, "--") == 0) {
            only_args = true;
        } else if (!only_args && a[0] == '-' && a[1] != '\0') {
            return cli_usage(usage_text, "stats: unknown flag %s", a);
        } else if (path == NULL) {
            path = a;
        } else {
            return cli_usage(usage_text, "stats: more than one input (%s, %s)", path, a);
        }
    }
    gtr_err_clear(&err);
    const char *in_path = path != NULL ? path : "-";
    stats_source src = {NULL, 0, NULL, 0};
    struct stat sb;
    if (cli_load_input(in_path, CLI_SECTION_WIRE, &ci, &err) < 0) {
        rc = cli_fail_err(&err);
        goto end;
    }
    if (ci.map.data != NULL) {
        /* A plain regular file: its mapping is the memory both passes read. */
        src = (stats_source){ci.map.data, ci.map.len, NULL, ci.map.len};
    } else if (ci.from_fixture) {
        if (gtr_input_read_all(ci.in, &data, &len, &err) < 0) {
            rc = cli_fail_err(&err);
            goto end;
        }
        src = (stats_source){data, len, NULL, len};
    } else if (strcmp(in_path, "-") != 0 && stat(in_path, &sb) == 0 && S_ISREG(sb.st_mode)) {
        /* A gzip file: each pass reads it afresh, never whole. */
        src = (stats_source){NULL, 0, in_path, cli_file_size(in_path, ci.in)};
    } else {
        /* A stream cannot be read twice: it is held in memory, its header judged first. */
        if (tgen_read_trace(ci.in, strcmp(in_path, "-") == 0 ? "stdin" : in_path,
                            CLI_STREAM_TRACE_MAX, &data, &len, &err) < 0) {
            rc = cli_fail_trace_err(&ci, &err);
            goto end;
        }
        src = (stats_source){data, len, NULL, len};
    }
    if (size_table(&src, pmode, &fig, &err) != CLI_OK ||
        high_level(&src, pmode, &fig, &err) != CLI_OK) {
        cli_input_check_whole(&ci);
        rc = cli_fail_trace_err(&ci, &err);
        goto end;
    }
    cli_input_check_whole(&ci);
    rc = cli_close_stdout();
end:
    gtr_err_clear(&err);
    free(data);
    cli_input_free(&ci);
    return rc;
}
