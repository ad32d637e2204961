#!/bin/sh
# tracev1_truncate.sh GOTRACE ORACLE TRACE [STEP]: cut TRACE (an old-format trace) at every
# STEP-th byte offset (default 1) and check that `gotrace validate --log-events` ends as
# Go's reader does (gtroracle validate): the same exit status, the same message (gotrace's
# "gotrace: " prefix for Go's "error: ") and the same events, compared with
# tracev1_compare.py (Go orders tied events by map iteration). Prints a summary; exit 1 on
# any mismatch or crash. Where Go's reader panics instead of returning an error, gotrace
# must fail with exit status 1; those cuts are counted apart.
set -u
gotrace=$1 oracle=$2 trace=$3 step=${4:-1}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A gzip-compressed trace is cut after decompression.
gzip -dc "$trace" > "$tmp/full" 2>/dev/null || cp "$trace" "$tmp/full"
trace=$tmp/full
size=$(wc -c < "$trace")
n=0 bad=0 off=0 panics=0
while [ "$off" -le "$size" ]; do
  head -c "$off" "$trace" > "$tmp/cut"
  "$gotrace" validate --log-events "$tmp/cut" > "$tmp/c.out" 2> "$tmp/c.err"; crc=$?
  # Go orders its Ps by map iteration: on a mismatch its reader gets up to 16 more runs.
  try=0
  while :; do
    "$oracle" validate < "$tmp/cut" > "$tmp/o.out" 2> "$tmp/o.err"; orc=$?
    [ "$orc" -eq 3 ] && orc=1   # the oracle's validator failure is gotrace's 1
    sed 's/^error: /gotrace: /' "$tmp/o.err" > "$tmp/o.err2"
    why=""
    if [ "$orc" -eq 2 ] && grep -q '^panic: ' "$tmp/o.err"; then
      # Go panicked (a converted event names a stack the truncated trace never defined:
      # "expected id N in trace.stack table" from Event.String). gotrace must fail cleanly.
      panics=$((panics + 1))
      [ "$crc" -ne 1 ] && why="Go panicked ($(grep -m1 '^panic: ' "$tmp/o.err")), gotrace exit $crc"
      break
    elif [ "$crc" -ne "$orc" ]; then why="exit $crc, Go $orc"
    elif ! cmp -s "$tmp/c.err" "$tmp/o.err2"; then why="message: $(head -c 300 "$tmp/c.err") vs Go $(head -c 300 "$tmp/o.err2")"
    elif ! python3 "$here/tracev1_compare.py" "$tmp/c.out" "$tmp/o.out" > "$tmp/cmp"; then why="events: $(head -c 300 "$tmp/cmp")"
    fi
    try=$((try + 1))
    { [ -z "$why" ] || [ "$try" -gt 16 ]; } && break
  done
  if [ -n "$why" ]; then
    bad=$((bad + 1))
    [ "$bad" -le 10 ] && echo "offset $off: $why"
  fi
  n=$((n + 1))
  off=$((off + step))
done
echo "$(basename "$trace"): $n cuts, $bad mismatches ($panics where Go panics, gotrace fails)"
[ "$bad" -eq 0 ]
