/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr.h: the umbrella header of libtrace, gotrace's Go execution trace library. */
#ifndef GTR_GTR_H
#define GTR_GTR_H

#define GTR_VERSION_MAJOR 0
#define GTR_VERSION_MINOR 1
#define GTR_VERSION_PATCH 0
#define GTR_VERSION_NUMBER (GTR_VERSION_MAJOR * 10000 + GTR_VERSION_MINOR * 100 + GTR_VERSION_PATCH)

#include "gtr/status.h"
#include "gtr/alloc.h"
#include "gtr/buf.h"
#include "gtr/spec.h"
#include "gtr/input.h"
#include "gtr/raw.h"
#include "gtr/event.h"
#include "gtr/reader.h"
#include "gtr/validate.h"

#ifdef __cplusplus
extern "C" {
#endif
/* gtr_version_number: GTR_VERSION_NUMBER of the library linked in. */
GTR_API unsigned gtr_version_number(void);
#ifdef __cplusplus
}
#endif
#endif /* GTR_GTR_H */
