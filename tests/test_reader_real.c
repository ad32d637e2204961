/* SPDX-License-Identifier: BSD-3-Clause */
/* test_reader_real.c: every real trace of corpus/real read end to end; the dump of every
 * event's String() (each followed by a newline) must hash to Go's dump_sha256 in
 * REFERENCE.tsv, with Go's event count and result (a recorded "error: <msg>" result is
 * compared with the reader's message). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gtr/gtr.h"
#include "gtr/reader.h"
#include "sha256.h"

typedef struct ref_row {
    char name[256];
    char result[1024];
    unsigned long long events;
    char dump_sha[65];
} ref_row;

/* read_reference parses REFERENCE.tsv (name, bytes, header, result, events, dump_sha256,
 * text_sha256). Returns the number of rows. */
static size_t read_reference(ref_row *rows, size_t max)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/corpus/real/REFERENCE.tsv", GTR_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    char line[4096];
    size_t n = 0;
    bool header = true;
    while (fgets(line, sizeof line, f) != NULL && n < max) {
        if (header) {
            header = false;
            continue;
        }
        line[strcspn(line, "\n")] = '\0';
        char *field[7] = {NULL};
        size_t nf = 0;
        char *p = line;
        while (nf < 7) {
            field[nf++] = p;
            char *tab = strchr(p, '\t');
            if (tab == NULL)
                break;
            *tab = '\0';
            p = tab + 1;
        }
        assert_int_equal(nf, 7);
        ref_row *r = &rows[n++];
        assert_true(snprintf(r->name, sizeof r->name, "%s", field[0]) < (int)sizeof r->name);
        assert_true(snprintf(r->result, sizeof r->result, "%s", field[3]) <
                    (int)sizeof r->result);
        r->events = strtoull(field[4], NULL, 10);
        assert_true(snprintf(r->dump_sha, sizeof r->dump_sha, "%s", field[5]) <
                    (int)sizeof r->dump_sha);
    }
    fclose(f);
    return n;
}

/* dump reads every event of in, hashing each String() line; the event count, the hash
 * (hex) and the final status (err holds the message). */
static gtr_status dump(gtr_input *in, unsigned long long *events, char hex[65], gtr_err *err)
{
    gtr_buf line;
    gtr_buf_init(&line, NULL);
    gtr_reader *r;
    gtr_status st = gtr_reader_new(in, NULL, &r, err);
    sha256_ctx sha;
    sha256_init(&sha);
    *events = 0;
    if (st == GTR_OK) {
        gtr_event ev;
        while ((st = gtr_reader_next(r, &ev, err)) == GTR_OK) {
            gtr_buf_reset(&line);
            assert_int_equal(gtr_event_string(&ev, &line), GTR_OK);
            gtr_buf_putc(&line, '\n');
            sha256_update(&sha, line.data, line.len);
            (*events)++;
        }
        gtr_reader_free(r);
    }
    sha256_final_hex(&sha, hex);
    gtr_buf_free(&line);
    return st;
}

/* check_row: the outcome of reading a trace is Go's (REFERENCE.tsv). */
static void check_row(const ref_row *row, gtr_status st, const gtr_err *err,
                      unsigned long long events, const char *hex)
{
    if (strcmp(row->result, "ok") == 0) {
        if (st != GTR_EOF)
            fail_msg("%s: %s", row->name, err->msg);
    } else {
        gtr_buf want = {0};
        gtr_buf_puts(&want, "error: ");
        gtr_buf_append(&want, gtr_err_text(err, NULL), err->len);
        assert_int_equal(want.len, strlen(row->result));
        assert_string_equal(want.data, row->result);
        gtr_buf_free(&want);
    }
    assert_int_equal(events, row->events);
    assert_string_equal(hex, row->dump_sha);
}

static void test_reader_real_traces_match_go(void **state)
{
    (void)state;
    static ref_row rows[64];
    size_t n = read_reference(rows, 64);
    assert_true(n >= 26);
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/corpus/real/%.255s.trace.gz", GTR_SOURCE_DIR,
                 rows[i].name);
        gtr_err err = GTR_ERR_INIT;
        gtr_input *in;
        assert_int_equal(gtr_input_open_path(path, NULL, &in, &err), GTR_OK);
        unsigned long long events;
        char hex[65];
        gtr_status st = dump(in, &events, hex, &err);
        print_message("%s: %llu events, %s\n", rows[i].name, events,
                      st == GTR_EOF ? "ok" : err.msg);
        check_row(&rows[i], st, &err, events, hex);
        gtr_err_clear(&err);
        gtr_input_free(in);
    }
}

/* A memory input whose released bytes are overwritten at once: a reader that read a byte
 * after saying it was done with it would read garbage. */
typedef struct poison {
    uint8_t *data;
    size_t len;
    uint64_t released;   /* bytes overwritten so far */
    unsigned calls;
} poison;

static void poison_release(void *ctx, uint64_t offset)
{
    poison *p = ctx;
    assert_true(offset > p->released);
    assert_true(offset <= p->len);
    memset(p->data + p->released, 0xa5, (size_t)(offset - p->released));
    p->released = offset;
    p->calls++;
}

/* read_plain reads the whole (gunzipped) file at path into memory. */
static uint8_t *read_plain(const char *path, size_t *len)
{
    gtr_err err = GTR_ERR_INIT;
    gtr_input *in;
    assert_int_equal(gtr_input_open_path(path, NULL, &in, &err), GTR_OK);
    char *data = NULL;
    *len = 0;
    assert_int_equal(gtr_input_read_all(in, &data, len, &err), GTR_OK);
    gtr_input_free(in);
    return (uint8_t *)data;
}

/* Every real trace read in place from plain memory (the reader borrows its batches) gives
 * Go's events and verdict, with every byte the reader says it is done with overwritten as
 * soon as it says so; a multi-generation trace releases at each generation. The old-format
 * traces (corpus/old) read so give what they give streamed from gzip. */
static void test_reader_real_borrowed_and_released(void **state)
{
    (void)state;
    static ref_row rows[64];
    size_t n = read_reference(rows, 64);
    unsigned multi = 0;
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/corpus/real/%.255s.trace.gz", GTR_SOURCE_DIR,
                 rows[i].name);
        poison p = {0};
        p.data = read_plain(path, &p.len);
        gtr_err err = GTR_ERR_INIT;
        gtr_input *in;
        assert_int_equal(gtr_input_open_memory(p.data, p.len, NULL, &in, &err), GTR_OK);
        gtr_input_set_release(in, poison_release, &p);
        unsigned long long events;
        char hex[65];
        gtr_status st = dump(in, &events, hex, &err);
        check_row(&rows[i], st, &err, events, hex);
        if (p.calls > 1)
            multi++;
        gtr_err_clear(&err);
        gtr_input_free(in);
        free(p.data);
    }
    assert_true(multi >= 5);   /* traces of several generations did release between them */

    static const char *const old[] = {"tracev1-stress_1_21_good", "tracev1-stress_1_19_good",
                                      "tracev1-user_task_region_1_11_good"};
    for (size_t i = 0; i < sizeof old / sizeof old[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/corpus/old/%s.trace.gz", GTR_SOURCE_DIR, old[i]);
        gtr_err err = GTR_ERR_INIT;
        gtr_input *in;
        assert_int_equal(gtr_input_open_path(path, NULL, &in, &err), GTR_OK);
        unsigned long long want_events, events;
        char want_hex[65], hex[65];
        gtr_status want_st = dump(in, &want_events, want_hex, &err);
        gtr_input_free(in);
        poison p = {0};
        p.data = read_plain(path, &p.len);
        assert_int_equal(gtr_input_open_memory(p.data, p.len, NULL, &in, &err), GTR_OK);
        gtr_input_set_release(in, poison_release, &p);
        assert_int_equal(dump(in, &events, hex, &err), want_st);
        assert_int_equal(events, want_events);
        assert_string_equal(hex, want_hex);
        assert_int_equal(p.calls, 1);   /* all of it, once the converter has its copies */
        assert_int_equal(p.released, p.len);
        gtr_err_clear(&err);
        gtr_input_free(in);
        free(p.data);
    }
}

/* Only a memory input's bytes are borrowed: a gzip one never calls its release function. */
static void test_reader_gzip_input_never_releases(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/corpus/real/testprog-gc-stress.trace.gz", GTR_SOURCE_DIR);
    size_t len;
    uint8_t *gz = NULL;
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    len = (size_t)ftell(f);
    rewind(f);
    gz = malloc(len);
    assert_non_null(gz);
    assert_int_equal(fread(gz, 1, len, f), len);
    fclose(f);
    poison p = {0};
    p.len = len;
    gtr_err err = GTR_ERR_INIT;
    gtr_input *in;
    assert_int_equal(gtr_input_open_memory(gz, len, NULL, &in, &err), GTR_OK);
    gtr_input_set_release(in, poison_release, &p);
    unsigned long long events;
    char hex[65];
    assert_int_equal(dump(in, &events, hex, &err), GTR_EOF);
    assert_true(events > 0);
    assert_int_equal(p.calls, 0);
    gtr_input_free(in);
    free(gz);
}

/* counting: an allocator that counts the blocks it has handed out and not taken back. */
typedef struct counting {
    long live;
} counting;

static void *counting_malloc(void *ctx, size_t n)
{
    void *p = malloc(n ? n : 1);
    ((counting *)ctx)->live += p != NULL;
    return p;
}

static void *counting_realloc(void *ctx, void *old, size_t n)
{
    void *p = realloc(old, n ? n : 1);
    ((counting *)ctx)->live += old == NULL && p != NULL;
    return p;
}

static void counting_free(void *ctx, void *p)
{
    ((counting *)ctx)->live -= p != NULL;
    free(p);
}

/* gtr_reader_open_path is gtr_input_open_path and gtr_reader_new in one call: the same events
 * (a gzip real trace and an old one), and the reader owns the input, so gtr_reader_free alone
 * gives every block back. On failure (no such file, not a trace) nothing is left. */
static void test_reader_open_path_owns_its_input(void **state)
{
    (void)state;
    static const char *const traces[] = {"real/go1.22-testprog-annotations-stress",
                                         "real/testprog-annotations", "old/go1.19-gc"};
    counting c = {0};
    gtr_alloc alc = {counting_malloc, counting_realloc, counting_free, &c};
    gtr_err err = GTR_ERR_INIT;
    char path[1024];
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        snprintf(path, sizeof path, "%s/corpus/%s.trace.gz", GTR_SOURCE_DIR, traces[i]);
        gtr_input *in;
        gtr_reader *r;
        gtr_event ev;
        unsigned long long want = 0, got = 0;
        assert_int_equal(gtr_input_open_path(path, NULL, &in, &err), GTR_OK);
        assert_int_equal(gtr_reader_new(in, NULL, &r, &err), GTR_OK);
        while (gtr_reader_next(r, &ev, &err) == GTR_OK)
            want++;
        gtr_reader_free(r);
        gtr_input_free(in);

        assert_int_equal(gtr_reader_open_path(path, &alc, &r, &err), GTR_OK);
        assert_true(c.live > 0);
        gtr_status st;
        while ((st = gtr_reader_next(r, &ev, &err)) == GTR_OK)
            got++;
        assert_int_equal(st, GTR_EOF);
        assert_true(want > 0);
        assert_int_equal(got, want);
        gtr_reader_free(r);
        assert_int_equal(c.live, 0);
        gtr_err_clear(&err);
    }

    gtr_reader *r = (gtr_reader *)&c;
    assert_int_equal(gtr_reader_open_path("/nonexistent/dir/x.trace", &alc, &r, &err), GTR_E_IO);
    assert_null(r);
    assert_memory_equal(gtr_err_text(&err, NULL), "open /nonexistent/dir/x.trace: ", 31);
    snprintf(path, sizeof path, "%s/corpus/real/REFERENCE.tsv", GTR_SOURCE_DIR);
    assert_int_equal(gtr_reader_open_path(path, &alc, &r, &err), GTR_E_FORMAT);
    assert_null(r);
    assert_string_equal(gtr_err_text(&err, NULL), "bad file format: not a Go execution trace?");
    assert_int_equal(c.live, 0);
    assert_int_equal(gtr_reader_open_path(NULL, &alc, &r, &err), GTR_E_USAGE);
    assert_null(r);
    gtr_err_clear(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_real_traces_match_go),
        cmocka_unit_test(test_reader_real_borrowed_and_released),
        cmocka_unit_test(test_reader_gzip_input_never_releases),
        cmocka_unit_test(test_reader_open_path_owns_its_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
