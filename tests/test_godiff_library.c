/* SPDX-License-Identifier: BSD-3-Clause */
/* test_godiff_library.c: Go's reader loaded at run time (godiff/godiff_go_library.c), as
 * `gotrace reduce --diff` loads it. A path that is no library, and a library that is not Go's
 * reader, are errors with their reason. When the build found Go's shared library
 * (ci/go-diff-archive.sh --shared; GTR_TEST_GO_LIBRARY), it must load, name its release, and
 * read the reader's seeds as libtrace does, up to Go's own nondeterminism, as fuzz_diff's
 * replay judges them with the archive linked in. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "godiff.h"

#define SEEDS GTR_SOURCE_DIR "/corpus/fuzz/reader"

static void missing_library_is_an_io_error(void **state)
{
    (void)state;
    godiff_go_library *lib = (godiff_go_library *)&lib;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(godiff_go_library_open("/nonexistent/libgtrdiff.so", &lib, &err), GTR_E_IO);
    assert_null(lib);
    size_t n = 0;
    const char *msg = gtr_err_text(&err, &n);
    assert_true(n > 0 && strncmp(msg, "cannot load Go's reader: /nonexistent/libgtrdiff.so", 51) == 0);
    gtr_err_clear(&err);
}

static void other_library_is_a_format_error(void **state)
{
    (void)state;
    godiff_go_library *lib = NULL;
    gtr_err err = GTR_ERR_INIT;
    /* The C library itself: it loads, and holds no gtrdiff_go_validate. */
    assert_int_equal(godiff_go_library_open("libc.so.6", &lib, &err), GTR_E_FORMAT);
    assert_null(lib);
    size_t n = 0;
    const char *msg = gtr_err_text(&err, &n);
    assert_string_equal(msg, "cannot load Go's reader: libc.so.6 has no gtrdiff_go_validate "
                             "(not built by ci/go-diff-archive.sh --shared)");
    gtr_err_clear(&err);
}

/* A stand-in for an earlier release's library (fake_go_reader.c: Go 1.23's release number,
 * one fixed reading): the release comes from the library, and gotrace's reading is normalised
 * for it at run time. */
static void stand_in_names_its_release(void **state)
{
    (void)state;
    godiff_go_library *lib = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(godiff_go_library_open(GTR_FAKE_GO_READER, &lib, &err), GTR_OK);
    assert_int_equal(godiff_go_library_minor(lib), 23);
    godiff_owned go = {0};
    assert_true(godiff_go_library_read(lib, (const uint8_t *)"x", 1, &go));
    assert_int_equal(go.r.end, GODIFF_END_READ);
    assert_int_equal(go.r.dump_len, 5);
    assert_memory_equal(go.r.dump, "fake\n", 5);
    assert_int_equal(go.r.msg_len, 10);
    assert_memory_equal(go.r.msg, "fake error", 10);
    godiff_owned_free(&go);
    godiff_go_library_free(lib);
}

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, len = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *nb = realloc(buf, cap);
            assert_non_null(nb);
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *size = len;
    return buf;
}

/* The reader's seeds (corpus/fuzz/reader) one at a time, in the directory's order:
 *   seed_walk w; seeds_open(&w); while (seeds_next(&w)) { ...w.path, w.data, w.size... }
 *   seeds_close(&w);
 * A file that cannot be read is passed over. */
typedef struct seed_walk {
    DIR *dir;
    char path[4096];
    uint8_t *data;   /* the current seed's bytes, released by the next step */
    size_t size;
} seed_walk;

static void seeds_open(seed_walk *w)
{
    memset(w, 0, sizeof *w);
    w->dir = opendir(SEEDS);
    assert_non_null(w->dir);
}

/* seeds_next makes the next seed the current one; false when there is none left. */
static bool seeds_next(seed_walk *w)
{
    struct dirent *e;
    free(w->data);
    w->data = NULL;
    w->size = 0;
    while ((e = readdir(w->dir)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(w->path, sizeof w->path, "%s/%s", SEEDS, e->d_name);
        w->data = read_file(w->path, &w->size);
        if (w->data != NULL)
            return true;
    }
    return false;
}

static void seeds_close(seed_walk *w)
{
    free(w->data);
    w->data = NULL;
    closedir(w->dir);
}

/* Against Go 1.22-1.24 (go_minor < 25) Sync events are left out of gotrace's dump and each
 * event's Time= masked, as norm_nosync.go does on Go's side; against 1.25 and later, not. */
static void reading_is_normalised_for_earlier_releases(void **state)
{
    (void)state;
    seed_walk w;
    bool checked = false;
    seeds_open(&w);
    while (!checked && seeds_next(&w)) {
        gtr_buf now = {0}, old = {0};
        gtr_err e1 = GTR_ERR_INIT, e2 = GTR_ERR_INIT;
        if (godiff_read_ours(w.data, w.size, GODIFF_GO_MINOR, &now, &e1) == GODIFF_END_EOF &&
            now.len > 0 && strstr(now.data, "M=-1 P=-1 G=-1 Sync") != NULL) {
            assert_int_equal(godiff_read_ours(w.data, w.size, 23, &old, &e2), GODIFF_END_EOF);
            assert_null(strstr(old.data, " Sync "));
            assert_null(strstr(old.data, "Time=1"));
            assert_non_null(strstr(old.data, "Time=?"));
            gtr_buf_reset(&old);
            assert_int_equal(godiff_read_ours(w.data, w.size, 25, &old, &e2), GODIFF_END_EOF);
            assert_int_equal(old.len, now.len);
            assert_memory_equal(old.data, now.data, now.len);
            checked = true;
        }
        gtr_buf_free(&now);
        gtr_buf_free(&old);
        gtr_err_clear(&e1);
        gtr_err_clear(&e2);
    }
    seeds_close(&w);
    assert_true(checked);
}

static void go_library_reads_the_seeds_as_libtrace(void **state)
{
    (void)state;
#ifndef GTR_TEST_GO_LIBRARY
    skip();   /* no Go library when the build was configured (ci/go-diff-archive.sh --shared) */
#else
    godiff_go_library *lib = NULL;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(godiff_go_library_open(GTR_TEST_GO_LIBRARY, &lib, &err), GTR_OK);
    assert_int_equal(godiff_go_library_minor(lib), GODIFF_GO_MINOR);

    seed_walk w;
    size_t judged = 0, same = 0;
    seeds_open(&w);
    while (judged < 200 && seeds_next(&w)) {
        if (w.size > 65536)
            continue;
        gtr_buf dump = {0};
        gtr_err oerr = GTR_ERR_INIT;
        godiff_end end = godiff_read_ours(w.data, w.size, godiff_go_library_minor(lib), &dump,
                                          &oerr);
        size_t mlen = 0;
        const char *msg = end == GODIFF_END_EOF ? "" : gtr_err_text(&oerr, &mlen);
        godiff_reading ours = {end, dump.data != NULL ? dump.data : "", dump.len, msg, mlen};
        godiff_owned go = {0};
        assert_true(godiff_go_library_read(lib, w.data, w.size, &go));
        godiff_verdict v = godiff_compare(&ours, &go.r);
        if (v == GODIFF_SAME)
            same++;
        else if (v != GODIFF_GO_PANIC && !godiff_go_explains(godiff_go_library_read, lib, w.data,
                                                             w.size, &ours, &go.r, 4096))
            fail_msg("%s: libtrace and the Go library disagree", w.path);
        judged++;
        godiff_owned_free(&go);
        gtr_buf_free(&dump);
        gtr_err_clear(&oerr);
    }
    seeds_close(&w);
    assert_true(judged >= 50);
    assert_true(same >= judged / 2);   /* most seeds read alike at the first run */
    godiff_go_library_free(lib);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(missing_library_is_an_io_error),
        cmocka_unit_test(other_library_is_a_format_error),
        cmocka_unit_test(stand_in_names_its_release),
        cmocka_unit_test(reading_is_normalised_for_earlier_releases),
        cmocka_unit_test(go_library_reads_the_seeds_as_libtrace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
