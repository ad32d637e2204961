/* SPDX-License-Identifier: BSD-3-Clause */
/* header.c: in progress. */
typedef int gtr__in_progress_header;
