/* SPDX-License-Identifier: BSD-3-Clause */
/* rng.h: the splitmix64 generator the mutators draw from (fuzz/structure's operators and
 * fuzz/fuzz_sim_mutator.c; private to fuzz/). */
#ifndef GTR_FS_RNG_H
#define GTR_FS_RNG_H

#include <stdint.h>

/* gtr__fs_splitmix advances *state and returns the next value.
 * Two draws never share an expression whose order of evaluation C leaves to the compiler (a
 * call's arguments, the two sides of `=`, `+` or `>>`, an initializer list): each gets its
 * own statement, so that a seed gives the same mutant whichever compiler built the mutator
 * (test_mutator and test_splice pin the SHA-256 of their output). */
static inline uint64_t gtr__fs_splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif /* GTR_FS_RNG_H */
