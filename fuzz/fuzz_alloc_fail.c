/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_alloc_fail.c: allocation-failure injection (libxml2's and libpng's idea).
 *
 * Input: 4 bytes little-endian, then a trace (wire bytes, gzip or not). The low 31 bits of
 * the word choose which allocation fails (1 = the first; 0 = none); with the top bit set every
 * allocation from that one on fails too. The trace is read and validated twice through a
 * counting gtr_alloc: once without failure (the baseline), once with it. Oracles:
 *   - when the failure was injected, the run must end in an error status, unless it
 *     produced exactly the baseline's events and verdict (a graceful fallback): a success
 *     with missing events is a bug;
 *   - when it was not injected, the run must equal the baseline (determinism);
 *   - every allocation is freed (the allocator counts live blocks; ASan also checks);
 *   - never a crash: ASan/UBSan watch the error paths the injection reaches. */
#include "fuzz_common.h"
#include "gtr/reader.h"
#include "gtr/validate.h"

typedef struct counting_alloc {
    uint64_t calls;      /* allocation calls so far */
    uint64_t fail_at;    /* 0: never */
    bool sticky;         /* fail every call from fail_at on */
    bool injected;       /* a call failed on purpose */
    int64_t live;        /* blocks allocated and not yet freed */
} counting_alloc;

static bool should_fail(counting_alloc *c)
{
    c->calls++;
    if (c->fail_at != 0 && (c->calls == c->fail_at || (c->sticky && c->calls > c->fail_at))) {
        c->injected = true;
        return true;
    }
    return false;
}

static void *ca_malloc(void *ctx, size_t size)
{
    counting_alloc *c = ctx;
    if (should_fail(c))
        return NULL;
    void *p = malloc(size ? size : 1);
    if (p != NULL)
        c->live++;
    return p;
}

static void *ca_realloc(void *ctx, void *ptr, size_t size)
{
    counting_alloc *c = ctx;
    if (should_fail(c))
        return NULL;
    void *p = realloc(ptr, size ? size : 1);
    if (p != NULL && ptr == NULL)
        c->live++;
    return p;
}

static void ca_free(void *ctx, void *ptr)
{
    counting_alloc *c = ctx;
    if (ptr != NULL)
        c->live--;
    free(ptr);
}

typedef struct run_result {
    gtr_status read;        /* reader's final status (GTR_OK at a clean end) */
    gtr_status valid;       /* first validator error, or GTR_OK */
    gtr_status dump;        /* status of formatting the events (gtr_event_string) */
    uint64_t nevents;
    uint64_t digest;        /* FNV-1a of the events' String() */
} run_result;

static uint64_t fnv(uint64_t h, const char *d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)d[i]) * 0x100000001b3ULL;
    return h;
}

/* run reads and validates the trace with allocator c. */
static void run(const uint8_t *data, size_t size, counting_alloc *c, run_result *res)
{
    gtr_alloc alc = {ca_malloc, ca_realloc, ca_free, c};
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_validator *v = NULL;
    gtr_buf line;
    gtr_err err = GTR_ERR_INIT;

    memset(res, 0, sizeof *res);
    res->digest = 0xcbf29ce484222325ULL;
    /* The error's own text goes through the failing allocator too: a long message whose
     * allocation fails keeps its leading part. */
    gtr_err_set_alloc(&err, &alc);
    gtr_buf_init(&line, &alc);
    if ((res->read = gtr_input_open_memory(data, size, &alc, &in, &err)) < 0)
        goto out;
    gtr_input_set_limit(in, FUZZ_MAX_DECOMPRESSED_BYTES);
    if ((res->read = gtr_reader_new(in, &alc, &r, &err)) < 0)
        goto out;
    if ((res->valid = gtr_validator_new(&alc, &v, &err)) < 0)
        goto out;
    gtr_validator_set_go_version(v, gtr_reader_go_version(r));
    for (;;) {
        gtr_event ev;
        gtr_status st = gtr_reader_next(r, &ev, &err);
        if (st == GTR_EOF)
            break;
        if (st < 0) {
            res->read = st;
            break;
        }
        if (++res->nevents > FUZZ_MAX_EVENTS)
            break;
        gtr_buf_reset(&line);
        if (res->dump == GTR_OK && (st = gtr_event_string(&ev, &line)) < 0)
            res->dump = st;
        res->digest = fnv(res->digest, line.data ? line.data : "", line.len);
        if (res->valid == GTR_OK && (st = gtr_validator_event(v, &ev, &err)) < 0)
            res->valid = st;
    }
out:
    gtr_err_clear(&err);
    gtr_buf_free(&line);
    gtr_validator_free(v);
    gtr_reader_free(r);
    gtr_input_free(in);
}

static bool failed(const run_result *r)
{
    return r->read < 0 || r->valid < 0 || r->dump < 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4 || size > FUZZ_MAX_INPUT_BYTES)
        return 0;
    uint32_t word = (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 |
                    (uint32_t)data[3] << 24;
    counting_alloc base = {0}, inj = {.fail_at = word & 0x7fffffffu, .sticky = word >> 31};
    run_result want, got;

    run(data + 4, size - 4, &base, &want);
    FUZZ_CHECK(base.live == 0, "baseline run leaked allocations");
    run(data + 4, size - 4, &inj, &got);
    FUZZ_CHECK(inj.live == 0, "allocations leaked after an injected failure");
    bool same = got.read == want.read && got.valid == want.valid && got.dump == want.dump &&
                got.nevents == want.nevents && got.digest == want.digest;
    if (!inj.injected) {
        FUZZ_CHECK(same, "run without injection differs from the baseline");
        return 0;
    }
    /* Injected: an error, or exactly the baseline (the allocation had a fallback). */
    FUZZ_CHECK(failed(&got) || same, "allocation failure ignored: success with missing events");
    if (failed(&got) && !failed(&want))
        FUZZ_CHECK(got.read == GTR_E_NOMEM || got.valid == GTR_E_NOMEM ||
                       got.dump == GTR_E_NOMEM,
                   "an injected allocation failure surfaced as an error other than GTR_E_NOMEM");
    return 0;
}

/* fuzz_alloc_fail_count returns how many allocations reading and validating the trace
 * data[0..size) makes (for the ctest that fails each of them in turn). */
uint64_t fuzz_alloc_fail_count(const uint8_t *data, size_t size);

uint64_t fuzz_alloc_fail_count(const uint8_t *data, size_t size)
{
    counting_alloc c = {0};
    run_result r;
    run(data, size, &c, &r);
    return c.calls;
}
