// gtrbench: Go 1.27.3's own trace reader (src/internal/trace) timed the way bench_reader
// times ours: the trace is decompressed to memory first, then
// read RUNS times (a small trace again and again within a run, until 50 ms of CPU time have
// passed); the median run is printed as "events=N seconds=S wall=W" (S is the
// process's CPU time, GC threads included, W the wall time of that run).
//
//	gtrbench parse|validate FILE RUNS
//	gtrbench serve FILE 1
//	gtrbench file FILE 1
//
// Mode serve is bench_reader -g's partner: FILE is decompressed to memory once, then each
// line "parse" or "validate" read from stdin is answered with one run's
// "events=N seconds=S wall=W", so that bench_reader can alternate our runs with Go's, each
// pair measured under the same load.
//
// Mode file is `gotrace validate FILE`'s counterpart, end to end: FILE (plain, not
// gzip) is read as it is parsed, through a bufio.Reader, and validated, once; ci/bench.sh
// times the process and takes its peak RSS.
//
// Built by ci/bench.sh (through ci/go-internal-build.sh) as
// $GOROOT/src/internal/trace/testdata/cmd/gtrbench/main.go in the oracle's GOROOT (only code
// under GOROOT/src may import internal/trace and its testtrace package).
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"syscall"
	"time"

	"internal/trace"
	"internal/trace/testtrace"
	"internal/trace/version"
)

// goVersion is r.GoVersion(), the accessor Go's tests use (export_reader_test.go, compiled
// only into the package's tests), read as ci/difftest/oracle.go reads it: the Reader's
// unexported version field (the header version for go 1.22+ traces, 0 for the old formats).
// bench_reader tells its validator gtr_reader_go_version(r), the same value.
func goVersion(r *trace.Reader) version.Version {
	return version.Version(reflect.ValueOf(r).Elem().FieldByName("version").Uint())
}

func run(in io.Reader, validate bool) (int, error) {
	r, err := trace.NewReader(in)
	if err != nil {
		return 0, err
	}
	var v *testtrace.Validator
	if validate {
		v = testtrace.NewValidator()
		// Tell the validator the trace's version, as Go's own tests do.
		v.GoVersion = goVersion(r)
	}
	n := 0
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
		if v != nil {
			if err := v.Event(ev); err != nil {
				return n, err
			}
		}
	}
}

// cpu returns the process's user+system CPU time.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type result struct{ cpu, wall time.Duration }

// timedRun is one run: the trace read once, or, when small, again and again until 50 ms of
// CPU time have passed (as bench_reader), the time per read counted. It returns the run's
// times and the event count.
func timedRun(raw []byte, validate bool) (result, int) {
	runtime.GC()
	w0, c0 := time.Now(), cpu()
	reps, events := 0, 0
	var dt time.Duration
	for reps == 0 || dt < 50*time.Millisecond {
		n, err := run(bytes.NewReader(raw), validate)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		events = n
		reps++
		dt = cpu() - c0
	}
	dw := time.Since(w0)
	return result{dt / time.Duration(reps), dw / time.Duration(reps)}, events
}

// serve answers each "parse" or "validate" line of stdin with one timed run.
func serve(raw []byte) {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		mode := in.Text()
		if mode != "parse" && mode != "validate" {
			fmt.Fprintf(os.Stderr, "gtrbench serve: unknown mode %q\n", mode)
			os.Exit(2)
		}
		r, n := timedRun(raw, mode == "validate")
		// The collection the run started ends here, outside both sides' runs: its
		// workers (on every idle P while serve waits for the next line) would otherwise
		// share the machine with our next run.
		runtime.GC()
		fmt.Printf("events=%d seconds=%.6f wall=%.6f\n", n, r.cpu.Seconds(), r.wall.Seconds())
	}
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: gtrbench parse|validate|serve|file FILE RUNS")
		os.Exit(2)
	}
	if os.Args[1] == "file" {
		f, err := os.Open(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		n, err := run(bufio.NewReader(f), true)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("events=%d\n", n)
		return
	}
	raw, err := os.ReadFile(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if len(raw) >= 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if raw, err = io.ReadAll(zr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if os.Args[1] == "serve" {
		serve(raw)
		return
	}
	runs, _ := strconv.Atoi(os.Args[3])
	if runs < 1 {
		runs = 1
	}
	var res []result
	events := 0
	for i := 0; i < runs; i++ {
		r, n := timedRun(raw, os.Args[1] == "validate")
		res = append(res, r)
		events = n
	}
	sort.Slice(res, func(i, j int) bool { return res[i].cpu < res[j].cpu })
	med := res[len(res)/2]
	fmt.Printf("events=%d seconds=%.6f wall=%.6f\n", events, med.cpu.Seconds(), med.wall.Seconds())
}
