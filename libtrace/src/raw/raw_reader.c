/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/raw/reader.go at go1.27.3: the binary (wire) reader.
 *
 * Like Go's, this reader returns io errors bare. In particular a trace that ends exactly where
 * an argument, a frame value, or a data byte should start reads as a clean end ("EOF",
 * GTR_EOF), because binary.ReadUvarint and ReadByte report io.EOF there; only a varint cut
 * in the middle is "unexpected EOF". Frames and data are stored as they arrive, so an absurd
 * nframes or data length costs nothing until the bytes actually exist. After an error the
 * reader is sticky and repeats it. */
#include <inttypes.h>
#include <string.h>

#include "gtr/raw.h"
#include "mem.h"
#include "raw_priv.h"

#define DATA_CHUNK (64u << 10)

struct gtr_raw_reader {
    gtr_alloc alc;
    gtr_input *in;
    gtr_go_version v;
    size_t nspecs;
    uint64_t *args;
    size_t args_cap;
    uint8_t *data;
    size_t data_cap;
    gtr_err err; /* sticky; GTR_OK while healthy */
};

gtr_status gtr_raw_reader_new(gtr_input *in, const gtr_alloc *alc, gtr_raw_reader **out,
                              gtr_err *err)
{
    if (out == NULL || in == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_raw_reader_new: NULL argument");
    *out = NULL;
    gtr_go_version v;
    gtr_status st = gtr_header_read(in, &v, err);
    if (st != GTR_OK)
        return st;
    const gtr_alloc *a = gtr__alloc_or_libc(alc);
    gtr_raw_reader *r = gtr__calloc(a, 1, sizeof *r);
    if (r == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    r->alc = *a;
    r->in = in;
    r->v = v;
    r->nspecs = gtr_go_version_nspecs(v);
    gtr_err_set_alloc(&r->err, &r->alc);
    *out = r;
    return GTR_OK;
}

gtr_go_version gtr_raw_reader_version(const gtr_raw_reader *r)
{
    return r->v;
}

void gtr_raw_reader_free(gtr_raw_reader *r)
{
    if (r == NULL)
        return;
    gtr_alloc a = r->alc;
    gtr_err_clear(&r->err);
    gtr__free(&a, r->args);
    gtr__free(&a, r->data);
    gtr__free(&a, r);
}

/* read_args appends n uvarints to r->args[*nargs..] (readArgs). */
static gtr_status read_args(gtr_raw_reader *r, size_t *nargs, size_t n, gtr_err *err)
{
    if (!GTR__GROW(&r->alc, r->args, r->args_cap, *nargs + n))
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        gtr_status st = gtr_input_uvarint(r->in, &r->args[*nargs], err);
        if (st != GTR_OK)
            return st; /* bare: "EOF", "unexpected EOF", overflow, input errors */
        (*nargs)++;
    }
    return GTR_OK;
}

/* read_data reads the length-prefixed trailer (readData). Go appends byte by byte, so its
 * Data stays nil when the length is 0 (or negative as an int). */
static gtr_status read_data(gtr_raw_reader *r, size_t *len, gtr_err *err)
{
    uint64_t n;
    gtr_status st = gtr_input_uvarint(r->in, &n, err);
    if (st != GTR_OK)
        return st;
    n = gtr__go_int_count(n);
    *len = 0;
    while (n > 0) {
        size_t chunk = n > DATA_CHUNK ? DATA_CHUNK : (size_t)n;
        if (!GTR__GROW(&r->alc, r->data, r->data_cap, *len + chunk))
            return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        size_t got;
        st = gtr_input_read(r->in, r->data + *len, chunk, &got, err);
        *len += got;
        if (st != GTR_OK)
            return st;
        if (got < chunk)
            /* Go: ReadByte's io.EOF, returned bare */
            return gtr_err_setf(err, GTR_EOF, "EOF");
        n -= chunk;
    }
    return GTR_OK;
}

static gtr_status next(gtr_raw_reader *r, gtr_raw_event *ev, gtr_err *err)
{
    int c = gtr_input_byte(r->in);
    if (c < 0) {
        gtr_status st = gtr_input_error(r->in, err);
        if (st != GTR_OK)
            return st;
        /* Go: io.EOF */
        return gtr_err_setf(err, GTR_EOF, "EOF");
    }
    if ((size_t)c >= r->nspecs || c == 0)
        /* Go: fmt.Errorf("invalid event type: %d", evb) */
        return gtr_err_setf(err, GTR_E_FORMAT, "invalid event type: %d", c);
    const gtr_event_spec *spec = gtr_spec((uint8_t)c);
    size_t nargs = 0;
    gtr_status st = read_args(r, &nargs, spec->nargs, err);
    if (st != GTR_OK)
        return st;
    if (spec->is_stack) {
        /* Each stack frame has four args: pc, func ID, file ID, line number. */
        uint64_t nframes = gtr__go_int_count(r->args[1]);
        for (uint64_t i = 0; i < nframes; i++) {
            if ((st = read_args(r, &nargs, 4, err)) != GTR_OK)
                return st;
        }
    }
    size_t data_len = 0;
    if (spec->has_data && (st = read_data(r, &data_len, err)) != GTR_OK)
        return st;
    memset(ev, 0, sizeof *ev);
    ev->version = (uint8_t)r->v;
    ev->type = (uint8_t)c;
    ev->args = r->args;
    ev->nargs = nargs;
    ev->data = data_len > 0 ? r->data : NULL;
    ev->data_len = data_len;
    ev->has_data_field = data_len > 0;
    return GTR_OK;
}

gtr_status gtr_raw_reader_next(gtr_raw_reader *r, gtr_raw_event *ev, gtr_err *err)
{
    if (r == NULL || ev == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_raw_reader_next: NULL argument");
    if (r->err.code != GTR_OK) {
        gtr_err_copy(err, &r->err);
        return r->err.code;
    }
    gtr_status st = next(r, ev, &r->err);
    if (st != GTR_OK) {
        gtr_err_copy(err, &r->err);
        return st;
    }
    return GTR_OK;
}
