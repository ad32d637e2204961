/* SPDX-License-Identifier: BSD-3-Clause */
/* tracev1_convert.h: the converter from old (Go 1.11-1.21) events to the v2 event model
 * (Go's traceV1Converter, src/internal/trace/tracev1.go). The whole old trace becomes one
 * generation with one table (strings, stacks, frames) that lives as long as the converter.
 * Used by reader.c only. */
#ifndef GTR_SRC_TRACEV1_CONVERT_H
#define GTR_SRC_TRACEV1_CONVERT_H

#include "base.h"
#include "tracev1/tracev1.h"

typedef struct gtr__v1_converter gtr__v1_converter;

/* gtr__v1_converter_new is convertV1Trace: it takes over *tr (whose tables it copies and
 * then releases; the events stay until the converter is freed). */
gtr_status gtr__v1_converter_new(const gtr_alloc *alc, gtr__v1_trace *tr,
                                 gtr__v1_converter **out, gtr_err *err);
void gtr__v1_converter_free(gtr__v1_converter *c);
/* gtr__v1_converter_next is traceV1Converter.next: GTR_OK and *ev, GTR_EOF at the end, or
 * an error (Go's "unexpected event type %v"). */
gtr_status gtr__v1_converter_next(gtr__v1_converter *c, gtr_event *ev, gtr_err *err);
/* gtr__v1_converter_peek_time: the time of the next old event not yet converted (events.
 * Peek), false when none is left. */
bool gtr__v1_converter_peek_time(const gtr__v1_converter *c, gtr_time *t);
/* The table every converted event points to, and the time of the last event returned. */
const gtr__ev_table *gtr__v1_converter_table(const gtr__v1_converter *c);
gtr_time gtr__v1_converter_last_time(const gtr__v1_converter *c);

#endif /* GTR_SRC_TRACEV1_CONVERT_H */
