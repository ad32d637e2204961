// gc: garbage-collector pressure: a live heap of linked nodes that keeps changing, short-lived
// garbage from several goroutines, forced collections, GC percentage changes.
package main

import (
	"runtime"
	"runtime/debug"
	"sync"

	"gotrace.test/oldgo/internal/run"
)

type node struct {
	next *node
	data [6]uint64
	buf  []byte
}

var keep [4]*node

func churn(g, n int) {
	var head *node
	for i := 0; i < n; i++ {
		nd := &node{next: head, buf: make([]byte, 64+i%512)}
		nd.data[0] = uint64(i)
		head = nd
		if i%1000 == 999 {
			keep[g] = head
			head = nil
		}
	}
}

func main() {
	run.Main(nil, func(scale int) {
		for r := 0; r < scale; r++ {
			var wg sync.WaitGroup
			for g := 0; g < 4; g++ {
				wg.Add(1)
				go func(g int) {
					defer wg.Done()
					churn(g, 8000)
				}(g)
			}
			big := make([][]byte, 0, 64)
			for i := 0; i < 32; i++ {
				big = append(big, make([]byte, 256<<10))
			}
			wg.Wait()
			_ = big
			runtime.GC()
			old := debug.SetGCPercent(10)
			churn(0, 4000)
			debug.SetGCPercent(old)
			debug.FreeOSMemory()
		}
	})
}
