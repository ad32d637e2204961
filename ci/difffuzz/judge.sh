#!/usr/bin/env bash
# judge.sh OUTDIR FILE...: the differential verdict of gotrace against Go on each wire trace
# FILE, one line per file on stdout: "<class> <file>", class one of
#   identical      same event dump, same success or failure, same message byte for byte;
#   nondet         they differ, and so do Go's own runs of the same input (Go builds the
#                  message from a map iteration: "failed to advance" dumps, ...): Go is run
#                  up to GO_RUNS (default 8; GO_RUNS_ORDER, 64, when both failed) times
#                  before a difference counts as ours; the
#                  dumps are still equal, and the messages hold the same lines in some
#                  order, up to their numbers (the entry a map iteration met first), or
#                  another run of Go printed ours (its dump, its message up to the order
#                  and numbers of the lines);
#   diverging      they differ, and Go gave the same output on every run, or ours does not
#                  hold the lines of Go's message;
#   gopanic        Go panicked (Event.String(), Stack.Frames(), ...);
#   crash          gotrace died: a signal, or a sanitizer report (exit 86), or a leak;
#   hang           gotrace did not finish within TIMEOUT seconds (default 20).
# For every class but identical and nondet, the input and both outputs are kept in
# OUTDIR/<class>/<name>.{trace,gotrace.out,gotrace.err,go.out,go.err,rc}.
# Environment: GOTRACE, GTR_ORACLE (both required), TIMEOUT, GO_RUNS, GO_RUNS_ORDER (runs of
# Go when both failed and differ: in the order of the lines, other words, other dumps; 64).
set -uo pipefail
out=$1
shift
timeout=${TIMEOUT:-20}
go_runs=${GO_RUNS:-8}
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86:detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=86:print_stacktrace=1}
w=$(mktemp -d "${TMPDIR:-/tmp}/gtr-judge.XXXXXX")
trap 'rm -rf "$w"' EXIT

keep() {   # keep CLASS FILE
    local d=$out/$1 name
    name=$(basename "$2")
    name=${name%.trace}
    mkdir -p "$d"
    cp "$2" "$d/$name.trace"
    cp "$w/g.out" "$d/$name.gotrace.out"
    cp "$w/g.err" "$d/$name.gotrace.err"
    cp "$w/o.out" "$d/$name.go.out"
    cp "$w/o.err" "$d/$name.go.err"
    printf 'gotrace %s\ngo %s\n' "$grc" "$orc" >"$d/$name.rc"
}

# oracle_for FILE: the oracle to judge FILE with: for an old-format trace (go 1.5-1.21 header)
# the one whose map order is fixed (GTR_ORACLE_V1, tests/oldgo/oracle/), whose dump is one of
# stock Go's and the same every run; the stock oracle otherwise, or when there is no other.
oracle_for() {
    case "$(head -c 16 "$1" | tr -d '\0')" in
    "go 1."[5-9]" trace"|"go 1.1"[0-9]" trace"|"go 1.2"[01]" trace") echo "${GTR_ORACLE_V1:-$GTR_ORACLE}" ;;
    *) echo "$GTR_ORACLE" ;;
    esac
}

for f in "$@"; do
    oracle=$(oracle_for "$f")
    timeout -k 2 "$timeout" "$GOTRACE" validate --log-events "$f" >"$w/g.out" 2>"$w/g.err"
    grc=$?
    timeout -k 2 "$timeout" "$oracle" validate <"$f" >"$w/o.out" 2>"$w/o.err"
    orc=$?
    if [ "$grc" -eq 124 ] || [ "$grc" -eq 137 ]; then
        keep hang "$f"; echo "hang $f"; continue
    fi
    if [ "$grc" -ge 128 ] || [ "$grc" -eq 86 ] || { [ "$grc" -ne 0 ] && [ "$grc" -ne 1 ]; }; then
        keep crash "$f"; echo "crash $f"; continue
    fi
    if [ "$orc" -eq 2 ] && grep -q '^panic: ' "$w/o.err"; then
        keep gopanic "$f"; echo "gopanic $f"; continue
    fi
    # The messages: ours after "gotrace: ", Go's after "error: " (the whole rest of stderr).
    # shape=1: same dump, both succeed or both fail with a message of the expected form.
    same=0
    shape=0
    tail -c +10 "$w/g.err" >"$w/g.msg"   # "gotrace: " is 9 bytes
    tail -c +8 "$w/o.err" >"$w/o.msg"    # "error: " is 7 bytes
    if cmp -s "$w/g.out" "$w/o.out"; then
        if [ "$grc" -eq 0 ] && [ "$orc" -eq 0 ]; then
            [ -s "$w/g.err" ] || [ -s "$w/o.err" ] || same=1
        elif [ "$grc" -ne 0 ] && [ "$orc" -ne 0 ] &&
             head -c 9 "$w/g.err" | cmp -s - <(printf 'gotrace: ') &&
             head -c 7 "$w/o.err" | cmp -s - <(printf 'error: '); then
            shape=1
            cmp -s "$w/g.msg" "$w/o.msg" && same=1
        fi
    fi
    if [ "$same" -eq 1 ]; then
        echo "identical $f"; continue
    fi
    # Ours holds Go's lines in another order: a map iteration. Go's iteration of a small map
    # (8 entries or fewer) starts at a random one of 8 slots, so it repeats one order 7 times in
    # 8 on average: give it more runs to show it varies.
    runs=$go_runs
    if [ "$shape" -eq 1 ] && cmp -s <(LC_ALL=C sort "$w/g.msg") <(LC_ALL=C sort "$w/o.msg"); then
        runs=${GO_RUNS_ORDER:-64}
    fi
    # Both failed, with other dumps or other words: Go may print ours on another run (below),
    # once in three runs on one input seen (fuzz/regressions/reader/diff-go-nondet-event-order).
    if [ "$grc" -ne 0 ] && [ "$orc" -ne 0 ]; then
        runs=${GO_RUNS_ORDER:-64}
    fi
    # Ours holds Go's lines up to their numbers: then any change of Go's shows its map order.
    same_lines=0
    if [ "$shape" -eq 1 ] &&
       cmp -s <(sed 's/[0-9][0-9]*/N/g' "$w/g.msg" | LC_ALL=C sort) \
              <(sed 's/[0-9][0-9]*/N/g' "$w/o.msg" | LC_ALL=C sort); then
        same_lines=1
    fi
    nondet=0
    ours=0   # another run of Go printed exactly ours (godiff/godiff_compare.c's rule too)
    for ((i = 1; i < runs; i++)); do
        timeout -k 2 "$timeout" "$oracle" validate <"$f" >"$w/o2.out" 2>"$w/o2.err"
        orc2=$?
        if [ $orc2 -ne "$orc" ] || ! cmp -s "$w/o.out" "$w/o2.out" || ! cmp -s "$w/o.err" "$w/o2.err"; then
            nondet=1
        fi
        # Go's message may change in words, not only numbers, with the map entry it meets
        # first ("found invalid func string ID 7 for stack 65536", then "found invalid file
        # string ID 3 for stack 1"), and even its events (the M a ProcStatus takes from a
        # map walk, where a broken trace has two Ms on one P): ours must then be one of Go's
        # outputs, up to the order of its message's lines (godiff/godiff_compare.c's
        # fdiff_rerun_explains).
        if [ "$nondet" -eq 1 ] && [ "$grc" -ne 0 ] && [ $orc2 -ne 0 ] && [ $orc2 -ne 2 ] &&
           cmp -s "$w/g.out" "$w/o2.out" && head -c 7 "$w/o2.err" | cmp -s - <(printf 'error: ') &&
           cmp -s <(sed 's/[0-9][0-9]*/N/g' "$w/g.msg" | LC_ALL=C sort) \
                  <(tail -c +8 "$w/o2.err" | sed 's/[0-9][0-9]*/N/g' | LC_ALL=C sort); then
            ours=1
            break
        fi
        if [ "$nondet" -eq 1 ] && [ "$same_lines" -eq 1 ]; then
            break
        fi
    done
    # Go's message varies between runs (map order: which entry comes first, in which order
    # the entries come): ours must still hold the same lines, up to their numbers, or be one
    # of Go's outputs.
    if [ "$ours" -eq 1 ] || { [ "$nondet" -eq 1 ] && [ "$same_lines" -eq 1 ]; }; then
        echo "nondet $f"
    else
        keep diverging "$f"
        echo "diverging $f"
    fi
done
