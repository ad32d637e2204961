/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/value.go at go1.27.3: trace.Value, a dynamically-typed value. */
#include <inttypes.h>

#include "gtr/event.h"

gtr_value gtr_uint64_value(uint64_t x)
{
    gtr_value v = {GTR_VALUE_UINT64, x, {NULL, 0}};
    return v;
}

gtr_value gtr_string_value(const char *s, size_t len)
{
    gtr_value v = {GTR_VALUE_STRING, 0, {s, len}};
    return v;
}

gtr_status gtr_value_uint64(const gtr_value *v, uint64_t *out, gtr_err *err)
{
    if (v == NULL || v->kind != GTR_VALUE_UINT64) {
        /* Go: panic("Uint64 called on Value of a different Kind") */
        return gtr_err_setf(err, GTR_E_USAGE, "Uint64 called on Value of a different Kind");
    }
    if (out != NULL)
        *out = v->u64;
    return GTR_OK;
}

gtr_status gtr_value_string(const gtr_value *v, gtr_buf *out)
{
    if (v == NULL || out == NULL)
        return GTR_E_USAGE;
    switch (v->kind) {
    case GTR_VALUE_STRING:
        return gtr_buf_append(out, v->str.data, v->str.len);
    case GTR_VALUE_UINT64:
        return gtr_buf_printf(out, "Value{Uint64(%" PRIu64 ")}", v->u64);
    default:
        return gtr_buf_puts(out, "Value{Bad}");
    }
}
