#!/usr/bin/env bash
# test.sh: THE test command: everything CI checks, in order, from a clean clone.
#
#   bash ci/test.sh
#
#  1. setup     ci/setup.sh --fuzz installs what is missing (Debian 12, root; afl++ too).
#  2. gcc       configure + build with -DGTR_WERROR=ON (build-ci/), run ctest.
#  3. asan      configure + build with clang and
#               -DGTR_SANITIZE='address;undefined;float-divide-by-zero' (Debug, -Werror;
#               build-ci-asan/), run ctest again: clang's -Werror and its UBSan checks
#               (pointer-overflow on NULL + 0, for one) on top of step 2's gcc.
#  4. corpus    drift check: `gotrace gen --out <tmp>` must reproduce corpus/tests exactly;
#               then `gotrace check corpus/upstream corpus/tests` (the golden runner).
#  5. difftest  when the oracle (Go's own reader) can be built by ci/oracle-fetch.sh:
#               ci/difftest.sh over every fixture and real trace, and --old (corpus/old and
#               Go's old-header FuzzReader crashers), with a Release gotrace (LTO and
#               profile-guided, as the main job builds it, ci/pgo-build.sh;
#               build-ci-release); otherwise skipped, saying why.
#  6. oldtraces tests/oldgo/reference.sh --check (corpus/old/REFERENCE.tsv is Go's), then
#               ci/v1-truncation.sh (cuts of a small old trace end as in Go; ASan gotrace).
#  7. sim       ci/sim-check.sh SIM_SEEDS (default 50) per version: every `gotrace sim` trace
#               read by Go's reader and validator to the end, the same dump from gotrace, the
#               model's record equal to what the reader returns.
#  8. difffuzz  ci/difffuzz.sh DIFFFUZZ_N (default 300): a short differential campaign (structure-aware mutants of
#               the seeds, model traces) against the oracle; any divergence that is not Go's
#               nondeterminism, or a gotrace crash or hang, fails it.
#  9. reduce    ci/reduce-suite.sh REDUCE_PER_KIND (default 4: 96 inputs derived from six real
#               traces of every version): each failing input reduced by `gotrace reduce`, every
#               fixture checked by gotrace and, with the oracle, by Go's golden runner, and a
#               stuck input's result stuck for the same reason (the long run:
#               TRACES="$(ls corpus/real/*.trace.gz)" bash ci/reduce-suite.sh 4, every real
#               trace); then the large-trace slice, ci/reduce-suite.sh --large 1 on
#               bench/bigtrace's 10 MB trace and testprog-stress (the long run:
#               ci/reduce-suite.sh --large 3).
# 10. fuzz      when ci/fuzz-ci.sh exists: replay of the fuzz corpora and regressions under
#               ASan+UBSan (reusing build-ci-asan/), then FUZZ_SECONDS (default 60) of
#               libFuzzer per target (JOBS at a time) when clang's fuzzer runtime is
#               there; the canary witnesses (fuzz/canary/witness.sh: every patch applies,
#               crashes, reduces).
# 11. fuzzbuilds ci/fuzz-builds.sh: the documented GTR_BUILD_FUZZERS=ON build with default
#               options builds, passes ctest -L fuzz, and its libFuzzer targets run over
#               their seeds; the AFL++ build runs AFL_SECONDS (default 20) on the
#               reader; ci/oss-fuzz/build.sh runs as OSS-Fuzz calls it, for ASan+UBSan and
#               for MemorySanitizer, and every target it puts in $OUT replays its seed corpus
#               (fuzz_diff and fuzz_diff_sim too, given the oracle's Go tree, but for MSan).
# 12. install   ci/install-test.sh: cmake --install into a temporary prefix (headers, libgtr.a,
#               libgtr.so.0, gotrace, gtr.pc and gtr-static.pc, the CMake package), then
#               examples/ built against it with pkg-config (C and C++; gtr links libgtr.so,
#               gtr-static libgtr.a) and find_package (static and shared), and run;
#               then ci/abi-check.sh (the shared library's ABI against ci/abi/).
# Every step runs even when an earlier one failed (except when a build fails, which stops the
# steps that need it); the summary lists each step's result. Exit status 0 only when every
# step passed or was skipped for a stated reason.
#
# Steps 4 to 9 use the gcc build's gotrace, or the ASan build's when the gcc build failed
# (steps 6 and 8 prefer the ASan build's).
#
# Environment: JOBS (default 2), FUZZ_SECONDS (default 60), REDUCE_PER_KIND (default 4),
# SIM_SEEDS (default 50),
# TEST_TIMEOUT (seconds per ctest test, default 600), GTR_ORACLE (use this oracle binary
# instead of building one), CI (set by CI systems; nothing here reads stdin).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
jobs=${JOBS:-2}
export FUZZ_SECONDS=${FUZZ_SECONDS:-60}   # the canary measurement's per-run cap (fuzz/canary/RESULTS.md)
export CTEST_OUTPUT_ON_FAILURE=1
test_timeout=${TEST_TIMEOUT:-600}   # seconds per ctest test: a hung test fails, CI goes on
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exec </dev/null

build_gcc=$root/build-ci
build_asan=$root/build-ci-asan
build_rel=$root/build-ci-release
start=$(date +%s)
results=()
failed=0

step() { echo; echo "==== $* ($(( $(date +%s) - start )) s)"; }
record() { # record STEP STATUS [NOTE]
    results+=("$(printf '%-9s %s%s' "$1" "$2" "${3:+ ($3)}")")
    [ "$2" = FAILED ] && failed=1
    return 0
}
record_rc() { # record_rc STEP RC NOTE: a script's exit status, 0 ok, 2 skipped (no tools)
    case $2 in
    0) record "$1" ok "$3" ;;
    2) record "$1" SKIPPED "its script could not run its tools" ;;
    *) record "$1" FAILED ;;
    esac
}

step "1/12 setup"
if bash ci/setup.sh --fuzz; then record setup ok; else record setup FAILED; fi

# build_and_test NAME DIR CC CMAKE-ARGS...: configure, build everything, run ctest.
build_and_test() {
    local name=$1 dir=$2 cc=$3
    shift 3
    if ! cmake -S "$root" -B "$dir" -DCMAKE_C_COMPILER="$cc" -DGTR_WERROR=ON "$@" >/dev/null; then
        record "$name" FAILED "configure"
        return 1
    fi
    if ! cmake --build "$dir" -j"$jobs" >"$dir/build.log" 2>&1; then
        grep -E "error|warning" "$dir/build.log" | head -n 40
        echo "(full log: $dir/build.log)"
        record "$name" FAILED "build"
        return 1
    fi
    if ctest --test-dir "$dir" -j"$jobs" --timeout "$test_timeout"; then
        record "$name" ok
    else
        record "$name" FAILED "ctest"
    fi
    return 0
}

step "2/12 gcc build with -Werror, ctest"
gcc_built=0
build_and_test gcc "$build_gcc" gcc -DCMAKE_BUILD_TYPE=RelWithDebInfo && gcc_built=1

step "3/12 clang ASan+UBSan build, ctest"
asan_built=0
clang=$(command -v clang-14 || command -v clang || echo clang)
build_and_test asan "$build_asan" "$clang" -DCMAKE_BUILD_TYPE=Debug \
    -DGTR_SANITIZE='address;undefined;float-divide-by-zero' && asan_built=1

step "4/12 corpus drift check and golden runner"
gotrace=""
if [ "$gcc_built" -eq 1 ]; then
    gotrace=$build_gcc/bin/gotrace
elif [ "$asan_built" -eq 1 ]; then
    gotrace=$build_asan/bin/gotrace
    echo "(the gcc build failed: using the ASan build's gotrace)"
fi
if [ -z "$gotrace" ]; then
    record corpus SKIPPED "no gotrace: both builds failed"
else
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtr-gen.XXXXXX")
    note=""
    status=ok
    if ! "$gotrace" gen -h >/dev/null 2>&1; then
        echo "corpus drift check SKIPPED: \`gotrace gen\` is not available yet"
        note="drift check skipped: no gotrace gen"
    elif ! "$gotrace" gen --out "$tmp" >"$tmp.log" 2>&1; then
        cat "$tmp.log"
        status=FAILED
        note="gotrace gen failed"
    elif ! diff -ru corpus/tests "$tmp" >"$tmp.diff"; then
        head -n 60 "$tmp.diff"
        echo "corpus/tests differs from what the generators write: run \`gotrace gen --out corpus/tests\` and commit"
        status=FAILED
        note="corpus/tests drifted"
    else
        echo "corpus/tests matches the generators ($(ls "$tmp" | wc -l) fixtures)"
    fi
    rm -rf "$tmp" "$tmp.log" "$tmp.diff"
    if ! "$gotrace" check corpus/upstream corpus/tests; then
        status=FAILED
        note="${note:+$note; }gotrace check failed"
    fi
    record corpus "$status" "$note"
fi

step "5/12 differential test against Go's reader"
if [ -z "$gotrace" ]; then
    record difftest SKIPPED "no gotrace: both builds failed"
else
    oracle=${GTR_ORACLE:-}
    if [ -z "$oracle" ]; then
        log=$(mktemp "${TMPDIR:-/tmp}/gtr-oracle.XXXXXX")
        if ! oracle=$(bash ci/oracle-fetch.sh 2>"$log"); then
            oracle=""
            why=$(tail -n 1 "$log")
        fi
        rm -f "$log"
    fi
    if [ -z "$oracle" ]; then
        echo "differential test SKIPPED: the oracle could not be built: ${why:-unknown reason}"
        record difftest SKIPPED "oracle unavailable: ${why:-unknown reason}"
    else
        # Against Go: the gotrace users get from the main job, a Release build (link-time and
        # profile-guided optimised with GCC: ci/pgo-build.sh), besides the -O2 build of step 2
        # used elsewhere.
        gotrace_rel=$gotrace
        what="the gcc build's gotrace"
        if JOBS=$jobs bash ci/pgo-build.sh "$build_rel" gotrace -- -DGTR_WERROR=ON \
                -DGTR_BUILD_TESTS=OFF; then
            gotrace_rel=$build_rel/bin/gotrace
            what="the Release (LTO, PGO) gotrace"
        else
            echo "(the Release build failed: using the gcc build's gotrace)"
        fi
        if GOTRACE=$gotrace_rel GTR_ORACLE=$oracle bash ci/difftest.sh corpus/upstream/*.test \
                corpus/tests/*.test corpus/real/*.trace.gz &&
           GOTRACE=$gotrace_rel GTR_ORACLE=$oracle bash ci/difftest.sh --old; then
            if [ "$what" = "the Release (LTO, PGO) gotrace" ]; then
                record difftest ok "fixtures, real traces, old-format traces ($what)"
            else
                record difftest FAILED "the Release build failed (the gcc build's gotrace agrees with Go)"
            fi
        else
            record difftest FAILED "$what"
        fi
    fi
fi

step "6/12 old traces: Go's figures and every cut"
# The ASan build's gotrace where there is one: a cut trace is where over-reads would show.
gotrace_san=$gotrace
[ "$asan_built" -eq 1 ] && gotrace_san=$build_asan/bin/gotrace
if [ -z "$gotrace" ]; then
    record oldtraces SKIPPED "no gotrace: both builds failed"
elif [ -z "${oracle:-}" ]; then
    record oldtraces SKIPPED "oracle unavailable"
elif GTR_ORACLE=$oracle bash tests/oldgo/reference.sh --check &&
     GOTRACE=$gotrace_san GTR_ORACLE=$oracle JOBS=$jobs bash ci/v1-truncation.sh; then
    record oldtraces ok "corpus/old/REFERENCE.tsv holds; cuts end as in Go (long: --long)"
else
    record oldtraces FAILED
fi

step "7/12 scheduler model: gotrace sim traces through Go's reader"
if [ -z "$gotrace" ]; then
    record sim SKIPPED "no gotrace: both builds failed"
elif [ -z "${oracle:-}" ]; then
    record sim SKIPPED "oracle unavailable"
else
    GOTRACE=$gotrace GTR_ORACLE=$oracle JOBS=$jobs bash ci/sim-check.sh "${SIM_SEEDS:-50}"
    record_rc sim $? "${SIM_SEEDS:-50} seeds per version (long: ci/sim-check.sh 1000)"
fi

step "8/12 differential campaign: mutants and model traces against Go"
if [ -z "$gotrace" ]; then
    record difffuzz SKIPPED "no gotrace: both builds failed"
elif [ -z "${oracle:-}" ]; then
    record difffuzz SKIPPED "oracle unavailable"
elif [ ! -f ci/difffuzz.sh ]; then
    record difffuzz SKIPPED "no ci/difffuzz.sh"
else
    GOTRACE=$gotrace_san GTR_ORACLE=$oracle JOBS=$jobs bash ci/difffuzz.sh "${DIFFFUZZ_N:-300}"
    record_rc difffuzz $? "short campaign (long: ci/difffuzz.sh 100000)"
fi

step "9/12 reduction suite"
if [ -z "$gotrace" ]; then
    record reduce SKIPPED "no gotrace: both builds failed"
elif BUILD=$(dirname "$(dirname "$gotrace")") GTR_ORACLE=${oracle:-} \
        bash ci/reduce-suite.sh "${REDUCE_PER_KIND:-4}" &&
     BUILD=$(dirname "$(dirname "$gotrace")") GTR_ORACLE=${oracle:-} \
        LARGE_TRACES="${LARGE_TRACES:-bigtrace:10 corpus/real/testprog-stress.trace.gz}" \
        bash ci/reduce-suite.sh --large 1; then
    record reduce ok "small and large slices${oracle:+; fixtures also checked by the oracle}"
else
    record reduce FAILED
fi

step "10/12 fuzz replay and short fuzzing"
if [ ! -f ci/fuzz-ci.sh ]; then
    echo "fuzz step SKIPPED: ci/fuzz-ci.sh does not exist yet"
    record fuzz SKIPPED "no ci/fuzz-ci.sh"
elif REPLAY_BUILD=$build_asan JOBS=$jobs bash ci/fuzz-ci.sh; then
    record fuzz ok "FUZZ_SECONDS=$FUZZ_SECONDS"
else
    record fuzz FAILED
fi

step "11/12 fuzzing builds: AFL++ and OSS-Fuzz"
if bash ci/fuzz-builds.sh; then
    record fuzzbuilds ok "AFL_SECONDS=${AFL_SECONDS:-20}"
else
    record fuzzbuilds FAILED
fi

step "12/12 install: libtrace installed, examples built against it"
if JOBS=$jobs bash ci/install-test.sh; then
    record install ok
else
    record install FAILED
fi

echo
echo "==== summary ($(( $(date +%s) - start )) s)"
printf '  %s\n' "${results[@]}"
if [ "$failed" -ne 0 ]; then
    echo "ci/test.sh: FAILED"
    exit 1
fi
echo "ci/test.sh: all steps passed"
