#!/usr/bin/env bash
# v1-truncation.sh: an old-format trace cut at every byte offset must end in gotrace as it ends
# in Go's reader: same exit status, same error message, same event dump, and never a crash.
#
#   ci/v1-truncation.sh [--long] [TRACE...]
#
# Short mode (CI): every offset of the first 160 bytes (header, first batches, the string and
# stack tables that start a trace) and 100 more spread evenly over the rest, for each TRACE
# (default: corpus/old/tracev1-user_task_region_1_21_good.trace.gz); about 5 s per trace.
# --long: every offset 0..size-1 of each TRACE (default: the three user_task_region traces of
# go 1.11, 1.19 and 1.21 and tracev1-stress_start_stop_1_21_good: 11,328 offsets; 20 min with
# an ASan build of gotrace on 2 cores at a load average of 20).
# The oracle is the fixed-order one (tests/oldgo/oracle/build.sh), whose verdict is stock Go's.
# Where Go panics (exit 2, "panic: MSG"), gotrace must fail with exit 1 and MSG.
# A crash is any exit status other than 0 and 1 (sanitizer reports, signals), reported with its
# stderr; run it with a sanitizer build (GOTRACE=build-ci-asan/bin/gotrace) to catch more.
# Prints `ok   TRACE: N offsets` or `FAIL TRACE +OFFSET: <what differs>` (at most 10 per trace,
# then the count of each kind of difference), then the totals; exit 1 on any difference, 2
# when the tools cannot be had.
#
# Environment: GOTRACE (default build-ci/bin/gotrace), GTR_ORACLE_V1 (default: built by
# tests/oldgo/oracle/build.sh), JOBS (parallel offsets, default 2).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
long=0
if [ "${1:-}" = --long ]; then long=1; shift; fi
case "${1:-}" in -h|--help) sed -n '2,21p' "$0"; exit 0 ;; esac
if [ $# -eq 0 ]; then
    if [ "$long" -eq 1 ]; then
        set -- "$root"/corpus/old/tracev1-user_task_region_1_{11,19,21}_good.trace.gz \
            "$root/corpus/old/tracev1-stress_start_stop_1_21_good.trace.gz"
    else
        set -- "$root/corpus/old/tracev1-user_task_region_1_21_good.trace.gz"
    fi
fi
gotrace=${GOTRACE:-$root/build-ci/bin/gotrace}
[ -x "$gotrace" ] || { echo "v1-truncation: no gotrace at $gotrace (set GOTRACE)" >&2; exit 2; }
oracle=${GTR_ORACLE_V1:-}
if [ -z "$oracle" ]; then
    oracle=$(bash "$root/tests/oldgo/oracle/build.sh") || { echo "v1-truncation: no oracle" >&2; exit 2; }
fi
export GOTRACE_BIN=$gotrace ORACLE_BIN=$oracle
unset GTR_V1_PROCS GTR_V1_PREINIT
jobs=${JOBS:-2}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtr-v1trunc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# one_offset FULL K: compares both readers on the first K bytes of FULL; prints nothing when
# they agree, else "+K: <what>".
one_offset() {
    local full=$1 k=$2 d
    d=$(mktemp -d "$TMPDIR_CASE/k.XXXXXX")
    head -c "$k" "$full" >"$d/in"
    "$GOTRACE_BIN" validate --log-events "$d/in" >"$d/our.out" 2>"$d/our.err" </dev/null
    local our=$?
    "$ORACLE_BIN" validate <"$d/in" >"$d/go.out" 2>"$d/go.err"
    local go=$?
    [ "$go" -eq 3 ] && go=1
    # Go panics on some cut traces (Event.String: "expected id N in trace.stack table");
    # gotrace must then fail (exit 1) with the panic's message.
    if [ "$go" -eq 2 ] && head -n1 "$d/go.err" | grep -q '^panic: '; then
        go=1
        head -n1 "$d/go.err" | sed 's/^panic: /error: /; s/ \[recovered\]$//' >"$d/go.err1"
        mv "$d/go.err1" "$d/go.err"
    fi
    if [ "$our" -ne 0 ] && [ "$our" -ne 1 ]; then
        echo "+$k: gotrace crashed (exit $our): $(head -c 400 "$d/our.err" | tr '\n' ' ')"
    elif [ "$our" -ne "$go" ]; then
        echo "+$k: exit $our, go $go: gotrace: $(head -c 200 "$d/our.err" | tr '\n' ' ') / go: $(head -c 200 "$d/go.err" | tr '\n' ' ')"
    elif [ "$(sed '1s/^gotrace: //' "$d/our.err")" != "$(sed '1s/^error: //' "$d/go.err")" ]; then
        echo "+$k: errors differ: gotrace: $(head -c 200 "$d/our.err" | tr '\n' ' ') / go: $(head -c 200 "$d/go.err" | tr '\n' ' ')"
    elif ! cmp -s "$d/our.out" "$d/go.out"; then
        echo "+$k: event dumps differ ($(wc -l <"$d/our.out") vs $(wc -l <"$d/go.out") lines)"
    fi
    rm -rf "$d"
}
export -f one_offset
export TMPDIR_CASE=$tmp

total=0
failed=0
for t in "$@"; do
    [ -f "$t" ] || { echo "FAIL $t: no such file"; failed=$((failed + 1)); continue; }
    full=$tmp/full
    gzip -dc "$t" >"$full" 2>/dev/null || cp "$t" "$full"
    size=$(wc -c <"$full")
    if [ "$long" -eq 1 ] || [ "$size" -le 260 ]; then
        seq 0 $((size - 1)) >"$tmp/offsets"
    else
        { seq 0 159; awk -v s="$size" 'BEGIN { for (i = 1; i <= 100; i++) print 160 + int((s - 160) * i / 101) }'; } \
            | sort -un >"$tmp/offsets"
    fi
    n=$(wc -l <"$tmp/offsets")
    xargs -P "$jobs" -I{} bash -c 'one_offset "$0" {}' "$full" <"$tmp/offsets" >"$tmp/diffs"
    total=$((total + n))
    if [ -s "$tmp/diffs" ]; then
        bad=$(wc -l <"$tmp/diffs")
        failed=$((failed + bad))
        sort -t+ -k2 -n "$tmp/diffs" | head -n 10 | sed "s|^|FAIL $t |"
        if [ "$bad" -gt 10 ]; then
            echo "FAIL $t: $bad offsets differ in all; by kind (numbers as N):"
            sed 's/^+[0-9]*: //; s/[0-9][0-9]*/N/g' "$tmp/diffs" | cut -c1-160 | sort | uniq -c \
                | sort -rn | sed 's/^/    /'
        fi
    else
        echo "ok   $t: $n offsets"
    fi
done
echo "$total offsets, $failed differ"
[ "$failed" -eq 0 ]
