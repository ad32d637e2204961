#!/usr/bin/env python3
"""tracev1_mutate.py GOTRACE ORACLE N SEED TRACE...: differential test of the v1 path.

Makes N mutants of the given old-format traces (1-3 of: bit flip, byte set, range delete,
bytes inserted, after the 16-byte header), runs `GOTRACE validate --log-events` and
`ORACLE validate` on each and compares exit status (the oracle's 3, a validator failure, is
gotrace's 1), message and events (tracev1_compare.py). Go picks the order of its Ps by map
iteration, so on a mismatch the oracle is run up to 16 more times and any agreeing run
passes. Where Go panics, gotrace must fail with exit status 1. Mismatching mutants are
kept as mismatch-SEED-I in the current directory. Exit 1 on any mismatch."""
import os
import random
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))


def go_run(oracle, data):
    o = subprocess.run([oracle, "validate"], input=data, capture_output=True)
    return o.returncode, o.stderr, o.stdout


def main():
    gotrace, oracle, n, seed, traces = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
    rnd = random.Random(seed)
    originals = [open(t, "rb").read() for t in traces]
    tmp = tempfile.mkdtemp()
    same = panics = bad = 0
    for i in range(n):
        d = bytearray(rnd.choice(originals))
        for _ in range(rnd.randint(1, 3)):
            k, pos = rnd.randint(0, 3), rnd.randint(16, len(d) - 1)
            if k == 0:
                d[pos] ^= 1 << rnd.randint(0, 7)
            elif k == 1:
                d[pos] = rnd.randint(0, 255)
            elif k == 2:
                del d[pos:pos + rnd.randint(1, 8)]
            else:
                d[pos:pos] = bytes(rnd.randint(0, 255) for _ in range(rnd.randint(1, 4)))
        data = bytes(d)
        path = os.path.join(tmp, "in")
        open(path, "wb").write(data)
        c = subprocess.run([gotrace, "validate", "--log-events", path], capture_output=True)
        cerr = c.stderr.decode(errors="replace").replace("gotrace: ", "", 1)
        ok = False
        for attempt in range(17):
            orc, oerr, oout = go_run(oracle, data)
            if orc == 2 and b"panic: " in oerr:
                panics += 1
                ok = c.returncode == 1
                break
            if (1 if orc == 3 else orc) != c.returncode or oerr.decode(errors="replace").replace("error: ", "", 1) != cerr:
                continue
            open(os.path.join(tmp, "c"), "wb").write(c.stdout)
            open(os.path.join(tmp, "o"), "wb").write(oout)
            r = subprocess.run([sys.executable, os.path.join(here, "tracev1_compare.py"),
                                os.path.join(tmp, "c"), os.path.join(tmp, "o")], capture_output=True)
            if r.returncode == 0:
                ok = True
                break
        if ok:
            same += 1
        else:
            bad += 1
            keep = "mismatch-%d-%d" % (seed, i)
            open(keep, "wb").write(data)
            print("%s: gotrace exit %d %r" % (keep, c.returncode, cerr[:200]))
    print("%d mutants: %d as Go (%d where Go panics), %d mismatches" % (n, same, panics, bad))
    return 1 if bad else 0


sys.exit(main())
