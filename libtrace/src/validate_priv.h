/* SPDX-License-Identifier: BSD-3-Clause */
/* validate_priv.h: the validator's test seam beyond gtr/validate.h. */
#ifndef GTR_SRC_VALIDATE_PRIV_H
#define GTR_SRC_VALIDATE_PRIV_H

#include <stdbool.h>

#include "gtr/validate.h"

/* gtr__validator_set_fast_paths turns v's fast path (validate.c's transition_fast) on (the
 * default) or off, so that a test can hold it to the full checks event by event. */
void gtr__validator_set_fast_paths(gtr_validator *v, bool on);

#endif /* GTR_SRC_VALIDATE_PRIV_H */
