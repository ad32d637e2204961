#!/bin/bash
# fuzz/canary/run.sh: measure the fuzzers on planted bugs (fuzz/canary/README.md).
#
# For each canary, builds the tree with patches/<NAME>.patch applied (tree.sh; clang, ASan+UBSan, libFuzzer
# coverage) and links the reader+validator target fuzz/fuzz_reader.c twice: with libFuzzer's
# own mutations ("plain") and with the structure-aware mutator ("mutator",
# fuzz/structure/libfuzzer_mutator.c). With -a, also AFL++ (afl-clang-fast, libAFLDriver)
# with and without the mutator .so. Each configuration runs R times from the seed corpus with
# distinct -seed values and a per-run cap; the script prints the runs that found the bug and
# the median time-to-find (wall seconds including start-up; a miss counts as "> cap"). A
# crash counts only when its report names the canary's function ("other" otherwise).
#
# usage: fuzz/canary/run.sh [-r RUNS] [-t CAP_SECONDS] [-a] [-b] [-f FLAGS] [-m MODES] [-o OUT_DIR] [CANARY...]
#   -b: build the canaries' binaries only (no runs). -f: extra libFuzzer flags for every
#   libFuzzer run (e.g. "-use_value_profile=1", as ci/fuzz-ci.sh passes to the sim target).
#   MODES: a quoted list among plain, mutator, sim, diff, afl, afl+mutator (default: all built).
#   sim: fuzz/fuzz_sim.c, the scheduler model's choice strings (seeds corpus/fuzz/sim).
#   diff: fuzz/fuzz_diff.c with the structure-aware mutator: libtrace against Go's own reader
#   in one process (built when ci/go-diff-archive.sh's archive exists; the reader's seeds). A
#   divergence canary (patch line `Target: diff`) runs plain, mutator, sim and diff.
#   defaults: 5 runs, 120 s cap, every canary, libFuzzer only, OUT_DIR=build-canary.
# Each canary's runs start from the seeds minus every seed that already crashes its build
# (hold_out; column "held"). One fuzzer runs at a time (one core); the full default suite
# takes up to 16 canaries x 3 modes x 5 runs x 120 s = 8 hours, far less when bugs are found.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
runs=5 cap=120 afl=0 out="$src/build-canary" only="" buildonly=0 lfflags=""
all=$("$here/tree.sh" --list | tr '\n' ' ')
while getopts "r:t:abf:m:o:h" opt; do
  case $opt in
    r) runs=$OPTARG ;;
    t) cap=$OPTARG ;;
    a) afl=1 ;;
    b) buildonly=1 ;;
    f) lfflags=$OPTARG ;;
    m) only=$OPTARG ;;
    o) out=$OPTARG ;;
    *) sed -n '2,21p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
canaries=${*:-$all}
mkdir -p "$out"
out=$(cd "$out" && pwd)
jobs=${JOBS:-2}

die() { echo "run.sh: $*" >&2; exit 1; }

# configure_build DIR CANARY CC SANITIZE TARGETS...: build libgtr.a and the mutator cores
# from the tree with CANARY's patch applied (tree.sh, into $out/CANARY.src).
configure_build() {
  local dir=$1 canary=$2 cc=$3 san=$4 tree="$out/$2.src"
  shift 4
  "$here/tree.sh" "$canary" "$tree" || die "canary $canary: its patch does not apply"
  cmake -S "$tree" -B "$dir" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGTR_SANITIZE="$san" -DGTR_BUILD_FUZZERS=ON -DGTR_BUILD_TESTS=OFF \
    >"$dir.configure.log" 2>&1 || die "configure $dir: see $dir.configure.log"
  cmake --build "$dir" -j"$jobs" --target "$@" \
    >"$dir.build.log" 2>&1 || die "build $dir: see $dir.build.log"
}

# Seeds: the reader target's own seed corpus (corpus/fuzz/reader: Go's fixtures as wire bytes,
# small real traces, model traces of every version, old-format traces), what the default CI
# fuzzing configuration (ci/fuzz-ci.sh) starts from; each canary then holds out the seeds
# that already trigger it (hold_out below).
seeds="$src/corpus/fuzz/reader"
[ -d "$seeds" ] || die "no seed corpus at $seeds"

# A decoded-domain dictionary for the structure mutator (FUZZING.md §7.4): the integer
# constants libtrace's sources compare values against (hex, or decimal of 2+ digits, right
# after a comparison operator), each with its neighbours -1 and +1. They are read from the
# clean tree: a planted bug's own constant (0xC0FFEE) in the dictionary would measure the
# dictionary, not the fuzzer.
values="$out/values.txt"
cat "$src"/libtrace/src/*.c |
  grep -ohE '(==|!=|<=|>=|[^<>]<|[^-<>]>) *(0x[0-9A-Fa-f]+|[0-9]{2,})\b' |
  grep -oE '(0x[0-9A-Fa-f]+|[0-9]{2,})$' | sort -u |
  while read -r v; do x=$((v)); echo "$((x - 1)) $x $((x + 1))"; done >"$values"

# Go's reader as a C archive, for the diff mode (ci/go-diff-archive.sh; empty: no diff mode).
archive=$(bash "$src/ci/go-diff-archive.sh" 2>"$out/go-diff-archive.log") || archive=""

build_canary() {
  local c=$1 d="$out/$c"
  [ -x "$d/mutator" ] && [ -x "$d/plain" ] && [ -x "$d/sim" ] &&
    { [ $afl = 0 ] || [ -x "$d/afl" ]; } && { [ -z "$archive" ] || [ -x "$d/diff" ]; } && return 0
  # gtr_fs_afl is built here, with plain clang: the mutator .so must not carry AFL++'s
  # instrumentation (afl-fuzz cannot load it: "undefined symbol: __afl_area_ptr").
  configure_build "$d.build" "$c" clang "address;undefined;fuzzer-no-link" gtr gtr_fs_libfuzzer \
    gtr_sim $([ $afl = 1 ] && echo gtr_fs_afl)
  local common=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
    -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -I"$src/fuzz" -I"$src/libtrace/include"
    -I"$src/fuzz/structure/include")
  mkdir -p "$d"
  clang "${common[@]}" "$src/fuzz/fuzz_reader.c" "$d.build/lib/libgtr.a" -lz -lm -o "$d/plain" ||
    die "link $d/plain"
  clang "${common[@]}" "$src/fuzz/fuzz_reader.c" -Wl,-u,LLVMFuzzerCustomMutator \
    -Wl,-u,LLVMFuzzerCustomCrossOver "$d.build/lib/libgtr_fs_libfuzzer.a" \
    "$d.build/lib/libgtr.a" -lz -lm -o "$d/mutator" || die "link $d/mutator"
  # The scheduler model's target (fuzz/fuzz_sim.c): choice strings become legal traces, read
  # by the canary's reader (mode "sim").
  # With its custom mutator and the table of compared constants (fuzz/CMakeLists.txt builds
  # fuzz_sim so): uninstrumented objects, libFuzzer's const-compare hooks wrapped.
  local m
  for m in fuzz_sim_mutator cmp_consts; do
    clang -g -O1 -fno-sanitize=all -DGTR_CMPC_WRAP -I"$src/fuzz" -c "$src/fuzz/$m.c" \
      -o "$d.build/$m.o" || die "compile $m.c"
  done
  clang "${common[@]}" -I"$src/sim/include" "$src/fuzz/fuzz_sim.c" "$d.build/fuzz_sim_mutator.o" \
    "$d.build/cmp_consts.o" -Wl,--wrap=__sanitizer_cov_trace_const_cmp8 \
    -Wl,--wrap=__sanitizer_cov_trace_const_cmp4 "$d.build/lib/libgtr_sim.a" \
    "$d.build/lib/libgtr.a" -lz -lm -o "$d/sim" || die "link $d/sim"
  # fuzz_diff: the same reader against Go's, with the structure-aware mutator.
  if [ -n "$archive" ]; then
    clang "${common[@]}" -I"$src/godiff/include" -I"$src/godiff" "$src/fuzz/fuzz_diff.c" \
      "$src/fuzz/diff/diff_judge.c" "$src/godiff/godiff_compare.c" "$src/godiff/godiff_read.c" \
      "$src/godiff/godiff_go.c" \
      -Wl,-u,LLVMFuzzerCustomMutator -Wl,-u,LLVMFuzzerCustomCrossOver \
      "$d.build/lib/libgtr_fs_libfuzzer.a" "$d.build/lib/libgtr.a" "$archive" -lz -lm -lpthread \
      -ldl -o "$d/diff" || die "link $d/diff"
  fi
  if [ $afl = 1 ]; then
    command -v afl-clang-fast >/dev/null || die "afl-clang-fast not found"
    configure_build "$d.afl" "$c" afl-clang-fast "address;undefined" gtr
    AFL_USE_ASAN=1 AFL_USE_UBSAN=1 afl-clang-fast "${common[@]/-fsanitize=fuzzer,address,undefined/-fsanitize=fuzzer}" \
      "$src/fuzz/fuzz_reader.c" "$d.afl/lib/libgtr.a" -lz -lm -o "$d/afl" || die "link $d/afl"
    cp "$d.build/lib/libgtr_fs_afl.so" "$d/libgtr_fs_afl.so"
  fi
}

# where CANARY: a pattern the crash report of that canary matches (its function and file, as
# in the sanitizer's stack trace: the patch's Crash-Site line). A crash elsewhere (another
# bug, an oracle) is not a find.
where() { "$here/tree.sh" --site "$1"; }

# run_libfuzzer BIN SEED LOG: prints the seconds to the crash, "miss", or "other" (a crash
# that is not the canary's).
run_libfuzzer() {
  local bin=$1 seed=$2 log=$3 seeddir=${4:-$out/$c.seeds} work
  work=$(mktemp -d "$out/run.XXXXXX")
  local t0 t1 rc
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086  # the extra flags are meant to split
  timeout $((cap + 30)) "$bin" $lfflags -seed="$seed" -max_total_time="$cap" -rss_limit_mb=2048 \
    -timeout=10 -artifact_prefix="$work/" -print_final_stats=1 "$work" "$seeddir" >"$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  if [ $rc -ne 0 ] && compgen -G "$work/crash-*" >/dev/null; then
    # Keep the find (for sim-reduce.sh): LOG with .crash for .log.
    cp "$(compgen -G "$work/crash-*" | head -n1)" "${log%.log}.crash"
    if grep -qE "$(where "$c")" "$log"; then
      awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", b - a }'
    else
      echo other
    fi
  else
    echo miss
  fi
  rm -rf "$work"
}

# run_afl BIN SEED LOG [MUTATOR_SO]
run_afl() {
  local bin=$1 seed=$2 log=$3 so=${4:-} work t0 t1
  work=$(mktemp -d "$out/run.XXXXXX")
  t0=$(date +%s.%N)
  AFL_NO_UI=1 AFL_NO_AFFINITY=1 AFL_BENCH_UNTIL_CRASH=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
    env ${so:+AFL_CUSTOM_MUTATOR_LIBRARY="$so"} \
    timeout $((cap + 30)) afl-fuzz -s "$seed" -V "$cap" -i "$out/$c.seeds" -o "$work" -- "$bin" >"$log" 2>&1
  t1=$(date +%s.%N)
  if compgen -G "$work/default/crashes/id:*" >/dev/null; then
    # Replay the crash on the libFuzzer build of the same canary for a symbolized report.
    local crash
    crash=$(compgen -G "$work/default/crashes/id:*" | head -n1)
    "$out/$c/plain" "$crash" >"$log.replay" 2>&1
    if grep -qE "$(where "$c")" "$log.replay"; then
      awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", b - a }'
    else
      echo other
    fi
  else
    echo miss
  fi
  rm -rf "$work"
}

median() {   # values (numbers, "miss" or "other"); a miss or another crash sorts last
  printf '%s\n' "$@" | sed -E "s/^(miss|other)$/999999/" | sort -g |
    awk -v cap="$cap" '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)];
      if (m == 999999) printf "> %s s", cap; else printf "%.1f s", m }'
}

# hold_out CANARY BIN SEEDS DEST: the seeds for CANARY's runs (DEST) are SEEDS without every
# seed that already crashes BIN, its build: a seed that pins the bug (the generator fixture a
# historical canary comes from, and any other) would make the benchmark measure nothing.
# Prints how many were held out.
hold_out() {
  local c=$1 bin=$2 from=$3 dest=$4 f n=0
  rm -rf "$dest"
  mkdir -p "$dest"
  for f in "$from"/*; do
    if timeout 20 "$bin" "$f" >/dev/null 2>&1; then
      ln "$f" "$dest/" 2>/dev/null || cp "$f" "$dest/"
    else
      n=$((n + 1))
    fi
  done
  echo "$n"
}

printf '%-24s %-12s %-7s %-10s %-5s %s\n' canary mode found median held "times (s)"
for c in $canaries; do
  build_canary "$c"
  [ $buildonly = 1 ] && { echo "$c: built in $out/$c"; continue; }
  modes="plain mutator sim"
  [ $afl = 1 ] && modes="$modes afl afl+mutator"
  [ "$("$here/tree.sh" --target "$c")" = diff ] && modes="$modes diff"
  [ -n "$only" ] && modes=$only
  case " $modes " in *" diff "*)
    [ -n "$archive" ] || die "mode diff: no Go archive ($(tail -n1 "$out/go-diff-archive.log"))" ;;
  esac
  # Each seed corpus is screened only when a mode that starts from it runs.
  held=- held_sim=- held_diff=-
  case " $modes " in *" plain "*|*" mutator "*|*" afl"*)
    held=$(hold_out "$c" "$out/$c/plain" "$seeds" "$out/$c.seeds") ;;
  esac
  case " $modes " in *" sim "*)
    held_sim=$(hold_out "$c" "$out/$c/sim" "$src/corpus/fuzz/sim" "$out/$c.simseeds") ;;
  esac
  case " $modes " in *" diff "*)
    held_diff=$(hold_out "$c" "$out/$c/diff" "$seeds" "$out/$c.diffseeds") ;;
  esac
  for mode in $modes; do
    times=()
    for r in $(seq 1 "$runs"); do
      log="$out/$c/$mode.$r.log"
      case $mode in
        plain) t=$(run_libfuzzer "$out/$c/plain" "$r" "$log") ;;
        mutator) t=$(GTR_FS_VALUES="$values" run_libfuzzer "$out/$c/mutator" "$r" "$log") ;;
        sim) t=$(run_libfuzzer "$out/$c/sim" "$r" "$log" "$out/$c.simseeds") ;;
        diff) t=$(GTR_FS_VALUES="$values" run_libfuzzer "$out/$c/diff" "$r" "$log" "$out/$c.diffseeds") ;;
        afl) t=$(run_afl "$out/$c/afl" "$r" "$log") ;;
        afl+mutator) t=$(GTR_FS_VALUES="$values" run_afl "$out/$c/afl" "$r" "$log" \
                           "$out/$c/libgtr_fs_afl.so") ;;
      esac
      times+=("$t")
    done
    found=$(printf '%s\n' "${times[@]}" | grep -cvE '^(miss|other)$')
    h=$held
    [ "$mode" = sim ] && h=$held_sim
    [ "$mode" = diff ] && h=$held_diff
    printf '%-24s %-12s %-7s %-10s %-5s %s\n' "$c" "$mode" "$found/$runs" \
      "$(median "${times[@]}")" "$h" "${times[*]}"
    # The machine's load when the runs ended (1, 5, 15 min), for the results' "load" column.
    echo "$c $mode $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/load.log"
  done
done
