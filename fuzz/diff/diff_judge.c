/* SPDX-License-Identifier: BSD-3-Clause */
/* diff_judge.c: one input read by libtrace and by Go, judged (diff_judge.h). */
#include "diff_judge.h"

#include <inttypes.h>

#include "fuzz_common.h"
#include "godiff.h"

/* The release of Go's reader in the archive (ci/go-releases-bench.sh builds earlier ones). */
#ifdef GTR_GO_DIFF_RELEASE
#define JUDGED_GO_MINOR GTR_GO_DIFF_RELEASE
#else
#define JUDGED_GO_MINOR GODIFF_GO_MINOR
#endif

/* Runs of Go that must all agree before a difference counts as ours. A small Go
 * map starts its iteration at one of 8 slots, so two entries may come in one order 7 times
 * in 8: 64 runs (judge.sh's GO_RUNS_ORDER) all agree by chance with a probability of
 * (7/8)^63 = 2e-4 on each such input (a false divergence in 5,000 of them), and fuzz_diff
 * meets thousands an hour. More runs cost nothing on the usual input: a nondeterministic one
 * stops at the first run that explains it (a few on average), and only a real divergence
 * runs them all. */
#define GO_RUNS 512
/* Where Go makes several random choices in one reading (the M of each of several ProcStatus
 * events), ours can be one combination among dozens, and the line-by-line rule needs each
 * of its lines from some run: 512 runs once missed one (fuzz/regressions/reader/
 * diff-go-nondet-many-choices, 1 input in 3.2 million). A difference still unexplained gets
 * this many more runs before it counts as ours: only a real divergence pays for them. */
#define GO_RUNS_AGAIN 4096

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
static void diverged(const godiff_reading *ours, const godiff_reading *go)
{
    godiff_report(stderr, ours, go);
    FUZZ_CHECK(false, "gotrace reads the input as Go does");
}

void fdiff_judge(const uint8_t *data, size_t size)
{
    gtr_buf dump = {0};
    gtr_err err = GTR_ERR_INIT;
    godiff_end end = godiff_read_ours(data, size, JUDGED_GO_MINOR, &dump, &err);
    FUZZ_CHECK(gtr_buf_status(&dump) == GTR_OK, "the dump fits in memory");
    size_t msg_len = 0;
    const char *msg = end == GODIFF_END_EOF ? "" : gtr_err_text(&err, &msg_len);
    godiff_reading ours = {end, (const char *)dump.data, dump.len, msg, msg_len};
    godiff_owned go;
    godiff_go_read(NULL, data, size, &go);

    counts.inputs++;
    godiff_verdict v = godiff_compare(&ours, &go.r);
    switch (v) {
    case GODIFF_SAME:
        counts.identical++;
        break;
    case GODIFF_GO_PANIC:
        counts.panics++;
        if (godiff_same_reading(&ours, &go.r))
            counts.panics_told++;
        keep_panic(data, size);
        break;
    case GODIFF_MAP_ORDER:
    case GODIFF_DIVERGES:
        /* Go's map order explains it only if another run of Go prints ours, up to the
         * order of its message's lines. */
        if (godiff_go_explains(godiff_go_read, NULL, data, size, &ours, &go.r, GO_RUNS) ||
            godiff_go_explains(godiff_go_read, NULL, data, size, &ours, &go.r, GO_RUNS_AGAIN)) {
            counts.nondet++;
            break;
        }
        diverged(&ours, &go.r);
        break;
    }
    godiff_owned_free(&go);
    gtr_err_clear(&err);
    gtr_buf_free(&dump);
}
