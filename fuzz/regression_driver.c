/* SPDX-License-Identifier: BSD-3-Clause */
/* regression_driver.c: replays files and directories through a fuzz target without any
 * fuzzing engine (zstd's tests/fuzz/regression_driver.c, compiler-rt's
 * StandaloneFuzzTargetMain.c).
 *
 *   fuzz_<target>_replay [-flags ignored] FILE|DIR...
 *
 * Directories are walked recursively in sorted order (hidden entries skipped). Each file is
 * read into a buffer of exactly its size, so ASan catches a one-byte over-read. The empty
 * input runs once first. A crash or oracle failure aborts (the sanitizer or FUZZ_CHECK
 * reports it); otherwise the driver prints how many inputs it ran and exits 0. Exit 1: an
 * argument could not be read; 2: no argument. Arguments starting with '-' are ignored, so
 * libFuzzer command lines can be reused. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

typedef struct replay_stats {
    unsigned long files;
    unsigned long long bytes;
    int failures;
} replay_stats;

static void replay_path(const char *path, replay_stats *st);

static void replay_file(const char *path, replay_stats *st)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "replay: open %s: %s\n", path, strerror(errno));
        st->failures++;
        return;
    }
    size_t cap = 0, len = 0;
    uint8_t *buf = NULL;
    for (;;) {
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 4096;
            uint8_t *nbuf = realloc(buf, ncap);
            if (nbuf == NULL) {
                fprintf(stderr, "replay: %s: out of memory\n", path);
                free(buf);
                fclose(f);
                st->failures++;
                return;
            }
            buf = nbuf;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int ioerr = ferror(f);
    fclose(f);
    if (ioerr) {
        fprintf(stderr, "replay: read %s failed\n", path);
        free(buf);
        st->failures++;
        return;
    }
    /* An exact-size copy: any read past the end is an ASan report. */
    uint8_t *exact = malloc(len ? len : 1);
    if (exact == NULL) {
        free(buf);
        st->failures++;
        return;
    }
    if (len > 0)
        memcpy(exact, buf, len);
    free(buf);
    if (getenv("REPLAY_VERBOSE") != NULL)
        fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    st->files++;
    st->bytes += len;
}

static int skip_entry(const struct dirent *d)
{
    return d->d_name[0] != '.';
}

static void replay_dir(const char *path, replay_stats *st)
{
    struct dirent **names = NULL;
    int n = scandir(path, &names, skip_entry, alphasort);
    if (n < 0) {
        fprintf(stderr, "replay: scan %s: %s\n", path, strerror(errno));
        st->failures++;
        return;
    }
    for (int i = 0; i < n; i++) {
        size_t need = strlen(path) + 1 + strlen(names[i]->d_name) + 1;
        char *child = malloc(need);
        if (child != NULL) {
            snprintf(child, need, "%s/%s", path, names[i]->d_name);
            replay_path(child, st);
            free(child);
        } else {
            st->failures++;
        }
        free(names[i]);
    }
    free(names);
}

static void replay_path(const char *path, replay_stats *st)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "replay: stat %s: %s\n", path, strerror(errno));
        st->failures++;
        return;
    }
    if (S_ISDIR(sb.st_mode))
        replay_dir(path, st);
    else if (S_ISREG(sb.st_mode))
        replay_file(path, st);
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize != NULL)
        LLVMFuzzerInitialize(&argc, &argv);
    replay_stats st = {0, 0, 0};
    int paths = 0;
    static const uint8_t empty[1] = {0};
    LLVMFuzzerTestOneInput(empty, 0);
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-')
            continue;
        paths++;
        replay_path(argv[i], &st);
    }
    if (paths == 0) {
        fprintf(stderr, "usage: %s [-flags ignored] FILE|DIR...\n", argv[0]);
        return 2;
    }
    fprintf(stderr, "replay: %lu inputs (%llu bytes) ran without a crash; %d unreadable\n",
            st.files, st.bytes, st.failures);
    return st.failures ? 1 : 0;
}
