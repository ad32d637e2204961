#!/usr/bin/env bash
# go-releases-bench.sh: Go's own history as a benchmark of real bugs (issue 43, item 6).
# fuzz_diff (fuzz/fuzz_diff.c) judged against the internal/trace of EARLIER Go releases in
# place of Go 1.27.3's: every fix Go made since is a divergence fuzz_diff should find. How
# fast it finds each is the measurement. A long measurement: never part of CI or ctest.
#
#   ci/go-releases-bench.sh [--releases "1.22 1.23 1.24 1.25 1.26"] [--runs N] [--seconds S]
#                           [--out DIR] [--build-only] [--keep-going] [--old]
#                           [-- libFuzzer flags...]
#   ci/go-releases-bench.sh --shared [--releases ...]
#                           each release's reader as a shared library, for
#                           `gotrace reduce --diff --go-library` (below), nothing else
#   ci/go-releases-bench.sh --classify [--out DIR] [--releases ...] [--old]
#                           the classes of the runs in OUT again (class_of below), nothing built
#   ci/go-releases-bench.sh --check-patches [--releases ...]
#                           only whether fuzz/releases' patches apply to each release's tree
#                           (the cached sources; exit 77 when none is cached), nothing built
#
# For each release R (default all five):
#  1. fetches Debian's golang-R-src (1.22, 1.23: bookworm-backports; 1.24: trixie;
#     1.25: trixie-backports; 1.26: sid) into a private cache ($GTR_GOREL_CACHE, default
#     ~/.cache/gotrace-gorel; ci/apt-private.sh, the machine's APT configuration is not
#     touched; only when missing);
#  2. copies its src/internal/trace (1.22: src/internal/trace/v2) into a module of its own,
#     CACHE/mod/goR ("module gtrold"; tests, testdata, traceviewer and the testtrace files
#     other than validation.go left out), its imports rewritten (internal/trace/... ->
#     gtrold/...), with the glue of fuzz/releases/ (readtrace.go: oracle.go's readTrace;
#     version_set.go, version_go121.go or version_none.go; norm_nosync.go for 1.22-1.24,
#     else norm_none.go)
#     and godiff/godiff.go unchanged, fuzz/releases/goR-*.patch applied to it (the
#     release's deliberate formatting changes undone, fuzz/releases/README.md),
#     and builds it with Go 1.27.3's toolchain (ci/oracle-fetch.sh) as
#     CACHE/archive/libgtrdiff-goR.a (go build -buildmode=c-archive; rebuilt only when a
#     source, the glue or this script changed);
#  3. links the variant BUILD/bin/fuzz_diff_goR in one libFuzzer tree (BUILD: $GTR_GOREL_BUILD,
#     default build-gorel; clang-14, -fsanitize=fuzzer,address,undefined as
#     ci/fuzz-libfuzzer.sh builds fuzz_diff), configured once per release with
#     GTR_GO_DIFF_ARCHIVE (and _LIBFUZZER) = that archive and GTR_GO_DIFF_RELEASE=R: the
#     variant reads only the trace versions R reads (go 1.22 .. go 1.R headers; the older
#     formats: --old below), other inputs are skipped;
#  --old: the old formats (go 1.11 - 1.21; releases 1.23 and later, whose
#     internal/oldtrace (1.25+: internal/tracev1) converts them) in place of the release's own:
#     the variant BUILD/bin/fuzz_diff_goR-old (GTR_GO_DIFF_OLD_FORMATS=ON) judges only those
#     headers; the archive is the same (every release's has Go's map order of the conversion
#     fixed as Go 1.27.3's oracle has: tests/oldgo/oracle/v1-order.patch, for 1.23 and 1.24
#     fuzz/releases/oldtrace-order.patch); the seeds are the old-format inputs of at most
#     4 KiB of corpus/fuzz/reader, fuzz/regressions/reader and corpus/go-panics, with
#     -max_len=4096 (old traces are larger); runs in OUT/goR-old, rows "R-old" in results.tsv.
#  4. unless --build-only, runs it N times (default 5) for S seconds (default 60) each, from
#     the reader's seeds of at most 1 KiB on which the release agrees (the others, and what
#     they show, in OUT/goR/seeds-diverging/) (-max_len=1024, the reader's dictionary,
#     -seed=run number), stopping at the first divergence, and writes
#     OUT/goR/run-K/{log,summary,crash-*} and a line per run to OUT/results.tsv:
#     release run seconds_to_first_divergence|- execs class summary-first-line (class: a
#     rough divergence class by its messages, class_of below; the seeds' in
#     OUT/goR/seeds-diverging/classes.tsv)
#     (OUT default BUILD/releases). The summary of each divergence is the fuzz_diff abort text
#     in the log.
#
#  --keep-going: each run goes on after a divergence for its S seconds (libFuzzer's
#     -fork=1 -ignore_crashes=1: one child process at a time, restarted after each find);
#     every find is replayed and classed into OUT/goR/run-K/finds.tsv (seconds since the
#     run's start, by the file's time; class; file), and results.tsv's class column lists
#     each class found with the seconds to its first find (class@seconds,...).
#
# --shared builds CACHE/archive/libgtrdiff-goR.so instead (go build -buildmode=c-shared, the
#    same module; its gtrdiff_go_minor names R) and prints each path: `gotrace reduce --diff
#    --go-library PATH INPUT` then reduces a divergence from that release, gotrace's reading
#    normalised as fuzz_diff_goR's is.
#
# Exit 0 when everything ran (divergences are the measurement, not a failure); 1 when a
# fetch or build failed; 2 with a message when a tool is missing (clang-14/clang, cmake,
# dpkg-deb, apt-get, sha256sum, tar, patch, bc) or on a usage error.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
self=$root/ci/go-releases-bench.sh
cache=${GTR_GOREL_CACHE:-$HOME/.cache/gotrace-gorel}
build=${GTR_GOREL_BUILD:-$root/build-gorel}
releases="" runs=5 secs=60 out="" build_only=0 classify_only=0 keep_going=0 old=0 check_patches=0
shared=0
die2() { echo "go-releases-bench: $*" >&2; exit 2; }
die1() { echo "go-releases-bench: $*" >&2; exit 1; }
# class_of SUMMARY: a divergence class (corpus/go-releases/README.md) from fuzz_diff's abort
# text, by the two messages and endings; "other" when none fits (read the summary).
class_of() {
    local f=$1 gm om ge oe
    [ -s "$f" ] || { echo not-reproduced; return; }
    gm=$(sed -n 's/^gotrace message: //p' "$f" | head -n1)
    om=$(sed -n 's/^go      message: //p' "$f" | head -n1)
    ge=$(sed -n 's/^gotrace ended: //p' "$f" | head -n1)
    oe=$(sed -n 's/^go      ended: //p' "$f" | head -n1)
    case "$gm|$om" in *EndOfGeneration*|*"got event 52"|*"type=52") echo end-of-generation; return ;; esac
    # Go 1.26+ "ended" a generation at byte 52 and read the next batch as gen 0.
    if [ "$gm" = "invalid generation number 0" ] && [ "$om" != "$gm" ]; then echo end-of-generation; return; fi
    case "$gm" in *"after first global sync"*) echo undetermined-after-sync; return ;; esac
    case "$gm|$om" in *"Invalid("*"|"*) case "$om" in *"Invalid("*) ;; *) echo later-event-in-older-trace; return ;; esac ;; esac
    case "$om" in *"without a timestamp: type=51") echo sync-batch-contents; return ;; esac
    case "$gm" in "expected frequency or clock snapshot event"*|"found multiple frequency events"*|"found multiple clock snapshot"*)
        echo sync-batch-contents; return ;; esac
    case "$om" in "error reading batch"*|"failed to read full batch"*|"invalid batch size"*|"expected batch event (EventBatch)"*|"found invalid event type"*|*"varint overflows"*)
        # The old reader failed on a batch that Go 1.23+ reads only after the events before
        # it: another message, or the same one after fewer events.
        if [ "$gm" != "$om" ] || ! grep -q '^event dumps: the same' "$f"; then
            echo spill-next-generation; return
        fi ;; esac
    case "$om" in "broken trace: frontier is empty"*) echo empty-generation; return ;; esac
    case "$gm|$om" in "expected batch event, got event"*"|expected batch event, got "*) echo batch-header-message; return ;; esac
    if [ "$ge" = "$oe" ] && grep -q '^  gotrace: .*ProcID=.*Running->Idle' "$f" && grep -q '^  go: .*Syscall->NotExist' "$f"; then
        echo destroy-syscall-proc; return
    fi
    if grep -q '^  gotrace: TransitionStack=' "$f"; then echo transition-stack; return; fi
    case "$gm|$om" in "multiple trace.stacks with the same ID"*"|multiple trace.stacks with the same ID"*)
        echo dup-stack-message; return ;; esac
    case "$gm" in "invalid stack frame "*) [ "$om" != "$gm" ] && { echo stack-frame-validation; return; } ;; esac
    # The first differing events are on different threads: another order across Ms.
    local gmid omid
    gmid=$(sed -n 's/^  gotrace: M=\([0-9-]*\) .*/\1/p' "$f" | head -n1)
    omid=$(sed -n 's/^  go:      M=\([0-9-]*\) .*/\1/p' "$f" | head -n1)
    if [ -n "$gmid" ] && [ -n "$omid" ] && [ "$gmid" != "$omid" ]; then echo m-order; return; fi
    if grep -q '^  gotrace: .*GC incremental sweep" Scope=Proc' "$f"; then echo sweep-scope; return; fi
    echo other
}

while [ $# -gt 0 ]; do
    case "$1" in
    --releases) releases=${2:?}; shift 2 ;;
    --runs) runs=${2:?}; shift 2 ;;
    --seconds) secs=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --shared) shared=1; shift ;;
    --classify) classify_only=1; shift ;;
    --keep-going) keep_going=1; shift ;;
    --old) old=1; shift ;;
    --check-patches) check_patches=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    --) shift; break ;;
    *) die2 "unknown argument $1 (see --help)" ;;
    esac
done
case "$runs$secs" in *[!0-9]*|'') die2 "--runs and --seconds want numbers" ;; esac
out=${out:-$build/releases}
# sfx: the variant's suffix (binaries, seeds, OUT's folders, results' release column).
sfx="" maxlen=1024
if [ "$old" -eq 1 ]; then
    sfx=-old maxlen=4096
    releases=${releases:-1.23 1.24 1.25 1.26}
    for r in $releases; do
        case "$r" in 1.22) die2 "--old: 1.22 reads no old format (1.23 and later do)" ;; esac
    done
fi
releases=${releases:-1.22 1.23 1.24 1.25 1.26}
suite_of() {
    case "$1" in
    1.22|1.23) echo bookworm-backports ;; 1.24) echo trixie ;; 1.25) echo trixie-backports ;;
    1.26) echo sid ;;
    *) return 1 ;;
    esac
}
if [ "$classify_only" -eq 1 ]; then
    # Classes of an earlier measurement again (class_of may have learnt since): one line
    # per run, "release run class", and each seeds-diverging/classes.tsv rewritten.
    for r in $releases; do
        for k in "$out/go$r$sfx"/run-*; do
            [ -d "$k" ] || continue
            if [ -f "$k/finds.tsv" ]; then   # --keep-going: every find, then the first of each class
                while IFS=$'\t' read -r t _ f; do
                    printf '%s\t%s\t%s\n' "$t" "$(class_of "$k/$f.summary")" "$f"
                done <"$k/finds.tsv" >"$k/finds.tsv.new"
                mv "$k/finds.tsv.new" "$k/finds.tsv"
                printf '%s\t%s\t%s\n' "$r$sfx" "${k##*/run-}" "$(awk -F'\t' '!($2 in s) { s[$2] = $1; o[++n] = $2 } END { for (i = 1; i <= n; i++) printf "%s%s@%s", (i > 1 ? "," : ""), o[i], s[o[i]] }' "$k/finds.tsv")"
            elif [ -f "$k/summary" ]; then
                printf '%s\t%s\t%s\n' "$r$sfx" "${k##*/run-}" "$(class_of "$k/summary")"
            fi
        done
        d=$out/go$r$sfx/seeds-diverging
        [ -d "$d" ] || continue
        for f in "$d"/*.summary; do
            if [ -f "$f" ]; then printf '%s\t%s\n' "$(class_of "$f")" "${f##*/}"; fi
        done | sort >"$d/classes.tsv"
    done
    exit 0
fi
for r in $releases; do suite_of "$r" >/dev/null || die2 "release $r not supported (1.22 1.23 1.24 1.25 1.26)"; done
# order_patch R: the patch that fixes Go's map order in R's conversion of the old formats, as
# tests/oldgo/oracle/ fixes Go 1.27.3's, and the -p operand for the module's tree; nothing for
# 1.22 (no conversion).
order_patch() {
    case "$1" in
    1.22) ;;
    1.23|1.24) echo "$root/fuzz/releases/oldtrace-order.patch 1" ;;
    *) echo "$root/tests/oldgo/oracle/v1-order.patch 3" ;;
    esac
}
# apply_patches R DIR: fuzz/releases/goR-*.patch (the release's deliberate changes of
# formatting undone, fuzz/releases/README.md) and R's order patch applied to DIR, a copy of
# R's internal/trace.
apply_patches() {
    local r=$1 dir=$2 p op
    for p in "$root/fuzz/releases/go$r-"*.patch; do
        [ -f "$p" ] || continue
        patch -s -p1 -d "$dir" <"$p" || { echo "go-releases-bench: $p does not apply" >&2; return 1; }
    done
    # Go's map order in the old formats' conversion fixed, as in Go 1.27.3's archive.
    op=$(order_patch "$r")
    if [ -n "$op" ]; then
        patch -s -p"${op#* }" -d "$dir" <"${op% *}" ||
            { echo "go-releases-bench: ${op% *} does not apply to $r" >&2; return 1; }
    fi
}
# release_src R: R's internal/trace in the cache (1.22: internal/trace/v2).
release_src() {
    local src=$cache/unpacked/usr/share/go-$1/src/internal/trace
    [ "$1" = 1.22 ] && src=$src/v2
    echo "$src"
}
if [ "$check_patches" -eq 1 ]; then
    command -v patch >/dev/null || die2 "no patch"
    checked=0 failed=0
    for r in $releases; do
        src=$(release_src "$r")
        [ -f "$src/reader.go" ] || { echo "go-releases-bench: $r: no source cached ($src), not checked" >&2; continue; }
        tmp=$(mktemp -d)
        cp -r "$src/." "$tmp/"
        if apply_patches "$r" "$tmp"; then
            echo "go-releases-bench: $r: the patches apply"
        else
            failed=$((failed + 1))
        fi
        rm -rf "$tmp"
        checked=$((checked + 1))
    done
    [ "$checked" -gt 0 ] || { echo "go-releases-bench: no release's source cached: nothing checked" >&2; exit 77; }
    [ "$failed" -eq 0 ] || exit 1
    exit 0
fi
cc=${CC:-$(command -v clang-14 || command -v clang || true)}
[ -n "$cc" ] || die2 "no clang-14 or clang (apt-get install clang-14)"
for t in cmake dpkg-deb apt-get sha256sum tar patch bc; do
    command -v "$t" >/dev/null || die2 "no $t"
done
"$cc" -fsanitize=fuzzer -x c -o /dev/null - <<<'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){return 0;}' \
    2>/dev/null || die2 "$cc cannot link -fsanitize=fuzzer (libFuzzer missing)"

# Go 1.27.3's toolchain (the oracle's).
oracle_cache=${GTR_ORACLE_CACHE:-$HOME/.cache/gotrace-oracle}
bash "$root/ci/oracle-fetch.sh" "$oracle_cache" >/dev/null ||
    die2 "no Go 1.27.3 toolchain (ci/oracle-fetch.sh failed)"
goroot=$oracle_cache/unpacked/usr/lib/go-1.27

# 1. Sources.
mkdir -p "$cache"/{debs,unpacked,mod,archive}
apt_ready=0
apt_setup() {
    [ "$apt_ready" -eq 1 ] && return 0
    # shellcheck source=ci/apt-private.sh
    . "$root/ci/apt-private.sh"
    local k=/usr/share/keyrings/debian-archive-keyring.gpg
    apt_private "$cache" "deb [signed-by=$k] @URI@ sid main" \
        "deb [signed-by=$k] @URI@ bookworm-backports main" \
        "deb [signed-by=$k] @URI@ trixie main" \
        "deb [signed-by=$k] @URI@ trixie-backports main" ||
        { echo "go-releases-bench: no package lists (no network?)" >&2; return 1; }
    apt_ready=1
}
srcdir() { echo "$cache/unpacked/usr/share/go-$1/src/internal/trace${2:+}"; }
fetch_src() { # fetch_src R: only src/internal/trace is unpacked
    local r=$1 pkg=golang-$1-src
    if ! ls "$cache/debs/${pkg}_"*.deb >/dev/null 2>&1; then
        apt_setup || return 1
        (cd "$cache/debs" && apt-get download -qq "$pkg/$(suite_of "$r")" >/dev/null 2>&1) ||
            { echo "go-releases-bench: cannot download $pkg ($(suite_of "$r"))" >&2; return 1; }
    fi
    if [ ! -f "$cache/unpacked/$pkg.done" ]; then
        dpkg-deb --fsys-tarfile "$cache/debs/${pkg}_"*.deb |
            tar -x -C "$cache/unpacked" --wildcards "./usr/share/go-$r/src/internal/trace*" ||
            { echo "go-releases-bench: cannot unpack $pkg" >&2; return 1; }
        touch "$cache/unpacked/$pkg.done"
    fi
}

# 2. The module and its archive.
glue_files() { # glue_files R: the fuzz/releases files of R's program
    local r=$1 g=$root/fuzz/releases
    echo "$g/readtrace.go"
    case "$r" in 1.22) echo "$g/version_none.go" ;; 1.23|1.24) echo "$g/version_go121.go" ;; *) echo "$g/version_set.go" ;; esac
    case "$r" in 1.22|1.23|1.24) echo "$g/norm_nosync.go" ;; *) echo "$g/norm_none.go" ;; esac
    echo "$root/godiff/godiff.go"
}
build_archive() { # build_archive R [so]: prints the archive's (or the shared library's) path
    local r=$1 ext=${2:-a} src mod a stamp mode=c-archive
    [ "$ext" = so ] && mode=c-shared
    src=$(release_src "$r")
    [ -f "$src/reader.go" ] || { echo "go-releases-bench: no reader.go in $src" >&2; return 1; }
    mod=$cache/mod/go$r a=$cache/archive/libgtrdiff-go$r.$ext
    stamp=$( (cd "$src" && find . -name '*.go' | LC_ALL=C sort | xargs cat; glue_files "$r" | xargs cat; cat "$root/fuzz/releases/go$r-"*.patch 2>/dev/null || true; order_patch "$r" | cut -d' ' -f1 | xargs -r cat;
              cat "$self"; "$goroot/bin/go" version) | sha256sum | cut -c1-16)
    if [ -f "$a" ] && [ "$(cat "$a.stamp" 2>/dev/null)" = "$stamp" ]; then echo "$a"; return 0; fi
    rm -rf "$mod"
    mkdir -p "$mod"
    (cd "$src" && tar -c --exclude=testdata --exclude=traceviewer --exclude='*_test.go' \
        --exclude='./internal/testgen' --exclude='./v2' --exclude='*.bash' . ) | tar -x -C "$mod"
    find "$mod/testtrace" -name '*.go' ! -name validation.go -delete
    apply_patches "$r" "$mod" || return 1
    # internal/trace/v2/X (1.22) and internal/trace/X -> gtrold/X.
    find "$mod" -name '*.go' -exec sed -i -E \
        -e 's#"internal/trace/v2(/[^"]*)?"#"gtrold\1"#' -e 's#"internal/trace(/[^"]*)?"#"gtrold\1"#' {} +
    printf 'module gtrold\n\ngo %s\n' "$r" >"$mod/go.mod"
    mkdir -p "$mod/cmd/gtrdiff"
    glue_files "$r" | while read -r f; do cp "$f" "$mod/cmd/gtrdiff/"; done
    printf 'package main\n\nconst goMinor = %s\n' "${r#1.}" >"$mod/cmd/gtrdiff/minor.go"
    (cd "$mod" && GOROOT=$goroot GOCACHE="$oracle_cache/gocache" GOTOOLCHAIN=local GOFLAGS='' \
        GO111MODULE=on GOPROXY=off GOPATH="$cache/gopath" CGO_ENABLED=1 \
        "$goroot/bin/go" build -buildmode=$mode -trimpath -o "$a.new" ./cmd/gtrdiff >&2) ||
        { rm -f "$a.new" "$cache/archive/libgtrdiff-go$r.new.h"; echo "go-releases-bench: building $r's archive failed" >&2; return 1; }
    mv -f "$a.new" "$a"
    rm -f "$cache/archive/libgtrdiff-go$r.new.h" "$a.new.h" "$a.h"
    echo "$stamp" >"$a.stamp"
    echo "$a"
}

# 3. The fuzz_diff variants.
link_variant() { # link_variant R ARCHIVE
    local r=$1 a=$2 minor=${1#1.}
    cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DGTR_BUILD_FUZZERS=ON -DGTR_BUILD_TESTS=OFF \
        -DGTR_SANITIZE='address;undefined;float-divide-by-zero' \
        -DGTR_GO_DIFF_ARCHIVE="$a" -DGTR_GO_DIFF_ARCHIVE_LIBFUZZER="$a" \
        -DGTR_GO_DIFF_RELEASE="$minor" -DGTR_GO_DIFF_OLD_FORMATS="$([ "$old" -eq 1 ] && echo ON || echo OFF)" \
        >/dev/null || return 1
    cmake --build "$build" -j2 --target fuzz_diff fuzz_dicts >/dev/null || return 1
    cp -f "$build/bin/fuzz_diff" "$build/bin/fuzz_diff_go$r$sfx"
}

if [ "$shared" -eq 1 ]; then
    for r in $releases; do
        fetch_src "$r" || die1 "no source for $r"
        build_archive "$r" so || die1 "no shared library for $r"
    done
    exit 0
fi
for r in $releases; do
    fetch_src "$r" || die1 "no source for $r"
    a=$(build_archive "$r") || die1 "no archive for $r"
    link_variant "$r" "$a" || die1 "linking fuzz_diff_go$r$sfx failed"
    echo "go-releases-bench: $build/bin/fuzz_diff_go$r$sfx ($a)"
done
[ "$build_only" -eq 1 ] && exit 0

# 4. The runs.
mkdir -p "$out"
res=$out/results.tsv
[ -f "$res" ] || printf 'release\trun\tseconds\texecs\tclass\tsummary\n' >"$res"
seeds=$build/seeds-1k
if [ "$old" -eq 1 ]; then seeds=$build/seeds-old-4k; fi
rm -rf "$seeds"; mkdir -p "$seeds"
if [ "$old" -eq 1 ]; then
    # Old-format inputs: the header "go 1.NN trace" with 11 <= NN <= 21.
    find "$root/corpus/fuzz/reader" "$root/fuzz/regressions/reader" "$root/corpus/go-panics" \
        -type f -size -4097c -print0 | while IFS= read -r -d '' f; do
        case "$(head -c 13 "$f" | tr -d '\0')" in
        "go 1.1"[1-9]" trace"|"go 1.2"[01]" trace") cp "$f" "$seeds/${f##*/}" ;;
        esac
    done
else
    find "$root/corpus/fuzz/reader" -type f -size -1025c -exec cp {} "$seeds/" \;
fi
# seeds_for R: the seeds on which R's variant agrees with gotrace, into BUILD/seeds-goR; the
# others into OUT/goR/seeds-diverging/, each with its summary (NAME.summary): what the seeds
# alone show, before any fuzzing. Each seed is run alone (two at a time).
seeds_for() {
    local r=$1
    local s=$build/seeds-go$r$sfx d=$out/go$r$sfx/seeds-diverging f
    rm -rf "$s" "$d"
    mkdir -p "$s" "$d"
    cp "$seeds"/* "$s/"
    export GOREL_BIN=$build/bin/fuzz_diff_go$r$sfx GOREL_DIV=$d
    # shellcheck disable=SC2016 # expanded by the inner sh
    find "$s" -type f -print0 | xargs -0 -P2 -n1 sh -c '
        "$GOREL_BIN" -rss_limit_mb=2560 "$1" >"$GOREL_DIV/.${1##*/}.log" 2>&1 && exit 0
        mv "$1" "$GOREL_DIV/"
        sed -n "/^==== fuzz_diff/,/fuzz oracle failed/p" "$GOREL_DIV/.${1##*/}.log" >"$GOREL_DIV/${1##*/}.summary"' sh
    rm -f "$d"/.*.log
    for f in "$d"/*.summary; do
        if [ -f "$f" ]; then printf '%s\t%s\n' "$(class_of "$f")" "${f##*/}"; fi
    done | sort >"$d/classes.tsv"
    echo "go-releases-bench: $r: $(find "$d" -name '*.summary' | wc -l) seeds diverge ($d), $(find "$s" -type f | wc -l) agree" >&2
}

# keep_going_finds R DIR T0: every crash-* of DIR replayed and classed, by time: DIR/finds.tsv.
keep_going_finds() {
    local r=$1 d=$2 t0=$3 f m
    : >"$d/finds.tsv"
    find "$d" -maxdepth 1 -name 'crash-*' -printf '%T@ %p\n' | sort -n | head -n 400 |
        while read -r m f; do
            "$build/bin/fuzz_diff_go$r$sfx" -rss_limit_mb=2560 "$f" >"$d/.replay.log" 2>&1 || true
            sed -n '/^==== fuzz_diff/,/fuzz oracle failed/p' "$d/.replay.log" >"$f.summary"
            printf '%.2f\t%s\t%s\n' "$(echo "$m - $t0" | bc)" "$(class_of "$f.summary")" "${f##*/}"
        done >>"$d/finds.tsv"
    rm -f "$d/.replay.log"
}

for r in $releases; do
    seeds_for "$r" || die1 "replaying the seeds for $r failed"
    for k in $(seq 1 "$runs"); do
        d=$out/go$r$sfx/run-$k
        rm -rf "$d"; mkdir -p "$d/corpus" "$d/gopanic"
        t0=$(date +%s.%N) rc=0
        fork=()
        [ "$keep_going" -eq 1 ] && fork=(-fork=1 -ignore_crashes=1)
        GTR_DIFF_GOPANIC_DIR=$d/gopanic \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:silence_unsigned_overflow=1 \
            "$build/bin/fuzz_diff_go$r$sfx" -max_len="$maxlen" -timeout=20 -rss_limit_mb=2560 \
            -dict="$build/bin/fuzz_reader.dict" -seed="$k" -max_total_time="$secs" \
            -print_final_stats=1 -artifact_prefix="$d/" "${fork[@]}" "$@" "$d/corpus" "$build/seeds-go$r$sfx" \
            >"$d/log" 2>&1 || rc=$?
        t1=$(date +%s.%N)
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log" | tail -1)
        if [ "$keep_going" -eq 1 ]; then
            keep_going_finds "$r" "$d" "$t0"
            secs_found=$(head -n1 "$d/finds.tsv" | cut -f1)
            class=$(awk -F'\t' '!($2 in s) { s[$2] = $1; o[++n] = $2 } END { for (i = 1; i <= n; i++) printf "%s%s@%s", (i > 1 ? "," : ""), o[i], s[o[i]] }' "$d/finds.tsv")
            execs=$(grep -oE '^#[0-9]+' "$d/log" | tail -n1 | tr -d '#')
            summary="$(wc -l <"$d/finds.tsv") finds"
            printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$r$sfx" "$k" "${secs_found:--}" "${execs:--}" "${class:--}" "$summary" | tee -a "$res"
            continue
        fi
        if [ "$rc" -ne 0 ]; then
            secs_found=$(echo "$t1 - $t0" | bc)
            sed -n '/^==== fuzz_diff/,/fuzz oracle failed/p' "$d/log" >"$d/summary"
            summary=$(grep -m1 -E "^event dumps: |^==[0-9]+==ERROR: |^ERROR: " "$d/log" | tr '\t' ' ' || true)
            summary="$summary | $(grep -m1 '^go      message: ' "$d/log" | cut -c1-120 || true)"
            class=$(class_of "$d/summary")
        else
            secs_found=- summary=- class=-
        fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$r$sfx" "$k" "$secs_found" "${execs:--}" "$class" "$summary" | tee -a "$res"
    done
done
