/* SPDX-License-Identifier: BSD-3-Clause */
/* test_testgen_corpus.c: the generators against the fixtures.
 *
 * - Every registered generator writes exactly the committed corpus/tests/<name>.test, and
 *   corpus/tests holds nothing else (CI's drift check, as a unit test).
 * - Every port of an upstream generator matches Go's checked-in corpus/upstream/<name>.test:
 *   the same expectation, the same trace text except the times of structural batches (the
 *   checked-in go122 fixtures predate testgen's lastTs+1 structural times), and so the same
 *   events once read (Event.String(), with the times they shift masked).
 * - Every generated fixture passes the golden check (TestReaderGolden). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gtr/event.h"
#include "gtr/reader.h"
#include "tgen/fixture.h"
#include "tgen/tgen.h"

#define CORPUS GTR_SOURCE_DIR "/corpus/tests"
#define UPSTREAM GTR_SOURCE_DIR "/corpus/upstream"

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    gtr_buf b = {0};
    char chunk[4096];
    size_t n;
    if (f == NULL)
        return NULL;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        gtr_buf_append(&b, chunk, n);
    fclose(f);
    assert_int_equal(gtr_buf_status(&b), GTR_OK);
    if (b.data == NULL)
        gtr_buf_puts(&b, "");
    return gtr_buf_take(&b, len);
}

static char *run(const tgen_generator *g, size_t *len)
{
    gtr_buf out = {0};
    gtr_err err = GTR_ERR_INIT;
    if (tgen_run(g, &out, &err) != GTR_OK)
        fail_msg("%s: %s", g->name, err.msg);
    return gtr_buf_take(&out, len);
}

static const tgen_generator *find(const char *name)
{
    size_t n;
    const tgen_generator *gens = tgen_generators(&n);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(gens[i].name, name) == 0)
            return &gens[i];
    }
    return NULL;
}

static void test_testgen_corpus_generators_match_committed_fixtures(void **state)
{
    size_t n, files = 0;
    const tgen_generator *gens = tgen_generators(&n);
    DIR *d;
    struct dirent *de;
    (void)state;
    assert_true(n >= 19 + 40);
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        size_t glen, flen;
        char *got = run(&gens[i], &glen), *want;
        if (i > 0)
            assert_true(strcmp(gens[i - 1].name, gens[i].name) < 0);
        snprintf(path, sizeof path, "%s/%s.test", CORPUS, gens[i].name);
        want = read_file(path, &flen);
        if (want == NULL)
            fail_msg("%s is missing: run gotrace gen", path);
        if (glen != flen || memcmp(got, want, glen) != 0)
            fail_msg("%s differs from what its generator writes: run gotrace gen", path);
        free(got);
        free(want);
    }
    assert_non_null(d = opendir(CORPUS));
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        char name[512];
        if (len < 5 || strcmp(de->d_name + len - 5, ".test") != 0)
            continue;
        snprintf(name, sizeof name, "%.*s", (int)(len - 5), de->d_name);
        if (find(name) == NULL)
            fail_msg("%s/%s has no generator", CORPUS, de->d_name);
        files++;
    }
    closedir(d);
    assert_int_equal(files, n);
}

static void test_testgen_corpus_generation_is_deterministic(void **state)
{
    size_t n;
    const tgen_generator *gens = tgen_generators(&n);
    (void)state;
    for (size_t i = 0; i < n; i++) {
        size_t l1, l2;
        char *a = run(&gens[i], &l1), *b = run(&gens[i], &l2);
        assert_int_equal(l1, l2);
        assert_memory_equal(a, b, l1);
        free(a);
        free(b);
    }
}

/* next_line returns the line at *p (without '\n') and advances *p; NULL at the end. */
static const char *next_line(const char **p, size_t *len)
{
    const char *s = *p, *nl;
    if (*s == '\0')
        return NULL;
    nl = strchr(s, '\n');
    *len = nl != NULL ? (size_t)(nl - s) : strlen(s);
    *p = s + *len + (nl != NULL);
    return s;
}

/* same_but_structural_times: a and b are equal line by line, except that the header of a
 * structural batch (m=NoThread) may differ in its time= field. Returns how many differed. */
static size_t same_but_structural_times(const char *name, const char *a, const char *b)
{
    static const char hdr[] = "EventBatch gen=";
    static const char nothread[] = " m=18446744073709551615 time=";
    size_t la = 0, lb = 0, differ = 0;
    const char *x, *y;
    for (;;) {
        x = next_line(&a, &la);
        y = next_line(&b, &lb);
        if (x == NULL || y == NULL)
            break;
        if (la == lb && memcmp(x, y, la) == 0)
            continue;
        /* Both must be structural headers that agree up to time= and from " size=" on. */
        const char *tx = strstr(x, nothread), *ty = strstr(y, nothread);
        const char *sx = strstr(x, " size="), *sy = strstr(y, " size=");
        if (strncmp(x, hdr, sizeof hdr - 1) != 0 || tx == NULL || ty == NULL || sx == NULL ||
            sy == NULL || tx - x != ty - y || memcmp(x, y, (size_t)(tx - x)) != 0 ||
            (size_t)(x + la - sx) != (size_t)(y + lb - sy) ||
            memcmp(sx, sy, (size_t)(x + la - sx)) != 0)
            fail_msg("%s: trace lines differ: %.*s | %.*s", name, (int)la, x, (int)lb, y);
        differ++;
    }
    if (x != NULL || y != NULL)
        fail_msg("%s: traces differ in length", name);
    return differ;
}

/* dump reads the fixture's trace and appends every event's String(), each followed by "\n",
 * with the digits of each "Time=" masked; then the error, if any. */
static void dump(const tgen_fixture *f, gtr_buf *out)
{
    size_t len;
    const uint8_t *wire = tgen_fixture_trace(f, &len);
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_event ev;
    gtr_err err = GTR_ERR_INIT;
    gtr_status st;
    gtr_buf s = {0};

    assert_int_equal(gtr_input_open_memory(wire, len, NULL, &in, &err), GTR_OK);
    st = gtr_reader_new(in, NULL, &r, &err);
    while (st >= 0 && (st = gtr_reader_next(r, &ev, &err)) == GTR_OK) {
        gtr_buf_reset(&s);
        assert_int_equal(gtr_event_string(&ev, &s), GTR_OK);
        for (size_t i = 0; i < s.len; i++) {
            if (i + 5 <= s.len && memcmp(s.data + i, "Time=", 5) == 0 &&
                (i == 0 || s.data[i - 1] == ' ')) {
                gtr_buf_puts(out, "Time=#");
                for (i += 5; i < s.len && s.data[i] >= '0' && s.data[i] <= '9'; i++)
                    ;
                i--;
                continue;
            }
            gtr_buf_putc(out, s.data[i]);
        }
        gtr_buf_putc(out, '\n');
    }
    if (st < 0)
        gtr_buf_printf(out, "error: %s\n", err.msg);
    assert_int_equal(gtr_buf_status(out), GTR_OK);
    gtr_buf_free(&s);
    gtr_reader_free(r);
    gtr_input_free(in);
}

static void test_testgen_corpus_upstream_ports_read_like_upstream(void **state)
{
    size_t n, ported = 0, identical = 0;
    const tgen_generator *gens = tgen_generators(&n);
    (void)state;
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        size_t glen, ulen, pe, ge;
        char *got, *want;
        const char *gp, *up;
        tgen_fixture *gf = NULL, *uf = NULL;
        gtr_buf gd = {0}, ud = {0};
        gtr_err err = GTR_ERR_INIT;

        if (strncmp(gens[i].name, "gtr-", 4) == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s.test", UPSTREAM, gens[i].name);
        if ((want = read_file(path, &ulen)) == NULL)
            fail_msg("%s: no upstream fixture %s", gens[i].name, path);
        got = run(&gens[i], &glen);
        ported++;

        /* The expectation and the trace text. */
        gp = strstr(got, "-- trace --\n");
        up = strstr(want, "-- trace --\n");
        assert_non_null(gp);
        assert_non_null(up);
        pe = (size_t)(gp - got);
        ge = (size_t)(up - want);
        if (pe != ge || memcmp(got, want, pe) != 0)
            fail_msg("%s: expectations differ", gens[i].name);
        if (same_but_structural_times(gens[i].name, gp, up) == 0)
            identical++;

        /* The events. */
        if (tgen_fixture_parse(gens[i].name, got, glen, &gf, &err) != GTR_OK ||
            tgen_fixture_parse(path, want, ulen, &uf, &err) != GTR_OK)
            fail_msg("%s: %s", gens[i].name, err.msg);
        dump(gf, &gd);
        dump(uf, &ud);
        if (gd.len != ud.len || memcmp(gd.data, ud.data, gd.len) != 0)
            fail_msg("%s: events differ:\n%s\nvs upstream:\n%s", gens[i].name, gd.data,
                     ud.data);
        assert_true(gd.len > 0);
        gtr_buf_free(&gd);
        gtr_buf_free(&ud);
        tgen_fixture_free(gf);
        tgen_fixture_free(uf);
        free(got);
        free(want);
    }
    /* All 19 upstream generators; 5 of them byte for byte: the two with DisableTimestamps,
     * the raw-event one, and the two sync fixtures Go recorded with the current testgen. */
    assert_int_equal(ported, 19);
    assert_int_equal(identical, 5);
}

static void test_testgen_corpus_every_fixture_passes_golden_check(void **state)
{
    size_t n;
    const tgen_generator *gens = tgen_generators(&n);
    (void)state;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        char *got = run(&gens[i], &len);
        tgen_fixture *f = NULL;
        tgen_check_report rep;
        gtr_err err = GTR_ERR_INIT;
        if (tgen_fixture_parse(gens[i].name, got, len, &f, &err) != GTR_OK ||
            tgen_fixture_check_parsed(f, &rep, &err) != GTR_OK)
            fail_msg("%s: %s", gens[i].name, err.msg);
        assert_int_equal(rep.failures, 0);
        /* A fixture named -fail- expects a failure, every other one success. */
        assert_int_equal(strstr(gens[i].name, "-fail-") != NULL ||
                             strcmp(gens[i].name, "go122-create-syscall-with-p") == 0,
                         tgen_expect_is_failure(tgen_fixture_expect(f)));
        tgen_fixture_free(f);
        free(got);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_testgen_corpus_generators_match_committed_fixtures),
        cmocka_unit_test(test_testgen_corpus_generation_is_deterministic),
        cmocka_unit_test(test_testgen_corpus_upstream_ports_read_like_upstream),
        cmocka_unit_test(test_testgen_corpus_every_fixture_passes_golden_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
