/* SPDX-License-Identifier: BSD-3-Clause */
/* event.c: in progress. */
typedef int gtr__in_progress_event;
