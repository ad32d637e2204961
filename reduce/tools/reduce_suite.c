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
 *   reduce_suite make-large OUTDIR PER_KIND TRACE...
 *       The same for large traces, with the breaks of a buggy writer or a lossy transport:
 *       one batch of a thread dropped, written twice, or swapped with a later batch of the
 *       same thread; a cut anywhere; a flight-recorder window (a run of whole generations
 *       from the middle of the trace, cut inside its last one).
 *
 *   reduce_suite synth INPUT OUT
 *       Writes to OUT the trace reduce_synthesize_stuck builds for INPUT, which must fail to
 *       advance (to look at what the reducer starts from).
 *
 *   reduce_suite cut INPUT K OUT
 *       Writes to OUT the trace reduce_cut_trace makes of INPUT after its K-th event.
 *
 *   reduce_suite verify INPUT RESULT
 *       Checks what `gotrace reduce INPUT` wrote. A fixture (RESULT.test) must pass the golden
 *       check, and its FAILURE regexp must match the input's kept failure (the reader error;
 *       for a go1.25+ first-generation error, the error behind the first Sync). Wire bytes
 *       (RESULT.trace) must show the input's first failure again (same message, numbers
 *       free). An input that fails to advance must give a result stuck for the same reason
 *       (its diagnosis's shape, gtr_diagnosis_shape): a reduction that slipped to another
 *       stuck trace fails. Prints "ok <in-bytes> <out-bytes> <fixture|wire>" or "FAIL <why>";
 *       exit 0/1.
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

typedef enum { FLIP, CUT, DUP, DROP, DUPBATCH, SWAPBATCH, WINDOW, NKINDS } kind;

/* The kinds of each make command. */
static const kind small_kinds[] = {FLIP, CUT, DUP, DROP};
static const kind large_kinds[] = {DROP, DUPBATCH, SWAPBATCH, CUT, WINDOW};

/* body_batch: a batch of a thread's events (not a table batch, not a marker). */
static bool body_batch(const tracedit_batch *b)
{
    return b->kind == GTR_EV_EVENT_BATCH && b->m != UINT64_MAX && b->nev > 0;
}

/* pick_body_batch draws a thread's batch of t; false when there is none. */
static bool pick_body_batch(const tracedit_trace *t, size_t *out)
{
    size_t n = 0;
    for (size_t b = 0; b < t->nbatches; b++)
        n += body_batch(&t->batches[b]);
    if (n == 0)
        return false;
    size_t k = (size_t)(rng() % n);
    for (size_t b = 0; b < t->nbatches; b++)
        if (body_batch(&t->batches[b]) && k-- == 0) {
            *out = b;
            return true;
        }
    return false;
}

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
    case DROP:
    case DUPBATCH:
    case SWAPBATCH:
    case WINDOW: {
        tracedit_trace t = {0};
        bool ok = false;
        size_t b;
        if (tracedit_decode(&t, (const uint8_t *)d, n, NULL) != GTR_OK || t.nbatches < 2) {
            tracedit_trace_free(&t);
            return false;
        }
        if (k == DROP) {
            b = (size_t)(rng() % t.nbatches);
            tracedit_remove_batch(&t, b);
            ok = tracedit_encode(&t, out, NULL) == GTR_OK;
            snprintf(tag, tagcap, "dropbatch-%zu", b);
        } else if (k == DUPBATCH && pick_body_batch(&t, &b)) {
            /* Written twice: the copy right after it. */
            tracedit_batch tmpl = t.batches[b];
            ok = tracedit_insert_batch(&t, b + 1, &tmpl) == GTR_OK;
            for (size_t i = 0; ok && i < t.batches[b].nev; i++)
                ok = tracedit_batch_insert(&t, b + 1, i, t.batches[b].evs[i]) == GTR_OK;
            ok = ok && tracedit_encode(&t, out, NULL) == GTR_OK;
            snprintf(tag, tagcap, "dupbatch-%zu", b);
        } else if (k == SWAPBATCH && pick_body_batch(&t, &b)) {
            /* Swapped with the next batch of the same thread, when there is one. */
            size_t c = b + 1;
            while (c < t.nbatches && !(body_batch(&t.batches[c]) && t.batches[c].m == t.batches[b].m))
                c++;
            if (c < t.nbatches) {
                tracedit_batch tmp = t.batches[b];
                t.batches[b] = t.batches[c];
                t.batches[c] = tmp;
                ok = tracedit_encode(&t, out, NULL) == GTR_OK;
                snprintf(tag, tagcap, "swapbatch-%zu-%zu", b, c);
            }
        } else if (k == WINDOW) {
            /* Generations [a, z) of g, cut inside the last: what a flight recorder keeps of a
             * run, with its end lost. */
            size_t g = 0, a, z;
            for (size_t i = 0; i < t.nbatches; i++)
                if (i == 0 || (t.batches[i].gen != t.batches[i - 1].gen &&
                               t.batches[i].kind != GTR_EV_END_OF_GENERATION))
                    g++;
            if (g >= 3) {
                a = 1 + (size_t)(rng() % (g - 2));
                z = a + 1 + (size_t)(rng() % (g - a - 1));
                /* Number the runs, then remove the batches outside [a, z]. */
                size_t *run = malloc(t.nbatches * sizeof *run), cur = 0;
                if (run != NULL) {
                    for (size_t i = 0; i < t.nbatches; i++) {
                        if (i > 0 && t.batches[i].gen != t.batches[i - 1].gen &&
                            t.batches[i].kind != GTR_EV_END_OF_GENERATION)
                            cur++;
                        run[i] = cur;
                    }
                    for (size_t i = t.nbatches; i > 0; i--)
                        if (run[i - 1] < a || run[i - 1] > z)
                            tracedit_remove_batch(&t, i - 1);
                    free(run);
                    gtr_buf whole = {0};
                    if (tracedit_encode(&t, &whole, NULL) == GTR_OK && whole.len > 17) {
                        size_t cut = whole.len - 1 - (size_t)(rng() % (whole.len / 4 + 1));
                        if (cut < 17)
                            cut = 17;
                        gtr_buf_append(out, whole.data, cut);
                        ok = gtr_buf_status(out) == GTR_OK;
                        snprintf(tag, tagcap, "window-%zu-%zu-cut-%zu", a, z, cut);
                    }
                    gtr_buf_free(&whole);
                }
            }
        }
        tracedit_trace_free(&t);
        return ok;
    }
    case NKINDS:
        break;
    }
    return false;
}

static int cmd_make(int argc, char **argv, const kind *kinds, size_t nkinds)
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
        for (size_t ki = 0; ki < nkinds; ki++) {
            kind k = kinds[ki];
            int kept = 0;
            char seen[64][96];
            for (int tries = 0; tries < 200 && kept < per_kind && kept < 64; tries++) {
                char tag[96];
                if (!mutate(k, &wire, &m, tag, sizeof tag))
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

/* one_line: a shape's lines joined by "; " (in place: the buffer is the caller's). */
static const char *one_line(gtr_buf *shape)
{
    for (size_t i = 0; i + 1 < shape->len; i++)
        if (shape->data[i] == '\n')
            shape->data[i] = ';';
    if (shape->len > 0 && shape->data[shape->len - 1] == '\n')
        shape->data[shape->len - 1] = '\0';
    return shape->data;
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
        const uint8_t *w = tgen_fixture_trace(fx, &wlen);
        if (vin.stuck.len > 0 || vin.failed_on[0] != '\0') {
            tgen_verdict vf;
            bool judged = tgen_judge(w, wlen, NULL, NULL, &vf) == GTR_OK;
            bool same = judged && vf.stuck.len == vin.stuck.len &&
                        (vin.stuck.len == 0 ||
                         memcmp(vf.stuck.data, vin.stuck.data, vin.stuck.len) == 0);
            if (!same) {
                printf("FAIL the fixture is stuck for another reason than its input (it "
                       "slipped): input %s; fixture %s\n",
                       one_line(&vin.stuck), vf.stuck.len > 0 ? one_line(&vf.stuck) : "not stuck");
                tgen_verdict_free(&vf);
                tgen_fixture_free(fx);
                return 1;
            }
            if (strcmp(vf.failed_on, vin.failed_on) != 0) {
                printf("FAIL the fixture fails on another event than its input (it slipped): "
                       "input %s; fixture %s\n", vin.failed_on,
                       vf.failed_on[0] != '\0' ? vf.failed_on : "no event");
                tgen_verdict_free(&vf);
                tgen_fixture_free(fx);
                return 1;
            }
            tgen_verdict_free(&vf);
        }
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
        if (vin.stuck.len > 0 &&
            (vout.stuck.len != vin.stuck.len ||
             memcmp(vout.stuck.data, vin.stuck.data, vin.stuck.len) != 0)) {
            printf("FAIL the wire bytes are stuck for another reason than the input (they "
                   "slipped): input %s; result %s\n",
                   one_line(&vin.stuck), vout.stuck.len > 0 ? one_line(&vout.stuck) : "not stuck");
            return 1;
        }
        if (!validator && strcmp(vout.failed_on, vin.failed_on) != 0) {
            printf("FAIL the wire bytes fail on another event than the input (they slipped): "
                   "input %s; result %s\n",
                   vin.failed_on[0] != '\0' ? vin.failed_on : "no event",
                   vout.failed_on[0] != '\0' ? vout.failed_on : "no event");
            return 1;
        }
        printf("ok %zu %zu wire\n", in.len, out.len);
    }
    gtr_buf_free(&in);
    gtr_buf_free(&out);
    return 0;
}

static int cmd_synth(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: reduce_suite synth INPUT OUT\n");
        return 2;
    }
    gtr_buf in = {0}, out = {0};
    gtr_err err = GTR_ERR_INIT;
    if (tgen_load_trace(argv[2], &in, NULL, &err) < 0) {
        fprintf(stderr, "reduce_suite: %s\n", gtr_err_text(&err, NULL));
        return 1;
    }
    int rc = 0;
    if (reduce_synthesize_stuck((const uint8_t *)in.data, in.len, &out) != GTR_OK) {
        fprintf(stderr, "reduce_suite: %s: not stuck, or a reason with no recipe\n", argv[2]);
        rc = 1;
    } else {
        FILE *f = fopen(argv[3], "wb");
        if (f == NULL || fwrite(out.data, 1, out.len, f) != out.len || fclose(f) != 0) {
            fprintf(stderr, "reduce_suite: writing %s failed\n", argv[3]);
            rc = 1;
        }
    }
    gtr_buf_free(&in);
    gtr_buf_free(&out);
    return rc;
}

static int cmd_cut(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: reduce_suite cut INPUT K OUT\n");
        return 2;
    }
    gtr_buf in = {0}, out = {0};
    gtr_err err = GTR_ERR_INIT;
    if (tgen_load_trace(argv[2], &in, NULL, &err) < 0) {
        fprintf(stderr, "reduce_suite: %s\n", gtr_err_text(&err, NULL));
        return 1;
    }
    int rc = 0;
    if (reduce_cut_trace((const uint8_t *)in.data, in.len, strtoull(argv[3], NULL, 10), &out) !=
        GTR_OK) {
        fprintf(stderr, "reduce_suite: %s: no cut after event %s\n", argv[2], argv[3]);
        rc = 1;
    } else {
        FILE *f = fopen(argv[4], "wb");
        if (f == NULL || fwrite(out.data, 1, out.len, f) != out.len || fclose(f) != 0) {
            fprintf(stderr, "reduce_suite: writing %s failed\n", argv[4]);
            rc = 1;
        }
    }
    gtr_buf_free(&in);
    gtr_buf_free(&out);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "cut") == 0)
        return cmd_cut(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "synth") == 0)
        return cmd_synth(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "make") == 0)
        return cmd_make(argc, argv, small_kinds, sizeof small_kinds / sizeof small_kinds[0]);
    if (argc >= 2 && strcmp(argv[1], "make-large") == 0)
        return cmd_make(argc, argv, large_kinds, sizeof large_kinds / sizeof large_kinds[0]);
    if (argc >= 2 && strcmp(argv[1], "verify") == 0)
        return cmd_verify(argc, argv);
    fprintf(stderr, "usage: reduce_suite make|make-large OUTDIR PER_KIND TRACE... | synth INPUT OUT | cut INPUT K OUT "
                    "| verify INPUT RESULT\n");
    return 2;
}
