/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_common.h: budgets and small helpers shared by the fuzz targets (fuzz/fuzz_*.c).
 *
 * Every target is one LLVMFuzzerTestOneInput without globals. The same source builds four
 * ways (fuzz/README.md): the regression driver (any compiler), libFuzzer, AFL++ persistent
 * mode, and OSS-Fuzz's $LIB_FUZZING_ENGINE. fuzz/CMakeLists.txt defines
 * FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION for all of them, so a replay behaves exactly like
 * the fuzzer that found the input.
 *
 * Budgets: OSS-Fuzz files an input as a bug when it takes more than 25 s or 2560 MB. The
 * caps below keep the slowest unit well under a second under ASan+UBSan: inputs are at most
 * 1 MiB (the options files say max_len 65536 anyway), a gzip input may expand to 4 MiB, and
 * a target stops after 100,000 events. */
#ifndef GTR_FUZZ_COMMON_H
#define GTR_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtr/gtr.h"

#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define FUZZ_MAX_INPUT_BYTES ((size_t)1 << 20)           /* larger inputs are ignored */
#define FUZZ_MAX_DECOMPRESSED_BYTES ((uint64_t)4 << 20)  /* gtr_input_set_limit */
#define FUZZ_MAX_EVENTS 100000                           /* events looked at per input */
#else
#define FUZZ_MAX_INPUT_BYTES ((size_t)64 << 20)
#define FUZZ_MAX_DECOMPRESSED_BYTES ((uint64_t)256 << 20)
#define FUZZ_MAX_EVENTS 20000000
#endif

/* The entry point every target defines (libFuzzer's contract). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* FUZZ_CHECK aborts with a message when an oracle fails: every engine reports an abort as a
 * crash, and the message names the broken property. */
#define FUZZ_CHECK(cond, what)                                                            \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: fuzz oracle failed: %s (%s)\n", __FILE__, __LINE__,  \
                    (what), #cond);                                                       \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

/* fuzz_input_open opens data[0..size) as a gtr_input capped at FUZZ_MAX_DECOMPRESSED_BYTES.
 * Returns NULL when the input cannot even be opened (a gzip header error, for example). */
static inline gtr_input *fuzz_input_open(const uint8_t *data, size_t size)
{
    gtr_input *in = NULL;
    if (gtr_input_open_memory(data, size, NULL, &in, NULL) != GTR_OK)
        return NULL;
    gtr_input_set_limit(in, FUZZ_MAX_DECOMPRESSED_BYTES);
    return in;
}

/* A list of raw events copied out of a reader (a reader's events are borrowed). Entries
 * live in `ents`, argument words in `args`, trailers in `data`; all three are gtr_bufs, so
 * an allocation failure is sticky and checked once with fuzz_rawlist_ok. */
typedef struct fuzz_rawent {
    uint8_t type;
    bool has_data_field;
    size_t nargs, args_off, data_len, data_off;
} fuzz_rawent;

typedef struct fuzz_rawlist {
    gtr_buf ents, args, data;
    size_t n;
    gtr_go_version version;
} fuzz_rawlist;

static inline void fuzz_rawlist_free(fuzz_rawlist *l)
{
    gtr_buf_free(&l->ents);
    gtr_buf_free(&l->args);
    gtr_buf_free(&l->data);
    memset(l, 0, sizeof *l);
}

static inline bool fuzz_rawlist_ok(const fuzz_rawlist *l)
{
    return gtr_buf_status(&l->ents) == GTR_OK && gtr_buf_status(&l->args) == GTR_OK &&
           gtr_buf_status(&l->data) == GTR_OK;
}

static inline void fuzz_rawlist_add(fuzz_rawlist *l, const gtr_raw_event *ev)
{
    fuzz_rawent e;
    memset(&e, 0, sizeof e);
    e.type = ev->type;
    e.has_data_field = ev->has_data_field;
    e.nargs = ev->nargs;
    e.args_off = l->args.len;
    e.data_len = ev->data_len;
    e.data_off = l->data.len;
    if (ev->nargs > 0)
        gtr_buf_append(&l->args, ev->args, ev->nargs * sizeof ev->args[0]);
    if (ev->data_len > 0)
        gtr_buf_append(&l->data, ev->data, ev->data_len);
    gtr_buf_append(&l->ents, &e, sizeof e);
    l->n++;
}

/* fuzz_rawlist_entry returns the bookkeeping of entry i (i < l->n). */
static inline fuzz_rawent fuzz_rawlist_entry(const fuzz_rawlist *l, size_t i)
{
    fuzz_rawent e;
    memcpy(&e, l->ents.data + i * sizeof e, sizeof e);
    return e;
}

/* fuzz_rawlist_arg returns argument j of entry e. */
static inline uint64_t fuzz_rawlist_arg(const fuzz_rawlist *l, const fuzz_rawent *e, size_t j)
{
    uint64_t v;
    memcpy(&v, l->args.data + e->args_off + j * sizeof v, sizeof v);
    return v;
}

/* fuzz_rawlist_event builds a gtr_raw_event for entry e. Its args are copied into scratch
 * (so they are aligned; the caller frees scratch), its data points into l. */
static inline bool fuzz_rawlist_event(const fuzz_rawlist *l, const fuzz_rawent *e,
                                      gtr_buf *scratch, gtr_raw_event *ev)
{
    gtr_buf_reset(scratch);
    if (e->nargs > 0 &&
        gtr_buf_append(scratch, l->args.data + e->args_off, e->nargs * sizeof(uint64_t)) != GTR_OK)
        return false;
    memset(ev, 0, sizeof *ev);
    ev->version = (uint8_t)l->version;
    ev->type = e->type;
    ev->args = (const uint64_t *)(void *)scratch->data;
    ev->nargs = e->nargs;
    ev->data = e->data_len > 0 ? (const uint8_t *)l->data.data + e->data_off : NULL;
    ev->data_len = e->data_len;
    ev->has_data_field = e->has_data_field;
    return true;
}

/* fuzz_rawlist_same_event: entries a (of la) and b (of lb) carry the same type, arguments
 * and trailer bytes. strict also compares has_data_field (nil versus empty Data), which the
 * wire format cannot preserve for an empty trailer. */
static inline bool fuzz_rawlist_same_event(const fuzz_rawlist *la, size_t a,
                                           const fuzz_rawlist *lb, size_t b, bool strict)
{
    fuzz_rawent ea = fuzz_rawlist_entry(la, a), eb = fuzz_rawlist_entry(lb, b);
    if (ea.type != eb.type || ea.nargs != eb.nargs || ea.data_len != eb.data_len)
        return false;
    if (strict && ea.has_data_field != eb.has_data_field)
        return false;
    if (ea.nargs > 0 && memcmp(la->args.data + ea.args_off, lb->args.data + eb.args_off,
                               ea.nargs * sizeof(uint64_t)) != 0)
        return false;
    return ea.data_len == 0 ||
           memcmp(la->data.data + ea.data_off, lb->data.data + eb.data_off, ea.data_len) == 0;
}

#endif /* GTR_FUZZ_COMMON_H */
