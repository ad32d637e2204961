#!/bin/bash
# coverage-ab.sh: what the structure-aware mutator adds, in coverage of libtrace/.
#
#   ci/coverage-ab.sh [SECONDS] [TARGET]      (defaults: 600 s, reader)
#
# Fuzzes TARGET (libFuzzer, ASan+UBSan, ci/fuzz-libfuzzer.sh) and its structure-aware twin
# TARGET_mutator side by side for SECONDS each, both from the same seeds, at the same time (so
# both see the same machine load), each in a work directory of its own. Then replays through
# the coverage build (ci/coverage.sh, llvm-cov) three corpora and prints the TOTAL line of
# each: the seeds alone, seeds + what plain libFuzzer found, seeds + what the mutator twin
# found. Also prints each run's executions and exec/s, as the two differ in speed.
# Output: build-cov/ab/{seeds,plain,mutator}.txt (full llvm-cov reports) and a summary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-600}
t=${2:-reader}
build=${BUILD:-$root/build-fuzz-clang}
ab=$root/build-cov/ab
rm -rf "$ab"; mkdir -p "$ab"

"$root/ci/fuzz-libfuzzer.sh" build >/dev/null
pids=()
for mode in plain mutator; do
  name=$t; [ $mode = mutator ] && name=${t}_mutator
  FUZZ_WORK=$ab/work-$mode FUZZ_ARTIFACTS=$ab/artifacts-$mode \
    "$root/ci/fuzz-libfuzzer.sh" run "$name" "$secs" -seed=1 >"$ab/run-$mode.txt" 2>&1 &
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
[ $rc -eq 0 ] || echo "coverage-ab: a fuzzing run reported a failure (see $ab/run-*.txt)" >&2

# One target's corpus per replay, so only that target's replay binary is involved.
FUZZ_TARGETS=$t "$root/ci/coverage.sh" >"$ab/seeds.txt"
FUZZ_TARGETS=$t "$root/ci/coverage.sh" "$ab/work-plain" >"$ab/plain.txt"
FUZZ_TARGETS=$t "$root/ci/coverage.sh" "$ab/work-mutator" >"$ab/mutator.txt"

echo "coverage-ab: $t, ${secs}s each, libtrace/ (llvm-cov TOTAL:" \
  "regions cover%, functions, lines cover%, branches cover%)"
for c in seeds plain mutator; do
  # TOTAL columns: regions, missed, cover, functions, missed, cover, lines, missed, cover,
  # branches, missed, cover.
  awk -v c=$c '/^TOTAL/ {printf "  %-8s regions %s  functions %s  lines %s  branches %s\n", c, $4, $7, $10, $13}' "$ab/$c.txt"
done
for mode in plain mutator; do
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$ab/run-$mode.txt")
  e=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$ab/run-$mode.txt")
  u=$(sed -n 's/^stat::new_units_added: *//p' "$ab/run-$mode.txt")
  echo "  $mode: ${n:-?} executions, ${e:-?} exec/s, ${u:-?} new units"
done
exit $rc
