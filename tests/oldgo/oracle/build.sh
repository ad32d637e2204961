#!/usr/bin/env bash
# build.sh: the oracle with Go's map order fixed, for comparing old-format traces.
#
#   tests/oldgo/oracle/build.sh          prints the path of gtroracle-v1order
#   tests/oldgo/oracle/build.sh --overlays DIR
#                                        writes Go's two files with v1-order.patch applied
#                                        into DIR and prints the go_internal_build operands
#                                        that lay them over the tree (REL=FILE, one a line),
#                                        for another program built against the fixed order
#                                        (ci/go-diff-archive.sh)
#
# Go 1.27.3 reads an old (go 1.11-1.21) trace in an order that depends on Go's randomised map
# iteration twice: the procs of tracev1's merge (parser.go, parseEventBatches: `for pid :=
# range p.batchOffsets`; events with equal timestamps are taken in that order), and the
# goroutines that existed before tracing started (tracev1.go, convertEvent: `for gid := range
# it.createdPreInit`, one GoStatus event each at the first Gomaxprocs). So the stock oracle
# prints one of several dumps for such traces (tracev1-stress_1_21_good: 5 different ones in
# 12 runs; the verdict and event count did not vary). This builds the same program
# (ci/difftest/oracle.go) against Go's source with v1-order.patch applied, which makes both
# orders fixed, chosen at run time:
#   GTR_V1_PROCS=file (default)    procs in the order of their first batch in the trace
#   GTR_V1_PROCS=pid               procs by ascending pid
#   GTR_V1_PREINIT=insert (default) goroutines in the order they were created
#   GTR_V1_PREINIT=gid             goroutines by ascending ID
# Nothing else changes. Go's tree is not touched: the patched copies and the program are given
# to `go build -overlay` (ci/go-internal-build.sh). Cached in $GTR_OLDGO_CACHE (~/.cache/gotrace-oldgo) and rebuilt when
# the patch or oracle.go changes. Exit 1 (message on stderr) when it cannot be built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cache=${GTR_OLDGO_CACHE:-$HOME/.cache/gotrace-oldgo}
# GTR_GOROOT: the Go 1.27 tree itself (ci/go-diff-archive.sh's GTR_GO_DIFF_GOROOT), instead of
# the one beside the oracle.
goroot=${GTR_GOROOT:-}
if [ -z "$goroot" ]; then
    stock=${GTR_ORACLE:-}
    if [ -z "$stock" ]; then
        stock=$(bash "$root/ci/oracle-fetch.sh") || { echo "oracle-v1order: no Go 1.27 tree (ci/oracle-fetch.sh failed)" >&2; exit 1; }
    fi
    goroot=$(dirname "$stock")/unpacked/usr/lib/go-1.27
fi
[ -x "$goroot/bin/go" ] || { echo "oracle-v1order: no Go 1.27 toolchain in $goroot" >&2; exit 1; }
# overlays DIR: Go's two files with the patch applied, written under DIR; prints the
# REL=FILE operands of go_internal_build.
overlays() {
    local work=$1
    rm -rf "$work"
    mkdir -p "$work/src/internal/trace/internal/tracev1"
    cp "$goroot/src/internal/trace/tracev1.go" "$work/src/internal/trace/"
    cp "$goroot/src/internal/trace/internal/tracev1/parser.go" "$work/src/internal/trace/internal/tracev1/"
    (cd "$work/src" && patch -s -p1 <"$here/v1-order.patch") \
        || { echo "oracle-v1order: v1-order.patch does not apply to $goroot" >&2; return 1; }
    echo "tracev1.go=$work/src/internal/trace/tracev1.go"
    echo "internal/tracev1/parser.go=$work/src/internal/trace/internal/tracev1/parser.go"
}
if [ "${1:-}" = --overlays ]; then
    [ $# -eq 2 ] || { echo "usage: build.sh [--overlays DIR]" >&2; exit 2; }
    overlays "$2"
    exit
fi

out=$cache/gtroracle-v1order
stamp=$(cat "$here/v1-order.patch" "$root/ci/difftest/oracle.go" | sha256sum | cut -c1-16)
if [ -x "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$stamp" ]; then
    echo "$out"
    exit 0
fi
mapfile -t ops < <(overlays "$cache/oracle-v1order") && [ ${#ops[@]} -eq 2 ] || exit 1
# shellcheck source=ci/go-internal-build.sh
. "$root/ci/go-internal-build.sh"
go_internal_build "$goroot" "$cache" gtroraclev1order "$out" "$root/ci/difftest/oracle.go" "${ops[@]}" \
    || { echo "oracle-v1order: build failed" >&2; exit 1; }
echo "$stamp" >"$out.stamp"
echo "$out"
