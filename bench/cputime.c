/* SPDX-License-Identifier: BSD-3-Clause */
/* cputime: run a command REPS times in a row and print its CPU time per execution (user +
 * system, in seconds, to the microsecond) and the largest peak RSS of any execution (KiB):
 *
 *   cputime REPS STDIN CMD [ARG...]      prints "SECONDS MAXRSS_KIB"
 *
 * Each execution reads STDIN (a path) and writes to /dev/null. ci/bench.sh times its
 * end-to-end modes with it: GNU time prints CPU seconds to the hundredth only, which on a
 * run of 50 ms is a 20 % step. The times are the children's rusage from wait4, as the
 * kernel accounts them. Exit status: 0, or 1 when an execution fails (its status is said). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static double seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: cputime REPS STDIN CMD [ARG...]\n");
        return 2;
    }
    char *end;
    long reps = strtol(argv[1], &end, 10);
    if (*end != '\0' || reps < 1 || reps > 100000) {
        fprintf(stderr, "cputime: REPS must be 1 to 100000\n");
        return 2;
    }
    double cpu = 0;
    long maxrss = 0;
    for (long i = 0; i < reps; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "cputime: fork: %s\n", strerror(errno));
            return 1;
        }
        if (pid == 0) {
            int in = open(argv[2], O_RDONLY);
            int out = open("/dev/null", O_WRONLY);
            if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0) {
                fprintf(stderr, "cputime: %s: %s\n", in < 0 ? argv[2] : "/dev/null",
                        strerror(errno));
                _exit(127);
            }
            execvp(argv[3], argv + 3);
            fprintf(stderr, "cputime: %s: %s\n", argv[3], strerror(errno));
            _exit(127);
        }
        int status;
        struct rusage ru;
        if (wait4(pid, &status, 0, &ru) < 0) {
            fprintf(stderr, "cputime: wait4: %s\n", strerror(errno));
            return 1;
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "cputime: %s failed (status %d)\n", argv[3], status);
            return 1;
        }
        cpu += seconds(ru.ru_utime) + seconds(ru.ru_stime);
        if (ru.ru_maxrss > maxrss)
            maxrss = ru.ru_maxrss;
    }
    printf("%.6f %ld\n", cpu / (double)reps, maxrss);
    return 0;
}
