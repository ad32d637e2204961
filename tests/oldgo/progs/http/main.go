// http: a loopback HTTP server and concurrent clients (network poller, many short-lived
// goroutines, timers, allocation).
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"

	"gotrace.test/oldgo/internal/run"
)

func main() {
	var ln net.Listener
	run.Main(func(int) {
		var err error
		if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			run.Fatal(err)
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			n := len(r.URL.Path)
			fmt.Fprintf(w, "%s %s", r.Method, strings.Repeat("z", 64*n))
		})
		go http.Serve(ln, mux)
	}, func(scale int) {
		url := "http://" + ln.Addr().String()
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
		var wg sync.WaitGroup
		for c := 0; c < 4; c++ {
			wg.Add(1)
			go func(c int) {
				defer wg.Done()
				for i := 0; i < 25*scale; i++ {
					resp, err := client.Get(fmt.Sprintf("%s/%d/%s", url, c, strings.Repeat("p", i%7)))
					if err != nil {
						run.Fatal(err)
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}(c)
		}
		wg.Wait()
		client.CloseIdleConnections()
	})
	ln.Close()
}
