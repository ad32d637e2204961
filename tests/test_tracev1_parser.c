/* SPDX-License-Identifier: BSD-3-Clause */
/* test_tracev1_parser.c: the old-format parser (libtrace/src/tracev1/), ported from Go's
 * parser_test.go (TestCorruptedInputs, TestParseCanned) plus a table of crafted traces whose
 * expected messages are Go 1.27.3's own (gtroracle validate on the same bytes behind a
 * "go 1.21 trace" header). Go's TestBuckets tests its bucketed event list, which gotrace
 * does not have (one flat array). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "gtr/input.h"
#include "mem.h"
#include "tracev1/tracev1.h"

#ifndef GTR_GO_TRACEV1_TESTDATA
#define GTR_GO_TRACEV1_TESTDATA ""
#endif

/* parse copies data (the parser takes ownership of its buffer) and parses it. */
static gtr_status parse(const void *data, size_t len, gtr_go_version ver, gtr__v1_trace *t,
                        gtr_err *err)
{
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    uint8_t *copy = gtr__malloc(a, len ? len : 1);
    assert_non_null(copy);
    if (len)
        memcpy(copy, data, len);
    gtr_err_clear(err);
    return gtr__v1_parse(copy, len, copy, ver, a, t, err);
}

/* TestCorruptedInputs: inputs that crashed the parser once (parsed as version 5). */
static void test_tracev1_corrupted_inputs_fail(void **state)
{
    (void)state;
    static const struct {
        const char *data;
        size_t len;
    } tests[] = {
        {"gotrace\x00\x02" "0", 10},
        {"gotrace\x00Q00\x02" "0", 13},
        {"gotrace\x00T00\x02" "0", 13},
        {"gotrace\x00\xc3\x02" "00", 12},
        {"go 1.5 trace\x00\x00\x00\x00\x02" "0", 18},
        {"go 1.5 trace\x00\x00\x00\x00Q00\x02" "0", 21},
        {"go 1.5 trace\x00\x00\x00\x00T00\x02" "0", 21},
        {"go 1.5 trace\x00\x00\x00\x00\xc3\x02" "00", 20},
    };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        gtr__v1_trace t;
        gtr_err err = GTR_ERR_INIT;
        gtr_status st = parse(tests[i].data, tests[i].len, (gtr_go_version)5, &t, &err);
        if (st >= 0)
            fail_msg("no error on input %zu", i);
        assert_null(t.events);
        assert_int_equal(t.nevents, 0);
    }
    /* The first one: 'g' is type 39 (GoUnblockLocal), which version 5 does not have. */
    gtr__v1_trace t;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(parse(tests[0].data, tests[0].len, (gtr_go_version)5, &t, &err),
                     GTR_E_FORMAT);
    assert_string_equal(err.msg, "unknown event type 39");
}

static const char *const canned[] = {
    "fmt_1_21_pprof_good",        "http_1_19_good",
    "http_1_21_good",             "stress_1_11_good",
    "stress_1_19_good",           "stress_1_21_good",
    "stress_start_stop_1_11_good", "stress_start_stop_1_19_good",
    "stress_start_stop_1_21_good", "user_task_region_1_11_good",
    "user_task_region_1_19_good",  "user_task_region_1_21_good",
};

/* read_file reads path whole, gunzipped when it is gzip; NULL when it cannot be read. */
static uint8_t *read_file(const char *path, size_t *len)
{
    gzFile f = gzopen(path, "rb");
    if (f == NULL)
        return NULL;
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        int k = gzread(f, buf + n, (unsigned)(cap - n));
        if (k <= 0)
            break;
        n += (size_t)k;
    }
    gzclose(f);
    *len = n;
    return buf;
}

/* string_of looks up string id in t. */
static bool string_of(const gtr__v1_trace *t, uint64_t id, const char **s, size_t *len)
{
    for (size_t i = 0; i < t->nstrings; i++)
        if (t->strings[i].id == id) {
            *s = (const char *)t->data + t->strings[i].off;
            *len = t->strings[i].len;
            return true;
        }
    return false;
}

/* TestParseCanned and checkTrace over Go's 12 testdata traces: each parses, its events are
 * sorted, and (1.21+) no STW event has the reason "unknown". */
static void test_tracev1_canned_traces_parse(void **state)
{
    (void)state;
    if (GTR_GO_TRACEV1_TESTDATA[0] == '\0')
        skip();
    for (size_t i = 0; i < sizeof canned / sizeof canned[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/tracev1-%s.trace.gz", GTR_GO_TRACEV1_TESTDATA, canned[i]);
        size_t len = 0;
        uint8_t *data = read_file(path, &len);
        if (data == NULL)
            skip();
        /* The header: "go 1.NN trace\0\0\0". */
        assert_true(len > 16 && memcmp(data, "go 1.", 5) == 0);
        int ver = (data[5] - '0') * 10 + (data[6] - '0');
        gtr__v1_trace t;
        gtr_err err = GTR_ERR_INIT;
        gtr_status st = parse(data + 16, len - 16, (gtr_go_version)ver, &t, &err);
        free(data);
        if (st != GTR_OK)
            fail_msg("failed to parse good trace %s: %s", canned[i], err.msg);
        assert_true(t.nevents > 0);
        for (size_t k = 0; k < t.nevents; k++) {
            gtr__v1_event full, *ev = &full;
            gtr__v1_unpack(&t, &t.events[k], &full);
            if (k > 0)
                assert_true(ev->ts >= t.events[k - 1].ts);
            const char *s;
            size_t n;
            if (ver >= 21 && ev->type == GTR_V1_STW_START && string_of(&t, ev->args[0], &s, &n) &&
                n == 7 && memcmp(s, "unknown", 7) == 0)
                fail_msg("found unknown STW event; update stwReasonStrings?");
        }
        gtr__v1_trace_free(&t);
    }
}

/* Packing keeps every value: narrow ones in 32 bits, others in the wide table. */
static void test_tracev1_pack_round_trips(void **state)
{
    (void)state;
    gtr__v1_trace t;
    memset(&t, 0, sizeof t);
    t.alc = gtr__alloc_or_libc(NULL);
    const gtr__v1_event evs[] = {
        {-5, 7, {1, 2, 0, 0}, 9, -1, GTR_V1_GO_START, 0},
        {INT64_MAX, UINT64_MAX, {0, 0, 0, 0}, 0, GTR_V1_SYSCALL_P, GTR_V1_GO_END, 0},
        {0, 1, {(uint64_t)UINT32_MAX + 1, 0, 0, 0}, 0, 0, GTR_V1_HEAP_ALLOC, 0},
        {0, 1, {0, 0, 0, 5}, 0, 0, GTR_V1_USER_LOG, 0},
        {0, 1, {0, 0, 0, 0}, 3, 0, GTR_V1_GO_SYSCALL, 1},
    };
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++) {
        gtr__v1_packed pk;
        gtr__v1_event back;
        assert_int_equal(gtr__v1_pack(&t, &evs[i], &pk), GTR_OK);
        gtr__v1_unpack(&t, &pk, &back);
        assert_memory_equal(&back, &evs[i], offsetof(gtr__v1_event, sys_blocked) + 1);
        assert_int_equal(gtr__v1_packed_g(&t, &pk), evs[i].g);
    }
    assert_int_equal(t.nwide, 3);
    assert_int_equal(sizeof(gtr__v1_packed), 24);
    gtr__v1_trace_free(&t);
}

/* Crafted traces (the bytes after a "go 1.21 trace" header) and Go's error for each. */
static const struct {
    const char *name;
    const char *data;
    size_t len;
    const char *msg;
} bad[] = {
    {"empty",
     "",
     0,
     "no EvFrequency event"},
    {"no_batch",
     "\x02\x64",
     2,
     "read event 2 with current P of 0, but P has no batches yet"},
    {"batch_arity",
     "\x01\x00",
     2,
     "EvBatch has wrong number of arguments: got 1, want 2"},
    {"unknown_type",
     "\x32",
     1,
     "unknown event type 50"},
    {"string_id0",
     "\x41\x00\x01\x25\x00\x01\x78\x02\x05",
     9,
     "string has invalid id 0"},
    {"string_dup",
     "\x41\x00\x01\x25\x01\x01\x78\x25\x01\x01\x79\x02\x05",
     13,
     "string has duplicate id 1"},
    {"string_len0",
     "\x41\x00\x01\x25\x01\x00\x02\x05",
     8,
     "string has invalid length 0"},
    {"string_big",
     "\x41\x00\x01\x25\x01\xc1\x84\x3d",
     8,
     "failed to read trace: EOF"},
    {"pid_big",
     "\x41\x80\x80\x80\x80\x08\x01",
     7,
     "processor ID 2147483648 is larger than maximum of 18446744073709551615"},
    {"freq_zero",
     "\x41\x00\x01\x02\x00",
     5,
     "time stamps out of order"},
    {"no_freq",
     "\x41\x00\x01\x45\x01\x07",
     6,
     "no EvFrequency event"},
    {"stack_frames",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\xc3\x02\x01\xe9\x07",
     14,
     "failed to read event 7 argument: malformatted base-128 varint"},
    {"stack_arity",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\xc3\x03\x01\x01\x05",
     14,
     "EvStack has wrong number of arguments: want 6, got 3"},
    {"len_prefix_big",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\xed\x81\x10",
     12,
     "failed to read event 45 argument: length-prefixed argument too big: 2049 bytes, limit is 2048"},
    {"arg_eof",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x45\x01",
     11,
     "failed to read event 5 argument: malformatted base-128 varint"},
    {"wrong_args",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x05\x01",
     11,
     "ProcStart has wrong number of arguments: want 2, got 1"},
    {"proc_stop",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x06\x01",
     11,
     "p 0 is not running before stop (time 0)"},
    {"proc_twice",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x45\x01\x07\x45\x01\x07",
     15,
     "p 0 is running before start (time 1)"},
    {"no_order",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x45\x01\x07\x8e\x01\x05\x03",
     16,
     "no consistent ordering of events possible"},
    {"stray_exit",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x45\x01\x07\xcd\x04\x01\x05\x00\x00\x8e\x01\x05\x01\xdd\x05"
     "\x01\x05\x02\xe8\x07",
     29,
     "no consistent ordering of events possible"},
    {"task_conflict",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x45\x01\x07\xcd\x04\x01\x05\x00\x00\x8e\x01\x05\x01\xed\x05"
     "\x01\x09\x00\x00\x00\xed\x05\x01\x09\x00\x00\x00",
     36,
     "task id conflicts (id:9), \"4 UserTaskCreate p=0 g=5 stk=0 taskid=9 pid=0 typeid=0\" vs \"3 UserTaskCreate p=0 g=5 stk=0 taskid=9 pid=0 typeid=0\""},
    {"region_mode",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x45\x01\x07\xcd\x04\x01\x05\x00\x00\x8e\x01\x05\x01\xef\x05"
     "\x01\x00\x07\x00\x00",
     29,
     "invalid user region mode: \"3 UserRegion p=0 g=5 stk=0 taskid=0 mode=7 typeid=0\""},
    {"stw_twice",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x49\x01\x00\x49\x01\x00",
     15,
     "previous STW is not ended before a new one (time 1)"},
    {"gc_end",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x08\x01",
     11,
     "bogus GC end (time 0)"},
    {"exit_before_block",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x45\x01\x07\xcd\x04\x01\x05\x00\x00\x8e\x01\x05\x01\x5c\x01"
     "\x00\x1e\x32\xdd\x04\x01\x05\x02\x78",
     33,
     "time stamps out of order"},
    /* The GoSysExit loop's other verdict: G 1 is created, starts and blocks on a cond
     * (GoBlockCond), then exits a syscall with a timestamp of its own; its last event is no
     * GoSysBlock. Reduced by `gotrace reduce` from a fuzz_reader input; Go's reader says the
     * same (gtroracle validate). */
    {"stray_sys_exit",
     "\x41\x00\x0c\xcd\x04\x04\x01\x02\x01\x66\x03\x01\x59\x06\x0d\xdd\x04\x76\x01\x02"
     "\x15",
     21,
     "stray syscall exit"},
    {"goend_running",
     "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x45\x01\x07\x0f\x01",
     14,
     "g 0 did GoEnd (time 1)"},
    {"cpu_args",
     "\x41\x00\x01\xf1\x02\x01\x02",
     7,
     "CPU sample has wrong number of arguments: want 5, got 2"}
};

static void test_tracev1_crafted_traces_fail_with_gos_message(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gtr__v1_trace t;
        gtr_err err = GTR_ERR_INIT;
        gtr_status st = parse(bad[i].data, bad[i].len, GTR_GO121, &t, &err);
        if (st >= 0)
            fail_msg("%s: no error", bad[i].name);
        if (strcmp(err.msg, bad[i].msg) != 0)
            fail_msg("%s: got \"%s\", want \"%s\"", bad[i].name, err.msg, bad[i].msg);
    }
}

/* Every cut of a crafted trace is an error or a trace, never a crash (ASan checks reads). */
static void test_tracev1_every_cut_is_handled(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        for (size_t n = 0; n <= bad[i].len; n++) {
            gtr__v1_trace t;
            gtr_err err = GTR_ERR_INIT;
            if (parse(bad[i].data, n, GTR_GO121, &t, &err) == GTR_OK)
                gtr__v1_trace_free(&t);
            else
                assert_true(err.msg[0] != '\0');
        }
    }
}

/* ok_sysexit_sort: two goroutines block in syscalls; their GoSysExits (emitted at ticks 115
 * and 116) happened at tick 111, where a HeapAlloc was emitted before them. The stable sort
 * puts both exits right after the HeapAlloc, in their original order (G 6, then G 5). */
static const char sysexit_trace[] =
    "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x45\x01\x07\xcd\x04\x01\x05\x00\x00\xcd\x04\x01\x06"
    "\x00\x00\x84\x01\x04\x00\x8e\x01\x05\x01\x5c\x01\x00\x1e\x01\x8e\x01\x06\x01\x5c\x01\x00"
    "\x1e\x01\x61\x01\x80\x20\xdd\x04\x04\x06\x02\x6f\xdd\x04\x01\x05\x02\x6f\x06\x01";

static void test_tracev1_sys_exits_move_to_their_real_time_stably(void **state)
{
    (void)state;
    gtr__v1_trace t;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(parse(sysexit_trace, sizeof sysexit_trace - 1, GTR_GO121, &t, &err), GTR_OK);
    static const uint8_t want[] = {
        GTR_V1_PROC_START,   GTR_V1_GO_CREATE,   GTR_V1_GO_CREATE,   GTR_V1_GOMAXPROCS,
        GTR_V1_GO_START,     GTR_V1_GO_SYSCALL,  GTR_V1_GO_SYS_BLOCK, GTR_V1_GO_START,
        GTR_V1_GO_SYSCALL,   GTR_V1_GO_SYS_BLOCK, GTR_V1_HEAP_ALLOC,  GTR_V1_GO_SYS_EXIT,
        GTR_V1_GO_SYS_EXIT,  GTR_V1_PROC_STOP,
    };
    assert_int_equal(t.nevents, sizeof want);
    for (size_t i = 0; i < t.nevents; i++)
        assert_int_equal(gtr__v1_ptype(&t.events[i]), want[i]);
    gtr__v1_event e11, e12;
    gtr__v1_unpack(&t, &t.events[11], &e11);
    gtr__v1_unpack(&t, &t.events[12], &e12);
    assert_int_equal(e11.g, 6);
    assert_int_equal(e12.g, 5);
    /* A GoSysExit's real time does not fit the packed form: it is stored wide. */
    assert_true(gtr__v1_pwide(&t.events[11]));
    assert_false(gtr__v1_pwide(&t.events[10]));
    /* Ticks (1 GHz: 1 ns each) since the first event, tick 101; the stored events keep their
     * ticks (gtr__v1_time converts). */
    assert_int_equal(t.events[10].ts, 111);
    assert_int_equal(gtr__v1_time(&t, t.events[10].ts), 10);
    assert_int_equal(gtr__v1_time(&t, t.events[11].ts), 10);
    assert_int_equal(gtr__v1_packed_p(&t, &t.events[11]), GTR_V1_SYSCALL_P);
    /* Both syscalls blocked: the converter's look-ahead is marked. */
    assert_true(gtr__v1_pflags(&t.events[5]) & GTR_V1_F_SYS_BLOCKED);
    assert_true(gtr__v1_pflags(&t.events[8]) & GTR_V1_F_SYS_BLOCKED);
    gtr_buf b;
    gtr_buf_init(&b, NULL);
    e11.ts = gtr__v1_time(&t, e11.ts);   /* as the converter and the messages see it */
    gtr__v1_event_string(&e11, &b);
    assert_string_equal(b.data, "10 GoSysExit p=1000003 g=6 stk=0 g=6 seq=2 ts=111");
    gtr_buf_free(&b);
    gtr__v1_trace_free(&t);
}

/* The stored form: every field round-trips through gtr__v1_pack and gtr__v1_unpack, narrow
 * where it fits 24 bytes and WIDE past each bound; gtr__v1_pset_p_stk widens an event when
 * its new P or stack does not fit, and changes a wide one in its row. */
static void test_tracev1_packed_round_trips_at_every_bound(void **state)
{
    (void)state;
    gtr__v1_trace t;
    memset(&t, 0, sizeof t);
    t.alc = gtr__alloc_or_libc(NULL);
    static const struct {
        uint64_t g, a0, a1, a2;
        uint32_t stk;
        int32_t p;
        bool wide;
    } cases[] = {
        {0, 0, 0, 0, 0, 0, false},
        {GTR__V1_G_MAX, UINT32_MAX, UINT32_MAX, 0, GTR__V1_STK_MAX, 247, false},
        {GTR__V1_G_MAX + 1, 1, 2, 0, 3, 4, true},
        {1, (uint64_t)UINT32_MAX + 1, 2, 0, 3, 4, true},
        {1, 2, (uint64_t)UINT32_MAX + 1, 0, 3, 4, true},
        {1, 2, 3, 9, 3, 4, true},
        {1, 2, 3, 0, GTR__V1_STK_MAX + 1, 4, true},
        {1, 2, 3, 0, UINT32_MAX, 4, true},
        {1, 2, 3, 0, 5, 248, true},
        {1, 2, 3, 0, 5, -1, false},
        {1, 2, 3, 0, 5, -2, true},
        {1, 2, 3, 0, 5, INT32_MAX, true},
        {1, 2, 3, 0, 5, INT32_MIN, true},
        {1, 2, 3, 0, 5, GTR_V1_FAKE_P, false},
        {1, 2, 3, 0, 5, GTR_V1_PROFILE_P, false},
        {1, 2, 3, 0, 5, GTR_V1_PROFILE_P + 1, true},
        {1, 2, 3, 0, 5, GTR_V1_FAKE_P - 1, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (unsigned blocked = 0; blocked < 2; blocked++) {
            gtr__v1_event e, back;
            memset(&e, 0, sizeof e);
            e.ts = INT64_MIN + (int64_t)i;
            e.type = (uint8_t)(GTR_V1_COUNT - 1 - i);
            e.sys_blocked = (uint8_t)blocked;
            e.g = cases[i].g;
            e.args[0] = cases[i].a0;
            e.args[1] = cases[i].a1;
            e.args[2] = cases[i].a2;
            e.args[3] = cases[i].a2 * 3;
            e.stk = cases[i].stk;
            e.p = cases[i].p;
            gtr__v1_packed pk;
            assert_int_equal(gtr__v1_pack(&t, &e, &pk), GTR_OK);
            assert_int_equal(gtr__v1_pwide(&pk), cases[i].wide);
            gtr__v1_unpack(&t, &pk, &back);
            assert_memory_equal(&back, &e, offsetof(gtr__v1_event, sys_blocked) + 1);
            assert_int_equal(gtr__v1_packed_g(&t, &pk), e.g);
            assert_int_equal(gtr__v1_packed_p(&t, &pk), e.p);
            assert_int_equal(gtr__v1_packed_stk(&t, &pk), e.stk);
            assert_int_equal(gtr__v1_ptype(&pk), e.type);

            /* A new P and stack: in place when they fit, else the event widens. */
            static const struct {
                int32_t p;
                uint32_t stk;
            } moves[] = {{GTR_V1_SYSCALL_P, 0}, {7, GTR__V1_STK_MAX}, {1 << 20, 1},
                         {3, GTR__V1_STK_MAX + 1}, {-1, 2}};
            for (size_t k = 0; k < sizeof moves / sizeof moves[0]; k++) {
                gtr__v1_packed m;   /* a copy of a wide event would share its row */
                assert_int_equal(gtr__v1_pack(&t, &e, &m), GTR_OK);
                assert_int_equal(gtr__v1_pset_p_stk(&t, &m, moves[k].p, moves[k].stk), GTR_OK);
                gtr__v1_event want = e, got;
                want.p = moves[k].p;
                want.stk = moves[k].stk;
                gtr__v1_unpack(&t, &m, &got);
                assert_memory_equal(&got, &want, offsetof(gtr__v1_event, sys_blocked) + 1);
                bool fits = moves[k].stk <= GTR__V1_STK_MAX &&
                            gtr__v1_pcode(moves[k].p) != GTR__V1_PCODE_BAD;
                assert_int_equal(gtr__v1_pwide(&m), cases[i].wide || !fits);
            }
            /* The type and flag setters leave the rest as it was. */
            gtr__v1_pset_type(&pk, GTR_V1_GO_START);
            gtr__v1_pset_flag(&pk, GTR_V1_F_SYS_BLOCKED);
            gtr__v1_unpack(&t, &pk, &back);
            e.type = GTR_V1_GO_START;
            e.sys_blocked = 1;
            assert_memory_equal(&back, &e, offsetof(gtr__v1_event, sys_blocked) + 1);
        }
    }
    gtr__v1_trace_free(&t);
}

/* gtr__v1_sort_moved against a plain stable sort: random sorted streams (many equal times)
 * in which random events take a new time, earlier or later, alone or in crowds. */
typedef struct ref_item {
    int64_t ts;
    size_t idx;
} ref_item;

static int cmp_ref(const void *a, const void *b)
{
    const ref_item *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* gtr__v1_frontier_push_pop against Push then Pop (Go's moves) on heaps with many equal
 * times: the same event out, the same layout left, whether or not the moves were skipped,
 * with the frontier's kept path test between pushes (runs of push_pop with x below the
 * root, on one heap, reuse it). */
static void test_tracev1_heap_push_pop_is_push_then_pop(void **state)
{
    (void)state;
    uint64_t rng = 0x2545f4914f6cdd1du;
    size_t skipped = 0, equal_on_path = 0;
    for (int round = 0; round < 2000; round++) {
        gtr__v1_order_event h[64], ref[64];
        gtr__v1_frontier fr = {h, 0, false};
        rng = rng * 6364136223846793005u + 1442695040888963407u;
        unsigned spread = 1 + (unsigned)(rng >> 33) % 6;   /* small: many equal times */
        for (int step = 0; step < 200; step++) {
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            gtr__v1_order_event x = {(int64_t)((rng >> 40) % spread), (size_t)step};
            if (fr.n > 0 && (rng >> 20) % 4 == 0)
                x.ts = h[0].ts - 1;   /* below the root: the case that may skip */
            if (fr.n < 32 && (rng >> 24) % 3 == 0) {
                gtr__v1_frontier_push(&fr, &x);
                continue;
            }
            if (fr.n > 1 && (rng >> 28) % 8 == 0) {
                gtr__v1_order_event want = h[0];
                gtr__v1_order_event got = gtr__v1_frontier_pop(&fr);
                assert_int_equal(got.proc, want.proc);
                continue;
            }
            size_t n = fr.n;
            memcpy(ref, h, n * sizeof *h);
            size_t nref = n;
            gtr__v1_heap_push(ref, &nref, &x);
            gtr__v1_order_event want = gtr__v1_heap_pop(ref, &nref);
            gtr__v1_order_event got = gtr__v1_frontier_push_pop(&fr, &x);
            n = fr.n;
            assert_int_equal(got.proc, want.proc);
            assert_int_equal(got.ts, want.ts);
            assert_int_equal(n, nref);
            for (size_t i = 0; i < n; i++) {
                assert_int_equal(h[i].proc, ref[i].proc);
                assert_int_equal(h[i].ts, ref[i].ts);
            }
            if (got.proc == x.proc && n > 0)
                skipped++;
            for (size_t i = 1; i < n; i++)
                equal_on_path += x.ts < h[0].ts && h[i].ts == h[(i - 1) / 2].ts;
        }
    }
    /* Both kinds of step happened: x straight back out, and equal times under it. */
    assert_true(skipped > 1000);
    assert_true(equal_on_path > 1000);
}

static void test_tracev1_sort_moved_is_a_stable_sort(void **state)
{
    (void)state;
    const gtr_alloc *a = gtr__alloc_or_libc(NULL);
    uint64_t rng = 0x9e3779b97f4a7c15u;
    for (int round = 0; round < 3000; round++) {
        rng = rng * 6364136223846793005u + 1442695040888963407u;
        size_t n = 1 + (size_t)(rng >> 33) % 64;
        unsigned spread = 1 + (unsigned)(rng >> 20) % 8;   /* small: many equal times */
        gtr__v1_packed ev[64];
        gtr__v1_moved mv[64];
        ref_item ref[64];
        int64_t ts = 0;
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            ts += (int64_t)((rng >> 40) % spread);
            memset(&ev[i], 0, sizeof ev[i]);
            ev[i].ts = ts;
            ev[i].a0 = (uint32_t)i;   /* identifies the event */
            ref[i].ts = ts;
            ref[i].idx = i;
            if ((rng >> 13) % 5 == 0) {
                int64_t to = (int64_t)((rng >> 24) % (uint64_t)(ts + 2 * spread + 1));
                mv[m].ev = ev[i];
                mv[m].ev.ts = to;
                mv[m].orig = i;
                mv[m].rank = i - m;
                m++;
                ref[i].ts = to;
            }
        }
        qsort(ref, n, sizeof *ref, cmp_ref);
        assert_int_equal(gtr__v1_sort_moved(a, ev, n, mv, m), GTR_OK);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(ev[i].a0, ref[i].idx);
            assert_int_equal(ev[i].ts, ref[i].ts);
        }
    }
}

static void test_tracev1_stw_reasons_follow_the_version(void **state)
{
    (void)state;
    assert_int_equal(gtr__v1_stw_reason(GTR_GO119, 0), 1);
    assert_int_equal(gtr__v1_stw_reason(GTR_GO119, 1), 2);
    assert_int_equal(gtr__v1_stw_reason(GTR_GO119, 2), 0);
    assert_int_equal(gtr__v1_stw_reason(GTR_GO121, 16), 16);
    assert_int_equal(gtr__v1_stw_reason(GTR_GO121, 17), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tracev1_corrupted_inputs_fail),
        cmocka_unit_test(test_tracev1_canned_traces_parse),
        cmocka_unit_test(test_tracev1_crafted_traces_fail_with_gos_message),
        cmocka_unit_test(test_tracev1_every_cut_is_handled),
        cmocka_unit_test(test_tracev1_sys_exits_move_to_their_real_time_stably),
        cmocka_unit_test(test_tracev1_packed_round_trips_at_every_bound),
        cmocka_unit_test(test_tracev1_sort_moved_is_a_stable_sort),
        cmocka_unit_test(test_tracev1_heap_push_pop_is_push_then_pop),
        cmocka_unit_test(test_tracev1_stw_reasons_follow_the_version),
        cmocka_unit_test(test_tracev1_pack_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
