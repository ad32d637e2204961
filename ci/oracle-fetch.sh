#!/usr/bin/env bash
# Fetch Debian's Go 1.27 toolchain and source (golang-1.27-go, golang-1.27-src) into a private
# cache, without touching the machine's own APT configuration, and build the differential
# oracle from Go's own src/internal/trace: ci/difftest/oracle.go is copied to
# $GOROOT/src/internal/trace/testdata/cmd/gtroracle/main.go in the unpacked tree (only code
# under GOROOT/src may import internal/trace) and built there, again whenever it changed.
#
#   ci/oracle-fetch.sh [CACHE]      (default: $GTR_ORACLE_CACHE or ~/.cache/gotrace-oracle)
#
# On success prints the path of the oracle binary on stdout and exits 0; exits 1 with a
# message on stderr when a package cannot be had (no network, suite missing, ...) or the
# oracle does not build.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-${GTR_ORACLE_CACHE:-$HOME/.cache/gotrace-oracle}}
mkdir -p "$cache"/{debs,unpacked}

# The package lists are only needed (and the network only used) when a package is missing.
apt_ready=0
apt_setup() {
    [ "$apt_ready" -eq 1 ] && return 0
    # shellcheck source=ci/apt-private.sh
    . "$here/apt-private.sh"
    local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    apt_private "$cache" "deb [signed-by=$keyring] @URI@ sid main" \
        || { echo "oracle-fetch: no package lists" >&2; return 1; }
    apt_ready=1
}

fetch() { # fetch PKG SUITE
    # shellcheck source=ci/apt-private.sh
    . "$here/apt-private.sh"
    apt_private_fetch oracle-fetch "$cache" apt_setup "$1" "$2"
}
fetch golang-1.27-go sid || exit 1
fetch golang-1.27-src sid || exit 1

goroot="$cache/unpacked/usr/lib/go-1.27"
gobin="$goroot/bin/go"
[ -x "$gobin" ] || { echo "oracle-fetch: no go binary in golang-1.27-go" >&2; exit 1; }
[ -f "$goroot/src/internal/trace/reader.go" ] \
    || { echo "oracle-fetch: no src/internal/trace in golang-1.27-src" >&2; exit 1; }

oracle="$cache/gtroracle"
prog="$goroot/src/internal/trace/testdata/cmd/gtroracle"
if [ ! -x "$oracle" ] || ! cmp -s "$here/difftest/oracle.go" "$prog/main.go"; then
    mkdir -p "$prog"
    cp "$here/difftest/oracle.go" "$prog/main.go"
    # Built beside, then renamed: a concurrent user never runs a half-written binary.
    if ! (cd "$goroot/src/internal/trace" && GOROOT="$goroot" GOCACHE="$cache/gocache" \
            GOTOOLCHAIN=local GOFLAGS='' GO111MODULE='' GOPATH="$cache/gopath" \
            "$gobin" build -o "$oracle.new.$$" ./testdata/cmd/gtroracle >&2); then
        rm -f "$prog/main.go" "$oracle.new.$$"   # so the next run tries again
        echo "oracle-fetch: building the oracle failed" >&2
        exit 1
    fi
    mv -f "$oracle.new.$$" "$oracle"
fi
echo "$oracle"
