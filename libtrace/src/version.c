/* SPDX-License-Identifier: BSD-3-Clause */
/* version.c: the version of the library linked in (gtr/version.h). */
#include "gtr/version.h"

const char *gtr_version(void)
{
    return GTR_VERSION_STRING;
}
