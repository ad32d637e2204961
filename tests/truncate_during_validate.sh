#!/bin/bash
# truncate_during_validate.sh GOTRACE WORKDIR [RUNS]: `gotrace validate` on a plain trace of
# many small batches (from `gotrace sim`: about 2 KiB a batch, so that a cut's last page
# holds the start of a batch more often than not) while this script cuts the file at an offset that is not page-aligned: once
# the file is mapped, validate is stopped (SIGSTOP), the file cut, validate continued, so that
# the cut lands ahead of the reader, the case where the rest of the cut's last page reads as
# zeros (no SIGBUS there). Each run must end either as if nothing happened (the cut came after the last
# read: exit 0, nothing on stderr) or with the documented message
#   gotrace: read FILE: the file was truncated while being read
# and exit status 1, never with what the reader makes of the zeros past the cut. Runs whose
# validate ended before the file was seen mapped are not counted.
set -uo pipefail
gotrace=$1 work=$2 runs=${3:-13}
mkdir -p "$work"
orig=$work/whole.trace
"$gotrace" sim --seed 1 --events 150000 --procs 4 --gens 500 -o "$orig" || exit 1
size=$(stat -c %s "$orig")
cut_runs=0 bad=0
for ((i = 0; i < runs; i++)); do
  f=$work/cut-$i.trace
  cp "$orig" "$f"
  # Not page-aligned: an odd offset in the middle half of the file.
  off=$(( (size / 4 + RANDOM * 32768 + RANDOM) % (size / 2) + size / 4 ))
  off=$(( off | 1 ))
  "$gotrace" validate --quiet "$f" >/dev/null 2>"$work/err-$i" &
  pid=$!
  mapped=0
  for ((t = 0; t < 2000; t++)); do
    if grep -q "$f" "/proc/$pid/maps" 2>/dev/null; then mapped=1; break; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.001
  done
  if [ "$mapped" = 1 ] && kill -STOP "$pid" 2>/dev/null; then
    truncate -s "$off" "$f"
    kill -CONT "$pid"
  else
    mapped=0
  fi
  wait "$pid"
  rc=$?
  err=$(cat "$work/err-$i")
  [ "$mapped" = 1 ] || continue
  cut_runs=$((cut_runs + 1))
  if [ "$rc" = 0 ] && [ -z "$err" ]; then
    continue
  fi
  if [ "$rc" = 1 ] && [ "$err" = "gotrace: read $f: the file was truncated while being read" ]; then
    continue
  fi
  echo "run $i (cut at $off of $size): exit $rc: $err" >&2
  bad=$((bad + 1))
done
rm -f "$work"/cut-*.trace "$orig"
echo "truncate_during_validate: $cut_runs runs cut while mapped, $bad with another outcome"
if [ "$cut_runs" = 0 ]; then
  echo "truncate_during_validate: no run was cut while mapped: nothing was tested" >&2
  exit 1
fi
[ "$bad" = 0 ]
