/* SPDX-License-Identifier: BSD-3-Clause */
/* cmp_consts.h: the constants that the code under test compared values against, kept across
 * runs for a custom mutator (fuzz/cmp_consts.c; libFuzzer builds only). */
#ifndef GTR_FUZZ_CMP_CONSTS_H
#define GTR_FUZZ_CMP_CONSTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* gtr_cmpc_count: how many call sites have left a constant in the table. */
size_t gtr_cmpc_count(void);

/* gtr_cmpc_pick sets *c to the constant of one of those sites, chosen by r, and returns
 * true; false (and *c untouched) while the table is empty. */
bool gtr_cmpc_pick(uint64_t r, uint64_t *c);

/* gtr_cmpc_note keeps constant c compared at call site pc (what the hooks do; exposed for
 * the tests). Constants in [-256, 255] are not kept: byte mutations reach them anyway. */
void gtr_cmpc_note(uintptr_t pc, uint64_t c);

#endif
