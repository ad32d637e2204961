/* SPDX-License-Identifier: BSD-3-Clause */
/* fdio.h: whole reads and writes on a file descriptor, for the child processes of reduce/
 * (internal). */
#ifndef GTR_REDUCE_FDIO_H
#define GTR_REDUCE_FDIO_H

#include <stdbool.h>
#include <stddef.h>

/* reduce_write_all writes p[0..n) to fd, retrying short writes and EINTR; false on error. */
bool reduce_write_all(int fd, const void *p, size_t n);

/* reduce_read_exact reads exactly n bytes from fd into p, retrying short reads and EINTR;
 * false on error or when the end of the file comes first (p[0..n) then holds what came). */
bool reduce_read_exact(int fd, void *p, size_t n);

#endif /* GTR_REDUCE_FDIO_H */
