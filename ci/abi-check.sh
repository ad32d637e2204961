#!/usr/bin/env bash
# abi-check.sh: the ABI of the shared libtrace (libgtr.so.MAJOR) against the committed baseline
# ci/abi/libgtr.so.<MAJOR>.abi, with libabigail (Debian's abigail-tools):
#
#   bash ci/abi-check.sh            # check (CI): exit 1 on an incompatible change
#   bash ci/abi-check.sh --update   # regenerate the baseline from the tree (commit the result)
#
# The library is built the release way (RelWithDebInfo: -O2 -g, the DWARF abidw reads; libtrace
# alone, -DGTR_BUILD_TESTGEN=OFF: zlib only) in a temporary directory, described with
# `abidw --headers-dir libtrace/include/gtr --drop-private-types` (only types reachable from the
# public headers), and compared with `abidiff --no-added-syms`:
#   - no change, or only added functions/variables: ok (an addition is compatible: bump MINOR,
#     and --update the baseline so that it records the addition);
#   - anything else (a removed or changed function, a public type whose layout or meaning
#     changed, such as gtr_err or gtr_event, a changed enumerator): FAILED, with abidiff's
#     report. An incompatible change needs a new soname: GTR_VERSION_MAJOR+1 in
#     libtrace/include/gtr/version.h (libgtr.so.MAJOR follows it), then --update, which writes
#     the new major's baseline, in the same commit. Until the first release (CHANGELOG.md:
#     "Unreleased") the baseline follows the tree: --update without a bump.
# A baseline for another soname than the one built (the major was bumped without --update)
# fails too. Exit status: 0 ok, 1 ABI check failed, 2 setup, build or usage error.
# Environment: JOBS (default 2), CC (default gcc: the compiler the baseline was made with).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
exec </dev/null
mode=check
case "${1:-}" in
    "") ;;
    --update) mode=update ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "abi-check: unknown argument $1 (see --help)" >&2; exit 2 ;;
esac
[ $# -le 1 ] || { echo "abi-check: at most one argument (see --help)" >&2; exit 2; }
jobs=${JOBS:-2}
cc=${CC:-gcc}

# Setup, as ci/setup.sh does it: dpkg first, apt-get install -y only for what is missing.
installed() { dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^ii'; }
missing=()
for p in abigail-tools cmake gcc zlib1g-dev; do
    installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "abi-check: missing ${missing[*]} and not root: apt-get install -y ${missing[*]}" >&2
        exit 2
    fi
    echo "abi-check: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    for p in "${missing[@]}"; do
        installed "$p" || { echo "abi-check: $p did not install" >&2; exit 2; }
    done
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtr-abi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if ! cmake -S "$root" -B "$tmp/build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DGTR_BUILD_TESTGEN=OFF -DGTR_BUILD_CLI=OFF -DGTR_BUILD_TESTS=OFF \
        -DGTR_BUILD_SHARED=ON >"$tmp/configure.log" 2>&1 ||
   ! cmake --build "$tmp/build" -j"$jobs" --target gtr_shared >"$tmp/build.log" 2>&1; then
    tail -n 20 "$tmp/configure.log" "$tmp/build.log" 2>/dev/null
    echo "abi-check: FAILED to build libgtr.so" >&2
    exit 2
fi
lib=$(find "$tmp/build/lib" -name 'libgtr.so.*.*' -type f | head -n 1)
soname=$(objdump -p "$lib" | awk '$1 == "SONAME" {print $2}')
if [ -z "$lib" ] || [ -z "$soname" ]; then
    echo "abi-check: FAILED: no libgtr.so with a soname in $tmp/build/lib" >&2
    exit 2
fi
baseline=ci/abi/$soname.abi
abidw --headers-dir libtrace/include/gtr --drop-private-types --no-corpus-path \
      --no-comp-dir-path --short-locs --out-file "$tmp/new.abi" "$lib" || {
    echo "abi-check: FAILED: abidw $lib" >&2
    exit 2
}
nfuncs=$(grep -c '<elf-symbol name=.*type=.func-type' "$tmp/new.abi")

if [ "$mode" = update ]; then
    mkdir -p ci/abi
    cp "$tmp/new.abi" "$baseline"
    echo "abi-check: wrote $baseline ($soname, $nfuncs functions); commit it"
    exit 0
fi

if [ ! -f "$baseline" ]; then
    others=$(cd ci/abi 2>/dev/null && ls ./*.abi 2>/dev/null | tr '\n' ' ')
    echo "abi-check: FAILED: no baseline $baseline for $soname (have: ${others:-none});" \
         "after a major bump run: bash ci/abi-check.sh --update" >&2
    exit 1
fi
rc=0
abidiff --no-added-syms "$baseline" "$tmp/new.abi" >"$tmp/diff.txt" 2>&1 || rc=$?
if [ "$rc" -eq 0 ]; then
    added=0
    abidiff "$baseline" "$tmp/new.abi" >"$tmp/all.txt" 2>&1 || added=$?
    if [ "$added" -ne 0 ]; then
        grep -E "Added|^  \[A\]" "$tmp/all.txt" | head -n 20
        echo "abi-check: ok, compatible additions only ($soname): bump GTR_VERSION_MINOR and" \
             "record them with: bash ci/abi-check.sh --update"
    else
        echo "abi-check: ok, $soname matches $baseline ($nfuncs functions)"
    fi
    exit 0
fi
cat "$tmp/diff.txt"
if [ $((rc & 3)) -ne 0 ]; then
    echo "abi-check: FAILED: abidiff could not compare (exit $rc)" >&2
    exit 2
fi
echo "abi-check: FAILED: $soname changed incompatibly against $baseline (abidiff exit $rc)." >&2
echo "  Bump GTR_VERSION_MAJOR in libtrace/include/gtr/version.h (the soname follows it) and" \
     "run bash ci/abi-check.sh --update; before the first release, --update alone." >&2
exit 1
