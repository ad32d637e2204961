/* SPDX-License-Identifier: BSD-3-Clause */
/* first_touch: what the first touch of a page costs on this machine, and what that costs the
 * reader's first pass over a trace (bench/README.md, "First touches of a page").
 *
 *   first_touch passes TRACE [WAY]
 *                              the library's parse + validate (gtr_validator_run) over the
 *                              uncompressed TRACE, PASSES (5) times in one process, in each
 *                              of these ways in turn (or WAY alone: what a way leaves behind,
 *                              the host's side of the mapped pages above all, changes the
 *                              ways after it):
 *                                map      one read-only mapping of the file for every pass
 *                                remap    a new mapping of the file for each pass
 *                                populate a new mapping for each pass, made with
 *                                         MAP_POPULATE (the mmap's time is printed apart)
 *                                flush    one mapping; a 256 MB sweep before each pass
 *                                         evicts the trace from the caches
 *                                hugecopy each pass reads the file with read() into a new
 *                                         2 MB-aligned buffer advised MADV_HUGEPAGE (the
 *                                         copy's time is printed apart)
 *   first_touch anon MB        MB of fresh anonymous memory touched one byte a page, four
 *                              ways: plain; after MADV_POPULATE_WRITE; mapped with
 *                              MAP_POPULATE; advised MADV_HUGEPAGE (the populate call's
 *                              time apart, then the first and a second touch of every page)
 *
 * Times are the process's CPU milliseconds (CLOCK_PROCESS_CPUTIME_ID). Linux only. Measured,
 * never asserted. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gtr/gtr.h"

enum { PASSES = 5 };
#define HUGE_PAGE ((size_t)2 << 20)
#define SWEEP ((size_t)256 << 20)

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* validate_pass reads data once with the library's validation loop; false on a reader error
 * (a validation failure still counts as a pass: the work was done). */
static bool validate_pass(const void *data, size_t len)
{
    gtr_err err = GTR_ERR_INIT;
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_validator *v = NULL;
    bool ok = false;
    if (gtr_input_open_memory_plain(data, len, NULL, &in, &err) == GTR_OK &&
        gtr_reader_new(in, NULL, &r, &err) == GTR_OK &&
        gtr_validator_new(NULL, &v, &err) == GTR_OK) {
        uint64_t n;
        gtr_status st = gtr_validator_run(v, r, 0, &n, &err);
        ok = st == GTR_EOF || st == GTR_E_INVALID;
    }
    if (!ok)
        fprintf(stderr, "first_touch: %s\n", gtr_err_text(&err, NULL));
    gtr_validator_free(v);
    gtr_reader_free(r);
    gtr_input_free(in);
    gtr_err_clear(&err);
    return ok;
}

/* aligned_anon maps len bytes of anonymous memory at a 2 MB boundary (*base and *base_len
 * are what to unmap); NULL on failure. */
static char *aligned_anon(size_t len, int extra_flags, void **base, size_t *base_len)
{
    *base_len = len + HUGE_PAGE;
    *base = mmap(NULL, *base_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | extra_flags,
                 -1, 0);
    if (*base == MAP_FAILED)
        return NULL;
    return (char *)(((uintptr_t)*base + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
}

/* read_all reads len bytes of fd from offset 0 into dst. */
static bool read_all(int fd, char *dst, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t n = pread(fd, dst + off, len - off, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        off += (size_t)n;
    }
    return true;
}

static int passes(const char *path, const char *only)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size <= 0) {
        fprintf(stderr, "first_touch: %s: not a readable, non-empty regular file\n", path);
        return 1;
    }
    size_t len = (size_t)sb.st_size;
    enum { MAP, REMAP, POPULATE, FLUSH, HUGECOPY, NWAYS };
    static const char *const ways[NWAYS] = {"map", "remap", "populate", "flush", "hugecopy"};
    bool known = only == NULL;
    for (int w = 0; w < NWAYS; w++)
        known |= only != NULL && strcmp(only, ways[w]) == 0;
    if (!known) {
        fprintf(stderr, "first_touch: WAY is map, remap, populate, flush or hugecopy\n");
        return 2;
    }
    char *sweep = NULL;   /* for FLUSH */
    if (only == NULL || strcmp(only, "flush") == 0) {
        if ((sweep = malloc(SWEEP)) == NULL) {
            fprintf(stderr, "first_touch: out of memory\n");
            return 1;
        }
        memset(sweep, 1, SWEEP);
    }
    for (int w = 0; w < NWAYS; w++) {
        if (only != NULL && strcmp(only, ways[w]) != 0)
            continue;
        void *map = NULL;
        printf("%-9s", ways[w]);
        fflush(stdout);
        for (int i = 0; i < PASSES; i++) {
            double setup = 0;
            if (w != HUGECOPY && (map == NULL || w == REMAP || w == POPULATE)) {
                if (map != NULL)
                    munmap(map, len);
                double t = cpu_ms();
                map = mmap(NULL, len, PROT_READ, MAP_PRIVATE | (w == POPULATE ? MAP_POPULATE : 0),
                           fd, 0);
                setup = cpu_ms() - t;
                if (map == MAP_FAILED) {
                    fprintf(stderr, "\nfirst_touch: mmap: %s\n", strerror(errno));
                    return 1;
                }
            }
            if (w == FLUSH)
                for (size_t k = 0; k < SWEEP; k += 64)
                    sweep[k]++;
            double t0 = cpu_ms();
            const void *data = map;
            void *base = NULL;
            size_t base_len = 0;
            if (w == HUGECOPY) {
                size_t room = (len + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
                char *buf = aligned_anon(room, 0, &base, &base_len);
                if (buf == NULL) {
                    fprintf(stderr, "\nfirst_touch: mmap: %s\n", strerror(errno));
                    return 1;
                }
                if (madvise(buf, room, MADV_HUGEPAGE) != 0) {   /* a kernel without THP */
                    printf(" madvise(MADV_HUGEPAGE): %s", strerror(errno));
                    munmap(base, base_len);
                    break;
                }
                if (!read_all(fd, buf, len)) {
                    fprintf(stderr, "\nfirst_touch: read %s: %s\n", path, strerror(errno));
                    return 1;
                }
                data = buf;
                setup = cpu_ms() - t0;
                t0 += setup;
            }
            if (!validate_pass(data, len))
                return 1;
            double ms = cpu_ms() - t0;
            if (w == HUGECOPY)
                printf(" %7.2f (+%.2f copy)", ms, setup);
            else if (w == POPULATE)
                printf(" %7.2f (+%.2f mmap)", ms, setup);
            else
                printf(" %7.2f", ms);
            if (base != NULL)
                munmap(base, base_len);
        }
        printf("  ms\n");
        if (map != NULL)
            munmap(map, len);
    }
    free(sweep);
    close(fd);
    return 0;
}

static int anon(const char *mb_arg)
{
    char *end;
    long mb = strtol(mb_arg, &end, 10);
    if (*end != '\0' || mb < 1 || mb > 4096) {
        fprintf(stderr, "first_touch: MB must be 1 to 4096\n");
        return 2;
    }
    size_t len = (size_t)mb << 20, page = (size_t)sysconf(_SC_PAGESIZE);
    static const char *const ways[] = {"plain", "populate_write", "map_populate", "hugepage"};
    for (int w = 0; w < 4; w++) {
        void *base;
        size_t base_len;
        double t0 = cpu_ms();
        char *p = aligned_anon(len, w == 2 ? MAP_POPULATE : 0, &base, &base_len);
        if (p == NULL) {
            fprintf(stderr, "first_touch: mmap: %s\n", strerror(errno));
            return 1;
        }
        int rc = 0;
#ifdef MADV_POPULATE_WRITE
        if (w == 1)
            rc = madvise(p, len, MADV_POPULATE_WRITE);
#else
        if (w == 1)
            rc = -1, errno = ENOSYS;
#endif
        if (w == 3)
            rc = madvise(p, len, MADV_HUGEPAGE);
        if (rc != 0) {
            printf("%-15s madvise: %s\n", ways[w], strerror(errno));
            munmap(base, base_len);
            continue;
        }
        double t1 = cpu_ms();
        for (size_t k = 0; k < len; k += page)
            p[k] = 1;
        double t2 = cpu_ms();
        for (size_t k = 0; k < len; k += page)
            p[k] = 2;
        double t3 = cpu_ms();
        printf("%-15s setup %7.2f  first touch %7.2f  second %6.2f ms  (%.2f us a page)\n", ways[w],
               t1 - t0, t2 - t1, t3 - t2, (t2 - t0) * 1e3 / (double)(len / page));
        munmap(base, base_len);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "passes") == 0)
        return passes(argv[2], argc == 4 ? argv[3] : NULL);
    if (argc == 3 && strcmp(argv[1], "anon") == 0)
        return anon(argv[2]);
    fprintf(stderr, "usage: first_touch passes TRACE [WAY] | first_touch anon MB\n");
    return 2;
}
