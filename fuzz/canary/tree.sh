#!/bin/bash
# fuzz/canary/tree.sh: a copy of the source tree with one canary's patch applied
# (fuzz/canary/README.md). Planted bugs live as patches in fuzz/canary/patches/, never in
# libtrace/src, as bug benchmarks such as Magma keep them.
#
# usage: fuzz/canary/tree.sh NAME DEST    copy the tree into DEST, apply patches/NAME.patch
#        fuzz/canary/tree.sh --list       the canaries, one name a line (patch order)
#        fuzz/canary/tree.sh --check [NAME...]  whether their patches apply (a dry run)
#        fuzz/canary/tree.sh --site NAME  the regexp its crash report must match
#        fuzz/canary/tree.sh --target NAME  the fuzz target whose oracle sees it (the patch's
#                                           Target: line; default reader, fuzz/fuzz_reader.c)
#
# The copy holds the files git knows (tracked, and untracked ones not ignored) as they are in
# the working tree, with their modification times, so a build directory configured on DEST
# recompiles only what the patch touched. The patch must apply exactly (no fuzz, no offset
# tolerance beyond patch's own line search): when the code around a canary changes, this
# fails, and the patch is refreshed (`git diff` in DEST after fixing it by hand).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
patches="$here/patches"
# apply_patch DIR PATCH [--dry-run]: the one way a canary's patch is applied (exactly: no fuzz),
# by the copy below and by --check.
apply_patch() { patch -d "$1" -p1 -s -F0 --no-backup-if-mismatch -r - ${3:-} <"$2"; }

die() { echo "tree.sh: $*" >&2; exit 1; }

case ${1:-} in
  --list)
    for p in "$patches"/*.patch; do basename "$p" .patch; done
    exit 0 ;;
  --site)
    [ $# = 2 ] || die "usage: tree.sh --site NAME"
    [ -f "$patches/$2.patch" ] || die "no canary $2 (no $patches/$2.patch)"
    sed -n 's/^Crash-Site: //p' "$patches/$2.patch" | head -n1
    exit 0 ;;
  --target)
    [ $# = 2 ] || die "usage: tree.sh --target NAME"
    [ -f "$patches/$2.patch" ] || die "no canary $2 (no $patches/$2.patch)"
    t=$(sed -n 's/^Target: //p' "$patches/$2.patch" | head -n1)
    echo "${t:-reader}"
    exit 0 ;;
  --check)
    # Every canary's patch (or the NAMEs) still applies to this tree, exactly as above
    # (a dry run in place: nothing is written). ctest runs it, so that a change around a
    # canary fails at once rather than in CI's fuzzing step.
    shift
    command -v patch >/dev/null || die "patch(1) is not installed"
    [ $# -gt 0 ] || set -- $(for p in "$patches"/*.patch; do basename "$p" .patch; done)
    bad=0
    for name in "$@"; do
      [ -f "$patches/$name.patch" ] || die "no canary $name (no $patches/$name.patch)"
      if ! out=$(apply_patch "$src" "$patches/$name.patch" --dry-run 2>&1); then
        echo "tree.sh: patches/$name.patch no longer applies to this tree: $(printf '%s' "$out" | head -c 400)" >&2
        bad=1
      fi
    done
    [ $bad = 0 ] && echo "tree.sh: all $# canary patches apply"
    exit $bad ;;
  ""|-h|--help) sed -n '2,16p' "$0"; exit 2 ;;
esac
[ $# = 2 ] || die "usage: tree.sh NAME DEST"
name=$1 dest=$2
patch="$patches/$name.patch"
[ -f "$patch" ] || die "no canary $name (no $patch)"
command -v patch >/dev/null || die "patch(1) is not installed"
case $dest in /|"$src"|"$src"/) die "refusing to write the tree into $dest" ;; esac

rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$src" && git ls-files -co --exclude-standard -z |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar -c --null -T - -f -) | tar -x -C "$dest.tmp" -f -
else
  (cd "$src" && tar -c --exclude='./build*' --exclude=./.git -f - .) | tar -x -C "$dest.tmp" -f -
fi
if ! apply_patch "$dest.tmp" "$patch" >"$dest.tmp.patch.log" 2>&1; then
  die "patches/$name.patch no longer applies to this tree: $(head -c 400 "$dest.tmp.patch.log")"
fi
rm -f "$dest.tmp.patch.log"
# Reusing DEST (one copy for canary after canary): a file whose content is what DEST held
# keeps DEST's time, so its object is not rebuilt; any other file is copied in, stamped now,
# so that make rebuilds it even when its new content (the clean file, after another canary's
# patch) is older than the object built from the previous canary's. One diff over the two
# trees finds those few files (a process per file would take half a minute here).
if [ -d "$dest" ]; then
  rc=0
  LC_ALL=C diff -rq --no-dereference "$dest.tmp" "$dest" >"$dest.tmp.diff" 2>&1 || rc=$?
  [ "$rc" -le 1 ] || die "cannot compare $dest.tmp with $dest: $(head -c 400 "$dest.tmp.diff")"
  while IFS= read -r line; do
    case $line in
      "Files $dest.tmp/"*" and $dest/"*" differ")
        f=${line#"Files $dest.tmp/"}
        f=${f%" and $dest/"*" differ"}
        cp "$dest.tmp/$f" "$dest/$f" ;;
      "Only in $dest.tmp: "*|"Only in $dest.tmp/"*)
        d=${line#"Only in "}
        rel=${d%%": "*}
        rel=${rel#"$dest.tmp"}
        cp -R "$dest.tmp$rel/${d#*": "}" "$dest$rel/" ;;
      "Only in $dest: "*|"Only in $dest/"*)
        d=${line#"Only in "}
        rm -rf "${d%%": "*}/${d#*": "}" ;;
      *) die "cannot update $dest from $dest.tmp: $line" ;;
    esac
  done <"$dest.tmp.diff"
  rm -rf "$dest.tmp" "$dest.tmp.diff"
else
  mv "$dest.tmp" "$dest"
fi
