/* SPDX-License-Identifier: BSD-3-Clause */
/* event_format.h: Event.String() (event.c) with a hook for printing its stacks, for the
 * formatter that keeps their text (event_formatter.c). */
#ifndef GTR_SRC_EVENT_FORMAT_H
#define GTR_SRC_EVENT_FORMAT_H

#include "gtr/event.h"

/* A stack printer: appends the frames of s as Go's printStack(w, "\t", s.Frames()) does,
 * or fails as it does (an ID missing from the table: Go's panic text, GTR_E_USAGE). */
typedef struct gtr__stack_printer {
    gtr_status (*print)(void *ctx, gtr_buf *out, gtr_stack s, gtr_err *err);
    void *ctx;
} gtr__stack_printer;

/* gtr__event_format is gtr_event_format with every stack (the event's and a transition's)
 * printed by sp; sp NULL prints them directly (gtr__print_stack). */
gtr_status gtr__event_format(const gtr_event *ev, gtr_buf *out, const gtr__stack_printer *sp,
                             gtr_err *err);
/* gtr__print_stack is Go's printStack(w, prefix, s.Frames()). */
gtr_status gtr__print_stack(gtr_buf *out, const char *prefix, gtr_stack s, gtr_err *err);

#endif /* GTR_SRC_EVENT_FORMAT_H */
