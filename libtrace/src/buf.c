/* SPDX-License-Identifier: BSD-3-Clause */
/* buf.c: growable byte buffer and output sinks. */
#include <stdio.h>
#include <string.h>

#include "gtr/buf.h"
#include "mem.h"

void gtr_buf_init(gtr_buf *b, const gtr_alloc *alc)
{
    memset(b, 0, sizeof *b);
    b->alc = alc;
}

void gtr_buf_free(gtr_buf *b)
{
    if (b == NULL)
        return;
    gtr__free(b->alc, b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = false;
}

void gtr_buf_reset(gtr_buf *b)
{
    b->len = 0;
    b->failed = false;
    if (b->data != NULL)
        b->data[0] = '\0';
}

gtr_status gtr_buf_reserve(gtr_buf *b, size_t n)
{
    if (b->failed)
        return GTR_E_NOMEM;
    if (n > SIZE_MAX - b->len - 1) {
        b->failed = true;
        return GTR_E_NOMEM;
    }
    size_t need = b->len + n + 1;
    if (need <= b->cap)
        return GTR_OK;
    size_t cap = b->cap;
    void *p = b->data;
    if (!gtr__grow(b->alc, &p, &cap, need, 1)) {
        b->failed = true;
        return GTR_E_NOMEM;
    }
    b->data = p;
    b->cap = cap;
    return GTR_OK;
}

gtr_status gtr_buf_append(gtr_buf *b, const void *data, size_t n)
{
    if (gtr_buf_reserve(b, n) != GTR_OK)
        return GTR_E_NOMEM;
    if (n > 0)
        memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
    return GTR_OK;
}

gtr_status gtr_buf_puts(gtr_buf *b, const char *s)
{
    return gtr_buf_append(b, s, strlen(s));
}

gtr_status gtr_buf_putc(gtr_buf *b, char c)
{
    if (b->len + 1 < b->cap && !b->failed) {
        b->data[b->len++] = c;
        b->data[b->len] = '\0';
        return GTR_OK;
    }
    return gtr_buf_append(b, &c, 1);
}

gtr_status gtr_buf_vprintf(gtr_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        b->failed = true;
        return GTR_E_NOMEM;
    }
    if ((size_t)n < sizeof small)
        return gtr_buf_append(b, small, (size_t)n);
    if (gtr_buf_reserve(b, (size_t)n) != GTR_OK)
        return GTR_E_NOMEM;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return GTR_OK;
}

gtr_status gtr_buf_printf(gtr_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gtr_status st = gtr_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return st;
}

gtr_status gtr_buf_put_uvarint(gtr_buf *b, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = 0;
    while (v >= 0x80) {
        tmp[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    tmp[n++] = (uint8_t)v;
    return gtr_buf_append(b, tmp, n);
}

gtr_status gtr_buf_status(const gtr_buf *b)
{
    return b->failed ? GTR_E_NOMEM : GTR_OK;
}

char *gtr_buf_take(gtr_buf *b, size_t *len)
{
    char *p = b->data;
    if (len != NULL)
        *len = b->len;
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = false;
    return p;
}

static gtr_status sink_buf_write(void *ctx, const void *data, size_t n, gtr_err *err)
{
    if (gtr_buf_append(ctx, data, n) != GTR_OK)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    return GTR_OK;
}

gtr_sink gtr_sink_buf(gtr_buf *b)
{
    gtr_sink s = {sink_buf_write, b};
    return s;
}

static gtr_status sink_file_write(void *ctx, const void *data, size_t n, gtr_err *err)
{
    if (n > 0 && fwrite(data, 1, n, ctx) != n)
        return gtr_err_setf(err, GTR_E_IO, "write error");
    return GTR_OK;
}

gtr_sink gtr_sink_file(FILE *f)
{
    gtr_sink s = {sink_file_write, f};
    return s;
}
