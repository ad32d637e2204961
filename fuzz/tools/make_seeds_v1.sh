#!/bin/bash
# make_seeds_v1.sh: old-format (go 1.11/1.19/1.21) seeds for the reader fuzz target, from the
# small traces of corpus/old/, as corpus/fuzz/reader/v1-*: Go's user_task_region and
# stress_start_stop traces of each version and http_1_21, our go 1.19 and go 1.21
# annotations and cpuprofile traces (plain wire bytes; user_task_region_1_21 also gzip), a
# few cuts of one (inside the header, the first batch, the string table), and the go 1.19
# body under each header Go 1.27.3 rejects (go 1.5-1.10, 1.12-1.18, 1.20: Go's "unsupported
# trace version" paths). Go's old-header FuzzReader crasher (go-4055b17cae1a3443) is already
# copied by make_seeds.sh. Deterministic: running it again rewrites the same files.
#
#   fuzz/tools/make_seeds_v1.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
old=$root/corpus/old
out=$root/corpus/fuzz/reader
mkdir -p "$out"
rm -f "$out"/v1-*

for n in tracev1-user_task_region_1_11_good tracev1-user_task_region_1_19_good \
         tracev1-user_task_region_1_21_good tracev1-stress_start_stop_1_11_good \
         tracev1-stress_start_stop_1_19_good tracev1-stress_start_stop_1_21_good \
         tracev1-http_1_21_good go1.19-annotations go1.21-annotations go1.19-cpuprofile \
         go1.21-cpuprofile; do
    gzip -dc "$old/$n.trace.gz" >"$out/v1-${n#tracev1-}.bin"
done
cp "$old/tracev1-user_task_region_1_21_good.trace.gz" "$out/v1-user_task_region_1_21_good.trace.gz"
for k in 15 16 17 40 200 700; do
    head -c "$k" "$out/v1-user_task_region_1_19_good.bin" >"$out/v1-user_task_region_1_19_good.cut$k.bin"
done
for v in 5 6 7 8 9 10 12 13 14 15 16 17 18 20; do
    { printf 'go 1.%d trace' "$v"; head -c $((16 - 11 - ${#v})) /dev/zero
      tail -c +17 "$out/v1-user_task_region_1_19_good.bin"; } >"$out/v1-header-1.$v.bin"
done
echo "v1 seeds: $(ls "$out"/v1-* | wc -l) files, $(cat "$out"/v1-* | wc -c) bytes"
