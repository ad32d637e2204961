/* SPDX-License-Identifier: BSD-3-Clause */
/* fdio.h: whole writes to a file descriptor, for the child processes of reduce/ (internal). */
#ifndef GTR_REDUCE_FDIO_H
#define GTR_REDUCE_FDIO_H

#include <stdbool.h>
#include <stddef.h>

/* reduce_write_all writes p[0..n) to fd, retrying short writes and EINTR; false on error. */
bool reduce_write_all(int fd, const void *p, size_t n);

#endif /* GTR_REDUCE_FDIO_H */
