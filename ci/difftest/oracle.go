// gtroracle: Go 1.27.3's own trace reader (src/internal/trace) as a differential oracle for
// gotrace. ci/oracle-fetch.sh copies this file to
// $GOROOT/src/internal/trace/testdata/cmd/gtroracle/main.go inside Debian's unpacked
// golang-1.27-src tree and builds it there (only code under GOROOT/src may import
// internal/...); it is never part of the C build.
//
//	gtroracle validate   < trace   each event's String() on stdout, then validated with
//	                                testtrace.Validator; on the first error "error: <msg>" on
//	                                stderr; exit 1 for a reader error, 3 for a validator error
//	gtroracle read       < trace   the reader alone: each event's String(); on its error
//	                                "error: <msg>" on stderr, exit 1
//	gtroracle text2bytes < text    Go's raw text reader -> raw binary writer (error: exit 1)
//	gtroracle bytes2text < bytes   Go's raw binary reader -> raw text writer (error: exit 1)
//	gtroracle check FILE.test|DIR|-...
//	                                Go's TestReaderGolden/testReader per fixture ("-": one
//	                                fixture from stdin, named "-"; DIR: its *.test, sorted):
//	                                "ok   NAME" or "FAIL NAME: <first failure>" (newlines as
//	                                \n; " (and N more failures)" when there were several),
//	                                then "N passed, N failed"; exit 1 when any failed
//
// Trace input may be gzip-compressed. Usage errors exit 2.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"internal/trace"
	"internal/trace/raw"
	"internal/trace/testtrace"
	"internal/trace/version"
)

const (
	exitFail      = 1 // reader (or input, or conversion) error
	exitUsage     = 2
	exitValidator = 3 // validate: the validator rejected an event the reader returned
)

func input() []byte {
	b, err := io.ReadAll(os.Stdin)
	if err != nil {
		fail(err)
	}
	if len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			fail(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			fail(err)
		}
	}
	return b
}

func failWith(status int, err error) {
	fmt.Fprintf(os.Stderr, "error: %v\n", err)
	os.Exit(status)
}

func fail(err error) { failWith(exitFail, err) }

// goVersion is r.GoVersion(), the accessor Go's tests use (export_reader_test.go, compiled
// only into the package's tests): the Reader's unexported version field, which is the header
// version for go 1.22+ traces and 0 for the old (go 1.11/1.19/1.21) formats.
func goVersion(r *trace.Reader) version.Version {
	return version.Version(reflect.ValueOf(r).Elem().FieldByName("version").Uint())
}

// How a reading of the trace ended (readTrace); the exit statuses of `validate` and `read`
// follow from it. godiff/godiff.go hands it to C as well (godiff/go_reader.h).
const (
	endEOF       = 0 // read to io.EOF, every event valid
	endHeader    = 1 // trace.NewReader failed
	endRead      = 2 // ReadEvent failed
	endValidator = 3 // the validator rejected an event
)

// readTrace runs the reader over b, writing each event's String() and a newline to out;
// with validation, every event is then checked by a testtrace.Validator told the reader's
// version. It stops at the first error, and returns how the reading ended and that error.
func readTrace(b []byte, validation bool, out io.Writer) (int, error) {
	r, err := trace.NewReader(bytes.NewReader(b))
	if err != nil {
		return endHeader, err
	}
	v := testtrace.NewValidator()
	v.GoVersion = goVersion(r)
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			return endEOF, nil
		}
		if err != nil {
			return endRead, err
		}
		fmt.Fprintln(out, ev.String())
		if !validation {
			continue
		}
		if err := v.Event(ev); err != nil {
			return endValidator, err
		}
	}
}

// readEvents is readTrace on stdout, its error on stderr and its ending as the exit status.
func readEvents(b []byte, validation bool) {
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer out.Flush() // a panic in String() still prints the events before it, as Go did
	end, err := readTrace(b, validation, out)
	out.Flush()
	switch end {
	case endHeader, endRead:
		fail(err)
	case endValidator:
		failWith(exitValidator, err)
	}
}

func text2bytes(b []byte) {
	tr, err := raw.NewTextReader(bytes.NewReader(b))
	if err != nil {
		fail(err)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	w, err := raw.NewWriter(out, tr.Version())
	if err != nil {
		fail(err)
	}
	for {
		ev, err := tr.ReadEvent()
		if err == io.EOF {
			return
		}
		if err != nil {
			out.Flush()
			fail(err)
		}
		if err := w.WriteEvent(ev); err != nil {
			out.Flush()
			fail(err)
		}
	}
}

func bytes2text(b []byte) {
	r, err := raw.NewReader(bytes.NewReader(b))
	if err != nil {
		fail(err)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	w, err := raw.NewTextWriter(out, r.Version())
	if err != nil {
		fail(err)
	}
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			return
		}
		if err != nil {
			out.Flush()
			fail(err)
		}
		if err := w.WriteEvent(ev); err != nil {
			out.Flush()
			fail(err)
		}
	}
}

// failures collects what a test would report with t.Error/t.Fatalf.
type failures struct {
	msgs []string
}

func (f *failures) Error(err error) { f.msgs = append(f.msgs, err.Error()) }

// parseFile is testtrace.ParseFile(path); for "-" the fixture is read from stdin and handed
// to ParseFile as a file named "-" in a temporary directory, so that Go's messages name it
// "-" exactly as they would a file given by that path.
func parseFile(path string) (io.Reader, version.Version, *testtrace.Expectation, error) {
	if path != "-" {
		return testtrace.ParseFile(path)
	}
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("failed to read test file for -: %v", err)
	}
	dir, err := os.MkdirTemp("", "gtroracle")
	if err != nil {
		return nil, 0, nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "-"), data, 0o600); err != nil {
		return nil, 0, nil, err
	}
	back, err := os.Open(".")
	if err != nil {
		return nil, 0, nil, err
	}
	defer back.Close()
	if err := os.Chdir(dir); err != nil {
		return nil, 0, nil, err
	}
	defer back.Chdir()
	return testtrace.ParseFile("-")
}

// checkOne is one TestReaderGolden subtest: ParseFile, then testReader (reader_test.go).
func checkOne(testPath string) []string {
	t := new(failures)
	tr, ver, exp, err := parseFile(testPath)
	if err != nil {
		// t.Fatalf
		t.Error(fmt.Errorf("failed to parse test file at %s: %v", testPath, err))
		return t.msgs
	}
	v := testtrace.NewValidator()
	v.GoVersion = ver
	testReader(t, tr, v, exp)
	return t.msgs
}

// testReader is reader_test.go's testReader, line for line (no -log-events; the
// windows/wasm SkipClockSnapshotChecks does not apply here).
func testReader(t *failures, tr io.Reader, v *testtrace.Validator, exp *testtrace.Expectation) {
	r, err := trace.NewReader(tr)
	if err != nil {
		if err := exp.Check(err); err != nil {
			t.Error(err)
		}
		return
	}
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			break
		}
		v.GoVersion = goVersion(r)
		if err != nil {
			if err := exp.Check(err); err != nil {
				t.Error(err)
			}
			return
		}
		if err := v.Event(ev); err != nil {
			t.Error(err)
		}
	}
	if err := exp.Check(nil); err != nil {
		t.Error(err)
	}
}

// fixtures expands the operands as `gotrace check` does: a directory (a name not ending in
// .test) stands for its *.test files sorted by name; anything else is a fixture.
func fixtures(args []string, report func(name string, msgs []string)) {
	for _, a := range args {
		st, err := os.Stat(a)
		if a == "-" || strings.HasSuffix(a, ".test") || err != nil || !st.IsDir() {
			report(a, checkOne(a))
			continue
		}
		ents, err := os.ReadDir(a)
		if err != nil {
			report(a, []string{err.Error()})
			continue
		}
		var names []string
		for _, e := range ents {
			n := e.Name()
			if !strings.HasPrefix(n, ".") && len(n) > 5 && strings.HasSuffix(n, ".test") {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			report(a, []string{"no .test files in the directory"})
			continue
		}
		sort.Strings(names)
		sep := "/"
		if strings.HasSuffix(a, "/") {
			sep = ""
		}
		for _, n := range names {
			p := a + sep + n
			report(p, checkOne(p))
		}
	}
}

func check(args []string) {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "gtroracle: check: no fixtures given")
		os.Exit(exitUsage)
	}
	out := bufio.NewWriter(os.Stdout)
	passed, failed := 0, 0
	fixtures(args, func(name string, msgs []string) {
		if len(msgs) == 0 {
			fmt.Fprintf(out, "ok   %s\n", name)
			passed++
		} else {
			msg := msgs[0]
			if len(msgs) > 1 {
				msg += fmt.Sprintf(" (and %d more failures)", len(msgs)-1)
			}
			fmt.Fprintf(out, "FAIL %s: %s\n", name, strings.ReplaceAll(msg, "\n", `\n`))
			failed++
		}
		out.Flush()
	})
	fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed)
	out.Flush()
	if failed > 0 {
		os.Exit(exitFail)
	}
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gtroracle validate|read|text2bytes|bytes2text < INPUT\n"+
			"       gtroracle check FILE.test|DIR|-...")
		os.Exit(exitUsage)
	}
	switch os.Args[1] {
	case "validate":
		readEvents(input(), true)
	case "read":
		readEvents(input(), false)
	case "text2bytes":
		text2bytes(input())
	case "bytes2text":
		bytes2text(input())
	case "check":
		check(os.Args[2:])
	default:
		fmt.Fprintf(os.Stderr, "gtroracle: unknown mode %q\n", os.Args[1])
		os.Exit(exitUsage)
	}
}
