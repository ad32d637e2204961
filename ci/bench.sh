#!/usr/bin/env bash
# Benchmark the high-level reader (see bench/README.md).
#
#   ci/bench.sh [TRACE] [RUNS]
#
# Builds bench_reader (Release, in build-bench/), and, when Go's toolchain and x/exp/trace
# are in the oracle cache (ci/oracle-fetch.sh), gtrbench over Go's reader; then prints both
# sets of figures and their ratios. Default trace: corpus/real/testprog-stress.trace.gz.
# Keep runs short: the machine is shared.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
trace=${1:-$root/corpus/real/testprog-stress.trace.gz}
runs=${2:-3}
build=${GTR_BENCH_BUILD:-$root/build-bench}
cache=${GTR_ORACLE_CACHE:-$HOME/.cache/gotrace-oracle}

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGTR_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j2 --target bench_reader >/dev/null

goflag=()
goroot="$cache/unpacked/usr/lib/go-1.27"
if [ -x "$goroot/bin/go" ] && [ -d "$cache/gopath/src/golang.org/x/exp/trace" ]; then
    # Build in a private copy of the oracle's GOPATH (the program must sit under
    # golang.org/x/exp/trace/ to import its internal testtrace package).
    gopath="$build/gopath"
    if [ ! -d "$gopath/src/golang.org/x/exp/trace" ]; then
        mkdir -p "$gopath"
        cp -r "$cache/gopath/src" "$gopath/src"
    fi
    prog="$gopath/src/golang.org/x/exp/trace/cmd/gtrbench"
    mkdir -p "$prog"
    cp "$root/bench/gtrbench.go" "$prog/main.go"
    (cd "$prog" && GOROOT="$goroot" GO111MODULE=off GOPATH="$gopath" GOFLAGS= \
        GOTOOLCHAIN=local GOCACHE="$build/gocache" "$goroot/bin/go" build -o "$build/gtrbench" .)
    goflag=(-g "$build/gtrbench")
else
    echo "bench: no Go toolchain in $cache (run ci/oracle-fetch.sh): C figures only" >&2
fi

"$build/bin/bench_reader" -n "$runs" "${goflag[@]}" "$trace"
