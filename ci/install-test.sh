#!/usr/bin/env bash
# install-test.sh: libtrace as an installed library. Builds and installs the project into a
# temporary prefix, then builds the examples against the installed tree only and runs them:
#
#   bash ci/install-test.sh
#
#  1. setup    install what is missing (Debian 12, root), as ci/setup.sh does.
#  2. install  configure (-DGTR_WERROR=ON, no tests), build gotrace_installable only (as the
#              main job does), `cmake --install --prefix P`;
#              the headers, libgtr.a, libgtr.so.0, gotrace, gotrace(1), gtr.pc, gtr-static.pc
#              and the CMake package must be there, and libgtr.so must export gtr_ symbols
#              only.
#  3. per example (examples/*.c): built with `cc $(pkg-config --cflags --libs gtr)` (must
#              need libgtr.so) and with gtr-static (libgtr.a: must not need it, and runs
#              without LD_LIBRARY_PATH; count_events with --static too; write_trace with
#              gtr-testgen, which links libgtr.a too), with the examples/ CMake project
#              (find_package(gotrace): gotrace::gtr, static, and gotrace::gtr_shared;
#              write_trace: gotrace::tgen), and count_events also as C++ with g++ (and
#              against gtr-testgen, whose headers must be C++-clean too); every reader runs on
#              corpus/real/testprog-annotations.trace.gz and must exit 0 with plausible
#              output; write_trace writes a .test that the installed `gotrace check` passes;
#              validate_trace (the README's example) validates a go1.22 and a go1.19 trace.
#  4. abi      ci/abi-check.sh: libgtr.so's ABI against the baseline ci/abi/libgtr.so.MAJOR.abi
#              (abidiff; an incompatible change fails: see that script for the policy).
# Prints one line per check and a summary; exit status 0 only when every check passed.
# Environment: JOBS (default 2), KEEP=1 keeps the temporary directory (printed), TRACE (the
# trace to run the examples on instead).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
jobs=${JOBS:-2}
trace=${TRACE:-$root/corpus/real/testprog-annotations.trace.gz}
exec </dev/null

results=()
failed=0
record() { # record CHECK STATUS [NOTE]
    results+=("$(printf '%-42s %s%s' "$1" "$2" "${3:+ ($3)}")")
    echo "install-test: $1: $2${3:+ ($3)}"
    [ "$2" = FAILED ] && failed=1
    return 0
}
summary() {
    echo
    echo "==== install-test summary"
    printf '  %s\n' "${results[@]}"
    if [ "$failed" -ne 0 ]; then
        echo "ci/install-test.sh: FAILED"
        exit 1
    fi
    echo "ci/install-test.sh: all checks passed"
    exit 0
}

# 1. setup: the packages this script needs (ci/setup.sh's way: dpkg first, apt only if needed).
want=(build-essential gcc g++ cmake pkg-config zlib1g-dev libpcre2-dev binutils)
installed() { # installed PKG: dpkg knows PKG as installed
    dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^ii'
}
missing=()
for p in "${want[@]}"; do
    installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
    echo "install-test: installing ${missing[*]}"
    if [ "$(id -u)" -ne 0 ]; then
        record setup FAILED "missing ${missing[*]} and not root"
        summary
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    for p in "${missing[@]}"; do
        installed "$p" || { record setup FAILED "$p did not install"; summary; }
    done
fi
record setup ok

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtr-install.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
    echo "install-test: keeping $tmp"
else
    trap 'rm -rf "$tmp"' EXIT
fi
prefix=$tmp/prefix

# 2. build and install.
if ! cmake -S "$root" -B "$tmp/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGTR_WERROR=ON \
        -DGTR_BUILD_TESTS=OFF >"$tmp/configure.log" 2>&1; then
    tail -n 20 "$tmp/configure.log"
    record install FAILED configure
    summary
fi
# Only what is installed (gotrace_installable, as the main job builds it): the rest of the
# tree need not be built for `cmake --install` to succeed.
if ! cmake --build "$tmp/build" -j"$jobs" --target gotrace_installable >"$tmp/build.log" 2>&1
then
    grep -E "error|warning" "$tmp/build.log" | head -n 40
    record install FAILED build
    summary
fi
if ! cmake --install "$tmp/build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
    tail -n 20 "$tmp/install.log"
    record install FAILED "cmake --install"
    summary
fi
pc=$(find "$prefix" -name gtr.pc | head -n 1)
libdir=$(dirname "$(dirname "${pc:-$prefix/lib/pkgconfig/gtr.pc}")")
absent=()
for f in include/gtr/gtr.h include/gtr/version.h include/gtr/reader.h include/gtr/event.h \
         include/tgen/tgen.h include/tgen/fixture.h include/txtar.h bin/gotrace \
         share/man/man1/gotrace.1; do
    [ -f "$prefix/$f" ] || absent+=("$f")
done
for f in libgtr.a libgtr.so.0 libgtr_txtar.a libgtr_testgen.a pkgconfig/gtr.pc \
         pkgconfig/gtr-static.pc pkgconfig/gtr-txtar.pc pkgconfig/gtr-testgen.pc \
         cmake/gotrace/gotraceConfig.cmake \
         cmake/gotrace/gotraceConfigVersion.cmake cmake/gotrace/gotraceTargets.cmake \
         cmake/gotrace/gotraceTestgenTargets.cmake; do
    [ -e "$libdir/$f" ] || absent+=("${libdir#"$prefix"/}/$f")
done
if [ ${#absent[@]} -ne 0 ]; then
    record install FAILED "not installed: ${absent[*]}"
    summary
fi
record install ok "$(find "$prefix" -type f | wc -l) files"
if "$prefix/bin/gotrace" --version >/dev/null; then
    record "installed gotrace runs" ok
else
    record "installed gotrace runs" FAILED "gotrace --version"
fi
others=$(nm -D --defined-only "$libdir/libgtr.so.0" | awk '$3 !~ /^gtr_/ {print $3}')
if [ -n "$others" ]; then
    record "libgtr.so exports" FAILED "not gtr_: $(echo "$others" | head -n 5 | tr '\n' ' ')"
else
    record "libgtr.so exports" ok "$(nm -D --defined-only "$libdir/libgtr.so.0" | wc -l) gtr_ symbols"
fi

# plausible NAME OUT: the example's output looks like what it should print.
plausible() {
    case "$1" in
        count_events) grep -q '^Sync  *[1-9]' "$2" && grep -q '^StateTransition  *[1-9]' "$2" ;;
        goroutine_summary) head -n 1 "$2" | grep -q '^ *goroutine *running' &&
                           [ "$(wc -l <"$2")" -ge 2 ] ;;
        write_trace) grep -q ' valid events$' "$2" &&
                     "$prefix/bin/gotrace" check "$3" >"$2.check" 2>&1 ;;
        validate_trace) grep -q '^[1-9][0-9]* valid events$' "$2" ;;
        *) [ -s "$2" ] ;;
    esac
}
# run_example CHECK NAME BINARY [TRACE]: run BINARY on TRACE (default: the trace; write_trace:
# writing a .test of its own), record CHECK.
run_example() {
    local check=$1 name=$2 bin=$3 out=$tmp/$1.out rc=0 arg=${4:-$trace}
    [ "$name" = write_trace ] && arg=$tmp/$check.test
    LD_LIBRARY_PATH=$ld_path "$bin" "$arg" >"$out" 2>"$out.err" || rc=$?
    if [ "$rc" -ne 0 ]; then
        record "$check" FAILED "exit $rc: $(head -c 200 "$out.err")"
    elif ! plausible "$name" "$out" "$arg"; then
        record "$check" FAILED "implausible output: $(head -n 3 "$out" | tr '\n' ' ')"
    else
        record "$check" ok "$(wc -l <"$out") lines"
    fi
}

# 3. the examples against the installed tree. gtr.pc links libgtr.so (run with
# LD_LIBRARY_PATH: no rpath); gtr-static.pc links libgtr.a, with or without --static, and
# gtr-testgen.pc links it too: those binaries must not need libgtr.so, and run without
# LD_LIBRARY_PATH.
export PKG_CONFIG_PATH=$libdir/pkgconfig
ld_path=$libdir
read -r -a gtr_flags <<<"$(pkg-config --cflags --libs gtr)"
read -r -a static_flags <<<"$(pkg-config --cflags --libs gtr-static)"
read -r -a static_flags_s <<<"$(pkg-config --cflags --libs --static gtr-static)"
read -r -a tgen_flags <<<"$(pkg-config --cflags --libs gtr-testgen)"
warn=(-Wall -Wextra -Wpedantic -Werror)
examples=()
for src in examples/*.c; do
    examples+=("$(basename "$src" .c)")
done
# needs_libgtr_so BINARY: BINARY's dynamic section needs libgtr.so.
needs_libgtr_so() { readelf -d "$1" 2>/dev/null | grep -q 'NEEDED.*\[libgtr\.so'; }
# build_pc NAME PC LINK FLAGS...: examples/NAME.c built with FLAGS (pkg-config PC's) and run.
# LINK shared: the binary must need libgtr.so; static: it must not, and runs without
# LD_LIBRARY_PATH.
build_pc() {
    local ex=$1 pc=$2 link=$3 bin=$tmp/$1.${2// /}
    local check="$ex (pkg-config $pc, cc)"
    shift 3
    if ! cc -std=c11 "${warn[@]}" "examples/$ex.c" "$@" -o "$bin" 2>"$bin.log"; then
        record "$check" FAILED "$(head -c 300 "$bin.log")"
    elif [ "$link" = shared ] && ! needs_libgtr_so "$bin"; then
        record "$check" FAILED "does not link libgtr.so"
    elif [ "$link" = static ] && needs_libgtr_so "$bin"; then
        record "$check" FAILED "links libgtr.so"
    else
        [ "$link" = static ] && ld_path=
        run_example "$check" "$ex" "$bin"
        ld_path=$libdir
    fi
}
for ex in "${examples[@]}"; do
    if [ "$ex" = write_trace ]; then
        build_pc "$ex" gtr-testgen static "${tgen_flags[@]}"
    else
        build_pc "$ex" gtr shared "${gtr_flags[@]}"
        build_pc "$ex" gtr-static static "${static_flags[@]}"
    fi
done
build_pc count_events "gtr-static --static" static "${static_flags_s[@]}"
# The README's example as written (validate_trace: no version given to the validator) on a
# go1.22 and a go1.19 trace, whose first events fail as of the current version.
ld_path=
for t in real/go1.22-testprog-gc-stress old/go1.19-gc; do
    run_example "validate_trace ${t#*/} (pkg-config gtr-static)" validate_trace \
        "$tmp/validate_trace.gtr-static" "$root/corpus/$t.trace.gz"
done
ld_path=$libdir
if g++ -x c++ -std=c++17 "${warn[@]}" examples/count_events.c -x none "${gtr_flags[@]}" \
        -o "$tmp/count_events.cxx" 2>"$tmp/cxx.log"; then
    run_example "count_events (pkg-config, g++)" count_events "$tmp/count_events.cxx"
else
    record "count_events (pkg-config, g++)" FAILED "$(head -c 300 "$tmp/cxx.log")"
fi
# The installed testgen and txtar headers in C++ (count_events with them included).
if g++ -x c++ -std=c++17 "${warn[@]}" -include tgen/tgen.h -include tgen/fixture.h \
        -include txtar.h examples/count_events.c -x none "${tgen_flags[@]}" \
        -o "$tmp/count_events.tgen.cxx" 2>"$tmp/cxx-tgen.log"; then
    run_example "count_events (gtr-testgen, g++)" count_events "$tmp/count_events.tgen.cxx"
else
    record "count_events (gtr-testgen, g++)" FAILED "$(head -c 300 "$tmp/cxx-tgen.log")"
fi
for kind in static shared; do
    dir=$tmp/examples-$kind
    shared=OFF
    [ "$kind" = shared ] && shared=ON
    if cmake -S examples -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" -DGTR_EXAMPLES_SHARED=$shared \
            -DCMAKE_C_FLAGS="${warn[*]}" >"$dir.log" 2>&1 &&
            cmake --build "$dir" -j"$jobs" >>"$dir.log" 2>&1; then
        for ex in "${examples[@]}"; do
            run_example "$ex (find_package, $kind)" "$ex" "$dir/$ex"
        done
    else
        tail -n 20 "$dir.log"
        record "examples (find_package, $kind)" FAILED "configure or build"
    fi
done

# 4. the ABI of libgtr.so against the committed baseline.
if bash ci/abi-check.sh >"$tmp/abi.log" 2>&1; then
    record abi ok "$(tail -n 1 "$tmp/abi.log" | sed 's/^abi-check: ok, //')"
else
    tail -n 40 "$tmp/abi.log"
    record abi FAILED "ci/abi-check.sh; after an intended change: bash ci/abi-check.sh --update"
fi
summary
