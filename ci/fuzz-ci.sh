#!/bin/bash
# fuzz-ci.sh: the CI fuzzing job.
#  1. Replay: every target over its seeds (corpus/fuzz/<target>/) and every regression input
#     (fuzz/regressions/) with the engine-free regression driver under ASan+UBSan (any C
#     compiler; `ctest -L fuzz`), then the sweep: every target over every real trace and
#     fixture (fuzz/tools/sweep_inputs.sh gathers them; a real trace must never make an oracle
#     fail). Fast: well under 30 s.
#  2. Fuzz: when clang's libFuzzer runtime is available, FUZZ_SECONDS (default 60) of real
#     fuzzing per target, from the seeds, JOBS (default 2) targets at a time (each a
#     single-threaded process: ci/fuzz-libfuzzer.sh), with libFuzzer's value profile for a
#     target whose options file sets use_value_profile (sim).
#     FUZZ_SECONDS=0 skips it. Crashers are saved to $FUZZ_ARTIFACTS/<target>/.
#  Both steps include fuzz_diff and fuzz_diff_sim (libtrace against Go's own reader in one
#     process, on wire traces and on the sim target's model traces) when
#     ci/go-diff-archive.sh can build Go's archive: their replays read the reader's seeds and
#     regressions and the sim target's seeds on both sides, and they fuzz FUZZ_SECONDS with
#     the others. Otherwise (no Go) they are skipped with a message; FUZZ_DIFF=0 skips them.
#  3. Canary witnesses: fuzz/canary/witness.sh proves each planted bug of fuzz/canary still
#     crashes on its witness input and that no witness crashes a normal build, so the canary
#     measurements keep measuring something when the code around a canary changes (one small
#     ASan+UBSan build per canary, 16, and a clean one; about 4-5 minutes on 2 cores).
#     CANARY_WITNESS=0 skips it.
# Exit status 1 when any replay or fuzzing run failed (every target still runs).
#
#   ci/fuzz-ci.sh                 # replay + 6 x 60 s, two at a time
#   FUZZ_SECONDS=10 ci/fuzz-ci.sh # the main job's short run
#   FUZZ_TARGETS="reader text" ci/fuzz-ci.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-$(awk '!/^#/ && NF { printf "%s ", $1 }' "$root/fuzz/targets")}
replay_build=${REPLAY_BUILD:-$root/build-fuzz}
export FUZZ_ARTIFACTS=${FUZZ_ARTIFACTS:-$root/build-fuzz-clang/artifacts}
jobs=${JOBS:-2}
failed=0

# fuzz_diff needs Go's archive before the build is configured (CMake looks for it there).
diff=0
if [ "${FUZZ_DIFF:-1}" != 0 ]; then
  archive_log=$(mktemp)
  if archive=$(bash "$root/ci/go-diff-archive.sh" 2>"$archive_log"); then
    diff=1
    echo "fuzz-ci: fuzz_diff with Go's archive $archive"
    # The libFuzzer binaries are guided by Go's coverage too, when its instrumented twin builds.
    bash "$root/ci/go-diff-archive.sh" --libfuzzer >/dev/null 2>"$archive_log" ||
      echo "fuzz-ci: fuzz_diff without Go's coverage: $(tail -n1 "$archive_log")"
  else
    echo "fuzz-ci: skipping fuzz_diff: Go's archive cannot be built ($(tail -n1 "$archive_log"))"
  fi
  rm -f "$archive_log"
fi

echo "== fuzz-ci: replay under ASan+UBSan ($replay_build)"
# A build directory handed in (REPLAY_BUILD, e.g. ci/test.sh's ASan build) keeps its settings.
if [ -f "$replay_build/CMakeCache.txt" ]; then
  cmake "$replay_build" >/dev/null || exit 1
else
  cmake -S "$root" -B "$replay_build" -DCMAKE_BUILD_TYPE=Debug -DGTR_SANITIZE='address;undefined;float-divide-by-zero' \
    -DGTR_WERROR=ON >/dev/null || exit 1
fi
list=""
for t in $targets; do list="$list fuzz_${t}_replay"; done
[ $diff = 1 ] && list="$list fuzz_diff_replay fuzz_diff_sim_replay"
cmake --build "$replay_build" -j"$jobs" --target $list gtr_gofuzz2bin fuzz_dicts gotrace || exit 1
start=$(date +%s)
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for t in $targets; do
  if ! "$replay_build/bin/fuzz_${t}_replay" "$root/corpus/fuzz/$t" "$root/fuzz/regressions"; then
    echo "fuzz-ci: replay of $t FAILED" >&2
    failed=1
  fi
done
if [ $diff = 1 ] && ! "$replay_build/bin/fuzz_diff_replay" "$root/corpus/fuzz/reader" "$root/fuzz/regressions/reader"; then
  echo "fuzz-ci: replay of diff FAILED" >&2
  failed=1
fi
if [ $diff = 1 ] && ! "$replay_build/bin/fuzz_diff_sim_replay" "$root/corpus/fuzz/sim"; then
  echo "fuzz-ci: replay of diff_sim FAILED" >&2
  failed=1
fi
if bash "$root/fuzz/tools/sweep_inputs.sh" "$replay_build/bin/gotrace" "$root" \
  "$replay_build/fuzz-sweep"; then
  for t in $targets; do
    if ! "$replay_build/bin/fuzz_${t}_replay" "$replay_build/fuzz-sweep"; then
      echo "fuzz-ci: sweep of $t over the real traces and fixtures FAILED" >&2
      failed=1
    fi
  done
else
  echo "fuzz-ci: gathering the sweep's inputs FAILED" >&2
  failed=1
fi
echo "fuzz-ci: replay took $(( $(date +%s) - start )) s"

if [ "$secs" -gt 0 ]; then
  cc=$(command -v clang-14 || command -v clang || true)
  rt=""
  [ -n "$cc" ] && rt=$("$cc" -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)
  if [ -z "$cc" ] || [ ! -f "$rt" ]; then
    echo "fuzz-ci: no clang libFuzzer runtime; skipping the fuzzing runs"
  else
    echo "== fuzz-ci: libFuzzer, ${secs}s per target, $jobs at a time"
    CC=$cc "$root/ci/fuzz-libfuzzer.sh" build >/dev/null || exit 1
    mkdir -p "$FUZZ_ARTIFACTS"
    # One libFuzzer process is one thread: JOBS of them at a time give each target its
    # seconds of a whole CPU, in 1/JOBS of the wall time. Their reports follow in order.
    if [ $diff = 1 ]; then
      for t in diff diff_sim; do
        if [ -x "${BUILD:-$root/build-fuzz-clang}/bin/fuzz_$t" ]; then
          targets="$targets $t"
        else
          echo "fuzz-ci: fuzz_$t was not built in the libFuzzer tree" >&2
          failed=1
        fi
      done
    fi
    set -- $targets
    while [ $# -gt 0 ]; do
      group=()
      while [ $# -gt 0 ] && [ ${#group[@]} -lt "$jobs" ]; do group+=("$1"); shift; done
      pids=()
      for t in "${group[@]}"; do
        # A target's options file may ask for libFuzzer's value profile (the sim target
        # does: fuzz/canary/RESULTS.md measured it so).
        vp=$(sed -n 's/^use_value_profile *= *//p' "$root/fuzz/options/fuzz_$t.options" 2>/dev/null)
        CC=$cc "$root/ci/fuzz-libfuzzer.sh" run "$t" "$secs" ${vp:+-use_value_profile=$vp} \
          >"$FUZZ_ARTIFACTS/ci-$t.log" 2>&1 &
        pids+=($!)
      done
      for i in "${!group[@]}"; do
        wait "${pids[$i]}" || failed=1
        cat "$FUZZ_ARTIFACTS/ci-${group[$i]}.log"
      done
    done
  fi
fi
if [ "${CANARY_WITNESS:-1}" != 0 ]; then
  echo "== fuzz-ci: canary witnesses"
  wcc=$(command -v clang-14 || command -v clang || command -v gcc)
  if ! JOBS=$jobs "$root/fuzz/canary/witness.sh" -c "$wcc"; then
    echo "fuzz-ci: canary witnesses FAILED" >&2
    failed=1
  fi
fi
[ $failed -eq 0 ] && echo "fuzz-ci: OK" || echo "fuzz-ci: FAILED (crashers under $FUZZ_ARTIFACTS)" >&2
exit $failed
