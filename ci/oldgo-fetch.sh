#!/usr/bin/env bash
# oldgo-fetch.sh: old-format (go 1.19 / go 1.21) execution traces written by Debian's own
# old Go toolchains, for the corpus (corpus/old/), the difftest and the v1 benchmark.
#
#   ci/oldgo-fetch.sh [--out DIR] [--big DIR [--scale N]] [--cache DIR]
#
# Fetches golang-1.19-go + golang-1.19-src (bookworm) and golang-1.21-go + golang-1.21-src
# (bookworm-backports) into a private cache without touching the machine's APT configuration
# (ci/apt-private.sh, as ci/oracle-fetch.sh does) and unpacks them there (dpkg-deb -x, no
# install). Builds the programs of tests/oldgo/progs/ with each toolchain and runs each once,
# writing small traces: CACHE/traces/go1.N-PROG.trace. Everything is cached: a second run
# downloads, builds and traces nothing (programs are rebuilt, and their traces rewritten,
# only when tests/oldgo/progs/ changed).
#   --out DIR    also copy the small traces, gzip -9n, to DIR/go1.N-PROG.trace.gz
#                (the committed ones in corpus/old/ were written with --out corpus/old)
#   --big DIR    also write the stress program's traces with -scale N (default 180: about
#                20 MB each) to DIR/go1.N-stress-big.trace, and
#                without blocking syscalls (-nosyscall) to DIR/go1.N-stress-nosys-big.trace:
#                Go's validator rejects the first kind ("tried to run goroutine N when one was
#                already executing") and reads the second to the end (cached too; the second
#                kind has no pipe, no socket and no trace file written while tracing, since
#                any syscall slower than sysmon's 20 µs is traced as blocking)
#   --cache DIR  default $GTR_OLDGO_CACHE or ~/.cache/gotrace-oldgo
# Prints the directory of the small traces on stdout. Exits 1 with a message on stderr when a
# package cannot be had (no network, suite gone, ...) or a program fails to build or run.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cache=${GTR_OLDGO_CACHE:-$HOME/.cache/gotrace-oldgo}
out="" big="" scale=180
while [ $# -gt 0 ]; do
    case "$1" in
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --big) big=${2:?--big needs a directory}; shift 2 ;;
    --scale) scale=${2:?--scale needs a number}; shift 2 ;;
    --cache) cache=${2:?--cache needs a directory}; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "oldgo-fetch: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$scale" in ''|*[!0-9]*) echo "oldgo-fetch: --scale wants a number" >&2; exit 2 ;; esac
mkdir -p "$cache"/{debs,unpacked,bin,traces}

progs_dir=$root/tests/oldgo/progs
progs=$(cd "$progs_dir" && for d in */main.go; do echo "${d%/main.go}"; done)
versions="1.19 1.21"
suite_of() { case "$1" in 1.19) echo bookworm ;; 1.21) echo bookworm-backports ;; esac; }

# The package lists are only needed (and the network only used) when a package is missing.
apt_ready=0
apt_setup() {
    [ "$apt_ready" -eq 1 ] && return 0
    # shellcheck source=ci/apt-private.sh
    . "$here/apt-private.sh"
    local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    apt_private "$cache" "deb [signed-by=$keyring] @URI@ bookworm main" \
        "deb [signed-by=$keyring] @URI@ bookworm-backports main" \
        || { echo "oldgo-fetch: no package lists (no network?)" >&2; return 1; }
    apt_ready=1
}

fetch() { # fetch PKG SUITE
    # shellcheck source=ci/apt-private.sh
    . "$here/apt-private.sh"
    apt_private_fetch oldgo-fetch "$cache" apt_setup "$1" "$2"
}

# gocmd VERSION ARGS...: the toolchain's go command, hermetic (no proxy, no other toolchain,
# no cgo so that no C compiler is needed).
gocmd() {
    local v=$1
    shift
    GOROOT="$cache/unpacked/usr/lib/go-$v" GOCACHE="$cache/gocache-$v" GOPATH="$cache/gopath" \
        GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=mod GO111MODULE=on CGO_ENABLED=0 \
        GOENV=off GOTELEMETRY=off "$cache/unpacked/usr/lib/go-$v/bin/go" "$@"
}

# The stamp of the program sources: binaries and traces are redone when it changes.
src_stamp=$(cd "$progs_dir" && find . -type f -name '*.go' -o -name go.mod | LC_ALL=C sort \
            | xargs sha256sum | sha256sum | cut -c1-16)

for v in $versions; do
    fetch "golang-$v-src" "$(suite_of "$v")" || exit 1
    fetch "golang-$v-go" "$(suite_of "$v")" || exit 1
    [ -x "$cache/unpacked/usr/lib/go-$v/bin/go" ] \
        || { echo "oldgo-fetch: no go binary in golang-$v-go" >&2; exit 1; }
    bindir=$cache/bin/go$v
    if [ "$(cat "$bindir/stamp" 2>/dev/null)" != "$src_stamp" ]; then
        rm -rf "$bindir" "$cache/traces/go$v-"*.trace
        mkdir -p "$bindir"
        (cd "$progs_dir" && gocmd "$v" build -trimpath -o "$bindir/" ./...) \
            || { echo "oldgo-fetch: building tests/oldgo/progs with go $v failed" >&2; exit 1; }
        echo "$src_stamp" >"$bindir/stamp"
    fi
    for p in $progs; do
        t=$cache/traces/go$v-$p.trace
        [ -s "$t" ] && continue
        "$bindir/$p" -o "$t.new.$$" >&2 || { rm -f "$t.new.$$"; echo "oldgo-fetch: go $v $p failed" >&2; exit 1; }
        mv -f "$t.new.$$" "$t"
    done
    if [ -n "$big" ]; then
        mkdir -p "$big"
        for kind in stress stress-nosys; do
            t=$big/go$v-$kind-big.trace
            flags=(-scale "$scale")
            [ "$kind" = stress-nosys ] && flags+=(-nosyscall)
            if [ ! -s "$t" ] || [ "$(cat "$t.stamp" 2>/dev/null)" != "$src_stamp $scale" ]; then
                "$bindir/stress" -o "$t.new.$$" "${flags[@]}" >&2 \
                    || { rm -f "$t.new.$$"; echo "oldgo-fetch: go $v stress ${flags[*]} failed" >&2; exit 1; }
                mv -f "$t.new.$$" "$t"
                echo "$src_stamp $scale" >"$t.stamp"
            fi
        done
    fi
done

if [ -n "$out" ]; then
    mkdir -p "$out"
    for t in "$cache"/traces/*.trace; do
        gzip -9n <"$t" >"$out/$(basename "$t").gz"
    done
fi
echo "$cache/traces"
