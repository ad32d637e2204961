/* SPDX-License-Identifier: BSD-3-Clause */
/* test_raw_corpus.c: the raw layer's required properties on the corpora.
 *   - Each of Go's 22 golden fixtures (the .test files of corpus/upstream): text -> bytes
 *     hashes to the SHA-256 recorded in corpus/upstream/WIRE.sha256 (Go's wire bytes), and
 *     bytes -> text gives back the fixture's trace section byte for byte.
 *   - Each real trace (the .trace.gz files of corpus/real), read straight from its .gz:
 *     bytes -> text hashes to text_sha256 in corpus/real/REFERENCE.tsv (Go's bytes2text);
 *     rows whose text_sha256 is "-" are traces Go's raw reader rejects, and must be rejected
 *     too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gtr/raw.h"
#include "sha256.h"
#include "txtar.h"

#define UPSTREAM GTR_SOURCE_DIR "/corpus/upstream/"
#define REAL GTR_SOURCE_DIR "/corpus/real/"

static gtr_status text2bytes(gtr_input *in, gtr_buf *out, gtr_err *err)
{
    gtr_text_reader *r = NULL;
    gtr_raw_writer *w = NULL;
    gtr_status st;
    if ((st = gtr_text_reader_new(in, NULL, &r, err)) != GTR_OK)
        return st;
    if ((st = gtr_raw_writer_new(gtr_sink_buf(out), gtr_text_reader_version(r), NULL, &w, err)) !=
        GTR_OK) {
        gtr_text_reader_free(r);
        return st;
    }
    gtr_raw_event ev;
    while ((st = gtr_text_reader_next(r, &ev, err)) == GTR_OK) {
        if ((st = gtr_raw_writer_write(w, &ev, err)) != GTR_OK)
            break;
    }
    if (st == GTR_EOF)
        st = GTR_OK;
    if (st == GTR_OK)
        st = gtr_raw_writer_flush(w, err);
    gtr_raw_writer_free(w);
    gtr_text_reader_free(r);
    return st;
}

static gtr_status bytes2text(gtr_input *in, gtr_buf *out, gtr_err *err)
{
    gtr_raw_reader *r = NULL;
    gtr_text_writer *w = NULL;
    gtr_status st;
    if ((st = gtr_raw_reader_new(in, NULL, &r, err)) != GTR_OK)
        return st;
    if ((st = gtr_text_writer_new(gtr_sink_buf(out), gtr_raw_reader_version(r), NULL, &w, err)) !=
        GTR_OK) {
        gtr_raw_reader_free(r);
        return st;
    }
    gtr_raw_event ev;
    while ((st = gtr_raw_reader_next(r, &ev, err)) == GTR_OK) {
        if ((st = gtr_text_writer_write(w, &ev, err)) != GTR_OK)
            break;
    }
    if (st == GTR_EOF)
        st = GTR_OK;
    if (st == GTR_OK)
        st = gtr_text_writer_flush(w, err);
    gtr_text_writer_free(w);
    gtr_raw_reader_free(r);
    return st;
}

static void test_raw_corpus_upstream_fixtures_roundtrip_to_go_wire(void **state)
{
    (void)state;
    FILE *f = fopen(UPSTREAM "WIRE.sha256", "r");
    assert_non_null(f);
    char want[128], name[512];
    int n = 0;
    while (fscanf(f, "%127s %511s", want, name) == 2) {
        char path[1024];
        snprintf(path, sizeof path, UPSTREAM "%s", name);
        txtar_archive *a = txtar_parse_file(path);
        assert_non_null(a);
        const txtar_file *tf = txtar_find(a, "trace");
        if (tf == NULL)
            fail_msg("%s: no trace section", name);

        /* text -> bytes */
        gtr_input *in = NULL;
        gtr_err err = GTR_ERR_INIT;
        assert_int_equal(gtr_input_open_memory(tf->data, tf->data_len, NULL, &in, &err), GTR_OK);
        gtr_buf wire;
        gtr_buf_init(&wire, NULL);
        if (text2bytes(in, &wire, &err) != GTR_OK)
            fail_msg("%s: text2bytes: %s", name, err.msg);
        gtr_input_free(in);
        char got[65];
        sha256_hex(wire.data, wire.len, got);
        if (strcmp(got, want) != 0)
            fail_msg("%s: wire sha256 %s, Go's is %s", name, got, want);

        /* bytes -> text */
        assert_int_equal(gtr_input_open_memory(wire.data, wire.len, NULL, &in, &err), GTR_OK);
        gtr_buf text;
        gtr_buf_init(&text, NULL);
        if (bytes2text(in, &text, &err) != GTR_OK)
            fail_msg("%s: bytes2text: %s", name, err.msg);
        gtr_input_free(in);
        if (text.len != tf->data_len || memcmp(text.data, tf->data, text.len) != 0)
            fail_msg("%s: bytes2text does not give back the trace section", name);
        gtr_buf_free(&text);
        gtr_buf_free(&wire);
        txtar_free(a);
        n++;
    }
    fclose(f);
    assert_int_equal(n, 22);
}

static void test_raw_corpus_real_traces_match_go_text(void **state)
{
    (void)state;
    FILE *f = fopen(REAL "REFERENCE.tsv", "r");
    assert_non_null(f);
    char line[2048];
    assert_non_null(fgets(line, sizeof line, f)); /* header row */
    assert_true(strncmp(line, "name\tbytes\theader\tresult\tevents\tdump_sha256\ttext_sha256",
                        55) == 0);
    int n = 0, rejected = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        char *cols[7];
        char *p = line;
        for (int i = 0; i < 7; i++) {
            cols[i] = p;
            p = strchr(p, '\t');
            if (i < 6) {
                assert_non_null(p);
                *p++ = '\0';
            }
        }
        const char *name = cols[0], *text_sha = cols[6];
        char path[1024];
        snprintf(path, sizeof path, REAL "%s.trace.gz", name);
        gtr_input *in = NULL;
        gtr_err err = GTR_ERR_INIT;
        assert_int_equal(gtr_input_open_path(path, NULL, &in, &err), GTR_OK);
        assert_true(gtr_input_is_gzip(in));
        gtr_buf text;
        gtr_buf_init(&text, NULL);
        gtr_status st = bytes2text(in, &text, &err);
        gtr_input_free(in);
        if (strcmp(text_sha, "-") == 0) {
            /* Go's raw reader rejects this trace. */
            if (st >= 0)
                fail_msg("%s: accepted a trace Go's raw reader rejects", name);
            rejected++;
        } else {
            if (st != GTR_OK)
                fail_msg("%s: %s", name, err.msg);
            char got[65];
            sha256_hex(text.data, text.len, got);
            if (strcmp(got, text_sha) != 0)
                fail_msg("%s: text sha256 %s, Go's is %s", name, got, text_sha);
        }
        gtr_buf_free(&text);
        n++;
    }
    fclose(f);
    assert_int_equal(n, 26);
    (void)rejected;
}

static void test_sha256_known_vectors(void **state)
{
    (void)state;
    char h[65];
    sha256_hex("", 0, h);
    assert_string_equal(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sha256_hex("abc", 3, h);
    assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *s56 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_hex(s56, strlen(s56), h);
    assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* A million 'a's fed in odd-sized pieces. */
    sha256_ctx c;
    sha256_init(&c);
    char buf[997];
    memset(buf, 'a', sizeof buf);
    size_t left = 1000000;
    while (left > 0) {
        size_t k = left < sizeof buf ? left : sizeof buf;
        sha256_update(&c, buf, k);
        left -= k;
    }
    sha256_final_hex(&c, h);
    assert_string_equal(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_known_vectors),
        cmocka_unit_test(test_raw_corpus_upstream_fixtures_roundtrip_to_go_wire),
        cmocka_unit_test(test_raw_corpus_real_traces_match_go_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
