/* SPDX-License-Identifier: BSD-3-Clause */
/* version.h: libtrace's version, at compile time and at run time.
 *
 * This header is the one source of the project's version: the top CMakeLists.txt reads the
 * three numbers below into project(gotrace VERSION ...), so PROJECT_VERSION, the soname
 * (libgtr.so.MAJOR), gtr.pc, the CMake package's version file and `gotrace --version` all
 * follow it (tests/test_version.c checks that they agree). To release, change these three
 * lines and add a CHANGELOG.md section. */
#ifndef GTR_VERSION_H
#define GTR_VERSION_H

#include "gtr/status.h"

#define GTR_VERSION_MAJOR 0
#define GTR_VERSION_MINOR 1
#define GTR_VERSION_PATCH 0

/* GTR_VERSION_NUMBER: MAJOR * 10000 + MINOR * 100 + PATCH (zstd's ZSTD_VERSION_NUMBER). */
#define GTR_VERSION_NUMBER \
    (GTR_VERSION_MAJOR * 10000 + GTR_VERSION_MINOR * 100 + GTR_VERSION_PATCH)

#define GTR__VERSION_STR(x) #x
#define GTR__VERSION_XSTR(x) GTR__VERSION_STR(x)
/* GTR_VERSION_STRING: "MAJOR.MINOR.PATCH", e.g. "0.1.0". */
#define GTR_VERSION_STRING                                                   \
    GTR__VERSION_XSTR(GTR_VERSION_MAJOR) "." GTR__VERSION_XSTR(GTR_VERSION_MINOR) "." \
    GTR__VERSION_XSTR(GTR_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/* gtr_version returns GTR_VERSION_STRING of the library linked in (a static string), which
 * may differ from the header's when a program runs against another libgtr.so. (The versions
 * of the trace format, "go 1.N trace", are gtr_go_version and gtr_go_version_* in
 * gtr/spec.h.) */
GTR_API const char *gtr_version(void);

/* gtr_version_number returns GTR_VERSION_NUMBER of the library linked in. */
GTR_API unsigned gtr_version_number(void);

#ifdef __cplusplus
}
#endif
#endif /* GTR_VERSION_H */
