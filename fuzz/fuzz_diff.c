/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_diff.c: differential fuzzing in one process: every input is read by libtrace and by
 * Go 1.27.3's own reader and validator (the archive of ci/go-diff-archive.sh, linked in), and
 * the two must agree, as ci/difffuzz/judge.sh judges the two processes of ci/difffuzz.sh.
 *
 * Input: a wire trace (never gunzipped: Go's reader reads none). The oracle is fdiff_judge
 * (fuzz/diff/diff_judge.h): the same ending, event dump and message on both sides, beyond
 * Go's own map-order nondeterminism; a divergence aborts with a summary (the first differing
 * event line in context, both messages). Go panics are counted and kept, not compared. The
 * counts go to stderr at exit (diff_judge.c's LLVMFuzzerInitialize).
 *
 * Built with GTR_GO_DIFF_RELEASE=N (ci/go-releases-bench.sh), the archive holds the reader
 * of the earlier release Go 1.N, and only the inputs whose header is one it reads are
 * judged: go 1.22 to go 1.N, or with GTR_GO_DIFF_OLD_FORMATS the old formats go 1.11 to
 * go 1.21 (which Go reads since 1.23) instead, so that the two are measured apart
 * (fuzz/releases/README.md). */
#include <string.h>

#include "diff/diff_judge.h"
#include "fuzz_common.h"

#ifdef GTR_GO_DIFF_RELEASE
/* The header "go 1.NN trace\0\0\0" with 22 <= NN <= GTR_GO_DIFF_RELEASE, or with
 * GTR_GO_DIFF_OLD_FORMATS 11 <= NN <= 21. */
static int release_reads(const uint8_t *data, size_t size)
{
    if (size < 16 || memcmp(data, "go 1.", 5) != 0 || memcmp(data + 7, " trace\0\0\0", 9) != 0)
        return 0;
    if (data[5] < '0' || data[5] > '9' || data[6] < '0' || data[6] > '9')
        return 0;
    const int minor = (data[5] - '0') * 10 + (data[6] - '0');
#ifdef GTR_GO_DIFF_OLD_FORMATS
    return minor >= 11 && minor <= 21;
#else
    return minor >= 22 && minor <= GTR_GO_DIFF_RELEASE;
#endif
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT_BYTES)
        return 0;
#ifdef GTR_GO_DIFF_RELEASE
    if (!release_reads(data, size))
        return 0;
#endif
    fdiff_judge(data, size);
    return 0;
}
