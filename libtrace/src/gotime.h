/* SPDX-License-Identifier: BSD-3-Clause */
/* gotime.h: the subset of Go's time.Time that clock snapshots need (gotime.c implements
 * it): time.Unix normalisation, IsZero, After, String() and Format(time.RFC3339Nano), all in
 * UTC and with Go's wrapping int64 arithmetic, so any input renders exactly as Go's. */
#ifndef GTR_SRC_GOTIME_H
#define GTR_SRC_GOTIME_H

#include "gtr/buf.h"

/* gtr__wall_unix: time.Unix(int64(sec), int64(nsec)) as normalised Unix sec, nsec. */
void gtr__wall_unix(uint64_t sec, uint64_t nsec, int64_t *osec, int32_t *onsec);
/* gtr__wall_is_zero: Time.IsZero() of the time at Unix sec, nsec. */
bool gtr__wall_is_zero(int64_t sec, int32_t nsec);
/* gtr__wall_after: Time.After (a after b). */
bool gtr__wall_after(int64_t asec, int32_t ansec, int64_t bsec, int32_t bnsec);
/* gtr__wall_rfc3339nano appends Format(time.RFC3339Nano) in UTC. */
gtr_status gtr__wall_rfc3339nano(int64_t sec, int32_t nsec, gtr_buf *out);
/* gtr__wall_string appends Time.String() in UTC (no monotonic reading). */
gtr_status gtr__wall_string(int64_t sec, int32_t nsec, gtr_buf *out);

#endif /* GTR_SRC_GOTIME_H */
