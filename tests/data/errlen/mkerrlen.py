#!/usr/bin/env python3
# mkerrlen.py DIR: writes the wire traces behind tests/errlen.cmake, whose Go 1.27.3 messages are
# longer than 4 KiB or hold a NUL byte (the expected stderr files beside them are the oracle's
# output, "error: " replaced by "gotrace: "):
#   long-stack-frames.trace  a stack of 100 frames without information: the validator's list of
#                            99 "invalid stack frame" errors (about 12 KiB), in frame order;
#   long-frontier.trace      200 Ms each stuck on a GoStart of an unknown goroutine: "broken
#                            trace: failed to advance" with a 200-line frontier dump (the G, P
#                            and M maps are empty, so Go's map order cannot vary);
#   nul-task-type.trace      a task with the invalid ID 0 whose type is "a\x00b": Go echoes
#                            the type with %s, NUL included;
#   nul-dup-string.trace     two strings with ID 1, "a\x00b" and "c\x00d": Go's "multiple
#                            strings with the same ID" echoes both, NULs included;
#   nul-region.trace         a region "a\x00b" ended as "x\x00y": Go's "misuse of region"
#                            echoes both names.
import os
import sys

HEADER = b"go 1.22 trace\x00\x00\x00"
EV_BATCH, EV_STACKS, EV_STACK, EV_STRINGS, EV_STRING, EV_FREQ = 1, 2, 3, 4, 5, 8
EV_PROC_STATUS, EV_GO_START, EV_GO_STATUS, EV_TASK_BEGIN = 13, 16, 25, 40
EV_REGION_BEGIN, EV_REGION_END = 42, 43
NO_M = (1 << 64) - 1


def uv(x):
    out = bytearray()
    while x >= 0x80:
        out.append((x & 0x7F) | 0x80)
        x >>= 7
    out.append(x)
    return bytes(out)


def ev(t, *args):
    return bytes([t]) + b"".join(uv(a) for a in args)


def batch(gen, m, time, data):
    return ev(EV_BATCH, gen, m, time, len(data)) + data


def common(gen, stacks=b"", strings=b""):
    return (batch(gen, NO_M, 0, ev(EV_FREQ, 15625000)) +
            batch(gen, NO_M, 0, ev(EV_STACKS) + stacks) +
            batch(gen, NO_M, 0, ev(EV_STRINGS) + strings))


def string(i, s):
    return ev(EV_STRING, i, len(s)) + s


def long_stack_frames():
    n = 100
    frames = b"".join(uv(i + 1) + uv(0) + uv(0) + uv(0) for i in range(n))  # pc func file line
    stacks = ev(EV_STACK, 1, n) + frames
    data = (ev(EV_PROC_STATUS, 1, 0, 1) + ev(EV_GO_STATUS, 1, 1, 0, 2) +
            ev(EV_TASK_BEGIN, 1, 2, 0, 1, 1))
    return HEADER + batch(1, 0, 0, data) + common(1, stacks, string(1, b"task"))


def long_frontier():
    out = HEADER
    for m in range(1, 201):
        out += batch(1, m, m, ev(EV_GO_START, 1, 1000 + m, 1))
    return out + common(1)


def nul_task_type():
    data = (ev(EV_PROC_STATUS, 1, 0, 1) + ev(EV_GO_STATUS, 1, 1, 0, 2) +
            ev(EV_TASK_BEGIN, 1, 0, 0, 1, 0))
    return HEADER + batch(1, 0, 0, data) + common(1, b"", string(1, b"a\x00b"))


def nul_dup_string():
    data = ev(EV_PROC_STATUS, 1, 0, 1)
    return (HEADER + batch(1, 0, 0, data) +
            common(1, b"", string(1, b"a\x00b") + string(1, b"c\x00d")))


def nul_region():
    data = (ev(EV_PROC_STATUS, 1, 0, 1) + ev(EV_GO_STATUS, 1, 1, 0, 2) +
            ev(EV_REGION_BEGIN, 1, 0, 1, 0) + ev(EV_REGION_END, 1, 0, 2, 0))
    return (HEADER + batch(1, 0, 0, data) +
            common(1, b"", string(1, b"a\x00b") + string(2, b"x\x00y")))


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for name, f in (("long-stack-frames", long_stack_frames), ("long-frontier", long_frontier),
                    ("nul-task-type", nul_task_type),
                    ("nul-dup-string", nul_dup_string), ("nul-region", nul_region)):
        with open(os.path.join(d, name + ".trace"), "wb") as fp:
            fp.write(f())


main()
