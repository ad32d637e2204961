/* SPDX-License-Identifier: BSD-3-Clause */
/* sim_records.h: the layout of the sim target's corruption records (fuzz/fuzz_sim.c reads
 * them, fuzz/fuzz_sim_mutator.c writes them). */
#ifndef GTR_FUZZ_SIM_RECORDS_H
#define GTR_FUZZ_SIM_RECORDS_H

/* A corruption record, read backwards from the end of the input:
 *   [value: 8 bytes LE][where: 4 bytes LE][arg: 1][marker: 1]   (marker >= SIM_MARKER)
 * the operation is marker - SIM_MARKER. A record cut by the start of the input reads its
 * missing bytes as 0 (so even a short input, as libFuzzer's first ones are, has one).
 * `where` picks an event: its low byte one of the event types present, the rest the
 * occurrence of that type (so that a Stack, a String or a batch header is as easy to hit as
 * a GoStart). The value is kept whole (8 bytes) so that libFuzzer's comparison feedback can
 * replace it with a value the reader compares against. */
#define SIM_REC_BYTES 14
#define SIM_MAX_OPS 4
#define SIM_MARKER 0xF8

enum {
    OP_SET,     /* arg := value */
    OP_ADD8,    /* arg += (int8) value (0 counts as +1) */
    OP_ADD32,   /* arg += (int32) value: a batch time moved (clock skew), a big shift */
    OP_DROP,    /* remove the event */
    OP_DUP,     /* the event twice */
    OP_SWAP,    /* the event and the next one exchange places */
    OP_CUT,     /* the trace ends inside the event (a batch header, an argument), or (value
                 * bit 0) inside the first batch of the next generation, as a trace cut
                 * while the tracer flushed a generation */
    OP_REF_EDGE, /* a string or stack reference (a frame's func/file, or an event's string or
                  * stack argument) at the edge of its generation's table: the last ID
                  * there, or one past it (value & 1), as the structure mutator's ref_edge */
};

#endif
