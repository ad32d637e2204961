/* SPDX-License-Identifier: BSD-3-Clause */
/* snapshot.h: the reader's state between two events, as a generation's start would restate it
 * (beyond Go).
 *
 * Between two calls of gtr_reader_next, the ordering has advanced a prefix of each thread's
 * events of the generation being read (the events returned, and those it queued ahead), and
 * its state is what those events left: each goroutine's and proc's status and sequence
 * number, the goroutine and proc each thread holds, the GC's phase. A snapshot holds that
 * state and, per thread, how many of its events the prefix has. A tool can then cut the
 * generation there: drop each thread's advanced events, restate the state with status events
 * (what the runtime writes at a generation's start), and renumber the sequence numbers after
 * the cut. The reducer does, to drop the history in front of a failure deep in a large
 * generation. Nothing of it changes what the reader returns. */
#ifndef GTR_SNAPSHOT_H
#define GTR_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gtr/event.h"
#include "gtr/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A thread of the generation: how many of its events (in the order of its batches) the
 * ordering has advanced, and the goroutine and proc it holds (GTR_NO_GOROUTINE, GTR_NO_PROC:
 * none). */
typedef struct gtr_snapshot_thread {
    gtr_threadid m;
    uint64_t advanced;
    gtr_goid g;
    gtr_procid p;
} gtr_snapshot_thread;

/* A goroutine or proc the ordering has a state for: its wire status (gtr_go_status,
 * gtr_proc_status), its sequence number, seq in generation seq_gen, and the special ranges in
 * flight on it (the types of their "Begin" events: GCSweepBegin, GCMarkAssistBegin,
 * STWBegin; the first GTR_SNAPSHOT_RANGES of them). */
#define GTR_SNAPSHOT_RANGES 4
typedef struct gtr_snapshot_resource {
    int64_t id;
    uint8_t status;
    uint64_t seq_gen, seq;
    uint8_t nranges;
    uint8_t ranges[GTR_SNAPSHOT_RANGES];
} gtr_snapshot_resource;

typedef struct gtr_snapshot gtr_snapshot;   /* opaque */

/* gtr_reader_snapshot takes r's state now. r must be reading a generation of a v2 trace
 * (after its first Sync, before its end, not failed). On success *out owns the snapshot
 * (gtr_snapshot_free). Errors: GTR_E_USAGE "the reader is not inside a generation" (or a
 * NULL argument), GTR_E_NOMEM. */
GTR_API gtr_status gtr_reader_snapshot(gtr_reader *r, gtr_snapshot **out, gtr_err *err);

GTR_API uint64_t gtr_snapshot_generation(const gtr_snapshot *s);
GTR_API size_t gtr_snapshot_nthreads(const gtr_snapshot *s);
GTR_API const gtr_snapshot_thread *gtr_snapshot_thread_at(const gtr_snapshot *s, size_t i);
GTR_API size_t gtr_snapshot_ngoroutines(const gtr_snapshot *s);
GTR_API const gtr_snapshot_resource *gtr_snapshot_goroutine_at(const gtr_snapshot *s, size_t i);
GTR_API size_t gtr_snapshot_nprocs(const gtr_snapshot *s);
GTR_API const gtr_snapshot_resource *gtr_snapshot_proc_at(const gtr_snapshot *s, size_t i);
/* gtr_snapshot_gc: whether the GC is in a mark phase, and its sequence number. */
GTR_API bool gtr_snapshot_gc(const gtr_snapshot *s, uint64_t *seq);

GTR_API void gtr_snapshot_free(gtr_snapshot *s);

#ifdef __cplusplus
}
#endif
#endif /* GTR_SNAPSHOT_H */
