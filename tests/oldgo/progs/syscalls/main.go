// syscalls: goroutines blocked in real (blocking) syscalls: reads from blocking pipes made
// with syscall.Pipe, netpoller-backed os.Pipe reads, file reads and writes, sleeps in the
// kernel. Some goroutines are already blocked in a syscall when tracing starts.
package main

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"gotrace.test/oldgo/internal/run"
)

var (
	preR, preW int
	preDone    = make(chan struct{})
)

// blockedBefore leaves a goroutine inside read(2) on a blocking pipe.
func blockedBefore(int) {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		run.Fatal(err)
	}
	preR, preW = p[0], p[1]
	go func() {
		var b [1]byte
		syscall.Read(preR, b[:])
		close(preDone)
	}()
	time.Sleep(5 * time.Millisecond)
}

func blockingPipe(n int) {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		run.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		var b [64]byte
		for {
			k, err := syscall.Read(p[0], b[:])
			if k <= 0 || err != nil {
				break
			}
		}
		close(done)
	}()
	for i := 0; i < n; i++ {
		syscall.Write(p[1], []byte("x"))
		if i%8 == 0 {
			time.Sleep(20 * time.Microsecond)
		}
	}
	syscall.Close(p[1])
	<-done
	syscall.Close(p[0])
}

func pollPipe(n int) {
	r, w, err := os.Pipe()
	if err != nil {
		run.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		var b [16]byte
		for {
			if _, err := r.Read(b[:]); err != nil {
				break
			}
		}
		close(done)
	}()
	for i := 0; i < n; i++ {
		w.Write([]byte("y"))
		time.Sleep(10 * time.Microsecond)
	}
	w.Close()
	<-done
	r.Close()
}

func files(n int) {
	dir, err := os.MkdirTemp("", "oldgo-syscalls")
	if err != nil {
		run.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			name := filepath.Join(dir, string(rune('a'+g)))
			buf := make([]byte, 4096)
			for i := 0; i < n; i++ {
				if err := os.WriteFile(name, buf, 0o600); err != nil {
					run.Fatal(err)
				}
				if _, err := os.ReadFile(name); err != nil {
					run.Fatal(err)
				}
				os.ReadFile("/proc/self/stat")
			}
		}(g)
	}
	wg.Wait()
}

func nanosleeps(n int) {
	var wg sync.WaitGroup
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ts := syscall.NsecToTimespec(50000)
			for i := 0; i < n; i++ {
				syscall.Nanosleep(&ts, nil)
			}
		}()
	}
	wg.Wait()
}

func main() {
	run.Main(blockedBefore, func(scale int) {
		for r := 0; r < scale; r++ {
			blockingPipe(300)
			pollPipe(200)
			files(40)
			nanosleeps(50)
		}
		syscall.Write(preW, []byte("z"))
		<-preDone
	})
}
