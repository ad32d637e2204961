/* SPDX-License-Identifier: BSD-3-Clause */
/* txtar.c: in progress. */
typedef int gtr__in_progress_txtar;
