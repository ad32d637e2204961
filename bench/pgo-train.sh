#!/usr/bin/env bash
# pgo-train.sh: the training run of a profile-guided build (ci/pgo-build.sh runs it between
# its two stages). It runs an instrumented build's programs over traces of every format, so
# that their counts describe what users run: the reader and the validator, the event dump.
#
#   bench/pgo-train.sh BUILD_DIR WORK_DIR
#
# BUILD_DIR/bin/gotrace (and BUILD_DIR/bin/bench_reader when it was built) come from a
# -DGTR_PGO=GENERATE build; WORK_DIR takes the decompressed traces (made anew each run).
#
# The traces are never the ones the benchmarks measure, so that the figures of ci/bench.sh
# and ci/bench-v1.sh are those of traces the profile has not seen:
#   - corpus/real/ but the five of ci/bench.sh's table;
#   - four gsim traces (gotrace sim --go 1.22, 1.23, 1.25, 1.26; 300 000 events, 8 Ps), where
#     every event type of the scheduler model occurs;
#   - corpus/old/ (go1.11 to go1.21) but ci/bench-v1.sh's --short trace;
#   - the fixtures of corpus/upstream/ and corpus/tests/, once, through `gotrace check`.
# On each trace: `gotrace validate`, `gotrace validate --log-events` (to /dev/null), and
# `bench_reader -n 1` (gtr_reader_next and gtr_validator_event in the caller's loop). A failing
# command fails the run: the profile would not be the training's.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: bench/pgo-train.sh BUILD_DIR WORK_DIR" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1 work=$2
gotrace=$build/bin/gotrace
bench=$build/bin/bench_reader
[ -x "$gotrace" ] || { echo "pgo-train: no $gotrace" >&2; exit 2; }
rm -rf "$work"
mkdir -p "$work"

# The benchmarks' traces (ci/bench.sh's table, ci/bench-v1.sh --short): left out.
measured=" go1.22-testprog-gc-stress go1.23-testprog-gc-stress go1.25-testprog-stress
           testprog-stress testprog-stress.allocfree tracev1-stress_1_21_good "
traces=()
for f in "$root"/corpus/real/*.trace.gz "$root"/corpus/old/*.trace.gz; do
    name=$(basename "$f" .trace.gz)
    case "$measured" in *" $name "*) continue ;; esac
    gzip -dc "$f" >"$work/$name.trace"
    traces+=("$work/$name.trace")
done
for v in 1.22 1.23 1.25 1.26; do
    "$gotrace" sim --go "$v" --seed 7 --events 300000 --procs 8 -o "$work/gsim-$v.trace"
    traces+=("$work/gsim-$v.trace")
done

# train CMD...: runs CMD, output dropped. Exit status 1 is a trace Go rejects (corpus/old
# holds such traces, and their verdict is part of the training); anything else, a crash
# above all, fails the run.
train() {
    local rc=0
    "$@" >/dev/null 2>&1 || rc=$?
    [ "$rc" -le 1 ] || { echo "pgo-train: $*: exit $rc" >&2; exit 1; }
}

for t in "${traces[@]}"; do
    train "$gotrace" validate "$t"
    train "$gotrace" validate --log-events "$t"
    [ ! -x "$bench" ] || train "$bench" -n 1 "$t"
done
"$gotrace" check "$root"/corpus/upstream "$root"/corpus/tests >/dev/null
echo "pgo-train: ${#traces[@]} traces and the fixtures"
