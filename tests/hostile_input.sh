#!/bin/bash
# hostile_input.sh GOTRACE WORKDIR: every mode on inputs that are endless, explode or are huge
# must end with exit status 1 and a clear message, in bounded time and memory: under a
# 512 MiB address-space limit (ulimit -v 524288; skipped for a sanitizer build, whose shadow
# memory needs more address space than that) and a 20 s timeout each. The inputs:
#   /dev/zero, by path and on stdin;
#   a gzip bomb (100 MiB of zeros in about 100 KiB, made here: more than a fixture may be),
#   by path and on stdin;
#   a 1 GiB sparse file, by path and on stdin, also named .test (a fixture is read whole:
#   "a .test that is really a huge file fails fast");
#   a 1 GiB sparse file with a bad header ("go 1.99 trace"), and a stream of zeros after that
#   header: rejected on its 16 bytes, never read whole;
#   a stream that sends a bad header and stalls (a FIFO, by path and on stdin): rejected on
#   its 16 bytes at once;
#   a 1 GiB sparse file and a stream with a valid header and zeros after it: stats on a
#   stream and reduce hold a trace whole, up to their documented limit (256 MiB).
set -uo pipefail
gotrace=$1 work=$2
mkdir -p "$work"
bomb=$work/bomb.gz sparse=$work/sparse.bin sparse_test=$work/sparse.test
badhdr=$work/badhdr.bin goodhdr=$work/goodhdr.bin
head -c 100M /dev/zero | gzip -1 >"$bomb"
rm -f "$sparse" "$sparse_test" "$badhdr" "$goodhdr"
truncate -s 1G "$sparse" "$sparse_test"
printf 'go 1.99 trace\0\0\0' >"$badhdr" && truncate -s 1G "$badhdr"
printf 'go 1.22 trace\0\0\0' >"$goodhdr" && truncate -s 1G "$goodhdr"

limit="ulimit -v 524288;"
if ! (ulimit -v 524288 && "$gotrace" --version >/dev/null 2>&1); then
  echo "hostile_input: gotrace does not start under ulimit -v 524288 (a sanitizer build?):" \
       "running without the memory limit"
  limit=""
fi

not_trace='^gotrace: bad file format: not a Go execution trace\?$'
bad_version='^gotrace: unknown or unsupported trace version go 1\.99$'
too_long='^gotrace: bufio\.Scanner: token too long$'
fixture_limit='input exceeds the limit of 67108864 bytes$'
trace_limit='input exceeds the limit of 268435456 bytes$'
runs=0 failed=0

# expect MODE-ARGS INPUT PATTERN: run `gotrace MODE-ARGS INPUT` ("<FILE" for stdin, "|CMD" for
# a pipe from CMD) and check exit status 1 and the last line of its output (stdout and stderr)
# against the extended regexp PATTERN.
expect() {
  local args=$1 input=$2 pattern=$3 cmd
  case $input in
    "<"*) cmd="$gotrace $args - <${input#<}" ;;
    "|"*) cmd="${input#|} | $gotrace $args -" ;;
    *) cmd="$gotrace $args $input" ;;
  esac
  runs=$((runs + 1))
  local out rc
  out=$(bash -c "$limit exec timeout -s KILL 20 bash -c '$cmd'" 2>&1 </dev/null)
  rc=$?
  local last=${out##*$'\n'}
  [ "${args%% *}" = check ] && last=$(printf '%s\n' "$out" | grep '^FAIL' | tail -1)
  if [ "$rc" != 1 ] || ! printf '%s\n' "$last" | grep -Eq -- "$pattern"; then
    echo "FAILED: gotrace $args $input: exit $rc, output:" >&2
    printf '%s\n' "$out" | tail -3 >&2
    failed=$((failed + 1))
  fi
}

reduce="reduce --no-oracle --out $work/reduced.test"
for input in /dev/zero "</dev/zero" "$bomb" "<$bomb" "$sparse" "<$sparse"; do
  expect validate "$input" "$not_trace"
  expect stats "$input" "$not_trace"
  expect "raw bytes2text" "$input" "$not_trace"
  expect "raw text2bytes" "$input" "$too_long"
  expect check "$input" "$fixture_limit"
  expect "$reduce" "$input" "no trace to reduce: bad file format: not a Go execution trace\?$"
done
# A .test is read whole, at most 64 MiB: a huge one fails (before it is read, for check).
for mode in validate stats "raw text2bytes" check "$reduce"; do
  expect "$mode" "$sparse_test" "read $sparse_test: $fixture_limit"
done
# A bad header: its 16 bytes decide, whatever follows (an endless stream, 1 GiB).
for input in "$badhdr" "<$badhdr" "|{ printf \"go 1.99 trace\\0\\0\\0\"; cat /dev/zero; }"; do
  expect validate "$input" "$bad_version"
  expect stats "$input" "$bad_version"
  expect "raw bytes2text" "$input" "$bad_version"
  expect "$reduce" "$input" "no trace to reduce: unknown or unsupported trace version go 1\.99$"
done
# A valid header, then zeros: the readers fail at the first batch; what holds the trace
# whole stops at its limit.
expect validate "$goodhdr" '^gotrace: .*0'
expect stats "$goodhdr" '^gotrace: invalid event type: 0$'
expect stats "<$goodhdr" "^gotrace: read stdin: $trace_limit"
expect "$reduce" "$goodhdr" "^gotrace: reduce: read $goodhdr: $trace_limit"
expect "$reduce" "<$goodhdr" "^gotrace: reduce: read stdin: $trace_limit"

# A stream that sends a bad header and then stalls, its writer holding it open: the header's
# 16 bytes decide at once, by path (a FIFO) and on stdin, in every mode that reads a wire
# trace (text2bytes and check read text, which a line or a fixture decides, as in Go).
fifo=$work/stall.fifo
stalled() { # stalled MODE-ARGS STDIN(0|1) HEADER PATTERN
  local args=$1 stdin=$2 header=$3 pattern=$4 out rc writer
  rm -f "$fifo" && mkfifo "$fifo"
  ( printf "$header"; exec sleep 60 ) >"$fifo" &
  writer=$!
  if [ "$stdin" = 1 ]; then
    out=$(timeout -s KILL 10 $gotrace $args - <"$fifo" 2>&1); rc=$?
  else
    out=$(timeout -s KILL 10 $gotrace $args "$fifo" 2>&1); rc=$?
  fi
  kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null
  runs=$((runs + 1))
  if [ "$rc" != 1 ] || ! printf '%s\n' "${out##*$'\n'}" | grep -Eq -- "$pattern"; then
    echo "FAILED: a stalled stream ($([ "$stdin" = 1 ] && echo on stdin || echo by its FIFO path)) to gotrace $args: exit $rc, output:" >&2
    printf '%s\n' "$out" | tail -3 >&2
    failed=$((failed + 1))
  fi
}
for stdin in 0 1; do
  for h in 'go 1.99 trace\0\0\0' '\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0'; do
    case $h in go*) p=$bad_version r='unknown or unsupported trace version go 1\.99$' ;;
               *) p=$not_trace r='bad file format: not a Go execution trace\?$' ;; esac
    stalled validate $stdin "$h" "$p"
    stalled stats $stdin "$h" "$p"
    stalled "raw bytes2text" $stdin "$h" "$p"
    stalled "$reduce" $stdin "$h" "no trace to reduce: $r"
  done
done
rm -f "$fifo"

rm -f "$bomb" "$sparse" "$sparse_test" "$badhdr" "$goodhdr" "$work/reduced.test"
echo "hostile_input: $runs runs, $failed failed"
[ "$failed" = 0 ]
