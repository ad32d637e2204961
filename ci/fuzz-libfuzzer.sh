#!/bin/bash
# fuzz-libfuzzer.sh: build and run the libFuzzer targets (clang, -fsanitize=fuzzer,address,
# undefined) from one CMake tree.
#
#   ci/fuzz-libfuzzer.sh build
#   ci/fuzz-libfuzzer.sh run TARGET SECONDS [libFuzzer flags...]   fuzz from the seeds
#   ci/fuzz-libfuzzer.sh merge TARGET [DIR...]    add to corpus/fuzz/TARGET the fewest inputs
#                                                 of DIRs (default: the work corpus) that add
#                                                 coverage (-merge=1; seeds are kept)
#   ci/fuzz-libfuzzer.sh speed TARGET [SECONDS]   exec/s on the seeds (print_final_stats)
#
# TARGET is one of fuzz/targets (reader, raw_roundtrip, text, txtar_check, testgen, sim), or reader_mutator or
# raw_roundtrip_mutator (the structure-aware twins, fuzz/structure; seeds, options and
# dictionary of the base target), or diff (fuzz_diff: libtrace against Go's own reader in
# one process, built when ci/go-diff-archive.sh's archive exists; the reader's seeds,
# options and dictionary; inputs that make Go panic are kept in $FUZZ_ARTIFACTS/diff/gopanic),
# or diff_sim (the same oracle on the sim target's traces; the sim target's seeds and options). `run` works on a copy of the
# seeds in $FUZZ_WORK/TARGET (default build-fuzz-clang/work; new inputs stay there for
# `merge`), uses bin/fuzz_TARGET.dict and the max_len/timeout of fuzz/options, writes
# crashers to $FUZZ_ARTIFACTS/TARGET/ (default build-fuzz-clang/artifacts) and exits 1 when
# the target crashed, leaked, timed out or ran out of memory.
# Environment: BUILD (default build-fuzz-clang), CC (default clang-14 or clang), JOBS (2).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build-fuzz-clang}
work=${FUZZ_WORK:-$build/work}
artifacts=${FUZZ_ARTIFACTS:-$build/artifacts}
jobs=${JOBS:-2}
targets=$(awk '!/^#/ && NF { printf "%s ", $1 }' "$root/fuzz/targets")
cc=${CC:-$(command -v clang-14 || command -v clang)}

die() { echo "fuzz-libfuzzer: $*" >&2; exit 2; }
check_target() {
  case " $targets reader_mutator raw_roundtrip_mutator diff diff_sim " in *" $1 "*) ;; *) die "unknown target '$1' ($targets)";; esac
}
base() {   # the target whose seeds, options and dictionary apply
  case $1 in diff) echo reader ;; diff_sim) echo sim ;; *) echo "${1%_mutator}" ;; esac
}

build() {
  cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGTR_BUILD_FUZZERS=ON -DGTR_BUILD_TESTS=OFF -DGTR_SANITIZE='address;undefined;float-divide-by-zero' >/dev/null
  local list=""
  for t in $targets; do list="$list fuzz_$t"; done
  cmake --build "$build" -j"$jobs" --target $list fuzz_dicts
  # The structure-aware twins exist once fuzz/structure provides its libFuzzer mutator.
  for t in reader_mutator raw_roundtrip_mutator; do
    cmake --build "$build" -j"$jobs" --target "fuzz_$t" >/dev/null 2>&1 || echo "fuzz-libfuzzer: fuzz_$t not built"
  done
  # fuzz_diff and fuzz_diff_sim exist once the configure found Go's archive
  # (ci/go-diff-archive.sh).
  for t in diff diff_sim; do
    if grep -q "^fuzz_$t:" "$build/Makefile" 2>/dev/null; then
      cmake --build "$build" -j"$jobs" --target "fuzz_$t" >/dev/null || echo "fuzz-libfuzzer: fuzz_$t not built"
    fi
  done
}

opt() {   # opt TARGET KEY: a value from fuzz/options/fuzz_TARGET.options
  sed -n "s/^$2 *= *//p" "$root/fuzz/options/fuzz_$(base "$1").options"
}

flags() {   # flags TARGET: dictionary and limits
  local t=$1
  local f
  f="-max_len=$(opt "$t" max_len) -timeout=$(opt "$t" timeout) -rss_limit_mb=$(opt "$t" rss_limit_mb)"
  [ -f "$build/bin/fuzz_$(base "$t").dict" ] && f="$f -dict=$build/bin/fuzz_$(base "$t").dict"
  echo "$f"
}

run() {
  local t=$1 secs=$2; shift 2
  check_target "$t"
  [ -x "$build/bin/fuzz_$t" ] || build
  mkdir -p "$work/$t" "$artifacts/$t"
  cp -n "$root/corpus/fuzz/$(base "$t")"/* "$work/$t"/ 2>/dev/null || true
  echo "fuzz-libfuzzer: $t for ${secs}s"
  local log="$artifacts/$t/fuzz.log" rc=0
  if [ "$t" = diff ] || [ "$t" = diff_sim ]; then
    export GTR_DIFF_GOPANIC_DIR=${GTR_DIFF_GOPANIC_DIR:-$artifacts/$t/gopanic}
    mkdir -p "$GTR_DIFF_GOPANIC_DIR"
  fi
  # shellcheck disable=SC2046
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:silence_unsigned_overflow=1} \
  "$build/bin/fuzz_$t" $(flags "$t") -max_total_time="$secs" -print_final_stats=1 \
    -artifact_prefix="$artifacts/$t/" "$@" "$work/$t" "$root/fuzz/regressions" >"$log" 2>&1 || rc=$?
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)" "$log" || true
  grep -E "^#[0-9]+ +DONE" "$log" | tail -1 || true
  grep -E "^fuzz_diff: " "$log" || true
  if [ $rc -ne 0 ]; then
    grep -E "ERROR|SUMMARY|fuzz oracle failed|Test unit written" "$log" | head -20 >&2 || true
    echo "fuzz-libfuzzer: $t FAILED (rc $rc); log $log, crashers in $artifacts/$t/" >&2
    return 1
  fi
}

merge() {   # keep every committed seed; add the fewest new inputs that add coverage
  local t=$1; shift
  check_target "$t"
  [ -x "$build/bin/fuzz_$t" ] || build
  local new="$work/$t.merged" cand="$work/$t.candidates" max=${MERGE_MAX_BYTES:-8192}
  rm -rf "$new" "$cand"; mkdir -p "$new" "$cand"
  cp "$root/corpus/fuzz/$t"/* "$new"/
  local extra=("$@")
  [ ${#extra[@]} -eq 0 ] && [ -d "$work/$t" ] && extra=("$work/$t")
  # Candidates: the fuzzers' finds up to MERGE_MAX_BYTES (default 8 KiB: seeds stay small).
  find "${extra[@]}" -type f -size -"$((max + 1))"c -exec cp {} "$cand"/ \;
  # shellcheck disable=SC2046  # flags are meant to split
  # -use_counters=0: only new edges count (not hit-count buckets), so the corpus stays small.
  "$build/bin/fuzz_$t" -merge=1 -use_counters=0 $(flags "$t") "$new" "$cand" 2>&1 |
    grep -E "MERGE-OUTER: [0-9]+ new files" || true
  local before after
  before=$(ls "$root/corpus/fuzz/$t" | wc -l)
  rm -rf "$root/corpus/fuzz/$t" "$cand"; mv "$new" "$root/corpus/fuzz/$t"
  after=$(ls "$root/corpus/fuzz/$t" | wc -l)
  echo "fuzz-libfuzzer: corpus/fuzz/$t: $before -> $after files ($(du -sb "$root/corpus/fuzz/$t" | cut -f1) bytes)"
}

speed() {   # wall-clock exec/s, and exec per CPU-second (fair on a loaded machine)
  local t=$1 secs=${2:-30}
  check_target "$t"
  [ -x "$build/bin/fuzz_$t" ] || build
  local tmp; tmp=$(mktemp -d)
  cp "$root/corpus/fuzz/$(base "$t")"/* "$tmp"/
  local log="$tmp.log"
  # shellcheck disable=SC2046  # flags are meant to split
  /usr/bin/time -f "cpu %U %S" "$build/bin/fuzz_$t" $(flags "$t") -max_total_time="$secs" \
    -print_final_stats=1 "$tmp" >"$log" 2>&1 || true
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec)|^fuzz_diff: " "$log" || true
  awk '/^stat::number_of_executed_units/ {n=$2} /^cpu / {c=$2+$3}
       END { if (c > 0) printf "stat::exec_per_cpu_second:      %d\n", n / c }' "$log"
  rm -rf "$tmp" "$log"
}

case "${1:-}" in
  build) build ;;
  run) [ $# -ge 3 ] || die "usage: run TARGET SECONDS [flags]"; shift; run "$@" ;;
  merge) [ $# -ge 2 ] || die "usage: merge TARGET [DIR...]"; shift; merge "$@" ;;
  speed) [ $# -ge 2 ] || die "usage: speed TARGET [SECONDS]"; shift; speed "$@" ;;
  *) die "usage: $0 build | run TARGET SECONDS | merge TARGET [DIR...] | speed TARGET [SECONDS]" ;;
esac
