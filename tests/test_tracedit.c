/* SPDX-License-Identifier: BSD-3-Clause */
/* test_structure.c: the trace structure model (fuzz/structure/include/fs/model.h). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tgen/fixture.h"
#include "tgen/judge.h"
#include "tracedit.h"

#define UPSTREAM GTR_SOURCE_DIR "/corpus/upstream"
#define REAL GTR_SOURCE_DIR "/corpus/real"

static void load(const char *path, gtr_buf *b)
{
    gtr_err err = GTR_ERR_INIT;
    gtr_buf_reset(b);
    if (tgen_load_trace(path, b, NULL, &err) < 0)
        fail_msg("%s: %s", path, err.msg);
}

/* for_each_file calls fn on every file of dir ending in suffix (at most max bytes big). */
static int for_each_file(const char *dir, const char *suffix, long max,
                         void (*fn)(const char *path, void *ctx), void *ctx)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name), k = strlen(suffix);
        char path[1024];
        if (l < k || strcmp(e->d_name + l - k, suffix) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fclose(f);
        if (size > max)
            continue;
        fn(path, ctx);
        n++;
    }
    closedir(d);
    return n;
}

static size_t tails(const tracedit_trace *t)
{
    size_t n = t->tail_len;
    for (size_t b = 0; b < t->nbatches; b++)
        if (t->batches[b].kind == GTR_EV_EVENT_BATCH)
            n += t->batches[b].tail_len;
    return n;
}

static void roundtrip_identical(const char *path, void *ctx)
{
    gtr_buf wire = {0}, out = {0};
    tracedit_trace t = {0};
    load(path, &wire);
    assert_int_equal(tracedit_decode(&t, (const uint8_t *)wire.data, wire.len, NULL), GTR_OK);
    assert_true(t.has_header);
    assert_true(t.nbatches > 0);
    /* Everything decodes but for go122-fail-first-gen-first, whose last batch is cut short. */
    if (tails(&t) == 0)
        ++*(int *)ctx;
    assert_int_equal(tracedit_encode(&t, &out, NULL), GTR_OK);
    assert_int_equal(out.len, wire.len);
    assert_memory_equal(out.data, wire.data, wire.len);
    tracedit_trace_free(&t);
    gtr_buf_free(&wire);
    gtr_buf_free(&out);
}

static void test_structure_fixture_roundtrip_byte_identical(void **state)
{
    int decoded = 0;
    (void)state;
    assert_int_equal(for_each_file(UPSTREAM, ".test", 1L << 20, roundtrip_identical, &decoded),
                     22);
    assert_int_equal(decoded, 21);
}

/* Real traces carry fixed-width (non-canonical) batch sizes, so the bytes change; the events
 * read from them must not. */
static void roundtrip_same_events(const char *path, void *ctx)
{
    gtr_buf wire = {0}, out = {0}, d1 = {0}, d2 = {0};
    tracedit_trace t = {0};
    tgen_verdict r1, r2;
    (void)ctx;
    load(path, &wire);
    assert_int_equal(tracedit_decode(&t, (const uint8_t *)wire.data, wire.len, NULL), GTR_OK);
    assert_int_equal(t.tail_len, 0);
    assert_int_equal(tracedit_encode(&t, &out, NULL), GTR_OK);
    assert_int_equal(tgen_judge((const uint8_t *)wire.data, wire.len, NULL, &d1, &r1), GTR_OK);
    assert_int_equal(tgen_judge((const uint8_t *)out.data, out.len, NULL, &d2, &r2), GTR_OK);
    assert_true(tgen_verdict_clean(&r1));
    assert_true(tgen_verdict_clean(&r2));
    assert_true(r1.events > 0);
    assert_int_equal(r1.events, r2.events);
    assert_int_equal(d1.len, d2.len);
    assert_memory_equal(d1.data, d2.data, d1.len);
    /* And encoding is idempotent. */
    gtr_buf again = {0};
    assert_int_equal(tracedit_decode(&t, (const uint8_t *)out.data, out.len, NULL), GTR_OK);
    assert_int_equal(tracedit_encode(&t, &again, NULL), GTR_OK);
    assert_int_equal(again.len, out.len);
    assert_memory_equal(again.data, out.data, out.len);
    gtr_buf_free(&again);
    tracedit_trace_free(&t);
    gtr_buf_free(&wire);
    gtr_buf_free(&out);
    gtr_buf_free(&d1);
    gtr_buf_free(&d2);
}

static void test_structure_real_trace_roundtrip_same_events(void **state)
{
    (void)state;
    assert_true(for_each_file(REAL, ".trace.gz", 8000, roundtrip_same_events, NULL) >= 5);
}

static void test_structure_every_prefix_roundtrip_byte_identical(void **state)
{
    gtr_buf wire = {0}, out = {0};
    tracedit_trace t = {0};
    (void)state;
    load(UPSTREAM "/go122-confuse-seq-across-generations.test", &wire);
    for (size_t n = 0; n <= wire.len; n++) {
        gtr_buf_reset(&out);
        assert_int_equal(tracedit_decode(&t, (const uint8_t *)wire.data, n, NULL), GTR_OK);
        assert_int_equal(tracedit_encode(&t, &out, NULL), GTR_OK);
        assert_int_equal(out.len, n);
        if (n > 0)
            assert_memory_equal(out.data, wire.data, n);
    }
    tracedit_trace_free(&t);
    gtr_buf_free(&wire);
    gtr_buf_free(&out);
}

static void test_structure_unknown_header_kept_opaque(void **state)
{
    static const char v1[] = "go 1.21 trace\0\0\0\x01\x02\x03";
    static const char junk[] = "not a trace at all";
    tracedit_trace t = {0};
    gtr_buf out = {0};
    (void)state;
    assert_int_equal(tracedit_decode(&t, (const uint8_t *)v1, sizeof v1 - 1, NULL), GTR_OK);
    assert_false(t.has_header);
    assert_int_equal(t.nbatches, 0);
    assert_int_equal(t.tail_len, sizeof v1 - 1);
    assert_int_equal(tracedit_encode(&t, &out, NULL), GTR_OK);
    assert_memory_equal(out.data, v1, sizeof v1 - 1);
    gtr_buf_reset(&out);
    assert_int_equal(tracedit_decode(&t, (const uint8_t *)junk, sizeof junk - 1, NULL), GTR_OK);
    assert_int_equal(tracedit_encode(&t, &out, NULL), GTR_OK);
    assert_int_equal(out.len, sizeof junk - 1);
    assert_memory_equal(out.data, junk, sizeof junk - 1);
    tracedit_trace_free(&t);
    gtr_buf_free(&out);
}

static void test_structure_garbage_decodes_and_encoding_is_idempotent(void **state)
{
    uint8_t buf[600];
    tracedit_trace t = {0};
    gtr_buf a = {0}, b = {0};
    uint64_t x = 88172645463325252ULL;
    (void)state;
    for (int round = 0; round < 2000; round++) {
        size_t n = 16 + (size_t)(round % 500);
        memcpy(buf, "go 1.22 trace\0\0\0", 16);
        for (size_t i = 16; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            /* Mostly small bytes so that batches and events do parse. */
            buf[i] = (uint8_t)((x & 3) ? (x >> 8) % 40 : (x >> 8));
        }
        gtr_buf_reset(&a);
        gtr_buf_reset(&b);
        assert_int_equal(tracedit_decode(&t, buf, n, NULL), GTR_OK);
        assert_int_equal(tracedit_encode(&t, &a, NULL), GTR_OK);
        assert_true(a.len <= n);
        assert_int_equal(tracedit_decode(&t, (const uint8_t *)a.data, a.len, NULL), GTR_OK);
        assert_int_equal(tracedit_encode(&t, &b, NULL), GTR_OK);
        assert_int_equal(a.len, b.len);
        assert_memory_equal(a.data, b.data, a.len);
    }
    tracedit_trace_free(&t);
    gtr_buf_free(&a);
    gtr_buf_free(&b);
}

static void test_structure_inserted_event_batch_size_recomputed(void **state)
{
    gtr_buf wire = {0}, out = {0};
    tracedit_trace t = {0}, u = {0};
    (void)state;
    load(UPSTREAM "/go122-task-across-generations.test", &wire);
    assert_int_equal(tracedit_decode(&t, (const uint8_t *)wire.data, wire.len, NULL), GTR_OK);
    /* Duplicate the last event of the first batch and append a string with data. */
    size_t nev = t.batches[0].nev;
    uint32_t idx, sidx;
    assert_true(nev > 0);
    assert_int_equal(tracedit_dup_event(&t, t.batches[0].evs[nev - 1], &idx), GTR_OK);
    assert_int_equal(tracedit_batch_insert(&t, 0, nev, idx), GTR_OK);
    uint64_t id = 4242;
    assert_int_equal(tracedit_add_event(&t, GTR_EV_STRING, &id, 1, true, (const uint8_t *)"hello",
                                      5, &sidx),
                     GTR_OK);
    assert_int_equal(tracedit_batch_insert(&t, 0, 0, sidx), GTR_OK);
    assert_int_equal(tracedit_encode(&t, &out, NULL), GTR_OK);
    assert_true(out.len > wire.len);
    assert_int_equal(tracedit_decode(&u, (const uint8_t *)out.data, out.len, NULL), GTR_OK);
    assert_int_equal(u.nbatches, t.nbatches);
    assert_int_equal(u.batches[0].nev, nev + 2);
    assert_int_equal(tails(&u), 0);
    const tracedit_event *s = &u.events[u.batches[0].evs[0]];
    assert_int_equal(s->type, GTR_EV_STRING);
    assert_int_equal(s->data_len, 5);
    assert_memory_equal(u.bytes + s->data, "hello", 5);
    assert_int_equal(tracedit_event_args(&u, u.batches[0].evs[0])[0], 4242);
    tracedit_trace_free(&t);
    tracedit_trace_free(&u);
    gtr_buf_free(&wire);
    gtr_buf_free(&out);
}

static void test_structure_stack_frame_count_recomputed(void **state)
{
    tracedit_trace t = {0}, u = {0};
    gtr_buf out = {0};
    uint64_t args[2 + 8] = {7, 99, 1, 2, 3, 4, 5, 6, 7, 8};   /* nframes 99 is wrong: 2 */
    uint32_t idx;
    (void)state;
    assert_int_equal(tracedit_decode(&t, (const uint8_t *)"go 1.23 trace\0\0\0", 16, NULL), GTR_OK);
    assert_int_equal(tracedit_insert_batch(&t, 0, &(tracedit_batch){.kind = GTR_EV_EVENT_BATCH,
                                                                .gen = 1, .m = 3}),
                     GTR_OK);
    assert_int_equal(tracedit_add_event(&t, GTR_EV_STACKS, NULL, 0, false, NULL, 0, &idx), GTR_OK);
    assert_int_equal(tracedit_batch_insert(&t, 0, 0, idx), GTR_OK);
    assert_int_equal(tracedit_add_event(&t, GTR_EV_STACK, args, 10, false, NULL, 0, &idx), GTR_OK);
    assert_int_equal(tracedit_batch_insert(&t, 0, 1, idx), GTR_OK);
    assert_int_equal(tracedit_encode(&t, &out, NULL), GTR_OK);
    /* header, batch byte, gen 1, m 3, time 0, size 12, Stacks, Stack 7 2 1..8 */
    static const uint8_t want[] = {1, 1, 3, 0, 12, 2, 3, 7, 2, 1, 2, 3, 4, 5, 6, 7, 8};
    assert_int_equal(out.len, 16 + sizeof want);
    assert_memory_equal(out.data + 16, want, sizeof want);
    assert_int_equal(tracedit_decode(&u, (const uint8_t *)out.data, out.len, NULL), GTR_OK);
    assert_int_equal(u.batches[0].nev, 2);
    assert_int_equal(tracedit_batch_body_size(&u, 0), 12);
    tracedit_trace_free(&t);
    tracedit_trace_free(&u);
    gtr_buf_free(&out);
}

static void test_structure_experimental_batch_body_kept_opaque(void **state)
{
    gtr_buf wire = {0}, out = {0};
    tracedit_trace t = {0};
    (void)state;
    load(REAL "/testprog-annotations-stress.allocfree.trace.gz", &wire);
    assert_int_equal(tracedit_decode(&t, (const uint8_t *)wire.data, wire.len, NULL), GTR_OK);
    size_t nexp = 0;
    for (size_t b = 0; b < t.nbatches; b++) {
        if (t.batches[b].kind == GTR_EV_EXPERIMENTAL_BATCH) {
            nexp++;
            assert_int_equal(t.batches[b].nev, 0);
            assert_true(t.batches[b].tail_len > 0);
            assert_int_equal(t.batches[b].exp, GTR_EXP_ALLOC_FREE);
        }
    }
    assert_true(nexp > 0);
    assert_int_equal(tracedit_encode(&t, &out, NULL), GTR_OK);
    tgen_verdict r;
    assert_int_equal(tgen_judge((const uint8_t *)out.data, out.len, NULL, NULL, &r), GTR_OK);
    assert_true(tgen_verdict_clean(&r));
    tracedit_trace_free(&t);
    gtr_buf_free(&wire);
    gtr_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_structure_fixture_roundtrip_byte_identical),
        cmocka_unit_test(test_structure_real_trace_roundtrip_same_events),
        cmocka_unit_test(test_structure_every_prefix_roundtrip_byte_identical),
        cmocka_unit_test(test_structure_unknown_header_kept_opaque),
        cmocka_unit_test(test_structure_garbage_decodes_and_encoding_is_idempotent),
        cmocka_unit_test(test_structure_inserted_event_batch_size_recomputed),
        cmocka_unit_test(test_structure_stack_frame_count_recomputed),
        cmocka_unit_test(test_structure_experimental_batch_body_kept_opaque),
    };
    return cmocka_run_group_tests_name("structure", tests, NULL, NULL);
}
