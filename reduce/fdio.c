/* SPDX-License-Identifier: BSD-3-Clause */
/* fdio.c: whole reads and writes on a file descriptor (fdio.h). */
#include "fdio.h"

#include <errno.h>
#include <unistd.h>

/* transfer_all is the loop of both directions: into p when reading (into non-NULL), else
 * from `from`. A short transfer or EINTR goes on; an error, or 0 bytes (the end of the file
 * when reading), ends it with false. */
static bool transfer_all(int fd, char *into, const char *from, size_t n)
{
    size_t done = 0;
    while (done < n) {
        ssize_t k = into != NULL ? read(fd, into + done, n - done)
                                 : write(fd, from + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        done += (size_t)k;
    }
    return true;
}

bool reduce_write_all(int fd, const void *p, size_t n)
{
    return transfer_all(fd, NULL, p, n);
}

bool reduce_read_exact(int fd, void *p, size_t n)
{
    return transfer_all(fd, p, NULL, n);
}
