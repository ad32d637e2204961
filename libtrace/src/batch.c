/* SPDX-License-Identifier: BSD-3-Clause */
/* batch.c: in progress. */
typedef int gtr__in_progress_batch;
