/* SPDX-License-Identifier: BSD-3-Clause */
/* measure_valid_rate: how many mutants pass full validation (reader + validator accept the
 * whole trace), for the structure-aware mutator, for its crossover, and for a byte-level
 * baseline shaped like libFuzzer's default (1 to 5 stacked byte mutations: bit flip, random
 * byte, interesting byte, insert, erase, copy).
 *
 * Then the splice operator alone (gtr_fs_splice), per kind of splice: -S N calls (default N
 * as given by -n; 0 skips it).
 *
 * usage: measure_valid_rate [-n N] [-S N] [-s SEED] [-v] FILE...
 * FILEs are .test fixtures (their trace section), wire traces or .trace.gz files. Seeds that
 * do not validate themselves are skipped (reported). Mutations cycle over the seeds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tgen/fixture.h"
#include "tgen/judge.h"
#include "fs/mutate.h"

#define MAX_OUT (4u << 20)

typedef struct seed {
    char *path;
    uint8_t *data;
    size_t size;
} seed;

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* havoc: libFuzzer-like stacked byte mutations. */
static size_t havoc(uint8_t *d, size_t n, size_t max)
{
    static const uint8_t interesting[] = {0, 1, 0x7f, 0x80, 0xff, 0x40};
    size_t depth = 1 + rnd() % 5;
    for (size_t k = 0; k < depth; k++) {
        if (n == 0)
            break;
        size_t i = rnd() % n;
        switch (rnd() % 6) {
        case 0:
            d[i] ^= (uint8_t)(1u << (rnd() % 8));
            break;
        case 1:
            d[i] = (uint8_t)rnd();
            break;
        case 2:
            d[i] = interesting[rnd() % sizeof interesting];
            break;
        case 3:
            if (n < max) {
                memmove(d + i + 1, d + i, n - i);
                d[i] = (uint8_t)rnd();
                n++;
            }
            break;
        case 4:
            if (n > 1) {
                memmove(d + i, d + i + 1, n - i - 1);
                n--;
            }
            break;
        default: {
            size_t j = rnd() % n, len = 1 + rnd() % 8;
            if (len > n - i)
                len = n - i;
            if (len > n - j)
                len = n - j;
            memmove(d + j, d + i, len);
            break;
        }
        }
    }
    return n;
}

static bool valid(const uint8_t *d, size_t n)
{
    tgen_verdict v;
    bool ok = tgen_judge(d, n, NULL, NULL, &v) == GTR_OK && tgen_verdict_clean(&v);
    tgen_verdict_free(&v);
    return ok;
}

/* measure_splice: the splice operator alone, n calls cycling over the seeds, valid share per
 * kind (the kinds are static strings named by gtr_fs_mutator_last_op). */
static void measure_splice(gtr_fs_mutator *m, const seed *seeds, size_t nseeds, size_t n,
                           uint64_t s0, uint8_t *out)
{
    enum { MAX_KINDS = 16 };
    const char *kinds[MAX_KINDS];
    size_t kn[MAX_KINDS] = {0}, kv[MAX_KINDS] = {0}, nk = 0, none = 0, total_v = 0;
    for (size_t k = 0; k < n; k++) {
        const seed *sd = &seeds[k % nseeds];
        size_t on = gtr_fs_splice(m, sd->data, sd->size, MAX_OUT, s0 * 104729 + k, out);
        if (on == 0) {
            none++;
            continue;
        }
        bool ok = valid(out, on);
        total_v += ok;
        const char *kind = gtr_fs_mutator_last_op(m);
        size_t j = 0;
        while (j < nk && strcmp(kinds[j], kind) != 0)
            j++;
        if (j == nk && nk < MAX_KINDS)
            kinds[nk++] = kind;
        if (j < nk) {
            kn[j]++;
            kv[j] += ok;
        }
    }
    printf("splice alone: %zu/%zu valid = %.1f%% (%zu did not apply)\n", total_v, n,
           100.0 * (double)total_v / (double)n, none);
    for (size_t j = 0; j < nk; j++)
        printf("  %-26s %6zu/%-6zu %5.1f%%\n", kinds[j], kv[j], kn[j],
               100.0 * (double)kv[j] / (double)kn[j]);
}

int main(int argc, char **argv)
{
    size_t n = 1000, nsplice = SIZE_MAX;
    uint64_t s0 = 1;
    bool verbose = false;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            n = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-S") == 0 && i + 1 < argc)
            nsplice = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
            s0 = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-v") == 0)
            verbose = true;
        else {
            fprintf(stderr, "usage: measure_valid_rate [-n N] [-S N] [-s SEED] [-v] FILE...\n");
            return 2;
        }
    }
    seed *seeds = calloc((size_t)argc, sizeof *seeds);
    size_t nseeds = 0, skipped = 0;
    for (; i < argc; i++) {
        gtr_buf b = {0};
        gtr_err err = GTR_ERR_INIT;
        if (tgen_load_trace(argv[i], &b, NULL, &err) < 0) {
            fprintf(stderr, "%s: %s\n", argv[i], gtr_err_text(&err, NULL));
            gtr_err_clear(&err);
            gtr_buf_free(&b);
            skipped++;
            continue;
        }
        if (!valid((const uint8_t *)b.data, b.len)) {
            if (verbose)
                fprintf(stderr, "skipping %s: does not validate\n", argv[i]);
            gtr_buf_free(&b);
            skipped++;
            continue;
        }
        seeds[nseeds].path = argv[i];
        seeds[nseeds].size = b.len;
        seeds[nseeds].data = (uint8_t *)gtr_buf_take(&b, NULL);
        nseeds++;
    }
    if (nseeds == 0) {
        fprintf(stderr, "no valid seeds\n");
        return 1;
    }
    uint8_t *out = malloc(MAX_OUT);
    gtr_fs_mutator *m = gtr_fs_mutator_new(NULL);
    size_t nops = gtr_fs_op_count();
    size_t *op_n = calloc(nops + 2, sizeof *op_n), *op_v = calloc(nops + 2, sizeof *op_v);
    size_t sv = 0, bv = 0, cv = 0, unchanged = 0;
    rng_state = s0;
    for (size_t k = 0; k < n; k++) {
        const seed *sd = &seeds[k % nseeds];
        size_t on = gtr_fs_mutate(m, sd->data, sd->size, MAX_OUT, s0 * 1000003 + k, out);
        bool ok = valid(out, on);
        if (on == sd->size && memcmp(out, sd->data, on) == 0)
            unchanged++;
        sv += ok;
        const char *op = gtr_fs_mutator_last_op(m);
        for (size_t j = 0; j < nops; j++) {
            if (strcmp(op, gtr_fs_op_name(j)) == 0) {
                op_n[j]++;
                op_v[j] += ok;
            }
        }
        memcpy(out, sd->data, sd->size);
        bv += valid(out, havoc(out, sd->size, MAX_OUT));
        const seed *other = &seeds[(size_t)rnd() % nseeds];
        size_t cn = gtr_fs_crossover(m, sd->data, sd->size, other->data, other->size, MAX_OUT,
                                     s0 * 7919 + k, out);
        cv += valid(out, cn);
    }
    printf("seeds: %zu valid (%zu skipped as invalid or unreadable)\n", nseeds, skipped);
    printf("structure-aware mutator: %zu/%zu valid = %.1f%% (%zu outputs identical to the seed)\n",
           sv, n, 100.0 * (double)sv / (double)n, unchanged);
    printf("byte-level (1-5 stacked byte mutations): %zu/%zu valid = %.1f%%\n", bv, n,
           100.0 * (double)bv / (double)n);
    printf("crossover: %zu/%zu valid = %.1f%%\n", cv, n, 100.0 * (double)cv / (double)n);
    printf("per operator (structure-aware):\n");
    for (size_t j = 0; j < nops; j++) {
        if (op_n[j] > 0)
            printf("  %-14s %6zu/%-6zu %5.1f%%\n", gtr_fs_op_name(j), op_v[j], op_n[j],
                   100.0 * (double)op_v[j] / (double)op_n[j]);
    }
    if (nsplice == SIZE_MAX)
        nsplice = n;
    if (nsplice > 0)
        measure_splice(m, seeds, nseeds, nsplice, s0, out);
    for (size_t j = 0; j < nseeds; j++)
        free(seeds[j].data);
    free(seeds);
    free(out);
    free(op_n);
    free(op_v);
    gtr_fs_mutator_free(m);
    return 0;
}
