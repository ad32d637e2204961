/* SPDX-License-Identifier: BSD-3-Clause */
/* batchcursor.c: in progress. */
typedef int gtr__in_progress_batchcursor;
