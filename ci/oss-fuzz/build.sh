#!/bin/bash -eu
# Copyright 2026 The gotrace Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
#
# (These OSS-Fuzz integration files are under Apache-2.0, as google/oss-fuzz requires of
# the files in its projects/ folder; the rest of gotrace is BSD-3-Clause.)
################################################################################
# OSS-Fuzz / ClusterFuzzLite build script for gotrace (the same file serves both:
# .clusterfuzzlite/build.sh runs this one).
#
# Runs inside the base-builder image with $CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE
# $SANITIZER $SRC $WORK $OUT set. Builds every fuzz target with the project's CMake
# (GTR_BUILD_FUZZERS=ON, GTR_FUZZ_ENGINE=$LIB_FUZZING_ENGINE: linked with $CXX), links zlib and
# PCRE2 statically (built from $SRC/zlib and $SRC/pcre2 with $CC $CFLAGS when the Dockerfile
# cloned them, which MemorySanitizer needs; otherwise the system's static libraries), and
# puts into $OUT, per target: the binary fuzz_<t>, fuzz_<t>.dict (generated from the spec
# table), fuzz_<t>.options and fuzz_<t>_seed_corpus.zip (its seeds plus every regression
# input).
#
# fuzz_diff and fuzz_diff_sim (gotrace against Go 1.27.3's own trace reader in one process,
# fuzz/README.md) are built too where the image has Go 1.27.3's tree, toolchain and source
# (the Dockerfile, FROM base-builder-go, puts one in /root/go1.27.3): $GTR_GO_DIFF_GOROOT, else
# /root/go1.27.3, else the GOROOT of the `go` on PATH when that is Go 1.27.3. Go's reader is
# linked in as the C archive of ci/go-diff-archive.sh, its Go code built with libFuzzer's
# coverage counters (-d=libfuzzer, as OSS-Fuzz builds Go fuzzers) when the engine is
# libFuzzer, plain for honggfuzz and Centipede (which exec their targets; untested here).
# They are left out under MemorySanitizer (the Go runtime is not instrumented) and for AFL++
# (its fork server forks after the Go runtime has started its threads). They take the
# reader's and the sim target's options, dictionary and seeds. Without the tree, or when the
# archive does not build, they are left out with a message and the other targets build as
# before: Go never fails the build.
src=${GOTRACE_SRC:-$SRC/gotrace}
deps=$WORK/deps
build=$WORK/build
targets=$(awk '!/^#/ && NF { printf "%s ", $1 }' "$src/fuzz/targets")
mkdir -p "$deps/lib/pkgconfig" "$deps/include"

# --- dependencies, static -----------------------------------------------------------------
if [ -d "$SRC/zlib" ]; then
  rm -rf "$WORK/zlib"; cp -r "$SRC/zlib" "$WORK/zlib"
  (cd "$WORK/zlib" && ./configure --static --prefix="$deps" >/dev/null && make -j"$(nproc)" install >/dev/null)
else
  cp /usr/lib/x86_64-linux-gnu/libz.a "$deps/lib/"
  cp /usr/include/zlib.h /usr/include/zconf.h "$deps/include/"
fi
if [ -d "$SRC/pcre2" ]; then
  cmake -S "$SRC/pcre2" -B "$WORK/pcre2" -DCMAKE_INSTALL_PREFIX="$deps" -DCMAKE_BUILD_TYPE=None \
    -DBUILD_SHARED_LIBS=OFF -DPCRE2_BUILD_TESTS=OFF -DPCRE2_BUILD_PCRE2GREP=OFF \
    -DPCRE2_SUPPORT_JIT=OFF -DPCRE2_SUPPORT_LIBBZ2=OFF -DPCRE2_SUPPORT_LIBZ=OFF \
    -DPCRE2_SUPPORT_LIBREADLINE=OFF -DPCRE2_SUPPORT_LIBEDIT=OFF >/dev/null
  cmake --build "$WORK/pcre2" -j"$(nproc)" >/dev/null
  cmake --install "$WORK/pcre2" >/dev/null
else
  cp /usr/lib/x86_64-linux-gnu/libpcre2-8.a "$deps/lib/"
  cp /usr/include/pcre2.h "$deps/include/"
  cat > "$deps/lib/pkgconfig/libpcre2-8.pc" <<PC
prefix=$deps
Name: libpcre2-8
Description: PCRE2 (static copy)
Version: 10
Libs: -L\${prefix}/lib -lpcre2-8
Cflags: -I\${prefix}/include
PC
fi
# Only static archives in $deps/lib: pkg-config's -L dir then resolves to libpcre2-8.a.
rm -f "$deps"/lib/*.so*

# --- Go's reader for fuzz_diff and fuzz_diff_sim (see above) --------------------------------
go_archive=""
go_why=""
if [ "${SANITIZER:-}" = memory ]; then
  go_why="MemorySanitizer (the Go runtime is not instrumented)"
elif [ "${FUZZING_ENGINE:-}" = afl ]; then
  # AFL++'s fork server forks the target after the Go runtime has started its threads, and
  # the child has none of them: measured, 2 false hangs in 3,129 executions (20 s), each
  # input reading in 0.03 s when run alone.
  go_why="AFL++ (its fork server leaves the Go runtime without its threads: false hangs)"
else
  goroot=${GTR_GO_DIFF_GOROOT:-}
  if [ -z "$goroot" ] && [ -d /root/go1.27.3 ]; then
    goroot=/root/go1.27.3
  fi
  if [ -z "$goroot" ] && command -v go >/dev/null; then
    goroot=$(GOTOOLCHAIN=local go env GOROOT 2>/dev/null || true)
  fi
  if [ -z "$goroot" ]; then
    go_why="no Go toolchain (no \$GTR_GO_DIFF_GOROOT, no /root/go1.27.3, no go on PATH)"
  elif [ ! -x "$goroot/bin/go" ] || [ ! -f "$goroot/src/internal/trace/reader.go" ]; then
    go_why="$goroot is no Go tree with src/internal/trace"
  elif go_version=$(GOROOT=$goroot GOTOOLCHAIN=local "$goroot/bin/go" env GOVERSION 2>/dev/null || true)
       [ "$go_version" != go1.27.3 ]; then
    # Go 1.27.3 exactly: fuzz_diff holds gotrace to that release's messages, byte for byte.
    go_why="$goroot is ${go_version:-an unknown Go}, not go1.27.3"
  else
    # Instrumented for libFuzzer's fuzzing builds only: its counters need libFuzzer's runtime,
    # and a coverage or introspector build has no use for them.
    go_flag=""
    if [ "${FUZZING_ENGINE:-}" = libfuzzer ] && [ "${SANITIZER:-}" != coverage ] &&
       [ "${SANITIZER:-}" != introspector ]; then
      go_flag=--libfuzzer
    fi
    # cgo's few lines of C (the exported function's wrapper) with the plain clang: an
    # engine's compiler wrapper in $CC has no business there.
    if go_archive=$(CC=$(command -v clang || echo "${CC:-cc}") GTR_GO_DIFF_GOROOT=$goroot \
                      bash "$src/ci/go-diff-archive.sh" $go_flag "$WORK/gotrace-go" \
                      2>"$WORK/go-diff-archive.log"); then
      echo "build.sh: fuzz_diff: Go's reader from $go_archive${go_flag:+ (libFuzzer coverage)}"
    else
      tail -n 20 "$WORK/go-diff-archive.log" >&2
      go_archive=""
      go_why="Go's archive did not build (above)"
    fi
  fi
fi
[ -n "$go_archive" ] || echo "build.sh: fuzz_diff and fuzz_diff_sim left out: $go_why"

# --- gotrace fuzzers ------------------------------------------------------------------------
# CMAKE_BUILD_TYPE=None: no flags beyond $CFLAGS. GTR_SANITIZE stays empty: $CFLAGS has them.
# GTR_GO_DIFF_ARCHIVE is always set, so that CMake never picks up an archive of its own
# (GTR_ORACLE_CACHE points into $WORK for the same reason).
GTR_ORACLE_CACHE="$WORK/gotrace-go" PKG_CONFIG_PATH="$deps/lib/pkgconfig" cmake -S "$src" -B "$build" \
  -DCMAKE_BUILD_TYPE=None -DGTR_BUILD_TESTS=OFF -DGTR_BUILD_FUZZERS=ON \
  -DGTR_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" -DGTR_SANITIZE= \
  -DGTR_GO_DIFF_ARCHIVE="$go_archive" -DGTR_GO_DIFF_ARCHIVE_LIBFUZZER= \
  -DZLIB_ROOT="$deps" -DZLIB_USE_STATIC_LIBS=ON -DCMAKE_PREFIX_PATH="$deps"
# NAME:BASE pairs: the target, and the one whose options, dictionary and seeds it takes.
list=""
pairs=""
for t in $targets; do list="$list fuzz_$t"; pairs="$pairs $t:$t"; done
if [ -n "$go_archive" ]; then
  list="$list fuzz_diff"; pairs="$pairs diff:reader"
  case " $targets " in
    *" sim "*) list="$list fuzz_diff_sim"; pairs="$pairs diff_sim:sim" ;;
  esac
fi
cmake --build "$build" -j"$(nproc)" --target $list fuzz_dicts

for p in $pairs; do
  t=${p%%:*} b=${p#*:}
  cp "$build/bin/fuzz_$t" "$OUT/"
  [ -f "$build/bin/fuzz_$b.dict" ] && cp "$build/bin/fuzz_$b.dict" "$OUT/fuzz_$t.dict"
  cp "$src/fuzz/options/fuzz_$b.options" "$OUT/fuzz_$t.options"
  rm -f "$OUT/fuzz_${t}_seed_corpus.zip"
  # Flat: one input per member; regression inputs are prefixed with their folder's name.
  (cd "$src/corpus/fuzz/$b" && zip -q "$OUT/fuzz_${t}_seed_corpus.zip" ./*)
  (cd "$src/fuzz/regressions" && for d in */; do
     for f in "$d"*; do [ -f "$f" ] && cp "$f" "$WORK/reg-${d%/}-$(basename "$f")"; done
   done)
  zip -jq "$OUT/fuzz_${t}_seed_corpus.zip" "$WORK"/reg-*
  rm -f "$WORK"/reg-*
done
