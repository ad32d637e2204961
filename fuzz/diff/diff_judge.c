/* SPDX-License-Identifier: BSD-3-Clause */
/* diff_judge.c: one input read by libtrace and by Go, judged (diff_judge.h). */
#include "diff_judge.h"

#include <inttypes.h>
#include <string.h>

#include "diff_compare.h"
#include "fuzz_common.h"
#include "go_reader.h"
#include "gtr/reader.h"
#include "gtr/validate.h"

/* Each side's dump is kept up to this size (godiff.go's capped writer): a small input can
 * name a deep stack of long strings from every event. */
#define DUMP_LIMIT ((size_t)32 << 20)
/* Runs of Go that must all agree before a difference counts as ours. A small Go
 * map starts its iteration at one of 8 slots, so two entries may come in one order 7 times
 * in 8: 64 runs (judge.sh's GO_RUNS_ORDER) all agree by chance with a probability of
 * (7/8)^63 = 2e-4 on each such input (a false divergence in 5,000 of them), and fuzz_diff
 * meets thousands an hour. More runs cost nothing on the usual input: a nondeterministic one
 * stops at the first run that explains it (a few on average), and only a real divergence
 * runs them all. */
#define GO_RUNS 512

/* The counts of the whole process, printed at exit (the engine owns the loop). */
static struct {
    uint64_t inputs, identical, nondet, panics;
    uint64_t panics_told;   /* Go panics where gotrace printed Go's dump, the panic as error */
} counts;

void fdiff_print_counts(void)
{
    fprintf(stderr,
            "fuzz_diff: %" PRIu64 " inputs: %" PRIu64 " identical, %" PRIu64
            " Go nondeterministic, %" PRIu64 " Go panics (not failures; on %" PRIu64
            " gotrace printed Go's dump and the panic's text as its error)\n",
            counts.inputs, counts.identical, counts.nondet, counts.panics,
            counts.panics_told);
}

/* Every target that judges with fdiff_judge prints the counts at exit: the engine calls
 * this once, before the first input (libFuzzer, and the replay driver). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    atexit(fdiff_print_counts);
    return 0;
}

#if defined(GTR_GO_DIFF_RELEASE) && GTR_GO_DIFF_RELEASE < 25
/* mask_time replaces the digits of the first " Time=" of an event line with "?", as
 * norm_nosync.go does on Go's side. */
static void mask_time(gtr_buf *line)
{
    static const char key[] = " Time=";
    for (size_t i = 0; i + sizeof key - 1 <= line->len; i++) {
        if (memcmp(line->data + i, key, sizeof key - 1) != 0)
            continue;
        size_t d = i + sizeof key - 1, e = d;
        while (e < line->len && line->data[e] >= '0' && line->data[e] <= '9')
            e++;
        if (e > d) {
            line->data[d] = '?';
            memmove(line->data + d + 1, line->data + e, line->len - e);
            line->len -= e - d - 1;
            line->data[line->len] = '\0';
        }
        return;
    }
}
#endif

/* read_gotrace reads data[0..size) as cmd_validate.c does with --log-events, into dump (its
 * first DUMP_LIMIT bytes) and err; returns the ending. Where Go's String() panics, ours
 * refuses: DIFF_END_PANIC, which Go's side then must show too. */
static diff_end read_gotrace(const uint8_t *data, size_t size, gtr_buf *dump, gtr_err *err)
{
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_validator *v = NULL;
    gtr_buf line = {0};
    gtr_event ev;
    diff_end end = DIFF_END_HEADER;

    if (gtr_input_open_memory_plain(size > 0 ? data : (const uint8_t *)"", size, NULL, &in,
                                    err) < 0 ||
        gtr_reader_new(in, NULL, &r, err) < 0)
        goto out;
    end = DIFF_END_READ;
    if (gtr_validator_new(NULL, &v, err) < 0)
        goto out;
    gtr_validator_set_go_version(v, gtr_reader_go_version(r));
    for (;;) {
        gtr_status st = gtr_reader_next(r, &ev, err);
        if (st == GTR_EOF) {
            end = DIFF_END_EOF;
            break;
        }
        if (st < 0)
            break;
        gtr_buf_reset(&line);
#if defined(GTR_GO_DIFF_RELEASE) && GTR_GO_DIFF_RELEASE < 25
        /* Against Go 1.22 and 1.23 (ci/go-releases-bench.sh), whose reader emits a Sync
         * after each generation, not before it, and prints no N: Sync events are left out
         * of both dumps (fuzz/releases/README.md, norm_nosync.go on Go's side). */
        if (gtr_event_get_kind(&ev) == GTR_EVENT_SYNC) {
            if (gtr_validator_event(v, &ev, err) < 0) {
                end = DIFF_END_VALIDATOR;
                break;
            }
            continue;
        }
#endif
        if (gtr_event_format(&ev, &line, err) < 0) {
            end = err->code == GTR_E_USAGE ? DIFF_END_PANIC : DIFF_END_READ;
            break;
        }
#if defined(GTR_GO_DIFF_RELEASE) && GTR_GO_DIFF_RELEASE < 25
        /* ... and each event's Time= is masked (golang/go#73558: the Sync before the first
         * generation moves the times that the reader bumps to keep them increasing). */
        mask_time(&line);
#endif
        gtr_buf_putc(&line, '\n');
        if (dump->len < DUMP_LIMIT) {
            size_t room = DUMP_LIMIT - dump->len;
            gtr_buf_append(dump, line.data, line.len < room ? line.len : room);
        }
        if (gtr_validator_event(v, &ev, err) < 0) {
            end = DIFF_END_VALIDATOR;
            break;
        }
    }
out:
    gtr_buf_free(&line);
    gtr_validator_free(v);
    gtr_reader_free(r);
    gtr_input_free(in);
    return end;
}

/* A reading by Go: its texts are malloc'd by the archive. */
typedef struct go_reading {
    fdiff_reading r;
    char *dump, *msg;
} go_reading;

static void read_go(const uint8_t *data, size_t size, go_reading *g)
{
    size_t dump_len = 0, msg_len = 0;
    int end = gtrdiff_go_validate((unsigned char *)(uintptr_t)data, size, DUMP_LIMIT, &g->dump,
                                  &dump_len, &g->msg, &msg_len);
    g->r = (fdiff_reading){(diff_end)end, g->dump, dump_len, g->msg, msg_len};
}

static void go_reading_free(go_reading *g)
{
    free(g->dump);
    free(g->msg);
}

/* go_explains: in up to GO_RUNS runs of Go on the input, one shows that Go's map order
 * explains how ours differs from Go's first run (fdiff_rerun_explains), or the runs so far
 * make ours one of Go's outputs line by line (fdiff_mix). */
static bool go_explains(const uint8_t *data, size_t size, const fdiff_reading *ours,
                        const fdiff_reading *first)
{
    fdiff_mix mix;
    bool have_mix = fdiff_mix_init(&mix, ours), explained = false;
    if (have_mix)
        fdiff_mix_add(&mix, ours, first, first);
    for (int i = 1; i < GO_RUNS && !explained; i++) {
        go_reading again;
        read_go(data, size, &again);
        explained = fdiff_rerun_explains(ours, first, &again.r);
        if (have_mix && !explained) {
            fdiff_mix_add(&mix, ours, first, &again.r);
            explained = fdiff_mix_explains(&mix);
        }
        go_reading_free(&again);
    }
    if (have_mix)
        fdiff_mix_free(&mix);
    return explained;
}

/* keep_panic writes the input to $GTR_DIFF_GOPANIC_DIR/gopanic-<FNV-1a of the bytes>.trace. */
static void keep_panic(const uint8_t *data, size_t size)
{
    const char *dir = getenv("GTR_DIFF_GOPANIC_DIR");
    if (dir == NULL || *dir == '\0')
        return;
    uint64_t h = UINT64_C(14695981039346656037);
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * UINT64_C(1099511628211);
    char path[4096];
    snprintf(path, sizeof path, "%s/gopanic-%016" PRIx64 ".trace", dir, h);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return;
    (void)fwrite(data, 1, size, f);
    fclose(f);
}

/* diverged reports a divergence and aborts (the engine keeps the input as a crash). */
static void diverged(const fdiff_reading *ours, const fdiff_reading *go)
{
    fdiff_report(stderr, ours, go);
    FUZZ_CHECK(false, "gotrace reads the input as Go does");
}

void fdiff_judge(const uint8_t *data, size_t size)
{
    gtr_buf dump = {0};
    gtr_err err = GTR_ERR_INIT;
    diff_end end = read_gotrace(data, size, &dump, &err);
    FUZZ_CHECK(gtr_buf_status(&dump) == GTR_OK, "the dump fits in memory");
    size_t msg_len = 0;
    const char *msg = end == DIFF_END_EOF ? "" : gtr_err_text(&err, &msg_len);
    fdiff_reading ours = {end, (const char *)dump.data, dump.len, msg, msg_len};
    go_reading go;
    read_go(data, size, &go);

    counts.inputs++;
    fdiff_verdict v = fdiff_compare(&ours, &go.r);
    switch (v) {
    case FDIFF_SAME:
        counts.identical++;
        break;
    case FDIFF_GO_PANIC:
        counts.panics++;
        if (fdiff_same_reading(&ours, &go.r))
            counts.panics_told++;
        keep_panic(data, size);
        break;
    case FDIFF_MAP_ORDER:
    case FDIFF_DIVERGES:
        /* Go's map order explains it only if another run of Go prints ours, up to the
         * order of its message's lines. */
        if (go_explains(data, size, &ours, &go.r)) {
            counts.nondet++;
            break;
        }
        diverged(&ours, &go.r);
        break;
    }
    go_reading_free(&go);
    gtr_err_clear(&err);
    gtr_buf_free(&dump);
}
