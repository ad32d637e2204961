/* SPDX-License-Identifier: BSD-3-Clause */
/* buf.h: a growable byte buffer and the output sink writers emit to.
 *
 * A gtr_buf is a value the caller owns: zero-initialise it (or gtr_buf_init with an
 * allocator), append, then gtr_buf_free. The data is always NUL-terminated past len (when
 * cap > 0), so text can be used as a C string. An allocation failure makes the buffer
 * sticky-failed: later appends do nothing and gtr_buf_status returns GTR_E_NOMEM, so a
 * long chain of appends needs one check at the end. */
#ifndef GTR_BUF_H
#define GTR_BUF_H

#include <stdio.h>

#include "gtr/alloc.h"
#include "gtr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gtr_buf {
    char *data;               /* NULL until the first append */
    size_t len;               /* bytes used (the NUL is not counted) */
    size_t cap;               /* bytes allocated */
    bool failed;              /* an allocation failed; contents are incomplete */
    const gtr_alloc *alc;     /* NULL: libc */
} gtr_buf;

GTR_API void gtr_buf_init(gtr_buf *b, const gtr_alloc *alc);
GTR_API void gtr_buf_free(gtr_buf *b);
/* gtr_buf_reset sets len to 0, keeping the memory (and clears failed). */
GTR_API void gtr_buf_reset(gtr_buf *b);
/* gtr_buf_reserve makes room for n more bytes (plus the NUL). */
GTR_API gtr_status gtr_buf_reserve(gtr_buf *b, size_t n);
GTR_API gtr_status gtr_buf_append(gtr_buf *b, const void *data, size_t n);
GTR_API gtr_status gtr_buf_puts(gtr_buf *b, const char *s);
GTR_API gtr_status gtr_buf_putc(gtr_buf *b, char c);
GTR_API gtr_status gtr_buf_printf(gtr_buf *b, const char *fmt, ...) GTR_PRINTF(2, 3);
GTR_API gtr_status gtr_buf_vprintf(gtr_buf *b, const char *fmt, va_list ap) GTR_PRINTF(2, 0);
/* gtr_buf_put_uvarint appends v as an unsigned LEB128 varint (1..10 bytes). */
GTR_API gtr_status gtr_buf_put_uvarint(gtr_buf *b, uint64_t v);
/* gtr_buf_status: GTR_E_NOMEM if any append failed, else GTR_OK. */
GTR_API gtr_status gtr_buf_status(const gtr_buf *b);
/* gtr_buf_take hands the data to the caller (free with the buffer's allocator, or free()
 * for libc) and resets the buffer to empty. */
GTR_API char *gtr_buf_take(gtr_buf *b, size_t *len);

/* A sink receives a writer's output. write returns GTR_OK or an error (filling err). */
typedef struct gtr_sink {
    gtr_status (*write)(void *ctx, const void *data, size_t n, gtr_err *err);
    void *ctx;
} gtr_sink;

/* gtr_sink_buf: a sink that appends to b (which must outlive the sink). */
GTR_API gtr_sink gtr_sink_buf(gtr_buf *b);
/* gtr_sink_file: a sink that fwrite()s to f (the caller flushes and closes f). */
GTR_API gtr_sink gtr_sink_file(FILE *f);

#ifdef __cplusplus
}
#endif
#endif /* GTR_BUF_H */
