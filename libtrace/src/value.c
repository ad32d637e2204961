/* SPDX-License-Identifier: BSD-3-Clause */
/* value.c: in progress. */
typedef int gtr__in_progress_value;
