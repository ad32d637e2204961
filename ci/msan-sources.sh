#!/usr/bin/env bash
# msan-sources.sh: zlib and PCRE2 sources for the MemorySanitizer build (ci/fuzz-builds.sh).
#
#   ci/msan-sources.sh [CACHE]     (default: $GTR_MSAN_CACHE or ~/.cache/gotrace-msan)
#
# MemorySanitizer reports any use of memory written by uninstrumented code, so OSS-Fuzz's
# Dockerfile clones zlib and PCRE2 and ci/oss-fuzz/build.sh compiles them with $CFLAGS. Here
# the same upstream sources come from Debian's source packages (bookworm: zlib 1.2.13,
# pcre2 10.42), fetched under a private APT configuration (ci/apt-private.sh). Prints the
# directory to use as $SRC (it holds zlib/ and pcre2/; build.sh adds gotrace/) and exits 0;
# exits 1 with a message on stderr when the sources cannot be had.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-${GTR_MSAN_CACHE:-$HOME/.cache/gotrace-msan}}
mkdir -p "$cache/dl"
. "$here/apt-private.sh"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
apt_private "$cache" "deb-src [signed-by=$keyring] @URI@ bookworm main" \
    || { echo "msan-sources: no source package lists" >&2; exit 1; }

src="$cache/src"
if [ ! -f "$src/.done" ]; then
    (cd "$cache/dl" && apt-get source --download-only -qq zlib pcre2 >/dev/null 2>&1) \
        || { echo "msan-sources: cannot download the zlib/pcre2 source packages" >&2; exit 1; }
    rm -rf "$src"; mkdir -p "$src"
    tar -xf "$(ls "$cache"/dl/zlib_*.orig.tar.* | head -n1)" -C "$src"
    tar -xf "$(ls "$cache"/dl/pcre2_*.orig.tar.* | head -n1)" -C "$src"
    mv "$src"/zlib-* "$src/zlib"
    mv "$src"/pcre2-* "$src/pcre2"
    touch "$src/.done"
fi
echo "$src"
