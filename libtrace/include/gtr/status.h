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

/* Capacity of an error message, NUL included. Go's "broken trace" messages append large state
 * dumps; those are cut here (truncated is set), the leading sentence always survives. */
#define GTR_ERR_MSG_CAP 4096

typedef struct gtr_err {
    gtr_status code;            /* GTR_OK when nothing failed */
    bool truncated;             /* msg was cut to fit */
    char msg[GTR_ERR_MSG_CAP];  /* Go-identical text, always NUL-terminated */
} gtr_err;

/* gtr_status_name returns the constant's name ("GTR_E_FORMAT"); a static string. */
GTR_API const char *gtr_status_name(gtr_status st);
/* gtr_status_text returns a short static description of the code. */
GTR_API const char *gtr_status_text(gtr_status st);

/* gtr_err_clear resets err to GTR_OK with an empty message. NULL: no-op. */
GTR_API void gtr_err_clear(gtr_err *err);

/* gtr_err_setf formats a message into err (if not NULL) and returns code, so that a failure
 * is one statement: `return gtr_err_setf(err, GTR_E_FORMAT, "invalid batch size %d", n);` */
GTR_API gtr_status gtr_err_setf(gtr_err *err, gtr_status code, const char *fmt, ...)
    GTR_PRINTF(3, 4);
GTR_API gtr_status gtr_err_vsetf(gtr_err *err, gtr_status code, const char *fmt, va_list ap)
    GTR_PRINTF(3, 0);

/* gtr_err_wrapf prepends "<context>: " to err's message and returns err->code: the C form of
 * Go's fmt.Errorf("<context>: %w", err). With a NULL err it returns GTR_E_FORMAT. */
GTR_API gtr_status gtr_err_wrapf(gtr_err *err, const char *fmt, ...) GTR_PRINTF(2, 3);

/* gtr_err_copy copies src into dst (either may be NULL). */
GTR_API void gtr_err_copy(gtr_err *dst, const gtr_err *src);

#ifdef __cplusplus
}
#endif
#endif /* GTR_STATUS_H */
