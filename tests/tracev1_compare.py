#!/usr/bin/env python3
"""tracev1_compare.py OURS GO...: compare `validate --log-events` dumps of an old trace.

Go's v1 path orders some events by map iteration (the Ps of the batch merge, the goroutines
of the initial GoStatus events), so two runs of Go's own reader can differ where events tie.
OURS passes when it equals one of the GO dumps byte for byte, or else when, against the
first GO dump, every stretch of differing events is a reordering of the same events (their
text with Time= removed) over the same timestamps, no longer than WINDOW events.
Prints "same", "reordered N stretches (longest L)" or the first real difference; exit 1 on
a real difference."""
import re
import sys

WINDOW = 64
TIME = re.compile(r" Time=(-?\d+)")


def blocks(path):
    out, cur = [], None
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if line.startswith("M=") or cur is None:
                if cur is not None:
                    out.append(cur)
                cur = line
            else:
                cur += line
    if cur is not None:
        out.append(cur)
    return out


def key(b):
    return TIME.sub("", b)


def times(bs):
    return [m.group(1) if (m := TIME.search(b)) else "" for b in bs]


def main():
    ours_path, gos = sys.argv[1], sys.argv[2:]
    ours_raw = open(ours_path, "rb").read()
    for g in gos:
        if open(g, "rb").read() == ours_raw:
            print("same")
            return 0
    a, b = blocks(ours_path), blocks(gos[0])
    if len(a) != len(b):
        print(f"different event counts: {len(a)} vs {len(b)}")
        return 1
    ta, tb = times(a), times(b)
    i, stretches, longest = 0, 0, 0
    n = len(a)
    while i < n:
        if a[i] == b[i]:
            i += 1
            continue
        # grow the window until the multisets of keys agree
        j = i + 1
        while j <= n and j - i <= WINDOW:
            if sorted(map(key, a[i:j])) == sorted(map(key, b[i:j])) and ta[i:j] == tb[i:j]:
                break
            j += 1
        if j > n or j - i > WINDOW:
            print(f"difference at event {i + 1}:\n< {a[i]}> {b[i]}", end="")
            return 1
        stretches += 1
        longest = max(longest, j - i)
        i = j
    print(f"reordered {stretches} stretches (longest {longest})")
    return 0


sys.exit(main())
