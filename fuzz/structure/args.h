/* SPDX-License-Identifier: BSD-3-Clause */
/* args.h: what an event argument names, from the spec's argument names (private to
 * fuzz/structure: the mutator's operators and the splice operator). */
#ifndef GTR_FS_ARGS_H
#define GTR_FS_ARGS_H

#include <stdint.h>

enum gtr__fs_arg_class {
    A_OTHER,
    A_DT,
    A_G,
    A_P,
    A_M,
    A_STRING,
    A_STACK,
    A_SEQ,
    A_STATUS,
    A_VALUE,
    A_TASK,
    A_TIME,   /* an absolute timestamp (CPUSample's time) */
};

/* gtr__fs_classify: the class of argument i of an event of the given type (stack frame
 * values, past the spec's arguments, are A_OTHER). */
enum gtr__fs_arg_class gtr__fs_classify(uint8_t type, uint32_t i);

#endif /* GTR_FS_ARGS_H */
