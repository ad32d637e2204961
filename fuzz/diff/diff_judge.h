/* SPDX-License-Identifier: BSD-3-Clause */
/* diff_judge.h: the differential oracle of fuzz_diff (fuzz/fuzz_diff.c) and fuzz_diff_sim
 * (fuzz/fuzz_sim.c built with GTR_FUZZ_SIM_DIFF): one wire trace read by libtrace and by Go
 * 1.27.3's own reader and validator (go_reader.h), in the same process.
 *
 * Each side reads as `gtroracle validate` does (wire bytes, never gunzipped): each event's
 * String() into a dump, the validator (told the header's version) on every event, the first
 * error ends the reading. They must agree (diff_compare.h): the same ending, dump and message,
 * or a difference Go's own runs explain (Go is run again, up to 512 times): another run prints
 * exactly ours, or the messages hold the same lines up to their numbers and Go's runs differ. Otherwise fdiff_judge prints godiff_report's summary and aborts (the
 * engine keeps the input). An input on which Go panics is no failure: it is counted (and
 * how often gotrace printed Go's dump and the panic's text as its error, as it means to) and,
 * when $GTR_DIFF_GOPANIC_DIR names a folder, written there. */
#ifndef GTR_FUZZ_DIFF_JUDGE_H
#define GTR_FUZZ_DIFF_JUDGE_H

#include <stddef.h>
#include <stdint.h>

/* fdiff_judge judges data[0..size); it returns only when the two readings agree. */
void fdiff_judge(const uint8_t *data, size_t size);

/* fdiff_print_counts prints the counts of the process so far to stderr: inputs, identical,
 * Go nondeterministic, Go panics. diff_judge.c defines the target's LLVMFuzzerInitialize,
 * which registers it with atexit. */
void fdiff_print_counts(void);

#endif /* GTR_FUZZ_DIFF_JUDGE_H */
