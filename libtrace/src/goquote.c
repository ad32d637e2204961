/* SPDX-License-Identifier: BSD-3-Clause */
/* goquote.c: in progress. */
typedef int gtr__in_progress_goquote;
