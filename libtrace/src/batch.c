/* Port of src/internal/trace/batch.go at go1.27.3. */
/* SPDX-License-Identifier: BSD-3-Clause */
/* batch.c: reading one batch off the wire (Go's readBatch) and classifying it. The data of
 * a batch is read in one block straight into the buffer the caller picks once the first
 * data byte (the kind of the batch) is known, so that event batches land in the
 * generation's arena and table batches in a reusable scratch buffer. From a plain memory
 * input, which outlives the reader, the data is not copied at all: the batch points into the
 * caller's bytes. */
#include <string.h>

#include "batch.h"
#include "input_priv.h"

bool gtr__batch_is_strings(const gtr__batch *b)
{
    return b->exp == GTR_EXP_NONE && b->len > 0 && b->data[0] == GTR_EV_STRINGS;
}

bool gtr__batch_is_stacks(const gtr__batch *b)
{
    return b->exp == GTR_EXP_NONE && b->len > 0 && b->data[0] == GTR_EV_STACKS;
}

bool gtr__batch_is_cpu_samples(const gtr__batch *b)
{
    return b->exp == GTR_EXP_NONE && b->len > 0 && b->data[0] == GTR_EV_CPU_SAMPLES;
}

bool gtr__batch_is_sync(const gtr__batch *b, gtr_go_version v)
{
    return b->exp == GTR_EXP_NONE && b->len > 0 &&
           ((b->data[0] == GTR_EV_FREQUENCY && v < GTR_GO125) ||
            (b->data[0] == GTR_EV_SYNC && v >= GTR_GO125));
}

bool gtr__batch_is_end_of_generation(const gtr__batch *b)
{
    return b->exp == GTR_EXP_NONE && b->len > 0 && b->data[0] == GTR_EV_END_OF_GENERATION;
}

bool gtr__batch_kind_is_structural(uint8_t exp, uint8_t first, gtr_go_version v)
{
    if (exp != GTR_EXP_NONE)
        return false;
    switch (first) {
    case GTR_EV_STRINGS:
    case GTR_EV_STACKS:
    case GTR_EV_CPU_SAMPLES:
        return true;
    case GTR_EV_FREQUENCY:
        return v < GTR_GO125;
    case GTR_EV_SYNC:
        return v >= GTR_GO125;
    default:
        return false;
    }
}

/* read_byte is bufio.Reader.ReadByte: GTR_EOF (message "EOF") at the end of input. */
static gtr_status read_byte(gtr_input *in, uint8_t *out, gtr_err *err)
{
    int c = gtr_input_byte(in);
    if (c >= 0) {
        *out = (uint8_t)c;
        return GTR_OK;
    }
    gtr_status st = gtr_input_error(in, err);
    if (st != GTR_OK)
        return st;
    return gtr_err_setf(err, GTR_EOF, "EOF");
}

/* read_uvarint is binary.ReadUvarint wrapped as fmt.Errorf("<what>: %w", err): every
 * failure, a bare EOF included, is an error of the batch. */
static gtr_status read_uvarint(gtr_input *in, uint64_t *v, const char *what, gtr_err *err)
{
    gtr_status st = gtr_input_uvarint(in, v, err);
    if (st == GTR_OK)
        return GTR_OK;
    if (st > 0)
        gtr_err_setf(err, GTR_E_FORMAT, "EOF");
    return gtr_err_wrapf(err, "%s", what);
}

gtr_status gtr__batch_read(gtr_input *in, gtr__batch_dest dest, void *dest_ctx, gtr__batch *b,
                           uint64_t *gen, gtr_err *err)
{
    static const uint8_t end_of_generation = GTR_EV_END_OF_GENERATION;
    memset(b, 0, sizeof *b);
    b->next = GTR__BATCH_NONE;
    *gen = 0;

    /* Read the batch header byte. */
    uint8_t typ = 0;
    gtr_status st = read_byte(in, &typ, err);
    if (st != GTR_OK)
        return st;
    if (typ == GTR_EV_END_OF_GENERATION) {
        b->m = GTR_NO_THREAD;
        b->exp = GTR_EXP_NONE;
        b->data = &end_of_generation;
        b->len = 1;
        return GTR_OK;
    }
    if (typ != GTR_EV_EVENT_BATCH && typ != GTR_EV_EXPERIMENTAL_BATCH)
        /* Go: "expected batch event, got event %d" */
        return gtr_err_setf(err, GTR_E_FORMAT, "expected batch event, got event %d", typ);

    /* Read the experiment if we have one. Go returns ReadByte's io.EOF as is, which its
     * callers take for a clean end of the trace. */
    uint8_t exp = GTR_EXP_NONE;
    if (typ == GTR_EV_EXPERIMENTAL_BATCH) {
        st = read_byte(in, &exp, err);
        if (st != GTR_OK)
            return st;
    }

    /* Read the batch header: gen (generation), thread (M) ID, base timestamp. */
    uint64_t g, m, ts, size;
    st = read_uvarint(in, &g, "error reading batch gen", err);
    if (st != GTR_OK)
        return st;
    *gen = g;
    st = read_uvarint(in, &m, "error reading batch M ID", err);
    if (st != GTR_OK)
        return st;
    st = read_uvarint(in, &ts, "error reading batch timestamp", err);
    if (st != GTR_OK)
        return st;

    /* Read in the size of the batch to follow. */
    st = read_uvarint(in, &size, "error reading batch size", err);
    if (st != GTR_OK)
        return st;
    if (size > GTR_MAX_BATCH_SIZE)
        /* Go: "invalid batch size %d, maximum is %d" */
        return gtr_err_setf(err, GTR_E_FORMAT, "invalid batch size %llu, maximum is %u",
                            (unsigned long long)size, GTR_MAX_BATCH_SIZE);

    /* Copy out the batch for later processing: the first byte decides where it goes. Bytes
     * that outlive the reader are used where they are. */
    const uint8_t *data = NULL;
    if (size > 0 && gtr__input_borrow(in, (size_t)size, &data)) {
        /* data is the batch, in place */
    } else if (size > 0) {
        uint8_t first;
        size_t got = 0;
        gtr_err ierr = GTR_ERR_INIT;
        st = gtr_input_read(in, &first, 1, &got, &ierr);
        if (got == 1) {
            uint8_t *copy = dest(dest_ctx, exp, first, (size_t)size);
            if (copy == NULL) {
                gtr_err_clear(&ierr);
                return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
            }
            copy[0] = first;
            if (size > 1) {
                size_t rest = 0;
                st = gtr_input_read(in, copy + 1, (size_t)size - 1, &rest, &ierr);
                got += rest;
            }
            data = copy;
        }
        if (got != size) {
            /* A configured limit or an allocation failure is reported as such. */
            if (st == GTR_E_LIMIT || st == GTR_E_NOMEM) {
                gtr_err_move(err, &ierr);
                return st;
            }
            gtr_err_clear(&ierr);
            /* Go: "failed to read full batch: read %d but wanted %d" */
            return gtr_err_setf(err, GTR_E_FORMAT,
                                "failed to read full batch: read %zu but wanted %llu", got,
                                (unsigned long long)size);
        }
        gtr_err_clear(&ierr);
    }

    b->m = (gtr_threadid)m;
    b->time = ts;
    b->data = data;
    b->len = (size_t)size;
    b->exp = exp;
    return GTR_OK;
}

gtr_status gtr__bytes_uvarint(gtr__bytes *r, uint64_t *v, gtr_err *err)
{
    uint64_t x = 0;
    unsigned s = 0;
    for (int i = 0; i < 10; i++) {
        if (r->off >= r->len) {
            *v = x;
            /* Go returns io.EOF itself here, which the reader's callers take for the end of
             * the trace: GTR_EOF, not an error. */
            if (i == 0)
                return gtr_err_setf(err, GTR_EOF, "EOF");
            return gtr_err_setf(err, GTR_E_FORMAT, "unexpected EOF");
        }
        uint8_t b = r->p[r->off++];
        if (b < 0x80) {
            if (i == 9 && b > 1) {
                *v = x;
                return gtr_err_setf(err, GTR_E_FORMAT,
                                    "binary: varint overflows a 64-bit integer");
            }
            *v = x | (uint64_t)b << s;
            return GTR_OK;
        }
        x |= (uint64_t)(b & 0x7f) << s;
        s += 7;
    }
    *v = x;
    return gtr_err_setf(err, GTR_E_FORMAT, "binary: varint overflows a 64-bit integer");
}
