/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/raw/event.go at go1.27.3: raw.Event.String and EncodedSize. */
#include <string.h>

#include "gtr/raw.h"
#include "raw_priv.h"

const char *const gtr__frame_fields[4] = {"pc", "func", "file", "line"};

const gtr_event_spec *gtr__raw_spec(const gtr_raw_event *ev)
{
    if (ev == NULL || ev->type >= gtr_go_version_nspecs(ev->version))
        return NULL;
    return gtr_spec(ev->type);
}

/* put_kv appends sep, key, '=' and v in decimal (strconv.FormatUint(v, 10)). */
static void put_kv(gtr_buf *out, const char *sep, const char *key, uint64_t v)
{
    char tmp[64];
    size_t n = 0;
    while (*sep != '\0')
        tmp[n++] = *sep++;
    size_t klen = strlen(key);
    if (klen > 32) {
        gtr_buf_append(out, tmp, n);
        gtr_buf_append(out, key, klen);
        n = 0;
    } else {
        memcpy(tmp + n, key, klen);
        n += klen;
    }
    tmp[n++] = '=';
    char digits[20];
    size_t d = sizeof digits;
    do {
        digits[--d] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    memcpy(tmp + n, digits + d, sizeof digits - d);
    n += sizeof digits - d;
    gtr_buf_append(out, tmp, n);
}

gtr_status gtr_raw_event_string(const gtr_raw_event *ev, gtr_buf *out)
{
    /* Go indexes e.Version.Specs()[e.Ev] and e.Args[i], panicking when out of range. */
    const gtr_event_spec *spec = gtr__raw_spec(ev);
    if (spec == NULL || ev->nargs < spec->nargs)
        return GTR_E_USAGE;
    /* out is a C string afterwards even when String() is empty (unnamed types 53..127). */
    gtr_buf_reserve(out, 0);
    if (spec->name != NULL)
        gtr_buf_puts(out, spec->name);
    for (size_t i = 0; i < spec->nargs; i++)
        put_kv(out, " ", spec->args[i], ev->args[i]);
    if (spec->is_stack) {
        const uint64_t *frames = ev->args + spec->nargs;
        size_t n = ev->nargs - spec->nargs;
        for (size_t i = 0; i < n; i++)
            put_kv(out, i % 4 == 0 ? "\n\t" : " ", gtr__frame_fields[i % 4], frames[i]);
    }
    if (ev->has_data_field) { /* Go: e.Data != nil */
        gtr_buf_puts(out, "\n\tdata=");
        gtr_go_quote(out, ev->data, ev->data_len);
    }
    return gtr_buf_status(out);
}

/* uvarint_len: binary.PutUvarint's length. */
size_t gtr__uvarint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

size_t gtr_raw_event_encoded_size(const gtr_raw_event *ev)
{
    size_t size = 1;
    for (size_t i = 0; i < ev->nargs; i++)
        size += gtr__uvarint_len(ev->args[i]);
    const gtr_event_spec *spec = gtr__raw_spec(ev);
    if (spec != NULL && spec->has_data)
        size += gtr__uvarint_len(ev->data_len) + ev->data_len;
    return size;
}
