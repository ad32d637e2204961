/* SPDX-License-Identifier: BSD-3-Clause */
/* diff_compare.h: the differential verdict of gotrace against Go on one input, in process
 * (fuzz/fuzz_diff.c): the judgment of ci/difffuzz/judge.sh, ported to C, for two readings
 * already made.
 *
 * A reading is how it ended, the dump (each event's String() and "\n") and the message.
 * They are the same when all three are byte for byte equal. Go builds some messages by
 * iterating a map (dumpOrdering's G, P and M states in "failed to advance", the first invalid
 * string of a stack, ...), so two runs of Go on one input may print messages that differ in
 * the order of their lines and in the numbers the entry met first carries. judge.sh then
 * compares the messages with their digit runs replaced by N (sed) and their lines sorted
 * (LC_ALL=C sort), and counts the input as Go's nondeterminism
 * only when Go's own runs differ too; fdiff_same_lines_up_to_numbers is that comparison. */
#ifndef GTR_FUZZ_DIFF_COMPARE_H
#define GTR_FUZZ_DIFF_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "go_reader.h"

typedef struct fdiff_reading {
    diff_end end;
    const char *dump;   /* each event's String() and "\n" */
    size_t dump_len;
    const char *msg;    /* the error (end != DIFF_END_EOF), or the panic's value */
    size_t msg_len;
} fdiff_reading;

typedef enum fdiff_verdict {
    FDIFF_SAME,       /* same ending, dump and message, byte for byte */
    FDIFF_GO_PANIC,   /* Go panicked: not compared (corpus/go-panics keeps one of each kind) */
    FDIFF_MAP_ORDER,  /* same ending and dump; the messages differ but hold the same lines up
                         to their numbers: Go's map order explains it if Go's own runs of the
                         input differ (the caller runs Go again to see) */
    FDIFF_DIVERGES    /* anything else: unless another run of Go prints exactly ours, a
                         difference Go's nondeterminism cannot explain */
} fdiff_verdict;

/* fdiff_compare judges ours (libtrace) against go (Go 1.27.3). */
fdiff_verdict fdiff_compare(const fdiff_reading *ours, const fdiff_reading *go);

/* fdiff_rerun_explains: after ours differed from Go's first run `first` (a verdict of
 * FDIFF_MAP_ORDER or FDIFF_DIVERGES), whether `again`, another run of Go on the same input,
 * shows that Go's nondeterminism explains it: Go did not say the same again, and ours is the
 * same as this run, or differs from it only by the map order of the message's lines (up to
 * their numbers). So ours is one of Go's outputs: Go's words may depend on the map entry met
 * first ("found invalid func string ID 7 for stack 65536" on one run, "found invalid file
 * string ID 3 for stack 1" on the next), and so may its events: a ProcStatus that finds
 * its P "about to be stolen" takes the M holding that P from a walk of a map, so where a
 * broken trace has two Ms on one P, the event's M is either (order.go, advanceProcStatus:
 * 14 different dumps in 30 runs of one input). The
 * caller runs Go until a run explains it or a budget ends. */
bool fdiff_rerun_explains(const fdiff_reading *ours, const fdiff_reading *first,
                          const fdiff_reading *again);

/* A line-wise mix of Go's runs: where Go makes several random choices in one reading (the M
 * of each of several ProcStatus events, each from its own map walk), ours may be one of Go's
 * outputs too rare for a rerun to repeat (12 different dumps in 40 runs of one input, none
 * ours). The mix accepts ours when every line of ours's dump was printed, at the same place,
 * by some run of Go with as many lines and the same ending, some run's message holds ours's
 * lines up to their numbers, and Go's runs varied. */
typedef struct fdiff_mix {
    size_t nlines;     /* lines of ours's dump */
    bool *seen;        /* per line of ours: some run of Go printed it there */
    size_t unseen;     /* lines of ours no run printed there yet */
    bool msg_seen;     /* some run's message holds ours's lines up to their numbers */
    bool varied;       /* some run differed from the first */
} fdiff_mix;

/* fdiff_mix_init starts a mix for ours; false when memory runs out (nothing to free). */
bool fdiff_mix_init(fdiff_mix *m, const fdiff_reading *ours);
/* fdiff_mix_add adds a run of Go (the first run included: `first`) to the mix. */
void fdiff_mix_add(fdiff_mix *m, const fdiff_reading *ours, const fdiff_reading *first,
                   const fdiff_reading *run);
/* fdiff_mix_explains: the runs added so far make ours one of Go's outputs, line by line. */
bool fdiff_mix_explains(const fdiff_mix *m);
void fdiff_mix_free(fdiff_mix *m);

/* fdiff_same_reading: the two readings are equal byte for byte (ending, dump, message). */
bool fdiff_same_reading(const fdiff_reading *a, const fdiff_reading *b);

/* fdiff_same_lines_up_to_numbers: a[0..alen) and b[0..blen), each split into lines at '\n'
 * (a final newline ends the last line, it does not start an empty one), with every run of
 * ASCII digits replaced by "N", hold the same lines the same number of times, in any order.
 * False when memory runs out (the caller then sees a divergence: never a false pass). */
bool fdiff_same_lines_up_to_numbers(const char *a, size_t alen, const char *b, size_t blen);

/* fdiff_first_difference returns the 0-based number of the first line at which a[0..alen)
 * and b[0..blen) differ and, in *at, the offset of that line's start (the same in both),
 * or (size_t)-1 when they are equal. A text that is a prefix of the other differs at the
 * line where it ends. */
size_t fdiff_first_difference(const char *a, size_t alen, const char *b, size_t blen,
                              size_t *at);

/* fdiff_report prints the summary of a divergence to f: the first differing line of the
 * dumps with up to three lines before it, then both endings and messages. */
void fdiff_report(FILE *f, const fdiff_reading *ours, const fdiff_reading *go);

/* fdiff_end_name names an ending as the report prints it ("EOF", "header error", ...). */
const char *fdiff_end_name(diff_end end);

#endif /* GTR_FUZZ_DIFF_COMPARE_H */
