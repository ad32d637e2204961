/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_diff.c: differential fuzzing in one process: every input is read by libtrace and by
 * Go 1.27.3's own reader and validator (the archive of ci/go-diff-archive.sh, linked in), and
 * the two must agree, as ci/difffuzz/judge.sh judges the two processes of ci/difffuzz.sh.
 *
 * Input: a wire trace (never gunzipped: Go's reader reads none). The oracle is fdiff_judge
 * (fuzz/diff/diff_judge.h): the same ending, event dump and message on both sides, beyond
 * Go's own map-order nondeterminism; a divergence aborts with a summary (the first differing
 * event line in context, both messages). Go panics are counted and kept, not compared. The
 * counts go to stderr at exit (diff_judge.c's LLVMFuzzerInitialize). */
#include "diff/diff_judge.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT_BYTES)
        return 0;
    fdiff_judge(data, size);
    return 0;
}
