/* SPDX-License-Identifier: BSD-3-Clause */
/* registry.c: the table of every generator, built from generators.h (Go's mktests.go runs
 * each generator program of testdata/generators instead). */
#include "generators.h"

#define TGEN_ENTRY_(ident, name, ver) {name, ver, tgen_gen_##ident},
static const tgen_generator registry[] = {TGEN_GENERATOR_LIST(TGEN_ENTRY_)};
#undef TGEN_ENTRY_

const tgen_generator *tgen_generators(size_t *n)
{
    *n = sizeof registry / sizeof registry[0];
    return registry;
}
