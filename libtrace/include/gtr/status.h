/* SPDX-License-Identifier: BSD-3-Clause */
/* status.h: status codes and the error value every fallible gotrace call fills in.
 *
 * Every fallible function returns a gtr_status and takes a `gtr_err *err` last. GTR_OK (0)
 * is success, positive values are non-errors (GTR_EOF), negative values are errors. The
 * gtr_err is owned by the caller and carries the error's text, which reproduces Go's
 * internal/trace message byte for byte (fixtures match it with regexps). A NULL err is
 * accepted everywhere: the code is still returned, the text is dropped. */
#ifndef GTR_STATUS_H
#define GTR_STATUS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define GTR_API __attribute__((visibility("default")))
#define GTR_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define GTR_NODISCARD __attribute__((warn_unused_result))
#else
#define GTR_API
#define GTR_PRINTF(fmt, args)
#define GTR_NODISCARD
#endif

/* X(name, value, description) */
#define GTR_STATUS_LIST(X)                                             \
    X(GTR_OK, 0, "ok")                                                 \
    X(GTR_EOF, 1, "end of input")                                      \
    X(GTR_E_NOMEM, -1, "out of memory")                                \
    X(GTR_E_IO, -2, "input/output error")                              \
    X(GTR_E_VERSION, -3, "unsupported trace version")                  \
    X(GTR_E_FORMAT, -4, "malformed input")                             \
    X(GTR_E_ORDER, -5, "broken trace (no consistent ordering)")        \
    X(GTR_E_INVALID, -6, "trace failed validation")                    \
    X(GTR_E_USAGE, -7, "API misuse")                                   \
    X(GTR_E_LIMIT, -8, "configured limit exceeded")

#define GTR_STATUS_ENUM_(name, value, text) name = value,
typedef enum gtr_status { GTR_STATUS_LIST(GTR_STATUS_ENUM_) } gtr_status;
#undef GTR_STATUS_ENUM_

/* Size of the inline part of a gtr_err, NUL included. A message shorter than this lives in
 * msg; a longer one lives in a heap allocation (heap), and msg keeps its first
 * GTR_ERR_MSG_CAP-1 bytes, so that msg is always a NUL-terminated prefix of the text. */
#define GTR_ERR_MSG_CAP 256

struct gtr_alloc;

/* gtr_err: an error value. It carries its whole text and its length, as a Go string does:
 * there is no cap on the length and NUL bytes inside the text survive. Read the text with
 * gtr_err_text (pointer and length); msg alone is only its NUL-terminated prefix.
 *
 * Ownership. A gtr_err may own a heap allocation, so:
 *   - initialise it before first use: `gtr_err e = GTR_ERR_INIT;`, gtr_err_init(&e), or
 *     zeroed memory (calloc, memset 0, `= {0}`) are all valid empty errors;
 *   - every gtr_err that may have been given a message ends in gtr_err_clear, which releases
 *     the allocation; gtr_err_setf and friends on a used gtr_err release or reuse its old
 *     text themselves (the arguments may even point into it);
 *   - never copy a gtr_err by assignment (`a = b`): both would own b's text. Use
 *     gtr_err_copy or gtr_err_move.
 * The allocation goes through alc (NULL: libc), see gtr_err_set_alloc.
 *
 * Allocation failure. If the text does not fit in msg and its allocation fails, the error
 * keeps the text's leading GTR_ERR_MSG_CAP-1 bytes in msg and sets truncated. So a failure
 * always says what failed; only the tail (Go's state dumps come last) is lost. */
typedef struct gtr_err {
    gtr_status code;               /* GTR_OK when nothing failed */
    bool truncated;                /* an allocation failed: the text is its leading part */
    size_t len;                    /* length of the text in bytes, final NUL excluded */
    char *heap;                    /* the text (len bytes + NUL) when it does not fit in msg */
    const struct gtr_alloc *alc;   /* allocator of heap; NULL: libc */
    char msg[GTR_ERR_MSG_CAP];     /* the text if shorter, else its prefix; NUL-terminated */
} gtr_err;

/* GTR_ERR_INIT: the initialiser of an empty error (code GTR_OK, no text, libc allocator). */
#define GTR_ERR_INIT {GTR_OK, false, 0, NULL, NULL, {0}}

/* gtr_status_name returns the constant's name ("GTR_E_FORMAT"); a static string. */
GTR_API const char *gtr_status_name(gtr_status st);
/* gtr_status_text returns a short static description of the code. */
GTR_API const char *gtr_status_text(gtr_status st);

/* gtr_errno_text writes Go's text for the errno value errnum into buf (cap bytes; always
 * NUL-terminated when cap > 0, cut to fit) and returns buf: what syscall.Errno's Error()
 * gives on Linux, the C library's message with a lower-case first letter ("no such file or
 * directory", "permission denied"; "RFS specific error" keeps its acronym; an unknown value
 * is "errno N"). libtrace's I/O messages use it, so that they read as Go's *PathError does
 * ("open PATH: <text>"); tools built on libtrace use it for theirs. Thread-safe. */
GTR_API const char *gtr_errno_text(int errnum, char *buf, size_t cap);

/* gtr_err_init makes uninitialised memory an empty error. It does not release anything: use
 * it only on memory that holds no error yet. NULL: no-op. */
GTR_API void gtr_err_init(gtr_err *err);

/* gtr_err_clear releases err's text and resets it to GTR_OK with an empty message; the
 * allocator stays. err must have been initialised. NULL: no-op. */
GTR_API void gtr_err_clear(gtr_err *err);

/* gtr_err_set_alloc clears err, then makes it allocate its texts with alc (NULL: libc). alc
 * must outlive err's texts. Handles give their own allocator to the errors they keep. */
GTR_API void gtr_err_set_alloc(gtr_err *err, const struct gtr_alloc *alc);

/* gtr_err_text returns err's whole text (NUL-terminated after len bytes; it may contain NUL
 * bytes) and stores its length in *len if len is not NULL. Borrowed: valid until err is next
 * changed or cleared. A NULL err gives "". */
GTR_API const char *gtr_err_text(const gtr_err *err, size_t *len);

/* gtr_err_fputs writes err's whole text (NUL bytes included) to f, with no newline.
 * Returns 0, or EOF on a write error. */
GTR_API int gtr_err_fputs(const gtr_err *err, FILE *f);

/* gtr_err_setf formats a message into err (if not NULL) and returns code, so that a failure
 * is one statement: `return gtr_err_setf(err, GTR_E_FORMAT, "invalid batch size %d", n);` */
GTR_API gtr_status gtr_err_setf(gtr_err *err, gtr_status code, const char *fmt, ...)
    GTR_PRINTF(3, 4);
GTR_API gtr_status gtr_err_vsetf(gtr_err *err, gtr_status code, const char *fmt, va_list ap)
    GTR_PRINTF(3, 0);

/* gtr_err_setn sets err's text to the len bytes at text (NUL bytes included) and returns
 * code: for messages built in a buffer, or that echo input strings. */
GTR_API gtr_status gtr_err_setn(gtr_err *err, gtr_status code, const char *text, size_t len);

/* gtr_err_wrapf prepends "<context>: " to err's message and returns err->code: the C form of
 * Go's fmt.Errorf("<context>: %w", err). With a NULL err it returns GTR_E_FORMAT. */
GTR_API gtr_status gtr_err_wrapf(gtr_err *err, const char *fmt, ...) GTR_PRINTF(2, 3);

/* gtr_err_appendn appends the len bytes at text (NUL bytes included; they may point into err's
 * own text) to err's message and returns err->code (GTR_E_FORMAT if it was GTR_OK, or for a
 * NULL err). For messages that end with another error's or the input's text:
 *     gtr_err_setf(err, GTR_E_INVALID, "want %s, got ", want);
 *     gtr_err_appendn(err, gtr_err_text(got, NULL), got->len); */
GTR_API gtr_status gtr_err_appendn(gtr_err *err, const char *text, size_t len);

/* gtr_err_append appends tail's whole text to err's message (gtr_err_appendn). */
GTR_API gtr_status gtr_err_append(gtr_err *err, const gtr_err *tail);

/* gtr_err_copy copies src's code and text into dst (either may be NULL; a NULL src clears
 * dst). dst keeps its allocator; if its allocation fails, dst keeps the leading part of the
 * text and is marked truncated. */
GTR_API void gtr_err_copy(gtr_err *dst, const gtr_err *src);

/* gtr_err_move moves src's code and text into dst (which is cleared first) and leaves src
 * empty, without allocating when both use the same allocator. */
GTR_API void gtr_err_move(gtr_err *dst, gtr_err *src);

#ifdef __cplusplus
}
#endif
#endif /* GTR_STATUS_H */
