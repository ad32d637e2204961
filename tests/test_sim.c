/* SPDX-License-Identifier: BSD-3-Clause */
/* test_sim.c: gsim, the scheduler model (sim/): determinism, every version read back clean
 * and equal to the record, the record itself, bounded memory, arbitrary choice strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsim/sim.h"
#include "gtr/input.h"
#include "gtr/raw.h"
#include "gtr/reader.h"

static const gtr_go_version versions[] = {GTR_GO122, GTR_GO123, GTR_GO125, GTR_GO126};
enum { NVERSIONS = sizeof versions / sizeof versions[0] };

/* run_seed writes the trace of (c, seed) into out. */
static gtr_status run_seed(const gsim_config *c, uint64_t seed, gtr_buf *out)
{
    gsim_seed_state st;
    gsim *s;
    gtr_err err = GTR_ERR_INIT;
    gtr_status rc;
    assert_int_equal(gsim_new(c, gsim_choice_seed(&st, seed), NULL, &s, &err), GTR_OK);
    rc = gsim_run(s, gtr_sink_buf(out), NULL, NULL, &err);
    gsim_free(s);
    return rc;
}

static void test_sim_same_seed_same_bytes(void **state)
{
    gsim_config c;
    gsim_config_default(&c);
    c.events = 3000;
    for (size_t v = 0; v < NVERSIONS; v++) {
        gtr_buf a = {0}, b = {0}, d = {0};
        c.version = versions[v];
        assert_int_equal(run_seed(&c, 42, &a), GTR_OK);
        assert_int_equal(run_seed(&c, 42, &b), GTR_OK);
        assert_int_equal(run_seed(&c, 43, &d), GTR_OK);
        assert_true(a.len > 1000);
        assert_int_equal(a.len, b.len);
        assert_memory_equal(a.data, b.data, a.len);
        assert_true(a.len != d.len || memcmp(a.data, d.data, a.len) != 0);
        gtr_buf_free(&a);
        gtr_buf_free(&b);
        gtr_buf_free(&d);
    }
}

static void test_sim_every_version_reads_back_equal_to_the_record(void **state)
{
    gsim_config c;
    gsim_config_default(&c);
    for (size_t v = 0; v < NVERSIONS; v++) {
        for (uint64_t seed = 1; seed <= 12; seed++) {
            gsim_seed_state st;
            gsim_stats stats;
            gtr_err err = GTR_ERR_INIT;
            c.version = versions[v];
            c.events = 500 + 300 * seed;
            c.gens = 1 + seed % 5;
            c.procs = 1 + (unsigned)(seed * 5 % 24);
            gtr_err_clear(&err);
            gtr_status rc = gsim_check(&c, gsim_choice_seed(&st, seed), NULL, 0, &stats, &err);
            if (rc != GTR_OK)
                fail_msg("go1.%d seed %llu: %s", (int)c.version, (unsigned long long)seed,
                         err.msg);
            assert_int_equal(stats.events, c.events);   /* --events is exact */
            assert_true(stats.gens >= c.gens);
            assert_true(stats.records > stats.events);   /* Syncs, samples, derived events */
        }
    }
}

/* thread_events counts the events of the trace in data[0..len) that sit in the threads'
 * batches: all but the batch headers, the string, stack and CPU sample tables, the
 * frequency, the experimental batches and the generation's Sync and end. */
static uint64_t thread_events(const void *data, size_t len)
{
    gtr_input *in = NULL;
    gtr_raw_reader *r = NULL;
    gtr_raw_event ev;
    gtr_err err = GTR_ERR_INIT;
    uint64_t n = 0;
    gtr_status st;

    assert_int_equal(gtr_input_open_memory_plain(data, len, NULL, &in, &err), GTR_OK);
    assert_int_equal(gtr_raw_reader_new(in, NULL, &r, &err), GTR_OK);
    while ((st = gtr_raw_reader_next(r, &ev, &err)) == GTR_OK) {
        switch (ev.type) {
        case GTR_EV_EVENT_BATCH: case GTR_EV_STACKS: case GTR_EV_STACK: case GTR_EV_STRINGS:
        case GTR_EV_STRING: case GTR_EV_CPU_SAMPLES: case GTR_EV_CPU_SAMPLE:
        case GTR_EV_FREQUENCY: case GTR_EV_EXPERIMENTAL_BATCH: case GTR_EV_SYNC:
        case GTR_EV_CLOCK_SNAPSHOT: case GTR_EV_END_OF_GENERATION:
            break;
        default:
            n++;
        }
    }
    assert_int_equal(st, GTR_EOF);
    gtr_err_clear(&err);
    gtr_raw_reader_free(r);
    gtr_input_free(in);
    return n;
}

/* `gotrace sim --events N` writes exactly N events in the threads' batches, counted in the
 * bytes written (the statuses each generation opens with, and the STWEnds it closes open
 * spans with, included). */
static void test_sim_events_is_the_exact_count_written(void **state)
{
    static const uint64_t counts[] = {1000, 150, 333, 4096};
    gsim_config c;
    (void)state;
    gsim_config_default(&c);
    for (size_t v = 0; v < NVERSIONS; v++) {
        for (uint64_t seed = 1; seed <= 8; seed++) {
            gtr_buf out = {0};
            c.version = versions[v];
            c.events = counts[seed % 4];
            c.gens = 1 + seed % 3;
            assert_int_equal(run_seed(&c, seed, &out), GTR_OK);
            assert_int_equal(thread_events(out.data, out.len), c.events);
            gtr_buf_free(&out);
        }
    }
}

/* The record, checked here against the reader independently of gsim_check. */
typedef struct recs {
    gsim_record v[4096];
    size_t n;
} recs;

static void keep(void *ctx, const gsim_record *r)
{
    recs *rs = ctx;
    if (rs->n < sizeof rs->v / sizeof rs->v[0])
        rs->v[rs->n] = *r;
    rs->n++;
}

static void test_sim_record_is_what_the_reader_returns(void **state)
{
    static recs rs;
    gsim_config c;
    gsim_seed_state st;
    gtr_buf trace = {0};
    gsim *s;
    gtr_err err = GTR_ERR_INIT;
    gtr_input *in;
    gtr_reader *r;
    size_t i = 0, syncs = 0, deep = 0, exp = 0, experimental = 0;

    gsim_config_default(&c);
    c.events = 2000;
    c.gens = 4;
    rs.n = 0;
    assert_int_equal(gsim_new(&c, gsim_choice_seed(&st, 7), NULL, &s, &err), GTR_OK);
    assert_int_equal(gsim_run(s, gtr_sink_buf(&trace), keep, &rs, &err), GTR_OK);
    assert_int_equal(gsim_run(s, gtr_sink_buf(&trace), keep, &rs, &err), GTR_E_USAGE);
    gsim_free(s);
    assert_true(rs.n < sizeof rs.v / sizeof rs.v[0]);
    assert_int_equal(rs.v[0].kind, GTR_EVENT_SYNC);
    assert_int_equal(rs.v[rs.n - 1].kind, GTR_EVENT_SYNC);
    assert_int_equal(gtr_input_open_memory_plain(trace.data, trace.len, NULL, &in, &err), GTR_OK);
    assert_int_equal(gtr_reader_new(in, NULL, &r, &err), GTR_OK);
    for (;; i++) {
        gtr_event ev;
        gtr_status rc = gtr_reader_next(r, &ev, &err);
        if (rc == GTR_EOF)
            break;
        assert_int_equal(rc, GTR_OK);
        assert_true(i < rs.n);
        assert_int_equal(gtr_event_get_kind(&ev), rs.v[i].kind);
        assert_int_equal(gtr_event_time(&ev), rs.v[i].time);
        assert_int_equal(gtr_event_thread(&ev), rs.v[i].m);
        assert_int_equal(gtr_event_proc(&ev), rs.v[i].p);
        assert_int_equal(gtr_event_goroutine(&ev), rs.v[i].g);
        if (rs.v[i].kind == GTR_EVENT_SYNC) {
            gtr_sync sy;
            syncs++;
            assert_int_equal(gtr_event_sync(&ev, &sy, &err), GTR_OK);
            assert_int_equal(gtr_sync_experimental_batch_count(&sy, GTR_EXP_ALLOC_FREE),
                             rs.v[i].exp_batches);
            exp += rs.v[i].exp_batches;
        }
        experimental += rs.v[i].kind == GTR_EVENT_EXPERIMENTAL;
        deep += gtr_stack_len(gtr_event_stack(&ev)) > 32;
    }
    assert_int_equal(i, rs.n);
    assert_int_equal(syncs, 5);   /* one per generation, and the final one */
    assert_true(deep > 0);        /* stacks beyond testgen's 32 frames */
    assert_true(exp > 0);         /* experimental batches on the Syncs */
    assert_true(experimental > 0);   /* AllocFree events */
    gtr_reader_free(r);
    gtr_input_free(in);
    gtr_buf_free(&trace);
}

/* Text output is the wire output in the text format. */
static void test_sim_text_is_the_wire_trace(void **state)
{
    gsim_config c;
    gsim_config_default(&c);
    for (size_t v = 0; v < NVERSIONS; v++) {
        gtr_buf wire = {0}, text = {0}, back = {0};
        gtr_err err = GTR_ERR_INIT;
        c.version = versions[v];
        c.text = false;
        assert_int_equal(run_seed(&c, 5, &wire), GTR_OK);
        c.text = true;
        assert_int_equal(run_seed(&c, 5, &text), GTR_OK);
        assert_int_equal(gtr_raw_text_to_wire(text.data, text.len, &back, &err), GTR_OK);
        assert_int_equal(back.len, wire.len);
        assert_memory_equal(back.data, wire.data, wire.len);
        gtr_buf_free(&wire);
        gtr_buf_free(&text);
        gtr_buf_free(&back);
    }
}

/* A counting allocator: the most bytes live at once. */
typedef struct counting {
    size_t live, peak;
} counting;

typedef struct hdr {
    size_t n;
    max_align_t pad;
} hdr;

static void *c_malloc(void *ctx, size_t n)
{
    counting *c = ctx;
    hdr *h = malloc(sizeof *h + n);
    if (h == NULL)
        return NULL;
    h->n = n;
    c->live += n;
    if (c->live > c->peak)
        c->peak = c->live;
    return h + 1;
}

static void c_free(void *ctx, void *p)
{
    counting *c = ctx;
    if (p == NULL)
        return;
    hdr *h = (hdr *)p - 1;
    c->live -= h->n;
    free(h);
}

static void *c_realloc(void *ctx, void *p, size_t n)
{
    void *q = c_malloc(ctx, n);
    if (q == NULL || p == NULL)
        return q;
    hdr *h = (hdr *)p - 1;
    memcpy(q, p, h->n < n ? h->n : n);
    c_free(ctx, p);
    return q;
}

static gtr_status discard(void *ctx, const void *data, size_t n, gtr_err *err)
{
    *(uint64_t *)ctx += n;
    return GTR_OK;
}

static size_t peak_for(uint64_t events, uint64_t *bytes)
{
    counting cnt = {0, 0};
    gtr_alloc alc = {.malloc_fn = c_malloc, .realloc_fn = c_realloc, .free_fn = c_free,
                     .ctx = &cnt};
    gsim_config c;
    gsim_seed_state st;
    gsim *s;
    gtr_err err = GTR_ERR_INIT;
    gsim_config_default(&c);
    c.events = events;
    c.gens = 2;
    c.procs = 2;
    *bytes = 0;
    assert_int_equal(gsim_new(&c, gsim_choice_seed(&st, 3), &alc, &s, &err), GTR_OK);
    assert_int_equal(gsim_run(s, (gtr_sink){.write = discard, .ctx = bytes}, NULL, NULL, &err),
                     GTR_OK);
    gsim_free(s);
    assert_int_equal(cnt.live, 0);
    return cnt.peak;
}

static void test_sim_streams_in_bounded_memory(void **state)
{
    uint64_t small_bytes, big_bytes;
    size_t small = peak_for(200000, &small_bytes), big = peak_for(2000000, &big_bytes);
    /* Ten times the events and the bytes, the same memory: the per-M batches (7 Ms, each
     * flushed at half of MaxBatchSize, held as packed arguments) and the writer. */
    assert_true(big_bytes > 5 * small_bytes);
    assert_true(big < (size_t)4 << 20);
    assert_true(big <= small + small / 10);
}

/* Any choice string gives a legal trace: arbitrary bytes, and extreme ones. */
static void test_sim_arbitrary_choice_strings_are_legal(void **state)
{
    uint8_t buf[512];
    gsim_seed_state rng;
    gsim_choice gen = gsim_choice_seed(&rng, 99);
    for (int round = 0; round < 300; round++) {
        size_t len = (size_t)gen.next(gen.ctx, sizeof buf + 1);
        gsim_bytes_state bs;
        gsim_choice ch = gsim_choice_bytes(&bs, buf, len);
        gsim_config c;
        gtr_err err = GTR_ERR_INIT;
        if (round == 0)
            len = 0;
        for (size_t i = 0; i < len; i++)
            buf[i] = round == 1 ? 0xff : round == 2 ? 0 : (uint8_t)gen.next(gen.ctx, 256);
        bs.len = len;
        /* The configuration comes from the string's first bytes, the model's moves from the
         * rest. */
        gsim_config_choose(&c, ch, 3000);
        gtr_err_clear(&err);
        gtr_status rc = gsim_check(&c, ch, NULL, 0, NULL, &err);
        if (rc != GTR_OK)
            fail_msg("round %d (%zu bytes, go1.%d): %s", round, len, (int)c.version, err.msg);
    }
}

static void test_sim_rejects_bad_configs(void **state)
{
    gsim_config c;
    gsim_seed_state st;
    gsim *s;
    gtr_err err = GTR_ERR_INIT;
    gsim_config_default(&c);
    c.version = GTR_GO121;
    assert_int_equal(gsim_new(&c, gsim_choice_seed(&st, 1), NULL, &s, &err), GTR_E_USAGE);
    assert_null(s);
    gsim_config_default(&c);
    c.procs = 0;
    assert_int_equal(gsim_new(&c, gsim_choice_seed(&st, 1), NULL, &s, &err), GTR_E_USAGE);
    c.procs = GSIM_MAX_PROCS + 1;
    assert_int_equal(gsim_new(&c, gsim_choice_seed(&st, 1), NULL, &s, &err), GTR_E_USAGE);
    gsim_config_default(&c);
    c.gens = 0;
    assert_int_equal(gsim_new(&c, gsim_choice_seed(&st, 1), NULL, &s, &err), GTR_E_USAGE);
}

/* The byte source: little-endian, modulo n, zeros past the end. */
static void test_sim_byte_choices(void **state)
{
    static const uint8_t data[] = {7, 0x34, 0x12, 200};
    gsim_bytes_state bs;
    gsim_choice ch = gsim_choice_bytes(&bs, data, sizeof data);
    assert_int_equal(ch.next(ch.ctx, 5), 2);           /* 7 % 5 */
    assert_int_equal(ch.next(ch.ctx, 65536), 0x1234);
    assert_int_equal(ch.next(ch.ctx, 1), 0);           /* takes nothing */
    assert_int_equal(ch.next(ch.ctx, 256), 200);
    assert_int_equal(ch.next(ch.ctx, 256), 0);
    assert_int_equal(bs.pos, sizeof data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sim_same_seed_same_bytes),
        cmocka_unit_test(test_sim_every_version_reads_back_equal_to_the_record),
        cmocka_unit_test(test_sim_events_is_the_exact_count_written),
        cmocka_unit_test(test_sim_record_is_what_the_reader_returns),
        cmocka_unit_test(test_sim_text_is_the_wire_trace),
        cmocka_unit_test(test_sim_streams_in_bounded_memory),
        cmocka_unit_test(test_sim_arbitrary_choice_strings_are_legal),
        cmocka_unit_test(test_sim_rejects_bad_configs),
        cmocka_unit_test(test_sim_byte_choices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
