/* SPDX-License-Identifier: BSD-3-Clause */
/* args.c: argument classes from the spec's argument names (args.h). */
#include <string.h>

#include "args.h"
#include "gtr/spec.h"

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

enum gtr__fs_arg_class gtr__fs_classify(uint8_t type, uint32_t i)
{
    const gtr_event_spec *sp = gtr_spec(type);
    if (i >= sp->nargs)
        return A_OTHER;   /* stack frame values */
    const char *n = sp->args[i];
    if (strcmp(n, "dt") == 0)
        return A_DT;
    if (strcmp(n, "time") == 0)
        return A_TIME;
    if (strcmp(n, "g") == 0 || strcmp(n, "new_g") == 0)
        return A_G;
    if (strcmp(n, "p") == 0)
        return A_P;
    if (strcmp(n, "m") == 0)
        return A_M;
    if (has_suffix(n, "_string"))
        return A_STRING;
    if (strcmp(n, "stack") == 0 || strcmp(n, "new_stack") == 0)
        return A_STACK;
    if (has_suffix(n, "_seq"))
        return A_SEQ;
    if (strcmp(n, "gstatus") == 0 || strcmp(n, "pstatus") == 0)
        return A_STATUS;
    if (has_suffix(n, "_value"))
        return A_VALUE;
    if (strcmp(n, "task") == 0 || strcmp(n, "parent_task") == 0)
        return A_TASK;
    return A_OTHER;
}
