/* SPDX-License-Identifier: BSD-3-Clause */
/* test_reader_util.h: crafting wire-format traces byte by byte, and reading them through
 * the high-level reader, for the reader's unit tests.
 *
 * Set GTR_READER_TEST_DUMP=<dir> to have every crafted trace written to <dir>/<name>.trace
 * (to replay it through Go's reader, the oracle: `gtroracle validate < FILE`). Every
 * expectation in these tests was checked that way against Go 1.27.3. */
#ifndef GTR_TEST_READER_UTIL_H
#define GTR_TEST_READER_UTIL_H

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

/* A trace under construction: out holds the finished bytes, data the current batch. */
typedef struct tb {
    gtr_buf out;
    gtr_buf data;
} tb;

static inline void tb_init(tb *t, int version)
{
    memset(t, 0, sizeof *t);
    char h[GTR_HEADER_MAX];
    size_t n = gtr_header_format((uint64_t)version, h);
    gtr_buf_append(&t->out, h, n);
}

static inline void tb_free(tb *t)
{
    gtr_buf_free(&t->out);
    gtr_buf_free(&t->data);
}

/* tb_evv appends an event to the current batch: its type byte and n uvarint arguments.
 * TB_EV(t, type, args...) passes the arguments as a list; TB_EV0 is an event without. */
static inline void tb_evv(tb *t, uint8_t type, const uint64_t *args, size_t n)
{
    gtr_buf_putc(&t->data, (char)type);
    for (size_t i = 0; i < n; i++)
        gtr_buf_put_uvarint(&t->data, args[i]);
}
#define TB_EV(t, type, ...)                                                                    \
    tb_evv((t), (type), (const uint64_t[]){__VA_ARGS__},                                       \
           sizeof((const uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t))
#define TB_EV0(t, type) tb_evv((t), (type), NULL, 0)

/* tb_uv appends a bare uvarint, tb_raw bare bytes, to the current batch. */
static inline void tb_uv(tb *t, uint64_t v)
{
    gtr_buf_put_uvarint(&t->data, v);
}

static inline void tb_raw(tb *t, const void *p, size_t n)
{
    gtr_buf_append(&t->data, p, n);
}

/* tb_string appends a String event (id, length, bytes). */
static inline void tb_string(tb *t, uint64_t id, const char *s)
{
    TB_EV(t, GTR_EV_STRING, id, strlen(s));
    tb_raw(t, s, strlen(s));
}

/* tb_batch_sized emits an EventBatch header claiming size bytes, then the current batch
 * data, and empties it. */
static inline void tb_batch_sized(tb *t, uint64_t gen, uint64_t m, uint64_t ts, uint64_t size)
{
    gtr_buf_putc(&t->out, (char)GTR_EV_EVENT_BATCH);
    gtr_buf_put_uvarint(&t->out, gen);
    gtr_buf_put_uvarint(&t->out, m);
    gtr_buf_put_uvarint(&t->out, ts);
    gtr_buf_put_uvarint(&t->out, size);
    gtr_buf_append(&t->out, t->data.data ? t->data.data : "", t->data.len);
    gtr_buf_reset(&t->data);
}

static inline void tb_batch(tb *t, uint64_t gen, uint64_t m, uint64_t ts)
{
    tb_batch_sized(t, gen, m, ts, t->data.len);
}

static inline void tb_exp_batch(tb *t, uint8_t exp, uint64_t gen, uint64_t m, uint64_t ts)
{
    gtr_buf_putc(&t->out, (char)GTR_EV_EXPERIMENTAL_BATCH);
    gtr_buf_putc(&t->out, (char)exp);
    gtr_buf_put_uvarint(&t->out, gen);
    gtr_buf_put_uvarint(&t->out, m);
    gtr_buf_put_uvarint(&t->out, ts);
    gtr_buf_put_uvarint(&t->out, t->data.len);
    gtr_buf_append(&t->out, t->data.data ? t->data.data : "", t->data.len);
    gtr_buf_reset(&t->data);
}

static inline void tb_end_of_generation(tb *t)
{
    gtr_buf_putc(&t->out, (char)GTR_EV_END_OF_GENERATION);
}

/* tb_out_raw appends bytes straight to the output (outside any batch). */
static inline void tb_out_raw(tb *t, const void *p, size_t n)
{
    gtr_buf_append(&t->out, p, n);
}

/* tb_freq emits the frequency batch of a generation (before Go 1.25): 15625000 units/s,
 * i.e. 64 ns per unit. */
static inline void tb_freq(tb *t, uint64_t gen)
{
    TB_EV(t, GTR_EV_FREQUENCY, 15625000);
    tb_batch(t, gen, 0, 0);
}

/* tb_sync emits the sync batch of a generation (Go 1.25+): Sync, Frequency, ClockSnapshot. */
static inline void tb_sync(tb *t, uint64_t gen, uint64_t ts)
{
    TB_EV0(t, GTR_EV_SYNC);
    TB_EV(t, GTR_EV_FREQUENCY, 15625000);
    TB_EV(t, GTR_EV_CLOCK_SNAPSHOT, 1, 1000, 1700000000, 5);
    tb_batch(t, gen, 0, ts);
}

/* The outcome of reading a whole trace. */
#define RD_MAX 256
typedef struct rd_result {
    gtr_status st;          /* the status that ended the read: GTR_EOF or an error */
    size_t n;               /* events read */
    uint8_t type[RD_MAX];   /* their types (GTR_EV_SYNC_EVENT for Sync) */
    gtr_time time[RD_MAX];
    uint64_t arg0[RD_MAX];
    gtr_err err;
} rd_result;

static inline void rd_dump(const char *name, const void *p, size_t n)
{
    const char *dir = getenv("GTR_READER_TEST_DUMP");
    if (dir == NULL || *dir == '\0')
        return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.trace", dir, name);
    FILE *f = fopen(path, "wb");
    if (f != NULL) {
        fwrite(p, 1, n, f);
        fclose(f);
    }
}

/* rd_bytes reads p[0..n) with the reader until EOF or an error (at most 100000 events). */
static inline void rd_bytes(const char *name, const void *p, size_t n, rd_result *res)
{
    memset(res, 0, sizeof *res);
    rd_dump(name, p, n);
    gtr_input *in;
    assert_int_equal(gtr_input_open_memory(p, n, NULL, &in, &res->err), GTR_OK);
    gtr_reader *r;
    res->st = gtr_reader_new(in, NULL, &r, &res->err);
    if (res->st != GTR_OK) {
        gtr_input_free(in);
        return;
    }
    gtr_event ev;
    for (size_t i = 0; i < 100000; i++) {
        res->st = gtr_reader_next(r, &ev, &res->err);
        if (res->st != GTR_OK)
            break;
        if (res->n < RD_MAX) {
            res->type[res->n] = ev.type_;
            res->time[res->n] = ev.time_;
            res->arg0[res->n] = ev.args_[0];
        }
        res->n++;
    }
    /* Errors and EOF are sticky. */
    gtr_err again = GTR_ERR_INIT;
    assert_int_equal(gtr_reader_next(r, &ev, &again), res->st);
    assert_string_equal(again.msg, res->err.msg);
    gtr_reader_free(r);
    gtr_input_free(in);
}

static inline void rd_trace(const char *name, tb *t, rd_result *res)
{
    rd_bytes(name, t->out.data, t->out.len, res);
}

/* rd_expect_error checks that reading ended with message msg after nevents events. */
#define rd_expect_error(res, nevents, want_msg)                                                \
    do {                                                                                       \
        assert_true((res)->st < 0);                                                            \
        assert_string_equal((res)->err.msg, (want_msg));                                       \
        assert_int_equal((res)->n, (nevents));                                                 \
    } while (0)

#define rd_expect_eof(res, nevents)                                                            \
    do {                                                                                       \
        if ((res)->st != GTR_EOF)                                                              \
            fail_msg("unexpected error: %s", (res)->err.msg);                                  \
        assert_int_equal((res)->n, (nevents));                                                 \
    } while (0)

#endif /* GTR_TEST_READER_UTIL_H */
