/* SPDX-License-Identifier: BSD-3-Clause */
/* mapped_file.c: see mapped_file.h. */
#define _GNU_SOURCE
#include "mapped_file.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* populate_ahead fills in the page table of m's pages up to `to` (at most the file's end)
 * past those already filled in or let go: one call (MADV_POPULATE_READ, Linux 5.14), where
 * reading them would fault once every 16 pages. Advisory: a kernel without it says EINVAL,
 * and the pages are then faulted in as they are read. */
static void populate_ahead(cli_mapped_file *m, size_t to)
{
    size_t from = m->populated > m->released ? m->populated : m->released;
    if (to > m->len)
        to = m->len;
    if (to <= from)
        return;
    (void)madvise((char *)m->data + from, to - from, MADV_POPULATE_READ);
    m->populated = to;
}

/* The message the SIGBUS handler writes, made before the handler can run. */
static char bus_message[512];
static size_t bus_message_len;

static void on_sigbus(int sig)
{
    (void)sig;
    ssize_t w = write(STDERR_FILENO, bus_message, bus_message_len);
    (void)w;
    _exit(1);
}

bool cli_map_file(const char *path, cli_mapped_file *out)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size <= 0 ||
        (unsigned long long)sb.st_size > (unsigned long long)SIZE_MAX) {
        close(fd);
        return false;
    }
    size_t len = (size_t)sb.st_size;
    void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        close(fd);
        return false;
    }
    (void)madvise(p, len, MADV_SEQUENTIAL);

    /* Longer paths are cut in the message; the exit status says the rest. */
    static const char head[] = "gotrace: read ";
    static const char tail[] = ": the file was truncated while being read\n";
    size_t n = strlen(path), room = sizeof bus_message - sizeof head - sizeof tail;
    if (n > room)
        n = room;
    memcpy(bus_message, head, sizeof head - 1);
    memcpy(bus_message + sizeof head - 1, path, n);
    memcpy(bus_message + sizeof head - 1 + n, tail, sizeof tail - 1);
    bus_message_len = sizeof head - 1 + n + sizeof tail - 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigbus;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);

    out->data = p;
    out->fd = fd;
    out->len = len;
    populate_ahead(out, CLI_MAPPED_FILE_AHEAD);
    return true;
}

void cli_mapped_file_release_before(cli_mapped_file *m, uint64_t offset)
{
    if (m->data == NULL)
        return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uint64_t end = offset;
    if (end > m->len)
        end = m->len;
    end &= ~(uint64_t)(page - 1);
    if (end <= m->released)
        return;
    /* A private read-only file mapping: MADV_DONTNEED drops the pages, the bytes stay. */
    if (madvise((char *)m->data + m->released, (size_t)end - m->released, MADV_DONTNEED) == 0)
        m->released = (size_t)end;
    populate_ahead(m, m->released + CLI_MAPPED_FILE_AHEAD);
}

void cli_mapped_file_check(const cli_mapped_file *m)
{
    struct stat sb;
    if (m->data == NULL || fstat(m->fd, &sb) != 0 || (unsigned long long)sb.st_size >= m->len)
        return;
    on_sigbus(SIGBUS);
}

void cli_unmap_file(cli_mapped_file *m)
{
    if (m->data != NULL) {
        munmap(m->data, m->len);
        close(m->fd);
    }
    memset(m, 0, sizeof *m);
}
