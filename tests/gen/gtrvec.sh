#!/usr/bin/env bash
# Regenerate tests/event_vectors.h from Go's own trace package (x/exp/trace in the oracle's
# GOPATH, see ci/oracle-fetch.sh). The two Go files are dropped into a private copy of that
# GOPATH: gtrvec_table.go into package trace (it builds Events over a fixed table, which needs
# the package's internals), gtrvec_main.go as a command beside it.
#
#   tests/gen/gtrvec.sh > tests/event_vectors.h
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${GTR_ORACLE_CACHE:-$HOME/.cache/gotrace-oracle}
goroot="$cache/unpacked/usr/lib/go-1.27"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$cache/gopath/src" "$work/src"
pkg="$work/src/golang.org/x/exp/trace"
cp "$here/gtrvec_table.go" "$pkg/zz_gtrvec.go"
mkdir -p "$pkg/cmd/gtrvec"
cp "$here/gtrvec_main.go" "$pkg/cmd/gtrvec/main.go"
cd "$pkg/cmd/gtrvec"
GOROOT="$goroot" GO111MODULE=off GOPATH="$work" GOFLAGS= GOTOOLCHAIN=local \
    GOCACHE="${GOCACHE:-/tmp/gocache}" "$goroot/bin/go" run .
