/* SPDX-License-Identifier: BSD-3-Clause */
/* input.c: buffered, gzip-transparent byte input (the io.Reader/bufio.Reader under every
 * libtrace reader), and binary.ReadUvarint.
 *
 * Layout: a "source" yields raw bytes (a FILE read in 64 KiB chunks, or caller memory read in
 * place). Plain input is delivered straight from the source's bytes (memory is never copied);
 * gzip input (first two bytes 1f 8b) is inflated from the source into a 64 KiB output buffer.
 * Reads are served from the window buf[pos..end); `base` is the input offset of buf[0].
 *
 * Errors are sticky: once a read fails the input keeps the error and every later read
 * reports it. The limit cuts the delivered window at the limit; when bytes are known to
 * exist beyond it, the next refill fails with GTR_E_LIMIT (an input exactly limit bytes long
 * reads cleanly to its end). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include <zlib.h>

#include "gtr/input.h"
#include "input_priv.h"
#include "mem.h"

#define INPUT_BUF_SIZE (64u << 10)

/* Maximum length of a varint-encoded 64-bit integer (binary.MaxVarintLen64). */
#define MAX_VARINT_LEN64 10

struct gtr_input {
    gtr_alloc alc;

    /* Source: a FILE or memory. */
    FILE *fp;
    bool own_fp;
    const char *name;        /* for I/O messages: the path, or "stdin" */
    char *name_owned;
    const uint8_t *raw;      /* source bytes: src[raw_pos..raw_end) unread */
    size_t raw_pos, raw_end;
    uint8_t *raw_buf;        /* owned chunk buffer of a FILE source */
    size_t fill_cap;         /* the bytes the next fread of a FILE source asks for */
    bool raw_eof;            /* the source has no more bytes */

    /* Delivery window. */
    const uint8_t *buf;
    size_t pos, end;
    uint64_t base;           /* input offset of buf[0] */
    uint64_t limit;          /* 0: none */
    bool over_limit;         /* bytes exist past the limit */

    /* Gzip. */
    bool gzip;
    bool zinit;
    bool member_done;        /* between gzip members */
    z_stream zs;
    uint8_t *out_buf;

    /* Peek splice: when a peek straddles two windows, the window becomes splice[] and the
     * rest of the newer window waits in next_*. */
    uint8_t splice[GTR__INPUT_PEEK_MAX];
    bool has_next;
    const uint8_t *next_buf;
    size_t next_pos, next_end;

    /* The owner's release function (memory inputs): told how far the bytes are done with. */
    gtr_input_release_fn release;
    void *release_ctx;
    uint64_t released;

    /* Sticky state. */
    bool eof;
    gtr_err err;             /* err.code != GTR_OK once failed; last (see input_new) */
};

/* zlib allocates through the input's allocator. */
static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
    const gtr_input *in = opaque;
    return gtr__calloc(&in->alc, items, size);
}

static void z_free(voidpf opaque, voidpf p)
{
    const gtr_input *in = opaque;
    gtr__free(&in->alc, p);
}

static gtr_status fail(gtr_input *in, gtr_status code, const char *fmt, ...) GTR_PRINTF(3, 4);

static gtr_status fail(gtr_input *in, gtr_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gtr_err_vsetf(&in->err, code, fmt, ap);
    va_end(ap);
    in->buf = NULL;
    in->pos = in->end = 0;
    return code;
}

/* raw_fill makes sure at least one unread source byte is available, unless the source is
 * exhausted. Returns GTR_OK (check raw_pos < raw_end) or an I/O error. */
static gtr_status raw_fill(gtr_input *in)
{
    if (in->raw_pos < in->raw_end || in->raw_eof)
        return GTR_OK;
    if (in->fp == NULL) {
        in->raw_eof = true;
        return GTR_OK;
    }
    /* fread returns only when it has all it asked for, or at the end: the first reads ask for
     * the 16 bytes of a trace header, then twice as much each time up to a full chunk, so that
     * a pipe that sends a bad header and then stalls is judged on the header alone. */
    if (in->fill_cap == 0)
        in->fill_cap = 16;
    size_t n = fread(in->raw_buf, 1, in->fill_cap, in->fp);
    if (in->fill_cap < INPUT_BUF_SIZE)
        in->fill_cap = in->fill_cap * 2 < INPUT_BUF_SIZE ? in->fill_cap * 2 : INPUT_BUF_SIZE;
    in->raw_pos = 0;
    in->raw_end = n;
    if (n == 0) {
        if (ferror(in->fp)) {
            char why[128];
            return fail(in, GTR_E_IO, "read %s: %s", in->name,
                        gtr_errno_text(errno != 0 ? errno : EIO, why, sizeof why));
        }
        in->raw_eof = true;
    }
    return GTR_OK;
}

/* raw_peek2 makes sure two source bytes are available when the source has them (a FILE
 * chunk may end after one byte). */
static gtr_status raw_peek2(gtr_input *in)
{
    gtr_status st = raw_fill(in);
    if (st != GTR_OK || in->raw_end - in->raw_pos >= 2 || in->raw_eof || in->fp == NULL)
        return st;
    /* One byte buffered: move it to the front and read more behind it. */
    in->raw_buf[0] = in->raw_buf[in->raw_pos];
    in->raw_pos = 0;
    in->raw_end = 1;
    while (in->raw_end < 2) {
        size_t n = fread(in->raw_buf + in->raw_end, 1, 1, in->fp);
        if (n == 0) {
            if (ferror(in->fp)) {
                char why[128];
                return fail(in, GTR_E_IO, "read %s: %s", in->name,
                            gtr_errno_text(errno != 0 ? errno : EIO, why, sizeof why));
            }
            break; /* the next raw_fill after this byte marks EOF */
        }
        in->raw_end += n;
    }
    return GTR_OK;
}

/* inflate_some inflates into out_buf until at least one byte comes out or the stream ends.
 * Returns the number of bytes produced via *n. Concatenated members are read in turn, as
 * Go's gzip.Reader does in its default multistream mode. */
static gtr_status inflate_some(gtr_input *in, size_t *n)
{
    *n = 0;
    for (;;) {
        gtr_status st;
        if (in->member_done) {
            /* Go: another member follows only if the next header is there; a clean end of
             * input here is the end of the stream. */
            if ((st = raw_peek2(in)) != GTR_OK)
                return st;
            if (in->raw_pos == in->raw_end)
                return GTR_OK;
            if (in->raw_end - in->raw_pos < 2) {
                in->raw_pos = in->raw_end;
                /* Go: io.ErrUnexpectedEOF from gzip's header read. */
                return fail(in, GTR_E_FORMAT, "unexpected EOF");
            }
            if (in->raw[in->raw_pos] != 0x1f || in->raw[in->raw_pos + 1] != 0x8b)
                /* Go: gzip.ErrHeader */
                return fail(in, GTR_E_FORMAT, "gzip: invalid header");
            if (inflateReset(&in->zs) != Z_OK)
                return fail(in, GTR_E_FORMAT, "gzip: invalid header");
            in->member_done = false;
        }
        if ((st = raw_fill(in)) != GTR_OK)
            return st;
        size_t avail = in->raw_end - in->raw_pos;
        uInt chunk_in = avail > UINT_MAX ? UINT_MAX : (uInt)avail;
        in->zs.next_in = (Bytef *)(uintptr_t)(in->raw + in->raw_pos);
        in->zs.avail_in = chunk_in;
        in->zs.next_out = in->out_buf;
        in->zs.avail_out = INPUT_BUF_SIZE;
        int zr = inflate(&in->zs, Z_NO_FLUSH);
        in->raw_pos += chunk_in - in->zs.avail_in;
        *n = INPUT_BUF_SIZE - in->zs.avail_out;
        switch (zr) {
        case Z_STREAM_END:
            in->member_done = true;
            break;
        case Z_OK:
            break;
        case Z_BUF_ERROR:
            /* No progress possible: input exhausted mid-stream. */
            if (*n == 0 && in->raw_pos == in->raw_end && in->raw_eof)
                /* Go: io.ErrUnexpectedEOF (truncated gzip stream). */
                return fail(in, GTR_E_FORMAT, "unexpected EOF");
            break;
        case Z_MEM_ERROR:
            return fail(in, GTR_E_NOMEM, "gzip: out of memory");
        case Z_DATA_ERROR: {
            const char *m = in->zs.msg != NULL ? in->zs.msg : "corrupt input";
            if (strcmp(m, "incorrect data check") == 0 ||
                strcmp(m, "incorrect length check") == 0)
                /* Go: gzip.ErrChecksum */
                return fail(in, GTR_E_FORMAT, "gzip: invalid checksum");
            if (strcmp(m, "incorrect header check") == 0 ||
                strcmp(m, "unknown compression method") == 0 ||
                strcmp(m, "unknown header flags set") == 0 ||
                strcmp(m, "header crc mismatch") == 0)
                /* Go: gzip.ErrHeader */
                return fail(in, GTR_E_FORMAT, "gzip: invalid header");
            /* Go: flate.CorruptInputError ("flate: corrupt input before offset %d"); zlib's
             * reason replaces the offset. */
            return fail(in, GTR_E_FORMAT, "flate: corrupt input (%s)", m);
        }
        default:
            return fail(in, GTR_E_FORMAT, "gzip: %s",
                        in->zs.msg != NULL ? in->zs.msg : "inflate failed");
        }
        if (*n > 0)
            return GTR_OK;
        if (in->member_done)
            continue;
        if (in->raw_pos == in->raw_end && in->raw_eof)
            /* Go: io.ErrUnexpectedEOF (truncated gzip stream). */
            return fail(in, GTR_E_FORMAT, "unexpected EOF");
    }
}

/* refill replaces the exhausted window with the next bytes. Returns GTR_OK with
 * pos < end, GTR_EOF at the end of input, or the (sticky) error. */
static gtr_status refill(gtr_input *in)
{
    if (in->err.code != GTR_OK)
        return in->err.code;
    if (in->has_next) {
        /* The rest of the window a peek spliced from. */
        in->has_next = false;
        if (in->next_pos < in->next_end) {
            in->base = in->base + in->end - in->next_pos;
            in->buf = in->next_buf;
            in->pos = in->next_pos;
            in->end = in->next_end;
            return GTR_OK;
        }
        in->base += in->end;
        in->buf = NULL;
        in->pos = in->end = 0;
    }
    if (in->eof)
        return GTR_EOF;
    in->base += in->end;
    in->buf = NULL;
    in->pos = in->end = 0;
    if (in->over_limit)
        /* Our message; Go has no limit. */
        return fail(in, GTR_E_LIMIT, "input exceeds the limit of %llu bytes",
                    (unsigned long long)in->limit);

    const uint8_t *p;
    size_t n;
    gtr_status st;
    if (in->gzip) {
        if ((st = inflate_some(in, &n)) != GTR_OK)
            return st;
        p = in->out_buf;
    } else {
        if ((st = raw_fill(in)) != GTR_OK)
            return st;
        p = in->raw + in->raw_pos;
        n = in->raw_end - in->raw_pos;
        in->raw_pos = in->raw_end;
    }
    if (n == 0) {
        in->eof = true;
        return GTR_EOF;
    }
    if (in->limit != 0 && (in->base >= in->limit || n > in->limit - in->base)) {
        in->over_limit = true;
        if (in->base >= in->limit)
            return fail(in, GTR_E_LIMIT, "input exceeds the limit of %llu bytes",
                        (unsigned long long)in->limit);
        n = (size_t)(in->limit - in->base);
    }
    in->buf = p;
    in->end = n;
    return GTR_OK;
}

/* start sniffs the gzip magic and sets up decompression. */
static gtr_status start(gtr_input *in)
{
    gtr_status st = raw_peek2(in);
    if (st != GTR_OK)
        return st;
    if (in->raw_end - in->raw_pos < 2 || in->raw[in->raw_pos] != 0x1f ||
        in->raw[in->raw_pos + 1] != 0x8b)
        return GTR_OK;
    in->gzip = true;
    in->out_buf = gtr__malloc(&in->alc, INPUT_BUF_SIZE);
    if (in->out_buf == NULL)
        return fail(in, GTR_E_NOMEM, "out of memory");
    in->zs.zalloc = z_alloc;
    in->zs.zfree = z_free;
    in->zs.opaque = in;
    int zr = inflateInit2(&in->zs, 15 + 16);
    if (zr != Z_OK)
        return fail(in, zr == Z_MEM_ERROR ? GTR_E_NOMEM : GTR_E_FORMAT, "gzip: %s",
                    in->zs.msg != NULL ? in->zs.msg : "cannot initialise zlib");
    in->zinit = true;
    return GTR_OK;
}

static gtr_status input_new(const gtr_alloc *alc, gtr_input **out, gtr_err *err)
{
    const gtr_alloc *a = gtr__alloc_or_libc(alc);
    /* Zero all but the error's message buffer, left untouched until an error is written. */
    gtr_input *in = gtr__malloc(a, sizeof *in);
    *out = NULL;
    if (in == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    memset(in, 0, offsetof(gtr_input, err));
    in->alc = *a;
    gtr_err_init(&in->err);
    gtr_err_set_alloc(&in->err, &in->alc);
    *out = in;
    return GTR_OK;
}

/* finish_open runs start() and hands the input out or frees it. */
static gtr_status finish_open(gtr_input *in, gtr_input **out, gtr_err *err)
{
    gtr_status st = start(in);
    if (st != GTR_OK) {
        gtr_err_copy(err, &in->err);
        gtr_input_free(in);
        return st;
    }
    *out = in;
    return GTR_OK;
}

static gtr_status open_stream(FILE *fp, bool own, const char *name, const gtr_alloc *alc,
                              gtr_input **out, gtr_err *err)
{
    gtr_input *in;
    gtr_status st = input_new(alc, &in, err);
    if (st != GTR_OK) {
        if (own)
            fclose(fp);
        return st;
    }
    in->fp = fp;
    in->own_fp = own;
    in->name = name;
    in->raw_buf = gtr__malloc(&in->alc, INPUT_BUF_SIZE);
    if (in->raw_buf == NULL) {
        gtr_input_free(in);
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    }
    in->raw = in->raw_buf;
    return finish_open(in, out, err);
}

gtr_status gtr_input_open_path(const char *path, const gtr_alloc *alc, gtr_input **out,
                               gtr_err *err)
{
    if (out == NULL || path == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_input_open_path: NULL argument");
    *out = NULL;
    if (strcmp(path, "-") == 0)
        return open_stream(stdin, false, "stdin", alc, out, err);
    FILE *fp = fopen(path, "rb");
    char why[128];
    if (fp == NULL)
        /* Go: os.Open's *PathError "open PATH: <reason>". */
        return gtr_err_setf(err, GTR_E_IO, "open %s: %s", path,
                            gtr_errno_text(errno, why, sizeof why));
    gtr_input *in = NULL;
    gtr_status st = open_stream(fp, true, path, alc, &in, err);
    if (st != GTR_OK)
        return st;
    in->name_owned = gtr__strndup(&in->alc, path, strlen(path));
    if (in->name_owned == NULL) {
        gtr_input_free(in);
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    }
    in->name = in->name_owned;
    *out = in;
    return GTR_OK;
}

gtr_status gtr_input_open_file(FILE *file, const gtr_alloc *alc, gtr_input **out, gtr_err *err)
{
    if (out == NULL || file == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_input_open_file: NULL argument");
    return open_stream(file, false, file == stdin ? "stdin" : "input", alc, out, err);
}

static gtr_status open_memory(const void *data, size_t len, bool sniff_gzip,
                              const gtr_alloc *alc, gtr_input **out, gtr_err *err)
{
    if (out == NULL || (data == NULL && len > 0))
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_input_open_memory: NULL argument");
    gtr_input *in;
    gtr_status st = input_new(alc, &in, err);
    if (st != GTR_OK)
        return st;
    static const uint8_t empty[1];
    in->name = "memory";
    in->raw = len > 0 ? data : empty;
    in->raw_end = len;
    in->raw_eof = true; /* nothing beyond raw_end */
    if (!sniff_gzip) {
        *out = in;
        return GTR_OK;
    }
    return finish_open(in, out, err);
}

gtr_status gtr_input_open_memory(const void *data, size_t len, const gtr_alloc *alc,
                                 gtr_input **out, gtr_err *err)
{
    return open_memory(data, len, true, alc, out, err);
}

gtr_status gtr_input_open_memory_plain(const void *data, size_t len, const gtr_alloc *alc,
                                       gtr_input **out, gtr_err *err)
{
    return open_memory(data, len, false, alc, out, err);
}

void gtr_input_free(gtr_input *in)
{
    if (in == NULL)
        return;
    gtr_alloc a = in->alc;
    gtr_err_clear(&in->err);
    if (in->zinit)
        inflateEnd(&in->zs);
    if (in->own_fp && in->fp != NULL)
        fclose(in->fp);
    gtr__free(&a, in->raw_buf);
    gtr__free(&a, in->out_buf);
    gtr__free(&a, in->name_owned);
    gtr__free(&a, in);
}

void gtr_input_set_limit(gtr_input *in, uint64_t max_bytes)
{
    if (in == NULL)
        return;
    in->limit = max_bytes;
    if (max_bytes == 0 || in->buf == NULL)
        return;
    /* Cut the current window if it already reaches past the new limit. */
    uint64_t off = in->base + in->pos;
    if (off >= max_bytes) {
        if (in->pos < in->end)
            in->over_limit = true;
        in->end = in->pos;
    } else if (in->end - in->pos > max_bytes - off) {
        in->end = in->pos + (size_t)(max_bytes - off);
        in->over_limit = true;
    }
    if (in->has_next) {
        /* The pending window starts where the current one ends. */
        uint64_t noff = in->base + in->end;
        if (noff >= max_bytes) {
            if (in->next_pos < in->next_end)
                in->over_limit = true;
            in->next_end = in->next_pos;
        } else if (in->next_end - in->next_pos > max_bytes - noff) {
            in->next_end = in->next_pos + (size_t)(max_bytes - noff);
            in->over_limit = true;
        }
    }
}

bool gtr_input_is_gzip(const gtr_input *in)
{
    return in != NULL && in->gzip;
}

uint64_t gtr_input_offset(const gtr_input *in)
{
    return in == NULL ? 0 : in->base + in->pos;
}

gtr_status gtr_input_read(gtr_input *in, void *dst, size_t n, size_t *got, gtr_err *err)
{
    if (in == NULL || (dst == NULL && n > 0))
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_input_read: NULL argument");
    size_t done = 0;
    gtr_status st = GTR_OK;
    uint8_t *d = dst;
    while (done < n) {
        if (in->pos == in->end) {
            st = refill(in);
            if (st == GTR_EOF) {
                st = GTR_OK;
                break;
            }
            if (st != GTR_OK) {
                gtr_err_copy(err, &in->err);
                break;
            }
        }
        size_t k = in->end - in->pos;
        if (k > n - done)
            k = n - done;
        memcpy(d + done, in->buf + in->pos, k);
        in->pos += k;
        done += k;
    }
    if (got != NULL)
        *got = done;
    return st;
}

gtr_status gtr_input_read_all(gtr_input *in, char **data, size_t *len, gtr_err *err)
{
    /* The caller's buffer has room for *len bytes; we grow it geometrically and leave a NUL
     * after the data. */
    if (in == NULL || data == NULL || len == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_input_read_all: NULL argument");
    size_t cap = *len;
    for (;;) {
        if (in->pos == in->end) {
            gtr_status st = refill(in);
            if (st == GTR_EOF)
                break;
            if (st != GTR_OK) {
                gtr_err_copy(err, &in->err);
                return st;
            }
        }
        size_t k = in->end - in->pos;
        if (*len > SIZE_MAX - k - 1 || !GTR__GROW(&in->alc, *data, cap, *len + k + 1))
            return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        memcpy(*data + *len, in->buf + in->pos, k);
        *len += k;
        in->pos += k;
    }
    if (!GTR__GROW(&in->alc, *data, cap, *len + 1))
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    (*data)[*len] = '\0';
    return GTR_OK;
}

void gtr_input_set_release(gtr_input *in, gtr_input_release_fn fn, void *ctx)
{
    if (in == NULL)
        return;
    in->release = fn;
    in->release_ctx = ctx;
}

void gtr__input_release_before(gtr_input *in, uint64_t offset)
{
    /* Only a memory source's bytes are borrowed; a FILE's and gzip's are the input's own. */
    if (in->release == NULL || in->fp != NULL || in->gzip || offset <= in->released)
        return;
    in->released = offset;
    in->release(in->release_ctx, offset);
}

bool gtr__input_borrow(gtr_input *in, size_t n, const uint8_t **p)
{
    /* A memory source is one window over the caller's bytes (cut at the limit, if any); a
     * peek at its very end may have put its last bytes in splice[], which is ours. */
    if (in->fp != NULL || in->gzip)
        return false;
    if (in->pos == in->end && refill(in) != GTR_OK)
        return false;   /* a read then reports the end or the error */
    if (in->buf == in->splice || in->end - in->pos < n)
        return false;
    *p = in->buf + in->pos;
    in->pos += n;
    return true;
}

bool gtr__input_borrow_rest(gtr_input *in, const uint8_t **p, size_t *n)
{
    if (in->fp != NULL || in->gzip)
        return false;
    if (in->pos == in->end && refill(in) != GTR_OK)
        return false;
    /* One window holds all a memory source has, unless a peek spliced it or the limit cut
     * it (over_limit: bytes exist past the limit). */
    if (in->buf == in->splice || in->has_next || in->over_limit)
        return false;
    *p = in->buf + in->pos;
    *n = in->end - in->pos;
    in->pos = in->end;
    return true;
}

gtr_status gtr__input_peek(gtr_input *in, size_t n, const uint8_t **p, size_t *avail)
{
    if (n > GTR__INPUT_PEEK_MAX)
        n = GTR__INPUT_PEEK_MAX;
    if (in->end - in->pos >= n) {
        *p = in->buf + in->pos;
        *avail = n;
        return GTR_OK;
    }
    /* This window is used up: when the next one holds n bytes, peek into it. Otherwise (or
     * when it fails) the splice below starts at the same stream offset, and refill fails
     * again with the same status. Without this, every peek after the first one of an input
     * went through the splice. */
    if (in->pos == in->end && refill(in) == GTR_OK && in->end - in->pos >= n) {
        *p = in->buf + in->pos;
        *avail = n;
        return GTR_OK;
    }
    /* Gather the rest of this window and the head of the following ones. */
    uint8_t tmp[GTR__INPUT_PEEK_MAX];
    size_t k = in->end - in->pos;
    uint64_t start = in->base + in->pos;
    if (k > 0)
        memcpy(tmp, in->buf + in->pos, k);
    in->pos = in->end;
    gtr_status st = GTR_OK;
    bool fetched = false;
    while (k < n) {
        st = refill(in);
        if (st != GTR_OK)
            break;
        fetched = true;
        size_t take = in->end - in->pos;
        if (take > n - k)
            take = n - k;
        memcpy(tmp + k, in->buf + in->pos, take);
        in->pos += take;
        k += take;
    }
    if (st == GTR_OK && fetched) {
        in->has_next = true;
        in->next_buf = in->buf;
        in->next_pos = in->pos;
        in->next_end = in->end;
    }
    if (k > 0)
        memcpy(in->splice, tmp, k);
    in->buf = in->splice;
    in->base = start;
    in->pos = 0;
    in->end = k;
    *p = in->splice;
    *avail = k;
    if (st < 0 && k == 0)
        return st;
    return GTR_OK;
}

void gtr__input_skip(gtr_input *in, size_t n)
{
    if (n > in->end - in->pos)
        n = in->end - in->pos;
    in->pos += n;
}

/* bufio.MaxScanTokenSize, the longest line (plus its '\n') bufio.Scanner holds by default. */
#define SCAN_MAX_TOKEN_SIZE (64 * 1024)

gtr_status gtr__input_read_line(gtr_input *in, gtr_buf *line, gtr_err *err)
{
    gtr_buf_reset(line);
    bool any = false;
    for (;;) {
        if (in->pos == in->end) {
            gtr_status st = refill(in);
            if (st == GTR_EOF) {
                if (!any)
                    return gtr_err_setf(err, GTR_EOF, "EOF");
                break;
            }
            if (st != GTR_OK) {
                if (any)
                    break; /* bufio.Scanner hands out the partial line first */
                gtr_err_copy(err, &in->err);
                return st;
            }
        }
        const uint8_t *p = in->buf + in->pos;
        size_t k = in->end - in->pos;
        const uint8_t *nl = memchr(p, '\n', k);
        size_t take = nl != NULL ? (size_t)(nl - p) : k;
        /* bufio.Scanner's buffer stops growing at MaxScanTokenSize: a line (its '\r' counted,
         * not its '\n') that fills it is an error, whether a '\n' or the end follows. */
        if (line->len + take >= SCAN_MAX_TOKEN_SIZE)
            /* Go: bufio.ErrTooLong */
            return gtr_err_setf(err, GTR_E_FORMAT, "bufio.Scanner: token too long");
        gtr_buf_append(line, p, take);
        any = true;
        in->pos += take;
        if (nl != NULL) {
            in->pos++;
            break;
        }
    }
    if (gtr_buf_status(line) != GTR_OK)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    if (line->len > 0 && line->data[line->len - 1] == '\r') /* bufio.ScanLines' dropCR */
        line->data[--line->len] = '\0';
    return GTR_OK;
}

int gtr_input_byte(gtr_input *in)
{
    if (in->pos < in->end)
        return in->buf[in->pos++];
    if (refill(in) != GTR_OK)
        return -1;
    return in->buf[in->pos++];
}

gtr_status gtr_input_error(const gtr_input *in, gtr_err *err)
{
    if (in == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_input_error: NULL input");
    if (in->err.code == GTR_OK) {
        gtr_err_clear(err);
        return GTR_OK;
    }
    gtr_err_copy(err, &in->err);
    return in->err.code;
}

/* Port of binary.ReadUvarint (src/encoding/binary/varint.go). */
gtr_status gtr_input_uvarint(gtr_input *in, uint64_t *v, gtr_err *err)
{
    if (in == NULL || v == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_input_uvarint: NULL argument");
    uint64_t x = 0;
    unsigned s = 0;
    /* Fast path: a whole varint in the window. */
    if (in->end - in->pos >= MAX_VARINT_LEN64) {
        const uint8_t *p = in->buf + in->pos;
        for (int i = 0; i < MAX_VARINT_LEN64; i++) {
            uint8_t b = p[i];
            if (b < 0x80) {
                in->pos += (size_t)i + 1;
                if (i == MAX_VARINT_LEN64 - 1 && b > 1) {
                    *v = x;
                    /* Go: errOverflow = errors.New("binary: varint overflows a 64-bit integer") */
                    return gtr_err_setf(err, GTR_E_FORMAT,
                                        "binary: varint overflows a 64-bit integer");
                }
                *v = x | (uint64_t)b << s;
                return GTR_OK;
            }
            x |= (uint64_t)(b & 0x7f) << s;
            s += 7;
        }
        in->pos += MAX_VARINT_LEN64;
        *v = x;
        /* Go: errOverflow */
        return gtr_err_setf(err, GTR_E_FORMAT, "binary: varint overflows a 64-bit integer");
    }
    for (int i = 0; i < MAX_VARINT_LEN64; i++) {
        int c = gtr_input_byte(in);
        if (c < 0) {
            *v = x;
            if (in->err.code != GTR_OK) {
                gtr_err_copy(err, &in->err);
                return in->err.code;
            }
            if (i > 0)
                /* Go: io.ErrUnexpectedEOF */
                return gtr_err_setf(err, GTR_E_FORMAT, "unexpected EOF");
            /* Go: io.EOF */
            return gtr_err_setf(err, GTR_EOF, "EOF");
        }
        uint8_t b = (uint8_t)c;
        if (b < 0x80) {
            if (i == MAX_VARINT_LEN64 - 1 && b > 1) {
                *v = x;
                /* Go: errOverflow */
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
    /* Go: errOverflow */
    return gtr_err_setf(err, GTR_E_FORMAT, "binary: varint overflows a 64-bit integer");
}
