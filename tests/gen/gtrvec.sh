#!/usr/bin/env bash
# Regenerate tests/event_vectors.h from Go 1.27.3's own src/internal/trace, in the GOROOT that
# ci/oracle-fetch.sh fetches (and fetches first when missing) into the oracle cache
# ($GTR_ORACLE_CACHE, default ~/.cache/gotrace-oracle). ci/go-internal-build.sh builds
# gtrvec_main.go as the command src/internal/trace/testdata/cmd/gtrvec, with gtrvec_table.go
# laid into package internal/trace itself (as zz_gtrvec.go: it builds Events over a fixed
# table, which needs the package's internals); nothing is written into the GOROOT.
#
#   tests/gen/gtrvec.sh > tests/event_vectors.h
#   tests/gen/gtrvec.sh tests/event_vectors.h      (written only when generation succeeded)
#
# Exits 1 when the toolchain cannot be had or the generator fails to build or run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${GTR_ORACLE_CACHE:-$HOME/.cache/gotrace-oracle}
out=${1:-}

# shellcheck source=ci/go-internal-build.sh
. "$root/ci/go-internal-build.sh"
# oracle-fetch.sh also (re)builds the oracle; only the toolchain it leaves matters here.
bash "$root/ci/oracle-fetch.sh" "$cache" >/dev/null || echo "gtrvec: ci/oracle-fetch.sh failed" >&2
goroot="$cache/unpacked/usr/lib/go-1.27"
[ -x "$goroot/bin/go" ] || { echo "gtrvec: no Go toolchain in $cache" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go_internal_build "$goroot" "$cache" gtrvec "$work/gtrvec" "$here/gtrvec_main.go" \
    "zz_gtrvec.go=$here/gtrvec_table.go" \
    || { echo "gtrvec: building the generator failed" >&2; exit 1; }
if [ -z "$out" ]; then
    "$work/gtrvec"
else
    "$work/gtrvec" >"$work/out.h"
    mv -f "$work/out.h" "$out"
fi
