/* SPDX-License-Identifier: BSD-3-Clause */
/* make_mutants: write N structure-aware mutants of seed traces, for the differential campaign
 * against Go (ci/difffuzz.sh).
 *
 * usage: make_mutants -n N [-s SEED] [-f FIRST] [-m MAXBYTES] -o DIR FILE...
 * FILEs are .test fixtures (their trace section), wire traces or .trace.gz files; unreadable
 * ones are skipped (reported), and so are seeds larger than MAXBYTES (default 256 KiB). Mutant
 * k (FIRST <= k < FIRST+N) is DIR/m<k>.trace, in wire bytes: seed k mod nseeds, mutated by
 * gtr_fs_mutate (one to three operators) and, one time in four, mutated again; one time in
 * eight it is instead the crossover of two seeds. The same (seeds, SEED, k) always give the
 * same mutant, so a campaign is reproducible and can be split into ranges. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs/mutate.h"
#include "tgen/fixture.h"

#define MAX_OUT (1u << 20)

typedef struct seed {
    uint8_t *data;
    size_t size;
} seed;

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int usage(void)
{
    fprintf(stderr, "usage: make_mutants -n N [-s SEED] [-f FIRST] [-m MAXBYTES] -o DIR FILE...\n");
    return 2;
}

int main(int argc, char **argv)
{
    unsigned long long n = 0, first = 0, s0 = 1, maxbytes = 256 * 1024;
    const char *dir = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (i + 1 >= argc)
            return usage();
        if (strcmp(argv[i], "-n") == 0)
            n = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-s") == 0)
            s0 = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-f") == 0)
            first = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-m") == 0)
            maxbytes = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-o") == 0)
            dir = argv[++i];
        else
            return usage();
    }
    if (dir == NULL || i >= argc)
        return usage();

    seed *seeds = calloc((size_t)argc, sizeof *seeds);
    uint8_t *out = malloc(MAX_OUT), *again = malloc(MAX_OUT);
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    size_t nseeds = 0, skipped = 0;
    if (seeds == NULL || out == NULL || again == NULL || m == NULL) {
        fprintf(stderr, "make_mutants: out of memory\n");
        return 1;
    }
    for (; i < argc; i++) {
        gtr_buf b = {0};
        gtr_err err = GTR_ERR_INIT;
        if (tgen_load_trace(argv[i], &b, NULL, &err) < 0 || b.len == 0 || b.len > maxbytes) {
            skipped++;
        } else {
            seeds[nseeds].size = b.len;
            seeds[nseeds].data = (uint8_t *)gtr_buf_take(&b, NULL);
            nseeds++;
        }
        gtr_err_clear(&err);
        gtr_buf_free(&b);
    }
    if (nseeds == 0) {
        fprintf(stderr, "make_mutants: no usable seeds (%zu skipped)\n", skipped);
        return 1;
    }
    int rc = 0;
    size_t plen = strlen(dir) + 32;
    char *path = malloc(plen);
    for (unsigned long long k = first; k < first + n && rc == 0; k++) {
        uint64_t r = mix(s0 * 1000003ULL + k);
        const seed *a = &seeds[k % nseeds];
        size_t on;
        if ((r & 7) == 0) {
            const seed *b = &seeds[(size_t)(mix(r) % nseeds)];
            on = gtr_fs_crossover(m, a->data, a->size, b->data, b->size, MAX_OUT, r, out);
        } else {
            on = gtr_fs_mutate(m, a->data, a->size, MAX_OUT, r, out);
            if (((r >> 3) & 3) == 0) {
                memcpy(again, out, on);
                on = gtr_fs_mutate(m, again, on, MAX_OUT, mix(r + 1), out);
            }
        }
        snprintf(path, plen, "%s/m%llu.trace", dir, k);
        FILE *f = fopen(path, "wb");
        if (f == NULL || fwrite(out, 1, on, f) != on || fclose(f) != 0) {
            fprintf(stderr, "make_mutants: writing %s: %s\n", path, strerror(errno));
            rc = 1;
        }
    }
    fprintf(stderr, "make_mutants: %llu mutants of %zu seeds (%zu skipped) in %s\n", n, nseeds,
            skipped, dir);
    free(path);
    for (size_t j = 0; j < nseeds; j++)
        free(seeds[j].data);
    free(seeds);
    free(out);
    free(again);
    gtr_fs_mutator_free(m);
    return rc;
}
