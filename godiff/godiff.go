// godiff: Go 1.27.3's own trace reader and validator as a C function, for the in-process
// differential fuzz target fuzz_diff (fuzz/fuzz_diff.c). ci/go-diff-archive.sh builds this
// file together with the oracle's ci/difftest/oracle.go (its readTrace is what `gtroracle
// validate` prints) as the package main of $GOROOT/src/internal/trace/testdata/cmd/gtrdiff
// with `go build -buildmode=c-archive`; it is never part of the C build itself.
package main

/*
#include <stddef.h>
*/
import "C"

import (
	"bytes"
	"fmt"
	"unsafe"
)

// endPanic: Go panicked (Event.String(), Stack.Frames(), ...); the other endings are
// readTrace's (oracle.go).
const endPanic = 4

// capped keeps the first limit bytes written to it and drops the rest: a small input can
// name a deep stack of long strings from every event, and its whole dump would not fit in
// memory. The reading goes on to its end all the same.
type capped struct {
	buf   bytes.Buffer
	limit int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.limit - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// gtrdiff_go_minor is the minor version of the Go release whose internal/trace this program
// was built with (goMinor: a file the build script writes, minor.go), so that a program that
// loads the shared library knows which reader it compares with.
//
//export gtrdiff_go_minor
func gtrdiff_go_minor() C.int { return goMinor }

// gtrdiff_go_validate reads data[0:size) exactly as `gtroracle validate` does, without
// gunzipping it (the C side reads wire bytes only). *dump receives each event's String() and
// "\n" (the events before a panic too), its first limit bytes; *msg the error or the panic's
// value. Both are allocated with C's malloc (never NULL) for the caller to free. Returns the
// ending.
//
//export gtrdiff_go_validate
func gtrdiff_go_validate(data *C.uchar, size C.size_t, limit C.size_t, dump **C.char,
	dumpLen *C.size_t, msg **C.char, msgLen *C.size_t) (end C.int) {
	out := capped{limit: int(limit)}
	var text string
	defer func() {
		if p := recover(); p != nil {
			end = endPanic
			text = fmt.Sprint(p)
		}
		*dump = (*C.char)(C.CBytes(out.buf.Bytes()))
		*dumpLen = C.size_t(out.buf.Len())
		*msg = (*C.char)(C.CBytes([]byte(text)))
		*msgLen = C.size_t(len(text))
	}()
	b := C.GoBytes(unsafe.Pointer(data), C.int(size))
	e, err := readTrace(b, true, &out)
	if err != nil {
		text = err.Error()
	}
	return C.int(e)
}
