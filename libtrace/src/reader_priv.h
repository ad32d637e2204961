/* SPDX-License-Identifier: BSD-3-Clause */
/* reader_priv.h: what the library's own loops over a reader (gtr_validator_run) use beyond
 * gtr/reader.h. */
#ifndef GTR_SRC_READER_PRIV_H
#define GTR_SRC_READER_PRIV_H

#include "gtr/reader.h"

/* gtr__reader_next_ref is gtr_reader_next (r and err not NULL) without the copy of the
 * common case: *ev is the event in the reader's queue, good until the next call on r (the
 * next call may overwrite it), or buf, where any other case writes the event as
 * gtr_reader_next does. Nor does the common case clear err, which must be clear (GTR_OK, no
 * text) when it is called: a loop clears it once, and a call that returns GTR_OK leaves it
 * as it was. */
gtr_status gtr__reader_next_ref(gtr_reader *r, gtr_event *buf, gtr_event **ev, gtr_err *err);

#endif /* GTR_SRC_READER_PRIV_H */
