/* SPDX-License-Identifier: BSD-3-Clause */
/* state_names.h: the names of goroutine and proc states (GoState.String and
 * ProcState.String, resources.c), stored padded so that a formatter can copy a fixed 16
 * bytes of any of them and keep n: no length scan and no variable-size copy per name. */
#ifndef GTR_SRC_STATE_NAMES_H
#define GTR_SRC_STATE_NAMES_H

#include <stdint.h>

#include "gtr/event.h"

typedef struct gtr__state_name {
    char s[16];   /* the name, NUL-padded */
    uint8_t n;    /* its length (at most 12) */
} gtr__state_name;

/* The name of s; "Bad" when s is not a state. */
const gtr__state_name *gtr__go_state_name(gtr_go_state s);
const gtr__state_name *gtr__proc_state_name(gtr_proc_state s);

#endif /* GTR_SRC_STATE_NAMES_H */
