#!/usr/bin/env bash
# difftest.sh: differential test of gotrace against Go's own trace reader (the oracle).
#
#   bash ci/difftest.sh TRACE...     TRACE: .trace, .trace.gz (wire bytes) or .test (fixture)
#   bash ci/difftest.sh --old        the old-format traces: corpus/old/*.trace.gz and Go's
#                                    FuzzReader crashers with old headers (fuzz/regressions/
#                                    reader/go-*); with more operands, those too
#
# For each trace, runs `gotrace validate --log-events` and the oracle's `validate` (Go 1.27.3's
# internal/trace reader and testtrace validator, built by ci/oracle-fetch.sh) on the same
# bytes, and compares the event dump (each event's String(), one per line), the exit status
# and the final error message (ours "gotrace: MSG", Go's "error: MSG"); a gzip trace is also
# read by gotrace from its plain bytes in a file (mapped, not streamed), which must give the
# same dump, status and message. For a .test, the
# trace section is first turned into wire bytes by Go's text2bytes; when Go rejects the text,
# our `gotrace raw text2bytes` must reject it with the same message. The oracle exits 3 when
# its validator (not the reader) failed; gotrace exits 1 for both, so 3 is compared as 1.
# Where Go panics (exit 2, "panic: MSG"), gotrace must fail with exit 1 and MSG.
# Prints `ok   NAME (N dump lines)` or `FAIL NAME: <what differs>` with the first differing event
# and its context, then `N passed, N failed`. Exit status 1 on any difference, 2 when the
# tools cannot be had.
#
# Old-format traces (header `go 1.N trace`, N < 22: Go converts them to the new event model):
# stock Go's dump of these varies from run to run with its map order, so they are compared
# with the oracle whose order is fixed (tests/oldgo/oracle/build.sh; GTR_V1_PROCS and
# GTR_V1_PREINIT choose the orders, default file/insert), and stock Go must then give the same
# exit status, error and event count (in one of up to 8 runs: on some inputs its verdict varies
# too).
#
# Environment: GOTRACE (default: build-ci/bin/gotrace, built when missing), GTR_ORACLE
# (default: built or found by ci/oracle-fetch.sh), GTR_ORACLE_V1 (default: built by
# tests/oldgo/oracle/build.sh; when it cannot be, old traces are compared with the stock
# oracle, and say so), BUILD (build dir, default build-ci), JOBS.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-2}

if [ $# -eq 0 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    sed -n '2,31p' "$0"
    [ $# -eq 0 ] && exit 2 || exit 0
fi

# header_minor FILE: N of a `go 1.N trace` header (gzip or not), or nothing.
header_minor() {
    local head
    if [ "$(head -c 2 "$1" | od -An -tx1 | tr -d ' ')" = 1f8b ]; then
        head=$(gzip -dc "$1" 2>/dev/null | head -c 16 | tr -d '\0')
    else
        head=$(head -c 16 "$1" | tr -d '\0')
    fi
    case "$head" in
    "go 1."[0-9]" trace"|"go 1."[0-9][0-9]" trace") head=${head#go 1.}; echo "${head% trace}" ;;
    esac
}
is_old() { local n; n=$(header_minor "$1"); [ -n "$n" ] && [ "$n" -lt 22 ]; }

if [ "$1" = --old ]; then
    shift
    set -- "$root"/corpus/old/*.trace.gz "$@"
    for f in "$root"/fuzz/regressions/reader/go-*; do
        is_old "$f" && set -- "$@" "$f"
    done
fi

gotrace=${GOTRACE:-}
if [ -z "$gotrace" ]; then
    build=${BUILD:-$root/build-ci}
    gotrace=$build/bin/gotrace
    if [ ! -x "$gotrace" ]; then
        echo "difftest: building gotrace in $build" >&2
        { cmake -S "$root" -B "$build" >/dev/null && cmake --build "$build" -j"$jobs" --target gotrace >/dev/null; } \
            || { echo "difftest: cannot build gotrace" >&2; exit 2; }
    fi
fi
oracle=${GTR_ORACLE:-}
if [ -z "$oracle" ]; then
    oracle=$(bash "$root/ci/oracle-fetch.sh") || { echo "difftest: cannot build the oracle (ci/oracle-fetch.sh failed)" >&2; exit 2; }
fi
[ -x "$oracle" ] || { echo "difftest: oracle $oracle is not executable" >&2; exit 2; }
oracle_v1=${GTR_ORACLE_V1:-}
oracle_v1_why=""
oracle_v1_tried=0
# v1_oracle: sets oracle_v1 (built on first use), or oracle_v1_why.
v1_oracle() {
    [ "$oracle_v1_tried" -eq 1 ] && return 0
    oracle_v1_tried=1
    if [ -z "$oracle_v1" ]; then
        oracle_v1=$(GTR_ORACLE=$oracle bash "$root/tests/oldgo/oracle/build.sh" 2>"$tmp/v1.err") \
            || { oracle_v1=""; oracle_v1_why="fixed-order oracle unavailable: $(tail -n1 "$tmp/v1.err")"; }
    fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtr-difftest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# show_first_diff A B: the first line where files A (ours) and B (Go's) differ, with context.
show_first_diff() {
    local out line
    out=$(cmp "$1" "$2" 2>&1 || true)
    case "$out" in
        *"line "*) line=${out##*line }; line=${line%% *} ;;
        *"EOF on $1"*) line=$(( $(wc -l <"$1") + 1 )) ;;
        *"EOF on $2"*) line=$(( $(wc -l <"$2") + 1 )) ;;
        *) line=1 ;;
    esac
    local from=$(( line > 3 ? line - 3 : 1 ))
    echo "    first difference at dump line $line:"
    echo "    --- gotrace"
    sed -n "${from},${line}p" "$1" | sed 's/^/    | /'
    [ "$line" -gt "$(wc -l <"$1")" ] && echo "    | <end of dump>"
    echo "    --- go"
    sed -n "${from},${line}p" "$2" | sed 's/^/    | /'
    [ "$line" -gt "$(wc -l <"$2")" ] && echo "    | <end of dump>"
}

# error_of FILE PREFIX: the message of a tool's stderr, PREFIX stripped from its first line.
error_of() {
    sed "1s/^$2//" "$1"
}

fail_case() { # fail_case NAME WHY
    echo "FAIL $1: $2"
    failed=$((failed + 1))
}

for t in "$@"; do
    input=$t
    if [ ! -f "$t" ]; then
        fail_case "$t" "no such file"
        continue
    fi
    case "$t" in
    *.test)
        # The trace section: everything after the "-- trace --" marker (testgen fixtures
        # end with it; txtar markers trim spaces around the name).
        awk 'f { print } /^-- +trace +--$/ { f = 1 }' "$t" >"$tmp/text"
        input=$tmp/bytes
        if ! "$oracle" text2bytes <"$tmp/text" >"$input" 2>"$tmp/go.err"; then
            if "$gotrace" raw text2bytes "$tmp/text" >"$tmp/our.bytes" 2>"$tmp/our.err"; then
                fail_case "$t" "Go's text2bytes fails ($(error_of "$tmp/go.err" 'error: ')), ours succeeds"
            elif [ "$(error_of "$tmp/our.err" 'gotrace: ')" != "$(error_of "$tmp/go.err" 'error: ')" ]; then
                fail_case "$t" "text2bytes errors differ: gotrace: $(error_of "$tmp/our.err" 'gotrace: ') / go: $(error_of "$tmp/go.err" 'error: ')"
            else
                echo "ok   $t (text rejected by both)"
                passed=$((passed + 1))
            fi
            continue
        fi
        ;;
    esac

    "$gotrace" validate --log-events "$input" >"$tmp/our.out" 2>"$tmp/our.err" </dev/null
    our_rc=$?
    note=""
    # A gzip file is streamed; its plain bytes in a file are read from a mapping, in place:
    # the two must agree to the byte (then only one of them is compared with Go). A gzip
    # stream that gzip itself finds broken is left out.
    if [ "$(head -c 2 "$input" | od -An -tx1 | tr -d ' ')" = 1f8b ] &&
            gzip -dc "$input" >"$tmp/plain" 2>/dev/null; then
        "$gotrace" validate --log-events "$tmp/plain" >"$tmp/plain.out" 2>"$tmp/plain.err" </dev/null
        plain_rc=$?
        if [ "$plain_rc" -ne "$our_rc" ] || ! cmp -s "$tmp/plain.out" "$tmp/our.out" ||
                ! cmp -s "$tmp/plain.err" "$tmp/our.err"; then
            fail_case "$t" "the plain (mapped) file reads otherwise than the gzip stream (exit $plain_rc / $our_rc)"
            continue
        fi
        note=", plain and gzip alike"
    fi
    if is_old "$input"; then
        v1_oracle
        if [ -n "$oracle_v1" ]; then
            "$oracle_v1" validate <"$input" >"$tmp/go.out" 2>"$tmp/go.err"
            go_rc=$?
            # Stock Go: the same verdict and event count, in its own (varying) order. On some
            # inputs its verdict varies too: then one of up to 8 runs must give this one.
            want="$go_rc $(grep -c '^M=' "$tmp/go.out") $(head -n1 "$tmp/go.err")"
            note=", Go's map order fixed"
            for run in 1 2 3 4 5 6 7 8; do
                "$oracle" validate <"$input" >"$tmp/stock.out" 2>"$tmp/stock.err"
                stock_rc=$?
                got="$stock_rc $(grep -c '^M=' "$tmp/stock.out") $(head -n1 "$tmp/stock.err")"
                [ "$got" = "$want" ] && break
                [ "$run" -eq 1 ] && first=$got
                note=", Go's map order fixed; stock Go's verdict varies"
            done
            if [ "$got" != "$want" ]; then
                fail_case "$t" "stock Go never agreed with the fixed-order oracle in 8 runs (exit, events, error: $first / $want)"
                continue
            fi
        else
            "$oracle" validate <"$input" >"$tmp/go.out" 2>"$tmp/go.err"
            go_rc=$?
            note=", stock Go: its order varies ($oracle_v1_why)"
        fi
    else
        "$oracle" validate <"$input" >"$tmp/go.out" 2>"$tmp/go.err"
        go_rc=$?
    fi
    go_cmp_rc=$go_rc   # the oracle's validator failure (3) is gotrace's 1
    [ "$go_rc" -eq 3 ] && go_cmp_rc=1
    # Where Go panics (exit 2, "panic: MSG": Event.String on some cut old traces), gotrace
    # must fail with exit 1 and MSG.
    if [ "$go_rc" -eq 2 ] && head -n1 "$tmp/go.err" | grep -q '^panic: '; then
        go_cmp_rc=1
        head -n1 "$tmp/go.err" | sed 's/^panic: /error: /; s/ \[recovered\]$//' >"$tmp/go.err1"
        mv "$tmp/go.err1" "$tmp/go.err"
        note="$note, Go panics"
    fi
    events=$(wc -l <"$tmp/go.out")
    why=""
    if ! cmp -s "$tmp/our.out" "$tmp/go.out"; then
        why="event dumps differ (gotrace $(wc -l <"$tmp/our.out") lines, go $events)"
    elif [ "$our_rc" -ne "$go_cmp_rc" ]; then
        why="exit status $our_rc, go $go_rc"
    elif [ "$(error_of "$tmp/our.err" 'gotrace: ')" != "$(error_of "$tmp/go.err" 'error: ')" ]; then
        why="final errors differ"
    fi
    if [ -n "$why" ]; then
        fail_case "$t" "$why"
        if ! cmp -s "$tmp/our.out" "$tmp/go.out"; then
            show_first_diff "$tmp/our.out" "$tmp/go.out"
        fi
        echo "    gotrace (exit $our_rc): $(head -c 2000 "$tmp/our.err" | error_of /dev/stdin 'gotrace: ')"
        echo "    go      (exit $go_rc): $(head -c 2000 "$tmp/go.err" | error_of /dev/stdin 'error: ')"
        continue
    fi
    if [ "$go_rc" -eq 0 ]; then
        echo "ok   $t ($events dump lines$note)"
    else
        echo "ok   $t ($events dump lines, same error$note)"
    fi
    passed=$((passed + 1))
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
