// goroutines: goroutine creation and exit, unbuffered and buffered channels, select with
// timers, mutex and condition-variable contention, sleeps and yields.
package main

import (
	"runtime"
	"sync"
	"time"

	"gotrace.test/oldgo/internal/run"
)

func pingPong(n int) {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v + 1
		}
		close(pong)
	}()
	for i := 0; i < n; i++ {
		ping <- i
		<-pong
	}
	close(ping)
	<-pong
}

func pipeline(n int) {
	src := make(chan int, 16)
	mid := make(chan int, 4)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range src {
				mid <- v * v
			}
		}()
	}
	go func() {
		wg.Wait()
		close(mid)
	}()
	go func() {
		for i := 0; i < n; i++ {
			src <- i
		}
		close(src)
	}()
	sum := 0
	for v := range mid {
		sum += v
	}
	_ = sum
}

func selects(n int) {
	a, b := make(chan int), make(chan int)
	quit := make(chan struct{})
	go func() {
		for i := 0; i < n; i++ {
			if i%2 == 0 {
				a <- i
			} else {
				b <- i
			}
		}
		close(quit)
	}()
	t := time.NewTicker(100 * time.Microsecond)
	defer t.Stop()
	for {
		select {
		case <-a:
		case <-b:
		case <-t.C:
		case <-time.After(time.Millisecond):
		case <-quit:
			return
		}
	}
}

func contention(n int) {
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	ready := 0
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < n/8; i++ {
				mu.Lock()
				ready++
				if ready%5 == 0 {
					cond.Broadcast()
				}
				mu.Unlock()
				if i%16 == g {
					time.Sleep(10 * time.Microsecond)
				}
				runtime.Gosched()
			}
		}(g)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		for ready < n/2 {
			cond.Wait()
		}
		mu.Unlock()
	}()
	wg.Wait()
}

func main() {
	run.Main(nil, func(scale int) {
		for r := 0; r < scale; r++ {
			pingPong(500)
			pipeline(1000)
			selects(400)
			contention(800)
			var wg sync.WaitGroup
			for i := 0; i < 100; i++ {
				wg.Add(1)
				go func() {
					time.Sleep(50 * time.Microsecond)
					wg.Done()
				}()
			}
			wg.Wait()
		}
	})
}
