/* SPDX-License-Identifier: BSD-3-Clause */
/* raw_priv.h: helpers shared by the raw layer's files. */
#ifndef GTR_SRC_RAW_PRIV_H
#define GTR_SRC_RAW_PRIV_H

#include "gtr/raw.h"

/* raw.frameFields: the names of a stack frame's four values. */
extern const char *const gtr__frame_fields[4];

/* gtr__raw_spec: ev->version's spec row for ev->type (Version.Specs()[t]); NULL when the
 * type is outside the version's slice (where Go would panic). */
const gtr_event_spec *gtr__raw_spec(const gtr_raw_event *ev);

/* gtr__uvarint_len: the encoded length of v (1..10). */
size_t gtr__uvarint_len(uint64_t v);

/* gtr__go_int_count: Go's int(x) for a uint64 on a 64-bit platform is negative above INT64_MAX;
 * loops `for i := 0; i < int(x); i++` then run zero times. Returns the loop count. */
static inline uint64_t gtr__go_int_count(uint64_t x)
{
    return x > (uint64_t)INT64_MAX ? 0 : x;
}

/* gtr__sink_flush hands the writer buffer buf to sink and empties it: the flush of both
 * writers (binary and text). An earlier allocation failure in buf surfaces here. */
static inline gtr_status gtr__sink_flush(gtr_sink sink, gtr_buf *buf, gtr_err *err)
{
    if (gtr_buf_status(buf) != GTR_OK)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    if (buf->len == 0)
        return GTR_OK;
    gtr_status st = sink.write(sink.ctx, buf->data, buf->len, err);
    gtr_buf_reset(buf);
    return st;
}

#endif /* GTR_SRC_RAW_PRIV_H */
