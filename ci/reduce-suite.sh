#!/usr/bin/env bash
# reduce-suite.sh: the reduction suite. Derives failing inputs from the real traces of every
# version (bit flips, cuts, duplicated byte ranges, dropped batches; deterministic), runs
# `gotrace reduce` on each, and checks what it wrote:
#   - a fixture must pass `gotrace check` and, when the oracle is there, Go's own golden
#     runner (gtroracle check), and its FAILURE regexp must match the input's failure;
#   - wire bytes (OUT.trace, for a failure no fixture can hold) must show the input's
#     failure again.
# Prints one line per input and a summary: share reduced, median and worst size ratio (wire
# bytes of the reduced trace over the input's), time per reduction (median, worst).
#
#   bash ci/reduce-suite.sh [PER_KIND]     (default 4: up to 4 inputs per kind and trace)
#   bash ci/reduce-suite.sh --large [PER_KIND]
#       the large-trace suite: the breaks of a buggy writer or a lossy transport (a thread's
#       batch dropped, written twice or swapped with its next one; a cut anywhere; a
#       flight-recorder window cut in its last generation: `reduce_suite make-large`) of large
#       traces: bench/bigtrace's at 10 and 20 MB (written by the oracle's Go, go1.26 format;
#       skipped without it) and the largest real trace of each version; each reduction under
#       `--budget` REDUCE_BUDGET (default 60), its time, input and fixture sizes in a table,
#       the median and worst time, the fixtures over 2 KB. LARGE_TRACES overrides the list
#       ("bigtrace:MB" names bench/bigtrace's trace of MB megabytes). CI runs `--large 1` on
#       "bigtrace:10 corpus/real/testprog-stress.trace.gz"; the long run is `--large 3`.
#
# Every input that fails to advance must give a result stuck for the same reason (its
# diagnosis's shape, `reduce_suite verify`): a reduction that slipped fails the suite.
#
# Environment: BUILD (a build tree with bin/gotrace and bin/reduce_suite; default build-ci),
# GTR_ORACLE (the oracle; default: ci/oracle-fetch.sh when it can build one, else none),
# KEEP (a folder to keep the inputs and results in), TRACES (the traces to derive from),
# REDUCE_BUDGET (seconds per reduction, `gotrace reduce --budget`; default none).
# Exit 1 when any input fails its check.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
large=0
if [ "${1:-}" = --large ]; then
    large=1
    shift
fi
per_kind=${1:-4}
build=${BUILD:-$root/build-ci}
gotrace=$build/bin/gotrace
suite=$build/bin/reduce_suite
for b in "$gotrace" "$suite"; do
    [ -x "$b" ] || { echo "reduce-suite: $b is not built (BUILD=$build)" >&2; exit 1; }
done
real=corpus/real
traces=${TRACES:-"$real/go1.22-testprog-annotations-stress.trace.gz
$real/go1.23-testprog-annotations-stress.trace.gz
$real/go1.25-testprog-annotations-stress.trace.gz
$real/testprog-annotations-stress.trace.gz
$real/testprog-annotations-stress.allocfree.trace.gz
$real/testprog-iter-pull.trace.gz"}

oracle=${GTR_ORACLE:-}
if [ -z "$oracle" ]; then
    oracle=$(bash ci/oracle-fetch.sh 2>/dev/null) || oracle=""
fi
make_cmd=make
if [ "$large" -eq 1 ]; then
    make_cmd=make-large
    budget=${REDUCE_BUDGET:-60}
    REDUCE_BUDGET=$budget
    # bench/bigtrace, built with the oracle's Go (when there is one): "bigtrace:MB" in the
    # trace list is its trace of MB megabytes (cached), left out without Go.
    bigdir=${GTR_ORACLE_CACHE:-$HOME/.cache/gotrace-oracle}/reduce-large
    goroot=${GTR_ORACLE_CACHE:-$HOME/.cache/gotrace-oracle}/unpacked/usr/lib/go-1.27
    have_go=0
    if [ -x "$goroot/bin/go" ]; then
        have_go=1
        mkdir -p "$bigdir"
        if [ ! -x "$bigdir/bigtrace" ] || ! cmp -s bench/bigtrace/main.go "$bigdir/main.go"; then
            (cd bench/bigtrace && GOROOT=$goroot GOTOOLCHAIN=local GOFLAGS= GO111MODULE=off \
                GOCACHE=$bigdir/gocache "$goroot/bin/go" build -o "$bigdir/bigtrace" main.go) \
                || { echo "reduce-suite: building bench/bigtrace failed" >&2; exit 1; }
            cp bench/bigtrace/main.go "$bigdir/main.go"
            rm -f "$bigdir"/bigtrace-*mb.trace
        fi
    else
        echo "reduce-suite: no Go toolchain (ci/oracle-fetch.sh): no bigtrace inputs"
    fi
    list=${LARGE_TRACES:-"bigtrace:10
bigtrace:20
$real/go1.22-testprog-gc-stress.trace.gz
$real/go1.23-testprog-gc-stress.trace.gz
$real/go1.25-testprog-stress.trace.gz
$real/testprog-stress.trace.gz
$real/testprog-cgo-callback.stress.trace.gz
$real/gotest-encoding_json.trace.gz"}
    traces=""
    for t in $list; do
        case $t in
            bigtrace:*)
                [ "$have_go" -eq 1 ] || continue
                mb=${t#bigtrace:}
                f=$bigdir/bigtrace-${mb}mb.trace
                [ -s "$f" ] || "$bigdir/bigtrace" $((mb * 1000000)) "$f" \
                    || { echo "reduce-suite: writing $f failed" >&2; exit 1; }
                traces="$traces $f" ;;
            *) traces="$traces $t" ;;
        esac
    done
fi
[ -n "$oracle" ] && echo "reduce-suite: Go's golden runner: $oracle" ||
    echo "reduce-suite: no oracle: fixtures are checked with gotrace check only"

work=${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/gtr-reduce-suite.XXXXXX")}
mkdir -p "$work/in" "$work/out"
# shellcheck disable=SC2086 # the trace list is whitespace-separated paths
if ! "$suite" "$make_cmd" "$work/in" "$per_kind" $traces >"$work/inputs.tsv"; then
    echo "reduce-suite: making the inputs failed" >&2
    exit 1
fi

n=0 bad=0 fixtures=0 wires=0
: >"$work/ratios" ; : >"$work/times" ; : >"$work/sizes"
budget_hits=0
while IFS=$'\t' read -r name judgment; do
    n=$((n + 1))
    in=$work/in/$name.trace
    out=$work/out/$name.test
    t0=$(date +%s%N)
    GTR_ORACLE=$oracle "$gotrace" reduce "$in" --out "$out" --oracle "${oracle:-/nonexistent}" \
        ${REDUCE_BUDGET:+--budget "$REDUCE_BUDGET"} >/dev/null 2>"$work/out/$name.log"
    rc=$?
    t1=$(date +%s%N)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", (b - a) / 1e9}')
    result=$out
    [ -f "$out" ] || result=$work/out/$name.trace
    why=""
    if [ "$rc" -ne 0 ]; then
        why="gotrace reduce exited $rc: $(tail -n 1 "$work/out/$name.log")"
    elif ! line=$("$suite" verify "$in" "$result"); then
        why=$line
    elif [ "$result" = "$out" ] && [ -n "$oracle" ]; then
        go=$("$oracle" check "$out" 2>&1)
        case $go in
            ok*) ;;
            *) why="Go's golden runner rejects it: ${go%%$'\n'*}" ;;
        esac
    fi
    if [ -n "$why" ]; then
        bad=$((bad + 1))
        printf 'FAIL %s (%s): %s\n' "$name" "$judgment" "$why"
        continue
    fi
    read -r _ inb outb what <<<"$line"
    [ "$what" = fixture ] && fixtures=$((fixtures + 1)) || wires=$((wires + 1))
    awk -v a="$outb" -v b="$inb" 'BEGIN {printf "%.6f\n", a / b}' >>"$work/ratios"
    echo "$secs" >>"$work/times"
    fbytes=$(stat -c %s "$result")
    echo "$fbytes" >>"$work/sizes"
    hit=""
    if grep -q "the --budget ended it" "$work/out/$name.log"; then
        hit=", budget hit"
        budget_hits=$((budget_hits + 1))
    fi
    printf 'ok   %-70s %9s -> %5s bytes (%s of %s bytes), %.2f s%s\n' "$name" "$inb" "$outb" \
        "$what" "$fbytes" "$secs" "$hit"
done <"$work/inputs.tsv"

median() { sort -g "$1" | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2); else print "-"}'; }
worst() { sort -g "$1" | tail -n 1; }
echo
echo "reduce-suite: $n inputs: $((n - bad)) reduced and checked ($fixtures fixtures, $wires wire-only), $bad failed"
[ "$n" -gt 0 ] && awk -v n="$n" -v b="$bad" 'BEGIN {printf "reduce-suite: success rate %.1f %%\n", 100 * (n - b) / n}'
if [ -s "$work/ratios" ]; then
    echo "reduce-suite: size ratio (reduced wire bytes / input bytes): median $(median "$work/ratios"), worst $(worst "$work/ratios")"
    echo "reduce-suite: time per reduction: median $(median "$work/times") s, worst $(worst "$work/times") s"
    echo "reduce-suite: result file size: median $(median "$work/sizes") bytes, worst $(worst "$work/sizes") bytes, $(awk '$1 > 2048' "$work/sizes" | wc -l) over 2 KB; $budget_hits ended by the budget"
fi
[ -n "${KEEP:-}" ] || rm -rf "$work"
[ "$bad" -eq 0 ]
