#!/usr/bin/env bash
# go-diff-archive.sh: Go 1.27.3's own trace reader and validator as a static C archive, for
# the in-process differential fuzz target fuzz_diff (fuzz/fuzz_diff.c, issue 43), or as a
# shared library for `gotrace reduce --diff`.
#
#   ci/go-diff-archive.sh [--libfuzzer|--shared] [CACHE]
#                                   (default CACHE: $GTR_ORACLE_CACHE or ~/.cache/gotrace-oracle)
#
# Builds godiff/godiff.go together with the oracle's ci/difftest/oracle.go (whose
# readTrace is exactly what `gtroracle validate` prints) as the command
# $GOROOT/src/internal/trace/testdata/cmd/gtrdiff of the oracle's tree (ci/oracle-fetch.sh
# fetches Debian's golang-1.27-src and golang-1.27-go), with `go build -buildmode=c-archive`
# and Go's old-format map order fixed as in tests/oldgo/oracle/ (v1-order.patch), so that an
# old trace reads the same every time. The files are laid over the tree (go build -overlay):
# nothing is written into GOROOT. Writes CACHE/gtrdiff/libgtrdiff.a (and Go's header
# libgtrdiff.h), rebuilt only when one of its sources changed, and prints the archive's path
# on stdout. Exit 1 with a message on stderr when Go cannot be had or the build fails: the
# CMake build then leaves fuzz_diff out.
#
# GTR_GO_DIFF_GOROOT=DIR takes the Go 1.27 tree (toolchain and source, src/internal/trace
# included) from DIR instead of ci/oracle-fetch.sh's: the OSS-Fuzz build (ci/oss-fuzz/build.sh)
# has one in its image and no Debian packages. CACHE then holds only Go's build cache and the
# archive.
#
# --libfuzzer writes CACHE/gtrdiff/libgtrdiff-libfuzzer.a instead: Go's internal/trace
# packages (and the program) compiled with libFuzzer's coverage instrumentation
# (-gcflags=internal/trace/...=-d=libfuzzer, with the runtime's libfuzzer tag, as OSS-Fuzz
# builds Go fuzzers), so that a fuzz_diff linked with it (GTR_GO_DIFF_ARCHIVE) is guided by
# the coverage of Go's reader as well as of libtrace. The runtime and the rest of the
# standard library stay uninstrumented: their edges (the garbage collector, map order) would
# only be noise.
#
# --shared writes CACHE/gtrdiff/libgtrdiff.so instead (go build -buildmode=c-shared): the
# same reader as a shared library, which `gotrace reduce --diff` loads at run time
# (godiff_go_library_open), so that Go's runtime starts only in the runs that need it.
#
# The program knows its release: minor.go (const goMinor = 27), which godiff.go's
# gtrdiff_go_minor returns.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
name=libgtrdiff flags=-buildmode=c-archive ext=a
case "${1:-}" in
--libfuzzer)
    name=libgtrdiff-libfuzzer
    flags="$flags -tags=libfuzzer -gcflags=internal/trace/...=-d=libfuzzer"
    shift ;;
--shared)
    flags=-buildmode=c-shared ext=so
    shift ;;
esac
cache=${1:-${GTR_ORACLE_CACHE:-$HOME/.cache/gotrace-oracle}}
if [ -n "${GTR_GO_DIFF_GOROOT:-}" ]; then
    goroot=$GTR_GO_DIFF_GOROOT
    if [ ! -x "$goroot/bin/go" ] || [ ! -f "$goroot/src/internal/trace/reader.go" ]; then
        echo "go-diff-archive: no Go toolchain with src/internal/trace in $goroot" >&2
        exit 1
    fi
    v1env=(GTR_GOROOT="$goroot")
else
    oracle=$(GTR_ORACLE_CACHE=$cache bash "$root/ci/oracle-fetch.sh" "$cache") ||
        { echo "go-diff-archive: no Go 1.27 tree (ci/oracle-fetch.sh failed)" >&2; exit 1; }
    goroot=$cache/unpacked/usr/lib/go-1.27
    v1env=(GTR_ORACLE="$oracle")
fi
dir=$cache/gtrdiff
out=$dir/$name.$ext
stamp=$( (cat "$root/godiff/godiff.go" "$root/ci/difftest/oracle.go" \
    "$root/tests/oldgo/oracle/v1-order.patch" "$root/ci/go-internal-build.sh"; echo "$flags${GTR_GO_DIFF_GOROOT:+ $goroot}") |
    sha256sum | cut -c1-16)
if [ -f "$out" ] && [ -f "$dir/$name.h" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$stamp" ]; then
    echo "$out"
    exit 0
fi
mkdir -p "$dir"
printf 'package main\n\nconst goMinor = 27\n' >"$dir/minor.go"
mapfile -t ops < <(env "${v1env[@]}" bash "$root/tests/oldgo/oracle/build.sh" --overlays "$dir/v1order")
[ ${#ops[@]} -eq 2 ] || { echo "go-diff-archive: the old-format order patch does not apply" >&2; exit 1; }
# shellcheck source=ci/go-internal-build.sh
. "$root/ci/go-internal-build.sh"
GO_INTERNAL_BUILD_FLAGS=$flags \
    go_internal_build "$goroot" "$cache" gtrdiff "$out" "$root/ci/difftest/oracle.go" \
    "testdata/cmd/gtrdiff/godiff.go=$root/godiff/godiff.go" \
    "testdata/cmd/gtrdiff/minor.go=$dir/minor.go" "${ops[@]}" ||
    { echo "go-diff-archive: building the archive failed" >&2; exit 1; }
echo "$stamp" >"$out.stamp"
echo "$out"
