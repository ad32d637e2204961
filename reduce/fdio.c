/* SPDX-License-Identifier: BSD-3-Clause */
/* fdio.c: whole writes to a file descriptor (fdio.h). */
#include "fdio.h"

#include <errno.h>
#include <unistd.h>

bool reduce_write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        c += k;
        n -= (size_t)k;
    }
    return true;
}
