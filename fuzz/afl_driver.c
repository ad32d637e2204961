/* SPDX-License-Identifier: BSD-3-Clause */
/* afl_driver.c: AFL++ persistent-mode main for a fuzz target, with the shared-memory test
 * case (README.persistent_mode.md): the fork server starts once (deferred, after
 * LLVMFuzzerInitialize), then each child runs up to 10,000 inputs in a __AFL_LOOP reading
 * them straight from AFL's shared memory, never from a file (15x the fork-server speed
 * measured in FUZZING.md §3).
 *
 * Build with afl-clang-fast (fuzz/CMakeLists.txt, option GTR_FUZZ_AFL); with
 * AFL_USE_ASAN=1 AFL_USE_UBSAN=1 for the crash-detecting binary, AFL_LLVM_CMPLOG=1 for the
 * CmpLog twin (ci/fuzz-afl.sh builds both). Compiled by a plain compiler the fallback
 * macros below turn it into a stdin reader, so `fuzz_x_afl < crash` reproduces a finding.
 * This file is not instrumented (afl_driver.denylist): its edges are not the target's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

#ifndef __AFL_FUZZ_TESTCASE_LEN
/* Not compiled by afl-clang-fast: read one input from stdin. */
static ssize_t fuzz_len;
static unsigned char fuzz_buf[1 << 20];
#define __AFL_FUZZ_TESTCASE_LEN fuzz_len
#define __AFL_FUZZ_TESTCASE_BUF fuzz_buf
#define __AFL_FUZZ_INIT() void fuzz_afl_init_unused(void)
#define __AFL_INIT() ((void)0)
#define __AFL_LOOP(x) ((fuzz_len = read(0, fuzz_buf, sizeof fuzz_buf)) > 0 ? 1 : 0)
#endif

__AFL_FUZZ_INIT();

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize != NULL)
        LLVMFuzzerInitialize(&argc, &argv);
    __AFL_INIT();
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;   /* after __AFL_INIT, before the loop */
    while (__AFL_LOOP(10000)) {
        size_t len = (size_t)__AFL_FUZZ_TESTCASE_LEN;
        /* An exact-size copy, so ASan sees reads past the end of the test case. */
        uint8_t *copy = malloc(len ? len : 1);
        if (copy == NULL)
            abort();
        memcpy(copy, buf, len);
        LLVMFuzzerTestOneInput(copy, len);
        free(copy);
    }
    return 0;
}
