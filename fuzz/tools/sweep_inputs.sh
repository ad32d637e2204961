#!/bin/bash
# sweep_inputs.sh GOTRACE ROOT OUT: gathers, under OUT, every real trace and every fixture of
# the repository ROOT in the forms the fuzz targets read, so that each target's replay driver
# can be run over all of them, not only over its own seeds (tests/fuzz.cmake, ci/fuzz-ci.sh):
#   OUT/real-gz/      corpus/real/*.trace.gz as they are (the targets gunzip them);
#   OUT/real/         the same, gunzipped (those over the targets' 1 MiB input cap are
#                     skipped by them, as a fuzzer never hands them such an input);
#   OUT/real-text/    those in the text format (`gotrace raw bytes2text`), the ones of at
#                     most 1 MiB (the targets' cap: a larger text is not kept);
#   OUT/fixture-wire/ each corpus/upstream and corpus/tests fixture's trace as wire bytes
#                     (`gotrace raw text2bytes`, the conversion of Go's testtrace.ParseFile);
#   OUT/fixture-text/ the same traces in the text format (`gotrace raw bytes2text` of those
#                     wire bytes: the text target's shape);
#   OUT/fixture-test/ the .test files themselves (the txtar and testgen targets' shape).
# Prints the number of inputs of each kind. Exit 1 when a file cannot be converted.
set -euo pipefail
gotrace=$1 root=$2 out=$3
rm -rf "$out"
mkdir -p "$out/real-gz" "$out/real" "$out/real-text" "$out/fixture-wire" "$out/fixture-text" \
  "$out/fixture-test"
for f in "$root"/corpus/real/*.trace.gz; do
  b=$(basename "$f" .gz)
  cp "$f" "$out/real-gz/"
  gzip -dc "$f" >"$out/real/$b"
  "$gotrace" raw bytes2text --quiet "$out/real/$b" "$out/real-text/$b.txt"
  if [ "$(stat -c %s "$out/real-text/$b.txt")" -gt 1048576 ]; then
    rm "$out/real-text/$b.txt"
  fi
done
for d in upstream tests; do
  for f in "$root/corpus/$d"/*.test; do
    b=$d-$(basename "$f" .test)
    cp "$f" "$out/fixture-test/$b.test"
    "$gotrace" raw text2bytes --quiet "$f" "$out/fixture-wire/$b.trace"
    "$gotrace" raw bytes2text --quiet "$out/fixture-wire/$b.trace" "$out/fixture-text/$b.txt"
  done
done
for k in real-gz real real-text fixture-wire fixture-text fixture-test; do
  echo "sweep_inputs: $k: $(ls "$out/$k" | wc -l) inputs"
done
