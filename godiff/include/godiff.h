/* SPDX-License-Identifier: BSD-3-Clause */
/* godiff.h: gotrace against Go 1.27.3's own reader on one input (library gtr_godiff, prefix
 * godiff_): both readings, the differential verdict of ci/difffuzz/judge.sh ported to C, and
 * the reruns of Go that tell Go's own nondeterminism from a divergence. Shared by the fuzz
 * targets fuzz_diff and fuzz_diff_sim (fuzz/diff/diff_judge.c) and by `gotrace reduce --diff`
 * (reduce/diff.c). Go's side is a callback (godiff_go_fn): Go's reader linked in as the C
 * archive of ci/go-diff-archive.sh (godiff_go_read, library gtr_godiff_go, built only when
 * CMake finds the archive), or Go's oracle program run per input (reduce/oracle.c).
 *
 * A reading is how it ended, the dump (each event's String() and "\n") and the message.
 * They are the same when all three are byte for byte equal. Go builds some messages by
 * iterating a map (dumpOrdering's G, P and M states in "failed to advance", the first invalid
 * string of a stack, ...), so two runs of Go on one input may print messages that differ in
 * the order of their lines and in the numbers the entry met first carries. judge.sh then
 * compares the messages with their digit runs replaced by N (sed) and their lines sorted
 * (LC_ALL=C sort), and counts the input as Go's nondeterminism
 * only when Go's own runs differ too; godiff_same_lines_up_to_numbers is that comparison. */
#ifndef GTR_GODIFF_H
#define GTR_GODIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gtr/buf.h"
#include "gtr/status.h"

/* How a reading ended (oracle.go's readTrace, and godiff.go's endPanic). */
typedef enum godiff_end {
    GODIFF_END_EOF = 0,        /* read to io.EOF, every event valid */
    GODIFF_END_HEADER = 1,     /* NewReader failed */
    GODIFF_END_READ = 2,       /* ReadEvent failed */
    GODIFF_END_VALIDATOR = 3,  /* the validator rejected an event */
    GODIFF_END_PANIC = 4       /* Go panicked (Event.String(), ...): Go's side only */
} godiff_end;

/* Each side's dump is kept up to this size (godiff.go's capped writer): a small input can
 * name a deep stack of long strings from every event. */
#define GODIFF_DUMP_LIMIT ((size_t)32 << 20)

typedef struct godiff_reading {
    godiff_end end;
    const char *dump;   /* each event's String() and "\n" */
    size_t dump_len;
    const char *msg;    /* the error (end != GODIFF_END_EOF), or the panic's value */
    size_t msg_len;
} godiff_reading;

typedef enum godiff_verdict {
    GODIFF_SAME,       /* same ending, dump and message, byte for byte */
    GODIFF_GO_PANIC,   /* Go panicked: not compared (corpus/go-panics keeps one of each kind) */
    GODIFF_MAP_ORDER,  /* same ending and dump; the messages differ but hold the same lines up
                         to their numbers: Go's map order explains it if Go's own runs of the
                         input differ (the caller runs Go again to see) */
    GODIFF_DIVERGES    /* anything else: unless another run of Go prints exactly ours, a
                         difference Go's nondeterminism cannot explain */
} godiff_verdict;

/* godiff_compare judges ours (libtrace) against go (Go 1.27.3). */
godiff_verdict godiff_compare(const godiff_reading *ours, const godiff_reading *go);

/* godiff_rerun_explains: after ours differed from Go's first run `first` (a verdict of
 * GODIFF_MAP_ORDER or GODIFF_DIVERGES), whether `again`, another run of Go on the same input,
 * shows that Go's nondeterminism explains it: Go did not say the same again, and ours is the
 * same as this run, or differs from it only by the map order of the message's lines (up to
 * their numbers). So ours is one of Go's outputs: Go's words may depend on the map entry met
 * first ("found invalid func string ID 7 for stack 65536" on one run, "found invalid file
 * string ID 3 for stack 1" on the next), and so may its events: a ProcStatus that finds
 * its P "about to be stolen" takes the M holding that P from a walk of a map, so where a
 * broken trace has two Ms on one P, the event's M is either (order.go, advanceProcStatus:
 * 14 different dumps in 30 runs of one input). The
 * caller runs Go until a run explains it or a budget ends. */
bool godiff_rerun_explains(const godiff_reading *ours, const godiff_reading *first,
                          const godiff_reading *again);

/* A line-wise mix of Go's runs: where Go makes several random choices in one reading (the M
 * of each of several ProcStatus events, each from its own map walk), ours may be one of Go's
 * outputs too rare for a rerun to repeat (12 different dumps in 40 runs of one input, none
 * ours). The mix accepts ours when every line of ours's dump was printed, at the same place,
 * by some run of Go with as many lines and the same ending, some run's message holds ours's
 * lines up to their numbers, and Go's runs varied. */
typedef struct godiff_mix {
    size_t nlines;     /* lines of ours's dump */
    bool *seen;        /* per line of ours: some run of Go printed it there */
    size_t unseen;     /* lines of ours no run printed there yet */
    bool msg_seen;     /* some run's message holds ours's lines up to their numbers */
    bool varied;       /* some run differed from the first */
} godiff_mix;

/* godiff_mix_init starts a mix for ours; false when memory runs out (nothing to free). */
bool godiff_mix_init(godiff_mix *m, const godiff_reading *ours);
/* godiff_mix_add adds a run of Go (the first run included: `first`) to the mix. */
void godiff_mix_add(godiff_mix *m, const godiff_reading *ours, const godiff_reading *first,
                   const godiff_reading *run);
/* godiff_mix_explains: the runs added so far make ours one of Go's outputs, line by line. */
bool godiff_mix_explains(const godiff_mix *m);
void godiff_mix_free(godiff_mix *m);

/* godiff_same_reading: the two readings are equal byte for byte (ending, dump, message). */
bool godiff_same_reading(const godiff_reading *a, const godiff_reading *b);

/* godiff_same_lines_up_to_numbers: a[0..alen) and b[0..blen), each split into lines at '\n'
 * (a final newline ends the last line, it does not start an empty one), with every run of
 * ASCII digits replaced by "N", hold the same lines the same number of times, in any order.
 * False when memory runs out (the caller then sees a divergence: never a false pass). */
bool godiff_same_lines_up_to_numbers(const char *a, size_t alen, const char *b, size_t blen);

/* godiff_first_difference returns the 0-based number of the first line at which a[0..alen)
 * and b[0..blen) differ and, in *at, the offset of that line's start (the same in both),
 * or (size_t)-1 when they are equal. A text that is a prefix of the other differs at the
 * line where it ends. */
size_t godiff_first_difference(const char *a, size_t alen, const char *b, size_t blen,
                              size_t *at);

/* godiff_report prints the summary of a divergence to f: the first differing line of the
 * dumps with up to three lines before it, then both endings and messages. */
void godiff_report(FILE *f, const godiff_reading *ours, const godiff_reading *go);

/* godiff_end_name names an ending as the report prints it ("EOF", "header error", ...). */
const char *godiff_end_name(godiff_end end);

/* ---- The readings. ---- */

/* The minor version of the Go release whose reader libtrace ports (1.27.3). */
#define GODIFF_GO_MINOR 27

/* godiff_read_ours reads data[0..size) with libtrace as `gotrace validate --log-events` does
 * (wire bytes, never gunzipped): each event's String() and "\n" into dump (its first
 * GODIFF_DUMP_LIMIT bytes), the error into err; returns the ending. Where Go's String()
 * panics, ours refuses: GODIFF_END_PANIC. The dump's status tells whether memory ran out.
 * go_minor is the release of the Go reader it is compared with (GODIFF_GO_MINOR, or an
 * earlier one of ci/go-releases-bench.sh): against a Go before 1.25, whose reader emits a
 * Sync after each generation and bumps times differently, Sync events are left out and each
 * event's Time= masked, as norm_nosync.go does on Go's side (fuzz/releases/README.md). */
godiff_end godiff_read_ours(const uint8_t *data, size_t size, int go_minor, gtr_buf *dump,
                            gtr_err *err);

/* A reading by Go whose texts the reader owns (malloc'd): godiff_owned_free releases them. */
typedef struct godiff_owned {
    godiff_reading r;
    char *dump, *msg;
} godiff_owned;

void godiff_owned_free(godiff_owned *g);

/* godiff_go_fn reads data[0..size) with Go's reader and validator into *out (its r pointing
 * at its own texts); false when Go could not be asked (nothing to free then). */
typedef bool (*godiff_go_fn)(void *ctx, const uint8_t *data, size_t size, godiff_owned *out);

/* godiff_go_read is the godiff_go_fn of Go's reader linked in as a C archive
 * (ci/go-diff-archive.sh); ctx is unused. Defined only in library gtr_godiff_go, which exists
 * when CMake found the archive. */
bool godiff_go_read(void *ctx, const uint8_t *data, size_t size, godiff_owned *out);

/* Go's reader as a shared library (`ci/go-diff-archive.sh --shared`: libgtrdiff.so), loaded
 * at run time with dlopen: a program then starts Go's runtime only when it needs Go.
 * godiff_go_library_open loads the library at path (GTR_E_IO with dlerror()'s words when it
 * cannot be loaded, GTR_E_FORMAT when it is not Go's reader). The library stays loaded until
 * the process ends (a Go runtime cannot be unloaded); godiff_go_library_free frees the
 * handle only. godiff_go_library_read is its godiff_go_fn (ctx: the handle);
 * godiff_go_library_minor the minor version of the Go release whose reader it holds (the
 * library's gtrdiff_go_minor, else GODIFF_GO_MINOR), for godiff_read_ours. */
typedef struct godiff_go_library godiff_go_library;
gtr_status godiff_go_library_open(const char *path, godiff_go_library **out, gtr_err *err);
bool godiff_go_library_read(void *ctx, const uint8_t *data, size_t size, godiff_owned *out);
int godiff_go_library_minor(const godiff_go_library *lib);
void godiff_go_library_free(godiff_go_library *lib);

/* godiff_go_explains: in up to runs - 1 more runs of Go on the input (first was the first),
 * one shows that Go's nondeterminism explains how ours differs from Go's first run
 * (godiff_rerun_explains), or the runs so far make ours one of Go's outputs line by line
 * (godiff_mix). A run Go could not make counts as not explaining. */
bool godiff_go_explains(godiff_go_fn go, void *ctx, const uint8_t *data, size_t size,
                        const godiff_reading *ours, const godiff_reading *first, int runs);

#endif /* GTR_GODIFF_H */
