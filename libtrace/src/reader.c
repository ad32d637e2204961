/* SPDX-License-Identifier: BSD-3-Clause */
/* reader.c: in progress. */
typedef int gtr__in_progress_reader;
