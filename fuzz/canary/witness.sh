#!/bin/bash
# fuzz/canary/witness.sh: prove that every canary is reachable (fuzz/canary/README.md).
#
# For each canary, builds libtrace with -DGTR_CANARY=<NAME> (ASan+UBSan, -Werror) and the
# engine-free replay target fuzz_reader_replay (fuzz/fuzz_reader.c + fuzz/regression_driver.c),
# and replays fuzz/canary/witness/<NAME>.*, which must crash. Then replays every witness on a
# build without canaries, which must not crash. Witnesses are kept readable and converted at
# run time: <NAME>.txt is a text-format trace (`gotrace raw text2bytes`), <NAME>.hex is wire
# bytes in hex (`xxd -r -p`) for what the text format cannot express (a cut varint).
#
# usage: fuzz/canary/witness.sh [-c CC] [-o OUT_DIR] [CANARY...]
#   defaults: CC=clang, OUT_DIR=build-canary-witness, every canary.
# Exit status: 0 when every canary crashes on its witness and the clean build on none.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cc=clang out="$src/build-canary-witness"
all="VARINT_OVERREAD LENGTH_OFF_BY_ONE TABLE_OVERFLOW BAD_XREF DEEP_ORDER VARINT_MAGIC"
while getopts "c:o:h" opt; do
  case $opt in
    c) cc=$OPTARG ;;
    o) out=$OPTARG ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
canaries=${*:-$all}
mkdir -p "$out"
out=$(cd "$out" && pwd)
jobs=${JOBS:-2}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:handle_sigill=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

die() { echo "witness.sh: $*" >&2; exit 1; }

# build NAME CANARY TARGETS...: an ASan+UBSan build in $out/NAME.
build() {
  local d="$out/$1" canary=$2
  shift 2
  cmake -S "$src" -B "$d" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGTR_SANITIZE="address;undefined" -DGTR_WERROR=ON -DGTR_BUILD_TESTS=OFF \
    -DGTR_CANARY="$canary" >"$d.configure.log" 2>&1 || die "configure $d: see $d.configure.log"
  cmake --build "$d" -j"$jobs" --target "$@" >"$d.build.log" 2>&1 ||
    die "build $d: see $d.build.log"
}

build none "" fuzz_reader_replay gotrace
gotrace="$out/none/bin/gotrace"

# The witnesses as wire bytes.
wire="$out/wire"
rm -rf "$wire"
mkdir -p "$wire"
for c in $all; do
  found=0
  for f in "$here/witness/$c".*; do
    [ -e "$f" ] || continue
    case $f in
      *.txt) "$gotrace" raw text2bytes "$f" "$wire/$c.trace" || die "text2bytes $f" ;;
      *.hex) xxd -r -p "$f" >"$wire/$c.trace" || die "xxd $f" ;;
      *) die "unknown witness format: $f" ;;
    esac
    found=1
  done
  [ $found = 1 ] || die "no witness for $c in $here/witness"
done

# Where each canary sits: its crash report must name that file and function.
where() {
  case $1 in
    VARINT_OVERREAD) echo "gtr_input_uvarint .*input.c" ;;
    LENGTH_OFF_BY_ONE) echo "add_strings .*generation.c" ;;
    TABLE_OVERFLOW) echo "add_stacks|generation.c:[0-9]+:[0-9]+: runtime error" ;;
    BAD_XREF) echo "validate_stack .*base.c" ;;
    DEEP_ORDER) echo "advance_go_unblock .*order.c" ;;
    VARINT_MAGIC) echo "gtr__ordering_advance .*order.c" ;;
  esac
}

fail=0
printf '%-18s %-8s %s\n' canary result detail
for c in $canaries; do
  build "$c" "$c" fuzz_reader_replay
  log="$out/$c.replay.log"
  "$out/$c/bin/fuzz_reader_replay" "$wire/$c.trace" >"$log" 2>&1
  rc=$?
  # The sanitizer's or the trap's first line names the bug.
  what=$(grep -m1 -oE 'ERROR: [A-Za-z]+Sanitizer: [a-zA-Z-]+|runtime error: .*' "$log")
  if [ $rc -ne 0 ] && grep -qE "$(where "$c")" "$log"; then
    printf '%-18s %-8s %s (exit %d)\n' "$c" crash "${what:-?}" "$rc"
  else
    printf '%-18s %-8s %s\n' "$c" MISSED "no crash at the canary (exit $rc): see $log"
    fail=1
  fi
done

# Without canaries, no witness crashes (the reader rejects or accepts them cleanly).
log="$out/none.replay.log"
if "$out/none/bin/fuzz_reader_replay" "$wire" >"$log" 2>&1; then
  printf '%-18s %-8s %s\n' "(no canary)" ok "$(tail -n1 "$log")"
else
  printf '%-18s %-8s %s\n' "(no canary)" CRASH "see $log"
  fail=1
fi
exit $fail
