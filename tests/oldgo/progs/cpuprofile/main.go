// cpuprofile: CPU profiling (runtime/pprof) on while tracing, with CPU-bound goroutines, so
// that the trace carries CPU samples (go 1.19 and later).
package main

import (
	"io"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"

	"gotrace.test/oldgo/internal/run"
)

//go:noinline
func spin(d time.Duration) uint64 {
	end := time.Now().Add(d)
	var x uint64 = 1
	for time.Now().Before(end) {
		for i := 0; i < 1000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	return x
}

func main() {
	run.Main(func(int) {
		if err := pprof.StartCPUProfile(io.Discard); err != nil {
			run.Fatal(err)
		}
	}, func(scale int) {
		var wg sync.WaitGroup
		for g := 0; g < runtime.GOMAXPROCS(0)+1; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				spin(time.Duration(scale) * 300 * time.Millisecond)
			}()
		}
		wg.Wait()
	})
	pprof.StopCPUProfile()
}
