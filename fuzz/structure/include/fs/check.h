/* SPDX-License-Identifier: BSD-3-Clause */
/* check.h: run a whole trace through the reader and the validator, as Go's testReader does
 * (reader_test.go): the oracle of the valid-output measurement, the round-trip test and the
 * reducer. */
#ifndef GTR_FS_CHECK_H
#define GTR_FS_CHECK_H

#include "gtr/alloc.h"
#include "gtr/buf.h"
#include "gtr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gtr_fs_result {
    gtr_status read;      /* GTR_OK: the reader reached EOF; else its (sticky) error */
    gtr_status valid;     /* GTR_OK, or the first validator error */
    size_t nevents;       /* events returned before the end or the error */
    gtr_err read_err;     /* the reader's message when read < 0 */
    gtr_err valid_err;    /* the validator's first message when valid < 0 */
} gtr_fs_result;

/* gtr_fs_check reads data[0..size) (wire bytes, gzip or not) with gtr_reader and feeds every
 * event to a gtr_validator (its Go version set from the reader), allocating through alc (NULL:
 * libc). When dump is not NULL each event's String() and "\n" is appended to it. Returns
 * GTR_OK when the trace read to the end and validated, else the first negative status (the
 * reader's first, since a reader error ends the run). */
gtr_status gtr_fs_check(const uint8_t *data, size_t size, const gtr_alloc *alc, gtr_buf *dump,
                        gtr_fs_result *res);

/* gtr_fs_load_trace appends the wire bytes of the trace at path to wire: a .test fixture's
 * `trace` section (text format, converted with the text reader and the wire writer), or any
 * other file as wire bytes, gunzipped when compressed. */
gtr_status gtr_fs_load_trace(const char *path, gtr_buf *wire, gtr_err *err);

/* gtr_fs_text_to_wire appends the wire form of the text-format trace text[0..len) to wire. */
gtr_status gtr_fs_text_to_wire(const char *text, size_t len, gtr_buf *wire, gtr_err *err);

/* gtr_fs_wire_to_text appends the text form of the wire trace data[0..size) to text. */
gtr_status gtr_fs_wire_to_text(const uint8_t *data, size_t size, gtr_buf *text, gtr_err *err);

#ifdef __cplusplus
}
#endif
#endif /* GTR_FS_CHECK_H */
