/* SPDX-License-Identifier: BSD-3-Clause */
/* cmp_consts.c: the constants that the code under test compared values against.
 *
 * With -fsanitize=fuzzer, clang calls __sanitizer_cov_trace_const_cmp{4,8}(c, x) before each
 * comparison of a value x with a compile-time constant c, and libFuzzer keeps the pair in its
 * table of recent comparisons (32 entries, indexed by c ^ x), from which a mutation may write
 * c where x's bytes are in the input. That feedback fails for a constant compared inside a
 * loop over a long trace's decoded arguments: the pair is overwritten by later comparisons
 * long before a mutation can use it, and the input holds the value varint-encoded, not as the
 * 4 or 8 bytes the mutation looks for.
 *
 * Linked with -Wl,--wrap=__sanitizer_cov_trace_const_cmp8 and --wrap=...cmp4, those calls
 * come here first: c is kept in a table with one slot per call site (a hash of the caller's
 * address; a later site hashed to the same slot takes it over), and libFuzzer's own hook then
 * runs, entered by a tail call so that it sees the original call site as its caller (its
 * value profile is keyed by it). A custom mutator (fuzz/fuzz_sim_mutator.c) picks constants
 * from here and writes them where the code decodes a value, as AFL++'s CmpLog does with its
 * per-site logs.
 *
 * The table outlives each run (as libFuzzer's own does), is read only by the mutator between
 * runs, and is not thread-safe: libFuzzer runs inputs and mutations on one thread. None of
 * this is compiled with coverage instrumentation (it would call its own hook). */
#include "cmp_consts.h"

#define CMPC_SLOTS 1024

static uint64_t cmpc_value[CMPC_SLOTS];   /* 0: empty (0 is never kept) */
static uint16_t cmpc_used[CMPC_SLOTS];    /* the slots that hold a constant, in first-use order */
static size_t cmpc_nused;

#if defined(__clang__)
#define CMPC_NO_INSTRUMENT __attribute__((no_sanitize("address", "undefined", "coverage")))
#else
#define CMPC_NO_INSTRUMENT   /* gcc: only built for the tests, uninstrumented */
#endif

CMPC_NO_INSTRUMENT void gtr_cmpc_note(uintptr_t pc, uint64_t c)
{
    if (c + 256 < 512)   /* -256 <= (int64) c <= 255 */
        return;
    size_t slot = (size_t)(((uint64_t)pc * UINT64_C(0x9e3779b97f4a7c15)) >> 54);   /* 10 bits */
    if (cmpc_value[slot] == 0)
        cmpc_used[cmpc_nused++] = (uint16_t)slot;
    cmpc_value[slot] = c;
}

size_t gtr_cmpc_count(void)
{
    return cmpc_nused;
}

bool gtr_cmpc_pick(uint64_t r, uint64_t *c)
{
    if (cmpc_nused == 0)
        return false;
    *c = cmpc_value[cmpc_used[r % cmpc_nused]];
    return true;
}

#if defined(__clang__) && defined(GTR_CMPC_WRAP)
/* The hooks: only in a libFuzzer link with the --wrap options (fuzz/CMakeLists.txt). */
void __real___sanitizer_cov_trace_const_cmp8(uint64_t a, uint64_t b);
void __real___sanitizer_cov_trace_const_cmp4(uint32_t a, uint32_t b);
void __wrap___sanitizer_cov_trace_const_cmp8(uint64_t a, uint64_t b);
void __wrap___sanitizer_cov_trace_const_cmp4(uint32_t a, uint32_t b);

/* musttail needs `return call;`, which -Wpedantic calls a void expression returned. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpedantic"
CMPC_NO_INSTRUMENT void __wrap___sanitizer_cov_trace_const_cmp8(uint64_t a, uint64_t b)
{
    gtr_cmpc_note((uintptr_t)__builtin_return_address(0), a);
    __attribute__((musttail)) return __real___sanitizer_cov_trace_const_cmp8(a, b);
}

CMPC_NO_INSTRUMENT void __wrap___sanitizer_cov_trace_const_cmp4(uint32_t a, uint32_t b)
{
    gtr_cmpc_note((uintptr_t)__builtin_return_address(0), a);
    __attribute__((musttail)) return __real___sanitizer_cov_trace_const_cmp4(a, b);
}
#pragma clang diagnostic pop
#endif
