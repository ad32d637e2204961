#!/bin/bash
# fuzz/canary/witness.sh: prove that every canary is reachable (fuzz/canary/README.md).
#
# For each canary, copies the tree with patches/<NAME>.patch applied (tree.sh: this also
# proves every patch still applies), builds it (ASan+UBSan, -Werror) and the
# engine-free replay target fuzz_reader_replay (fuzz/fuzz_reader.c + fuzz/regression_driver.c),
# and replays fuzz/canary/witness/<NAME>.*, which must crash. A canary whose patch names
# another target (`Target: diff`: a divergence from Go that crashes nothing, which only
# fuzz_diff's oracle sees) is replayed on that target's replay build instead (fuzz_diff_replay
# needs Go's archive, ci/go-diff-archive.sh: without it such a canary is skipped with a
# message). Then replays every witness on a build without canaries, which must not crash (and
# on its fuzz_diff_replay, when there is one: libtrace and Go agree on every witness). Witnesses are kept readable and converted at
# run time: <NAME>.txt is a text-format trace (`gotrace raw text2bytes`), <NAME>.hex is wire
# bytes in hex (`xxd -r -p`) for what the text format cannot express (a cut varint).
#
# usage: fuzz/canary/witness.sh [-c CC] [-o OUT_DIR] [CANARY...]
#   defaults: CC=clang, OUT_DIR=build-canary-witness, every canary.
# Then (CANARY_REDUCE=1, the default) the crash-to-fixture loop on each: the canary build's
# `gotrace reduce` shrinks the witness; a fixture must pass the clean build's `gotrace check`
# (and Go's golden runner, when ci/oracle-fetch.sh has built the oracle) and still crash the
# canary build's `gotrace check`; wire bytes (what the text format cannot hold) must still
# crash the canary's replay target. A divergence canary (Target: diff) goes through
# `gotrace reduce --diff` instead (issue 43; Go's reader in process, the shared library of
# ci/go-diff-archive.sh --shared): its witness, padded with a batch of unused
# strings so that there is something to shrink, is reduced by the canary build; the trace
# written must be smaller than the padded one, still make the canary's fuzz_diff_replay report
# the divergence at its Crash-Site, with the same signature (reduce --diff on the result keeps
# what it kept on the input), and the fixture must expect Go's verdict (Go's golden runner
# accepts it, and it says SUCCESS exactly when Go's reader and validator read it to the end).
# Exit status: 0 when every canary crashes on its witness, the clean build on none, and
# every reduction holds.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cc=clang out="$src/build-canary-witness"
all=$("$here/tree.sh" --list | tr '\n' ' ')
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

# build NAME CANARY TARGETS...: an ASan+UBSan build of the tree with CANARY's patch applied,
# or of the tree itself when CANARY is empty; the binaries end in $out/NAME/bin. Canaries are
# built one after another in one copy of the tree and one build directory ($out/canary.src,
# $out/canary), so each recompiles only the files its patch and the previous one touched.
build() {
  local d="$out/$1" canary=$2 tree=$src
  shift 2
  if [ -n "$canary" ]; then
    tree="$out/canary.src"
    d="$out/canary"
    "$here/tree.sh" "$canary" "$tree" || die "canary $canary: its patch does not apply"
  fi
  cmake -S "$tree" -B "$d" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGTR_SANITIZE="address;undefined" -DGTR_WERROR=ON -DGTR_BUILD_TESTS=OFF \
    >"$d.configure.log" 2>&1 || die "configure $d: see $d.configure.log"
  cmake --build "$d" -j"$jobs" --target "$@" >"$d.build.log" 2>&1 ||
    die "build $d: see $d.build.log"
  if [ -n "$canary" ]; then
    rm -rf "$out/$canary/bin"
    mkdir -p "$out/$canary/bin"
    local t
    for t in "$@"; do cp "$d/bin/$t" "$out/$canary/bin/"; done
  fi
}

target() { "$here/tree.sh" --target "$1"; }

# fuzz_diff's replay needs Go's archive when the build is configured (CMake looks for it).
diff_ok=0 go_library=""
for c in $canaries; do
  [ "$(target "$c")" = diff ] || continue
  if bash "$src/ci/go-diff-archive.sh" >"$out/go-diff-archive.log" 2>&1 &&
     go_library=$(bash "$src/ci/go-diff-archive.sh" --shared 2>>"$out/go-diff-archive.log"); then
    diff_ok=1
  else
    echo "witness.sh: no Go archive ($(tail -n1 "$out/go-diff-archive.log")): the divergence canaries are skipped" >&2
  fi
  break
done
build none "" fuzz_reader_replay gotrace $([ $diff_ok = 1 ] && echo fuzz_diff_replay)
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

# Where each canary sits: its crash report must name that file and function (the patch's
# Crash-Site line).
where() { "$here/tree.sh" --site "$1"; }

fail=0
printf '%-24s %-8s %s\n' canary result detail
for c in $canaries; do
  t=$(target "$c")
  if [ "$t" = diff ] && [ $diff_ok = 0 ]; then
    printf '%-24s %-8s %s\n' "$c" skipped "a divergence canary: no Go archive for fuzz_diff"
    continue
  fi
  if [ "${CANARY_REDUCE:-1}" = 1 ] && { [ "$t" = reader ] || [ "$t" = diff ]; }; then
    build "$c" "$c" "fuzz_${t}_replay" gotrace
  else
    build "$c" "$c" "fuzz_${t}_replay"
  fi
  log="$out/$c.replay.log"
  "$out/$c/bin/fuzz_${t}_replay" "$wire/$c.trace" >"$log" 2>&1
  rc=$?
  # The sanitizer's or the trap's first line names the bug.
  what=$(grep -m1 -oE 'ERROR: [A-Za-z]+Sanitizer: [a-zA-Z-]+|runtime error: .*|fuzz oracle failed: [^(]*' "$log")
  if [ $rc -ne 0 ] && grep -qE "$(where "$c")" "$log"; then
    printf '%-24s %-8s %s (exit %d)\n' "$c" crash "${what:-?}" "$rc"
  else
    printf '%-24s %-8s %s\n' "$c" MISSED "no crash at the canary (exit $rc): see $log"
    fail=1
  fi
done

# The crash-to-fixture loop: reduce each witness on its canary build, JOBS reductions at a
# time (one `gotrace reduce` runs its candidates one after another); the lines follow in the
# canaries' order.
# pad_witness TXT N: the text witness TXT with a batch of N unused strings (ids 1000 and up)
# after it, in its first generation; the batch's size is that of its events (Strings: 1 byte;
# each String: type, a 2-byte id, a 1-byte length, the data).
pad_witness() {
  awk -v n="$2" '{ print }
    /^EventBatch gen=/ && g == "" { split($2, a, "="); g = a[2] }
    END {
      size = 1
      for (i = 0; i < n; i++) size += 4 + length(sprintf("pad%04d", i))
      printf "EventBatch gen=%s m=18446744073709551615 time=0 size=%d\nStrings\n", g, size
      for (i = 0; i < n; i++) printf "String id=%d\n\tdata=\"pad%04d\"\n", 1000 + i, i
    }' "$1"
}

# reduce_diff_one CANARY: `gotrace reduce --diff` on a divergence canary's padded witness.
reduce_diff_one() {
  local c=$1 res="$out/$1.reduced" rc why="" detail txt="$here/witness/$1.txt"
  local padded="$out/$1.padded" kept kept2 in_size out_size want
  if [ ! -f "$txt" ]; then
    printf '%-24s %-8s %s\n' "$c" "-" "not reduced: reduce --diff is checked on text witnesses"
    return 0
  fi
  rm -f "$res.test" "$res.trace" "$res.again.test"
  pad_witness "$txt" 60 >"$padded.txt"
  "$gotrace" raw text2bytes "$padded.txt" "$padded.trace" || { echo "$c: text2bytes of the padded witness failed"; return 1; }
  "$out/$c/bin/gotrace" reduce --diff --go-reader in-process --go-library "$go_library" \
    "$padded.trace" --out "$res.test" ${oracle:+--oracle "$oracle"} >"$out/$c.reduce.log" 2>&1
  rc=$?
  kept=$(sed -n 's/^gotrace: reduce: kept the input.s divergence from Go (\(.*\))$/\1/p' "$out/$c.reduce.log")
  in_size=$(wc -c <"$padded.trace")
  if [ $rc -ne 0 ]; then
    why="reduce --diff exited $rc: $(tail -n1 "$out/$c.reduce.log")"
  elif ! grep -q "a divergence fixture" "$out/$c.reduce.log"; then
    why="the summary does not call the result a divergence fixture"
  elif [ ! -f "$res.test" ]; then
    why="reduce --diff wrote no fixture"
  elif ! "$gotrace" raw text2bytes "$res.test" "$res.trace" 2>"$out/$c.t2b.log"; then
    why="the fixture's trace does not convert: $(head -n1 "$out/$c.t2b.log")"
  else
    out_size=$(wc -c <"$res.trace")
    # (It must abort: the shell's "Aborted" note goes nowhere.)
    { "$out/$c/bin/fuzz_diff_replay" "$res.trace" >"$out/$c.reduced.diff.log" 2>&1; } 2>/dev/null
    local drc=$?
    "$out/$c/bin/gotrace" reduce --diff --go-reader in-process --go-library "$go_library" \
      "$res.trace" --out "$res.again.test" ${oracle:+--oracle "$oracle"} \
      >"$out/$c.again.log" 2>&1
    kept2=$(sed -n 's/^gotrace: reduce: kept the input.s divergence from Go (\(.*\))$/\1/p' "$out/$c.again.log")
    if [ "$out_size" -ge "$in_size" ]; then
      why="the reduced trace ($out_size bytes) is not smaller than the padded witness ($in_size)"
    elif [ $drc -eq 0 ] || ! grep -qE "$(where "$c")" "$out/$c.reduced.diff.log"; then
      why="the reduced trace no longer shows the divergence at the canary (see $out/$c.reduced.diff.log)"
    elif [ -z "$kept" ] || [ "$kept" != "$kept2" ]; then
      why="the reduced trace diverges another way: input: $kept; result: ${kept2:-$(tail -n1 "$out/$c.again.log")}"
    elif [ -n "$oracle" ]; then
      if ! "$oracle" check "$res.test" >"$out/$c.gocheck.log" 2>&1; then
        why="Go's golden runner rejects the fixture: $(head -n1 "$out/$c.gocheck.log")"
      else
        "$oracle" validate <"$res.trace" >/dev/null 2>&1 && want=SUCCESS || want=FAILURE
        grep -A1 -- '^-- expect --$' "$res.test" | tail -n1 | grep -q "^$want" ||
          why="the fixture's expectation is not Go's verdict ($want)"
      fi
    fi
    detail="kept: $kept; padded witness $in_size bytes -> trace $out_size bytes, fixture $(wc -c <"$res.test") bytes; $(grep -oE '[0-9]+ candidates' "$out/$c.reduce.log")"
  fi
  if [ -n "$why" ]; then
    printf '%-24s %-8s %s\n' "$c" REDUCE "$why (see $out/$c.reduce.log)"
    return 1
  fi
  printf '%-24s %-8s %s\n' "$c" reduced "$detail"
}

# reduce_one CANARY: prints CANARY's line; exit status 1 when its reduction does not hold.
reduce_one() {
  local c=$1 res="$out/$1.reduced" rc detail why=""
  if [ "$(target "$c")" = diff ]; then
    if [ $diff_ok = 0 ]; then
      printf '%-24s %-8s %s\n' "$c" skipped "not reduced: no Go archive (ci/go-diff-archive.sh) for reduce --diff"
      return 0
    fi
    reduce_diff_one "$c"
    return
  fi
  if [ "$(target "$c")" != reader ]; then
    printf '%-24s %-8s %s\n' "$c" "-" "not reduced: its target is $(target "$c")"
    return 0
  fi
  rm -f "$res.test" "$res.trace"
  "$out/$c/bin/gotrace" reduce "$wire/$c.trace" --out "$res.test" ${oracle:+--oracle "$oracle"} \
    >"$out/$c.reduce.log" 2>&1
  rc=$?
  detail=$(grep -m1 "kept the input" "$out/$c.reduce.log" | sed 's/^gotrace: reduce: //')
  if [ $rc -ne 0 ]; then
    why="reduce exited $rc: $(tail -n1 "$out/$c.reduce.log")"
  elif [ -f "$res.test" ]; then
    if ! "$gotrace" check "$res.test" >/dev/null 2>&1; then
      why="the fixture fails the clean build's check: $("$gotrace" check "$res.test" | head -n1)"
    elif [ -n "$oracle" ] && ! "$oracle" check "$res.test" >"$out/$c.gocheck.log" 2>&1; then
      why="Go's golden runner rejects the fixture: $(head -n1 "$out/$c.gocheck.log")"
    elif "$out/$c/bin/gotrace" check "$res.test" >/dev/null 2>&1; then
      why="the fixture no longer crashes the canary build"
    fi
    detail="$detail; fixture $(wc -c <"$res.test") bytes"
  elif [ -f "$res.trace" ]; then
    if "$out/$c/bin/fuzz_reader_replay" "$res.trace" >/dev/null 2>&1; then
      why="the reduced wire bytes no longer crash the canary's replay target"
    fi
    detail="$detail; wire bytes $(wc -c <"$res.trace")"
  else
    why="reduce wrote nothing"
  fi
  if [ -n "$why" ]; then
    printf '%-24s %-8s %s\n' "$c" REDUCE "$why (see $out/$c.reduce.log)"
    return 1
  fi
  printf '%-24s %-8s %s\n' "$c" reduced "$detail"
}

if [ "${CANARY_REDUCE:-1}" = 1 ]; then
  oracle=${GTR_ORACLE:-$HOME/.cache/gotrace-oracle/gtroracle}
  [ -x "$oracle" ] || oracle=""
  running=0
  for c in $canaries; do
    reduce_one "$c" >"$out/$c.result" 2>&1 &
    running=$((running + 1))
    if [ $running -ge "$jobs" ]; then
      wait -n || fail=1
      running=$((running - 1))
    fi
  done
  while [ $running -gt 0 ]; do
    wait -n || fail=1
    running=$((running - 1))
  done
  for c in $canaries; do cat "$out/$c.result"; done
fi

# Without canaries, no witness crashes (the reader rejects or accepts them cleanly).
log="$out/none.replay.log"
if "$out/none/bin/fuzz_reader_replay" "$wire" >"$log" 2>&1; then
  printf '%-24s %-8s %s\n' "(no canary)" ok "$(tail -n1 "$log")"
else
  printf '%-24s %-8s %s\n' "(no canary)" CRASH "see $log"
  fail=1
fi
if [ $diff_ok = 1 ]; then
  log="$out/none.diff.log"
  if "$out/none/bin/fuzz_diff_replay" "$wire" >"$log" 2>&1; then
    printf '%-24s %-8s %s\n' "(no canary, diff)" ok "$(tail -n1 "$log")"
  else
    printf '%-24s %-8s %s\n' "(no canary, diff)" DIVERGES "see $log"
    fail=1
  fi
fi
exit $fail
