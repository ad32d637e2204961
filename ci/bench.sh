#!/usr/bin/env bash
# Benchmark gotrace against Go's own reader and validator (see bench/README.md).
#
#   ci/bench.sh [--runs N] [--cpu N|any] [--no-pgo] [TRACE...]  the table: C and Go
#   ci/bench.sh --plot [--cpu N|any] [--no-pgo]      the scaling series (10 MB to 1 GB)
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
# others), medians of N runs (default 3). C and Go run in pairs, each C run followed by a Go
# run of the same mode, and the C/Go ratio is the median of the N pairs' ratios: the load of
# a shared machine moves by tens of per cent within seconds, and the two runs of a pair meet
# the same load. An end-to-end run on a small trace repeats its command until 3 MB are read
# (process start included).
# Peak RSS (ru_maxrss) is given for the end-to-end modes, where it is the whole process's.
# --cpu N (default 0) runs every measured process, C and Go, on CPU N alone (taskset; Go then
# runs with GOMAXPROCS 1, its CPU time the same work): the two vCPUs of the machine this was
# written on differ by up to 1.7x for the C reader (bench/README.md), and a run would land on
# either. --cpu any leaves the placement to the scheduler. The load (uptime), the CPU and the
# build (with or without the profile) are printed first. The table is also written as
# Markdown to $GTR_BENCH_BUILD/bench.md.
#
# --plot: bench/bigtrace traces of 10, 30, 100, 300 and 1000 MB (a real trace of a busy Go
# program as long as asked, see bench/README.md), `validate FILE` end to end on each, C and
# Go, one run each; draws events/s and peak RSS against the trace size with gnuplot
# (installed with apt-get when missing) into bench/scaling.png, and writes the table to
# $GTR_BENCH_BUILD/scaling.md. The traces stay in $GTR_BENCH_BUILD/traces/ (~1.5 GB; delete
# it when done).
#
# Builds gotrace and bench_reader in $GTR_BENCH_BUILD (default build-bench/) as the main job
# builds gotrace: Release, link-time and profile-guided optimised (ci/pgo-build.sh; trained on
# traces this table does not measure, bench/pgo-train.sh); --no-pgo builds them without the
# profile (the tree is reconfigured: the next run with the profile builds again). It builds
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
cpu=0
pgo=1
traces=()
while [ $# -gt 0 ]; do
    case "$1" in
    --plot) plot=1 ;;
    --runs) runs=$2; shift ;;
    --cpu) cpu=$2; shift ;;
    --no-pgo) pgo=0 ;;
    -h|--help) sed -n '2,46p' "$0"; exit 0 ;;
    -*) echo "bench: unknown flag $1 (see --help)" >&2; exit 2 ;;
    *) traces+=("$1") ;;
    esac
    shift
done
case "$runs" in ''|*[!0-9]*|0) echo "bench: --runs wants a positive number" >&2; exit 2 ;; esac
# pin: the prefix that runs a measured command on the chosen CPU.
pin=()
case "$cpu" in
any) ;;
''|*[!0-9]*) echo "bench: --cpu wants a CPU number or any" >&2; exit 2 ;;
*)
    taskset -c "$cpu" true 2>/dev/null \
        || { echo "bench: cannot run on CPU $cpu (taskset -c $cpu)" >&2; exit 2; }
    pin=(taskset -c "$cpu") ;;
esac

# Our side is built as the main job builds it: Release, profile-guided (ci/pgo-build.sh; the
# profile is made again only when the sources changed). --no-pgo: without the profile.
GTR_PGO=$pgo bash "$root/ci/pgo-build.sh" "$build" bench_reader cputime gotrace -- \
    -DGTR_BUILD_TESTS=OFF || { echo "bench: building gotrace failed" >&2; exit 1; }
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

# median: the middle line of stdin, sorted numerically (the lower middle of an even count).
median() {
    sort -g | awk '{ l[NR] = $0 } END { if (NR) print l[int((NR + 1) / 2)] }'
}

# e2e_paired NAME RUNS REPS C_STDIN GO_STDIN: RUNS pairs of end-to-end runs, each a run of
# the command in the array ccmd then one of the command in gcmd (empty: C alone), so that
# the two sides of a pair meet the same load. A run is REPS executions of the command in a
# row (stdout /dev/null), timed by bench/cputime (the children's rusage, to the
# microsecond): the CPU time per execution and the largest peak RSS of any. Prints
# "c_seconds c_rss go_seconds go_rss ratio": each side's median run and its peak RSS, and
# the median of the pairs' Go/C ratios (- for the Go side and the ratio without gcmd).
e2e_paired() {
    local name=$1 n=$2 r=$3 cin=$4 gin=$5 i c g
    : >"$build/$name.runs"
    for ((i = 0; i < n; i++)); do
        c=$("${pin[@]}" "$build/bin/cputime" "$r" "$cin" "${ccmd[@]}") \
            || { echo "bench: failed: ${ccmd[*]}" >&2; return 1; }
        g="- -"
        if [ ${#gcmd[@]} -gt 0 ]; then
            g=$("${pin[@]}" "$build/bin/cputime" "$r" "$gin" "${gcmd[@]}") \
                || { echo "bench: failed: ${gcmd[*]}" >&2; return 1; }
        fi
        echo "$c $g" >>"$build/$name.runs"
    done
    c=$(awk '{ print $1, $2 }' "$build/$name.runs" | median)
    if [ ${#gcmd[@]} -gt 0 ]; then
        g=$(awk '{ print $3, $4 }' "$build/$name.runs" | median)
        echo "$c $g $(awk '$1 > 0 { printf "%.6f\n", $3 / $1 }' "$build/$name.runs" | median)"
    else
        echo "$c - - -"
    fi
}

# row MODE BYTES EVENTS C_SECONDS C_RSS GO_SECONDS GO_RSS [RATIO]: one line of the table
# (text and Markdown). An RSS of - is not measured for that mode. The C/Go ratio is RATIO
# (the median of paired runs' ratios) when given, else GO_SECONDS / C_SECONDS.
row() {
    awk -v mode="$1" -v bytes="$2" -v ev="$3" -v cs="$4" -v cr="$5" -v gs="$6" -v gr="$7" \
        -v pr="${8:-}" \
        -v md="$build/bench.md" 'function f(s, r) {
            if (s == "" || s == "-") return sprintf("%8s %7s %7s %7s", "-", "-", "-", "-")
            return sprintf("%8.2f %7.1f %7.1f %7s", ev / s / 1e6, bytes / s / 1e6,
                           s * 1e9 / ev, r == "-" ? "-" : sprintf("%.0f", r / 1024))
        }
        function m(s, r) {
            if (s == "" || s == "-") return "- | - | - | -"
            return sprintf("%.2f | %.1f | %.1f | %s", ev / s / 1e6, bytes / s / 1e6,
                           s * 1e9 / ev, r == "-" ? "-" : sprintf("%.0f", r / 1024))
        }
        BEGIN {
            if (pr != "" && pr != "-")
                ratio = sprintf("%.1fx", pr)
            else
                ratio = (gs != "" && gs != "-" && cs > 0) ? sprintf("%.1fx", gs / cs) : "-"
            printf "%-15s %s | %s | %6s\n", mode, f(cs, cr), f(gs, gr), ratio
            printf "| %s | %s | %s | %s |\n", mode, m(cs, cr), m(gs, gr), ratio >>md
        }'
}

bench_table() {
    local t p bytes ver out events cp cv gp gv rp rv r e f
    local -a ccmd gcmd
    : >"$build/bench.md"
    for t in "$@"; do
        p=$(plain "$t")
        bytes=$(stat -c %s "$p")
        ver=$(head -c 16 "$p" | tr -d '\0' | sed 's/ trace$//')
        out=$("${pin[@]}" "$build/bin/bench_reader" -n "$runs" ${gobench:+-g "$gobench"} "$p")
        events=$(echo "$out" | awk '$1 == "C" && $2 == "parse" { print $3 }')
        cp=$(echo "$out" | awk '$1 == "C" && $2 == "parse" { print $5 }')
        cv=$(echo "$out" | awk '$1 == "C" && $2 == "parse+validate" { print $5 }')
        gp=$(echo "$out" | awk '$1 == "Go" && $2 == "parse" { print $5 }')
        gv=$(echo "$out" | awk '$1 == "Go" && $2 == "parse+validate" { print $5 }')
        rp=$(echo "$out" | sed -n 's/^C\/Go speed: parse \([0-9.]*\)x.*/\1/p')
        rv=$(echo "$out" | sed -n 's/^C\/Go speed: .*parse+validate \([0-9.]*\)x.*/\1/p')
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
        row parse "$bytes" "$events" "$cp" - "$gp" - "$rp"
        row parse+validate "$bytes" "$events" "$cv" - "$gv" - "$rv"
        r=$(reps "$bytes")
        ccmd=("$gotrace" validate "$p") gcmd=()
        [ -z "$gobench" ] || gcmd=("$gobench" file "$p" 1)
        e=$(e2e_paired validate "$runs" "$r" /dev/null /dev/null)
        read -ra f <<<"$e"
        row "validate FILE" "$bytes" "$events" "${f[@]}"
        ccmd=("$gotrace" validate --log-events "$p") gcmd=()
        [ -z "$oracle" ] || gcmd=("$oracle" validate)
        e=$(e2e_paired log "$runs" "$r" /dev/null "$p")
        read -ra f <<<"$e"
        row "--log-events" "$bytes" "$events" "${f[@]}"
    done
}

bench_plot() {
    local mb f bytes events c g
    local -a ccmd gcmd=()
    [ -n "$gobench" ] || { echo "bench: --plot needs Go's toolchain" >&2; exit 1; }
    : >"$build/scaling.dat"
    {
        echo "| trace MB | events | C M events/s | C peak RSS MB | Go M events/s | Go peak RSS MB | C/Go speed |"
        echo "|---|---|---|---|---|---|---|"
    } >"$build/scaling.md"
    for mb in 10 30 100 300 1000; do
        f=$(bigtrace_file "$mb")
        bytes=$(stat -c %s "$f")
        ccmd=("$gotrace" validate "$f")
        c=$(e2e_paired validate 1 1 /dev/null /dev/null)
        c=${c% - - -}
        # Go's run also counts the events.
        "${pin[@]}" /usr/bin/time -o "$build/go-plot.t" -f '%U %S %M' "$gobench" file "$f" 1 \
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
echo "cpu: ${cpu} ($(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs)"
if [ "$pgo" -eq 1 ]; then
    echo "build: Release, LTO, profile-guided (ci/pgo-build.sh)"
else
    echo "build: Release, LTO, no profile (--no-pgo)"
fi
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
