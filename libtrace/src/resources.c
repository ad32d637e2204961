/* SPDX-License-Identifier: BSD-3-Clause */
/* resources.c: in progress. */
typedef int gtr__in_progress_resources;
