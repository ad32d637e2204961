/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_sim_mutator.c: the sim target's custom mutator (libFuzzer builds of fuzz/fuzz_sim.c).
 *
 * Seven mutations in eight are libFuzzer's own (LLVMFuzzerMutate: its byte mutations, its
 * table of recent comparisons, the value profile). The eighth writes a constant that the code
 * under test compared a value against (fuzz/cmp_consts.c) into a corruption record
 * (fuzz/sim_records.h) as a `set`: the value of a record the input already has (its event and
 * argument kept), or a new record at the end, aimed at a random event and argument. The
 * constant itself, or one more or one less (a bound checked with < or <=), becomes a decoded
 * argument of the model's trace, which byte mutations of the varint-encoded bytes would
 * almost never reach and libFuzzer's own comparison feedback loses in a long trace.
 *
 * Not compiled with coverage instrumentation (it is the engine's side). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cmp_consts.h"
#include "sim_records.h"
#include "structure/rng.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

static void put_le(uint8_t *p, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* records counts the whole corruption records at the end of data[0..size), as fuzz_sim.c
 * reads them (one cut by the start of the input is not counted: it cannot be rewritten). */
static size_t records(const uint8_t *data, size_t size)
{
    size_t n = 0;
    while (n < SIM_MAX_OPS && size >= SIM_REC_BYTES && data[size - 1] >= SIM_MARKER) {
        n++;
        size -= SIM_REC_BYTES;
    }
    return n;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint64_t rng = seed, c;
    uint64_t r = gtr__fs_splitmix(&rng);
    if (r % 8 != 0 || !gtr_cmpc_pick(r >> 3, &c))
        return LLVMFuzzerMutate(data, size, max_size);
    r = gtr__fs_splitmix(&rng);
    if (r % 8 == 0)
        c++;
    else if (r % 8 == 1)
        c--;
    size_t n = records(data, size);
    if (n > 0 && ((r >> 3) % 2 == 0 || n == SIM_MAX_OPS || size + SIM_REC_BYTES > max_size)) {
        /* Record k from the end: its value, and the operation made a `set`. */
        uint8_t *rec = data + size - SIM_REC_BYTES * (1 + (r >> 4) % n);
        put_le(rec, c, 8);
        rec[SIM_REC_BYTES - 1] = SIM_MARKER + OP_SET;
        return size;
    }
    if (size + SIM_REC_BYTES > max_size)
        return LLVMFuzzerMutate(data, size, max_size);
    uint8_t *rec = data + size;
    r = gtr__fs_splitmix(&rng);
    put_le(rec, c, 8);
    put_le(rec + 8, r, 4);                  /* where: an event type and occurrence */
    rec[12] = (uint8_t)(r >> 32);           /* arg */
    rec[13] = SIM_MARKER + OP_SET;
    return size + SIM_REC_BYTES;
}
