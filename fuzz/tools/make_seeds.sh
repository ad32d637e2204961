#!/bin/bash
# make_seeds.sh: (re)builds the raw seed material of corpus/fuzz/<target>/ from the fixture
# corpus, before minimization (ci/fuzz-libfuzzer.sh merge does that with -merge=1).
#
#   fuzz/tools/make_seeds.sh [GOTRACE]
#
# GOTRACE is the gotrace binary used for `gotrace raw text2bytes|bytes2text` (default
# build/bin/gotrace; falls back to Go's own reader, the oracle, whose output is identical).
#  reader, raw_roundtrip: wire bytes of every corpus/upstream and corpus/tests fixture, the
#    small real traces (one or more per Go release, plain, one also gzip), Go's FuzzReader
#    crashers (fuzz/regressions/reader/go-*).
#  text: the trace section of every fixture, bytes2text of the smallest real traces.
#  txtar_check: every fixture as is.
#  testgen: DSL programs: every version in both modes, plus a few fixed choice strings.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gotrace=${1:-$root/build/bin/gotrace}
oracle=/root/.cache/gotrace-oracle/gtroracle
out=$root/corpus/fuzz

t2b() {   # t2b TEXTFILE OUT
  if [ -x "$gotrace" ]; then "$gotrace" raw text2bytes "$1" "$2"; else "$oracle" text2bytes < "$1" > "$2"; fi
}
b2t() {   # b2t WIREFILE OUT
  if [ -x "$gotrace" ]; then "$gotrace" raw bytes2text "$1" "$2"; else "$oracle" bytes2text < "$1" > "$2"; fi
}
trace_section() {   # the lines after "-- trace --"
  awk 'f{print} /^-- trace --$/{f=1}' "$1"
}

# Small real traces: Go 1.22, 1.23, 1.25 and 1.27 (go 1.26 format), AllocFree, coroutines.
real_small="go1.22-testprog-annotations-stress go1.23-testprog-annotations-stress
go1.25-testprog-annotations-stress testprog-annotations testprog-wait-on-pipe
testprog-many-start-stop testprog-annotations-stress.allocfree testprog-iter-pull testprog-stacks"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"/{reader,raw_roundtrip,text,txtar_check,testgen}

for f in "$root"/corpus/upstream/*.test "$root"/corpus/tests/*.test; do
  [ -e "$f" ] || continue
  name=$(basename "$f" .test)
  cp "$f" "$out/txtar_check/$name.test"
  trace_section "$f" > "$out/text/$name.txt"
  t2b "$out/text/$name.txt" "$tmp/$name.bin"
  cp "$tmp/$name.bin" "$out/reader/$name.bin"
  cp "$tmp/$name.bin" "$out/raw_roundtrip/$name.bin"
done
for n in $real_small; do
  gzip -dc "$root/corpus/real/$n.trace.gz" > "$tmp/$n.bin"
  cp "$tmp/$n.bin" "$out/reader/real-$n.bin"
  cp "$tmp/$n.bin" "$out/raw_roundtrip/real-$n.bin"
done
cp "$root/corpus/real/testprog-annotations.trace.gz" "$out/reader/real-testprog-annotations.trace.gz"
cp "$root/corpus/real/testprog-annotations.trace.gz" "$out/raw_roundtrip/real-testprog-annotations.trace.gz"
for n in testprog-annotations testprog-wait-on-pipe go1.22-testprog-annotations-stress; do
  b2t "$tmp/$n.bin" "$out/text/real-$n.txt"
done
for f in "$root"/fuzz/regressions/reader/go-*; do
  cp "$f" "$out/reader/"
  cp "$f" "$out/raw_roundtrip/"
done

# testgen: head byte = mode (bit 0: legal) | version index << 1, then choices.
for head in 0 1 2 3 4 5 6 7; do
  printf "$(printf '\\x%02x' $head)" > "$out/testgen/mode-$head"
  # A longer program: fixed pseudo-random choices (deterministic, from sha256 of the name).
  printf "$(printf '\\x%02x' $head)" > "$out/testgen/prog-$head"
  printf 'gotrace-testgen-seed-%d' "$head" | sha256sum | cut -c1-64 | xxd -r -p >> "$out/testgen/prog-$head"
  printf 'gotrace-testgen-seed-%d-b' "$head" | sha256sum | cut -c1-64 | xxd -r -p >> "$out/testgen/prog-$head"
done
# sim, and model traces for reader and raw_roundtrip: the scheduler model's own script.
bash "$root/fuzz/tools/make_sim_seeds.sh" "$gotrace"
echo "seeds: $(find "$out" -type f | wc -l) files, $(du -sh "$out" | cut -f1)"
