/* SPDX-License-Identifier: BSD-3-Clause */
/* status.c: status names, Go's errno texts and the formatted error value. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gtr/status.h"
#include "mem.h"

const char *gtr_status_name(gtr_status st)
{
    switch (st) {
#define NAME_(name, value, text) \
    case name:                   \
        return #name;
        GTR_STATUS_LIST(NAME_)
#undef NAME_
    }
    return "GTR_E_UNKNOWN";
}

const char *gtr_status_text(gtr_status st)
{
    switch (st) {
#define TEXT_(name, value, text) \
    case name:                   \
        return text;
        GTR_STATUS_LIST(TEXT_)
#undef TEXT_
    }
    return "unknown status";
}

const char *gtr_errno_text(int errnum, char *buf, size_t cap)
{
    char text[256];   /* longer than any message of the C library's */

    if (cap == 0)
        return buf;
    if (strerror_r(errnum, text, sizeof text) != 0)
        snprintf(text, sizeof text, "errno %d", errnum);
    snprintf(buf, cap, "%s", text);
    /* Go's table (zerrors_linux_*.go) is glibc's with the first letter lowered, except for
     * the messages that start with an acronym. */
    if (isupper((unsigned char)buf[0]) && !isupper((unsigned char)buf[1]))
        buf[0] = (char)tolower((unsigned char)buf[0]);
    return buf;
}

/* ---- gtr_err ------------------------------------------------------------------------
 *
 * Invariant: msg holds the first min(len, GTR_ERR_MSG_CAP-1) bytes of the text followed by a
 * NUL; heap != NULL exactly when len >= GTR_ERR_MSG_CAP, and then holds the whole text plus
 * a NUL. The text being installed may point into err itself (setf(err, c, "%s: x", msg) or a
 * copy of its own text), so the old text is released only after the new one is in place. */

#define INLINE_MAX (GTR_ERR_MSG_CAP - 1)

static void release(gtr_err *err, char *old)
{
    if (old != NULL)
        gtr__free(err->alc, old);
}

/* adopt makes p (len >= GTR_ERR_MSG_CAP bytes plus a NUL, from err->alc) err's text. */
static void adopt(gtr_err *err, char *p, size_t len)
{
    char *old = err->heap;
    memcpy(err->msg, p, INLINE_MAX);
    err->msg[INLINE_MAX] = '\0';
    err->heap = p;
    err->len = len;
    err->truncated = false;
    release(err, old);
}

/* install copies text[0..len) into err; cut says the text is already the leading part of a
 * longer one. On allocation failure the leading INLINE_MAX bytes are kept, marked truncated. */
static void install(gtr_err *err, const char *text, size_t len, bool cut)
{
    if (len > INLINE_MAX) {
        char *p = len < SIZE_MAX ? gtr__malloc(err->alc, len + 1) : NULL;
        if (p != NULL) {
            memcpy(p, text, len);
            p[len] = '\0';
            adopt(err, p, len);
            err->truncated = cut;
            return;
        }
        len = INLINE_MAX;
        cut = true;
    }
    char *old = err->heap;
    memmove(err->msg, text, len);
    err->msg[len] = '\0';
    err->heap = NULL;
    err->len = len;
    err->truncated = cut;
    release(err, old);
}

void gtr_err_init(gtr_err *err)
{
    if (err == NULL)
        return;
    err->code = GTR_OK;
    err->truncated = false;
    err->len = 0;
    err->heap = NULL;
    err->alc = NULL;
    err->msg[0] = '\0';
}

void gtr_err_clear(gtr_err *err)
{
    if (err == NULL)
        return;
    char *old = err->heap;
    err->code = GTR_OK;
    err->truncated = false;
    err->len = 0;
    err->heap = NULL;
    err->msg[0] = '\0';
    release(err, old);
}

void gtr_err_set_alloc(gtr_err *err, const gtr_alloc *alc)
{
    if (err == NULL)
        return;
    gtr_err_clear(err);
    err->alc = alc;
}

const char *gtr_err_text(const gtr_err *err, size_t *len)
{
    if (err == NULL) {
        if (len != NULL)
            *len = 0;
        return "";
    }
    if (len != NULL)
        *len = err->len;
    return err->heap != NULL ? err->heap : err->msg;
}

int gtr_err_fputs(const gtr_err *err, FILE *f)
{
    size_t n;
    const char *s = gtr_err_text(err, &n);
    return fwrite(s, 1, n, f) == n ? 0 : EOF;
}

/* format formats fmt/ap into tmp (GTR_ERR_MSG_CAP bytes) when it fits, else into a heap
 * block stored in *big. Returns the length of the result, or SIZE_MAX when vsnprintf fails.
 * If the heap block cannot be had, *big is NULL and tmp holds the leading INLINE_MAX bytes;
 * *cut is then set. */
static size_t format(const gtr_alloc *alc, char *tmp, char **big, bool *cut, const char *fmt,
                     va_list ap) GTR_PRINTF(5, 0);

static size_t format(const gtr_alloc *alc, char *tmp, char **big, bool *cut, const char *fmt,
                     va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(tmp, GTR_ERR_MSG_CAP, fmt, ap2);
    va_end(ap2);
    *big = NULL;
    *cut = false;
    if (n < 0) {
        tmp[0] = '\0';
        return SIZE_MAX;
    }
    if ((size_t)n <= INLINE_MAX)
        return (size_t)n;
    char *p = gtr__malloc(alc, (size_t)n + 1);
    if (p == NULL) {
        *cut = true;
        return INLINE_MAX;
    }
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    *big = p;
    return (size_t)n;
}

gtr_status gtr_err_vsetf(gtr_err *err, gtr_status code, const char *fmt, va_list ap)
{
    if (err == NULL)
        return code;
    char tmp[GTR_ERR_MSG_CAP], *big;
    bool cut;
    size_t n = format(err->alc, tmp, &big, &cut, fmt, ap);
    if (big != NULL)
        adopt(err, big, n);
    else
        install(err, tmp, n == SIZE_MAX ? 0 : n, cut);
    err->code = code;
    return code;
}

gtr_status gtr_err_setf(gtr_err *err, gtr_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gtr_status st = gtr_err_vsetf(err, code, fmt, ap);
    va_end(ap);
    return st;
}

gtr_status gtr_err_setn(gtr_err *err, gtr_status code, const char *text, size_t len)
{
    if (err == NULL)
        return code;
    install(err, len != 0 ? text : "", len, false);
    err->code = code;
    return code;
}

/* put appends s[0..n) to dst[*at..cap), as much as fits. */
static void put(char *dst, size_t cap, size_t *at, const char *s, size_t n)
{
    size_t room = cap - *at;
    if (n > room)
        n = room;
    memcpy(dst + *at, s, n);
    *at += n;
}

/* join sets err's text to a + sep + b (any of them may point into err's text); cut says
 * the result already lacks a tail. */
static void join(gtr_err *err, const char *a, size_t alen, const char *sep, size_t seplen,
                 const char *b, size_t blen, bool cut)
{
    size_t total = alen + seplen + blen;   /* no overflow: sizes of live objects */
    char *p = NULL;
    if (total > INLINE_MAX && !cut)
        p = gtr__malloc(err->alc, total + 1);
    if (p != NULL) {
        size_t at = 0;
        put(p, total, &at, a, alen);
        put(p, total, &at, sep, seplen);
        put(p, total, &at, b, blen);
        p[total] = '\0';
        adopt(err, p, total);
        return;
    }
    /* It fits inline, or only its leading part can be kept. */
    char head[GTR_ERR_MSG_CAP];
    size_t at = 0;
    put(head, INLINE_MAX, &at, a, alen);
    put(head, INLINE_MAX, &at, sep, seplen);
    put(head, INLINE_MAX, &at, b, blen);
    install(err, head, at, cut || total > INLINE_MAX);
}

gtr_status gtr_err_wrapf(gtr_err *err, const char *fmt, ...)
{
    if (err == NULL)
        return GTR_E_FORMAT;
    char tmp[GTR_ERR_MSG_CAP], *big;
    bool cut;
    va_list ap;
    va_start(ap, fmt);
    size_t plen = format(err->alc, tmp, &big, &cut, fmt, ap);
    va_end(ap);
    if (plen == SIZE_MAX)
        plen = 0;
    size_t olen;
    const char *old = gtr_err_text(err, &olen);
    bool old_cut = err->truncated;
    join(err, big != NULL ? big : tmp, plen, ": ", 2, old, olen, cut);
    err->truncated |= old_cut;
    if (big != NULL)
        gtr__free(err->alc, big);
    if (err->code == GTR_OK)
        err->code = GTR_E_FORMAT;
    return err->code;
}

gtr_status gtr_err_appendn(gtr_err *err, const char *text, size_t len)
{
    if (err == NULL)
        return GTR_E_FORMAT;
    size_t olen;
    const char *old = gtr_err_text(err, &olen);
    bool old_cut = err->truncated;
    if (old_cut)
        return err->code; /* the tail is already lost */
    join(err, old, olen, "", 0, len != 0 ? text : "", len, false);
    if (err->code == GTR_OK)
        err->code = GTR_E_FORMAT;
    return err->code;
}

gtr_status gtr_err_append(gtr_err *err, const gtr_err *tail)
{
    size_t n;
    const char *s = gtr_err_text(tail, &n);
    return gtr_err_appendn(err, s, n);
}

void gtr_err_copy(gtr_err *dst, const gtr_err *src)
{
    if (dst == NULL || dst == src)
        return;
    if (src == NULL) {
        gtr_err_clear(dst);
        return;
    }
    size_t n;
    const char *s = gtr_err_text(src, &n);
    install(dst, s, n, src->truncated);
    dst->code = src->code;
}

void gtr_err_move(gtr_err *dst, gtr_err *src)
{
    if (dst == NULL || dst == src)
        return;
    if (src == NULL) {
        gtr_err_clear(dst);
        return;
    }
    if (src->heap == NULL || src->alc != dst->alc) {
        gtr_err_copy(dst, src);
        gtr_err_clear(src);
        return;
    }
    char *old = dst->heap;
    const gtr_alloc *alc = dst->alc;
    *dst = *src;
    dst->alc = alc;
    release(dst, old);
    src->heap = NULL;
    gtr_err_clear(src);
}

#include "gtr/gtr.h"

unsigned gtr_version_number(void)
{
    return GTR_VERSION_NUMBER;
}
