/* SPDX-License-Identifier: BSD-3-Clause */
/* input.h: a buffered byte stream over a file, stdin or memory, transparently gunzipped.
 *
 * Every reader in libtrace reads from a gtr_input. Opening sniffs the first two bytes: the
 * gzip magic (1f 8b) switches to streaming decompression (zlib; concatenated members are
 * read in turn). A limit caps the bytes delivered (after decompression), so a small
 * compressed input cannot expand without bound; past it reads fail with GTR_E_LIMIT. */
#ifndef GTR_INPUT_H
#define GTR_INPUT_H

#include <stdio.h>

#include "gtr/alloc.h"
#include "gtr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gtr_input gtr_input;   /* opaque; not thread-safe */

/* gtr_input_open_path opens path for reading ("-" is stdin). On success *out owns the
 * input (gtr_input_free). Errors: "open PATH: <strerror>", GTR_E_IO. */
GTR_API gtr_status gtr_input_open_path(const char *path, const gtr_alloc *alc, gtr_input **out,
                                       gtr_err *err);
/* gtr_input_open_file reads from an already open file (not closed by gtr_input_free). */
GTR_API gtr_status gtr_input_open_file(FILE *file, const gtr_alloc *alc, gtr_input **out,
                                       gtr_err *err);
/* gtr_input_open_memory reads data[0..len). Plain data is not copied: the caller keeps it
 * alive until gtr_input_free. */
GTR_API gtr_status gtr_input_open_memory(const void *data, size_t len, const gtr_alloc *alc,
                                         gtr_input **out, gtr_err *err);
/* gtr_input_open_memory_plain is gtr_input_open_memory without gzip detection: the bytes
 * are delivered as they are. For data Go never decompresses (a .test fixture's trace file). */
GTR_API gtr_status gtr_input_open_memory_plain(const void *data, size_t len,
                                               const gtr_alloc *alc, gtr_input **out,
                                               gtr_err *err);
/* gtr_input_free releases in (NULL: no-op). */
GTR_API void gtr_input_free(gtr_input *in);

/* gtr_input_set_limit caps the number of (decompressed) bytes the input delivers; reading
 * past it fails with GTR_E_LIMIT "input exceeds the limit of %llu bytes". 0: no limit. */
GTR_API void gtr_input_set_limit(gtr_input *in, uint64_t max_bytes);
/* gtr_input_set_release asks a memory input (gtr_input_open_memory, _plain) to say when
 * its bytes are done with: fn(ctx, offset) is called once the readers borrow no byte before
 * input offset offset any more (the high-level reader as it starts reading a generation,
 * whose predecessor's batches it read in place; once for a go 1.11-1.21 trace, when its
 * converter has copied what it keeps). The caller may then let those bytes' memory go
 * (gotrace drops a mapped file's pages); they are not read again. Offsets only grow. Not
 * called for other inputs, nor after gtr_input_free. NULL fn: no calls. */
typedef void (*gtr_input_release_fn)(void *ctx, uint64_t offset);
GTR_API void gtr_input_set_release(gtr_input *in, gtr_input_release_fn fn, void *ctx);
/* gtr_input_is_gzip: the input is being decompressed. */
GTR_API bool gtr_input_is_gzip(const gtr_input *in);
/* gtr_input_offset: bytes delivered so far (decompressed offset). */
GTR_API uint64_t gtr_input_offset(const gtr_input *in);

/* gtr_input_read reads up to n bytes into dst, blocking until n bytes or end of input (Go's
 * io.ReadFull without its error translation). *got receives the count. Returns GTR_OK (even
 * when *got < n at end of input) or an error (I/O, corrupt gzip, limit). */
GTR_API gtr_status gtr_input_read(gtr_input *in, void *dst, size_t n, size_t *got,
                                  gtr_err *err);
/* gtr_input_read_all appends the rest of the input to the buffer whose data/len/cap are
 * given (realloc'd through the input's allocator). For tools that need the whole input. */
GTR_API gtr_status gtr_input_read_all(gtr_input *in, char **data, size_t *len, gtr_err *err);

/* gtr_input_byte returns the next byte (0..255), or -1 at end of input or on error (then
 * gtr_input_error tells which: GTR_OK means a clean end of input). */
GTR_API int gtr_input_byte(gtr_input *in);
GTR_API gtr_status gtr_input_error(const gtr_input *in, gtr_err *err);

/* gtr_input_uvarint reads an unsigned LEB128 varint with Go's binary.ReadUvarint semantics
 * and messages: "EOF" (no byte before end of input, GTR_EOF), "unexpected EOF" (end of
 * input inside the varint, GTR_E_FORMAT), "binary: varint overflows a 64-bit integer"
 * (more than 10 bytes, or a 10th byte > 1, GTR_E_FORMAT). Input errors pass through. */
GTR_API gtr_status gtr_input_uvarint(gtr_input *in, uint64_t *v, gtr_err *err);

#ifdef __cplusplus
}
#endif
#endif /* GTR_INPUT_H */
