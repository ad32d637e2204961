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

# --- gotrace fuzzers ------------------------------------------------------------------------
# CMAKE_BUILD_TYPE=None: no flags beyond $CFLAGS. GTR_SANITIZE stays empty: $CFLAGS has them.
PKG_CONFIG_PATH="$deps/lib/pkgconfig" cmake -S "$src" -B "$build" \
  -DCMAKE_BUILD_TYPE=None -DGTR_BUILD_TESTS=OFF -DGTR_BUILD_FUZZERS=ON \
  -DGTR_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" -DGTR_SANITIZE= \
  -DZLIB_ROOT="$deps" -DZLIB_USE_STATIC_LIBS=ON -DCMAKE_PREFIX_PATH="$deps"
list=""
for t in $targets; do list="$list fuzz_$t"; done
cmake --build "$build" -j"$(nproc)" --target $list fuzz_dicts

for t in $targets; do
  cp "$build/bin/fuzz_$t" "$OUT/"
  [ -f "$build/bin/fuzz_$t.dict" ] && cp "$build/bin/fuzz_$t.dict" "$OUT/"
  cp "$src/fuzz/options/fuzz_$t.options" "$OUT/"
  rm -f "$OUT/fuzz_${t}_seed_corpus.zip"
  # Flat: one input per member; regression inputs are prefixed with their folder's name.
  (cd "$src/corpus/fuzz/$t" && zip -q "$OUT/fuzz_${t}_seed_corpus.zip" ./*)
  (cd "$src/fuzz/regressions" && for d in */; do
     for f in "$d"*; do [ -f "$f" ] && cp "$f" "$WORK/reg-${d%/}-$(basename "$f")"; done
   done)
  zip -jq "$OUT/fuzz_${t}_seed_corpus.zip" "$WORK"/reg-*
  rm -f "$WORK"/reg-*
done
