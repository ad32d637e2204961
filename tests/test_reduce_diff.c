/* SPDX-License-Identifier: BSD-3-Clause */
/* test_reduce_diff.c: `gotrace reduce --diff` (reduce/diff.c): the divergence signature (robust
 * to shrinking, and no slip: another event kind, message or ending is another divergence),
 * and whole reductions against a stand-in for Go's reader that diverges where told to. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reduce.h"
#include "tgen/fixture.h"
#include "tgen/tgen.h"

#define UPSTREAM GTR_SOURCE_DIR "/corpus/upstream/"

static godiff_reading reading(godiff_end end, const char *dump, const char *msg)
{
    return (godiff_reading){end, dump, strlen(dump), msg, strlen(msg)};
}

/* sig returns the signature of ours against go (static storage, for comparisons). */
static char *sig(const godiff_reading *ours, const godiff_reading *go)
{
    gtr_buf b = {0};
    assert_int_equal(reduce_diff_signature(ours, go, &b), GTR_OK);
    gtr_buf_putc(&b, '\0');
    char *s = strdup(b.data);
    gtr_buf_free(&b);
    return s;
}

static const char ours_dump[] =
    "M=-1 P=-1 G=-1 Sync Time=1 N=1\n"
    "M=0 P=0 G=1 Metric Time=192 Name=\"/memory/classes/heap/objects:bytes\" "
    "Value=Value{Uint64(5)}\n";
static const char go_dump[] =
    "M=-1 P=-1 G=-1 Sync Time=1 N=1\n"
    "M=0 P=0 G=1 Metric Time=192 Name=\"/memory/classes/heap/objects:bytes\" "
    "Value=Value{Uint64(4294967301)}\n";

static void test_signature_of_a_dump_difference_names_the_event_kinds(void **state)
{
    (void)state;
    godiff_reading a = reading(GODIFF_END_EOF, ours_dump, ""), b = reading(GODIFF_END_EOF, go_dump, "");
    char *s = sig(&a, &b);
    assert_string_equal(s, "gotrace: EOF, every event valid; Go: EOF, every event valid; dumps "
                           "differ: the first differing event is gotrace's Metric, Go's Metric");
    free(s);
}

/* A smaller trace diverging on the same kind of event, with other IDs, times and values:
 * the same signature. */
static void test_signature_ignores_ids_times_and_values(void **state)
{
    (void)state;
    godiff_reading a = reading(GODIFF_END_EOF, ours_dump, ""), b = reading(GODIFF_END_EOF, go_dump, "");
    godiff_reading c = reading(GODIFF_END_EOF,
                               "M=3 P=7 G=-1 Metric Time=3 Name=\"x\" Value=Value{Uint64(1)}\n", "");
    godiff_reading d = reading(GODIFF_END_EOF,
                               "M=3 P=7 G=-1 Metric Time=3 Name=\"x\" Value=Value{Uint64(9)}\n", "");
    char *s1 = sig(&a, &b), *s2 = sig(&c, &d);
    assert_string_equal(s1, s2);
    free(s1);
    free(s2);
}

/* The slip: a candidate diverging first on another event kind, or with other endings, is not
 * the input's divergence. */
static void test_signature_rejects_another_event_kind_or_ending(void **state)
{
    (void)state;
    godiff_reading a = reading(GODIFF_END_EOF, ours_dump, ""), b = reading(GODIFF_END_EOF, go_dump, "");
    godiff_reading c = reading(GODIFF_END_EOF,
                               "M=0 P=0 G=1 StateTransition Time=2 GoID=1 Running->Runnable\n", "");
    godiff_reading d = reading(GODIFF_END_EOF,
                               "M=0 P=0 G=1 StateTransition Time=2 GoID=1 Running->Waiting\n", "");
    godiff_reading e = reading(GODIFF_END_READ, ours_dump, "broken");
    godiff_reading f = reading(GODIFF_END_READ, go_dump, "broken");
    char *want = sig(&a, &b), *other_kind = sig(&c, &d), *other_end = sig(&e, &f);
    assert_string_not_equal(want, other_kind);
    assert_non_null(strstr(other_kind, "gotrace's StateTransition, Go's StateTransition"));
    assert_string_not_equal(want, other_end);
    free(want);
    free(other_kind);
    free(other_end);
}

/* Endings differ: both messages, numbers masked; another message is another divergence. */
static void test_signature_of_an_ending_difference_masks_the_messages(void **state)
{
    (void)state;
    godiff_reading ours = reading(GODIFF_END_READ, ours_dump, "bad status for goroutine 12: x\nmore");
    godiff_reading go = reading(GODIFF_END_EOF, ours_dump, "");
    godiff_reading ours2 = reading(GODIFF_END_READ, "", "bad status for goroutine 3: x");
    godiff_reading go2 = reading(GODIFF_END_EOF, "M=0 P=0 G=1 Metric Time=1\n", "");
    godiff_reading ours3 = reading(GODIFF_END_READ, ours_dump, "unknown proc 12");
    char *s1 = sig(&ours, &go), *s2 = sig(&ours2, &go2), *s3 = sig(&ours3, &go);
    assert_string_equal(s1, "gotrace: reader error; Go: EOF, every event valid; endings differ: "
                            "gotrace says bad status for goroutine [0-9]+: x, Go says -");
    assert_string_equal(s1, s2);
    assert_string_not_equal(s1, s3);
    free(s1);
    free(s2);
    free(s3);
}

/* Same ending and dump: the two messages, masked. */
static void test_signature_of_a_message_difference(void **state)
{
    (void)state;
    godiff_reading ours = reading(GODIFF_END_READ, ours_dump, "expected a proc (7)");
    godiff_reading go = reading(GODIFF_END_READ, ours_dump, "expected a goroutine (7)");
    char *s = sig(&ours, &go);
    assert_string_equal(s, "gotrace: reader error; Go: reader error; messages differ: gotrace "
                           "says expected a proc \\([0-9]+\\), Go says expected a goroutine "
                           "\\([0-9]+\\)");
    free(s);
}

/* A difference in a stack frame belongs to the event above it; a dump that ends first is
 * "(end)". */
static void test_signature_of_stack_lines_and_short_dumps(void **state)
{
    (void)state;
    godiff_reading a = reading(GODIFF_END_EOF,
                               "M=1 P=2 G=3 GoCreate Time=4 Stack=\n\tmain.f @ 0x10\n\t\tx.go:1\n", "");
    godiff_reading b = reading(GODIFF_END_EOF,
                               "M=1 P=2 G=3 GoCreate Time=4 Stack=\n\tmain.f @ 0x10\n\t\tx.go:2\n", "");
    godiff_reading c = reading(GODIFF_END_EOF, "M=1 P=2 G=3 GoCreate Time=4\n", "");
    char *s1 = sig(&a, &b), *s2 = sig(&c, &a);
    assert_non_null(strstr(s1, "gotrace's GoCreate, Go's GoCreate"));
    assert_non_null(strstr(s2, "gotrace's GoCreate, Go's GoCreate"));
    free(s1);
    free(s2);
    godiff_reading d = reading(GODIFF_END_EOF, "M=1 P=2 G=3 Sync Time=4\n", "");
    godiff_reading e = reading(GODIFF_END_EOF, "M=1 P=2 G=3 Sync Time=4\nM=1 P=2 G=3 Log1 X\n", "");
    char *s3 = sig(&d, &e);
    assert_non_null(strstr(s3, "gotrace's (end), Go's LogN"));
    free(s3);
}

/* ---- Whole reductions, with a stand-in for Go: gotrace's own reading with every line
 * holding one of `marks` changed, so the two diverge on those events only. ---- */

typedef struct fake_go {
    const char *marks[2];
    size_t runs;
} fake_go;

/* holds: s[0..n) contains mark. */
static bool holds(const char *s, size_t n, const char *mark)
{
    size_t m = strlen(mark);
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(s + i, mark, m) == 0)
            return true;
    return false;
}

static bool fake_go_read(void *ctx, const uint8_t *data, size_t size, godiff_owned *out)
{
    fake_go *f = ctx;
    gtr_buf dump = {0}, changed = {0};
    gtr_err err = GTR_ERR_INIT;
    f->runs++;
    godiff_end end = godiff_read_ours(data, size, GODIFF_GO_MINOR, &dump, &err);
    for (size_t at = 0; at < dump.len;) {
        const char *nl = memchr(dump.data + at, '\n', dump.len - at);
        size_t n = nl != NULL ? (size_t)(nl - (dump.data + at)) + 1 : dump.len - at;
        gtr_buf_append(&changed, dump.data + at, n);
        for (int i = 0; i < 2; i++) {
            if (f->marks[i] != NULL && holds(dump.data + at, n, f->marks[i])) {
                changed.len--;   /* the newline */
                gtr_buf_puts(&changed, " (Go's way)\n");
                break;
            }
        }
        at += n;
    }
    size_t mlen = 0;
    const char *msg = end == GODIFF_END_EOF ? "" : gtr_err_text(&err, &mlen);
    out->dump = malloc(changed.len + 1);
    out->msg = malloc(mlen + 1);
    assert_non_null(out->dump);
    assert_non_null(out->msg);
    if (changed.len > 0)
        memcpy(out->dump, changed.data, changed.len);
    memcpy(out->msg, msg, mlen);
    out->r = (godiff_reading){end, out->dump, changed.len, out->msg, mlen};
    gtr_buf_free(&dump);
    gtr_buf_free(&changed);
    gtr_err_clear(&err);
    return true;
}

static void load(const char *path, gtr_buf *b)
{
    gtr_err err = GTR_ERR_INIT;
    if (tgen_load_trace(path, b, NULL, &err) < 0)
        fail_msg("%s: %s", path, err.msg);
}

static void test_reduce_diff_keeps_the_divergence_and_writes_go_verdict(void **state)
{
    (void)state;
    gtr_buf in = {0};
    load(UPSTREAM "go122-annotations.test", &in);
    fake_go f = {{" Metric ", NULL}, 0};
    reduce_options opt = {.timeout_s = 10};
    reduce_diff_options d = {.go = fake_go_read, .go_ctx = &f, .go_runs = 4};
    reduce_result r;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(reduce_diff_trace((const uint8_t *)in.data, in.len, &opt, &d, &r, &err), GTR_OK);
    assert_int_equal(r.kind, REDUCE_KEEP_DIVERGENCE);
    gtr_buf_putc(&r.kept, '\0');
    assert_non_null(strstr(r.kept.data, "gotrace's Metric, Go's Metric"));
    assert_true(r.wire.len < in.len / 4);
    assert_true(r.out_events < r.in_events);
    /* Go's verdict (the stand-in reads to the end) is the expectation, and the fixture's trace
     * still diverges on a Metric event. */
    assert_true(r.fixture.len > 0);
    gtr_buf_putc(&r.fixture, '\0');
    assert_non_null(strstr(r.fixture.data, "-- expect --\nSUCCESS\n"));
    assert_non_null(strstr(r.fixture.data, "a divergence fixture"));
    assert_non_null(strstr(r.fixture.data, "-- trace --\nTrace Go1.22\n"));
    assert_non_null(strstr(r.fixture.data, "\n  gotrace: M="));
    assert_non_null(strstr(r.fixture.data, " Metric Time="));
    reduce_result_free(&r);
    gtr_buf_free(&in);
}

/* With Go diverging on two kinds of event, the reduction keeps the kind the input diverges on
 * first, never slipping to the other, though a trace with the other alone would be smaller
 * or as small. */
/* signature_of appends to out the signature of data[0..size) against the stand-in. */
static void signature_of(const uint8_t *data, size_t size, fake_go *f, gtr_buf *out)
{
    gtr_buf dump = {0};
    gtr_err err = GTR_ERR_INIT;
    godiff_end end = godiff_read_ours(data, size, GODIFF_GO_MINOR, &dump, &err);
    size_t mlen = 0;
    const char *msg = end == GODIFF_END_EOF ? "" : gtr_err_text(&err, &mlen);
    godiff_owned go;
    assert_true(fake_go_read(f, data, size, &go));
    godiff_reading ours = {end, dump.data != NULL ? dump.data : "", dump.len, msg, mlen};
    assert_int_equal(reduce_diff_signature(&ours, &go.r, out), GTR_OK);
    godiff_owned_free(&go);
    gtr_buf_free(&dump);
    gtr_err_clear(&err);
}

/* With Go diverging on two kinds of event, the reduced trace diverges first on the kind the
 * input diverges on first, never slipping to the other. Both orders of the marks are tried,
 * so that one of them makes the input's first kind the one whose events come later. */
static void test_reduce_diff_does_not_slip_to_another_event_kind(void **state)
{
    (void)state;
    gtr_buf in = {0};
    load(UPSTREAM "go122-annotations.test", &in);
    const char *kinds[2] = {" Metric ", " UserTaskBegin "};
    for (int order = 0; order < 2; order++) {
        fake_go f = {{kinds[order], kinds[1 - order]}, 0};
        reduce_options opt = {.timeout_s = 10};
        reduce_diff_options d = {.go = fake_go_read, .go_ctx = &f, .go_runs = 2};
        reduce_result r;
        gtr_err err = GTR_ERR_INIT;
        gtr_buf want = {0}, got = {0};
        signature_of((const uint8_t *)in.data, in.len, &f, &want);
        assert_int_equal(reduce_diff_trace((const uint8_t *)in.data, in.len, &opt, &d, &r, &err),
                         GTR_OK);
        signature_of((const uint8_t *)r.wire.data, r.wire.len, &f, &got);
        assert_int_equal(got.len, want.len);
        assert_memory_equal(got.data, want.data, want.len);
        assert_true(r.wire.len < in.len);
        reduce_result_free(&r);
        gtr_buf_free(&want);
        gtr_buf_free(&got);
    }
    gtr_buf_free(&in);
}

static void test_reduce_diff_refuses_an_input_both_read_alike(void **state)
{
    (void)state;
    gtr_buf in = {0};
    load(UPSTREAM "go122-annotations.test", &in);
    fake_go f = {{NULL, NULL}, 0};
    reduce_options opt = {.timeout_s = 10};
    reduce_diff_options d = {.go = fake_go_read, .go_ctx = &f};
    reduce_result r;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(reduce_diff_trace((const uint8_t *)in.data, in.len, &opt, &d, &r, &err),
                     GTR_E_USAGE);
    assert_non_null(strstr(err.msg, "gotrace and Go agree on the input"));
    gtr_err_clear(&err);
    /* --expect cannot go with it. */
    opt.expect = "x";
    opt.expect_len = 1;
    assert_int_equal(reduce_diff_trace((const uint8_t *)in.data, in.len, &opt, &d, &r, &err),
                     GTR_E_USAGE);
    gtr_err_clear(&err);
    gtr_buf_free(&in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signature_of_a_dump_difference_names_the_event_kinds),
        cmocka_unit_test(test_signature_ignores_ids_times_and_values),
        cmocka_unit_test(test_signature_rejects_another_event_kind_or_ending),
        cmocka_unit_test(test_signature_of_an_ending_difference_masks_the_messages),
        cmocka_unit_test(test_signature_of_a_message_difference),
        cmocka_unit_test(test_signature_of_stack_lines_and_short_dumps),
        cmocka_unit_test(test_reduce_diff_keeps_the_divergence_and_writes_go_verdict),
        cmocka_unit_test(test_reduce_diff_does_not_slip_to_another_event_kind),
        cmocka_unit_test(test_reduce_diff_refuses_an_input_both_read_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
