/* SPDX-License-Identifier: BSD-3-Clause */
/* test_reduce.c: the reducer (reduce/include/reduce.h) and `gotrace reduce`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <dirent.h>

#include "engine.h"
#include "fdio.h"
#include "gtr/raw.h"
#include "reduce.h"
#include "tgen/fixture.h"
#include "tgen/tgen.h"
#include "tracedit.h"

#define GOTRACE GTR_BINARY_DIR "/bin/gotrace"
#define UPSTREAM GTR_SOURCE_DIR "/corpus/upstream/"

static void load(const char *path, gtr_buf *b)
{
    gtr_err err = GTR_ERR_INIT;
    if (tgen_load_trace(path, b, NULL, &err) < 0)
        fail_msg("%s: %s", path, err.msg);
}

static size_t find_batch_starting(const tracedit_trace *t, uint8_t type)
{
    for (size_t b = 0; b < t->nbatches; b++)
        if (t->batches[b].nev > 0 && t->events[t->batches[b].evs[0]].type == type)
            return b;
    fail_msg("no batch starting with event type %u", type);
    return 0;
}

/* padded builds go122-create-syscall-with-p (a reader failure) with 120 extra strings and
 * 40 extra 3-frame stacks, none of which matter to the failure. */
static void padded(gtr_buf *out)
{
    gtr_buf wire = {0};
    tracedit_trace t = {0};
    uint32_t idx;
    load(UPSTREAM "go122-create-syscall-with-p.test", &wire);
    assert_int_equal(tracedit_decode(&t, (const uint8_t *)wire.data, wire.len, NULL), GTR_OK);
    size_t sb = find_batch_starting(&t, GTR_EV_STRINGS);
    for (uint64_t id = 1; id <= 120; id++) {
        char s[32];
        int n = snprintf(s, sizeof s, "runtime.padding%llu", (unsigned long long)id);
        assert_int_equal(tracedit_add_event(&t, GTR_EV_STRING, &id, 1, true, (const uint8_t *)s,
                                          (size_t)n, &idx),
                         GTR_OK);
        assert_int_equal(tracedit_batch_insert(&t, sb, t.batches[sb].nev, idx), GTR_OK);
    }
    size_t kb = find_batch_starting(&t, GTR_EV_STACKS);
    for (uint64_t id = 1; id <= 40; id++) {
        uint64_t a[2 + 12] = {id, 3};
        for (int f = 0; f < 3; f++) {
            a[2 + f * 4] = 0x401000 + id * 16 + (uint64_t)f;
            a[3 + f * 4] = 1 + (id + (uint64_t)f) % 120;
            a[4 + f * 4] = 1 + (id * 7 + (uint64_t)f) % 120;
            a[5 + f * 4] = 10 + id;
        }
        assert_int_equal(tracedit_add_event(&t, GTR_EV_STACK, a, 14, false, NULL, 0, &idx), GTR_OK);
        assert_int_equal(tracedit_batch_insert(&t, kb, t.batches[kb].nev, idx), GTR_OK);
    }
    assert_int_equal(tracedit_encode(&t, out, NULL), GTR_OK);
    tracedit_trace_free(&t);
    gtr_buf_free(&wire);
}

static int run(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void write_file(const char *path, const void *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(d, 1, n, f), n);
    fclose(f);
}

static void test_reduce_padded_failure_shrinks_to_fixture_that_passes_check(void **state)
{
    gtr_buf in = {0}, out = {0};
    char dir[] = "/tmp/test_reduce_XXXXXX", cmd[2048], inp[600], outp[600];
    (void)state;
    assert_non_null(mkdtemp(dir));
    padded(&in);
    reduce_probe p;
    assert_int_equal(reduce_probe_run((const uint8_t *)in.data, in.len, 10, &p, NULL), GTR_OK);
    assert_int_equal(p.outcome, REDUCE_JUDGED);
    assert_int_equal(p.verdict.end, TGEN_END_READ);
    assert_string_equal(p.verdict.end_err.msg, "expected a proc but didn't have one");
    snprintf(inp, sizeof inp, "%s/in.trace", dir);
    snprintf(outp, sizeof outp, "%s/out.test", dir);
    write_file(inp, in.data, in.len);
    snprintf(cmd, sizeof cmd, "%s reduce %s --out %s", GOTRACE, inp, outp);
    assert_int_equal(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s check %s", GOTRACE, outp);
    assert_int_equal(run(cmd), 0);
    load(outp, &out);
    print_message("padded trace: %zu bytes; reduced: %zu bytes\n", in.len, out.len);
    assert_true(in.len > 2000);
    assert_true(out.len <= 48);
    /* The fixture says what the failure is. */
    FILE *f = fopen(outp, "rb");
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    assert_non_null(strstr(text, "-- expect --\nFAILURE \"expected a proc but didn't have one\"\n"));
    assert_non_null(strstr(text, "-- trace --\nTrace Go1.22\n"));
    unlink(inp);
    unlink(outp);
    rmdir(dir);
    gtr_buf_free(&in);
    gtr_buf_free(&out);
    tgen_verdict_free(&p.verdict);
}

static void test_reduce_expect_flag_without_match_fails(void **state)
{
    char cmd[1024];
    (void)state;
    snprintf(cmd, sizeof cmd,
             "%s reduce %sgo122-create-syscall-with-p.test --expect 'no such message' "
             ">/dev/null 2>&1",
             GOTRACE, UPSTREAM);
    assert_int_equal(run(cmd), 1);
    /* A trace that validates has no failure to keep. */
    snprintf(cmd, sizeof cmd, "%s reduce %sgo123-sync.test >/dev/null 2>&1", GOTRACE, UPSTREAM);
    assert_int_equal(run(cmd), 1);
}

static void test_reduce_expect_flag_keeps_matching_failure(void **state)
{
    char dir[] = "/tmp/test_reduce_XXXXXX", cmd[2048], outp[600];
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(outp, sizeof outp, "%s/out.test", dir);
    snprintf(cmd, sizeof cmd,
             "%s reduce %sgo122-fail-first-gen-first.test --expect 'expected a proc' --out %s "
             "2>/dev/null",
             GOTRACE, UPSTREAM, outp);
    assert_int_equal(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s check %s >/dev/null", GOTRACE, outp);
    assert_int_equal(run(cmd), 0);
    unlink(outp);
    rmdir(dir);
}

static void test_reduce_message_regexp_escapes_and_frees_numbers(void **state)
{
    gtr_buf b = {0};
    (void)state;
    assert_int_equal(reduce_message_regexp("invalid batch size 70000, maximum is 65536", &b),
                     GTR_OK);
    assert_string_equal(b.data, "invalid batch size [0-9]+, maximum is [0-9]+");
    gtr_buf_reset(&b);
    assert_int_equal(reduce_message_regexp("a.b*c (P=-1) [x]{2}|^$?+\\\nsecond line 7", &b),
                     GTR_OK);
    assert_string_equal(b.data, "a\\.b\\*c \\(P=-[0-9]+\\) \\[x\\]\\{[0-9]+\\}\\|\\^\\$\\?\\+\\\\");
    gtr_buf_free(&b);
}

/* An in-process predicate: the trace still has a String event whose data is "needle". */
static bool has_needle(void *ctx, const uint8_t *data, size_t size)
{
    tracedit_trace t = {0};
    bool found = false;
    (void)ctx;
    tracedit_decode(&t, data, size, NULL);
    for (size_t b = 0; b < t.nbatches && !found; b++)
        for (size_t i = 0; i < t.batches[b].nev && !found; i++) {
            const tracedit_event *e = &t.events[t.batches[b].evs[i]];
            found = e->type == GTR_EV_STRING && e->data_len == 6 &&
                    memcmp(t.bytes + e->data, "needle", 6) == 0;
        }
    tracedit_trace_free(&t);
    return found;
}

/* needle_trace puts into wire go122-annotations with a String event "needle" (id 77) in the
 * middle of its strings batch. */
static void needle_trace(gtr_buf *wire)
{
    tracedit_trace t = {0};
    uint32_t idx;
    uint64_t id = 77;
    load(UPSTREAM "go122-annotations.test", wire);
    assert_int_equal(tracedit_decode(&t, (const uint8_t *)wire->data, wire->len, NULL), GTR_OK);
    size_t sb = find_batch_starting(&t, GTR_EV_STRINGS);
    assert_int_equal(tracedit_add_event(&t, GTR_EV_STRING, &id, 1, true,
                                        (const uint8_t *)"needle", 6, &idx),
                     GTR_OK);
    assert_int_equal(tracedit_batch_insert(&t, sb, t.batches[sb].nev / 2, idx), GTR_OK);
    gtr_buf_reset(wire);
    assert_int_equal(tracedit_encode(&t, wire, NULL), GTR_OK);
    tracedit_trace_free(&t);
}

static void test_reduce_api_keeps_only_what_the_predicate_needs(void **state)
{
    gtr_buf wire = {0}, out = {0};
    tracedit_trace t = {0};
    (void)state;
    needle_trace(&wire);
    reduce_stats st;
    assert_int_equal(reduce_ddmin((const uint8_t *)wire.data, wire.len, has_needle, NULL, &out,
                                   &st, NULL),
                     GTR_OK);
    /* header 16 + batch header (1+1+1+1+1) + String (1 + id 1 + len 1 + 6) = 30 */
    assert_int_equal(out.len, 30);
    assert_true(has_needle(NULL, (const uint8_t *)out.data, out.len));
    assert_int_equal(tracedit_decode(&t, (const uint8_t *)out.data, out.len, NULL), GTR_OK);
    assert_int_equal(t.nbatches, 1);
    assert_int_equal(t.batches[0].nev, 1);
    assert_int_equal(t.batches[0].gen, 0);
    assert_int_equal(tracedit_event_args(&t, t.batches[0].evs[0])[0], 0);   /* id shrunk */
    print_message("%zu -> %zu bytes in %zu candidates\n", wire.len, out.len, st.tests);
    /* Not interesting to begin with: refused. */
    gtr_buf_reset(&out);
    assert_int_equal(reduce_ddmin((const uint8_t *)"go 1.22 trace\0\0\0", 16, has_needle, NULL,
                                   &out, NULL, NULL),
                     GTR_E_USAGE);
    tracedit_trace_free(&t);
    gtr_buf_free(&wire);
    gtr_buf_free(&out);
}

static void test_reduce_probe_reports_outcomes(void **state)
{
    gtr_buf wire = {0};
    reduce_probe p;
    (void)state;
    load(UPSTREAM "go123-sync.test", &wire);
    assert_int_equal(reduce_probe_run((const uint8_t *)wire.data, wire.len, 10, &p, NULL), GTR_OK);
    assert_int_equal(p.outcome, REDUCE_JUDGED);
    assert_true(tgen_verdict_clean(&p.verdict));
    tgen_verdict_free(&p.verdict);
    assert_int_equal(reduce_probe_run((const uint8_t *)"go 1.22 trace\0\0\0\x07", 17, 10, &p,
                                      NULL),
                     GTR_OK);
    assert_int_equal(p.outcome, REDUCE_JUDGED);
    assert_int_equal(p.verdict.end, TGEN_END_READ);
    assert_string_equal(p.verdict.end_err.msg, "expected batch event, got event 7");
    gtr_buf_free(&wire);
    tgen_verdict_free(&p.verdict);
}

/* read_all returns the whole file at path (NUL-terminated, malloc'd), *n its length. */
static char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *buf = malloc(1 << 20);
    assert_non_null(buf);
    *n = fread(buf, 1, (1 << 20) - 1, f);
    buf[*n] = '\0';
    fclose(f);
    return buf;
}

/* reduce_to runs `gotrace reduce IN --out DIR/out.test --no-oracle` on data; returns its exit
 * status and leaves its stderr in DIR/err. */
static int reduce_to(const char *dir, const void *data, size_t n, const char *extra)
{
    char in[600], cmd[2048];
    snprintf(in, sizeof in, "%s/in.trace", dir);
    write_file(in, data, n);
    snprintf(cmd, sizeof cmd, "%s reduce --no-oracle %s --out %s/out.test %s 2>%s/err", GOTRACE,
             in, dir, extra, dir);
    return run(cmd);
}

static void cleanup(const char *dir)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    run(cmd);
}

/* reduce_text reduces the text-format trace text in dir (made here) with the extra flags,
 * checks that the fixture passes `gotrace check`, and returns its text (malloc'd). */
static char *reduce_text(char *dir, const char *text, const char *extra)
{
    char path[700], cmd[1400];
    gtr_buf w = {0};
    size_t n;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(gtr_raw_text_to_wire(text, strlen(text), &w, NULL), GTR_OK);
    assert_int_equal(reduce_to(dir, w.data, w.len, extra), 0);
    gtr_buf_free(&w);
    snprintf(cmd, sizeof cmd, "%s check %s/out.test >/dev/null", GOTRACE, dir);
    assert_int_equal(run(cmd), 0);
    snprintf(path, sizeof path, "%s/out.test", dir);
    char *fx = read_all(path, &n);
    assert_non_null(fx);
    return fx;
}

/* The same message on another kind of event is another failure: "expected a proc but didn't
 * have one" on M 2's GoCreate (at time 5, read first) must not become the same message on M
 * 1's GoStop (time 10), which dropping M 2's thread (the later batch, tried first) gives. */
static void test_reduce_reader_error_keeps_its_event(void **state)
{
    static const char text[] = "Trace Go1.22\n"
                               "EventBatch gen=1 m=1 time=0 size=4\n"
                               "GoStop dt=10 reason_string=0 stack=0\n"
                               "EventBatch gen=1 m=2 time=0 size=5\n"
                               "GoCreate dt=5 new_g=5 new_stack=0 stack=0\n"
                               "EventBatch gen=1 m=18446744073709551615 time=0 size=5\n"
                               "Frequency freq=15625000\n"
                               "EventBatch gen=1 m=18446744073709551615 time=0 size=1\n"
                               "Stacks\n"
                               "EventBatch gen=1 m=18446744073709551615 time=0 size=1\n"
                               "Strings\n";
    char dir[] = "/tmp/test_reduce_XXXXXX";
    (void)state;
    char *fx = reduce_text(dir, text, "");
    assert_non_null(strstr(fx, "FAILURE \"expected a proc but didn't have one\""));
    assert_non_null(strstr(fx, "The reader refuses a GoCreate, as it refused the input's."));
    assert_non_null(strstr(fx, "\nGoCreate dt="));
    assert_null(strstr(fx, "GoStop"));
    free(fx);
    cleanup(dir);
}

/* IDs that several events share are renumbered small together (renumber.c): goroutine 3444
 * of a GoStatus and two GoStarts becomes goroutine 1, which no change of one value at a time
 * reaches. */
static void test_reduce_renumbers_shared_ids(void **state)
{
    static const char text[] = "Trace Go1.22\n"
                               "EventBatch gen=1 m=1916 time=0 size=29\n"
                               "ProcStatus dt=1 p=77 pstatus=1\n"
                               "GoStatus dt=1 g=3444 m=18446744073709551615 gstatus=1\n"
                               "GoStart dt=1 g=3444 g_seq=1\n"
                               "GoStart dt=1 g=3444 g_seq=2\n"
                               "EventBatch gen=1 m=18446744073709551615 time=0 size=5\n"
                               "Frequency freq=15625000\n"
                               "EventBatch gen=1 m=18446744073709551615 time=0 size=1\n"
                               "Stacks\n"
                               "EventBatch gen=1 m=18446744073709551615 time=0 size=1\n"
                               "Strings\n";
    char dir[] = "/tmp/test_reduce_XXXXXX";
    (void)state;
    char *fx = reduce_text(dir, text, "--no-synthesis");
    assert_non_null(strstr(fx, "\nGoStatus dt=0 g=1 "));
    assert_non_null(strstr(fx, "\nGoStart dt=0 g=1 g_seq=1\nGoStart dt=0 g=1 g_seq=1\n"));
    assert_null(strstr(fx, "3444"));
    free(fx);
    cleanup(dir);
}

/* A go1.25 first generation that cannot be read becomes a fixture whose same error surfaces
 * behind a synthesised first generation, and that passes the golden check. */
static void test_reduce_go125_first_generation_error_becomes_a_passing_fixture(void **state)
{
    static const char text[] = "Trace Go1.25\n"
                               "EventBatch gen=1 m=0 time=10 size=4\n"
                               "ProcStatus dt=1 p=0 pstatus=1\n"
                               "EventBatch gen=1 m=18446744073709551615 time=0 size=5\n"
                               "Frequency freq=15625000\n";
    char dir[] = "/tmp/test_reduce_XXXXXX", cmd[1024], path[600];
    gtr_buf w = {0};
    size_t n = 0;
    (void)state;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(gtr_raw_text_to_wire(text, strlen(text), &w, NULL), GTR_OK);
    assert_int_equal(reduce_to(dir, w.data, w.len, ""), 0);
    snprintf(cmd, sizeof cmd, "%s check %s/out.test >/dev/null", GOTRACE, dir);
    assert_int_equal(run(cmd), 0);
    snprintf(path, sizeof path, "%s/out.test", dir);
    char *fx = read_all(path, &n);
    assert_non_null(fx);
    assert_non_null(strstr(fx, "a minimal valid generation was put in\nfront"));
    assert_non_null(strstr(fx, "-- expect --\nFAILURE \"no frequency event found\"\n"));
    assert_non_null(strstr(fx, "Sync\nFrequency freq="));
    assert_non_null(strstr(fx, "ClockSnapshot dt=0 mono=1 sec=0 nsec=0\n"));
    /* The summary names what was written, with its size. */
    snprintf(path, sizeof path, "%s/err", dir);
    size_t en;
    char *err = read_all(path, &en);
    char want[700];
    snprintf(want, sizeof want, "-> %s/out.test: %zu bytes (trace of ", dir, n);
    if (strstr(err, want) == NULL)
        fail_msg("summary: %s (want %s)", err, want);
    free(fx);
    free(err);
    gtr_buf_free(&w);
    cleanup(dir);
}

/* An event type the version does not know cannot be written in the text format: the reduced
 * wire bytes go to out.trace beside out.test, and the exit status is 0. */
static void test_reduce_unnameable_bytes_are_written_as_wire(void **state)
{
    /* A frequency batch, then a batch holding one byte of event type 200. */
    static const uint8_t bytes[] = {'g', 'o', ' ', '1', '.', '2', '2', ' ', 't',  'r',
                                    'a', 'c', 'e', 0,   0,   0,   1,   1,   0,    0,
                                    2,   8,   64,  1,   1,   0,   1,   1,   200};
    char dir[] = "/tmp/test_reduce_XXXXXX", path[600];
    size_t n = 0;
    (void)state;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(reduce_to(dir, bytes, sizeof bytes, ""), 0);
    snprintf(path, sizeof path, "%s/out.test", dir);
    assert_int_equal(access(path, F_OK), -1);
    snprintf(path, sizeof path, "%s/out.trace", dir);
    char *w = read_all(path, &n);
    assert_non_null(w);
    assert_true(n <= sizeof bytes);
    gtr_buf b = {0};
    gtr_buf_append(&b, w, n);
    reduce_probe p;
    assert_int_equal(reduce_probe_run((const uint8_t *)b.data, b.len, 10, &p, NULL), GTR_OK);
    assert_int_equal(p.verdict.end, TGEN_END_READ);
    assert_non_null(strstr(p.verdict.end_err.msg, "200"));
    snprintf(path, sizeof path, "%s/err", dir);
    char *err = read_all(path, &n);
    assert_non_null(strstr(err, "no fixture: the trace needs bytes the text format cannot name"));
    free(w);
    free(err);
    gtr_buf_free(&b);
    cleanup(dir);
    tgen_verdict_free(&p.verdict);
}

/* An old-format trace (go 1.11-1.21) has no v2 framing and no text form: Go parses it whole
 * in NewReader, whose error is kept as the failure; the reducer drops its batches, events and
 * bytes, and writes wire bytes. Here a go1.21 trace cut inside an event. */
static void test_reduce_old_format_trace_shrinks_to_wire(void **state)
{
    gtr_buf whole = {0};
    char dir[] = "/tmp/test_reduce_XXXXXX", path[600];
    size_t n = 0;
    (void)state;
    load(GTR_SOURCE_DIR "/corpus/old/tracev1-stress_1_21_good.trace.gz", &whole);
    assert_true(whole.len > 20000);
    assert_true(reduce_v1_header((const uint8_t *)whole.data, whole.len));
    assert_false(reduce_v1_header((const uint8_t *)"go 1.22 trace\0\0\0", 16));
    assert_false(reduce_v1_header((const uint8_t *)"go 1.21 trace", 13));
    reduce_probe before;
    assert_int_equal(reduce_probe_run((const uint8_t *)whole.data, 20000, 10, &before, NULL),
                     GTR_OK);
    assert_int_equal(before.verdict.end, TGEN_END_HEADER);
    assert_non_null(strstr(before.verdict.end_err.msg, "malformatted base-128 varint"));

    assert_non_null(mkdtemp(dir));
    assert_int_equal(reduce_to(dir, whole.data, 20000, ""), 0);
    snprintf(path, sizeof path, "%s/out.test", dir);
    assert_int_equal(access(path, F_OK), -1);
    snprintf(path, sizeof path, "%s/out.trace", dir);
    char *w = read_all(path, &n);
    assert_non_null(w);
    assert_true(n <= 32); /* the header and a cut event */
    assert_true(reduce_v1_header((const uint8_t *)w, n));
    reduce_probe after;
    assert_int_equal(reduce_probe_run((const uint8_t *)w, n, 10, &after, NULL), GTR_OK);
    assert_int_equal(after.verdict.end, TGEN_END_HEADER);
    assert_non_null(strstr(after.verdict.end_err.msg, "malformatted base-128 varint"));
    snprintf(path, sizeof path, "%s/err", dir);
    char *err = read_all(path, &n);
    assert_non_null(strstr(err, "the trace is in the old format (go 1.11-1.21)"));
    tgen_verdict_free(&before.verdict);
    tgen_verdict_free(&after.verdict);
    free(w);
    free(err);
    gtr_buf_free(&whole);
    cleanup(dir);
}

/* An old-format trace with a validator error (Go's converter flaw on blocking syscalls,
 * corpus/go-panics) is reduced to wire bytes that still show it. */
static void test_reduce_old_format_validator_error_shrinks(void **state)
{
    char dir[] = "/tmp/test_reduce_XXXXXX", path[600];
    size_t n, m;
    (void)state;
    char *in = read_all(GTR_SOURCE_DIR "/corpus/go-panics/go121-v1-blocking-syscall-validator-flaw.trace", &n);
    assert_non_null(in);
    assert_non_null(mkdtemp(dir));
    assert_int_equal(reduce_to(dir, in, n, ""), 0);
    snprintf(path, sizeof path, "%s/out.trace", dir);
    char *w = read_all(path, &m);
    assert_non_null(w);
    assert_true(m < n);
    reduce_probe p;
    assert_int_equal(reduce_probe_run((const uint8_t *)w, m, 10, &p, NULL), GTR_OK);
    assert_true(p.verdict.invalid > 0);
    assert_non_null(strstr(p.verdict.valid_err.msg, "when one was already executing"));
    tgen_verdict_free(&p.verdict);
    free(in);
    free(w);
    cleanup(dir);
}

/* A validator error cannot be a fixture (the golden runner fails on each): wire bytes. Here
 * the go1.25 header alone: Go's reader emits Sync 1 without a clock snapshot. */
static void test_reduce_validator_failure_is_written_as_wire(void **state)
{
    char dir[] = "/tmp/test_reduce_XXXXXX", path[600];
    size_t n = 0;
    (void)state;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(reduce_to(dir, "go 1.25 trace\0\0\0", 16, ""), 0);
    snprintf(path, sizeof path, "%s/out.trace", dir);
    char *w = read_all(path, &n);
    assert_non_null(w);
    assert_int_equal(n, 16);
    snprintf(path, sizeof path, "%s/out.test", dir);
    assert_int_equal(access(path, F_OK), -1);
    free(w);
    cleanup(dir);
}

/* A validator error (a stack frame without a PC), then a reader error: without --expect the
 * validator's is kept (wire bytes); --expect naming the reader error keeps that one, and the
 * reduction drops what the validator objects to, so the fixture passes. */
static void test_reduce_expect_reader_error_behind_validator_error(void **state)
{
    char dir[] = "/tmp/test_reduce_XXXXXX", path[600], cmd[1024];
    gtr_buf w = {0}, text = {0};
    gtr_err err = GTR_ERR_INIT;
    tgen_fixture *f;
    size_t n = 0;
    (void)state;
    assert_non_null(mkdtemp(dir));
    tgen_trace *t = tgen_trace_new(GTR_GO122, NULL);
    tgen_gen *g = tgen_generation(t, 1);
    static const tgen_frame frames[2] = {{0x1000, "main.main", "main.go", 10},
                                         {0, "main.f", "main.go", 20}};
    tgen_batch *b = tgen_batch_new(g, 0, 10);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(b, "GoCreate", TG_G(2), TG_NOSTACK, TG_STACK(frames, 2));
    tgen_batch *b1 = tgen_batch_new(g, 1, 100);
    tgen_event(b1, "GoStop", TG_STR("x"), TG_NOSTACK);
    assert_int_equal(tgen_generate(t, &text, &err), GTR_OK);
    assert_int_equal(tgen_fixture_parse("t.test", text.data, text.len, &f, &err), GTR_OK);
    const uint8_t *wire = tgen_fixture_trace(f, &n);
    gtr_buf_append(&w, wire, n);
    reduce_probe p;
    assert_int_equal(reduce_probe_run((const uint8_t *)w.data, w.len, 10, &p, NULL), GTR_OK);
    assert_int_equal(p.verdict.invalid, 1);
    assert_int_equal(p.verdict.end, TGEN_END_READ);
    /* Without --expect: the validator's error, as wire bytes. */
    assert_int_equal(reduce_to(dir, w.data, w.len, ""), 0);
    snprintf(path, sizeof path, "%s/out.trace", dir);
    assert_int_equal(access(path, F_OK), 0);
    unlink(path);
    /* With --expect naming the reader error: a fixture that passes the golden check. */
    char extra[600];
    gtr_buf re = {0};
    reduce_message_regexp(p.verdict.end_err.msg, &re);
    /* Shell-quoted: every ' becomes '\''. */
    size_t k = (size_t)snprintf(extra, sizeof extra, "--expect '");
    for (const char *c = re.data; *c != '\0' && k + 6 < sizeof extra; c++) {
        if (*c == '\'') {
            memcpy(extra + k, "'\\''", 4);
            k += 4;
        } else {
            extra[k++] = *c;
        }
    }
    extra[k++] = '\'';
    extra[k] = '\0';
    assert_int_equal(reduce_to(dir, w.data, w.len, extra), 0);
    snprintf(cmd, sizeof cmd, "%s check %s/out.test >/dev/null", GOTRACE, dir);
    if (run(cmd) != 0)
        fail_msg("the fixture for \"%s\" fails its check", p.verdict.end_err.msg);
    gtr_buf_free(&re);
    tgen_fixture_free(f);
    tgen_trace_free(t);
    gtr_buf_free(&w);
    gtr_buf_free(&text);
    cleanup(dir);
    tgen_verdict_free(&p.verdict);
}

/* A slow predicate: has_needle after 20 ms. */
static bool slow_needle(void *ctx, const uint8_t *data, size_t size)
{
    nanosleep(&(struct timespec){0, 20000000}, NULL);
    return has_needle(ctx, data, size);
}

/* The budget ends the reduction early with a result that is still interesting. */
static void test_reduce_budget_stops_with_an_interesting_result(void **state)
{
    gtr_buf wire = {0}, out = {0}, full = {0};
    (void)state;
    needle_trace(&wire);
    reduce_stats st;
    assert_int_equal(reduce_ddmin_budget((const uint8_t *)wire.data, wire.len, slow_needle, NULL,
                                         0.2, &out, &st, NULL),
                     GTR_OK);
    assert_true(st.budget_hit);
    assert_true(st.tests < 20);
    assert_true(has_needle(NULL, (const uint8_t *)out.data, out.len));
    assert_true(out.len <= wire.len);
    /* Without a budget the same reduction goes to the end (30 bytes, as above). */
    assert_int_equal(reduce_ddmin_budget((const uint8_t *)wire.data, wire.len, has_needle, NULL,
                                         0, &full, &st, NULL),
                     GTR_OK);
    assert_false(st.budget_hit);
    assert_int_equal(full.len, 30);
    gtr_buf_free(&wire);
    gtr_buf_free(&out);
    gtr_buf_free(&full);
}


/* judge_shape: why wire[0..len) is stuck (tgen_verdict.stuck), into out. */
static void judge_shape(const void *wire, size_t len, gtr_buf *out)
{
    tgen_verdict v;
    assert_int_equal(tgen_judge(wire, len, NULL, NULL, &v), GTR_OK);
    gtr_buf_append(out, v.stuck.data, v.stuck.len);
    tgen_verdict_free(&v);
}

/* A trace stuck on a goroutine's sequence number must reduce to a fixture stuck on a
 * goroutine's sequence number, never to another stuck trace (a ProcStart of a proc the trace
 * never declared matches the message just as well): with the trace built from the
 * diagnosis, and from the input's own events. */
static void test_reduce_stuck_trace_keeps_its_reason(void **state)
{
    (void)state;
    gtr_buf in = {0}, want = {0};
    load(GTR_SOURCE_DIR "/tests/data/stuck-go-start-seq.test", &in);
    judge_shape(in.data, in.len, &want);
    assert_string_equal(want.data, "GoStart waits on goroutine sequence seq=behind\n");
    for (int synth = 0; synth < 2; synth++) {
        reduce_options opt = {.no_synthesis = synth == 0};
        reduce_result r;
        gtr_err err = GTR_ERR_INIT;
        gtr_buf got = {0};
        assert_int_equal(reduce_trace((const uint8_t *)in.data, in.len, &opt, &r, &err), GTR_OK);
        assert_true(r.fixture.len > 0);
        assert_int_equal(r.synthesized, synth == 1);
        judge_shape(r.wire.data, r.wire.len, &got);
        assert_string_equal(got.data != NULL ? got.data : "", want.data);
        assert_non_null(strstr(r.fixture.data, "FAILURE \"broken trace: failed to advance: frontier:\""));
        gtr_buf_free(&got);
        reduce_result_free(&r);
    }
    gtr_buf_free(&in);
    gtr_buf_free(&want);
}

/* sweep_synthesis drops each event of a fixture's trace in turn; for every trace that then
 * fails to advance, the trace reduce_synthesize_stuck builds must be stuck for the same
 * reason (the same shape). */
static void sweep_synthesis(const char *path, size_t *stuck, size_t *built, size_t *same)
{
    gtr_buf wire = {0};
    gtr_err err = GTR_ERR_INIT;
    if (tgen_load_trace(path, &wire, NULL, &err) < 0) {
        gtr_err_clear(&err);
        return;
    }
    tracedit_trace t = {0};
    if (tracedit_decode(&t, (const uint8_t *)wire.data, wire.len, NULL) == GTR_OK) {
        for (size_t b = 0; b < t.nbatches; b++) {
            for (size_t e = 0; e < t.batches[b].nev; e++) {
                tracedit_trace c = {0};
                gtr_buf out = {0}, want = {0}, syn = {0}, got = {0};
                assert_int_equal(tracedit_copy(&c, &t, NULL), GTR_OK);
                tracedit_batch_remove(&c, b, e);
                assert_int_equal(tracedit_encode(&c, &out, NULL), GTR_OK);
                judge_shape(out.data, out.len, &want);
                if (want.len > 0) {
                    (*stuck)++;
                    if (reduce_synthesize_stuck((const uint8_t *)out.data, out.len, &syn) ==
                        GTR_OK) {
                        (*built)++;
                        judge_shape(syn.data, syn.len, &got);
                        if (got.len == want.len && memcmp(got.data, want.data, want.len) == 0)
                            (*same)++;
                        else
                            fail_msg("%s without event %zu of batch %zu: built for\n%sbut "
                                     "stuck for\n%s",
                                     path, e, b, want.data, got.data != NULL ? got.data : "");
                    }
                }
                gtr_buf_free(&out);
                gtr_buf_free(&want);
                gtr_buf_free(&syn);
                gtr_buf_free(&got);
                tracedit_trace_free(&c);
            }
        }
    }
    tracedit_trace_free(&t);
    gtr_buf_free(&wire);
}

static void test_reduce_synthesis_is_stuck_for_the_same_reason(void **state)
{
    (void)state;
    const char *dirs[] = {GTR_SOURCE_DIR "/corpus/upstream", GTR_SOURCE_DIR "/corpus/tests"};
    size_t stuck = 0, built = 0, same = 0;
    for (size_t i = 0; i < 2; i++) {
        DIR *dir = opendir(dirs[i]);
        assert_non_null(dir);
        struct dirent *de;
        while ((de = readdir(dir)) != NULL) {
            size_t len = strlen(de->d_name);
            if (len < 5 || strcmp(de->d_name + len - 5, ".test") != 0)
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dirs[i], de->d_name);
            sweep_synthesis(path, &stuck, &built, &same);
        }
        closedir(dir);
    }
    printf("# %zu stuck traces (fixtures with an event dropped): %zu built, %zu stuck for the "
           "same reason\n",
           stuck, built, same);
    assert_true(stuck > 100);
    assert_int_equal(built, same);
    assert_true(built * 10 >= stuck * 9);
}


/* Cutting a clean real trace after its k-th event (status events restating the state there,
 * sequence numbers renumbered) leaves a trace that reads and validates to its end: the
 * snapshot and the cut restate the state whole. A cut inside a stop-the-world range is the
 * known exception (no status event restates a range in flight): the reducer's bisection
 * steps over such cuts. */
static void test_reduce_cut_restates_the_state(void **state)
{
    (void)state;
    static const char *const traces[] = {
        "go1.25-testprog-stress", "testprog-cgo-callback", "testprog-iter-pull",
        "go1.23-testprog-gc-stress", "testprog-stress-start-stop", "gotest-encoding_json"};
    static const uint64_t ks[] = {2, 100, 1000, 10000, 50000};
    size_t cuts = 0;
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/corpus/real/%s.trace.gz", GTR_SOURCE_DIR, traces[i]);
        gtr_buf wire = {0};
        load(path, &wire);
        for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
            gtr_buf cut = {0};
            if (reduce_cut_trace((const uint8_t *)wire.data, wire.len, ks[j], &cut) != GTR_OK) {
                gtr_buf_free(&cut);
                continue;   /* the trace has fewer events */
            }
            tgen_verdict v;
            assert_int_equal(tgen_judge((const uint8_t *)cut.data, cut.len, NULL, NULL, &v),
                             GTR_OK);
            if (!tgen_verdict_clean(&v))
                fail_msg("%s cut after event %llu: %s%s", traces[i], (unsigned long long)ks[j],
                         v.invalid > 0 ? "validator: " : "",
                         v.invalid > 0 ? v.valid_err.msg : v.end_err.msg);
            /* The cut dropped what came before it. */
            if (ks[j] >= 1000)
                assert_true(cut.len < wire.len);
            tgen_verdict_free(&v);
            gtr_buf_free(&cut);
            cuts++;
        }
        gtr_buf_free(&wire);
    }
    printf("# %zu cuts of real traces read and validate to the end\n", cuts);
    assert_true(cuts >= 20);

    /* Not inside a generation: nothing read yet, or past the end. */
    gtr_buf wire = {0}, cut = {0};
    load(GTR_SOURCE_DIR "/corpus/real/testprog-annotations.trace.gz", &wire);
    assert_int_equal(reduce_cut_trace((const uint8_t *)wire.data, wire.len, 0, &cut), GTR_E_USAGE);
    assert_int_equal(reduce_cut_trace((const uint8_t *)wire.data, wire.len, 1u << 30, &cut),
                     GTR_E_USAGE);
    assert_int_equal(reduce_cut_trace((const uint8_t *)"not a trace", 11, 1, &cut), GTR_E_USAGE);
    gtr_buf_free(&wire);
    gtr_buf_free(&cut);
}

/* last_progress keeps the last progress report in ctx (a reduce_progress). */
static void last_progress(void *ctx, const reduce_progress *p)
{
    *(reduce_progress *)ctx = *p;
}

/* A job's reductions (reduce__job_reduce, what reduce_trace and reduce_diff_trace run): each
 * result becomes the job's trace, the stats and the progress add up over the job, and a
 * budget already spent keeps the trace reduced from. */
static void test_reduce_job_reductions_add_up_under_one_budget(void **state)
{
    gtr_buf wire = {0}, full = {0};
    reduce_progress last = {0};
    reduce__job job = {.progress = last_progress, .progress_ctx = &last,
                       .started = reduce__now()};
    reduce_result r;
    reduce_stats once;
    (void)state;
    memset(&r, 0, sizeof r);
    needle_trace(&wire);
    assert_int_equal(reduce_ddmin((const uint8_t *)wire.data, wire.len, has_needle, NULL, &full,
                                  &once, NULL),
                     GTR_OK);

    assert_int_equal(reduce__job_reduce(&job, (const uint8_t *)wire.data, wire.len, has_needle,
                                        NULL, false, &r, NULL),
                     GTR_OK);
    assert_int_equal(r.wire.len, full.len);
    assert_memory_equal(r.wire.data, full.data, full.len);
    assert_int_equal(r.stats.tests, once.tests);
    assert_int_equal(r.stats.rounds, once.rounds);
    assert_int_equal(last.tests, once.tests);

    /* From the job's own trace (r.wire's bytes): the candidates of both count. */
    assert_int_equal(reduce__job_reduce(&job, (const uint8_t *)r.wire.data, r.wire.len,
                                        has_needle, NULL, false, &r, NULL),
                     GTR_OK);
    assert_int_equal(r.wire.len, full.len);
    assert_memory_equal(r.wire.data, full.data, full.len);
    assert_true(r.stats.tests > once.tests);
    assert_true(r.stats.rounds > once.rounds);
    assert_int_equal(last.tests, r.stats.tests);
    assert_false(r.stats.budget_hit);

    /* The budget spent: no candidate, and the trace reduced from is the result. */
    size_t tests = r.stats.tests;
    job.deadline = reduce__now() - 1;
    assert_int_equal(reduce__job_reduce(&job, (const uint8_t *)r.wire.data, r.wire.len,
                                        has_needle, NULL, false, &r, NULL),
                     GTR_OK);
    assert_true(r.stats.budget_hit);
    assert_memory_equal(r.wire.data, full.data, full.len);
    assert_int_equal(reduce__job_reduce(&job, (const uint8_t *)wire.data, wire.len, has_needle,
                                        NULL, false, &r, NULL),
                     GTR_OK);
    assert_int_equal(r.wire.len, wire.len);
    assert_memory_equal(r.wire.data, wire.data, wire.len);
    assert_int_equal(r.stats.tests, tests);
    reduce_result_free(&r);
    gtr_buf_free(&wire);
    gtr_buf_free(&full);
}

/* The end of a job's result (reduce__job_finish): Go's golden runner, here a stand-in oracle
 * that fails every fixture, judges a fixture only when there is one and an oracle is given;
 * a result with neither a fixture nor its reason says it ran out of memory. */
static void test_reduce_job_finish_asks_go_only_of_a_fixture(void **state)
{
    char dir[] = "/tmp/test_reduce_XXXXXX", oracle[600];
    reduce_result r;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(oracle, sizeof oracle, "%s/oracle", dir);
    const char *script = "#!/bin/sh\necho \"FAIL $2: want this\"\nexit 1\n";
    write_file(oracle, script, strlen(script));
    assert_int_equal(chmod(oracle, 0755), 0);

    memset(&r, 0, sizeof r);
    gtr_buf_puts(&r.fixture, "-- expect --\nSUCCESS\n");
    assert_int_equal(reduce__job_finish(&r, NULL, 10, NULL), GTR_OK);
    assert_false(r.go_rejects);
    assert_int_equal(r.go_check.len, 0);
    assert_int_equal(reduce__job_finish(&r, oracle, 10, NULL), GTR_OK);
    assert_true(r.go_rejects);
    assert_string_equal(r.go_check.data, "want this");
    assert_int_equal(r.why_wire.len, 0);
    reduce_result_free(&r);

    memset(&r, 0, sizeof r);
    gtr_buf_puts(&r.why_wire, "the failure is the validator's");
    assert_int_equal(reduce__job_finish(&r, oracle, 10, NULL), GTR_OK);
    assert_false(r.go_rejects);
    assert_int_equal(r.go_check.len, 0);
    assert_string_equal(r.why_wire.data, "the failure is the validator's");
    reduce_result_free(&r);

    memset(&r, 0, sizeof r);
    assert_int_equal(reduce__job_finish(&r, oracle, 10, NULL), GTR_OK);
    assert_string_equal(r.why_wire.data, "out of memory");
    reduce_result_free(&r);
    unlink(oracle);
    rmdir(dir);
}

/* A pipe's writer that sends "abc", waits until the reader has taken it (the pipe is empty
 * again, so the reader's first read returned those 3 bytes only: a short read) and then
 * sends "defg". */
static void test_fdio_read_exact_goes_on_after_a_short_read(void **state)
{
    int fds[2];
    char got[8] = {0};
    (void)state;
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        if (!reduce_write_all(fds[1], "abc", 3))
            _exit(1);
        int queued = 3;
        for (int waited = 0; queued > 0 && waited < 10000; waited++) {
            if (ioctl(fds[1], FIONREAD, &queued) < 0)
                _exit(2);
            if (queued > 0)
                nanosleep(&(struct timespec){0, 1000000}, NULL);
        }
        _exit(queued == 0 && reduce_write_all(fds[1], "defg", 4) ? 0 : 3);
    }
    close(fds[1]);
    assert_true(reduce_read_exact(fds[0], got, 7));
    assert_memory_equal(got, "abcdefg", 7);
    int ws = 0;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    assert_true(WIFEXITED(ws));
    assert_int_equal(WEXITSTATUS(ws), 0);   /* the reader did see the short read */
    close(fds[0]);
}

static void test_fdio_read_exact_fails_at_the_end_of_the_file_before_n_bytes(void **state)
{
    int fds[2];
    char got[8] = {0};
    (void)state;
    assert_int_equal(pipe(fds), 0);
    assert_true(reduce_write_all(fds[1], "hello", 5));
    close(fds[1]);
    assert_true(reduce_read_exact(fds[0], got, 2));
    assert_memory_equal(got, "he", 2);
    assert_true(reduce_read_exact(fds[0], got, 0));
    assert_false(reduce_read_exact(fds[0], got, 4));   /* "llo", then the end */
    assert_memory_equal(got, "llo", 3);
    assert_false(reduce_read_exact(fds[0], got, 1));
    close(fds[0]);
    assert_false(reduce_read_exact(fds[0], got, 1));   /* a closed descriptor: an error */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_job_reductions_add_up_under_one_budget),
        cmocka_unit_test(test_reduce_job_finish_asks_go_only_of_a_fixture),
        cmocka_unit_test(test_fdio_read_exact_goes_on_after_a_short_read),
        cmocka_unit_test(test_fdio_read_exact_fails_at_the_end_of_the_file_before_n_bytes),
        cmocka_unit_test(test_reduce_message_regexp_escapes_and_frees_numbers),
        cmocka_unit_test(test_reduce_probe_reports_outcomes),
        cmocka_unit_test(test_reduce_api_keeps_only_what_the_predicate_needs),
        cmocka_unit_test(test_reduce_padded_failure_shrinks_to_fixture_that_passes_check),
        cmocka_unit_test(test_reduce_expect_flag_without_match_fails),
        cmocka_unit_test(test_reduce_expect_flag_keeps_matching_failure),
        cmocka_unit_test(test_reduce_go125_first_generation_error_becomes_a_passing_fixture),
        cmocka_unit_test(test_reduce_unnameable_bytes_are_written_as_wire),
        cmocka_unit_test(test_reduce_validator_failure_is_written_as_wire),
        cmocka_unit_test(test_reduce_old_format_trace_shrinks_to_wire),
        cmocka_unit_test(test_reduce_old_format_validator_error_shrinks),
        cmocka_unit_test(test_reduce_expect_reader_error_behind_validator_error),
        cmocka_unit_test(test_reduce_budget_stops_with_an_interesting_result),
        cmocka_unit_test(test_reduce_stuck_trace_keeps_its_reason),
        cmocka_unit_test(test_reduce_synthesis_is_stuck_for_the_same_reason),
        cmocka_unit_test(test_reduce_cut_restates_the_state),
        cmocka_unit_test(test_reduce_reader_error_keeps_its_event),
        cmocka_unit_test(test_reduce_renumbers_shared_ids),
    };
    return cmocka_run_group_tests_name("reduce", tests, NULL, NULL);
}
