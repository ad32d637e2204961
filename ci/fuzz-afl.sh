#!/bin/bash
# fuzz-afl.sh: run one fuzz target under AFL++ in persistent mode with the shared-memory
# test case (fuzz/afl_driver.c: __AFL_FUZZ_INIT/__AFL_LOOP, never the plain fork server).
#
#   ci/fuzz-afl.sh TARGET SECONDS
#
# Builds two binaries from one CMake tree configuration (afl-clang-fast):
#   build-afl/bin/fuzz_TARGET_afl         AFL_USE_ASAN=1 AFL_USE_UBSAN=1 (finds crashes; UBSan
#                                         traps, so a finding shows as SIGILL)
#   build-afl-cmplog/bin/fuzz_TARGET_afl  AFL_LLVM_CMPLOG=1, no sanitizer (the CmpLog twin, -c)
# then runs afl-fuzz for SECONDS from corpus/fuzz/TARGET with the generated dictionary (-x).
# Pitfalls handled (FUZZING.md §3): a core_pattern starting with a pipe
# (AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES), an unreadable CPU governor (AFL_SKIP_CPUFREQ), no
# terminal (AFL_NO_UI), ASan's virtual memory (-m none), CI calibration (AFL_FAST_CAL,
# AFL_CMPLOG_ONLY_NEW). Output in $AFL_OUT (default build-afl/out/TARGET); crashers are
# copied to $FUZZ_ARTIFACTS/TARGET (default build-afl/artifacts). Exit 1 when AFL++ saved a
# crash or a hang, or stability is below 100 % (the target must keep no state).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 2 ] || { echo "usage: $0 TARGET SECONDS" >&2; exit 2; }
t=$1 secs=$2
awk -v t="$t" '!/^#/ && $1 == t { f = 1 } END { exit !f }' "$root/fuzz/targets" ||
  { echo "unknown target $t (fuzz/targets)" >&2; exit 2; }
command -v afl-fuzz >/dev/null && command -v afl-clang-fast >/dev/null || { echo "fuzz-afl: AFL++ not installed" >&2; exit 2; }
jobs=${JOBS:-2}
b_asan=${AFL_BUILD:-$root/build-afl}
b_cmplog=${AFL_BUILD_CMPLOG:-$root/build-afl-cmplog}
out=${AFL_OUT:-$b_asan/out/$t}
artifacts=${FUZZ_ARTIFACTS:-$b_asan/artifacts}

configure_build() {   # configure_build DIR ENV...
  local dir=$1; shift
  env "$@" cmake -S "$root" -B "$dir" -DCMAKE_C_COMPILER=afl-clang-fast -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGTR_FUZZ_AFL=ON -DGTR_BUILD_TESTS=OFF >/dev/null
  env "$@" cmake --build "$dir" -j"$jobs" --target "fuzz_${t}_afl" fuzz_dicts >/dev/null
}
echo "fuzz-afl: building $t (ASan+UBSan, CmpLog twin)"
configure_build "$b_asan" AFL_USE_ASAN=1 AFL_USE_UBSAN=1 AFL_QUIET=1
configure_build "$b_cmplog" AFL_LLVM_CMPLOG=1 AFL_QUIET=1

rm -rf "$out"; mkdir -p "$out" "$artifacts/$t"
in=$(mktemp -d)
trap 'rm -rf "$in"' EXIT
# AFL++ wants small seeds: skip anything over max_len of the options file.
max=$(sed -n 's/^max_len *= *//p' "$root/fuzz/options/fuzz_$t.options")
find "$root/corpus/fuzz/$t" -type f -size -"$((max + 1))"c -exec cp {} "$in"/ \;
dict=()
[ -f "$b_asan/bin/fuzz_$t.dict" ] && dict=(-x "$b_asan/bin/fuzz_$t.dict")

export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
  AFL_FAST_CAL=1 AFL_CMPLOG_ONLY_NEW=1 AFL_NO_AFFINITY=${AFL_NO_AFFINITY:-1}
echo "fuzz-afl: afl-fuzz $t for ${secs}s"
# afl-fuzz -V can leave a target process behind when it exits (seen: the CmpLog binary's
# persistent child, stopped, state T), which nothing would ever resume or reap. Whatever
# runs either binary once afl-fuzz (and at the end afl-showmap) has returned is killed
# (found through /proc: no procps).
reap_targets() {
  local p exe
  for p in /proc/[0-9]*; do
    exe=$(readlink "$p/exe" 2>/dev/null) || continue
    case "$exe" in
    "$b_cmplog/bin/fuzz_${t}_afl" | "$b_asan/bin/fuzz_${t}_afl")
      echo "fuzz-afl: killing a left-over target process ${p#/proc/} ($exe)"
      kill -9 "${p#/proc/}" 2>/dev/null || true ;;
    esac
  done
}
afl_status=0
afl-fuzz -i "$in" -o "$out" -m none -t 1000 -V "$secs" "${dict[@]}" \
  -c "$b_cmplog/bin/fuzz_${t}_afl" -- "$b_asan/bin/fuzz_${t}_afl" >"$out/afl.log" 2>&1 ||
  afl_status=$?
reap_targets
[ "$afl_status" -eq 0 ] || {
  tail -30 "$out/afl.log" >&2; echo "fuzz-afl: afl-fuzz failed" >&2; exit 1; }

stats="$out/default/fuzzer_stats"
[ -f "$stats" ] || { echo "fuzz-afl: no fuzzer_stats" >&2; exit 1; }
get() { sed -n "s/^$1 *: *//p" "$stats"; }
echo "fuzz-afl: $t execs $(get execs_done), $(get execs_per_sec) exec/s, corpus $(get corpus_count)," \
  "edges $(get edges_found)/$(get total_edges), stability $(get stability), mode $(get target_mode)," \
  "crashes $(get saved_crashes), hangs $(get saved_hangs)"
fail=0
if ls "$out/default/crashes"/id:* >/dev/null 2>&1; then
  cp "$out/default/crashes"/id:* "$artifacts/$t"/
  echo "fuzz-afl: crashes saved to $artifacts/$t" >&2; fail=1
fi
if ls "$out/default/hangs"/id:* >/dev/null 2>&1; then
  cp "$out/default/hangs"/id:* "$artifacts/$t"/
  echo "fuzz-afl: hangs saved to $artifacts/$t" >&2; fail=1
fi
case "$(get stability)" in 100.00%) ;; *) echo "fuzz-afl: stability below 100 %" >&2; fail=1;; esac

# The stability figure samples re-runs; this check is exhaustive: every queue entry is run in
# one persistent process in queue order, then in reverse order, and each input's edge map must
# be the same both times (a target that keeps state from one input to the next fails it).
if command -v afl-showmap >/dev/null; then
  fwd=$(mktemp -d) rev_in=$(mktemp -d) rev=$(mktemp -d)
  trap 'rm -rf "$in" "$fwd" "$rev_in" "$rev"' EXIT
  n=0
  while read -r f; do
    n=$((n + 1)); cp "$out/default/queue/$f" "$rev_in/$(printf '%06d' "$n")_$f"
  done < <(ls "$out/default/queue" | grep '^id:' | sort -r)
  afl-showmap -q -i "$out/default/queue" -o "$fwd" -t 1000 -m none -- "$b_asan/bin/fuzz_${t}_afl" >/dev/null 2>&1 || true
  afl-showmap -q -i "$rev_in" -o "$rev" -t 1000 -m none -- "$b_asan/bin/fuzz_${t}_afl" >/dev/null 2>&1 || true
  differ=0
  for m in "$rev"/*; do
    [ -e "$m" ] || continue
    cmp -s "$m" "$fwd/$(basename "$m" | cut -d_ -f2-)" || { differ=$((differ + 1)); echo "fuzz-afl: edges depend on input order: $(basename "$m" | cut -d_ -f2-)" >&2; }
  done
  echo "fuzz-afl: order check: $n queue entries run forward and reversed, $differ differ"
  [ "$differ" -eq 0 ] || fail=1
fi
reap_targets
exit $fail
