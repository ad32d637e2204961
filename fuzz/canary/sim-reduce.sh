#!/bin/bash
# fuzz/canary/sim-reduce.sh: turn a find of the `sim` mode into a fixture (fuzz/canary/README.md).
#
# A find of fuzz/fuzz_sim.c is a choice string, not a trace. For each CRASH (a file
# run.sh kept as OUT_DIR/CANARY/sim.N.crash), this
#   1. replays it on the canary's sim binary with GTR_SIM_TRACE_OUT set: the trace the model
#      wrote (corrupted, when the input carries corruption records) is saved, and the replay
#      must crash in the canary's function (the patch's Crash-Site);
#   2. runs the canary build's `gotrace reduce` on that trace (with Go's golden runner as
#      the oracle when ci/oracle-fetch.sh built it), which writes a .test fixture (or wire
#      bytes, when the text format cannot hold the trace);
#   3. requires the fixture to pass the clean build's `gotrace check` (and Go's golden
#      runner) and still to crash the canary build's `gotrace check`.
#
# usage: fuzz/canary/sim-reduce.sh [-o OUT_DIR] [-g CLEAN_GOTRACE] CANARY CRASH...
#   OUT_DIR: run.sh's (default build-canary); the canary's gotrace is built in
#   OUT_DIR/CANARY.build. CLEAN_GOTRACE: a gotrace without canaries (default
#   build/bin/gotrace). Results go next to each CRASH (.trace, .test, .reduce.log).
# Exit status 0 when every find became a fixture that holds.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out="$src/build-canary" clean="$src/build/bin/gotrace"
while getopts "o:g:h" opt; do
  case $opt in
    o) out=$OPTARG ;;
    g) clean=$OPTARG ;;
    *) sed -n '2,20p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '2,20p' "$0"; exit 2; }
c=$1
shift
die() { echo "sim-reduce.sh: $*" >&2; exit 1; }
[ -x "$out/$c/sim" ] || die "no $out/$c/sim (run.sh -o $out $c builds it)"
[ -x "$clean" ] || die "no clean gotrace at $clean (-g)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:handle_sigill=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cmake --build "$out/$c.build" -j"${JOBS:-2}" --target gotrace >"$out/$c.build.gotrace.log" 2>&1 ||
  die "building $c's gotrace: see $out/$c.build.gotrace.log"
cgt="$out/$c.build/bin/gotrace"
site=$("$here/tree.sh" --site "$c")
oracle=${GTR_ORACLE:-$HOME/.cache/gotrace-oracle/gtroracle}
[ -x "$oracle" ] || oracle=""
fail=0
for crash in "$@"; do
  base=${crash%.crash}
  why=""
  rm -f "$base.trace" "$base.test"
  GTR_SIM_TRACE_OUT="$base.trace" "$out/$c/sim" "$crash" >"$base.replay.log" 2>&1
  if ! grep -qE "$site" "$base.replay.log"; then
    why="the replay does not crash in $c's function (see $base.replay.log)"
  elif [ ! -s "$base.trace" ]; then
    why="the replay wrote no trace"
  else
    "$cgt" reduce "$base.trace" --out "$base.test" ${oracle:+--oracle "$oracle"} \
      >"$base.reduce.log" 2>&1 || why="reduce failed: $(tail -n1 "$base.reduce.log")"
    if [ -z "$why" ] && [ -f "$base.test" ]; then
      if ! "$clean" check "$base.test" >/dev/null 2>&1; then
        why="the fixture fails the clean build's check: $("$clean" check "$base.test" 2>&1 | head -n1)"
      elif [ -n "$oracle" ] && ! "$oracle" check "$base.test" >"$base.gocheck.log" 2>&1; then
        why="Go's golden runner rejects the fixture: $(head -n1 "$base.gocheck.log")"
      elif "$cgt" check "$base.test" >/dev/null 2>&1; then
        why="the fixture no longer crashes the canary build"
      fi
    elif [ -z "$why" ]; then
      why="reduce wrote no .test fixture (see $base.reduce.log)"
    fi
  fi
  if [ -n "$why" ]; then
    printf '%-24s %-40s FAIL %s\n' "$c" "$(basename "$crash")" "$why"
    fail=1
  else
    printf '%-24s %-40s ok   trace %s bytes -> fixture %s bytes (%s)\n' "$c" "$(basename "$crash")" \
      "$(wc -c <"$base.trace")" "$(wc -c <"$base.test")" \
      "$(grep -m1 "kept the input" "$base.reduce.log" | sed 's/^gotrace: reduce: //')"
  fi
done
exit $fail
