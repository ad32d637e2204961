/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/raw/textreader.go at go1.27.3: the text format reader (the
 * grammar is in raw/doc.go; see UPSTREAM.md §9).
 *
 * Lines are read as Go's bufio.Scanner reads them, with its limit: a line of 64 KiB or more
 * fails with "bufio.Scanner: token too long". Messages are Go's, %q through strconv.Quote and
 * %v of []uint64 as "[a b c]". After an error the reader repeats it. */
#include <inttypes.h>
#include <string.h>

#include "goquote.h"
#include "gtr/raw.h"
#include "input_priv.h"
#include "mem.h"
#include "raw_priv.h"

struct gtr_text_reader {
    gtr_alloc alc;
    gtr_input *in;
    gtr_go_version v;
    gtr_buf line;
    gtr_buf data;
    gtr_buf scratch; /* message formatting */
    uint64_t *args;
    size_t args_cap;
    gtr_err err; /* sticky */
};

/* A view into the current line. */
typedef struct {
    const char *p;
    size_t n;
} str;

static bool is_space_at(const char *p, size_t n, size_t *w)
{
    unsigned char c = (unsigned char)p[0];
    if (c < 0x80) { /* ASCII: \t \n \v \f \r and space */
        *w = 1;
        return c == ' ' || (c >= '\t' && c <= '\r');
    }
    int32_t r;
    *w = gtr__utf8_decode((const uint8_t *)p, n, &r);
    return gtr__unicode_is_space(r);
}

/* read_token: readToken. A '#' before the token makes the rest a comment; a '#' or a space
 * after it ends the token. */
static void read_token(str s, str *tok, str *rest)
{
    size_t i = 0, w;
    size_t start = SIZE_MAX;
    while (i < s.n) {
        if (s.p[i] == '#')
            break;
        if (!is_space_at(s.p + i, s.n - i, &w)) {
            start = i;
            break;
        }
        i += w;
    }
    if (start == SIZE_MAX) {
        *tok = (str){s.p, 0};
        *rest = (str){s.p, 0};
        return;
    }
    i = start;
    while (i < s.n) {
        if (s.p[i] == '#' || is_space_at(s.p + i, s.n - i, &w))
            break;
        i += w;
    }
    *tok = (str){s.p + start, i - start};
    *rest = (str){s.p + i, s.n - i};
}

static bool all_space(str s)
{
    size_t i = 0, w;
    while (i < s.n) {
        if (!is_space_at(s.p + i, s.n - i, &w))
            return false;
        i += w;
    }
    return true;
}

/* trim_space: strings.TrimSpace. */
static str trim_space(str s)
{
    size_t w;
    while (s.n > 0 && is_space_at(s.p, s.n, &w)) {
        s.p += w;
        s.n -= w;
    }
    while (s.n > 0) {
        int32_t r;
        w = gtr__utf8_decode_last((const uint8_t *)s.p, s.n, &r);
        if (!gtr__unicode_is_space(r))
            break;
        s.n -= w;
    }
    return s;
}

static bool str_eq(str s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n == n && memcmp(s.p, lit, n) == 0;
}

/* quoted appends strconv.Quote(s) and a NUL to the reader's scratch buffer and stores its
 * offset in *mark (callers reset scratch once per message, and check scratch_failed before
 * using r->scratch.data + mark). */
static void quoted(gtr_text_reader *r, str s, size_t *mark)
{
    *mark = r->scratch.len;
    gtr_go_quote(&r->scratch, s.p, s.n);
    gtr_buf_putc(&r->scratch, '\0');
}

static bool scratch_failed(gtr_text_reader *r, gtr_err *err)
{
    if (gtr_buf_status(&r->scratch) == GTR_OK)
        return false;
    gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    return true;
}

/* parse_uint: strconv.ParseUint(s, 10, 64). Returns NULL on success, else the reason. */
static const char *parse_uint(str s, uint64_t *v)
{
    if (s.n == 0)
        return "invalid syntax";
    uint64_t x = 0;
    for (size_t i = 0; i < s.n; i++) {
        unsigned char c = (unsigned char)s.p[i];
        if (c < '0' || c > '9')
            return "invalid syntax";
        if (x > (UINT64_MAX - (c - '0')) / 10)
            return "value out of range";
        x = x * 10 + (c - '0');
    }
    *v = x;
    return NULL;
}

/* format_args appends %v of a []uint64: "[1 2 3]". */
static void format_args(gtr_buf *b, const uint64_t *args, size_t n)
{
    gtr_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++)
        gtr_buf_printf(b, i == 0 ? "%" PRIu64 : " %" PRIu64, args[i]);
    gtr_buf_putc(b, ']');
}

/* next_line: nextLine, skipping blank and comment lines. */
static gtr_status next_line(gtr_text_reader *r, str *line, gtr_err *err)
{
    for (;;) {
        gtr_status st = gtr__input_read_line(r->in, &r->line, err);
        if (st != GTR_OK)
            return st; /* GTR_EOF "EOF", or the input's error */
        str s = {r->line.data != NULL ? r->line.data : "", r->line.len};
        str tok, rest;
        read_token(s, &tok, &rest);
        if (tok.n == 0)
            continue; /* Empty line or comment. */
        *line = s;
        return GTR_OK;
    }
}

/* read_args: readArgs(s, names) appending to r->args[*nargs..]. */
static gtr_status read_args(gtr_text_reader *r, str s, const char *const *names, size_t nnames,
                            size_t *nargs, gtr_err *err)
{
    if (!GTR__GROW(&r->alc, r->args, r->args_cap, *nargs + nnames))
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    for (size_t i = 0; i < nnames; i++) {
        str tok, rest;
        read_token(s, &tok, &rest);
        gtr_buf_reset(&r->scratch);
        size_t m1, m2;
        if (tok.n == 0)
            /* Go: fmt.Errorf("no argument") */
            return gtr_err_setf(err, GTR_E_FORMAT, "no argument");
        const char *eq = memchr(tok.p, '=', tok.n);
        if (eq == NULL) {
            quoted(r, tok, &m1);
            if (scratch_failed(r, err))
                return GTR_E_NOMEM;
            /* Go: fmt.Errorf("malformed argument: %q", tok) */
            return gtr_err_setf(err, GTR_E_FORMAT, "malformed argument: %s",
                                r->scratch.data + m1);
        }
        str arg = {tok.p, (size_t)(eq - tok.p)};
        str val = {eq + 1, tok.n - arg.n - 1};
        uint64_t v = 0;
        if (parse_uint(val, &v) != NULL) {
            quoted(r, val, &m1);
            quoted(r, arg, &m2);
            if (scratch_failed(r, err))
                return GTR_E_NOMEM;
            /* Go: fmt.Errorf("failed to parse argument value %q for arg %q", val, arg) */
            return gtr_err_setf(err, GTR_E_FORMAT, "failed to parse argument value %s for arg %s",
                                r->scratch.data + m1, r->scratch.data + m2);
        }
        if (!str_eq(arg, names[i])) {
            quoted(r, (str){names[i], strlen(names[i])}, &m1);
            quoted(r, arg, &m2);
            if (scratch_failed(r, err))
                return GTR_E_NOMEM;
            /* Go: fmt.Errorf("expected argument %q, but got %q", name, arg) */
            return gtr_err_setf(err, GTR_E_FORMAT, "expected argument %s, but got %s",
                                r->scratch.data + m1, r->scratch.data + m2);
        }
        r->args[(*nargs)++] = v;
        s = rest;
    }
    if (!all_space(s)) {
        gtr_buf_reset(&r->scratch);
        size_t m;
        quoted(r, s, &m);
        if (scratch_failed(r, err))
            return GTR_E_NOMEM;
        /* Go: fmt.Errorf("encountered unexpected non-space at the end of an event: %q", s) */
        return gtr_err_setf(err, GTR_E_FORMAT,
                            "encountered unexpected non-space at the end of an event: %s",
                            r->scratch.data + m);
    }
    return GTR_OK;
}

/* read_data: readData(line) into r->data. */
static gtr_status read_data(gtr_text_reader *r, str line, gtr_err *err)
{
    const char *eq = memchr(line.p, '=', line.n);
    gtr_buf_reset(&r->scratch);
    size_t m;
    if (eq == NULL || !str_eq(trim_space((str){line.p, (size_t)(eq - line.p)}), "data")) {
        quoted(r, line, &m);
        if (scratch_failed(r, err))
            return GTR_E_NOMEM;
        /* Go: fmt.Errorf("malformed data: %q", line) */
        return gtr_err_setf(err, GTR_E_FORMAT, "malformed data: %s", r->scratch.data + m);
    }
    str dv = trim_space((str){eq + 1, line.n - (size_t)(eq + 1 - line.p)});
    gtr_buf_reset(&r->data);
    gtr_err uerr = GTR_ERR_INIT;
    gtr_status st = gtr_go_unquote(&r->data, dv.p, dv.n, &uerr);
    if (st == GTR_E_NOMEM)
        st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    else if (st != GTR_OK) {
        quoted(r, line, &m);
        if (scratch_failed(r, err))
            st = GTR_E_NOMEM;
        else
            /* Go: fmt.Errorf("failed to parse data: %q: %v", line, err) */
            st = gtr_err_setf(err, GTR_E_FORMAT, "failed to parse data: %s: %s",
                              r->scratch.data + m, gtr_err_text(&uerr, NULL));
    }
    gtr_err_clear(&uerr);
    return st;
}

static gtr_status text_reader_new(gtr_input *in, const gtr_alloc *alc, gtr_text_reader **out,
                                  gtr_err *err)
{
    if (out == NULL || in == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_text_reader_new: NULL argument");
    *out = NULL;
    const gtr_alloc *a = gtr__alloc_or_libc(alc);
    gtr_text_reader *r = gtr__calloc(a, 1, sizeof *r);
    if (r == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    r->alc = *a;
    r->in = in;
    gtr_buf_init(&r->line, &r->alc);
    gtr_buf_init(&r->data, &r->alc);
    gtr_buf_init(&r->scratch, &r->alc);
    gtr_err_set_alloc(&r->err, &r->alc);

    gtr_status st;
    str line, trace, gover, rest;
    if ((st = next_line(r, &line, err)) != GTR_OK) {
        if (st == GTR_EOF)
            st = err->code = GTR_E_FORMAT; /* Go: NewTextReader returns io.EOF as its error */
        goto fail;
    }
    read_token(line, &trace, &rest);
    if (!str_eq(trace, "Trace")) {
        /* Go: fmt.Errorf("failed to parse header") */
        st = gtr_err_setf(err, GTR_E_FORMAT, "failed to parse header");
        goto fail;
    }
    read_token(rest, &gover, &rest);
    if (gover.n < 4 || memcmp(gover.p, "Go1.", 4) != 0) {
        /* Go: fmt.Errorf("failed to parse header Go version") */
        st = gtr_err_setf(err, GTR_E_FORMAT, "failed to parse header Go version");
        goto fail;
    }
    str num = {gover.p + 4, gover.n - 4};
    uint64_t rawv = 0;
    const char *why = parse_uint(num, &rawv);
    if (why != NULL) {
        size_t m;
        quoted(r, num, &m);
        if (scratch_failed(r, err)) {
            st = GTR_E_NOMEM;
            goto fail;
        }
        /* Go: fmt.Errorf("failed to parse header Go version: %v", err), err a
         * *strconv.NumError: strconv.ParseUint: parsing "<num>": <reason> */
        st = gtr_err_setf(err, GTR_E_FORMAT,
                          "failed to parse header Go version: strconv.ParseUint: parsing %s: %s",
                          r->scratch.data + m, why);
        goto fail;
    }
    uint32_t v = (uint32_t)rawv; /* version.Version(rawv): Version is a uint32 */
    if (!gtr_go_version_valid(v)) {
        /* Go: fmt.Errorf("unknown or unsupported Go version 1.%d", v) */
        st = gtr_err_setf(err, GTR_E_VERSION, "unknown or unsupported Go version 1.%" PRIu32, v);
        goto fail;
    }
    if (!all_space(rest)) {
        size_t m;
        quoted(r, rest, &m);
        if (scratch_failed(r, err)) {
            st = GTR_E_NOMEM;
            goto fail;
        }
        /* Go: fmt.Errorf("encountered unexpected non-space at the end of the header: %q", line) */
        st = gtr_err_setf(err, GTR_E_FORMAT,
                          "encountered unexpected non-space at the end of the header: %s",
                          r->scratch.data + m);
        goto fail;
    }
    r->v = (gtr_go_version)v;
    *out = r;
    return GTR_OK;
fail:
    gtr_text_reader_free(r);
    return st;
}

gtr_status gtr_text_reader_new(gtr_input *in, const gtr_alloc *alc, gtr_text_reader **out,
                               gtr_err *err)
{
    if (err != NULL)
        return text_reader_new(in, alc, out, err);
    gtr_err local = GTR_ERR_INIT;
    gtr_status st = text_reader_new(in, alc, out, &local);
    gtr_err_clear(&local);
    return st;
}

gtr_go_version gtr_text_reader_version(const gtr_text_reader *r)
{
    return r->v;
}

void gtr_text_reader_free(gtr_text_reader *r)
{
    if (r == NULL)
        return;
    gtr_alloc a = r->alc;
    gtr_err_clear(&r->err);
    gtr_buf_free(&r->line);
    gtr_buf_free(&r->data);
    gtr_buf_free(&r->scratch);
    gtr__free(&a, r->args);
    gtr__free(&a, r);
}

static gtr_status next(gtr_text_reader *r, gtr_raw_event *ev, gtr_err *err)
{
    str line, evstr, rest;
    gtr_status st = next_line(r, &line, err);
    if (st != GTR_OK)
        return st;
    read_token(line, &evstr, &rest);
    int t = gtr_go_version_lookup_event(r->v, evstr.p, evstr.n);
    if (t < 0) {
        /* Go: fmt.Errorf("unidentified event: %s", evStr); the token is echoed whole, NUL
         * bytes included. */
        gtr_buf_reset(&r->scratch);
        gtr_buf_puts(&r->scratch, "unidentified event: ");
        gtr_buf_append(&r->scratch, evstr.p, evstr.n);
        if (scratch_failed(r, err))
            return GTR_E_NOMEM;
        return gtr_err_setn(err, GTR_E_FORMAT, r->scratch.data, r->scratch.len);
    }
    /* evstr lives in r->line, which the next lines overwrite: keep a copy for messages. */
    char evname[64];
    snprintf(evname, sizeof evname, "%.*s", (int)evstr.n, evstr.p);
    const gtr_event_spec *spec = gtr_spec((uint8_t)t);
    size_t nargs = 0;
    if ((st = read_args(r, rest, spec->args, spec->nargs, &nargs, err)) != GTR_OK)
        /* Go: fmt.Errorf("reading args for %s: %v", evStr, err) */
        return gtr_err_wrapf(err, "reading args for %s", evname);
    if (spec->is_stack) {
        uint64_t nframes = gtr__go_int_count(r->args[1]);
        for (uint64_t i = 0; i < nframes; i++) {
            st = next_line(r, &line, err);
            if (st == GTR_EOF) {
                gtr_buf_reset(&r->scratch);
                format_args(&r->scratch, r->args, nargs);
                if (gtr_buf_status(&r->scratch) != GTR_OK)
                    return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
                /* Go: fmt.Errorf("unexpected EOF while reading stack: args=%v", args) */
                return gtr_err_setf(err, GTR_E_FORMAT,
                                    "unexpected EOF while reading stack: args=%s",
                                    r->scratch.data);
            }
            if (st != GTR_OK)
                return st;
            if ((st = read_args(r, line, gtr__frame_fields, 4, &nargs, err)) != GTR_OK)
                return st;
        }
    }
    if (spec->has_data) {
        st = next_line(r, &line, err);
        if (st == GTR_EOF) {
            gtr_buf_reset(&r->scratch);
            format_args(&r->scratch, r->args, nargs);
            if (gtr_buf_status(&r->scratch) != GTR_OK)
                return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
            /* Go: fmt.Errorf("unexpected EOF while reading data for %s: args=%v", evStr, args) */
            return gtr_err_setf(err, GTR_E_FORMAT,
                                "unexpected EOF while reading data for %s: args=%s", evname,
                                r->scratch.data);
        }
        if (st != GTR_OK)
            return st;
        if ((st = read_data(r, line, err)) != GTR_OK)
            return st;
    }
    memset(ev, 0, sizeof *ev);
    ev->version = (uint8_t)r->v;
    ev->type = (uint8_t)t;
    ev->args = r->args;
    ev->nargs = nargs;
    if (spec->has_data) { /* Go: []byte(data), never nil */
        ev->data = (const uint8_t *)(r->data.data != NULL ? r->data.data : "");
        ev->data_len = r->data.len;
        ev->has_data_field = true;
    }
    return GTR_OK;
}

gtr_status gtr_text_reader_next(gtr_text_reader *r, gtr_raw_event *ev, gtr_err *err)
{
    if (r == NULL || ev == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_text_reader_next: NULL argument");
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
