/* SPDX-License-Identifier: BSD-3-Clause */
/* reduce_suite: the two C halves of the reduction suite (ci/reduce-suite.sh).
 *
 *   reduce_suite make OUTDIR PER_KIND TRACE...
 *       Derives failing inputs from each trace, deterministically: bit flips, cuts,
 *       duplicated byte ranges and dropped batches, at offsets drawn from a generator seeded
 *       by the trace's name. An input is kept when Go's golden judgment of it is not clean
 *       and its header reads; at most PER_KIND per kind and trace. Writes OUTDIR/<name>.trace
 *       and prints one line per input: its name and its judgment.
 *
 *   reduce_suite verify INPUT RESULT
 *       Checks what `gotrace reduce INPUT` wrote. A fixture (RESULT.test) must pass the golden
 *       check, and its FAILURE regexp must match the input's kept failure (the reader error;
 *       for a go1.25+ first-generation error, the error behind the first Sync). Wire bytes
 *       (RESULT.trace) must show the input's first failure again (same message, numbers
 *       free). Prints "ok <in-bytes> <out-bytes> <fixture|wire>" or "FAIL <why>"; exit 0/1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce.h"
#include "tgen/fixture.h"
#include "tgen/judge.h"
#include "tracedit.h"

static uint64_t rng_state;

static uint64_t rng(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static const char *basename_of(const char *p)
{
    const char *s = strrchr(p, '/');
    return s != NULL ? s + 1 : p;
}

static void judgment_text(const tgen_verdict *v, char *out, size_t cap)
{
    const char *m = v->invalid > 0 && !tgen_verdict_first_sync_artifact(v)
                        ? gtr_err_text(&v->valid_err, NULL)
                        : gtr_err_text(&v->end_err, NULL);
    const char *what = v->invalid > 0 && !tgen_verdict_first_sync_artifact(v) ? "validator"
                       : tgen_verdict_first_sync_artifact(v)                  ? "first-gen"
                                                                              : "reader";
    snprintf(out, cap, "%s: %.*s", what, (int)strcspn(m, "\n"), m);
}

typedef enum { FLIP, CUT, DUP, DROP, NKINDS } kind;

/* mutate makes candidate number i of kind k from wire into out; false when none exists. */
static bool mutate(kind k, const gtr_buf *wire, gtr_buf *out, char *tag, size_t tagcap)
{
    size_t n = wire->len;
    const char *d = wire->data;
    gtr_buf_reset(out);
    if (n <= 17)
        return false;
    size_t off = 16 + (size_t)(rng() % (n - 16));
    switch (k) {
    case FLIP: {
        int bit = (int)(rng() % 8);
        gtr_buf_append(out, d, n);
        out->data[off] = (char)(out->data[off] ^ (1 << bit));
        snprintf(tag, tagcap, "flip-%zu-%d", off, bit);
        return true;
    }
    case CUT:
        gtr_buf_append(out, d, off);
        snprintf(tag, tagcap, "cut-%zu", off);
        return true;
    case DUP: {
        size_t len = 1 + (size_t)(rng() % 64);
        if (off + len > n)
            len = n - off;
        gtr_buf_append(out, d, off + len);
        gtr_buf_append(out, d + off, len);
        gtr_buf_append(out, d + off + len, n - off - len);
        snprintf(tag, tagcap, "dup-%zu-%zu", off, len);
        return true;
    }
    case DROP: {
        tracedit_trace t = {0};
        bool ok = false;
        if (tracedit_decode(&t, (const uint8_t *)d, n, NULL) == GTR_OK && t.nbatches > 1) {
            size_t b = (size_t)(rng() % t.nbatches);
            tracedit_remove_batch(&t, b);
            ok = tracedit_encode(&t, out, NULL) == GTR_OK;
            snprintf(tag, tagcap, "dropbatch-%zu", b);
        }
        tracedit_trace_free(&t);
        return ok;
    }
    case NKINDS:
        break;
    }
    return false;
}

static int cmd_make(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: reduce_suite make OUTDIR PER_KIND TRACE...\n");
        return 2;
    }
    const char *dir = argv[2];
    int per_kind = atoi(argv[3]);
    gtr_buf wire = {0}, m = {0};
    int total = 0;
    for (int a = 4; a < argc; a++) {
        gtr_err err = GTR_ERR_INIT;
        gtr_buf_reset(&wire);
        if (tgen_load_trace(argv[a], &wire, NULL, &err) < 0) {
            fprintf(stderr, "reduce_suite: %s\n", gtr_err_text(&err, NULL));
            return 1;
        }
        char name[256];
        snprintf(name, sizeof name, "%s", basename_of(argv[a]));
        char *dot = strstr(name, ".trace");
        if (dot != NULL)
            *dot = '\0';
        rng_state = 0;
        for (const char *c = name; *c != '\0'; c++)
            rng_state = rng_state * 131 + (unsigned char)*c;
        for (int k = 0; k < NKINDS; k++) {
            int kept = 0;
            char seen[64][96];
            for (int tries = 0; tries < 200 && kept < per_kind && kept < 64; tries++) {
                char tag[96];
                if (!mutate((kind)k, &wire, &m, tag, sizeof tag))
                    break;
                bool dup = false;
                for (int i = 0; i < kept && !dup; i++)
                    dup = strcmp(seen[i], tag) == 0;
                if (dup)
                    continue;
                tgen_verdict v;
                if (tgen_judge((const uint8_t *)m.data, m.len, NULL, NULL, &v) < 0 ||
                    tgen_verdict_clean(&v) || v.end == TGEN_END_HEADER)
                    continue;
                char path[4096], j[512];
                snprintf(path, sizeof path, "%s/%s-%s.trace", dir, name, tag);
                FILE *f = fopen(path, "wb");
                if (f == NULL || fwrite(m.data, 1, m.len, f) != m.len || fclose(f) != 0) {
                    fprintf(stderr, "reduce_suite: writing %s failed\n", path);
                    return 1;
                }
                judgment_text(&v, j, sizeof j);
                printf("%s-%s\t%s\n", name, tag, j);
                memcpy(seen[kept], tag, sizeof tag);
                kept++;
                total++;
            }
        }
    }
    fprintf(stderr, "reduce_suite: %d inputs\n", total);
    gtr_buf_free(&wire);
    gtr_buf_free(&m);
    return 0;
}

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

static int verdict_fail(const char *why, const char *detail)
{
    printf("FAIL %s%s%.*s\n", why, detail != NULL ? ": " : "",
           detail != NULL ? (int)strcspn(detail, "\n") : 0, detail != NULL ? detail : "");
    return 1;
}

static int cmd_verify(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: reduce_suite verify INPUT RESULT\n");
        return 2;
    }
    gtr_buf in = {0}, out = {0};
    gtr_err err = GTR_ERR_INIT;
    tgen_verdict vin, vout;
    if (tgen_load_trace(argv[2], &in, NULL, &err) < 0)
        return verdict_fail("input", gtr_err_text(&err, NULL));
    if (tgen_judge((const uint8_t *)in.data, in.len, NULL, NULL, &vin) < 0)
        return verdict_fail("judge", "out of memory");
    bool validator = vin.invalid > 0 && !tgen_verdict_first_sync_artifact(&vin);
    const char *kept =
        validator ? gtr_err_text(&vin.valid_err, NULL) : gtr_err_text(&vin.end_err, NULL);
    FILE *f = fopen(argv[3], "rb");
    if (f == NULL)
        return verdict_fail("no result", argv[3]);
    fclose(f);
    if (ends_with(argv[3], ".test")) {
        tgen_fixture *fx;
        tgen_check_report rep;
        if (tgen_fixture_check(argv[3], &rep, &err) < 0)
            return verdict_fail("the fixture fails gotrace check", gtr_err_text(&err, NULL));
        if (tgen_fixture_parse_file(argv[3], &fx, &err) < 0)
            return verdict_fail("parse", gtr_err_text(&err, NULL));
        const tgen_expect *e = tgen_fixture_expect(fx);
        bool matched = false;
        if (validator) {
            tgen_fixture_free(fx);
            return verdict_fail("a fixture for a validator failure", kept);
        }
        if (!tgen_expect_is_failure(e) ||
            tgen_expect_match(e, kept, strlen(kept), &matched, NULL) < 0 || !matched) {
            tgen_fixture_free(fx);
            return verdict_fail("the fixture's expectation does not match the input's failure",
                                kept);
        }
        size_t wlen;
        tgen_fixture_trace(fx, &wlen);
        printf("ok %zu %zu fixture\n", in.len, wlen);
        tgen_fixture_free(fx);
    } else {
        if (tgen_load_trace(argv[3], &out, NULL, &err) < 0)
            return verdict_fail("result", gtr_err_text(&err, NULL));
        if (tgen_judge((const uint8_t *)out.data, out.len, NULL, NULL, &vout) < 0)
            return verdict_fail("judge", "out of memory");
        bool ov = vout.invalid > 0 && !tgen_verdict_first_sync_artifact(&vout);
        const char *got =
            ov ? gtr_err_text(&vout.valid_err, NULL) : gtr_err_text(&vout.end_err, NULL);
        gtr_buf re = {0};
        tgen_expect *e = NULL;
        bool matched = false;
        reduce_message_regexp(kept, &re);
        if (ov != validator || tgen_verdict_clean(&vout) ||
            tgen_expect_new_failure(re.data, re.len, &e, NULL) < 0 ||
            tgen_expect_match(e, got, strlen(got), &matched, NULL) < 0 || !matched) {
            tgen_expect_free(e);
            return verdict_fail("the wire bytes do not show the input's failure", got);
        }
        tgen_expect_free(e);
        gtr_buf_free(&re);
        printf("ok %zu %zu wire\n", in.len, out.len);
    }
    gtr_buf_free(&in);
    gtr_buf_free(&out);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "make") == 0)
        return cmd_make(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "verify") == 0)
        return cmd_verify(argc, argv);
    fprintf(stderr, "usage: reduce_suite make OUTDIR PER_KIND TRACE... | verify INPUT RESULT\n");
    return 2;
}
