/* SPDX-License-Identifier: BSD-3-Clause */
/* go_reader.h: Go 1.27.3's own reader and validator, linked in from the archive that
 * ci/go-diff-archive.sh builds (fuzz/diff/godiff.go, exported with cgo). Declared here with
 * the exact types of Go's generated header (libgtrdiff.h), which is not included: it drags in
 * cgo's typedefs. */
#ifndef GTR_FUZZ_GO_READER_H
#define GTR_FUZZ_GO_READER_H

#include <stddef.h>

/* How a reading ended (oracle.go's readTrace, and godiff.go's endPanic). */
typedef enum diff_end {
    DIFF_END_EOF = 0,        /* read to io.EOF, every event valid */
    DIFF_END_HEADER = 1,     /* NewReader failed */
    DIFF_END_READ = 2,       /* ReadEvent failed */
    DIFF_END_VALIDATOR = 3,  /* the validator rejected an event */
    DIFF_END_PANIC = 4       /* Go panicked (Event.String(), ...): Go's side only */
} diff_end;

/* gtrdiff_go_validate reads data[0..size) as `gtroracle validate` does (wire bytes, never
 * gunzipped): *dump gets each event's String() and "\n", its first `limit` bytes, and *msg
 * the error or the panic's value, both malloc'd (never NULL) for the caller to free(). The
 * Go runtime recovers its panics inside. Returns a diff_end. */
extern int gtrdiff_go_validate(unsigned char *data, size_t size, size_t limit, char **dump,
                               size_t *dumpLen, char **msg, size_t *msgLen);

#endif /* GTR_FUZZ_GO_READER_H */
