#!/bin/sh
# errlen_validate.sh GOTRACE DIR: for each DIR/NAME.trace, `gotrace validate --log-events` must
# exit 1 with stdout byte-identical to NAME.stdout and stderr to NAME.stderr: Go 1.27.3's
# output (the oracle's "error: " prefix replaced by "gotrace: "; where Go's message iterates a
# map, its lines sorted by ID, one of the orders Go prints). The messages are longer than 4 KiB
# or hold NUL bytes (tests/data/errlen/mkerrlen.py says how each trace is made).
set -u
gotrace=$1
dir=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtr-errlen.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for trace in "$dir"/*.trace; do
    name=$(basename "$trace" .trace)
    n=$((n + 1))
    "$gotrace" validate --log-events "$trace" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 1 ]; then
        echo "FAIL $name: exit $rc, want 1"
        fail=1
    fi
    if ! cmp -s "$tmp/out" "$dir/$name.stdout"; then
        echo "FAIL $name: stdout differs from Go's"
        fail=1
    fi
    if ! cmp "$tmp/err" "$dir/$name.stderr"; then
        echo "FAIL $name: stderr differs from Go's ($(wc -c <"$tmp/err") vs $(wc -c <"$dir/$name.stderr") bytes)"
        fail=1
    fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no traces in $dir"; exit 1; }
[ "$fail" -eq 0 ] && echo "ok: $n traces, gotrace's stderr is Go's byte for byte"
exit "$fail"
