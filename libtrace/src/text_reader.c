/* SPDX-License-Identifier: BSD-3-Clause */
/* text_reader.c: in progress. */
typedef int gtr__in_progress_text_reader;
