// gtroracle: Go's own trace reader (golang.org/x/exp/trace) as a differential oracle for
// gotrace. Built in GOPATH mode by ci/oracle-fetch.sh; never part of the C build.
//
//	gtroracle validate   < trace   each event's String() on stdout, then validated;
//	                                on the first error: "error: <msg>" on stderr, exit 1
//	gtroracle text2bytes < text    Go's raw text reader -> raw binary writer
//	gtroracle bytes2text < bytes   Go's raw binary reader -> raw text writer
//	gtroracle check FILE.test...   Go's golden runner (TestReaderGolden) per file
//
// Input may be gzip-compressed.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"

	"golang.org/x/exp/trace"
	"golang.org/x/exp/trace/internal/raw"
	"golang.org/x/exp/trace/internal/testtrace"
	"golang.org/x/exp/trace/internal/version"
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

func fail(err error) {
	fmt.Fprintf(os.Stderr, "error: %v\n", err)
	os.Exit(1)
}

func validate(b []byte) {
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer out.Flush()
	ver := version.Current
	if v, err := version.ReadHeader(bytes.NewReader(b)); err == nil {
		ver = v
	}
	r, err := trace.NewReader(bytes.NewReader(b))
	if err != nil {
		out.Flush()
		fail(err)
	}
	v := testtrace.NewValidator()
	v.GoVersion = ver
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			return
		}
		if err != nil {
			out.Flush()
			fail(err)
		}
		fmt.Fprintln(out, ev.String())
		if err := v.Event(ev); err != nil {
			out.Flush()
			fail(err)
		}
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

// checkOne mirrors TestReaderGolden/testReader of internal/trace.
func checkOne(path string) error {
	tr, ver, exp, err := testtrace.ParseFile(path)
	if err != nil {
		return fmt.Errorf("failed to parse test file at %s: %v", path, err)
	}
	v := testtrace.NewValidator()
	v.GoVersion = ver
	r, err := trace.NewReader(tr)
	if err != nil {
		return exp.Check(err)
	}
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			return exp.Check(err)
		}
		if err := v.Event(ev); err != nil {
			return exp.Check(err)
		}
	}
	return exp.Check(nil)
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gtroracle validate|text2bytes|bytes2text|check FILE...")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "validate":
		validate(input())
	case "text2bytes":
		text2bytes(input())
	case "bytes2text":
		bytes2text(input())
	case "check":
		failed := 0
		for _, p := range os.Args[2:] {
			if err := checkOne(p); err != nil {
				fmt.Printf("FAIL %s: %v\n", p, err)
				failed++
			} else {
				fmt.Printf("ok   %s\n", p)
			}
		}
		fmt.Printf("%d passed, %d failed\n", len(os.Args)-2-failed, failed)
		if failed > 0 {
			os.Exit(1)
		}
	default:
		fmt.Fprintf(os.Stderr, "unknown mode %q\n", os.Args[1])
		os.Exit(2)
	}
}
