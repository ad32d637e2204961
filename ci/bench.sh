#!/usr/bin/env bash
# Benchmark gotrace against Go's own reader and validator (see bench/README.md).
#
#   ci/bench.sh [--runs N] [TRACE...]   the table: C and Go side by side on each trace
#   ci/bench.sh --plot [--runs N]       the scaling series (10 MB to 1 GB) and its figure
#
# The table, for each TRACE (default: one real trace per version, go1.22, go1.23, go1.25,
# go1.26 and AllocFree, from corpus/real/, plus a 10 MB trace of bench/bigtrace): events/s,
# MB/s (of uncompressed trace bytes), ns/event and peak RSS of C and Go, and the C/Go speed
# ratio, for
#   parse          the reader on the trace in memory (bench_reader / gtrbench parse)
#   parse+validate the reader and the validator on every event, in memory
#   validate FILE  end to end: `gotrace validate FILE` / `gtrbench file FILE` (Go's reader
#                  through a bufio.Reader, Go's validator), on the uncompressed file
#   --log-events   end to end: `gotrace validate --log-events FILE` / the oracle's validate
#                  (Go's reader, validator and Event.String() through a bufio.Writer),
#                  output to /dev/null
# Times are CPU seconds (user+system; the machine is shared, wall time mostly measures the
# others), medians of N runs (default 3); Go and C alternate in the same run. An end-to-end
# run on a small trace repeats its command until 3 MB are read (process start included).
# Peak RSS (ru_maxrss) is given for the end-to-end modes, where it is the whole process's.
# The load (uptime) is printed first. The table is also written as Markdown to
# $GTR_BENCH_BUILD/bench.md.
#
# --plot: bench/bigtrace traces of 10, 30, 100, 300 and 1000 MB (a real trace of a busy Go
# program as long as asked, see bench/README.md), `validate FILE` end to end on each, C and
# Go, one run each; draws events/s and peak RSS against the trace size with gnuplot
# (installed with apt-get when missing) into bench/scaling.png, and writes the table to
# $GTR_BENCH_BUILD/scaling.md. The traces stay in $GTR_BENCH_BUILD/traces/ (~1.5 GB; delete
# it when done).
#
# Builds a Release gotrace and bench_reader in $GTR_BENCH_BUILD (default build-bench/), and
# gtrbench (bench/gtrbench.go) and bigtrace (bench/bigtrace/main.go) with the Go toolchain
# ci/oracle-fetch.sh puts in the oracle cache ($GTR_ORACLE_CACHE, default
# ~/.cache/gotrace-oracle). Without that toolchain, only C figures are printed and --plot
# cannot run.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${GTR_BENCH_BUILD:-$root/build-bench}
cache=${GTR_ORACLE_CACHE:-$HOME/.cache/gotrace-oracle}
runs=3
plot=0
traces=()
while [ $# -gt 0 ]; do
    case "$1" in
    --plot) plot=1 ;;
    --runs) runs=$2; shift ;;
    -h|--help) sed -n '2,36p' "$0"; exit 0 ;;
    -*) echo "bench: unknown flag $1 (see --help)" >&2; exit 2 ;;
    *) traces+=("$1") ;;
    esac
    shift
done
case "$runs" in ''|*[!0-9]*|0) echo "bench: --runs wants a positive number" >&2; exit 2 ;; esac

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGTR_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j2 --target bench_reader cputime gotrace >/dev/null
gotrace=$build/bin/gotrace
mkdir -p "$build/traces"

# The Go side: gtrbench, the oracle, bigtrace.
gobench="" oracle=""
# shellcheck source=ci/go-internal-build.sh
. "$root/ci/go-internal-build.sh"
oracle=$(bash "$root/ci/oracle-fetch.sh" "$cache" 2>/dev/null) || oracle=""
goroot="$cache/unpacked/usr/lib/go-1.27"
if [ -x "$goroot/bin/go" ] && [ -f "$goroot/src/internal/trace/reader.go" ]; then
    go_internal_build "$goroot" "$cache" gtrbench "$build/gtrbench" "$root/bench/gtrbench.go" \
        || { echo "bench: building gtrbench failed" >&2; exit 1; }
    gobench=$build/gtrbench
    (cd "$root/bench/bigtrace" && GOROOT=$goroot GOTOOLCHAIN=local GOFLAGS= GO111MODULE=off \
        GOCACHE=$cache/gocache "$goroot/bin/go" build -o "$build/bigtrace" main.go) \
        || { echo "bench: building bigtrace failed" >&2; exit 1; }
else
    echo "bench: no Go toolchain in $cache: C figures only" >&2
fi

# bigtrace_file MB: the path of a bigtrace trace of MB megabytes, made when missing.
bigtrace_file() {
    local f=$build/traces/bigtrace-$1mb.trace
    if [ ! -s "$f" ]; then
        [ -x "$build/bigtrace" ] || { echo "bench: no bigtrace (no Go toolchain)" >&2; exit 1; }
        "$build/bigtrace" $(($1 * 1000000)) "$f.tmp" && mv "$f.tmp" "$f"
    fi
    echo "$f"
}

# plain TRACE: an uncompressed copy of TRACE (gunzip is left out of both sides).
plain() {
    case "$1" in
    *.gz)
        local f
        f=$build/traces/$(basename "$1" .gz)
        [ -s "$f" ] && [ "$f" -nt "$1" ] || gzip -dc "$1" >"$f"
        echo "$f" ;;
    *) echo "$1" ;;
    esac
}

# reps BYTES: how many times an end-to-end run repeats its command, so that it reads at
# least 3 MB (process start included in each).
reps() {
    local r=$(( (3000000 + $1 - 1) / $1 ))
    [ "$r" -le 200 ] || r=200
    echo "$r"
}

# e2e NAME RUNS REPS STDIN CMD...: the median "cpu_seconds peak_rss_kib" of RUNS runs, each
# REPS executions of CMD in a row (stdin STDIN, stdout /dev/null), cpu per execution, timed
# by bench/cputime (the children's rusage, to the microsecond). The peak RSS is the largest
# of any execution.
e2e() {
    local name=$1 n=$2 r=$3 in=$4 i
    shift 4
    : >"$build/$name.runs"
    for ((i = 0; i < n; i++)); do
        if ! "$build/bin/cputime" "$r" "$in" "$@" >>"$build/$name.runs"; then
            echo "bench: failed: $*" >&2
            return 1
        fi
    done
    sort -n "$build/$name.runs" | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'
}

# row MODE BYTES EVENTS C_SECONDS C_RSS GO_SECONDS GO_RSS: one line of the table (text and
# Markdown). An RSS of - is not measured for that mode.
row() {
    awk -v mode="$1" -v bytes="$2" -v ev="$3" -v cs="$4" -v cr="$5" -v gs="$6" -v gr="$7" \
        -v md="$build/bench.md" 'function f(s, r) {
            if (s == "") return sprintf("%8s %7s %7s %7s", "-", "-", "-", "-")
            return sprintf("%8.2f %7.1f %7.1f %7s", ev / s / 1e6, bytes / s / 1e6,
                           s * 1e9 / ev, r == "-" ? "-" : sprintf("%.0f", r / 1024))
        }
        function m(s, r) {
            if (s == "") return "- | - | - | -"
            return sprintf("%.2f | %.1f | %.1f | %s", ev / s / 1e6, bytes / s / 1e6,
                           s * 1e9 / ev, r == "-" ? "-" : sprintf("%.0f", r / 1024))
        }
        BEGIN {
            ratio = (gs != "" && cs > 0) ? sprintf("%.1fx", gs / cs) : "-"
            printf "%-15s %s | %s | %6s\n", mode, f(cs, cr), f(gs, gr), ratio
            printf "| %s | %s | %s | %s |\n", mode, m(cs, cr), m(gs, gr), ratio >>md
        }'
}

bench_table() {
    local t p bytes ver out events cp cv gp gv c g r
    : >"$build/bench.md"
    for t in "$@"; do
        p=$(plain "$t")
        bytes=$(stat -c %s "$p")
        ver=$(head -c 16 "$p" | tr -d '\0' | sed 's/ trace$//')
        out=$("$build/bin/bench_reader" -n "$runs" ${gobench:+-g "$gobench"} "$p")
        events=$(echo "$out" | awk '$1 == "C" && $2 == "parse" { print $3 }')
        cp=$(echo "$out" | awk '$1 == "C" && $2 == "parse" { print $5 }')
        cv=$(echo "$out" | awk '$1 == "C" && $2 == "parse+validate" { print $5 }')
        gp=$(echo "$out" | awk '$1 == "Go" && $2 == "parse" { print $5 }')
        gv=$(echo "$out" | awk '$1 == "Go" && $2 == "parse+validate" { print $5 }')
        echo
        echo "$(basename "$t"): $ver, $((bytes / 1000)) kB, $events events; median of $runs runs"
        printf '%-15s %8s %7s %7s %7s | %8s %7s %7s %7s | %6s\n' mode "C Mev/s" "MB/s" "ns/ev" \
            "RSS MB" "Go Mev/s" "MB/s" "ns/ev" "RSS MB" "C/Go"
        {
            echo
            echo "**$(basename "$t")**: $ver, $((bytes / 1000)) kB, $events events"
            echo
            echo "| mode | C M events/s | C MB/s | C ns/event | C peak RSS MB | Go M events/s | Go MB/s | Go ns/event | Go peak RSS MB | C/Go |"
            echo "|---|---|---|---|---|---|---|---|---|---|"
        } >>"$build/bench.md"
        row parse "$bytes" "$events" "$cp" - "$gp" -
        row parse+validate "$bytes" "$events" "$cv" - "$gv" -
        r=$(reps "$bytes")
        c=$(e2e c-validate "$runs" "$r" /dev/null "$gotrace" validate "$p")
        g=""
        [ -z "$gobench" ] || g=$(e2e go-validate "$runs" "$r" /dev/null "$gobench" file "$p" 1)
        row "validate FILE" "$bytes" "$events" "${c% *}" "${c#* }" "${g% *}" "${g#* }"
        c=$(e2e c-log "$runs" "$r" /dev/null "$gotrace" validate --log-events "$p")
        g=""
        [ -z "$oracle" ] || g=$(e2e go-log "$runs" "$r" "$p" "$oracle" validate)
        row "--log-events" "$bytes" "$events" "${c% *}" "${c#* }" "${g% *}" "${g#* }"
    done
}

bench_plot() {
    local mb f bytes events c g
    [ -n "$gobench" ] || { echo "bench: --plot needs Go's toolchain" >&2; exit 1; }
    : >"$build/scaling.dat"
    {
        echo "| trace MB | events | C M events/s | C peak RSS MB | Go M events/s | Go peak RSS MB | C/Go speed |"
        echo "|---|---|---|---|---|---|---|"
    } >"$build/scaling.md"
    for mb in 10 30 100 300 1000; do
        f=$(bigtrace_file "$mb")
        bytes=$(stat -c %s "$f")
        c=$(e2e c-validate 1 1 /dev/null "$gotrace" validate "$f")
        # Go's run also counts the events.
        /usr/bin/time -o "$build/go-plot.t" -f '%U %S %M' "$gobench" file "$f" 1 \
            >"$build/go-plot.out" || { echo "bench: failed: $gobench file $f" >&2; exit 1; }
        events=$(sed -n 's/^events=//p' "$build/go-plot.out")
        g=$(awk '{ printf "%.6f %d\n", $1 + $2, $3 }' "$build/go-plot.t")
        echo "$bytes $events ${c% *} ${c#* } ${g% *} ${g#* }" >>"$build/scaling.dat"
        awk -v b="$bytes" -v e="$events" -v cs="${c% *}" -v cr="${c#* }" -v gs="${g% *}" \
            -v gr="${g#* }" 'BEGIN {
                printf "%7.1f MB %10d events  C %6.2f M events/s %6.0f MB RSS   Go %6.2f M events/s %6.0f MB RSS   %4.1fx\n",
                    b / 1e6, e, e / cs / 1e6, cr / 1024, e / gs / 1e6, gr / 1024, gs / cs
                printf "| %.1f | %d | %.2f | %.0f | %.2f | %.0f | %.1fx |\n", b / 1e6, e,
                    e / cs / 1e6, cr / 1024, e / gs / 1e6, gr / 1024, gs / cs >>"/dev/stderr"
            }' 2>>"$build/scaling.md"
    done
    if ! command -v gnuplot >/dev/null; then
        echo "bench: installing gnuplot-nox"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q gnuplot-nox </dev/null >/dev/null \
            || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
                 apt-get install -y -q gnuplot-nox </dev/null >/dev/null; }
    fi
    gnuplot <<EOF
set terminal pngcairo size 1000,420 noenhanced font ",10"
set output "$root/bench/scaling.png"
set multiplot layout 1,2 title "gotrace validate FILE vs Go's reader+validator (bench/bigtrace traces; CPU time)"
set logscale x
set xrange [5:2000]
set xlabel "trace size (MB)"
set grid
set key top left
set ylabel "M events/s"
set yrange [0:*]
plot "$build/scaling.dat" using (\$1/1e6):(\$2/\$3/1e6) with linespoints title "C (gotrace)", \
     "" using (\$1/1e6):(\$2/\$5/1e6) with linespoints title "Go"
set ylabel "peak RSS (MB)"
set logscale y
set yrange [*:*]
plot "$build/scaling.dat" using (\$1/1e6):(\$4/1024) with linespoints title "C (gotrace)", \
     "" using (\$1/1e6):(\$6/1024) with linespoints title "Go"
unset multiplot
EOF
    echo "wrote bench/scaling.png and $build/scaling.md"
}

echo "load: $(uptime)"
if [ "$plot" -eq 1 ]; then
    bench_plot
    exit 0
fi
if [ ${#traces[@]} -eq 0 ]; then
    for t in go1.22-testprog-gc-stress go1.23-testprog-gc-stress go1.25-testprog-stress \
             testprog-stress testprog-stress.allocfree; do
        traces+=("$root/corpus/real/$t.trace.gz")
    done
    if [ -x "$build/bigtrace" ]; then
        traces+=("$(bigtrace_file 10)")
    fi
fi
bench_table "${traces[@]}"
echo
echo "Markdown: $build/bench.md"
