/* SPDX-License-Identifier: BSD-3-Clause */
/* padded_names.h: the names String() prints, stored padded so that it can copy a fixed 16
 * bytes of any of them and keep n: no length scan and no variable-size copy per name. The
 * goroutine and proc states' (GoState.String, ProcState.String) are resources.c's; the
 * event kinds' (EventKind.String) are event.c's. */
#ifndef GTR_SRC_PADDED_NAMES_H
#define GTR_SRC_PADDED_NAMES_H

#include <stdint.h>

#include "gtr/event.h"

typedef struct gtr__padded_name {
    char s[16];   /* the name, NUL-padded (NUL-terminated: at most 15 bytes) */
    uint8_t n;    /* its length */
} gtr__padded_name;
#define GTR__PADDED_NAME(lit) {lit, sizeof(lit) - 1}

/* The name of s; "Bad" when s is not a state. */
const gtr__padded_name *gtr__go_state_name(gtr_go_state s);
const gtr__padded_name *gtr__proc_state_name(gtr_proc_state s);

#endif /* GTR_SRC_PADDED_NAMES_H */
