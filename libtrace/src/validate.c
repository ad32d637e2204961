/* SPDX-License-Identifier: BSD-3-Clause */
/* validate.c: in progress. */
typedef int gtr__in_progress_validate;
