// Package run is the common frame of the trace-producing programs: flags, and
// runtime/trace started into the output file around the program's work.
package run

import (
	"bufio"
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
	f, err := os.Create(*out)
	if err != nil {
		Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := trace.Start(w); err != nil {
		Fatal(err)
	}
	body(*scale)
	trace.Stop()
	if err := w.Flush(); err != nil {
		Fatal(err)
	}
	if err := f.Close(); err != nil {
		Fatal(err)
	}
}

// Fatal prints err and exits 1.
func Fatal(err error) {
	fmt.Fprintln(os.Stderr, "error:", err)
	os.Exit(1)
}
