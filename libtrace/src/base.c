/* SPDX-License-Identifier: BSD-3-Clause */
/* base.c: in progress. */
typedef int gtr__in_progress_base;
