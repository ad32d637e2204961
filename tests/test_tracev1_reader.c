/* SPDX-License-Identifier: BSD-3-Clause */
/* test_tracev1_reader.c: the v1 path of the high-level reader (tracev1/ + tracev1_convert.c
 * behind gtr_reader), checked against Go 1.27.3's reader (gtroracle validate) and ported
 * from Go's TestTraceV1 (tracev1_test.go): every event of Go's 12 old traces is converted
 * and validated, with the user region, task and log checks on user_task_region_1_21_good.
 *
 * Go orders events with equal timestamps from different Ps (and the GoStatus events it
 * emits at the first Gomaxprocs) by map iteration, so its dumps of the larger traces vary
 * from run to run. For those the test checks the event count and the sequence of times
 * (which do not vary); for the others the SHA-256 of the whole dump. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gtr/gtr.h"
#include "sha256.h"

#ifndef GTR_GO_TRACEV1_TESTDATA
#define GTR_GO_TRACEV1_TESTDATA ""
#endif

typedef struct dump {
    gtr_buf text;         /* every event's String() and "\n" */
    size_t events;
    bool validated;       /* the validator accepted every event */
    gtr_err verr;         /* else its error */
    gtr_err rerr;         /* the reader's error (code GTR_OK when none) */
} dump;

/* run reads in whole (gotrace validate --log-events): each event is formatted, then
 * validated (the validator is told the reader's version, as Go's oracle and TestTraceV1 do:
 * both are below go1.22). */
static void run(gtr_input *in, dump *d)
{
    memset(d, 0, sizeof *d);
    gtr_buf_init(&d->text, NULL);
    gtr_err_clear(&d->verr);
    gtr_err_clear(&d->rerr);
    gtr_reader *r = NULL;
    gtr_validator *v = NULL;
    gtr_err err = GTR_ERR_INIT;
    if (gtr_reader_new(in, NULL, &r, &d->rerr) != GTR_OK)
        return;
    assert_int_equal(gtr_validator_new(NULL, &v, &err), GTR_OK);
    gtr_validator_set_go_version(v, gtr_reader_go_version(r));
    d->validated = true;
    gtr_event ev;
    gtr_status st;
    while ((st = gtr_reader_next(r, &ev, &err)) == GTR_OK) {
        assert_int_equal(gtr_event_string(&ev, &d->text), GTR_OK);
        gtr_buf_putc(&d->text, '\n');
        d->events++;
        if (gtr_validator_event(v, &ev, &d->verr) != GTR_OK) {
            d->validated = false;
            break;
        }
    }
    if (st < 0)
        gtr_err_copy(&d->rerr, &err);
    gtr_validator_free(v);
    gtr_reader_free(r);
}

static void run_memory(const char *data, size_t len, dump *d)
{
    gtr_input *in;
    gtr_err err = GTR_ERR_INIT;
    assert_int_equal(gtr_input_open_memory(data, len, NULL, &in, &err), GTR_OK);
    run(in, d);
    gtr_input_free(in);
}

static void hex(const uint8_t h[32], char out[65])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", h[i]);
}

static void sha_of(const char *s, size_t n, char out[65])
{
    sha256_ctx c;
    uint8_t h[32];
    sha256_init(&c);
    sha256_update(&c, s, n);
    sha256_final(&c, h);
    hex(h, out);
}

/* times_sha: SHA-256 of every " Time=<digits>" of the dump, one a line (grep -o). */
static void times_sha(const gtr_buf *b, char out[65])
{
    sha256_ctx c;
    uint8_t h[32];
    sha256_init(&c);
    const char *p = b->data, *end = b->data + b->len;
    while (p < end) {
        const char *m = memmem(p, (size_t)(end - p), " Time=", 6);
        if (m == NULL)
            break;
        const char *q = m + 6;
        if (q < end && *q == '-')
            q++;
        while (q < end && *q >= '0' && *q <= '9')
            q++;
        sha256_update(&c, m, (size_t)(q - m));
        sha256_update(&c, "\n", 1);
        p = q;
    }
    sha256_final(&c, h);
    hex(h, out);
}

/* Go's figures (gtroracle validate): events, SHA-256 of the dump (NULL where Go's output
 * varies between runs), SHA-256 of the time sequence. */
static const struct {
    const char *name;
    size_t events;
    const char *dump_sha;
    const char *times_sha;
} golden[] = {
    {"fmt_1_21_pprof_good", 1839,
     "7a87a94bbeb8c5b95f698b8646e996d92838f51e881ad4a610609b38b3f3a308",
     "aecce519a2cf4b0008e696691e1d7e0c4405f928e5c66556bb658d8c14c56da3"},
    {"http_1_19_good", 2326,
     NULL,
     "bb9a53473599426ce9b7ec343fb31d57126d5ba2a8427536c84b28353334f958"},
    {"http_1_21_good", 791,
     "a106c7888f3cb0656ed7e7fa4492e79521ea4b3b67ab76888aea3a1e2a524d3c",
     "bc82f6550487788e9b908e07d20fd7107ff1dcfe370350dfe20b1413331dee1a"},
    {"stress_1_11_good", 107356,
     NULL,
     "f9733d5909bc79153fc796655d005b9201977e56590a471770581bbc0484b3d4"},
    {"stress_1_19_good", 88642,
     NULL,
     "f895b410515ef8ae361010f9764bbc55311023822b362e1bd8a54e47218dcb23"},
    {"stress_1_21_good", 98571,
     NULL,
     "f535066798cba071460ab52982db919e379155c8716af504318ed57e13843d8f"},
    {"stress_start_stop_1_11_good", 632,
     NULL,
     "32eda2cb4d9b28acae8825d15d27028a7c3b3e35f57dad79b41a13ca96f61177"},
    {"stress_start_stop_1_19_good", 1229,
     "c7e8209c882ad3bfdcd269142c72efc2ce4529d8b1659153faa62077bea62794",
     "11cccab154a611b35c99d664ef385dfedded7fcb39496b90198aa35d3f60cc3d"},
    {"stress_start_stop_1_21_good", 412,
     NULL,
     "26e370cee353485d1e628bfc2eba09f57efeb8b2577f86b283dd562232258ef6"},
    {"user_task_region_1_11_good", 33,
     "d400f15ca4f63003b4ceece03d4077e934e6b645f8f0e0fd924570a85f8816bc",
     "58a917db6611a969f7754d654785a3481fdca3536d3f0a15b7a73183ec9fee74"},
    {"user_task_region_1_19_good", 31,
     "392ebdb8a56a12d585d23a0b6468f55b8c51de351cfd5600ab6c3f3b89574427",
     "6aeae1ea3746e22345e06be1ad66597bb520faf1e1b4dc2b84e271cc87788670"},
    {"user_task_region_1_21_good", 33,
     "0f059fb82a9aa574871ba3e496c3dc896bcd2bfc0339b22b49fd377218f9df92",
     "01e2dd44289e0b5fddffef32ea6fecb2615e29e90e9b329fc03e59b3007d99a2"}
};

static void test_tracev1_reader_go_testdata_matches_go(void **state)
{
    (void)state;
    if (GTR_GO_TRACEV1_TESTDATA[0] == '\0')
        skip();
    for (size_t i = 0; i < sizeof golden / sizeof golden[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/tracev1-%s.trace.gz", GTR_GO_TRACEV1_TESTDATA, golden[i].name);
        gtr_input *in;
        gtr_err err = GTR_ERR_INIT;
        if (gtr_input_open_path(path, NULL, &in, &err) != GTR_OK)
            skip();
        dump d;
        run(in, &d);
        gtr_input_free(in);
        if (d.rerr.code != GTR_OK)
            fail_msg("%s: couldn't read converted event: %s", golden[i].name, d.rerr.msg);
        if (!d.validated)
            fail_msg("%s: converted event did not validate: %s", golden[i].name, d.verr.msg);
        assert_int_equal(d.events, golden[i].events);
        char sha[65];
        times_sha(&d.text, sha);
        assert_string_equal(sha, golden[i].times_sha);
        if (golden[i].dump_sha != NULL) {
            sha_of(d.text.data, d.text.len, sha);
            assert_string_equal(sha, golden[i].dump_sha);
        }
        gtr_buf_free(&d.text);
    }
}

/* TestTraceV1's checks of the converted user regions, tasks and logs. */
static void test_tracev1_reader_user_annotations_convert(void **state)
{
    (void)state;
    if (GTR_GO_TRACEV1_TESTDATA[0] == '\0')
        skip();
    gtr_input *in;
    gtr_reader *r;
    gtr_err err = GTR_ERR_INIT;
    if (gtr_input_open_path(GTR_GO_TRACEV1_TESTDATA "/tracev1-user_task_region_1_21_good.trace.gz", NULL, &in,
                            &err) != GTR_OK)
        skip();
    assert_int_equal(gtr_reader_new(in, NULL, &r, &err), GTR_OK);
    assert_int_equal(gtr_reader_go_version(r), GTR_GO121);
    gtr_event ev;
    size_t regions = 0, tasks = 0, logs = 0;
    while (gtr_reader_next(r, &ev, &err) == GTR_OK) {
        gtr_event_kind k = gtr_event_get_kind(&ev);
        if (k == GTR_EVENT_REGION_BEGIN || k == GTR_EVENT_REGION_END) {
            gtr_region rg;
            assert_int_equal(gtr_event_region(&ev, &rg, &err), GTR_OK);
            bool ok = (rg.type.len == 20 && memcmp(rg.type.data, "post-existing region", 20) == 0) ||
                      (rg.type.len == 7 && (memcmp(rg.type.data, "region0", 7) == 0 ||
                                            memcmp(rg.type.data, "region1", 7) == 0));
            if (!ok)
                fail_msg("converted event has unexpected region type: %.*s", (int)rg.type.len,
                         rg.type.data);
            regions++;
        } else if (k == GTR_EVENT_TASK_BEGIN || k == GTR_EVENT_TASK_END) {
            gtr_task t;
            assert_int_equal(gtr_event_task(&ev, &t, &err), GTR_OK);
            assert_int_equal(t.type.len, 5);
            assert_memory_equal(t.type.data, "task0", 5);
            tasks++;
        } else if (k == GTR_EVENT_LOG) {
            gtr_log l;
            assert_int_equal(gtr_event_log(&ev, &l, &err), GTR_OK);
            assert_int_equal(l.task, 1);
            assert_int_equal(l.category.len, 4);
            assert_memory_equal(l.category.data, "key0", 4);
            assert_int_equal(l.message.len, 16);
            assert_memory_equal(l.message.data, "0123456789abcdef", 16);
            logs++;
        }
    }
    assert_true(regions > 0 && tasks > 0 && logs > 0);
    gtr_reader_free(r);
    gtr_input_free(in);
}

/* ok_small: gtroracle validate stdout */
static const char ok_small_dump[] =
    "M=-1 P=-1 G=-1 Sync Time=-1 N=1\n"
    "M=7 P=0 G=-1 StateTransition Time=0 ProcID=0 Undetermined->Running Reason=\"\"\n"
    "M=-1 P=-1 G=-1 StateTransition Time=2 GoID=5 Undetermined->Runnable Reason=\"\"\n"
    "M=7 P=0 G=5 StateTransition Time=3 GoID=5 Runnable->Running Reason=\"\"\n"
    "M=7 P=0 G=5 StateTransition Time=4 GoID=5 Running->Syscall Reason=\"\"\n"
    "TransitionStack=\n"
    "\tmain @ 0x1000\n"
    "\t\tmain.go:10\n"
    "\n"
    "Stack=\n"
    "\tmain @ 0x1000\n"
    "\t\tmain.go:10\n"
    "\n"
    "M=7 P=0 G=-1 Log Time=7 Task=0 Category=\"main\" Message=\"hello\"\n"
    "Stack=\n"
    "\tmain @ 0x1000\n"
    "\t\tmain.go:10\n"
    "\n"
    "M=7 P=0 G=-1 StateTransition Time=8 ProcID=0 Running->Idle Reason=\"\"\n"
    "M=-1 P=1000003 G=5 StateTransition Time=49 GoID=5 Syscall->Runnable Reason=\"\"\n"
    "M=-1 P=-1 G=-1 Sync Time=50 N=2\n";
/* ok_sysexit_sort: gtroracle validate stdout */
static const char ok_sysexit_sort_dump[] =
    "M=-1 P=-1 G=-1 Sync Time=-1 N=1\n"
    "M=7 P=0 G=-1 StateTransition Time=0 ProcID=0 Undetermined->Running Reason=\"\"\n"
    "M=-1 P=-1 G=-1 StateTransition Time=3 GoID=5 Undetermined->Runnable Reason=\"\"\n"
    "M=-1 P=-1 G=-1 StateTransition Time=4 GoID=6 Undetermined->Runnable Reason=\"\"\n"
    "M=7 P=0 G=5 StateTransition Time=5 GoID=5 Runnable->Running Reason=\"\"\n"
    "M=7 P=0 G=5 StateTransition Time=6 GoID=5 Running->Syscall Reason=\"\"\n"
    "M=7 P=0 G=6 StateTransition Time=7 GoID=6 Runnable->Running Reason=\"\"\n";

/* ok_small: a goroutine created before the first Gomaxprocs, a blocking syscall, a log. */
static const char ok_small[] =
    "go 1.21 trace\0\0\0"
    "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x25\x01\x04\x6d\x61\x69\x6e\x25\x02\x07\x6d\x61\x69"
    "\x6e\x2e\x67\x6f\xc3\x07\x03\x01\x80\x20\x01\x02\x0a\x45\x01\x07\xcd\x04\x01\x05\x03\x03"
    "\x84\x01\x04\x03\x8e\x01\x05\x01\x5c\x01\x03\x1e\x01\xdd\x05\x01\x05\x02\x96\x01\xf0\x04"
    "\x01\x00\x01\x03\x05\x68\x65\x6c\x6c\x6f\x06\x01";

/* ok_sysexit_sort: G 5 blocks in a syscall, then P 0 runs G 6 on the same thread. */
static const char ok_sysexit_sort[] =
    "go 1.21 trace\0\0\0"
    "\x41\x00\x64\x02\x80\x94\xeb\xdc\x03\x45\x01\x07\xcd\x04\x01\x05\x00\x00\xcd\x04\x01\x06"
    "\x00\x00\x84\x01\x04\x00\x8e\x01\x05\x01\x5c\x01\x00\x1e\x01\x8e\x01\x06\x01\x5c\x01\x00"
    "\x1e\x01\x61\x01\x80\x20\xdd\x04\x04\x06\x02\x6f\xdd\x04\x01\x05\x02\x6f\x06\x01";

static void test_tracev1_reader_small_trace_matches_go(void **state)
{
    (void)state;
    dump d;
    run_memory(ok_small, sizeof ok_small - 1, &d);
    assert_int_equal(d.rerr.code, GTR_OK);
    assert_true(d.validated);
    assert_string_equal(d.text.data, ok_small_dump);
    gtr_buf_free(&d.text);
}

/* Go's flaw, reproduced: a blocking syscall becomes a GoSyscallBegin with no end until the
 * GoSysExit, but the old trace goes on running other goroutines on the P's thread, so Go's
 * own validator rejects the converted stream. */
static void test_tracev1_reader_blocking_syscall_fails_validation_like_go(void **state)
{
    (void)state;
    dump d;
    run_memory(ok_sysexit_sort, sizeof ok_sysexit_sort - 1, &d);
    assert_int_equal(d.rerr.code, GTR_OK);
    assert_false(d.validated);
    assert_string_equal(d.verr.msg,
                        "tried to run goroutine 6 when one was already executing (5) on thread 7");
    assert_string_equal(d.text.data, ok_sysexit_sort_dump);
    gtr_buf_free(&d.text);
}

/* Old headers other than 1.11, 1.19 and 1.21 get Go's message; an empty v1 trace (no
 * frequency event) fails in NewReader as Go's does. */
static void test_tracev1_reader_other_versions_fail_with_gos_message(void **state)
{
    (void)state;
    static const int vers[] = {5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 20};
    for (size_t i = 0; i < sizeof vers / sizeof vers[0]; i++) {
        char hdr[32] = {0}, want[64];
        int n = snprintf(hdr, sizeof hdr, "go 1.%d trace", vers[i]);
        dump d;
        run_memory(hdr, (size_t)n + 3, &d);
        snprintf(want, sizeof want, "unknown or unsupported trace version go 1.%d", vers[i]);
        assert_string_equal(d.rerr.msg, want);
        gtr_buf_free(&d.text);
    }
    dump d;
    run_memory("go 1.19 trace\0\0\0", 16, &d);
    assert_string_equal(d.rerr.msg, "no EvFrequency event");
    gtr_buf_free(&d.text);
}

/* A trace with a frequency but no events: one Sync (Go's final one) at time 0. */
static void test_tracev1_reader_trace_without_events_is_one_sync(void **state)
{
    (void)state;
    dump d;
    run_memory("go 1.21 trace\0\0\0\x41\x00\x64\x02\x05", 21, &d);
    assert_int_equal(d.rerr.code, GTR_OK);
    assert_string_equal(d.text.data, "M=-1 P=-1 G=-1 Sync Time=0 N=1\n");
    gtr_buf_free(&d.text);
}

/* One crafted trace per version through every converter path Go's testdata leaves out:
 * GoStartLabel, GC and STW (kind 0: per version), sweeps, mark assists, heap metrics, tasks
 * (one ending unknown), network and timer unblocks (NetpollP, TimerP), the block reasons,
 * CPU samples (1.19+). The figure is the SHA-256 of a Go dump equal to gotrace's (for 1.11
 * and 1.21 Go's dump varies: it emits the initial GoStatus events in map order). */
static const struct {
    int ver;
    size_t len;
    const char *data;
    const char *sha;
} converter_paths[] = {
    {11,
     192,
     "\x67\x6f\x20\x31\x2e\x31\x31\x20\x74\x72\x61\x63\x65\x00\x00\x00\x41\x00\x64\x02\x80\x94"
     "\xeb\xdc\x03\x25\x01\x03\x6c\x61\x62\x25\x02\x01\x66\x25\x03\x04\x74\x61\x73\x6b\xc3\x06"
     "\x04\x01\x10\x02\x02\x01\x23\x09\x45\x01\x07\xcd\x04\x01\x05\x04\x04\xcd\x04\x01\x06\x00"
     "\x00\xcd\x04\x01\x09\x00\x00\x84\x01\x04\x04\xe9\x04\x01\x05\x01\x01\x87\x01\x00\x04\x49"
     "\x01\x00\x0a\x01\x4b\x01\x04\x8c\x01\x64\x32\x6b\x01\x04\x2c\x01\x61\x01\x80\x80\x80\x80"
     "\x80\x20\x62\x01\x80\x20\x08\x01\xed\x05\x01\x03\x00\x03\x04\xae\x01\x03\x04\xae\x01\x4d"
     "\x04\x5b\x01\x04\x8e\x01\x06\x01\xd5\x04\x01\x05\x02\x04\x51\x01\x04\x8e\x01\x05\x03\x52"
     "\x01\x04\x8e\x01\x06\x02\x53\x01\x04\x8e\x01\x09\x01\xd5\x04\x01\x06\x03\x04\x50\x01\x04"
     "\x8e\x01\x05\x04\x56\x01\x04\x8e\x01\x06\x04\x5a\x01\x04\x06\x01",
     "4ef27a9b9336acac742abc5745029df9f993d3bcd30ac95adab5f07cf64bc3c2"},
    {19,
     217,
     "\x67\x6f\x20\x31\x2e\x31\x39\x20\x74\x72\x61\x63\x65\x00\x00\x00\x41\x00\x64\x02\x80\x94"
     "\xeb\xdc\x03\x25\x01\x03\x6c\x61\x62\x25\x02\x01\x66\x25\x03\x04\x74\x61\x73\x6b\xc3\x06"
     "\x04\x01\x10\x02\x02\x01\x23\x09\x45\x01\x07\xcd\x04\x01\x05\x04\x04\xcd\x04\x01\x06\x00"
     "\x00\xcd\x04\x01\x09\x00\x00\x84\x01\x04\x04\xe9\x04\x01\x05\x01\x01\x87\x01\x00\x04\x49"
     "\x01\x00\x0a\x01\x4b\x01\x04\x8c\x01\x64\x32\x6b\x01\x04\x2c\x01\x61\x01\x80\x80\x80\x80"
     "\x80\x20\x62\x01\x80\x20\x08\x01\xed\x05\x01\x03\x00\x03\x04\xae\x01\x03\x04\xae\x01\x4d"
     "\x04\x5b\x01\x04\x8e\x01\x06\x01\xd5\x04\x01\x05\x02\x04\x51\x01\x04\x8e\x01\x05\x03\x52"
     "\x01\x04\x8e\x01\x06\x02\x53\x01\x04\x8e\x01\x09\x01\xd5\x04\x01\x06\x03\x04\x50\x01\x04"
     "\x8e\x01\x05\x04\x56\x01\x04\x8e\x01\x06\x04\x5a\x01\x04\x06\x01\xf1\x06\x00\x96\x01\x00"
     "\x05\x04\xf1\x0f\x00\x8c\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x00\x04",
     "bc025dabab3e1d76ec47ed9f77c8f9843703675ed9515e61350abb26a445a2e4"},
    {21,
     217,
     "\x67\x6f\x20\x31\x2e\x32\x31\x20\x74\x72\x61\x63\x65\x00\x00\x00\x41\x00\x64\x02\x80\x94"
     "\xeb\xdc\x03\x25\x01\x03\x6c\x61\x62\x25\x02\x01\x66\x25\x03\x04\x74\x61\x73\x6b\xc3\x06"
     "\x04\x01\x10\x02\x02\x01\x23\x09\x45\x01\x07\xcd\x04\x01\x05\x04\x04\xcd\x04\x01\x06\x00"
     "\x00\xcd\x04\x01\x09\x00\x00\x84\x01\x04\x04\xe9\x04\x01\x05\x01\x01\x87\x01\x00\x04\x49"
     "\x01\x00\x0a\x01\x4b\x01\x04\x8c\x01\x64\x32\x6b\x01\x04\x2c\x01\x61\x01\x80\x80\x80\x80"
     "\x80\x20\x62\x01\x80\x20\x08\x01\xed\x05\x01\x03\x00\x03\x04\xae\x01\x03\x04\xae\x01\x4d"
     "\x04\x5b\x01\x04\x8e\x01\x06\x01\xd5\x04\x01\x05\x02\x04\x51\x01\x04\x8e\x01\x05\x03\x52"
     "\x01\x04\x8e\x01\x06\x02\x53\x01\x04\x8e\x01\x09\x01\xd5\x04\x01\x06\x03\x04\x50\x01\x04"
     "\x8e\x01\x05\x04\x56\x01\x04\x8e\x01\x06\x04\x5a\x01\x04\x06\x01\xf1\x06\x00\x96\x01\x00"
     "\x05\x04\xf1\x0f\x00\x8c\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x00\x04",
     "6dadbde158da3f994a27b1e174709285cbb8c4e7182331a3505dd573289491db"}
};

static void test_tracev1_reader_converter_paths_match_go(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof converter_paths / sizeof converter_paths[0]; i++) {
        dump d;
        run_memory(converter_paths[i].data, converter_paths[i].len, &d);
        assert_int_equal(d.rerr.code, GTR_OK);
        assert_true(d.validated);
        char sha[65];
        sha_of(d.text.data, d.text.len, sha);
        if (strcmp(sha, converter_paths[i].sha) != 0)
            fail_msg("go 1.%d: dump differs from Go's:\n%s", converter_paths[i].ver, d.text.data);
        assert_non_null(strstr(d.text.data, "Label=\"lab\""));
        assert_non_null(strstr(d.text.data, "P=1000002 G=6 StateTransition"));
        assert_non_null(strstr(d.text.data, "P=1000001 G=9 StateTransition"));
        gtr_buf_free(&d.text);
    }
}

/* An allocator that fails from the Nth allocation on, and counts what is live. */
typedef struct failing {
    size_t n, calls;
    long live;
} failing;

static void *f_malloc(void *ctx, size_t size)
{
    failing *f = ctx;
    if (f->calls++ >= f->n)
        return NULL;
    void *p = malloc(size);
    if (p != NULL)
        f->live++;
    return p;
}

static void *f_realloc(void *ctx, void *ptr, size_t size)
{
    failing *f = ctx;
    if (f->calls++ >= f->n)
        return NULL;
    void *p = realloc(ptr, size);
    if (p != NULL && ptr == NULL)
        f->live++;
    return p;
}

static void f_free(void *ctx, void *ptr)
{
    failing *f = ctx;
    if (ptr != NULL)
        f->live--;
    free(ptr);
}

/* Every allocation of the v1 path may fail: the reader then fails with "out of memory"
 * (in gtr_reader_new or a later gtr_reader_next), frees everything, and never crashes. */
static void test_tracev1_reader_every_allocation_failure_is_clean(void **state)
{
    (void)state;
    bool completed = false;
    for (size_t n = 0; n < 10000 && !completed; n++) {
        failing f = {n, 0, 0};
        gtr_alloc a = {f_malloc, f_realloc, f_free, &f};
        gtr_input *in;
        gtr_err err = GTR_ERR_INIT;
        assert_int_equal(gtr_input_open_memory(ok_small, sizeof ok_small - 1, NULL, &in, &err),
                         GTR_OK);
        gtr_reader *r = NULL;
        gtr_status st = gtr_reader_new(in, &a, &r, &err);
        if (st == GTR_OK) {
            gtr_event ev;
            while ((st = gtr_reader_next(r, &ev, &err)) == GTR_OK)
                ;
            completed = st == GTR_EOF;
        }
        if (!completed) {
            assert_int_equal(st, GTR_E_NOMEM);
            assert_string_equal(err.msg, "out of memory");
        }
        gtr_reader_free(r);
        gtr_input_free(in);
        assert_int_equal(f.live, 0);
    }
    assert_true(completed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tracev1_reader_go_testdata_matches_go),
        cmocka_unit_test(test_tracev1_reader_user_annotations_convert),
        cmocka_unit_test(test_tracev1_reader_small_trace_matches_go),
        cmocka_unit_test(test_tracev1_reader_blocking_syscall_fails_validation_like_go),
        cmocka_unit_test(test_tracev1_reader_other_versions_fail_with_gos_message),
        cmocka_unit_test(test_tracev1_reader_trace_without_events_is_one_sync),
        cmocka_unit_test(test_tracev1_reader_every_allocation_failure_is_clean),
        cmocka_unit_test(test_tracev1_reader_converter_paths_match_go),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
