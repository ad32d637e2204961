/* SPDX-License-Identifier: BSD-3-Clause */
/* input.c: in progress. */
typedef int gtr__in_progress_input;
