/* SPDX-License-Identifier: BSD-3-Clause */
/* test_batchcursor.c: a batch cursor's inline decode (gtr__batch_cursor_next, whose fast path
 * reads varints unchecked when the event cannot reach the batch's end) against its slow path
 * alone (Go's nextEvent), event by event, over random batches: every event type byte, values
 * of every length, varints cut by the batch's end and varints that overflow. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "batchcursor.h"
#include "gtr/spec.h"

/* A small deterministic generator (splitmix64). */
static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* put_uvarint appends v as a uvarint of at least min_len bytes (padded with 0x80 groups, as
 * binary.Uvarint accepts) to p; returns the bytes written. */
static size_t put_uvarint(uint8_t *p, uint64_t v, size_t min_len)
{
    size_t n = 0;
    while (v >= 0x80 || n + 1 < min_len) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* random_value: mostly small, sometimes of any length up to 64 bits. */
static uint64_t random_value(void)
{
    switch (rnd() % 4) {
    case 0: return rnd() % 128;
    case 1: return rnd() % 20000;
    case 2: return rnd() >> (rnd() % 64);
    default: return rnd() % 4;
    }
}

/* fill_batch writes random events into buf (at most cap bytes): well-formed timed events of
 * common types (dt and each argument a uvarint, some padded to up to ten bytes), and now and
 * then any type byte, a value count off by one, or an overflowing varint (no end within ten
 * bytes, or a tenth byte above 1). Returns the length, sometimes cut anywhere. */
static size_t fill_batch(uint8_t *buf, size_t cap)
{
    static const uint8_t common[] = {GTR_EV_PROC_START, GTR_EV_PROC_STOP, GTR_EV_GO_START,
                                     GTR_EV_GO_STOP, GTR_EV_GO_BLOCK, GTR_EV_GO_UNBLOCK,
                                     GTR_EV_HEAP_ALLOC, GTR_EV_GO_CREATE, GTR_EV_STW_BEGIN,
                                     GTR_EV_USER_TASK_BEGIN, GTR_EV_GO_STATUS};
    size_t n = 0;
    while (n + 64 < cap) {
        unsigned odd = (unsigned)(rnd() % 400);
        uint8_t typ = odd == 0 ? (uint8_t)rnd() : common[rnd() % sizeof common];
        buf[n++] = typ;
        unsigned nvals = gtr_spec(typ)->nargs;   /* dt and the arguments */
        if (odd == 1 || nvals == 0)
            nvals = 1 + (unsigned)(rnd() % 5);
        for (unsigned i = 0; i < nvals; i++) {
            unsigned how = (unsigned)(rnd() % 1000);
            if (how == 0) {
                memset(buf + n, 0xff, 11);   /* no end within ten bytes */
                n += 11;
            } else if (how == 1) {
                memset(buf + n, 0x80, 9);    /* a tenth byte above 1 */
                buf[n + 9] = 2;
                n += 10;
            } else {
                n += put_uvarint(buf + n, random_value(), how < 50 ? 1 + rnd() % 10 : 1);
            }
        }
    }
    if (rnd() % 4 == 0)
        n -= (size_t)(rnd() % 64);   /* cut anywhere in the last 64 bytes */
    return n;
}

static void test_batch_cursor_inline_decode_matches_slow_path(void **state)
{
    (void)state;
    enum { NBATCH = 3, CAP = 600 };
    static uint8_t data[NBATCH][CAP];
    rng_state = 42;
    for (int round = 0; round < 3000; round++) {
        gtr__batch batches[NBATCH];
        for (uint32_t i = 0; i < NBATCH; i++) {
            size_t len = (rnd() % 8 == 0) ? 0 : fill_batch(data[i], CAP);
            batches[i] = (gtr__batch){.m = 1,
                                      .time = rnd() % 4 == 0 ? 0 : 1000 + rnd() % 1000,
                                      /* An empty batch's data may be NULL. */
                                      .data = len == 0 && rnd() % 2 ? NULL : data[i],
                                      .len = len,
                                      .next = i + 1 < NBATCH ? i + 1 : GTR__BATCH_NONE};
        }
        gtr__cursor_ctx fast_ctx, slow_ctx;
        gtr__cursor_ctx_init(&fast_ctx);
        gtr__cursor_ctx_init(&slow_ctx);
        fast_ctx.batches = slow_ctx.batches = batches;
        double freq = (double[]){1.0, 15.625, 64.0}[rnd() % 3];
        gtr__cursor_ctx_set_freq(&fast_ctx, freq);
        gtr__cursor_ctx_set_freq(&slow_ctx, freq);
        gtr__batch_cursor fast, slow;
        gtr__batch_cursor_init(&fast, &fast_ctx, 1, 0);
        gtr__batch_cursor_init(&slow, &slow_ctx, 1, 0);
        for (int k = 0;; k++) {
            gtr_err fe, se;
            gtr_err_init(&fe);
            gtr_err_init(&se);
            bool fok = false, sok = false;
            gtr_status fst = gtr__batch_cursor_next(&fast, &fast_ctx, &fok, &fe);
            gtr_status sst = gtr__batch_cursor_next_slow(&slow, &slow_ctx, &sok, &se);
            assert_int_equal(fst, sst);
            assert_int_equal(fok, sok);
            if (fst != GTR_OK)
                assert_string_equal(gtr_err_text(&fe, NULL), gtr_err_text(&se, NULL));
            gtr_err_clear(&fe);
            gtr_err_clear(&se);
            if (fst != GTR_OK || !fok)
                break;
            assert_int_equal(fast.ev.type, slow.ev.type);
            assert_int_equal(fast.ev.time, slow.ev.time);
            assert_memory_equal(fast.ev.args, slow.ev.args, sizeof fast.ev.args);
            assert_int_equal(fast.last_ts, slow.last_ts);
            assert_ptr_equal(fast.pos, slow.pos);
            assert_int_equal(fast.idx, slow.idx);
        }
    }
}

/* gtr__uvarint_unchecked (unrolled, for at least GTR__UVARINT_MAX readable bytes) is
 * gtr__uvarint (binary.Uvarint) on every length from 1 to 11 bytes, with every value of the
 * last byte (so every overflow of the tenth) and random bytes before it: the same value and
 * length, or NULL exactly where gtr__uvarint reports an overflow. */
static void test_uvarint_unchecked_matches_uvarint(void **state)
{
    (void)state;
    rng_state = 7;
    uint8_t buf[2 * GTR__UVARINT_MAX];
    for (size_t len = 1; len <= GTR__UVARINT_MAX + 1; len++) {
        for (unsigned last = 0; last < 256; last++) {
            for (int rep = 0; rep < 20; rep++) {
                for (size_t i = 0; i < sizeof buf; i++)
                    buf[i] = (uint8_t)rnd();
                for (size_t i = 0; i + 1 < len; i++)
                    buf[i] |= 0x80;
                buf[len - 1] = (uint8_t)last;
                uint64_t want = 0, got = 0;
                int nb = gtr__uvarint(buf, sizeof buf, &want);
                const uint8_t *q = gtr__uvarint_unchecked(buf, &got);
                if (nb > 0) {
                    assert_ptr_equal(q, buf + nb);
                    assert_int_equal(got, want);
                } else {
                    assert_true(nb < 0);   /* the buffer holds more than any varint */
                    assert_null(q);
                }
            }
        }
    }
    /* The largest value, and a 64-bit value of every byte length (padded groups). */
    for (int bits = 0; bits < 64; bits++) {
        uint64_t v = (UINT64_C(1) << bits) | (rnd() & ((UINT64_C(1) << bits) - 1));
        for (size_t min_len = 1; min_len <= GTR__UVARINT_MAX; min_len++) {
            memset(buf, 0, sizeof buf);
            size_t n = put_uvarint(buf, v, min_len);
            uint64_t got = 0;
            assert_ptr_equal(gtr__uvarint_unchecked(buf, &got), buf + n);
            assert_int_equal(got, v);
        }
    }
    memset(buf, 0xff, sizeof buf);
    buf[GTR__UVARINT_MAX - 1] = 1;
    uint64_t got = 0;
    assert_ptr_equal(gtr__uvarint_unchecked(buf, &got), buf + GTR__UVARINT_MAX);
    assert_int_equal(got, UINT64_MAX);
}

/* gtr__cursor_ns (a shift for a small power-of-two frequency) is Go's float conversion
 * (gtr__freq_mul) for every frequency and delta, at the edges of the shift's range. */
static void test_cursor_ns_matches_float_conversion(void **state)
{
    (void)state;
    const double freqs[] = {64.0, 1.0, 2.0, 1024.0, 2048.0, 4096.0, 0.5, 0.25, 15.625,
                            3.0, 1e-300, 1e300, 0.0, -64.0, INFINITY, NAN, 63.999999999999,
                            64.00000000000001};
    const uint64_t edges[] = {0,
                              1,
                              2,
                              (UINT64_C(1) << 53) - 1,
                              UINT64_C(1) << 53,
                              (UINT64_C(1) << 53) + 1,
                              UINT64_C(1) << 56,
                              (UINT64_C(1) << 57) - 1,
                              UINT64_C(1) << 62,
                              UINT64_C(1) << 63,
                              UINT64_MAX};
    rng_state = 7;
    for (size_t f = 0; f < sizeof freqs / sizeof freqs[0]; f++) {
        gtr__cursor_ctx ctx;
        gtr__cursor_ctx_init(&ctx);
        gtr__cursor_ctx_set_freq(&ctx, freqs[f]);
        for (int i = 0; i < 20000; i++) {
            uint64_t dt = i < (int)(sizeof edges / sizeof edges[0])
                              ? edges[i]
                              : rnd() >> (rnd() % 64);
            uint64_t want = (uint64_t)gtr__freq_mul(freqs[f], dt);
            if (gtr__cursor_ns(&ctx, dt) != want)
                fail_msg("freq %.17g dt %llu: got %llu, want %llu", freqs[f],
                         (unsigned long long)dt, (unsigned long long)gtr__cursor_ns(&ctx, dt),
                         (unsigned long long)want);
        }
    }
    /* The shift is taken where it is exact: 2^0 .. 2^10. */
    gtr__cursor_ctx ctx;
    gtr__cursor_ctx_init(&ctx);
    gtr__cursor_ctx_set_freq(&ctx, 64.0);
    assert_int_equal(ctx.freq_shift, 6);
    assert_true(ctx.shift_below == UINT64_C(1) << 53);
    gtr__cursor_ctx_set_freq(&ctx, 2048.0);
    assert_true(ctx.shift_below == 0);
    gtr__cursor_ctx_set_freq(&ctx, 0.5);
    assert_true(ctx.shift_below == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_cursor_inline_decode_matches_slow_path),
        cmocka_unit_test(test_uvarint_unchecked_matches_uvarint),
        cmocka_unit_test(test_cursor_ns_matches_float_conversion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
