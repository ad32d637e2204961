# shellcheck shell=bash
# go-internal-build.sh: sourced by scripts that build a Go program against Go's own
# src/internal/trace (the oracle's GOROOT, fetched by ci/oracle-fetch.sh).
#
#   . ci/go-internal-build.sh
#   go_internal_build GOROOT CACHE NAME OUT MAIN.go [REL=FILE.go...]
#
# Builds MAIN.go as the command $GOROOT/src/internal/trace/testdata/cmd/NAME/main.go (where
# Go keeps its own trace tools: only code under GOROOT/src may import internal/trace,
# internal/trace/testtrace, internal/trace/raw, internal/trace/version, ...) into the binary
# OUT, with `go build` run from $GOROOT/src/internal/trace and the environment
# ci/oracle-fetch.sh uses (GOCACHE=CACHE/gocache, GOTOOLCHAIN=local, GOFLAGS empty). Each
# REL=FILE.go adds FILE.go at $GOROOT/src/internal/trace/REL as well (REL=zz_x.go puts a
# file into package internal/trace itself). The files are laid over the tree with
# `go build -overlay`, so nothing is written into the shared GOROOT (but for the empty
# folder testdata/cmd/NAME that cgo needs): concurrent builds (the oracle's too) never see
# another program's files. OUT is built beside and renamed, so a
# concurrent user never runs a half-written binary. GO_INTERNAL_BUILD_FLAGS adds flags to
# `go build` (split on blanks), e.g. "-buildmode=c-archive" (CGO_ENABLED=1 is set for it):
# the archive's C header, which Go writes beside OUT with OUT's extension replaced by .h, is
# renamed with it. Returns go build's status (its messages on stderr), 2 on a usage error.

go_internal_build() {
    if [ $# -lt 5 ]; then
        echo "go_internal_build: usage: go_internal_build GOROOT CACHE NAME OUT MAIN.go [REL=FILE.go...]" >&2
        return 2
    fi
    local goroot=$1 cache=$2 name=$3 out=$4 main=$5
    shift 5
    local pkg="$goroot/src/internal/trace"
    if [ ! -x "$goroot/bin/go" ] || [ ! -f "$pkg/reader.go" ]; then
        echo "go_internal_build: no Go toolchain with src/internal/trace in $goroot" >&2
        return 1
    fi
    local tmp rc=0 pair rel file sep=""
    tmp=$(mktemp -d) || return 1
    {
        printf '{"Replace": {\n'
        for pair in "testdata/cmd/$name/main.go=$main" "$@"; do
            rel=${pair%%=*}
            file=${pair#*=}
            if [ "$rel" = "$pair" ] || [ -z "$rel" ] || [ ! -f "$file" ]; then
                echo "go_internal_build: bad file operand '$pair'" >&2
                rc=2
            fi
            # Absolute paths, JSON-quoted.
            [ "${file#/}" != "$file" ] || file="$PWD/$file"
            printf '%s  "%s": "%s"' "$sep" "$(_gib_json "$pkg/$rel")" "$(_gib_json "$file")"
            sep=$',\n'
        done
        printf '\n}}\n'
    } >"$tmp/overlay.json"
    # Built in a folder beside OUT under OUT's own name (a c-archive's header takes its name
    # from it), then renamed.
    local new
    new="$(dirname "$out")/.new.$$"
    local base=${out##*/}
    local hdr=${base%.*}.h
    [ "$hdr" != "$base" ] || hdr=$base.h
    if [ "$rc" -eq 0 ]; then
        mkdir -p "$new" || rc=$?
    fi
    # cgo (a c-archive's `import "C"`) runs in the package's folder, which must exist: the one
    # thing written into the tree, an empty folder where Go keeps its own trace tools.
    if [ "$rc" -eq 0 ] && [ -n "${GO_INTERNAL_BUILD_FLAGS:-}" ]; then
        mkdir -p "$pkg/testdata/cmd/$name" || rc=$?
    fi
    if [ "$rc" -eq 0 ]; then
        # shellcheck disable=SC2086 # GO_INTERNAL_BUILD_FLAGS is a list of words
        (cd "$pkg" && GOROOT="$goroot" GOCACHE="$cache/gocache" GOTOOLCHAIN=local GOFLAGS='' \
            GO111MODULE='' GOPATH="$cache/gopath" \
            env ${GO_INTERNAL_BUILD_FLAGS:+CGO_ENABLED=1} "$goroot/bin/go" build -overlay="$tmp/overlay.json" ${GO_INTERNAL_BUILD_FLAGS:-} \
            -o "$new/$base" "./testdata/cmd/$name" >&2) || rc=$?
    fi
    if [ "$rc" -eq 0 ] && [ -f "$new/$hdr" ]; then
        mv -f "$new/$hdr" "$(dirname "$out")/$hdr" || rc=$?
    fi
    if [ "$rc" -eq 0 ]; then
        mv -f "$new/$base" "$out" || rc=$?
    fi
    rm -rf "$tmp" "$new"
    return "$rc"
}

# _gib_json S: S with JSON string escapes for backslash and double quote.
_gib_json() {
    local s=${1//\\/\\\\}
    printf '%s' "${s//\"/\\\"}"
}
