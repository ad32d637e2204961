/* SPDX-License-Identifier: BSD-3-Clause */
/* raw_writer.c: in progress. */
typedef int gtr__in_progress_raw_writer;
