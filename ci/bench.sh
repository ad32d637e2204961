#!/usr/bin/env bash
# Benchmark the high-level reader (see bench/README.md).
#
#   ci/bench.sh [TRACE] [RUNS]
#
# Builds bench_reader (Release, in $GTR_BENCH_BUILD, default build-bench/), and gtrbench
# (bench/gtrbench.go) over Go 1.27.3's own src/internal/trace: ci/oracle-fetch.sh gets the
# toolchain and source into the oracle cache ($GTR_ORACLE_CACHE, default
# ~/.cache/gotrace-oracle; fetched once, then reused), ci/go-internal-build.sh builds the
# program as src/internal/trace/testdata/cmd/gtrbench there. Then prints both sets of figures
# and their ratios; when Go's toolchain cannot be had, our figures only. RUNS: best of how
# many (default 3). Default trace: corpus/real/testprog-stress.trace.gz.
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
# shellcheck source=ci/go-internal-build.sh
. "$root/ci/go-internal-build.sh"
# oracle-fetch.sh also (re)builds the oracle; only the toolchain it leaves matters here.
bash "$root/ci/oracle-fetch.sh" "$cache" >/dev/null || echo "bench: ci/oracle-fetch.sh failed" >&2
goroot="$cache/unpacked/usr/lib/go-1.27"
if [ -x "$goroot/bin/go" ] && [ -f "$goroot/src/internal/trace/reader.go" ]; then
    go_internal_build "$goroot" "$cache" gtrbench "$build/gtrbench" "$root/bench/gtrbench.go" \
        || { echo "bench: building gtrbench failed" >&2; exit 1; }
    goflag=(-g "$build/gtrbench")
else
    echo "bench: no Go toolchain in $cache: C figures only" >&2
fi

"$build/bin/bench_reader" -n "$runs" "${goflag[@]}" "$trace"
