#!/usr/bin/env bash
# fuzz-builds.sh: prove in CI the fuzzing builds that ci/fuzz-ci.sh does not run (the
# replay driver and libFuzzer's targets are proven there):
#
#   2. the documented libFuzzer build, with default options and -Werror
#      (cmake -DCMAKE_C_COMPILER=clang -DGTR_BUILD_FUZZERS=ON): everything builds (gotrace,
#      tests, replay drivers, tools and the fuzz binaries), its fuzz tests pass
#      (ctest -L fuzz; the whole suite ran under clang in ci/test.sh's step 3, and the
#      fuzz binaries link instrumented copies of the same libraries) and every libFuzzer
#      target runs over its seeds (-runs=0);
#   3. AFL++: ci/fuzz-afl.sh reader AFL_SECONDS (persistent shared-memory mode, ASan+UBSan,
#      CmpLog twin), failing on a crash, a hang or stability below 100 %;
#   4. OSS-Fuzz: ci/oss-fuzz/presubmit-check.sh (the license, project.yaml and build.sh
#      checks of OSS-Fuzz's infra/presubmit.py, offline), then ci/oss-fuzz/build.sh called the
#      way OSS-Fuzz's base-builder calls it
#      ($CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE $SANITIZER $SRC $WORK $OUT), for
#      SANITIZER=address (ASan+UBSan) and SANITIZER=memory (MemorySanitizer, with zlib and
#      PCRE2 built from source by build.sh: ci/msan-sources.sh fetches them), then every
#      target in $OUT must have its .dict, .options and _seed_corpus.zip, and must replay its
#      unzipped seed corpus without a crash (what OSS-Fuzz's check_build does in spirit).
#      When the oracle's Go 1.27.3 tree can be had (ci/oracle-fetch.sh), build.sh gets it as
#      an image with Go would (GTR_GO_DIFF_GOROOT): then fuzz_diff and fuzz_diff_sim must be in
#      $OUT and pass the same checks for SANITIZER=address, and be left out for memory.
#
#   bash ci/fuzz-builds.sh            (AFL_SECONDS, default 20; MSAN=0 skips the MSan build)
# Needs clang and afl++ (bash ci/setup.sh --fuzz installs them). Exit 1 on any failure.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
secs=${AFL_SECONDS:-20}
status=0

echo "== fuzz-builds: the documented libFuzzer build (default options), ctest"
fbuild=$root/build-ci-fuzzdefault
mkdir -p "$fbuild"
if ! cmake -S "$root" -B "$fbuild" -DCMAKE_C_COMPILER=clang -DGTR_BUILD_FUZZERS=ON \
        -DGTR_WERROR=ON >"$fbuild/build.log" 2>&1 ||
   ! cmake --build "$fbuild" -j"${JOBS:-2}" >>"$fbuild/build.log" 2>&1; then
    grep -E "error|undefined" "$fbuild/build.log" | head -n 20
    echo "fuzz-builds: the GTR_BUILD_FUZZERS=ON build FAILED (log: $fbuild/build.log)" >&2
    status=1
elif ! ctest --test-dir "$fbuild" -j"${JOBS:-2}" -L fuzz --timeout 600 >"$fbuild/ctest.log" 2>&1; then
    tail -n 30 "$fbuild/ctest.log"
    echo "fuzz-builds: ctest -L fuzz in the GTR_BUILD_FUZZERS=ON build FAILED" >&2
    status=1
else
    grep -E "tests passed" "$fbuild/ctest.log"
    for t in $(awk '!/^#/ && NF { printf "%s ", $1 }' "$root/fuzz/targets"); do
        if ! "$fbuild/bin/fuzz_$t" -runs=0 "$root/corpus/fuzz/$t" >"$fbuild/run_$t.log" 2>&1; then
            tail -n 20 "$fbuild/run_$t.log"
            echo "fuzz-builds: the GTR_BUILD_FUZZERS=ON build's fuzz_$t FAILED on its seeds" >&2
            status=1
        fi
    done
    [ "$status" -eq 0 ] && echo "fuzz-builds: every libFuzzer target of that build replays its seeds"
fi

echo "== fuzz-builds: AFL++ (reader, ${secs}s)"
if command -v afl-fuzz >/dev/null && command -v afl-clang-fast >/dev/null; then
    if ! bash ci/fuzz-afl.sh reader "$secs"; then
        echo "fuzz-builds: AFL++ run FAILED" >&2
        status=1
    fi
else
    echo "fuzz-builds: AFL++ is not installed (bash ci/setup.sh --fuzz installs it)" >&2
    status=1
fi

# oss_fuzz SANITIZER SRCDIR: build.sh as OSS-Fuzz calls it for SANITIZER (its CFLAGS), from
# SRCDIR ($SRC: gotrace, and zlib/pcre2 sources when MemorySanitizer needs them), then check
# $OUT and replay every target's seed corpus. Sets status=1 on failure.
oss_fuzz() {
    local san=$1 src=$2 tmp flags
    tmp=$(mktemp -d)
    mkdir -p "$tmp/work" "$tmp/out"
    ln -sfn "$root" "$src/gotrace"
    flags="-O1 -fno-omit-frame-pointer -gline-tables-only"
    flags="$flags -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=fuzzer-no-link"
    case $san in
        address) flags="$flags -fsanitize=address,undefined -fsanitize-address-use-after-scope" ;;
        memory) flags="$flags -fsanitize=memory -fsanitize-memory-track-origins" ;;
    esac
    if ! env CC=clang CXX=clang++ CFLAGS="$flags" CXXFLAGS="$flags" \
            LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER="$san" FUZZING_ENGINE=libfuzzer \
            SRC="$src" WORK="$tmp/work" OUT="$tmp/out" GTR_GO_DIFF_GOROOT="$go_root" \
            bash ci/oss-fuzz/build.sh >"$tmp/build.log" 2>&1; then
        tail -n 30 "$tmp/build.log"
        echo "fuzz-builds: OSS-Fuzz build.sh ($san) FAILED" >&2
        status=1
        rm -rf "$tmp"
        return
    fi
    local t b p bin seeds n f pairs=""
    local -a want
    # NAME:BASE, BASE the target whose dictionary and seeds NAME takes (as in build.sh).
    for t in $(awk '!/^#/ && NF { printf "%s ", $1 }' "$root/fuzz/targets"); do
        pairs="$pairs $t:$t"
    done
    if [ -n "$go_root" ]; then
        if [ "$san" = memory ]; then
            if [ -e "$tmp/out/fuzz_diff" ] || [ -e "$tmp/out/fuzz_diff_sim" ]; then
                echo "fuzz-builds: OSS-Fuzz ($san) built fuzz_diff (the Go runtime is not instrumented)" >&2
                status=1
            else
                echo "fuzz-builds: OSS-Fuzz ($san) left fuzz_diff and fuzz_diff_sim out: ok"
            fi
        else
            pairs="$pairs diff:reader diff_sim:sim"
        fi
    fi
    for p in $pairs; do
        t=${p%%:*} b=${p#*:}
        bin="$tmp/out/fuzz_$t"
        want=("$bin" "$bin.options" "${bin}_seed_corpus.zip")
        # Choice strings (testgen's DSL, sim's model) are no format: no dictionary (fuzz/targets).
        awk -v t="$b" '$1 == t && $2 == "dict" { f = 1 } END { exit !f }' "$root/fuzz/targets" &&
            want+=("$bin.dict")
        for f in "${want[@]}"; do
            [ -s "$f" ] || { echo "fuzz-builds: missing $f" >&2; status=1; }
        done
        [ -x "$bin" ] || continue
        seeds="$tmp/seeds_$t"
        mkdir -p "$seeds"
        (cd "$seeds" && python3 -c 'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extractall()' \
            "${bin}_seed_corpus.zip")
        n=$(find "$seeds" -type f | wc -l)
        if "$bin" -runs=0 "$seeds" >"$tmp/run_$t.log" 2>&1; then
            echo "fuzz-builds: OSS-Fuzz ($san) fuzz_$t replays its $n seeds: ok"
        else
            tail -n 20 "$tmp/run_$t.log"
            echo "fuzz-builds: OSS-Fuzz ($san) fuzz_$t FAILED on its seed corpus" >&2
            status=1
        fi
    done
    rm -rf "$tmp"
}

echo "== fuzz-builds: OSS-Fuzz presubmit checks (offline equivalent of infra/presubmit.py)"
if ! bash ci/oss-fuzz/presubmit-check.sh; then
    echo "fuzz-builds: OSS-Fuzz presubmit checks FAILED" >&2
    status=1
fi

# Go 1.27.3's tree for build.sh's fuzz_diff and fuzz_diff_sim: the oracle's, as an OSS-Fuzz
# image with Go has one (ci/oss-fuzz/Dockerfile).
go_root=""
if bash ci/oracle-fetch.sh >/dev/null 2>&1; then
    go_root=${GTR_ORACLE_CACHE:-$HOME/.cache/gotrace-oracle}/unpacked/usr/lib/go-1.27
    echo "fuzz-builds: OSS-Fuzz build.sh gets Go 1.27.3's tree: fuzz_diff and fuzz_diff_sim checked too"
else
    echo "fuzz-builds: no Go 1.27.3 tree (ci/oracle-fetch.sh failed): OSS-Fuzz build.sh without fuzz_diff"
fi

echo "== fuzz-builds: OSS-Fuzz build.sh, SANITIZER=address (ASan+UBSan)"
src=$(mktemp -d)
oss_fuzz address "$src"
rm -rf "$src"

# MemorySanitizer needs every line of code instrumented, zlib and PCRE2 included: OSS-Fuzz's
# Dockerfile clones them for build.sh; here their Debian source packages stand in.
echo "== fuzz-builds: OSS-Fuzz build.sh, SANITIZER=memory"
if [ "${MSAN:-1}" = 0 ]; then
    echo "fuzz-builds: MemorySanitizer build skipped (MSAN=0)"
elif src=$(bash ci/msan-sources.sh); then
    oss_fuzz memory "$src"
else
    echo "fuzz-builds: MemorySanitizer build SKIPPED: no zlib/PCRE2 sources (see above)"
fi

[ "$status" -eq 0 ] && echo "fuzz-builds: ok" || echo "fuzz-builds: FAILED"
exit "$status"
