// bigtrace: writes an execution trace of at least SIZE bytes (uncompressed) of a busy
// program: goroutines ping-ponging over channels, allocating (so the GC runs), sleeping,
// making syscalls, with user tasks, regions and logs, through runtime/trace. A real trace of
// the toolchain that builds it, as long as asked: ci/bench.sh --plot builds it with the
// oracle's Go and makes its scaling series with it.
//
//	bigtrace SIZE OUT
package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/trace"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

type counter struct {
	w *os.File
	n atomic.Int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n.Add(int64(n))
	return n, err
}

var sink [][]byte

//go:noinline
func deep(d int, f func()) {
	if d == 0 {
		f()
		return
	}
	deep(d-1, f)
}

func worker(ctx context.Context, id int, in, out chan int, stop *atomic.Bool, wg *sync.WaitGroup) {
	defer wg.Done()
	local := make([][]byte, 0, 64)
	for !stop.Load() {
		v, ok := <-in
		if !ok {
			return
		}
		deep(id%8, func() {
			ctx2, task := trace.NewTask(ctx, "step")
			trace.WithRegion(ctx2, "alloc", func() {
				local = append(local, make([]byte, 512+v%4096))
				if len(local) == cap(local) {
					local = local[:0]
				}
			})
			if v%64 == 0 {
				trace.Log(ctx2, "note", strconv.Itoa(v))
			}
			if v%97 == 0 {
				time.Sleep(10 * time.Microsecond)
			}
			if v%251 == 0 {
				os.Getpid()
				f, err := os.Open("/proc/self/stat")
				if err == nil {
					var b [64]byte
					f.Read(b[:])
					f.Close()
				}
			}
			task.End()
		})
		select {
		case out <- v + 1:
		default:
			runtime.Gosched()
			out <- v + 1
		}
	}
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: bigtrace SIZE OUT")
		os.Exit(2)
	}
	size, err := strconv.ParseInt(os.Args[1], 10, 64)
	if err != nil || size <= 0 {
		fmt.Fprintln(os.Stderr, "bigtrace: bad SIZE")
		os.Exit(2)
	}
	f, err := os.Create(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	c := &counter{w: f}
	if err := trace.Start(c); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx := context.Background()
	const rings, per = 4, 8
	var stop atomic.Bool
	var wg sync.WaitGroup
	for r := 0; r < rings; r++ {
		chs := make([]chan int, per)
		for i := range chs {
			chs[i] = make(chan int, 1)
		}
		for i := 0; i < per; i++ {
			wg.Add(1)
			go worker(ctx, r*per+i, chs[i], chs[(i+1)%per], &stop, &wg)
		}
		chs[0] <- r
	}
	for c.n.Load() < size {
		time.Sleep(5 * time.Millisecond)
		sink = append(sink[:0], make([]byte, 1<<16))
	}
	stop.Store(true)
	trace.Stop()
	f.Close()
	os.Exit(0) // the workers may be blocked on their rings
}
