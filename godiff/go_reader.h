/* SPDX-License-Identifier: BSD-3-Clause */
/* go_reader.h: private to godiff/: Go 1.27.3's own reader and validator, linked in from the archive that
 * ci/go-diff-archive.sh builds (godiff/godiff.go, exported with cgo). Declared here with
 * the exact types of Go's generated header (libgtrdiff.h), which is not included: it drags in
 * cgo's typedefs. */
#ifndef GTR_GODIFF_GO_READER_H
#define GTR_GODIFF_GO_READER_H

#include <stddef.h>

/* gtrdiff_go_validate reads data[0..size) as `gtroracle validate` does (wire bytes, never
 * gunzipped): *dump gets each event's String() and "\n", its first `limit` bytes, and *msg
 * the error or the panic's value, both malloc'd (never NULL) for the caller to free(). The
 * Go runtime recovers its panics inside. Returns a godiff_end (godiff.h). */
extern int gtrdiff_go_validate(unsigned char *data, size_t size, size_t limit, char **dump,
                               size_t *dumpLen, char **msg, size_t *msgLen);

#endif /* GTR_GODIFF_GO_READER_H */
