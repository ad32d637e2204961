#!/bin/bash
# make_sim_seeds.sh: the seeds that come from gsim, the scheduler model (sim/).
#
#   fuzz/tools/make_sim_seeds.sh [GOTRACE]
#
#  sim: choice strings, per version: the configuration bytes (version, procs, generations,
#    events: gsim_config_choose's draws) then fixed pseudo-random choices (sha256 chains);
#    and short ones ending in corruption records (fuzz/fuzz_sim.c): one per operation, and
#    four pairs.
#  reader, raw_roundtrip: `gotrace sim` traces of every version, under the reader's max_len
#    (64 KiB): multi-generation (5 generations), many procs, threads and goroutines (32
#    procs), one proc; their stacks run from 0 to 128 frames.
# GOTRACE defaults to build/bin/gotrace. Deterministic: rerunning gives the same files.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gotrace=${1:-$root/build/bin/gotrace}
out=$root/corpus/fuzz
mkdir -p "$out"/{sim,reader,raw_roundtrip}

byte() { printf "$(printf '\\x%02x' "$1")"; }
vi=0
for v in 1.22 1.23 1.25 1.26; do
  for shape in 0 1 2 3; do
    f=$out/sim/choices-go$v-$shape
    # version index, procs-1, no wide procs, gens-1, then two event bytes. They were written
    # for a count drawn uniformly (2 bytes, little-endian); gsim_config_choose now draws an
    # octave (first byte mod 10) and a count in it, so these seeds make 16, 0, 72 and 4
    # events for shapes 0-3 (the seeds are kept as they are: fuzz/canary/RESULTS.md measured
    # the sim target from them).
    events=$(( 500 + shape * 1000 ))
    { byte $vi; byte $(( shape * 2 )); byte 0; byte $shape; byte $(( events & 255 )); byte $(( events >> 8 )); } > "$f"
    for k in $(seq 1 $(( 8 + 24 * shape ))); do
      printf 'gotrace-sim-seed-%s-%d-%d' "$v" "$shape" "$k" | sha256sum | cut -c1-64 | xxd -r -p >> "$f"
    done
  done
  vi=$(( vi + 1 ))
done

# sim, corruption records (fuzz/fuzz_sim.c): a short choice string (configuration bytes, then
# 32 pseudo-random bytes; the model's choices continue from a stream seeded by them) and one
# record per operation: value (8 bytes), where (4), arg (1), marker 0xF8 + operation.
vi=0
for v in 1.22 1.23 1.25 1.26; do
  for op in 0 1 2 3 4 5 6 7; do
    f=$out/sim/corrupt-go$v-$op
    { byte $vi; byte 2; byte 0; byte 2; byte 88; byte 2; } > "$f"   # 3 procs, 3 gens, 257 events
    printf 'gotrace-sim-corrupt-%s-%d' "$v" "$op" | sha256sum | cut -c1-64 | xxd -r -p >> "$f"
    printf 'gotrace-sim-record-%s-%d' "$v" "$op" | sha256sum | cut -c1-24 | xxd -r -p >> "$f"
    { byte $(( op * 3 )); byte $(( 0xF8 + op )); } >> "$f"
  done
  # and two records: pairs of operations
  for pair in "3 6" "5 2" "1 4" "0 7"; do
    set -- $pair
    f=$out/sim/corrupt2-go$v-$1-$2
    { byte $vi; byte 2; byte 0; byte 2; byte 88; byte 2; } > "$f"
    printf 'gotrace-sim-corrupt2-%s-%d-%d' "$v" "$1" "$2" | sha256sum | cut -c1-64 | xxd -r -p >> "$f"
    for op in "$@"; do
      printf 'gotrace-sim-record2-%s-%d' "$v" "$op" | sha256sum | cut -c1-24 | xxd -r -p >> "$f"
      { byte $(( op * 5 )); byte $(( 0xF8 + op )); } >> "$f"
    done
  done
  vi=$(( vi + 1 ))
done

for v in 1.22 1.23 1.25 1.26; do
  for spec in "multigen:--events 600 --gens 5 --procs 3" "wide:--events 900 --gens 2 --procs 32" \
              "oneproc:--events 700 --gens 3 --procs 1"; do
    name=${spec%%:*} flags=${spec#*:}
    for seed in 1 2; do
      f=$out/reader/sim-go$v-$name-$seed.bin
      "$gotrace" sim --go "$v" --seed "$seed" $flags -o "$f"
      cp "$f" "$out/raw_roundtrip/"
    done
  done
done
echo "sim seeds: $(ls "$out/sim" | wc -l) choice strings, $(ls "$out"/reader/sim-* | wc -l) traces," \
     "largest $(ls -S "$out"/reader/sim-* | head -1 | xargs wc -c | cut -d' ' -f1) bytes"
