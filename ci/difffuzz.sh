#!/usr/bin/env bash
# difffuzz.sh: the differential campaign of gotrace against Go 1.27.3 (issue 13, part 4).
#
#   bash ci/difffuzz.sh [--seed S] [--out DIR] [--jobs J] [--known FILE] [--only mutants|sim]
#                       [--part I/K] N
#
# Makes N structure-aware mutants of the seeds (fuzz/structure/make_mutants: corpus/upstream,
# corpus/tests, corpus/real traces under 64 KiB, corpus/fuzz/reader) and, when the CLI has
# `gotrace sim`, N model traces (`gotrace sim --seed K`, versions in turn); otherwise that half
# is skipped with a message. Each input is read with `gotrace validate --log-events` and with
# the oracle's `validate` (ci/difffuzz/judge.sh), and classified: identical, Go
# nondeterministic (Go's own runs differ), diverging, Go panics, gotrace crash (signal,
# sanitizer report, leak) or hang. Prints the counts per half. Every diverging, Go-panic,
# crash and hang input is kept with both outputs in DIR/<class>/ (default build-difffuzz/).
# A diverging input whose stderr ("gotrace: ...") or Go's ("error: ...") has a line matching a
# line of FILE (default ci/difffuzz/known.txt: grep -E patterns, each documented in
# ci/difffuzz/KNOWN.md) is counted as "known".
#
# --only mutants (or sim) runs one half: a long campaign runs the two as two processes.
# --part I/K (0 <= I < K) judges only the I-th of K equal slices of each half's inputs
# 0..N-1 (the same inputs a whole run makes: mutant and model seeds depend on the index, not
# on the slice), so that K processes with the same seed and N, each with its own --out, make
# one campaign together; add up their verdicts.txt.
# Exit status: 1 on any unexplained divergence, crash or hang (so a short run, N=300, is a CI
# check); 2 when the tools cannot be had; else 0.
#
# The same judgment runs in one process, far faster and guided by coverage, in the fuzz
# targets fuzz_diff and fuzz_diff_sim (fuzz/README.md; ci/fuzz-ci.sh runs them where Go's
# reader can be built as a C archive, ci/go-diff-archive.sh); this script is the route that
# needs only the oracle's binary, and the one that classifies and keeps every input.
# Environment: GOTRACE (default: the ASan build's gotrace, build-asan/bin/, else build-ci/bin/;
# an ASan build catches more), MAKE_MUTANTS (default: beside GOTRACE), GTR_ORACLE (default:
# ci/oracle-fetch.sh), BATCH (inputs per judge.sh process, default 50), TIMEOUT, GO_RUNS.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seed=1
out=$root/build-difffuzz
jobs=2
known=$root/ci/difffuzz/known.txt
only=""
part=0 parts=1
while [ $# -gt 0 ]; do
    case $1 in
        --seed) seed=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --known) known=$2; shift 2 ;;
        --only) only=$2; shift 2
            case $only in mutants|sim) ;; *) echo "difffuzz: --only mutants or --only sim" >&2; exit 2 ;; esac ;;
        --part) part=${2%/*} parts=${2#*/}; shift 2
            [ "$parts" -ge 1 ] 2>/dev/null && [ "$part" -ge 0 ] 2>/dev/null && [ "$part" -lt "$parts" ] ||
                { echo "difffuzz: --part I/K with 0 <= I < K" >&2; exit 2; } ;;
        -h|--help) sed -n '2,33p' "$0"; exit 0 ;;
        -*) echo "difffuzz: unknown flag $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -eq 1 ] && [ "$1" -ge 1 ] 2>/dev/null || { sed -n '2,33p' "$0" >&2; exit 2; }
n=$1
lo=$(( n * part / parts ))   # this process judges inputs lo..hi-1 of each half
hi=$(( n * (part + 1) / parts ))

gotrace=${GOTRACE:-}
if [ -z "$gotrace" ]; then
    for b in "$root/build-asan" "$root/build-ci" "$root/build"; do
        if [ -x "$b/bin/gotrace" ] && [ -x "$b/bin/make_mutants" ]; then gotrace=$b/bin/gotrace; break; fi
    done
fi
[ -n "$gotrace" ] && [ -x "$gotrace" ] || { echo "difffuzz: no gotrace (set GOTRACE or build build-asan/)" >&2; exit 2; }
mutants=${MAKE_MUTANTS:-$(dirname "$gotrace")/make_mutants}
[ -x "$mutants" ] || { echo "difffuzz: no make_mutants beside $gotrace (set MAKE_MUTANTS)" >&2; exit 2; }
oracle=${GTR_ORACLE:-}
if [ -z "$oracle" ]; then
    oracle=$(bash "$root/ci/oracle-fetch.sh") || { echo "difffuzz: cannot have the oracle (ci/oracle-fetch.sh)" >&2; exit 2; }
fi
[ -x "$oracle" ] || { echo "difffuzz: oracle $oracle is not executable" >&2; exit 2; }
# Old-format mutants are judged with the oracle whose map order is fixed (judge.sh).
oracle_v1=${GTR_ORACLE_V1:-}
if [ -z "$oracle_v1" ]; then
    oracle_v1=$(GTR_ORACLE=$oracle bash "$root/tests/oldgo/oracle/build.sh" 2>/dev/null) ||
        { oracle_v1=""; echo "difffuzz: no fixed-order oracle (tests/oldgo/oracle/build.sh): old traces judged by stock Go" >&2; }
fi
export GOTRACE=$gotrace GTR_ORACLE=$oracle GTR_ORACLE_V1=$oracle_v1
batch=${BATCH:-50}
chunk=5000   # inputs made, judged and deleted at a time

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtr-difffuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
rm -rf "$out"/diverging "$out"/gopanic "$out"/crash "$out"/hang "$out"/known
: >"$out/verdicts.txt"

seeds=()
for f in "$root"/corpus/upstream/*.test "$root"/corpus/tests/*.test "$root"/corpus/fuzz/reader/*; do
    [ -f "$f" ] && seeds+=("$f")
done
for f in "$root"/corpus/real/*.trace.gz; do
    [ -f "$f" ] && [ "$(stat -c %s "$f")" -lt 65536 ] && seeds+=("$f")
done

# judge_dir DIR: judge every file in DIR (jobs in parallel, BATCH files per process).
judge_dir() {
    find "$1" -type f -name '*.trace' -print0 | sort -z |
        xargs -0 -r -n "$batch" -P "$jobs" bash "$root/ci/difffuzz/judge.sh" "$out" >>"$out/verdicts.txt"
}

t0=$(date +%s)
nm=$n
[ "$only" = sim ] && nm=0
[ "$parts" -gt 1 ] && echo "difffuzz: part $part/$parts: inputs $lo..$((hi - 1)) of each half"
echo "difffuzz: $(( nm > 0 ? hi - lo : 0 )) of $nm mutants of ${#seeds[@]} seeds (seed $seed), gotrace $gotrace, oracle $oracle"
for ((first = lo; first < hi && nm > 0; first += chunk)); do
    k=$(( hi - first < chunk ? hi - first : chunk ))
    rm -rf "$tmp/m" && mkdir -p "$tmp/m"
    "$mutants" -n "$k" -f "$first" -s "$seed" -o "$tmp/m" "${seeds[@]}" 2>"$tmp/mm.log" ||
        { cat "$tmp/mm.log" >&2; exit 2; }
    judge_dir "$tmp/m"
done
sed -i 's|^\([a-z]*\) .*/m\([0-9]*\)\.trace$|\1 mutant \2|' "$out/verdicts.txt"

if [ "$only" = mutants ]; then
    echo "difffuzz: --only mutants: no model traces"
elif "$gotrace" sim -h >/dev/null 2>&1; then
    echo "difffuzz: $((hi - lo)) of $n model traces (gotrace sim)"
    versions=(1.22 1.23 1.25 1.26)
    for ((first = lo; first < hi; first += chunk)); do
        k=$(( hi - first < chunk ? hi - first : chunk ))
        rm -rf "$tmp/s" && mkdir -p "$tmp/s"
        for ((i = first; i < first + k; i++)); do
            "$gotrace" sim --go "${versions[i % 4]}" --seed "$((seed * 1000003 + i))" \
                -o "$tmp/s/s$i.trace" 2>>"$tmp/sim.log" || echo "simfail sim $i" >>"$out/verdicts.txt"
        done
        judge_dir "$tmp/s"
    done
    sed -i 's|^\([a-z]*\) .*/s\([0-9]*\)\.trace$|\1 sim \2|' "$out/verdicts.txt"
else
    echo "difffuzz: skipping the model traces: $gotrace has no \`sim\` mode yet"
fi

# Known divergences: diverging inputs whose Go message matches a documented pattern.
if [ -d "$out/diverging" ] && [ -s "$known" ]; then
    grep -v '^#' "$known" | grep -v '^$' >"$tmp/known.re"
    for e in "$out"/diverging/*.go.err; do
        [ -f "$e" ] || continue
        name=$(basename "$e" .go.err)
        if cat "$out/diverging/$name.gotrace.err" "$e" | grep -qEf "$tmp/known.re"; then
            mkdir -p "$out/known"
            mv "$out/diverging/$name".* "$out/known/"
            kind=${name%%[0-9]*}; num=${name#"$kind"}
            [ "$kind" = m ] && kind=mutant || kind=sim
            sed -i "s|^diverging $kind $num\$|known $kind $num|" "$out/verdicts.txt"
        fi
    done
fi

count() { grep -c "^$1 $2 " "$out/verdicts.txt"; }
printf '%-7s %10s %10s %10s %10s %10s %10s %10s %10s\n' "" identical nondet known diverging gopanic crash hang simfail
for half in mutant sim; do
    total=$(grep -c " $half " "$out/verdicts.txt")
    [ "$total" -gt 0 ] || continue
    printf '%-7s %10s %10s %10s %10s %10s %10s %10s %10s\n' "$half" "$(count identical $half)" \
        "$(count nondet $half)" "$(count known $half)" "$(count diverging $half)" \
        "$(count gopanic $half)" "$(count crash $half)" "$(count hang $half)" "$(count simfail $half)"
done
echo "difffuzz: $(wc -l <"$out/verdicts.txt") inputs in $(( $(date +%s) - t0 )) s; kept in $out/{diverging,known,gopanic,crash,hang}"
bad=$(grep -cE '^(diverging|crash|hang|simfail) ' "$out/verdicts.txt")
if [ "$bad" -gt 0 ]; then
    echo "difffuzz: FAIL: $bad inputs diverge, crash or hang"
    exit 1
fi
echo "difffuzz: ok"
