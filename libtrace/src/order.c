/* SPDX-License-Identifier: BSD-3-Clause */
/* order.c: in progress. */
typedef int gtr__in_progress_order;
