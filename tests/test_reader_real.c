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
        char *field[7];
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
        snprintf(r->name, sizeof r->name, "%s", field[0]);
        snprintf(r->result, sizeof r->result, "%s", field[3]);
        r->events = strtoull(field[4], NULL, 10);
        snprintf(r->dump_sha, sizeof r->dump_sha, "%s", field[5]);
    }
    fclose(f);
    return n;
}

static void test_reader_real_traces_match_go(void **state)
{
    (void)state;
    static ref_row rows[64];
    size_t n = read_reference(rows, 64);
    assert_true(n >= 26);
    gtr_buf line;
    gtr_buf_init(&line, NULL);
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/corpus/real/%.255s.trace.gz", GTR_SOURCE_DIR,
                 rows[i].name);
        gtr_err err = GTR_ERR_INIT;
        gtr_input *in;
        assert_int_equal(gtr_input_open_path(path, NULL, &in, &err), GTR_OK);
        gtr_reader *r;
        assert_int_equal(gtr_reader_new(in, NULL, &r, &err), GTR_OK);
        sha256_ctx sha;
        sha256_init(&sha);
        unsigned long long events = 0;
        gtr_event ev;
        gtr_status st;
        while ((st = gtr_reader_next(r, &ev, &err)) == GTR_OK) {
            gtr_buf_reset(&line);
            assert_int_equal(gtr_event_string(&ev, &line), GTR_OK);
            gtr_buf_putc(&line, '\n');
            sha256_update(&sha, line.data, line.len);
            events++;
        }
        char hex[65];
        sha256_final_hex(&sha, hex);
        print_message("%s: %llu events, %s\n", rows[i].name, events,
                      st == GTR_EOF ? "ok" : err.msg);
        if (strcmp(rows[i].result, "ok") == 0) {
            if (st != GTR_EOF)
                fail_msg("%s: %s", rows[i].name, err.msg);
        } else {
            gtr_buf want = {0};
            gtr_buf_puts(&want, "error: ");
            gtr_buf_append(&want, gtr_err_text(&err, NULL), err.len);
            assert_int_equal(want.len, strlen(rows[i].result));
            assert_string_equal(want.data, rows[i].result);
            gtr_buf_free(&want);
        }
        assert_int_equal(events, rows[i].events);
        assert_string_equal(hex, rows[i].dump_sha);
        gtr_err_clear(&err);
        gtr_reader_free(r);
        gtr_input_free(in);
    }
    gtr_buf_free(&line);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_real_traces_match_go),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
