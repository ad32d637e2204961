#!/usr/bin/env bash
# setup.sh: install what gotrace needs to build and test, on Debian 12 (bookworm), as root.
#
#   bash ci/setup.sh          # compilers, cmake, zlib, cmocka, PCRE2, clang runtime, llvm tools,
#                             # abigail-tools (ci/abi-check.sh), groff (the man page's check)
#   bash ci/setup.sh --fuzz   # the same plus afl++
#
# Idempotent and quiet: a package is installed only when dpkg does not already have it, and
# `apt-get update` runs only when something is missing. Never prompts (CI has no stdin).
# Exit status 0 when everything is present afterwards, 1 otherwise.
set -euo pipefail

want=(build-essential gcc clang cmake pkg-config zlib1g-dev libcmocka-dev libpcre2-dev
      libclang-rt-14-dev llvm-14 abigail-tools groff-base)
for arg in "$@"; do
    case "$arg" in
        --fuzz) want+=(afl++) ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "setup: unknown argument $arg (see --help)" >&2; exit 2 ;;
    esac
done

installed() { # installed PKG: dpkg knows PKG as installed
    dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^ii'
}

missing=()
for p in "${want[@]}"; do
    installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "setup: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages and not root; run as root: apt-get install -y ${missing[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq </dev/null >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
for p in "${missing[@]}"; do
    installed "$p" || { echo "setup: $p did not install" >&2; exit 1; }
done
echo "setup: done"
