// annotations: user tasks (nested, ended on other goroutines, left open), regions (nested,
// WithRegion and StartRegion), and logs, as Go's annotation tests write them.
package main

import (
	"context"
	"fmt"
	"runtime/trace"
	"sync"

	"gotrace.test/oldgo/internal/run"
)

func main() {
	run.Main(nil, func(scale int) {
		ctx := context.Background()
		for r := 0; r < scale; r++ {
			ctx1, task := trace.NewTask(ctx, "task0")
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer task.End()
				trace.WithRegion(ctx1, "task0 region", func() {
					trace.Log(ctx1, "key0", "0123456789abcdef")
					ctx2, task2 := trace.NewTask(ctx1, "task1")
					trace.Logf(ctx2, "", "unkeyed %d", r)
					rg := trace.StartRegion(ctx2, "region1")
					trace.WithRegion(ctx2, "region2", func() {})
					rg.End()
					task2.End()
				})
			}()
			for i := 0; i < 20; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					c, t := trace.NewTask(ctx, fmt.Sprintf("worker%d", i%4))
					defer t.End()
					trace.WithRegion(c, "work", func() {
						trace.Log(c, "i", fmt.Sprint(i))
					})
				}(i)
			}
			wg.Wait()
			// A task left open and a region on a goroutine that ends inside it.
			_, open := trace.NewTask(ctx, "never-ended")
			_ = open
			trace.Log(ctx, "", "no task")
		}
	})
}
