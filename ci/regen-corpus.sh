#!/bin/sh
# regen-corpus.sh: regenerate the testgen fixtures into a temporary directory and fail if they
# differ from the committed corpus/tests (drift between testgen/generators and the corpus).
#
# usage: ci/regen-corpus.sh [GOTRACE]     (default: build/bin/gotrace)
# To accept a change on purpose: gotrace gen --out corpus/tests, then commit.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
gotrace=${1:-$root/build/bin/gotrace}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gotrace-regen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

"$gotrace" gen --out "$tmp"
if ! diff -r "$root/corpus/tests" "$tmp"; then
    echo "regen-corpus: corpus/tests differs from what the generators write;" >&2
    echo "regen-corpus: run 'gotrace gen --out corpus/tests' and commit the result" >&2
    exit 1
fi
echo "regen-corpus: $(ls "$tmp" | wc -l) fixtures match corpus/tests"
