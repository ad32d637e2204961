/* SPDX-License-Identifier: BSD-3-Clause */
/* generation.c: in progress. */
typedef int gtr__in_progress_generation;
