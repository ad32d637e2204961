// startstop: tracing started and stopped several times while goroutines are blocked on
// channels, sleeping, in syscalls and running; only the last round is written (earlier rounds
// go to io.Discard), so the trace begins with goroutines in every state.
package main

import (
	"io"
	"os"
	"runtime"
	"runtime/trace"
	"sync"
	"time"

	"gotrace.test/oldgo/internal/run"
)

var (
	done = make(chan struct{})
	wg   sync.WaitGroup
	wp   *os.File
)

func background(int) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-done
	}()
	rp, w, err := os.Pipe()
	if err != nil {
		run.Fatal(err)
	}
	wp = w
	wg.Add(1)
	go func() {
		defer wg.Done()
		var b [1]byte
		rp.Read(b[:])
		rp.Close()
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		runtime.LockOSThread()
		for {
			select {
			case <-done:
				return
			default:
				runtime.Gosched()
			}
		}
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	for i := 0; i < 3; i++ {
		if err := trace.Start(io.Discard); err != nil {
			run.Fatal(err)
		}
		time.Sleep(time.Millisecond)
		trace.Stop()
	}
}

func main() {
	run.Main(background, func(scale int) {
		for i := 0; i < scale; i++ {
			runtime.GC()
			time.Sleep(5 * time.Millisecond)
		}
		wp.Write([]byte("x"))
		wp.Close()
		close(done)
		wg.Wait()
	})
}
