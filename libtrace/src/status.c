/* SPDX-License-Identifier: BSD-3-Clause */
/* status.c: status names and the formatted error value. */
#include <stdio.h>
#include <string.h>

#include "gtr/status.h"

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

void gtr_err_clear(gtr_err *err)
{
    if (err == NULL)
        return;
    err->code = GTR_OK;
    err->truncated = false;
    err->msg[0] = '\0';
}

gtr_status gtr_err_vsetf(gtr_err *err, gtr_status code, const char *fmt, va_list ap)
{
    if (err == NULL)
        return code;
    int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    err->code = code;
    err->truncated = n < 0 || (size_t)n >= sizeof err->msg;
    if (n < 0)
        err->msg[0] = '\0';
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

gtr_status gtr_err_wrapf(gtr_err *err, const char *fmt, ...)
{
    if (err == NULL)
        return GTR_E_FORMAT;
    char prefix[GTR_ERR_MSG_CAP];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    size_t plen = (size_t)n < sizeof prefix ? (size_t)n : sizeof prefix - 1;
    size_t cap = sizeof err->msg;
    size_t old = strlen(err->msg);
    /* Result: prefix + ": " + old message, cut to cap-1 bytes. */
    size_t head = plen + 2;
    if (head >= cap) {
        memcpy(err->msg, prefix, cap - 1);
        err->msg[cap - 1] = '\0';
        err->truncated = true;
    } else {
        size_t keep = old;
        if (head + keep > cap - 1) {
            keep = cap - 1 - head;
            err->truncated = true;
        }
        memmove(err->msg + head, err->msg, keep);
        memcpy(err->msg, prefix, plen);
        err->msg[plen] = ':';
        err->msg[plen + 1] = ' ';
        err->msg[head + keep] = '\0';
    }
    if (err->code == GTR_OK)
        err->code = GTR_E_FORMAT;
    return err->code;
}

void gtr_err_copy(gtr_err *dst, const gtr_err *src)
{
    if (dst == NULL || dst == src)
        return;
    if (src == NULL) {
        gtr_err_clear(dst);
        return;
    }
    dst->code = src->code;
    dst->truncated = src->truncated;
    memcpy(dst->msg, src->msg, strlen(src->msg) + 1);
}

#include "gtr/gtr.h"

unsigned gtr_version_number(void)
{
    return GTR_VERSION_NUMBER;
}
