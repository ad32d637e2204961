/* SPDX-License-Identifier: BSD-3-Clause */
/* mutate.h: the structure-aware mutator for Go execution traces, engine-neutral.
 *
 * gtr_fs_mutate decodes its input with the structure model (fs/model.h), applies one to
 * three operators at the level of generations, batches and events, and re-encodes with every
 * length recomputed. The operators: insert, delete, duplicate, swap and move events (also
 * across batches and generations); split, merge, move, duplicate and drop batches; set an
 * argument to a boundary value (0, 1, max, -1 as uint64, the value ±1), to a value from the
 * optional dictionary, or to an ID defined elsewhere in the trace (goroutine, proc, thread,
 * string, stack); point a string or stack reference at another defined one; add fresh strings
 * and stacks; change a status or a generation number by one; change time deltas; resize a
 * stack in place to a boundary frame count; copy or move an event across a generation
 * boundary; point a reference at the edge of its generation's table (the last ID, one past
 * it, the deepest stack; a frame's func or file likewise); pass an argument's decoded value
 * as 8 little-endian bytes through the byte mutator (so libFuzzer's comparison feedback acts
 * on values, not varint bytes); cut the encoded trace short; splice in a generation or
 * batches written by the scheduler model (sim/) for the input's version. A minority
 * of calls (byte_percent, default 12) are plain byte mutations of the encoded trace, so
 * malformed framing stays covered. gtr_fs_crossover splices batches or whole generations of
 * a second input after a prefix of the first.
 *
 * Both are deterministic for a given (input, seed). The libFuzzer and AFL++ wrappers are
 * libfuzzer_mutator.c and afl_mutator.c. */
#ifndef GTR_FS_MUTATE_H
#define GTR_FS_MUTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A byte-level mutator supplied by the engine (libFuzzer's LLVMFuzzerMutate): mutates
 * data[0..size) in place within max_size bytes and returns the new size. */
typedef size_t (*gtr_fs_byte_mutate_fn)(void *ctx, uint8_t *data, size_t size, size_t max_size);

typedef struct gtr_fs_options {
    gtr_fs_byte_mutate_fn byte_mutate;   /* NULL: the built-in byte mutator */
    void *byte_ctx;
    unsigned byte_percent;               /* share of plain byte mutations; 0: default 12 */
    const uint64_t *values;              /* decoded-domain dictionary (copied), may be NULL */
    size_t nvalues;
    bool no_splice;                      /* leave the splice operator out (the engine wrappers:
                                          * $GTR_FS_NO_SPLICE set), e.g. to measure fuzzing
                                          * without the scheduler model */
} gtr_fs_options;

typedef struct gtr_fs_mutator gtr_fs_mutator;   /* opaque; scratch state; not thread-safe */

/* gtr_fs_mutator_new creates a mutator (opt may be NULL). NULL when out of memory. */
gtr_fs_mutator *gtr_fs_mutator_new(const gtr_fs_options *opt);
void gtr_fs_mutator_free(gtr_fs_mutator *m);   /* NULL: no-op */

/* gtr_fs_mutate writes a mutant of data[0..size) into out (max_size bytes; out may equal
 * data) and returns its size (1..max_size when max_size > 0). */
size_t gtr_fs_mutate(gtr_fs_mutator *m, const uint8_t *data, size_t size, size_t max_size,
                     uint64_t seed, uint8_t *out);

/* gtr_fs_crossover writes into out (max_size bytes, distinct from the inputs) a trace made of
 * a prefix of a's batches followed by a suffix of b's (whole generations, renumbered to
 * follow a's, half of the time). Returns its size. */
size_t gtr_fs_crossover(gtr_fs_mutator *m, const uint8_t *a, size_t asize, const uint8_t *b,
                        size_t bsize, size_t max_size, uint64_t seed, uint8_t *out);

/* gtr_fs_splice applies the splice operator alone (gtr_fs_mutate draws it among the others):
 * it runs the scheduler model (sim/) for a small trace of the input's version (at most
 * max_size bytes of it) and splices into the input either one whole model generation (before,
 * between or after the input's, renumbered to fit) or one or more model M batches into one of
 * the input's generations (their strings and stacks remapped onto that generation's tables
 * or added to them), re-declaring the statuses the other side needs or, now and then,
 * deliberately not. Writes the result into out (max_size bytes; out may equal data) and
 * returns its size, or 0 when the splice does not apply: no v2 header (old v1 traces, bytes
 * that are not a trace), a version the model lacks, a model trace that does not fit, a build
 * without sim/. gtr_fs_mutator_last_op then names what was done: splice_gen_before,
 * splice_gen_between, splice_gen_after, splice_batches_first (into the input's first
 * generation), splice_batches_later, each with "_raw" appended when the statuses were left
 * inconsistent; "none" when it returned 0. Deterministic for (input, seed, max_size). */
size_t gtr_fs_splice(gtr_fs_mutator *m, const uint8_t *data, size_t size, size_t max_size,
                     uint64_t seed, uint8_t *out);

/* gtr_fs_mutator_last_op names the operator(s) of the last call (a static string), for
 * measurements such as fuzz/structure/measure_valid_rate.c. */
const char *gtr_fs_mutator_last_op(const gtr_fs_mutator *m);

/* gtr_fs_load_values reads a decoded-domain dictionary: integers (C syntax: decimal, 0x hex,
 * 0 octal) separated by white space; anything else is skipped. Returns a malloc'd array in
 * *values (free it) and its length, or false when the file cannot be read. The engine
 * wrappers load $GTR_FS_VALUES this way (FUZZING.md §7.4: constants compared after varint
 * decoding are out of reach of byte-level comparison feedback). */
bool gtr_fs_load_values(const char *path, uint64_t **values, size_t *n);

/* gtr_fs_op_count and gtr_fs_op_name enumerate the operator names. */
size_t gtr_fs_op_count(void);
const char *gtr_fs_op_name(size_t i);

#ifdef __cplusplus
}
#endif
#endif /* GTR_FS_MUTATE_H */
