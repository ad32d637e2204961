// readtrace.go: readTrace of ci/difftest/oracle.go for an earlier Go release's internal/trace,
// copied by ci/go-releases-bench.sh into a module of its own ("gtrold": the release's
// src/internal/trace, or src/internal/trace/v2 for Go 1.22, with its imports rewritten) and
// built with godiff.go (godiff/) as the C archive of that release's fuzz_diff variant.
// The releases differ in one point here: the Validator of Go 1.25 and later is told the
// reader's version (setGoVersion, version_*.go); normalize (norm_*.go) rewrites or drops what
// the release prints where Go changed it on purpose since (fuzz/releases/README.md), as
// do the patches goR-*.patch applied to the release's tree.
package main

import (
	"bytes"
	"fmt"
	"io"

	trace "gtrold"
	"gtrold/testtrace"
)

const (
	endEOF       = 0 // read to io.EOF, every event valid
	endHeader    = 1 // trace.NewReader failed
	endRead      = 2 // ReadEvent failed
	endValidator = 3 // the validator rejected an event
)

// readTrace is oracle.go's readTrace: each event's String() and a newline to out (through
// normalize), the validator on every event, the first error ends the reading.
func readTrace(b []byte, validation bool, out io.Writer) (int, error) {
	r, err := trace.NewReader(bytes.NewReader(b))
	if err != nil {
		return endHeader, normalizeErr(err)
	}
	v := testtrace.NewValidator()
	setGoVersion(v, r)
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			return endEOF, nil
		}
		if err != nil {
			return endRead, normalizeErr(err)
		}
		if s, ok := normalize(ev, ev.String()); ok {
			fmt.Fprintln(out, s)
		}
		if !validation {
			continue
		}
		if err := v.Event(ev); err != nil {
			return endValidator, normalizeErr(err)
		}
	}
}

// main: a c-archive's package main needs one; never run.
func main() {}
