#!/usr/bin/env bash
# pgo-build.sh: a Release build with profile-guided optimisation (GCC), in its two stages, in
# one build tree (cmake/GtrPgo.cmake says why):
#
#   ci/pgo-build.sh BUILD_DIR [TARGET...] [-- CMAKE_ARGS...]
#
#  1. configure BUILD_DIR with -DGTR_PGO=GENERATE and build gotrace and bench_reader
#     instrumented;
#  2. bench/pgo-train.sh: the training run, its counts in BUILD_DIR/pgo-profile;
#  3. configure again with -DGTR_PGO=USE and build TARGET... (default: gotrace).
# CMAKE_ARGS go to both configure steps (after -DCMAKE_BUILD_TYPE=Release).
#
# The profile is made again only when the sources, the training run or the compiler changed
# since it was made (BUILD_DIR/pgo-profile.stamp: a hash of them): a profile of other sources
# would not match them (GCC's coverage-mismatch). Otherwise step 3 alone runs, a no-op when
# the build is up to date.
#
# GTR_PGO=0 in the environment skips the profile: a plain Release build of the targets, the
# tree reconfigured with -DGTR_PGO=OFF (ci/bench.sh --no-pgo measures so).
# Output: the configure and build logs in BUILD_DIR/pgo-build.log; on failure their tail.
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: ci/pgo-build.sh BUILD_DIR [TARGET...] [-- CMAKE_ARGS...]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
shift
targets=() args=()
while [ $# -gt 0 ]; do
    if [ "$1" = "--" ]; then
        shift
        args=("$@")
        break
    fi
    targets+=("$1")
    shift
done
[ ${#targets[@]} -gt 0 ] || targets=(gotrace)
jobs=${JOBS:-2}
mkdir -p "$build"
build=$(cd "$build" && pwd)
log=$build/pgo-build.log
profile=$build/pgo-profile
: >"$log"

# run CMD...: runs a step with its output in the log; on failure, the log's tail and exit 1.
run() {
    if ! "$@" >>"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "pgo-build: failed: $*" >&2
        exit 1
    fi
}

configure() {
    run cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGTR_PGO="$1" \
        -DGTR_PGO_DIR="$profile" "${args[@]}"
}

if [ "${GTR_PGO:-1}" = 0 ]; then
    configure OFF
    run cmake --build "$build" -j"$jobs" --target "${targets[@]}"
    exit 0
fi

# The stamp: every file the build compiles or the training reads (but the traces, which
# change only with the tree too), the compiler's version and the CMake arguments.
stamp() {
    (
        cd "$root"
        find CMakeLists.txt cmake libtrace testgen txtar tracedit reduce sim cli bench \
             -type f \( -name '*.[ch]' -o -name '*.cmake' -o -name '*.in' \
                        -o -name CMakeLists.txt -o -name pgo-train.sh \) -print0 |
            sort -z | xargs -0 sha256sum
        ls corpus/real corpus/old
        "${CC:-cc}" --version | head -n1   # the compiler CMake picks, as it picks it
        printf '%s\n' "${args[@]}"
    ) | sha256sum | cut -c1-32
}
want=$(stamp)
if [ "$(cat "$profile.stamp" 2>/dev/null)" != "$want" ] || [ ! -d "$profile" ]; then
    rm -rf "$profile" "$profile.stamp"
    configure GENERATE
    run cmake --build "$build" -j"$jobs" --target gotrace bench_reader
    run bash "$root/bench/pgo-train.sh" "$build" "$build/pgo-train"
    rm -rf "$build/pgo-train"
    [ -d "$profile" ] || { echo "pgo-build: the training wrote no profile in $profile" >&2; exit 1; }
    echo "$want" >"$profile.stamp"
fi
configure USE
run cmake --build "$build" -j"$jobs" --target "${targets[@]}"
