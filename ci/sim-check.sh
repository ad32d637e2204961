#!/usr/bin/env bash
# sim-check.sh: legality of `gotrace sim` traces against Go itself.
#
#   bash ci/sim-check.sh [N]      N seeds per version (default 50: the CI run; the long run
#                                 is N >= 1000)
#
# For each version (go1.22, go1.23, go1.25, go1.26) and each seed 1..N, writes the model's
# trace (`gotrace sim --go V --seed S` with events, generations and procs varied by seed),
# then:
#   - Go:       the oracle's `validate` (Go 1.27.3's reader and testtrace validator) must read
#               it to EOF and accept every event (exit 0; 1 is a reader error, 3 a validator
#               error);
#   - gotrace:  `gotrace validate --log-events` must accept it too, and print the same event
#               dump as the oracle, byte for byte (a divergence otherwise);
#   - record:   `gotrace sim ... --check` must read it back equal to the model's record.
# Prints one line per failing seed, then per version the share Go accepted (which must be
# 100%), gotrace's, the record's and the divergences. Exit status 0 when everything held,
# 1 otherwise, 2 when the tools cannot be had.
#
# Environment: GOTRACE (default: build-ci/bin/gotrace, built when missing), GTR_ORACLE
# (default: ~/.cache/gotrace-oracle/gtroracle, or built by ci/oracle-fetch.sh), BUILD
# (build dir, default build-ci), JOBS (parallel seeds, default 2), VERSIONS (default
# "1.22 1.23 1.25 1.26"), KEEP (a directory: failing traces are copied there).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-2}
n=${1:-50}
versions=${VERSIONS:-"1.22 1.23 1.25 1.26"}

case "$n" in
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    ''|*[!0-9]*) echo "sim-check: N must be a number of seeds, got '$n'" >&2; exit 2 ;;
esac

gotrace=${GOTRACE:-}
if [ -z "$gotrace" ]; then
    build=${BUILD:-$root/build-ci}
    gotrace=$build/bin/gotrace
    if [ ! -x "$gotrace" ]; then
        echo "sim-check: building gotrace in $build" >&2
        { cmake -S "$root" -B "$build" >/dev/null && cmake --build "$build" -j"$jobs" --target gotrace >/dev/null; } \
            || { echo "sim-check: cannot build gotrace" >&2; exit 2; }
    fi
fi
oracle=${GTR_ORACLE:-}
if [ -z "$oracle" ] && [ -x "$HOME/.cache/gotrace-oracle/gtroracle" ]; then
    oracle=$HOME/.cache/gotrace-oracle/gtroracle
fi
if [ -z "$oracle" ]; then
    oracle=$(bash "$root/ci/oracle-fetch.sh") || { echo "sim-check: cannot build the oracle (ci/oracle-fetch.sh failed)" >&2; exit 2; }
fi
[ -x "$oracle" ] || { echo "sim-check: oracle $oracle is not executable" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtr-sim-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# one V S: checks seed S of version V; prints "V S GO GOTRACE RECORD DIVERGENT WHY".
one() {
    local v=$1 s=$2 d=$tmp/$1-$2
    # Vary the shape with the seed: 100..4099 events, 1..6 generations, 1..16 procs, and now
    # and then a big trace (20000 events, 64 procs).
    local events=$(( 100 + (s * 7919) % 4000 )) gens=$(( 1 + s % 6 )) procs=$(( 1 + (s * 31) % 16 ))
    if [ $(( s % 50 )) -eq 0 ]; then events=20000; procs=64; fi
    local flags="--go $v --seed $s --events $events --gens $gens --procs $procs"
    local go=ok ours=ok rec=ok div=no why=""
    mkdir -p "$d"
    if ! "$gotrace" sim $flags -o "$d/t.trace" 2>"$d/sim.err"; then
        echo "$v $s fail fail fail no sim: $(head -c 300 "$d/sim.err")"
        rm -rf "$d"; return
    fi
    "$oracle" validate <"$d/t.trace" >"$d/go.out" 2>"$d/go.err"
    local grc=$?
    [ $grc -eq 0 ] || { go=fail; why="Go exit $grc: $(head -c 300 "$d/go.err" | tr '\n' ' ')"; }
    "$gotrace" validate --log-events "$d/t.trace" >"$d/c.out" 2>"$d/c.err"
    local crc=$?
    [ $crc -eq 0 ] || { ours=fail; why="$why gotrace exit $crc: $(head -c 300 "$d/c.err" | tr '\n' ' ')"; }
    if ! cmp -s "$d/go.out" "$d/c.out"; then
        div=yes
        why="$why dumps differ: $(cmp "$d/c.out" "$d/go.out" 2>&1 | head -1)"
    fi
    if ! "$gotrace" sim $flags --check >/dev/null 2>"$d/chk.err"; then
        rec=fail; why="$why record: $(head -c 300 "$d/chk.err" | tr '\n' ' ')"
    fi
    if [ -n "$why" ] && [ -n "${KEEP:-}" ]; then
        mkdir -p "$KEEP" && cp "$d/t.trace" "$KEEP/sim-go$v-seed$s.trace"
    fi
    echo "$v $s $go $ours $rec $div $flags |$why"
    rm -rf "$d"
}
export -f one
export gotrace oracle tmp KEEP

start=$(date +%s)
# Seeds outside, versions inside: a run cut short has covered every version alike.
for s in $(seq 1 "$n"); do
    for v in $versions; do echo "$v $s"; done
done | xargs -P "$jobs" -n 2 bash -c 'one "$0" "$1"' >"$tmp/results"

status=0
awk '$3 != "ok" || $4 != "ok" || $5 != "ok" || $6 != "no" { print "FAIL go" $0 }' "$tmp/results"
for v in $versions; do
    awk -v v="$v" '$1 == v {
        t++; g += $3 == "ok"; c += $4 == "ok"; r += $5 == "ok"; d += $6 == "yes"
    } END {
        if (t == 0) t = 1
        printf "go%s: %d seeds: accepted by Go %d (%.1f%%), by gotrace %d, record equal %d, divergences %d\n",
            v, t, g, 100 * g / t, c, r, d
        exit !(g == t && c == t && r == t && d == 0)
    }' "$tmp/results" || status=1
done
echo "sim-check: $(wc -l <"$tmp/results") traces in $(( $(date +%s) - start ))s"
exit $status
