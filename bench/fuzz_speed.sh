#!/bin/bash
# fuzz_speed.sh BINDIR SECONDS TARGET...: libFuzzer exec/s of each target on its seeds of at
# most 1 KiB (corpus/fuzz/TARGET, -max_len=1024), with the timeout, rss limit and dictionary
# of fuzz/options; prints wall exec/s and executions per CPU second (user+system), which is
# the fairer figure on a loaded machine. BINDIR: e.g. build-fuzz-clang/bin
# (ci/fuzz-libfuzzer.sh build: ASan+UBSan).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 3 ] || { echo "usage: $0 BINDIR SECONDS TARGET..." >&2; exit 2; }
bindir=$1 secs=$2; shift 2
for t in "$@"; do
  tmp=$(mktemp -d)
  find "$root/corpus/fuzz/$t" -type f -size -1025c -exec cp {} "$tmp"/ \;
  nseeds=$(find "$tmp" -type f | wc -l)
  opts="$root/fuzz/options/fuzz_$t.options"
  to=$(sed -n 's/^timeout *= *//p' "$opts")
  rss=$(sed -n 's/^rss_limit_mb *= *//p' "$opts")
  dict=""
  [ -f "$bindir/fuzz_$t.dict" ] && dict="-dict=$bindir/fuzz_$t.dict"
  log=$tmp.log
  # shellcheck disable=SC2086  # $dict is empty or one flag
  /usr/bin/time -f "cpu %U %S" "$bindir/fuzz_$t" -max_len=1024 -timeout="$to" \
    -rss_limit_mb="$rss" $dict -max_total_time="$secs" -print_final_stats=1 "$tmp" >"$log" 2>&1
  awk -v t="$t" -v n0="$nseeds" '
    /^stat::number_of_executed_units/ {n=$2} /^stat::average_exec_per_sec/ {e=$2}
    /^cpu / {c=$2+$3}
    END { printf "%-14s seeds=%d execs=%d exec/s=%d exec/cpu-s=%d\n", t, n0, n, e, (c>0 ? n/c : 0) }' "$log"
  grep -E "ERROR|fuzz oracle failed" "$log" | head -3
  rm -rf "$tmp" "$log"
done
