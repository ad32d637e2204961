/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr.h: the umbrella header of libtrace, gotrace's Go execution trace library. */
#ifndef GTR_GTR_H
#define GTR_GTR_H

#include "gtr/status.h"
#include "gtr/version.h"
#include "gtr/alloc.h"
#include "gtr/buf.h"
#include "gtr/spec.h"
#include "gtr/input.h"
#include "gtr/raw.h"
#include "gtr/event.h"
#include "gtr/reader.h"
#include "gtr/diagnosis.h"
#include "gtr/snapshot.h"
#include "gtr/validate.h"
#include "gtr/sort.h"
#endif /* GTR_GTR_H */
