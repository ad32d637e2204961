// gomaxprocs: GOMAXPROCS changed while busy goroutines run (stop-the-world, procs started
// and stopped).
package main

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"gotrace.test/oldgo/internal/run"
)

func main() {
	run.Main(nil, func(scale int) {
		var stop int32
		var wg sync.WaitGroup
		for g := 0; g < 6; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for atomic.LoadInt32(&stop) == 0 {
					for i := 0; i < 100000; i++ {
						_ = i * i
					}
					runtime.Gosched()
				}
			}()
		}
		orig := runtime.GOMAXPROCS(0)
		for r := 0; r < 4*scale; r++ {
			for _, p := range []int{1, 4, 2, 8, 3} {
				runtime.GOMAXPROCS(p)
				time.Sleep(2 * time.Millisecond)
			}
		}
		runtime.GOMAXPROCS(orig)
		atomic.StoreInt32(&stop, 1)
		wg.Wait()
	})
}
