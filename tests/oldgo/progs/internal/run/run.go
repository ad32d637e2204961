// Package run is the common frame of the trace-producing programs: flags, and
// runtime/trace started around the program's work. The trace is kept in memory and written
// to the output file after trace.Stop: a write to the file while tracing is a syscall of
// the trace's own, and one that the runtime sees block (slower than sysmon's 20 µs, as on a
// busy machine) becomes a GoSysBlock in the trace.
package run

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime/trace"
)

// Main parses "-o FILE" (required) and "-scale N" (default 1: a small trace; larger values
// make the work, and so the trace, proportionally longer), then runs body with tracing on.
// When before is not nil it runs first, untraced (goroutines already blocked when tracing
// starts show up in the trace's initial state).
func Main(before func(scale int), body func(scale int)) {
	out := flag.String("o", "", "write the trace to `FILE`")
	scale := flag.Int("scale", 1, "work multiplier")
	flag.Parse()
	if *out == "" || *scale < 1 || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: PROG -o FILE [-scale N]")
		os.Exit(2)
	}
	if before != nil {
		before(*scale)
	}
	var buf bytes.Buffer
	buf.Grow(1 << 20)
	if err := trace.Start(&buf); err != nil {
		Fatal(err)
	}
	body(*scale)
	trace.Stop()
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		Fatal(err)
	}
}

// Fatal prints err and exits 1.
func Fatal(err error) {
	fmt.Fprintln(os.Stderr, "error:", err)
	os.Exit(1)
}
