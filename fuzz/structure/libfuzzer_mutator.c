/* SPDX-License-Identifier: BSD-3-Clause */
/* libfuzzer_mutator.c: the structure-aware mutator as libFuzzer's custom mutator and
 * crossover. Link it only into mutator-enabled fuzzers (e.g. fuzz_reader_mutator); compile it
 * (and gtr_fuzzstruct) without coverage instrumentation. A custom mutator replaces all of
 * libFuzzer's own mutations, so the byte-level minority goes through LLVMFuzzerMutate, which
 * keeps the dictionary and comparison feedback in play. $GTR_FS_VALUES may name a file of
 * integers: a decoded-domain dictionary (gtr_fs_load_values). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fs/mutate.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size,
                                 unsigned int seed);

static size_t engine_mutate(void *ctx, uint8_t *data, size_t size, size_t max_size)
{
    (void)ctx;
    return LLVMFuzzerMutate(data, size, max_size);
}

static gtr_fs_mutator *mutator(void)
{
    static gtr_fs_mutator *m;
    if (m == NULL) {
        gtr_fs_options opt = {.byte_mutate = engine_mutate, .byte_percent = 15};
        opt.no_splice = getenv("GTR_FS_NO_SPLICE") != NULL;
        uint64_t *values = NULL;
        const char *path = getenv("GTR_FS_VALUES");
        if (path != NULL && gtr_fs_load_values(path, &values, &opt.nvalues))
            opt.values = values;
        m = gtr_fs_mutator_new(&opt);   /* copies the values */
        free(values);
        if (m == NULL)
            abort();
    }
    return m;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    return gtr_fs_mutate(mutator(), data, size, max_size, seed, data);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size,
                                 unsigned int seed)
{
    return gtr_fs_crossover(mutator(), data1, size1, data2, size2, max_out_size, seed, out);
}
