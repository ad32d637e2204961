#!/bin/bash
# coverage.sh: source-based coverage of libtrace/ from replaying fuzz corpora, measured by
# one yardstick (llvm-cov) whatever engine produced the inputs (FUZZING.md §5).
#
#   ci/coverage.sh [DIR...]
#
# Builds build-cov (clang, -DGTR_COVERAGE=ON: -fprofile-instr-generate -fcoverage-mapping),
# replays every target's seeds (corpus/fuzz/<target>/) and fuzz/regressions/, plus, for each
# DIR given, DIR/<target>/ and DIR/<target>_mutator/ when they exist (e.g.
# build-fuzz-clang/work after ci/fuzz-libfuzzer.sh runs), merges
# the profiles and prints `llvm-cov report` for libtrace/ (per file and TOTAL: regions,
# functions, lines, branches). Writes build-cov/coverage.txt and, with HTML=1, an HTML
# report in build-cov/html/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${COV_BUILD:-$root/build-cov}
jobs=${JOBS:-2}
targets=${FUZZ_TARGETS:-$(awk '!/^#/ && NF { printf "%s ", $1 }' "$root/fuzz/targets")}
cc=${CC:-$(command -v clang-14 || command -v clang)}
profdata=$(command -v llvm-profdata-14 || command -v llvm-profdata)
cov=$(command -v llvm-cov-14 || command -v llvm-cov)

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Debug -DGTR_COVERAGE=ON \
  -DGTR_BUILD_TESTS=OFF -DGTR_SANITIZE= >/dev/null
list=""
for t in $targets; do list="$list fuzz_${t}_replay"; done
cmake --build "$build" -j"$jobs" --target $list >/dev/null

prof="$build/profiles"
rm -rf "$prof"; mkdir -p "$prof"
objects=()
for t in $targets; do
  dirs=("$root/corpus/fuzz/$t" "$root/fuzz/regressions")
  for d in "$@"; do
    [ -d "$d/$t" ] && dirs+=("$d/$t")
    [ -d "$d/${t}_mutator" ] && dirs+=("$d/${t}_mutator")   # the structure-aware twin's finds
  done
  LLVM_PROFILE_FILE="$prof/$t-%p.profraw" "$build/bin/fuzz_${t}_replay" "${dirs[@]}" 2>&1 | tail -1
  objects+=(-object "$build/bin/fuzz_${t}_replay")
done
"$profdata" merge -sparse "$prof"/*.profraw -o "$build/fuzz.profdata"
# The first binary is positional, the rest -object; only libtrace's sources are reported.
first=${objects[1]}
rest=("${objects[@]:2}")
"$cov" report "$first" "${rest[@]}" -instr-profile="$build/fuzz.profdata" \
  "$root/libtrace/src" "$root/libtrace/include" | tee "$build/coverage.txt"
if [ "${HTML:-0}" = 1 ]; then
  "$cov" show "$first" "${rest[@]}" -instr-profile="$build/fuzz.profdata" -format=html \
    -show-branches=count -output-dir="$build/html" "$root/libtrace/src" >/dev/null
  echo "coverage.sh: HTML in $build/html/index.html"
fi
awk '/^TOTAL/ { printf "coverage.sh: libtrace lines %s, branches %s\n", $10, $13 }' "$build/coverage.txt"
