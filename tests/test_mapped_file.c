/* SPDX-License-Identifier: BSD-3-Clause */
/* test_mapped_file.c: cli_map_file (cli/mapped_file.c): which files it maps, what it maps,
 * and the clean exit when a mapped file is cut short under it (SIGBUS). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "mapped_file.h"

/* temp_file writes n bytes of a pattern to a new temporary file and returns its path. */
static char *temp_file(size_t n)
{
    char *path = strdup("/tmp/gtr-mapped-XXXXXX");
    assert_non_null(path);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)(i * 7 + 1);
        assert_int_equal(write(fd, &c, 1), 1);
    }
    close(fd);
    return path;
}

static void test_mapped_file_maps_regular_files_whole(void **state)
{
    (void)state;
    char *path = temp_file(10000);
    cli_mapped_file m;
    assert_true(cli_map_file(path, &m));
    assert_int_equal(m.len, 10000);
    const unsigned char *p = m.data;
    for (size_t i = 0; i < m.len; i++)
        assert_int_equal(p[i], (unsigned char)(i * 7 + 1));
    cli_unmap_file(&m);
    assert_null(m.data);
    assert_int_equal(m.len, 0);
    unlink(path);
    free(path);
}

/* Pages let go of read back the same bytes; only whole pages before the offset go. */
static void test_mapped_file_release_keeps_the_bytes(void **state)
{
    (void)state;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *path = temp_file(page * 5 + 100);
    cli_mapped_file m;
    assert_true(cli_map_file(path, &m));
    const unsigned char *p = m.data;
    for (size_t i = 0; i < m.len; i++)
        assert_int_equal(p[i], (unsigned char)(i * 7 + 1));
    cli_mapped_file_release_before(&m, page * 2 + 10);   /* the pages before it: 2 */
    assert_int_equal(m.released, page * 2);
    cli_mapped_file_release_before(&m, page);           /* behind what went: nothing */
    assert_int_equal(m.released, page * 2);
    for (size_t i = 0; i < m.len; i++)
        assert_int_equal(p[i], (unsigned char)(i * 7 + 1));
    cli_mapped_file_release_before(&m, (uint64_t)m.len * 2);   /* past the end: all pages */
    assert_int_equal(m.released, page * 5);
    for (size_t i = 0; i < m.len; i++)
        assert_int_equal(p[i], (unsigned char)(i * 7 + 1));
    cli_unmap_file(&m);
    cli_mapped_file_release_before(&m, 1u << 20);      /* nothing mapped: a no-op */
    assert_int_equal(m.released, 0);
    unlink(path);
    free(path);
}

/* resident_pages is the number of m's pages in this process's resident set (the mapping's
 * Rss in /proc/self/smaps). */
static size_t resident_pages(const cli_mapped_file *m)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    assert_non_null(f);
    char line[512];
    bool in_map = false;
    size_t kb = SIZE_MAX;
    while (fgets(line, sizeof line, f) != NULL) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, ':') != NULL &&
            line[strspn(line, "0123456789abcdef")] == '-')
            in_map = lo == (unsigned long)(uintptr_t)m->data;
        else if (in_map && sscanf(line, "Rss: %zu kB", &kb) == 1)
            break;
    }
    fclose(f);
    assert_int_not_equal(kb, SIZE_MAX);
    return kb * 1024 / (size_t)sysconf(_SC_PAGESIZE);
}

/* The kernel can make a range resident in one call (MADV_POPULATE_READ, Linux 5.14). */
static bool kernel_populates(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void *p = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(p != MAP_FAILED);
    bool ok = madvise(p, page, MADV_POPULATE_READ) == 0;
    munmap(p, page);
    return ok;
}

/* A file is made resident as it is mapped, up to CLI_MAPPED_FILE_AHEAD bytes, and that far
 * past what is let go after. */
static void test_mapped_file_is_made_resident_ahead(void **state)
{
    (void)state;
    if (!kernel_populates())
        skip();
    size_t page = (size_t)sysconf(_SC_PAGESIZE), ahead = CLI_MAPPED_FILE_AHEAD / page;
    cli_mapped_file m;

    char *small = temp_file(page * 5 + 100);   /* 6 pages: all of it */
    assert_true(cli_map_file(small, &m));
    assert_int_equal(resident_pages(&m), 6);
    cli_mapped_file_release_before(&m, page * 2 + 10);
    assert_int_equal(resident_pages(&m), 4);
    cli_unmap_file(&m);
    unlink(small);
    free(small);

    /* A page read brings its neighbours in the page cache along (fault-around, up to 16
     * pages here): at least the pages asked for are resident, some may be with them. */
    char *big = temp_file(CLI_MAPPED_FILE_AHEAD + page * 5);
    assert_true(cli_map_file(big, &m));
    assert_int_equal(resident_pages(&m), ahead);   /* the first CLI_MAPPED_FILE_AHEAD */
    cli_mapped_file_release_before(&m, page * 3);
    assert_in_range(resident_pages(&m), ahead, ahead + 2);   /* 3 went, 3 to 5 came */
    cli_mapped_file_release_before(&m, page * 5);
    assert_int_equal(resident_pages(&m), ahead);   /* the file's last pages */
    const unsigned char *p = m.data;
    for (size_t i = 0; i < m.len; i++)
        assert_int_equal(p[i], (unsigned char)(i * 7 + 1));
    cli_unmap_file(&m);
    unlink(big);
    free(big);
}

static void test_mapped_file_declines_what_it_cannot_map(void **state)
{
    (void)state;
    cli_mapped_file m;
    char *empty = temp_file(0);
    assert_false(cli_map_file(empty, &m));      /* empty (as /proc files say they are) */
    assert_null(m.data);
    assert_false(cli_map_file("/tmp", &m));     /* a directory */
    assert_false(cli_map_file("/nonexistent/gtr-mapped", &m));
    assert_false(cli_map_file("/dev/null", &m)); /* not a regular file */
    assert_null(m.data);
    cli_unmap_file(&m);                         /* nothing mapped: a no-op */
    unlink(empty);
    free(empty);
}

/* A mapped file truncated by someone else: reading a lost page ends the process with the
 * message and exit status 1, not a crash. */
static void test_mapped_file_truncated_under_it_exits_cleanly(void **state)
{
    (void)state;
    long page = sysconf(_SC_PAGESIZE);
    char *path = temp_file((size_t)page * 4);
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(pipefd[1], STDERR_FILENO);
        close(pipefd[0]);
        cli_mapped_file m;
        if (!cli_map_file(path, &m))
            _exit(3);
        if (truncate(path, 0) != 0)
            _exit(4);
        volatile const unsigned char *p = m.data;
        unsigned char c = p[(size_t)page * 3];   /* SIGBUS */
        (void)c;
        _exit(5);
    }
    close(pipefd[1]);
    char out[1024];
    size_t n = 0;
    ssize_t k;
    while (n < sizeof out - 1 && (k = read(pipefd[0], out + n, sizeof out - 1 - n)) > 0)
        n += (size_t)k;
    out[n] = '\0';
    close(pipefd[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    char want[256];
    snprintf(want, sizeof want, "gotrace: read %s: the file was truncated while being read\n",
             path);
    assert_string_equal(out, want);
    unlink(path);
    free(path);
}

/* run_cut_child forks a child that maps path, cuts the file to `cut` bytes, reads the byte
 * at `at` (past the cut, in the cut's last page: a zero, no SIGBUS), then calls
 * cli_mapped_file_check. Returns the child's stderr and wait status. */
static void run_cut_child(const char *path, size_t cut, size_t at, char *out, size_t cap,
                          int *status)
{
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(pipefd[1], STDERR_FILENO);
        close(pipefd[0]);
        cli_mapped_file m;
        if (!cli_map_file(path, &m))
            _exit(3);
        cli_mapped_file_check(&m);   /* whole: returns */
        if (truncate(path, (off_t)cut) != 0)
            _exit(4);
        volatile const unsigned char *p = m.data;
        if (p[at] != 0)
            _exit(6);   /* the lost bytes read as zeros */
        cli_mapped_file_check(&m);
        _exit(5);
    }
    close(pipefd[1]);
    size_t n = 0;
    ssize_t k;
    while (n < cap - 1 && (k = read(pipefd[0], out + n, cap - 1 - n)) > 0)
        n += (size_t)k;
    out[n] = '\0';
    close(pipefd[0]);
    assert_int_equal(waitpid(pid, status, 0), pid);
}

/* A cut that is not page-aligned leaves the rest of its last page readable, as zeros: the
 * check after reading tells it with the same message and status as SIGBUS, at every such
 * offset. */
static void test_mapped_file_cut_inside_a_page_is_caught_by_check(void **state)
{
    (void)state;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t cuts[] = {1, 37, page - 1, page + 1, page * 2 + 1234, page * 4 - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        char *path = temp_file(page * 4 + 100);
        char out[1024], want[256];
        int status;
        size_t at = (cuts[i] / page + 1) * page - 1;   /* the last byte of the cut's page */
        run_cut_child(path, cuts[i], at, out, sizeof out, &status);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 1);
        snprintf(want, sizeof want,
                 "gotrace: read %s: the file was truncated while being read\n", path);
        assert_string_equal(out, want);
        unlink(path);
        free(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mapped_file_maps_regular_files_whole),
        cmocka_unit_test(test_mapped_file_release_keeps_the_bytes),
        cmocka_unit_test(test_mapped_file_is_made_resident_ahead),
        cmocka_unit_test(test_mapped_file_declines_what_it_cannot_map),
        cmocka_unit_test(test_mapped_file_truncated_under_it_exits_cleanly),
        cmocka_unit_test(test_mapped_file_cut_inside_a_page_is_caught_by_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
