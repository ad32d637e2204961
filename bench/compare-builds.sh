#!/usr/bin/env bash
# compare-builds.sh: two builds of gotrace measured against each other, in turns, on one CPU:
# what a change bought, as bench/README.md's "What each change bought" gives it.
#
#   bench/compare-builds.sh [--rounds N] [--cpu N] BUILD_A BUILD_B [TRACE...]
#
# BUILD_A and BUILD_B are build trees (or any directories) with bin/gotrace and
# bin/bench_reader. For each TRACE (default: ci/bench.sh's six, from build-bench/traces/, which
# ci/bench.sh writes), N rounds (default 7), each round measuring A then B:
#   parse, p+v      bench_reader -n 1 TRACE: ns/event of the reader alone and with the validator
#   validate FILE   `gotrace validate TRACE`, CPU ms per run (bench/cputime: repeated until
#                   3 MB are read, as ci/bench.sh does)
#   --log-events    `gotrace validate --log-events TRACE >/dev/null`, the same
# and prints each figure's median for A and B and B's change against A. Every process runs on
# CPU N (default 0; taskset). The machine is shared: the load is printed before and after, and
# the two builds of a round meet the same load. TRACE must be uncompressed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
rounds=7 cpu=0
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    -*) echo "compare-builds: unknown flag $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -ge 2 ] || { echo "usage: bench/compare-builds.sh [--rounds N] [--cpu N] BUILD_A BUILD_B [TRACE...]" >&2; exit 2; }
case "$rounds" in ''|*[!0-9]*|0) echo "compare-builds: --rounds wants a positive number" >&2; exit 2 ;; esac
a=$1 b=$2
shift 2
for d in "$a" "$b"; do
    for p in gotrace bench_reader; do
        [ -x "$d/bin/$p" ] || { echo "compare-builds: no $d/bin/$p" >&2; exit 2; }
    done
done
cputime=$root/build-bench/bin/cputime
[ -x "$cputime" ] || cputime=$a/bin/cputime
[ -x "$cputime" ] || { echo "compare-builds: no bench/cputime (build-bench/bin/cputime)" >&2; exit 2; }
traces=("$@")
if [ ${#traces[@]} -eq 0 ]; then
    for t in go1.22-testprog-gc-stress go1.23-testprog-gc-stress go1.25-testprog-stress \
             testprog-stress testprog-stress.allocfree bigtrace-10mb; do
        traces+=("$root/build-bench/traces/$t.trace")
    done
fi
for t in "${traces[@]}"; do
    [ -f "$t" ] || { echo "compare-builds: no trace $t (ci/bench.sh writes them)" >&2; exit 2; }
done
pin=(taskset -c "$cpu")
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT

echo "load: $(uptime)"
echo "A: $a"
echo "B: $b"
for t in "${traces[@]}"; do
    name=$(basename "$t" .trace)
    bytes=$(stat -c %s "$t")
    reps=$(( (3000000 + bytes - 1) / bytes ))
    [ "$reps" -le 200 ] || reps=200
    for ((i = 0; i < rounds; i++)); do
        for side in A B; do
            d=$a
            [ "$side" = A ] || d=$b
            out=$("${pin[@]}" "$d/bin/bench_reader" -n 1 "$t")
            echo "$name parse $side $(echo "$out" | awk '$1 == "C" && $2 == "parse" { print $(NF-1) }')" >>"$raw"
            echo "$name p+v $side $(echo "$out" | awk '$1 == "C" && $2 == "parse+validate" { print $(NF-1) }')" >>"$raw"
            s=$("${pin[@]}" "$cputime" "$reps" /dev/null "$d/bin/gotrace" validate "$t" | cut -d' ' -f1)
            echo "$name file $side $s" >>"$raw"
            s=$("${pin[@]}" "$cputime" "$reps" /dev/null "$d/bin/gotrace" validate --log-events "$t" |
                cut -d' ' -f1)
            echo "$name log $side $s" >>"$raw"
        done
    done
done
echo "load: $(uptime)"
echo
echo "| trace | parse ns/event | p+v ns/event | validate FILE ms | --log-events ms |"
echo "|---|---|---|---|---|"
awk '
    function median(k,   n, i, j, t, v) {
        n = split(vals[k], v, " ")
        for (i = 2; i <= n; i++)   # insertion sort: n is small
            for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
        return v[int((n + 1) / 2)]
    }
    { k = $1 SUBSEP $2 SUBSEP $3; vals[k] = vals[k] " " $4; if (!($1 in seen)) { seen[$1] = 1; order[++nt] = $1 } }
    END {
        split("parse p+v file log", modes, " ")
        for (i = 1; i <= nt; i++) {
            line = "| " order[i]
            for (m = 1; m <= 4; m++) {
                x = median(order[i] SUBSEP modes[m] SUBSEP "A")
                y = median(order[i] SUBSEP modes[m] SUBSEP "B")
                f = m <= 2 ? 1 : 1000
                line = line sprintf(" | %.*f → %.*f (%+.1f %%)", m <= 2 ? 1 : 2, x * f,
                                    m <= 2 ? 1 : 2, y * f, x > 0 ? (y / x - 1) * 100 : 0)
            }
            print line " |"
        }
    }' "$raw"
