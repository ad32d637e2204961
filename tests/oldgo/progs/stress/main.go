// stress: everything at once, as Go's trace stress tests do: busy goroutines on every P, GC
// from malloc, blocking pipes, loopback TCP, channels, timers, sleeps, a locked thread, user
// annotations. -scale N repeats the round N times; ci/oldgo-fetch.sh --big uses it for
// benchmark-sized traces. -nosyscall leaves out the blocking pipe and the loopback TCP: Go
// 1.27.3's validator rejects the converted events of old traces with blocking syscalls
// ("tried to run goroutine N when one was already executing"), so only such a trace is read
// and validated to the end. A socket's accept, read or write is a syscall too, and one that
// takes longer than sysmon's 20 µs is traced as blocking (seen: accept4, on a busy machine).
package main

import (
	"context"
	"flag"
	"net"
	"runtime"
	"runtime/trace"
	"sync"
	"syscall"
	"time"

	"gotrace.test/oldgo/internal/run"
)

var (
	sink      []byte
	nosyscall = flag.Bool("nosyscall", false, "no blocking syscalls")
)

func round(ctx context.Context, r int) {
	var wg sync.WaitGroup
	done := make(chan struct{})
	ctx, task := trace.NewTask(ctx, "round")
	defer task.End()

	// Busy goroutines on every P.
	for p := 0; p < 10; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
					for i := 0; i < 20000; i++ {
						_ = i * i
					}
					runtime.Gosched()
				}
			}
		}()
	}
	// A locked thread.
	wg.Add(1)
	go func() {
		defer wg.Done()
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		for {
			select {
			case <-done:
				return
			default:
				runtime.Gosched()
			}
		}
	}()
	// Allocation (GC from malloc).
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 64; i++ {
			sink = make([]byte, 1<<20)
		}
	}()
	// Blocking pipe.
	p := [2]int{-1, -1}
	if !*nosyscall {
		if err := syscall.Pipe(p[:]); err != nil {
			run.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b [8]byte
			for {
				k, _ := syscall.Read(p[0], b[:])
				if k <= 0 {
					return
				}
			}
		}()
	}
	// Loopback TCP.
	var ln net.Listener
	var c net.Conn
	if !*nosyscall {
		var err error
		ln, err = net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			run.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := ln.Accept()
			if err != nil {
				return
			}
			var b [64]byte
			for {
				if _, err := c.Read(b[:]); err != nil {
					break
				}
			}
			c.Close()
		}()
		c, err = net.Dial("tcp", ln.Addr().String())
		if err != nil {
			run.Fatal(err)
		}
	}
	// Channels, timers, sleeps.
	ch := make(chan int)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range ch {
				trace.WithRegion(ctx, "recv", func() {
					if v%5 == 0 {
						time.Sleep(time.Microsecond)
					}
				})
			}
		}()
	}
	for i := 0; i < 400; i++ {
		ch <- i
		if i%20 == 0 {
			if p[1] >= 0 {
				syscall.Write(p[1], []byte("w"))
			}
			if c != nil {
				c.Write([]byte("net"))
			}
			trace.Log(ctx, "i", "tick")
		}
		if i%100 == 0 {
			<-time.After(100 * time.Microsecond)
		}
	}
	close(ch)
	if r%4 == 0 {
		runtime.GC()
	}
	time.Sleep(2 * time.Millisecond)
	close(done)
	if p[1] >= 0 {
		syscall.Close(p[1])
	}
	if c != nil {
		c.Close()
		ln.Close()
	}
	wg.Wait()
	if p[0] >= 0 {
		syscall.Close(p[0])
	}
}

func main() {
	run.Main(func(int) { runtime.GOMAXPROCS(10) }, func(scale int) {
		ctx := context.Background()
		for r := 0; r < scale; r++ {
			round(ctx, r)
		}
	})
}
