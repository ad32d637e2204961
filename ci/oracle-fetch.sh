#!/usr/bin/env bash
# Fetch Debian's Go toolchain and Go's trace reader (x/exp/trace) into a private cache,
# without touching the machine's own APT configuration, and build the differential oracle.
#
#   ci/oracle-fetch.sh [CACHE]      (default: $GTR_ORACLE_CACHE or ~/.cache/gotrace-oracle)
#
# On success prints the path of the oracle binary on stdout and exits 0; exits 1 with a
# message on stderr when a package cannot be had (no network, suite missing, ...).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-${GTR_ORACLE_CACHE:-$HOME/.cache/gotrace-oracle}}
mkdir -p "$cache"/{apt/lists/partial,apt/cache/archives/partial,debs,unpacked}

. "$here/apt-private.sh"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
apt_private "$cache" "deb [signed-by=$keyring] @URI@ sid main" \
    "deb [signed-by=$keyring] @URI@ bookworm main" \
    || { echo "oracle-fetch: no package lists" >&2; exit 1; }

fetch() { # fetch PKG SUITE
    local pkg=$1 suite=$2
    if ! ls "$cache/debs/${pkg}_"*.deb >/dev/null 2>&1; then
        (cd "$cache/debs" && apt-get download -qq "$pkg/$suite" >/dev/null 2>&1) \
            || { echo "oracle-fetch: cannot download $pkg ($suite)" >&2; return 1; }
    fi
    if [ ! -f "$cache/unpacked/$pkg.done" ]; then
        dpkg-deb -x "$cache/debs/${pkg}_"*.deb "$cache/unpacked" && touch "$cache/unpacked/$pkg.done"
    fi
}
fetch golang-1.27-go sid
fetch golang-1.27-src sid
fetch golang-golang-x-exp-dev sid
fetch golang-golang-x-tools-dev bookworm

goroot="$cache/unpacked/usr/lib/go-1.27"
gobin="$goroot/bin/go"
[ -x "$gobin" ] || { echo "oracle-fetch: no go binary in golang-1.27-go" >&2; exit 1; }

gopath="$cache/gopath"
src="$cache/unpacked/usr/share/gocode/src"
mkdir -p "$gopath/src/golang.org/x/tools"
rm -rf "$gopath/src/golang.org/x/exp"
cp -r "$src/golang.org/x/exp" "$gopath/src/golang.org/x/exp"
rm -rf "$gopath/src/golang.org/x/tools/txtar"
cp -r "$src/golang.org/x/tools/txtar" "$gopath/src/golang.org/x/tools/txtar"
prog="$gopath/src/golang.org/x/exp/trace/cmd/gtroracle"
mkdir -p "$prog"
cp "$here/difftest/oracle.go" "$prog/main.go"
(cd "$prog" && GOROOT="$goroot" GO111MODULE=off GOPATH="$gopath" GOFLAGS= GOTOOLCHAIN=local \
    GOCACHE="$cache/gocache" "$gobin" build -o "$cache/gtroracle" .) \
    || { echo "oracle-fetch: building the oracle failed" >&2; exit 1; }
echo "$cache/gtroracle"
