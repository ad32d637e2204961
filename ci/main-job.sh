#!/usr/bin/env bash
# main-job.sh: the main job: build gotrace, regenerate the fixture corpus, run the golden
# runner over every fixture, fuzz briefly, and summarise.
#
#   bash ci/main-job.sh
#
#  1. ci/setup.sh (installs what is missing; Debian 12, root)
#  2. build gotrace and what `cmake --install build-main` installs (build-main/, Release,
#     profile-guided: ci/pgo-build.sh)
#  3. gotrace gen --out corpus/tests          (every testgen generator writes its fixture)
#  4. gotrace check corpus/upstream corpus/tests
#  5. when ci/fuzz-ci.sh exists: replay of the fuzz corpora and FUZZ_SECONDS (default 10) of
#     fuzzing per target
#  6. summary: fixtures generated, passed, failed, time taken
# On an idle 2-core machine, once it is set up, step 2 takes about 1.5 minutes the first time
# (80 s measured, bench/README.md) and is made again only when the sources change; steps 3-4
# take well under a second (the README says the same). Exit status 0 when every fixture passed
# and the fuzz run (if any) found nothing.
#
# Environment: JOBS (default 2), FUZZ_SECONDS (default 10; 0 skips fuzzing, keeps the replay).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=${JOBS:-2}
export FUZZ_SECONDS=${FUZZ_SECONDS:-10}
exec </dev/null
build=$root/build-main
start=$(date +%s)
now() { echo $(( $(date +%s) - start )); }

bash ci/setup.sh || { echo "main-job: setup failed" >&2; exit 1; }

echo "== build ($(now) s)"
# Release, link-time and profile-guided optimised (ci/pgo-build.sh: an instrumented build, a
# training run over traces the benchmarks do not measure, the build with its profile; about
# 1.5 minutes the first time, then again only when the sources change). gotrace_installable
# (libgtr.so and the man page beside what gotrace needs) leaves a tree that
# `cmake --install build-main --prefix P` installs.
if ! JOBS=$jobs bash ci/pgo-build.sh "$build" gotrace gotrace_installable \
        -- -DGTR_BUILD_TESTS=OFF; then
    echo "main-job: build FAILED" >&2
    exit 1
fi
gotrace=$build/bin/gotrace
built_at=$(now)

echo "== gotrace gen --out corpus/tests ($(now) s)"
generated=0
gen_status=ok
if "$gotrace" gen --out corpus/tests; then
    generated=$(ls corpus/tests/*.test 2>/dev/null | wc -l)
else
    gen_status=FAILED
fi
if command -v git >/dev/null && git -C "$root" rev-parse >/dev/null 2>&1; then
    changed=$(git -C "$root" status --porcelain -- corpus/tests | wc -l)
else
    changed="?"
fi

echo "== gotrace check corpus/upstream corpus/tests ($(now) s)"
report=$("$gotrace" check corpus/upstream corpus/tests)
check_rc=$?
printf '%s\n' "$report"
summary=$(printf '%s\n' "$report" | tail -n 1)
passed=$(echo "$summary" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
nfailed=$(echo "$summary" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
checked_at=$(now)

fuzz_status="skipped (no ci/fuzz-ci.sh)"
if [ -f ci/fuzz-ci.sh ]; then
    echo "== fuzz: replay + ${FUZZ_SECONDS} s per target ($(now) s)"
    if JOBS=$jobs bash ci/fuzz-ci.sh; then
        fuzz_status="ok (FUZZ_SECONDS=$FUZZ_SECONDS)"
    else
        fuzz_status=FAILED
    fi
fi

echo
echo "==== main job summary"
echo "  fixtures generated: $generated (gen $gen_status; files changed vs git: $changed)"
echo "  fixtures passed:    ${passed:-?}"
echo "  fixtures failed:    ${nfailed:-?}"
echo "  fuzz:               $fuzz_status"
echo "  time: build ${built_at} s, gen+check $(( checked_at - built_at )) s, total $(now) s"
if [ "$gen_status" != ok ] || [ "$check_rc" -ne 0 ] || [ "$fuzz_status" = FAILED ]; then
    echo "main-job: FAILED"
    exit 1
fi
echo "main-job: ok"
