/* SPDX-License-Identifier: BSD-3-Clause */
/* duration.h: durations printed as Go's time.Duration.String() prints them ("400.56ms",
 * "1.5s", "12µs", "4m5.001s", "0s"). */
#ifndef GTR_CLI_DURATION_H
#define GTR_CLI_DURATION_H

#include <stdint.h>

/* The longest string: "-2562047h47m16.854775808s" plus NUL (Go sizes its buffer 32). */
enum { CLI_DURATION_MAX = 32 };

/* cli_duration_string writes Go's Duration(ns).String() into buf (NUL-terminated, UTF-8: the
 * micro sign is U+00B5) and returns buf. */
char *cli_duration_string(int64_t ns, char buf[CLI_DURATION_MAX]);

#endif /* GTR_CLI_DURATION_H */
