#!/bin/bash
# coverage-model.sh: what the scheduler model (sim/) adds, in coverage of libtrace/ after equal
# fuzzing time (issue 13 part 5).
#
#   ci/coverage-model.sh [SECONDS] [ARM...]     (default 600 s per arm; arms nomodel model)
#
# Each arm is SECONDS of libFuzzer (ci/fuzz-libfuzzer.sh, ASan+UBSan) from the committed seeds,
# ONE fuzzing process at a time (the machine is shared, so no arm gets a core the other lacks),
# split evenly between its targets:
#   nomodel  reader, then reader_mutator (structure-aware), the mutator's splice operator off
#            (GTR_FS_NO_SPLICE=1): no model anywhere;
#   model    reader, reader_mutator (splice off), then sim: the model's own target;
#   splice   reader, then reader_mutator with its splice operator (the model inside the
#            mutator), no sim target.
# Each arm's corpora (the seeds plus what it found) are then replayed through the coverage
# build (ci/coverage.sh, llvm-cov): through fuzz_reader_replay, and for the model arm
# fuzz_sim_replay too (the sim corpus reaches libtrace through gsim_check's reader and
# validator). The seeds alone are replayed too, for each target set.
# Prints, for each corpus, libtrace/ lines and branches (TOTAL) and those of order.c and
# validate.c, plus each run's executions and the load (uptime) before and after it.
# Output: build-cov/model/ (work corpora, fuzzing logs, full llvm-cov reports, summary.txt).
# Environment: BUILD (libFuzzer tree, default build-fuzz-clang), COV_BUILD (build-cov).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: $0 [SECONDS] [nomodel|model|splice...]" >&2; exit 2; }
secs=600
if [ $# -gt 0 ]; then
  case "$1" in ''|*[!0-9]*) ;; *) secs=$1; shift;; esac
fi
arms=("$@")
[ ${#arms[@]} -gt 0 ] || arms=(nomodel model)
for a in "${arms[@]}"; do case "$a" in nomodel|model|splice) ;; *) usage;; esac; done
out=$root/build-cov/model
rm -rf "$out"; mkdir -p "$out"
summary=$out/summary.txt
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }

"$root/ci/fuzz-libfuzzer.sh" build >/dev/null

runarm() {   # runarm ARM TARGET...: each target for secs/N seconds, one after the other
  local arm=$1; shift
  local each=$((secs / $#)) splice=(env GTR_FS_NO_SPLICE=1)
  [ "$arm" = splice ] && splice=(env -u GTR_FS_NO_SPLICE)
  for t in "$@"; do
    say "$arm: $t ${each}s; load before: $(uptime | sed 's/.*load average: //')"
    FUZZ_WORK=$out/work-$arm FUZZ_ARTIFACTS=$out/artifacts-$arm "${splice[@]}" \
      "$root/ci/fuzz-libfuzzer.sh" run "$t" "$each" -seed=1 >"$out/run-$arm-$t.txt" 2>&1 ||
      say "$arm: $t reported a failure (see $out/run-$arm-$t.txt)"
    local n e u
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/run-$arm-$t.txt")
    e=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/run-$arm-$t.txt")
    u=$(sed -n 's/^stat::new_units_added: *//p' "$out/run-$arm-$t.txt")
    say "$arm: $t ${n:-?} executions, ${e:-?} exec/s, ${u:-?} new units;" \
      "load after: $(uptime | sed 's/.*load average: //')"
  done
}
reports=()
for a in "${arms[@]}"; do
  case "$a" in
    model) runarm model reader reader_mutator sim ;;
    *) runarm "$a" reader reader_mutator ;;
  esac
done

# Seeds only (no DIR), then each arm's work corpora.
FUZZ_TARGETS=reader "$root/ci/coverage.sh" >"$out/seeds-reader.txt"
reports+=(seeds-reader)
case " ${arms[*]} " in *" model "*)
  FUZZ_TARGETS="reader sim" "$root/ci/coverage.sh" >"$out/seeds-reader-sim.txt"
  reports+=(seeds-reader-sim) ;;
esac
for a in "${arms[@]}"; do
  targets=reader
  [ "$a" = model ] && targets="reader sim"
  FUZZ_TARGETS=$targets "$root/ci/coverage.sh" "$out/work-$a" >"$out/$a.txt"
  reports+=("$a")
done

say "coverage-model: ${secs}s per arm; libtrace/ lines and branches covered (llvm-cov)"
for c in "${reports[@]}"; do
  # llvm-cov report columns: name, regions, missed, cover, functions, missed, cover, lines,
  # missed, cover, branches, missed, cover.
  awk -v c="$c" '
    function row() { return sprintf("lines %d/%d (%s), branches %d/%d (%s)",
                     $8 - $9, $8, $10, $11 - $12, $11, $13) }
    $1 == "TOTAL" { total = row() }
    $1 ~ /(^|\/)order\.c$/ && $1 !~ /tracev1/ { order = row() }
    $1 ~ /(^|\/)validate\.c$/ { validate = row() }
    END { printf "  %-16s libtrace   %s\n  %-16s order.c    %s\n  %-16s validate.c %s\n",
          c, total, "", order, "", validate }' "$out/$c.txt" | tee -a "$summary"
done
# The sim replay links files the reader replay does not (the writers the model emits
# through), so TOTALs of the two target sets have other denominators: also sum each report
# over the files of the reader replay alone.
say "over the files of the reader replay only:"
for c in "${reports[@]}"; do
  awk -v c="$c" 'FNR == NR { if ($1 ~ /\.[ch]$/) keep[$1] = 1; next }
    $1 in keep { l += $8 - $9; lt += $8; b += $11 - $12; bt += $11 }
    END { printf "  %-16s lines %d/%d, branches %d/%d\n", c, l, lt, b, bt }' \
    "$out/seeds-reader.txt" "$out/$c.txt" | tee -a "$summary"
done
