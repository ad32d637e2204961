#!/usr/bin/env bash
# bench-v1.sh: speed and peak memory of gotrace against Go on an old-format trace: `gotrace
# validate TRACE` (parse + validate, no dump) against Go 1.27.3's reader and validator on the
# same bytes (bench/gtrbench.go, `validate TRACE 1`), each in its own process, under
# /usr/bin/time: wall time, CPU time (user + system: Go's GC threads count) and peak RSS.
#
#   ci/bench-v1.sh [--short] [--runs N] [TRACE]
#
# Default TRACE: the largest trace `ci/oldgo-fetch.sh --big` writes that Go reads and
# validates to the end (the larger go1.N-stress-nosys-big, about 20 MB; made on first use,
# then cached; the go1.N-stress-big twins, with blocking syscalls, stop at Go's validator
# flaw). --short (CI): Go's tracev1-stress_1_21_good (350 KB) and 3 runs. Prints, for each
# tool, the median of N runs (default 5; the two tools take turns) of each figure, then the
# ratios: Go's time over ours (how many times faster) and our peak RSS over Go's, and each
# RSS over the trace's size. Both tools must reach the same verdict (exit status); a
# differing one is printed and fails the script. Measured, never asserted against a target:
# the machine is shared, so the load (uptime) is printed too.
#
# Environment: GOTRACE (default build-bench/bin/gotrace, a Release build brought up to date),
# GTR_ORACLE_CACHE (the Go 1.27 toolchain, ci/oracle-fetch.sh), GTR_OLDGO_CACHE.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
short=0 runs="" trace=""
while [ $# -gt 0 ]; do
    case "$1" in
    --short) short=1; shift ;;
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) trace=$1; shift ;;
    esac
done
[ -x /usr/bin/time ] || { echo "bench-v1: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
cache=${GTR_ORACLE_CACHE:-$HOME/.cache/gotrace-oracle}
oldcache=${GTR_OLDGO_CACHE:-$HOME/.cache/gotrace-oldgo}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtr-benchv1.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ -z "$trace" ]; then
    if [ "$short" -eq 1 ]; then
        trace=$root/corpus/old/tracev1-stress_1_21_good.trace.gz
    else
        bash "$root/ci/oldgo-fetch.sh" --big "$oldcache/big" >/dev/null \
            || { echo "bench-v1: ci/oldgo-fetch.sh --big failed" >&2; exit 2; }
        trace=$(ls -S "$oldcache"/big/*-nosys-big.trace | head -n1)
    fi
fi
[ -n "$runs" ] || { [ "$short" -eq 1 ] && runs=3 || runs=5; }
[ -f "$trace" ] || { echo "bench-v1: no trace $trace" >&2; exit 2; }
# Both tools read the decompressed bytes from a file.
input=$tmp/trace
gzip -dc "$trace" >"$input" 2>/dev/null || cp "$trace" "$input"

gotrace=${GOTRACE:-}
if [ -z "$gotrace" ]; then
    build=$root/build-bench
    gotrace=$build/bin/gotrace
    # Built every time (a no-op when up to date): a binary left from an older tree would be
    # measured in place of the working tree's. As ci/bench.sh builds it: Release,
    # profile-guided (ci/pgo-build.sh; GTR_PGO=0 in the environment: without the profile).
    bash "$root/ci/pgo-build.sh" "$build" gotrace -- -DGTR_BUILD_TESTS=OFF \
        || { echo "bench-v1: cannot build gotrace" >&2; exit 2; }
fi
bash "$root/ci/oracle-fetch.sh" "$cache" >/dev/null || { echo "bench-v1: ci/oracle-fetch.sh failed" >&2; exit 2; }
goroot=$cache/unpacked/usr/lib/go-1.27
gtrbench=$oldcache/gtrbench
stamp=$(sha256sum <"$root/bench/gtrbench.go" | cut -c1-16)
if [ ! -x "$gtrbench" ] || [ "$(cat "$gtrbench.stamp" 2>/dev/null)" != "$stamp" ]; then
    # shellcheck source=ci/go-internal-build.sh
    . "$root/ci/go-internal-build.sh"
    mkdir -p "$oldcache"
    go_internal_build "$goroot" "$oldcache" gtrbench "$gtrbench" "$root/bench/gtrbench.go" \
        || { echo "bench-v1: building gtrbench failed" >&2; exit 2; }
    echo "$stamp" >"$gtrbench.stamp"
fi

# measure NAME CMD...: one run; appends a "wall cpu rss_kb rc" line to $tmp/NAME.
measure() {
    local name=$1 rc=0
    shift
    /usr/bin/time -o "$tmp/time" -f '%e %U %S %M' "$@" >/dev/null 2>"$tmp/$name.err" || rc=$?
    # The last line: /usr/bin/time puts "Command exited with non-zero status N" first.
    tail -n1 "$tmp/time" | awk -v rc="$rc" '{ printf "%s %.2f %s %s\n", $1, $2 + $3, $4, rc }' >>"$tmp/$name"
}
# median NAME COLUMN
median() {
    cut -d' ' -f"$2" "$tmp/$1" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

echo "load before: $(uptime)"
# The two tools take turns, so that a slow spell of the shared machine falls on both.
: >"$tmp/gotrace"
: >"$tmp/go"
for _ in $(seq "$runs"); do
    measure gotrace "$gotrace" validate "$input"
    measure go "$gtrbench" validate "$input" 1
done
echo "load after:  $(uptime)"

size=$(wc -c <"$input")
printf 'trace: %s (%s, %.1f MB)\n' "$trace" "$(head -c 16 "$input" | tr -d '\0')" \
    "$(echo "$size" | awk '{ print $1 / 1e6 }')"
printf '%-8s %10s %10s %12s %8s  %s\n' tool wall_s cpu_s peak_rss_MB rss/size verdict
for t in gotrace go; do
    rc=$(median "$t" 4)
    verdict=ok
    [ "$rc" -ne 0 ] && verdict="exit $rc: $(head -c 160 "$tmp/$t.err" | head -n1)"
    printf '%-8s %10s %10s %12.1f %8.1f  %s\n' "$t" "$(median "$t" 1)" "$(median "$t" 2)" \
        "$(echo "$(median "$t" 3)" | awk '{ print $1 / 1024 }')" \
        "$(echo "$(median "$t" 3) $size" | awk '{ print $1 * 1024 / $2 }')" "$verdict"
done
awk -v gw="$(median go 1)" -v ow="$(median gotrace 1)" -v gc="$(median go 2)" \
    -v oc="$(median gotrace 2)" -v gr="$(median go 3)" -v our_rss="$(median gotrace 3)" 'BEGIN {
    printf "speed (Go time / gotrace time): wall %.1fx, cpu %.1fx\n",
        gw / (ow > 0 ? ow : 0.005), gc / (oc > 0 ? oc : 0.005)
    printf "peak RSS (gotrace / Go): %.2f (gotrace %.0f MB, Go %.0f MB)\n", our_rss / gr, our_rss / 1024, gr / 1024
}'
if [ $(($(median gotrace 4) == 0)) -ne $(($(median go 4) == 0)) ]; then
    echo "bench-v1: the verdicts differ" >&2
    exit 1
fi
