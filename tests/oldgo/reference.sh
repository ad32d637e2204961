#!/usr/bin/env bash
# reference.sh: Go 1.27.3's own figures for the old-format traces of corpus/old/, in
# REFERENCE.tsv (the columns of corpus/real/REFERENCE.tsv, then three for the reader alone).
#
#   tests/oldgo/reference.sh [--check] [DIR]        DIR: default corpus/old
#
# For each DIR/*.trace.gz, with the oracle whose map order is fixed (gtroracle-v1order, built
# by tests/oldgo/oracle/build.sh, or $GTR_ORACLE_V1; default orders, see there: stock Go's
# dump of some old traces varies from run to run, this one's is one of those and never varies):
#   name, bytes (uncompressed), header (the first line, NULs dropped);
#   result, events, dump_sha256: `gtroracle validate` (reader + validator, as
#     `gotrace validate --log-events` runs): "ok" or "error: <message>" (the reader's or the
#     validator's first error), the number of events printed (the rejected one included) and
#     the SHA-256 of the printed dump (every Event.String() and a newline);
#   text_sha256: "-" (Go's raw reader reads only the go 1.22+ wire format);
#   read_result, read_events, read_dump_sha256: the same for `gtroracle read` (the reader
#     alone: on the converted old traces it can succeed where the validator fails).
# Writes DIR/REFERENCE.tsv; with --check, compares instead and exits 1 on any difference.
# Exits 2 when the oracle cannot be had.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
dir=${1:-$root/corpus/old}
oracle=${GTR_ORACLE_V1:-}
if [ -z "$oracle" ]; then
    oracle=$(bash "$root/tests/oldgo/oracle/build.sh") || { echo "reference: no oracle" >&2; exit 2; }
fi
unset GTR_V1_PROCS GTR_V1_PREINIT

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtr-oldref.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# figures MODE FILE: "result<TAB>events<TAB>dump_sha256" of gtroracle MODE on FILE.
figures() {
    local rc=0 result
    "$oracle" "$1" <"$2" >"$tmp/out" 2>"$tmp/err" || rc=$?
    case $rc in
    0) result=ok ;;
    1|3) result=$(head -n1 "$tmp/err") ;;
    *) echo "reference: gtroracle $1 exit $rc on $2: $(head -c 300 "$tmp/err")" >&2; exit 2 ;;
    esac
    printf '%s\t%s\t%s' "$result" "$(grep -c '^M=' "$tmp/out" || true)" \
        "$(sha256sum <"$tmp/out" | cut -d' ' -f1)"
}

{
    printf 'name\tbytes\theader\tresult\tevents\tdump_sha256\ttext_sha256\tread_result\tread_events\tread_dump_sha256\n'
    for f in "$dir"/*.trace.gz; do
        name=$(basename "$f" .trace.gz)
        gzip -dc "$f" >"$tmp/trace"
        bytes=$(wc -c <"$tmp/trace")
        header=$(head -c 16 "$tmp/trace" | tr -d '\0')
        printf '%s\t%s\t%s\t%s\t-\t%s\n' "$name" "$bytes" "$header" \
            "$(figures validate "$tmp/trace")" "$(figures read "$tmp/trace")"
    done
} >"$tmp/REFERENCE.tsv"

if [ "$check" -eq 1 ]; then
    if ! diff -u "$dir/REFERENCE.tsv" "$tmp/REFERENCE.tsv"; then
        echo "reference: $dir/REFERENCE.tsv differs from the oracle's figures" >&2
        exit 1
    fi
    echo "reference: $(($(wc -l <"$tmp/REFERENCE.tsv") - 1)) traces match $dir/REFERENCE.tsv"
else
    mv "$tmp/REFERENCE.tsv" "$dir/REFERENCE.tsv"
    echo "reference: wrote $dir/REFERENCE.tsv ($(($(wc -l <"$dir/REFERENCE.tsv") - 1)) traces)"
fi
