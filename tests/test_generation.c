/* SPDX-License-Identifier: BSD-3-Clause */
/* test_generation.c: the per-generation event table (base.c), reading generations
 * (generation.c: spill before Go 1.26, end-of-generation after, batch grouping by M, CPU
 * samples), and the reader's bounded memory over many generations. */
#include <math.h>

#include "test_reader_util.h"

#include "base.h"
#include "generation.h"

/* ---- A counting allocator: live and peak bytes. ---- */

typedef struct counter {
    size_t live, peak, calls;
} counter;

#define HDR 16

static void *cnt_malloc(void *ctx, size_t n)
{
    counter *c = ctx;
    unsigned char *p = malloc(n + HDR);
    if (p == NULL)
        return NULL;
    memcpy(p, &n, sizeof n);
    c->live += n;
    c->calls++;
    if (c->live > c->peak)
        c->peak = c->live;
    return p + HDR;
}

static void cnt_free(void *ctx, void *ptr)
{
    counter *c = ctx;
    if (ptr == NULL)
        return;
    unsigned char *p = (unsigned char *)ptr - HDR;
    size_t n;
    memcpy(&n, p, sizeof n);
    c->live -= n;
    free(p);
}

static void *cnt_realloc(void *ctx, void *ptr, size_t n)
{
    counter *c = ctx;
    if (ptr == NULL)
        return cnt_malloc(ctx, n);
    unsigned char *p = (unsigned char *)ptr - HDR;
    size_t old;
    memcpy(&old, p, sizeof old);
    unsigned char *q = realloc(p, n + HDR);
    if (q == NULL)
        return NULL;
    memcpy(q, &n, sizeof n);
    c->live = c->live - old + n;
    c->calls++;
    if (c->live > c->peak)
        c->peak = c->live;
    return q + HDR;
}

static gtr_alloc counting_alloc(counter *c)
{
    memset(c, 0, sizeof *c);
    gtr_alloc a = {cnt_malloc, cnt_realloc, cnt_free, c};
    return a;
}

/* ---- The table. ---- */

static gtr__ev_table *new_table(void)
{
    gtr__ev_table *t;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr__evt_new(NULL, &t, &err), GTR_OK);
    return t;
}

static void test_generation_table_duplicate_ids_fail(void **state)
{
    (void)state;
    gtr__ev_table *t = new_table();
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr__evt_add_string(t, 1, "foo", 3, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_string(t, 1, "bar", 3, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "multiple strings with the same ID: id=1, new=bar, existing=foo");
    /* ID 0 is always present (the empty string / the empty stack). */
    assert_int_equal(gtr__evt_add_string(t, 0, "x", 1, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "multiple strings with the same ID: id=0, new=x, existing=");

    const uint64_t a[1] = {0x1234}, b[2] = {1, 0};
    assert_int_equal(gtr__evt_add_stack(t, 1, a, 1, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_stack(t, 1, b, 2, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "multiple trace.stacks with the same ID: id=1, new=\t0x1\n\t0x0\n, "
                                 "existing=\t0x1234\n");
    assert_int_equal(gtr__evt_add_stack(t, 0, a, 1, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg,
                        "multiple trace.stacks with the same ID: id=0, new=\t0x1234\n, existing=");
    gtr__evt_free(t);
}

static void check_string_in_agrees(const gtr__ev_table *t, const gtr__evt_id_index *x,
                                   uint64_t id)
{
    gtr_str s, s_in;
    bool found = gtr__evt_string(t, id, &s);
    assert_int_equal(gtr__evt_string_in(t, x, id, &s_in), found);
    if (found)
        assert_ptr_equal(s_in.data, s.data);
}

/* Lookups before and after compactify, for dense and for sparse IDs: gtr__evt_string, and
 * gtr__evt_string_in with the table's index as it stands (a dense ID answered inline, any
 * other by the table). */
static void check_strings(const gtr__ev_table *t, const uint64_t *ids, size_t n)
{
    char want[32];
    gtr_str s, s_in;
    const gtr__evt_id_index x = gtr__evt_id_index_of(t);
    for (size_t i = 0; i < n; i++) {
        snprintf(want, sizeof want, "s%llu", (unsigned long long)ids[i]);
        assert_true(gtr__evt_string(t, ids[i], &s));
        assert_int_equal(s.len, strlen(want));
        assert_memory_equal(s.data, want, s.len + 1);   /* NUL-terminated */
        assert_true(gtr__evt_string_in(t, &x, ids[i], &s_in));
        assert_ptr_equal(s_in.data, s.data);
        assert_int_equal(s_in.len, s.len);
    }
    assert_true(gtr__evt_string(t, 0, &s));
    assert_int_equal(s.len, 0);
    assert_true(gtr__evt_string_in(t, &x, 0, &s_in));
    assert_int_equal(s_in.len, 0);
    /* Every ID up to past the dense part, and one far above: the two agree. */
    for (uint64_t id = 0; id <= x.nstrings + 2; id++)
        check_string_in_agrees(t, &x, id);
    check_string_in_agrees(t, &x, UINT64_MAX - 2);
}

static void fill_strings(gtr__ev_table *t, const uint64_t *ids, size_t n)
{
    char buf[32];
    gtr_err err = GTR_ERR_INIT;
    for (size_t i = 0; i < n; i++) {
        int len = snprintf(buf, sizeof buf, "s%llu", (unsigned long long)ids[i]);
        assert_int_equal(gtr__evt_add_string(t, ids[i], buf, (size_t)len, &err), GTR_OK);
    }
}

static void test_generation_table_sparse_and_dense_ids_lookup(void **state)
{
    (void)state;
    gtr__ev_table *t = new_table();
    gtr_err err = GTR_ERR_INIT;
    gtr_str s;

    /* Dense: 1..300 out of order. */
    uint64_t dense[300];
    for (size_t i = 0; i < 300; i++)
        dense[i] = (uint64_t)((i * 7) % 300) + 1;
    fill_strings(t, dense, 300);
    check_strings(t, dense, 300);
    assert_int_equal(gtr__evt_compactify(t, &err), GTR_OK);
    check_strings(t, dense, 300);
    assert_false(gtr__evt_string(t, 301, &s));
    assert_false(gtr__evt_string(t, UINT64_MAX, &s));
    /* Inserting after compactify still works, and still detects duplicates. */
    const uint64_t late[2] = {1000, 301};
    fill_strings(t, late, 2);
    check_strings(t, late, 2);
    assert_int_equal(gtr__evt_add_string(t, 150, "x", 1, &err), GTR_E_FORMAT);
    assert_int_equal(gtr__evt_nstrings(t), 302);

    /* Sparse: huge IDs stay in the hash (Go's compactify refuses them). */
    gtr__evt_reset(t);
    assert_false(gtr__evt_string(t, 1, &s));
    assert_int_equal(gtr__evt_nstrings(t), 0);
    const uint64_t sparse[5] = {UINT64_MAX, (uint64_t)1 << 40, 3, (uint64_t)INT64_MAX, 77777};
    fill_strings(t, sparse, 5);
    assert_int_equal(gtr__evt_compactify(t, &err), GTR_OK);
    check_strings(t, sparse, 5);
    assert_false(gtr__evt_string(t, 4, &s));
    assert_false(gtr__evt_string(t, UINT64_MAX - 1, &s));
    gtr__evt_free(t);
}

static void test_generation_table_frames_first_definition_wins(void **state)
{
    (void)state;
    gtr__ev_table *t = new_table();
    gtr_err err = GTR_ERR_INIT;
    gtr__frame f = {0x10, 1, 2, 3}, g = {0x10, 4, 5, 6}, got;
    assert_int_equal(gtr__evt_add_frame(t, &f, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_frame(t, &g, &err), GTR_OK);
    assert_true(gtr__evt_frame(t, 0x10, &got));
    assert_int_equal(got.func_id, 1);
    assert_int_equal(got.line, 3);
    assert_false(gtr__evt_frame(t, 0x11, &got));
    gtr__evt_free(t);
}

static void test_generation_table_unknown_pc_fails(void **state)
{
    (void)state;
    gtr__ev_table *t = new_table();
    gtr_err err = GTR_ERR_INIT;
    const uint64_t pcs[2] = {0x10, 0x4d2};
    gtr__frame f = {0x10, 0, 0, 3};
    assert_int_equal(gtr__evt_add_frame(t, &f, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_stack(t, 3, pcs, 2, &err), GTR_OK);
    assert_int_equal(gtr__evt_compactify(t, &err), GTR_OK);
    assert_int_equal(gtr__evt_validate_stack_strings(t, &err), GTR_E_FORMAT);
    assert_string_equal(err.msg, "found unknown pc 4d2 for stack 3");
    const uint64_t *got;
    size_t n;
    assert_true(gtr__evt_stack(t, 3, &got, &n));
    assert_int_equal(n, 2);
    assert_int_equal(got[1], 0x4d2);
    assert_true(gtr__evt_stack(t, 0, &got, &n));
    assert_int_equal(n, 0);
    assert_false(gtr__evt_stack(t, 4, &got, &n));
    gtr__evt_free(t);
}

static void test_generation_table_extra_strings_interned(void **state)
{
    (void)state;
    gtr__ev_table *t = new_table();
    gtr_err err = GTR_ERR_INIT;
    uint64_t a, b, c, z;
    assert_int_equal(gtr__evt_add_extra_string(t, "", 0, &z, &err), GTR_OK);
    assert_int_equal(z, 0);
    assert_int_equal(gtr__evt_add_extra_string(t, "alpha", 5, &a, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_extra_string(t, "beta", 4, &b, &err), GTR_OK);
    /* Enough strings to rehash the index. */
    for (int i = 0; i < 100; i++) {
        char buf[16];
        int n = snprintf(buf, sizeof buf, "k%d", i);
        uint64_t id;
        assert_int_equal(gtr__evt_add_extra_string(t, buf, (size_t)n, &id, &err), GTR_OK);
        assert_int_equal(id, (uint64_t)i + 3);
    }
    assert_int_equal(gtr__evt_add_extra_string(t, "alpha", 5, &c, &err), GTR_OK);
    assert_int_equal(a, 1);
    assert_int_equal(b, 2);
    assert_int_equal(c, a);
    gtr_str s = gtr__evt_extra_string(t, b);
    assert_int_equal(s.len, 4);
    assert_string_equal(s.data, "beta");
    assert_int_equal(gtr__evt_extra_string(t, 0).len, 0);
    gtr__evt_free(t);
}

/* gtr__evt_extra_of_string gives what gtr__evt_add_extra_string of the string's text gives,
 * in the same order of first additions, and forgets with a reset. */
static void test_generation_table_extra_of_string_is_add_of_its_text(void **state)
{
    (void)state;
    gtr__ev_table *t = new_table();
    gtr_err err = GTR_ERR_INIT;
    uint64_t id;
    for (int round = 0; round < 2; round++) {
        assert_int_equal(gtr__evt_add_string(t, 7, "step", 4, &err), GTR_OK);
        assert_int_equal(gtr__evt_add_string(t, 9, "walk", 4, &err), GTR_OK);
        assert_int_equal(gtr__evt_add_string(t, 11, "step", 4, &err), GTR_OK); /* a twin */
        assert_int_equal(gtr__evt_add_extra_string(t, "walk", 4, &id, &err), GTR_OK);
        assert_int_equal(id, 1); /* already there by text */
        assert_int_equal(gtr__evt_extra_of_string(t, 7, &id, &err), GTR_OK);
        assert_int_equal(id, 2);
        assert_int_equal(gtr__evt_extra_of_string(t, 9, &id, &err), GTR_OK);
        assert_int_equal(id, 1);
        assert_int_equal(gtr__evt_extra_of_string(t, 11, &id, &err), GTR_OK);
        assert_int_equal(id, 2);
        assert_int_equal(gtr__evt_extra_of_string(t, 7, &id, &err), GTR_OK);
        assert_int_equal(id, 2);
        assert_int_equal(gtr__evt_extra_of_string(t, 0, &id, &err), GTR_OK);
        assert_int_equal(id, 0);
        /* A string added later is looked up too. */
        assert_int_equal(gtr__evt_add_string(t, 12, "run", 3, &err), GTR_OK);
        assert_int_equal(gtr__evt_extra_of_string(t, 12, &id, &err), GTR_OK);
        assert_int_equal(id, 3);
        assert_int_equal(gtr__evt_extra_string(t, 3).len, 3);
        /* The next generation starts empty: no ID is remembered across the reset. */
        gtr__evt_reset(t);
    }
    gtr__evt_free(t);
}

static void test_generation_freq_mul_out_of_range_is_int64_min(void **state)
{
    (void)state;
    assert_int_equal(gtr__freq_mul(64.0, 100), 6400);
    assert_int_equal(gtr__freq_mul(1.0 / (15625000.0 / 1e9), 3), 192);
    assert_int_equal(gtr__freq_mul(1e9, UINT64_MAX), INT64_MIN);
    /* Frequency 0 gives +Inf ns per unit; Inf * 0 is NaN. */
    double inf = INFINITY;
    assert_int_equal(gtr__freq_mul(inf, 5), INT64_MIN);
    assert_int_equal(gtr__freq_mul(inf, 0), INT64_MIN);
}

static void test_generation_table_limits_fail(void **state)
{
    (void)state;
    gtr__ev_table *t = new_table();
    gtr_err err = GTR_ERR_INIT;
    assert_null(gtr__evt_alloc(t, GTR__EVT_ALLOC_MAX + 1));
    void *p = gtr__evt_alloc(t, GTR__EVT_ALLOC_MAX);
    assert_non_null(p);
    memset(p, 0xab, GTR__EVT_ALLOC_MAX);
    assert_int_equal(gtr__evt_add_exp_batch(t, 0, 1, (const uint8_t *)"x", 1, true, &err),
                     GTR_E_USAGE);
    assert_string_equal(err.msg, "internal error: addExperimentalBatch called on "
                                 "non-experimental batch");
    assert_int_equal(gtr__evt_add_exp_batch(t, 1, 1, (const uint8_t *)"x", 1, true, &err),
                     GTR_OK);
    gtr__evt_free(t);
    gtr__evt_free(NULL);
}

/* ---- Reading generations. ---- */

typedef struct gen_fixture {
    gtr_input *in;
    gtr__generation *g;
} gen_fixture;

static void gen_open(gen_fixture *f, tb *t, int version)
{
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(t->out.data, t->out.len, NULL, &f->in, &err), GTR_OK);
    gtr_go_version v;
    assert_int_equal(gtr_header_read(f->in, &v, &err), GTR_OK);
    assert_int_equal((int)v, version);
    assert_int_equal(gtr__generation_new(NULL, v, &f->g, &err), GTR_OK);
}

static void gen_close(gen_fixture *f)
{
    gtr__generation_free(f->g);
    gtr_input_free(f->in);
}

static void test_generation_spill_groups_batches_by_m(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    TB_EV(&t, GTR_EV_HEAP_ALLOC, 1, 1);
    tb_batch(&t, 1, 5, 300);
    tb_freq(&t, 1);
    TB_EV(&t, GTR_EV_HEAP_ALLOC, 1, 2);
    tb_batch(&t, 1, 3, 200);
    TB_EV(&t, GTR_EV_HEAP_ALLOC, 1, 3);
    tb_batch(&t, 1, 5, 400);
    TB_EV(&t, GTR_EV_HEAP_ALLOC, 1, 4);
    tb_batch(&t, 2, 9, 500);   /* first batch of generation 2: spilled */
    tb_freq(&t, 2);

    gen_fixture f;
    gen_open(&f, &t, 22);
    gtr_err err = GTR_ERR_INIT, serr = GTR_ERR_INIT;
    assert_int_equal(gtr__generation_read_with_spill(f.g, f.in, &serr, &err), GTR_OK);
    assert_int_equal(serr.code, GTR_OK);
    gtr__generation *g = f.g;
    assert_int_equal(g->gen, 1);
    /* minTs: the frequency batch's 0 is not a minimum once 300 is seen. */
    assert_int_equal(g->min_ts, 200);
    assert_int_equal(g->nms, 2);
    assert_int_equal(g->ms[0].m, 5);
    assert_int_equal(g->ms[1].m, 3);
    const gtr__batch *b0 = &g->batches[g->ms[0].first];
    assert_int_equal(b0->time, 300);
    assert_true(b0->next != GTR__BATCH_NONE);
    assert_int_equal(g->batches[b0->next].time, 400);
    assert_int_equal(g->batches[b0->next].next, GTR__BATCH_NONE);
    assert_true(g->has_spill);
    assert_int_equal(g->spill_gen, 2);
    assert_int_equal(g->spill.m, 9);

    assert_int_equal(gtr__generation_read_with_spill(f.g, f.in, &serr, &err), GTR_OK);
    assert_int_equal(g->gen, 2);
    assert_int_equal(g->nms, 1);
    assert_int_equal(g->ms[0].m, 9);
    assert_int_equal(g->batches[g->ms[0].first].len, 3);
    assert_memory_equal(g->batches[g->ms[0].first].data, "\x25\x01\x04", 3);
    assert_false(g->has_spill);
    gen_close(&f);
    tb_free(&t);
}

static void test_generation_spill_error_is_deferred(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    tb_freq(&t, 1);
    tb_batch_sized(&t, 2, 0, 0, 50);
    gen_fixture f;
    gen_open(&f, &t, 22);
    gtr_err err = GTR_ERR_INIT, serr = GTR_ERR_INIT;
    assert_int_equal(gtr__generation_read_with_spill(f.g, f.in, &serr, &err), GTR_OK);
    assert_int_equal(f.g->gen, 1);
    assert_int_equal(serr.code, GTR_E_FORMAT);
    assert_string_equal(serr.msg, "failed to read full batch: read 0 but wanted 50");
    gen_close(&f);
    tb_free(&t);
}

static void test_generation_end_of_generation_then_eof(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 26);
    tb_sync(&t, 7, 10);
    TB_EV(&t, GTR_EV_HEAP_ALLOC, 1, 1);
    tb_batch(&t, 7, 1, 20);
    tb_end_of_generation(&t);
    gen_fixture f;
    gen_open(&f, &t, 26);
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr__generation_read(f.g, f.in, &err), GTR_OK);
    assert_int_equal(f.g->gen, 7);
    assert_int_equal(f.g->min_ts, 10);
    const gtr__sync *s = gtr__evt_sync(f.g->evt);
    assert_true(s->has_clock_snapshot);
    assert_int_equal(s->snap_time, 11);
    assert_int_equal(s->snap_mono, 1000);
    assert_int_equal(s->snap_wall_sec, 1700000000);
    assert_int_equal(s->snap_wall_nsec, 5);
    assert_true(s->freq == 64.0);
    assert_int_equal(gtr__generation_read(f.g, f.in, &err), GTR_EOF);
    gen_close(&f);
    tb_free(&t);
}

static void test_generation_cpu_samples_converted_and_sorted(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    tb_freq(&t, 1);
    TB_EV0(&t, GTR_EV_CPU_SAMPLES);
    TB_EV(&t, GTR_EV_CPU_SAMPLE, 30, 1, 2, 0, 0);
    TB_EV(&t, GTR_EV_CPU_SAMPLE, 10, 4, 5, 6, 0);
    TB_EV(&t, GTR_EV_CPU_SAMPLE, 20, 7, 8, 9, 0);
    tb_batch(&t, 1, 0, 0);
    gen_fixture f;
    gen_open(&f, &t, 22);
    gtr_err err = GTR_ERR_INIT, serr = GTR_ERR_INIT;
    assert_int_equal(gtr__generation_read_with_spill(f.g, f.in, &serr, &err), GTR_OK);
    assert_int_equal(f.g->ncpu, 3);
    assert_int_equal(f.g->cpu[0].time, 640);
    assert_int_equal(f.g->cpu[0].m, 4);
    assert_int_equal(f.g->cpu[0].g, 6);
    assert_int_equal(f.g->cpu[1].time, 1280);
    assert_int_equal(f.g->cpu[2].time, 1920);
    assert_int_equal(f.g->cpu[2].g, GTR_NO_GOROUTINE);   /* G 0 means none */
    assert_int_equal(f.g->cpu[2].p, 2);
    gen_close(&f);
    tb_free(&t);
}

static void test_generation_wrong_version_mode_fails(void **state)
{
    (void)state;
    tb t;
    tb_init(&t, 22);
    gen_fixture f;
    gen_open(&f, &t, 22);
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr__generation_read(f.g, f.in, &err), GTR_E_USAGE);
    assert_string_equal(err.msg, "internal error: readGeneration called for <1.26 trace");
    gen_close(&f);
    tb_free(&t);
}

/* ---- Bounded memory: many generations, flat peak. ---- */

/* many_generations builds a Go 1.26 trace of n generations, each with 64 strings, 32
 * stacks and 2000 events on one M. */
static void many_generations(tb *t, uint64_t n)
{
    tb_init(t, 26);
    uint64_t ts = 100;
    for (uint64_t gen = 1; gen <= n; gen++) {
        tb_sync(t, gen, ts);
        TB_EV0(t, GTR_EV_STRINGS);
        for (uint64_t i = 1; i <= 64; i++) {
            char s[32];
            snprintf(s, sizeof s, "gen %llu string %llu", (unsigned long long)gen,
                     (unsigned long long)i);
            tb_string(t, i, s);
        }
        tb_batch(t, gen, 0, ts);
        TB_EV0(t, GTR_EV_STACKS);
        for (uint64_t i = 1; i <= 32; i++)
            TB_EV(t, GTR_EV_STACK, i, 2, 0x1000 + i, 1, 2, 10, 0x2000, 3, 4, 20);
        tb_batch(t, gen, 0, ts);
        TB_EV(t, GTR_EV_PROC_STATUS, 1, 0, GTR_PSTATUS_RUNNING);
        TB_EV(t, GTR_EV_GO_STATUS, 1, 1, 0, GTR_GSTATUS_RUNNING);
        for (int i = 0; i < 2000; i++)
            TB_EV(t, GTR_EV_HEAP_ALLOC, 1, (uint64_t)i);
        tb_batch(t, gen, 0, ts);
        tb_end_of_generation(t);
        ts += 5000;
    }
}

static void test_generation_reader_memory_flat_over_generations(void **state)
{
    (void)state;
    tb t;
    many_generations(&t, 200);
    counter c;
    gtr_alloc alc = counting_alloc(&c);
    gtr_err err = GTR_ERR_INIT;
    gtr_input *in;
    assert_int_equal(gtr_input_open_memory(t.out.data, t.out.len, NULL, &in, &err), GTR_OK);
    gtr_reader *r;
    assert_int_equal(gtr_reader_new(in, &alc, &r, &err), GTR_OK);
    gtr_event ev;
    gtr_status st;
    size_t syncs = 0, events = 0, peak_after_10 = 0, calls_after_10 = 0;
    while ((st = gtr_reader_next(r, &ev, &err)) == GTR_OK) {
        events++;
        if (ev.type_ == GTR_EV_SYNC_EVENT && ++syncs == 11) {
            peak_after_10 = c.peak;
            calls_after_10 = c.calls;
        }
    }
    assert_int_equal(st, GTR_EOF);
    assert_int_equal(syncs, 201);
    assert_int_equal(events, 201 + 200 * 2002);
    /* After the first generations nothing grows: no new peak, and (generations being alike)
     * no allocation at all. */
    assert_int_equal(c.peak, peak_after_10);
    assert_int_equal(c.calls, calls_after_10);
    print_message("reader peak %zu bytes for a %zu-byte trace of 200 generations\n", c.peak,
                  t.out.len);
    /* The fixed part: a 64 KiB scratch buffer, a 64 KiB arena chunk, the reader. */
    assert_true(c.peak < 256 * 1024);
    assert_true(c.peak < t.out.len / 4);
    gtr_reader_free(r);
    assert_int_equal(c.live, 0);
    gtr_input_free(in);
    tb_free(&t);
}

static void test_generation_reader_memory_real_trace_bounded(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/corpus/real/testprog-stress-start-stop.stress.trace.gz",
             GTR_SOURCE_DIR);
    counter c;
    gtr_alloc alc = counting_alloc(&c);
    gtr_err err = GTR_ERR_INIT;
    gtr_input *in;
    assert_int_equal(gtr_input_open_path(path, NULL, &in, &err), GTR_OK);
    gtr_reader *r;
    assert_int_equal(gtr_reader_new(in, &alc, &r, &err), GTR_OK);
    gtr_event ev;
    gtr_status st;
    size_t events = 0;
    while ((st = gtr_reader_next(r, &ev, &err)) == GTR_OK)
        events++;
    assert_int_equal(st, GTR_EOF);
    assert_int_equal(events, 24068);
    print_message("reader peak %zu bytes, %zu allocation calls\n", c.peak, c.calls);
    /* The allocation count does not scale with the events. */
    assert_true(c.calls < events / 10);
    gtr_reader_free(r);
    assert_int_equal(c.live, 0);
    gtr_input_free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generation_table_duplicate_ids_fail),
        cmocka_unit_test(test_generation_table_sparse_and_dense_ids_lookup),
        cmocka_unit_test(test_generation_table_frames_first_definition_wins),
        cmocka_unit_test(test_generation_table_unknown_pc_fails),
        cmocka_unit_test(test_generation_table_extra_strings_interned),
        cmocka_unit_test(test_generation_table_extra_of_string_is_add_of_its_text),
        cmocka_unit_test(test_generation_freq_mul_out_of_range_is_int64_min),
        cmocka_unit_test(test_generation_table_limits_fail),
        cmocka_unit_test(test_generation_spill_groups_batches_by_m),
        cmocka_unit_test(test_generation_spill_error_is_deferred),
        cmocka_unit_test(test_generation_end_of_generation_then_eof),
        cmocka_unit_test(test_generation_cpu_samples_converted_and_sorted),
        cmocka_unit_test(test_generation_wrong_version_mode_fails),
        cmocka_unit_test(test_generation_reader_memory_flat_over_generations),
        cmocka_unit_test(test_generation_reader_memory_real_trace_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
