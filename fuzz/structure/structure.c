/* SPDX-License-Identifier: BSD-3-Clause */
/* in progress. */
typedef int gtr__in_progress_fs;
