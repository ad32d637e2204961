#!/usr/bin/env bash
# fuzz-builds.sh: prove in CI the two fuzzing builds that ci/fuzz-ci.sh does not run
# (the replay driver and libFuzzer are proven there):
#
#   3. AFL++: ci/fuzz-afl.sh reader AFL_SECONDS (persistent shared-memory mode, ASan+UBSan,
#      CmpLog twin), failing on a crash, a hang or stability below 100 %;
#   4. OSS-Fuzz: ci/oss-fuzz/build.sh called the way OSS-Fuzz's base-builder calls it
#      ($CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE $SANITIZER $SRC $WORK $OUT), then every
#      target in $OUT must have its .dict, .options and _seed_corpus.zip, and must replay its
#      unzipped seed corpus without a crash (what OSS-Fuzz's check_build does in spirit).
#
#   bash ci/fuzz-builds.sh            (AFL_SECONDS, default 20)
# Needs clang and afl++ (bash ci/setup.sh --fuzz installs them). Exit 1 on any failure.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
secs=${AFL_SECONDS:-20}
status=0

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

echo "== fuzz-builds: OSS-Fuzz build.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src" "$tmp/work" "$tmp/out"
ln -s "$root" "$tmp/src/gotrace"
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,undefined"
flags="$flags -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
if ! env CC=clang CXX=clang++ CFLAGS="$flags" CXXFLAGS="$flags" \
        LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER=address \
        SRC="$tmp/src" WORK="$tmp/work" OUT="$tmp/out" \
        bash ci/oss-fuzz/build.sh >"$tmp/build.log" 2>&1; then
    tail -n 30 "$tmp/build.log"
    echo "fuzz-builds: OSS-Fuzz build.sh FAILED" >&2
    exit 1
fi
for t in reader raw_roundtrip text txtar_check testgen; do
    bin="$tmp/out/fuzz_$t"
    want=("$bin" "$bin.options" "${bin}_seed_corpus.zip")
    # testgen's bytes are DSL choices, not a format: it has no dictionary (fuzz/CMakeLists.txt).
    [ "$t" = testgen ] || want+=("$bin.dict")
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
        echo "fuzz-builds: OSS-Fuzz fuzz_$t replays its $n seeds: ok"
    else
        tail -n 20 "$tmp/run_$t.log"
        echo "fuzz-builds: OSS-Fuzz fuzz_$t FAILED on its seed corpus" >&2
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "fuzz-builds: ok" || echo "fuzz-builds: FAILED"
exit "$status"
