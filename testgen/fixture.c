/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testtrace/format.go at go1.27.3 (ParseFile), plus the golden
 * check of src/internal/trace/reader_test.go (TestReaderGolden and testReader). */
#include "tgen/fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gtr/buf.h"
#include "gtr/input.h"
#include "gtr/raw.h"
#include "tgen/judge.h"
#include "txtar.h"

struct tgen_fixture {
    uint8_t *wire;          /* the trace's wire bytes (malloc'd) */
    size_t wire_len;
    gtr_go_version version;
    tgen_expect *expect;
};

void tgen_fixture_free(tgen_fixture *f)
{
    if (f == NULL)
        return;
    free(f->wire);
    tgen_expect_free(f->expect);
    free(f);
}

const uint8_t *tgen_fixture_trace(const tgen_fixture *f, size_t *len)
{
    *len = f->wire_len;
    return f->wire;
}

gtr_go_version tgen_fixture_version(const tgen_fixture *f)
{
    return f->version;
}

const tgen_expect *tgen_fixture_expect(const tgen_fixture *f)
{
    return f->expect;
}

/* over_limit is the error of an input past limit bytes, in the input layer's words
 * (gtr_input_set_limit) with the input's name. */
static gtr_status over_limit(const char *name, uint64_t limit, gtr_err *err)
{
    return gtr_err_setf(err, GTR_E_LIMIT, "read %s: input exceeds the limit of %llu bytes", name,
                        (unsigned long long)limit);
}

/* read_file is os.ReadFile: the whole file in a malloc'd buffer, growing as bytes arrive,
 * at most TGEN_FIXTURE_MAX bytes of it. Errors are Go's *PathError text: "open PATH:
 * <reason>" / "read PATH: <reason>", and over_limit's (os.ReadFile has no limit). */
static gtr_status read_file(const char *path, char **data, size_t *len, gtr_err *err)
{
    char reason[128];
    int fd = open(path, O_RDONLY);
    char *buf = NULL;
    size_t n = 0, cap = 0;

    *data = NULL;
    *len = 0;
    if (fd < 0)
        return gtr_err_setf(err, GTR_E_IO, "open %s: %s", path,
                            gtr_errno_text(errno, reason, sizeof reason));
    /* A regular file past the limit fails before a byte is read; any other (a device, a
     * pipe) when it gets there. */
    struct stat sb;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
        (unsigned long long)sb.st_size > TGEN_FIXTURE_MAX) {
        close(fd);
        return over_limit(path, TGEN_FIXTURE_MAX, err);
    }
    for (;;) {
        if (n > TGEN_FIXTURE_MAX) {
            free(buf);
            close(fd);
            return over_limit(path, TGEN_FIXTURE_MAX, err);
        }
        if (cap - n < 4096) {
            /* Past the limit by one read at most: the buffer need not double beyond it. */
            size_t ncap = cap < 16384 ? 16384 : cap * 2;
            if (ncap > (size_t)TGEN_FIXTURE_MAX + 8192)
                ncap = (size_t)TGEN_FIXTURE_MAX + 8192;
            char *nbuf = ncap > cap ? realloc(buf, ncap) : NULL;
            if (nbuf == NULL) {
                free(buf);
                close(fd);
                return gtr_err_setf(err, GTR_E_NOMEM, "read %s: out of memory", path);
            }
            buf = nbuf;
            cap = ncap;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return gtr_err_setf(err, GTR_E_IO, "read %s: %s", path,
                                gtr_errno_text(e, reason, sizeof reason));
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    *data = buf;
    *len = n;
    return GTR_OK;
}

/* text_to_wire converts the text trace data[0..len) to wire bytes in *wire (ParseFile's loop
 * of raw.TextReader into raw.Writer). */
static gtr_status text_to_wire(const char *path, const char *data, size_t len, gtr_buf *wire,
                               gtr_go_version *version, gtr_err *err)
{
    gtr_input *in = NULL;
    gtr_text_reader *tr = NULL;
    gtr_raw_writer *tw = NULL;
    gtr_raw_event ev;
    gtr_err sub = GTR_ERR_INIT;
    gtr_status st;

    if ((st = gtr_input_open_memory_plain(len > 0 ? data : "", len, NULL, &in, &sub)) < 0 ||
        (st = gtr_text_reader_new(in, NULL, &tr, &sub)) < 0) {
        /* Go: fmt.Errorf("malformed test %s: bad trace file: %v", testPath, err) */
        st = gtr_err_setf(err, st, "malformed test %s: bad trace file: ", path);
        gtr_err_append(err, &sub);
        goto out;
    }
    *version = gtr_text_reader_version(tr);
    if ((st = gtr_raw_writer_new(gtr_sink_buf(wire), *version, NULL, &tw, &sub)) < 0) {
        /* Go: fmt.Errorf("failed to create trace byte writer: %v", err) */
        st = gtr_err_setf(err, st, "failed to create trace byte writer: ");
        gtr_err_append(err, &sub);
        goto out;
    }
    for (;;) {
        st = gtr_text_reader_next(tr, &ev, &sub);
        if (st == GTR_EOF)
            break;
        if (st < 0) {
            /* Go: fmt.Errorf("malformed test %s: bad trace file: %v", testPath, err) */
            st = gtr_err_setf(err, st, "malformed test %s: bad trace file: ", path);
            gtr_err_append(err, &sub);
            goto out;
        }
        if ((st = gtr_raw_writer_write(tw, &ev, &sub)) < 0) {
            /* Go: fmt.Errorf("internal error during %s: failed to write trace bytes: %v", ...) */
            st = gtr_err_setf(err, st, "internal error during %s: failed to write trace bytes: ",
                              path);
            gtr_err_append(err, &sub);
            goto out;
        }
    }
    if ((st = gtr_raw_writer_flush(tw, &sub)) < 0 || (st = gtr_buf_status(wire)) < 0) {
        if (st == GTR_E_NOMEM)
            gtr_err_setn(&sub, st, "out of memory", 13);
        st = gtr_err_setf(err, st, "internal error during %s: failed to write trace bytes: ",
                          path);
        gtr_err_append(err, &sub);
        goto out;
    }
    st = GTR_OK;
out:
    gtr_err_clear(&sub);
    gtr_raw_writer_free(tw);
    gtr_text_reader_free(tr);
    gtr_input_free(in);
    return st;
}

gtr_status tgen_fixture_parse(const char *path, const void *data, size_t len, tgen_fixture **out,
                              gtr_err *err)
{
    txtar_archive *ar = NULL;
    tgen_fixture *f = NULL;
    gtr_buf wire = {0}, q = {0};
    gtr_err sub = GTR_ERR_INIT;
    gtr_err local = GTR_ERR_INIT;
    gtr_status st;

    if (err == NULL)
        err = &local;
    *out = NULL;
    if ((ar = txtar_parse(data, len)) == NULL || (f = calloc(1, sizeof *f)) == NULL) {
        st = gtr_err_setf(err, GTR_E_NOMEM, "failed to read test file for %s: out of memory",
                          path);
        goto fail;
    }
    if (ar->nfiles != 2) {
        /* Go: fmt.Errorf("malformed test %s: wrong number of files", testPath) */
        st = gtr_err_setf(err, GTR_E_FORMAT, "malformed test %s: wrong number of files", path);
        goto fail;
    }
    static const char *const want[2] = {"expect", "trace"};
    for (size_t i = 0; i < 2; i++) {
        const txtar_file *tf = &ar->files[i];
        if (tf->name_len != strlen(want[i]) || memcmp(tf->name, want[i], tf->name_len) != 0) {
            /* Go: fmt.Errorf("malformed test %s: bad filename %s", testPath, ar.Files[i].Name) */
            st = gtr_err_setf(err, GTR_E_FORMAT, "malformed test %s: bad filename %s", path,
                              tf->name);
            goto fail;
        }
    }
    if ((st = text_to_wire(path, ar->files[1].data, ar->files[1].data_len, &wire, &f->version,
                           err)) < 0)
        goto fail;
    if ((st = tgen_expect_parse(ar->files[0].data, ar->files[0].data_len, &f->expect, &sub)) < 0) {
        /* Go: fmt.Errorf("internal error during %s: failed to parse expectation %q: %v",
         * testPath, string(ar.Files[0].Data), err) */
        gtr_go_quote(&q, ar->files[0].data, ar->files[0].data_len);
        st = gtr_err_setf(err, st, "internal error during %s: failed to parse expectation %s: ",
                          path, gtr_buf_status(&q) == GTR_OK ? q.data : "");
        gtr_err_append(err, &sub);
        goto fail;
    }
    f->wire = (uint8_t *)gtr_buf_take(&wire, &f->wire_len);
    txtar_free(ar);
    *out = f;
    gtr_err_clear(&sub);
    gtr_err_clear(&local);
    return GTR_OK;
fail:
    gtr_err_clear(&sub);
    gtr_err_clear(&local);
    gtr_buf_free(&q);
    gtr_buf_free(&wire);
    tgen_fixture_free(f);
    txtar_free(ar);
    return st;
}

gtr_status tgen_fixture_parse_file(const char *path, tgen_fixture **out, gtr_err *err)
{
    char *data;
    size_t len;
    gtr_err sub = GTR_ERR_INIT, local = GTR_ERR_INIT;
    gtr_status st;

    if (err == NULL)
        err = &local;
    *out = NULL;
    if ((st = read_file(path, &data, &len, &sub)) < 0) {
        /* Go: fmt.Errorf("failed to read test file for %s: %v", testPath, err) */
        gtr_err_setf(err, st, "failed to read test file for %s: ", path);
        gtr_err_append(err, &sub);
        gtr_err_clear(&sub);
        gtr_err_clear(&local);
        return st;
    }
    st = tgen_fixture_parse(path, data, len, out, err);
    free(data);
    gtr_err_clear(&local);
    return st;
}

gtr_status tgen_fixture_check_parsed(const tgen_fixture *f, tgen_check_report *rep, gtr_err *err)
{
    tgen_verdict v;
    unsigned failures = 0;
    gtr_status st = tgen_judge(f->wire, f->wire_len, NULL, NULL, &v);

    if (st < 0) {
        failures = 1;
        gtr_err_setf(err, st, "out of memory");
    } else {
        st = tgen_verdict_check(&v, f->expect, &failures, err);
    }
    if (rep != NULL) {
        rep->events = v.events;
        rep->failures = failures;
    }
    tgen_verdict_free(&v);
    return st;
}

gtr_status tgen_fixture_check(const char *path, tgen_check_report *rep, gtr_err *err)
{
    tgen_fixture *f;
    gtr_err local = GTR_ERR_INIT;
    gtr_status st;

    if (err == NULL)
        err = &local;
    st = tgen_fixture_parse_file(path, &f, err);

    if (st < 0) {
        if (rep != NULL) {
            rep->events = 0;
            rep->failures = 1;
        }
        /* Go: t.Fatalf("failed to parse test file at %s: %v", testPath, err) */
        st = gtr_err_wrapf(err, "failed to parse test file at %s", path);
        gtr_err_clear(&local);
        return st;
    }
    st = tgen_fixture_check_parsed(f, rep, err);
    tgen_fixture_free(f);
    gtr_err_clear(&local);
    return st;
}

bool tgen_fixture_sniff(const char *data, size_t len, bool *nomem)
{
    static const char wire_magic[] = "go 1.", text_magic[] = "Trace Go1.";
    bool yes = false;
    if (nomem != NULL)
        *nomem = false;
    if ((len >= sizeof wire_magic - 1 && memcmp(data, wire_magic, sizeof wire_magic - 1) == 0) ||
        (len >= sizeof text_magic - 1 && memcmp(data, text_magic, sizeof text_magic - 1) == 0))
        return false;
    txtar_archive *ar = txtar_parse(len > 0 ? data : NULL, len);
    if (ar == NULL) {
        if (nomem != NULL)
            *nomem = true;
        return false;
    }
    yes = ar->nfiles == 2 && ar->files[0].name_len == 6 &&
          memcmp(ar->files[0].name, "expect", 6) == 0 && ar->files[1].name_len == 5 &&
          memcmp(ar->files[1].name, "trace", 5) == 0;
    txtar_free(ar);
    return yes;
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

gtr_status tgen_header_check(const void *head, size_t n, bool whole, gtr_err *err)
{
    gtr_input *in = NULL;
    gtr_go_version v;
    gtr_err sub = GTR_ERR_INIT;
    gtr_status st = gtr_input_open_memory_plain(n > 0 ? head : "", n, NULL, &in, err);
    if (st < 0)
        return st;
    st = gtr_header_read(in, &v, &sub);
    uint64_t at = gtr_input_offset(in);
    gtr_input_free(in);
    /* A version is judged once the whole header is read. A format error is found a rune (at
     * most 4 bytes) ahead of where the reading stops: before the last 4 bytes, these bytes
     * decided it, whatever follows them. */
    if (st == GTR_OK || st == GTR_E_VERSION || whole || at + 4 <= n) {
        gtr_err_move(err, &sub);
        return st;
    }
    gtr_err_clear(&sub);
    return GTR_EOF;
}

/* The most bytes looked at to judge a trace's header before the rest is read: a header is 16
 * bytes, or a few more with the spaces and leading zeros Go's fmt.Fscanf lets through. */
#define HEAD_MAX 4096

/* A fixture recognised by its content is text before its first file: no NUL byte comes
 * before the first line that starts with "-- " (a txtar file marker). comment_scan follows
 * that over a growing buffer. */
typedef struct comment_scan {
    size_t from;    /* the bytes before it were looked at */
    bool marker;    /* a line starting with "-- " was seen: nothing more to look at */
} comment_scan;

/* comment_has_nul: buf[0..n), the bytes read so far, has a NUL byte before any line starting
 * with "-- ". Each call looks at the bytes the last one had not seen (and 3 before them, for
 * a marker across two reads). */
static bool comment_has_nul(comment_scan *sc, const char *buf, size_t n)
{
    if (sc->marker)
        return false;
    size_t marker = SIZE_MAX;
    if (n >= 3 && memcmp(buf, "-- ", 3) == 0) {
        marker = 0;
    } else {
        for (size_t i = sc->from > 3 ? sc->from - 3 : 0; i < n;) {
            const char *nl = memchr(buf + i, '\n', n - i);
            if (nl == NULL || (size_t)(nl - buf) + 4 > n)
                break;
            if (memcmp(nl + 1, "-- ", 3) == 0) {
                marker = (size_t)(nl - buf) + 1;
                break;
            }
            i = (size_t)(nl - buf) + 1;
        }
    }
    const char *nul = memchr(buf + sc->from, '\0', n - sc->from);
    sc->from = n;
    if (nul != NULL && (size_t)(nul - buf) < marker)
        return true;
    sc->marker = marker != SIZE_MAX;
    return false;
}

/* read_rest reads the rest of in after its head (head[0..got), already read) into a malloc'd
 * buffer (*data, *len, NUL-terminated), at most limit bytes in all: the buffer grows up to
 * limit + 1 bytes and no further, so that memory stays within the limit on any input. Past
 * it: "read NAME: input exceeds the limit of LIMIT bytes" (GTR_E_LIMIT). With fixture_text,
 * the reading stops as soon as the bytes cannot be a fixture recognised by its content
 * (comment_has_nul): GTR_E_FORMAT "not a fixture: a NUL byte before its first file". */
static gtr_status read_rest(gtr_input *in, const char *name, uint64_t limit, bool fixture_text,
                            const char *head, size_t got, char **data, size_t *len, gtr_err *err)
{
    comment_scan sc = {0, false};
    size_t max = limit < SIZE_MAX - 1 ? (size_t)limit + 1 : SIZE_MAX;
    size_t cap = got < 65536 ? 65536 : got;
    gtr_status st = GTR_OK;

    *data = NULL;
    *len = 0;
    if (got > limit)
        return over_limit(name, limit, err);
    if (cap > max)
        cap = max;   /* > got */
    char *buf = malloc(cap);
    if (buf == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    if (got > 0)
        memcpy(buf, head, got);
    size_t n = got;
    /* The head first: bytes that cannot be a fixture's are rejected before more is read. */
    if (fixture_text && comment_has_nul(&sc, buf, n)) {
        free(buf);
        return gtr_err_setf(err, GTR_E_FORMAT, "not a fixture: a NUL byte before its first file");
    }
    for (;;) {
        if (n == cap) {
            if (cap >= max) {
                st = over_limit(name, limit, err);
                break;
            }
            size_t ncap = cap > max / 2 ? max : cap * 2;
            char *nbuf = realloc(buf, ncap);
            if (nbuf == NULL) {
                st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
                break;
            }
            buf = nbuf;
            cap = ncap;
        }
        size_t k = 0;
        if ((st = gtr_input_read(in, buf + n, cap - n, &k, err)) < 0)
            break;
        n += k;
        if (fixture_text && comment_has_nul(&sc, buf, n)) {
            st = gtr_err_setf(err, GTR_E_FORMAT, "not a fixture: a NUL byte before its first file");
            break;
        }
        if (k == 0)
            break;
    }
    /* The loop stops at limit + 1 bytes: n == cap < max here, so the NUL adds one byte. */
    if (st >= 0 && n == cap) {
        char *nbuf = realloc(buf, cap + 1);
        if (nbuf == NULL)
            st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        else
            buf = nbuf;
    }
    if (st < 0) {
        free(buf);
        return st;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return GTR_OK;
}

/* read_head reads the head of in into head[0..HEAD_MAX) (*got bytes) and judges the header
 * on it (tgen_header_check: *hst, with the header's error in *herr). The 16 bytes of a
 * header come first and are judged before more is asked for: a pipe that sends a bad header
 * and then stalls is rejected on it, in every mode, as validate rejects it. The rest of the
 * head is read only when those bytes cannot reject the input. in's read errors: < 0. */
static gtr_status read_head(gtr_input *in, char *head, size_t *got, gtr_status *hst,
                            gtr_err *herr, gtr_err *err)
{
    enum { HEADER_BYTES = 16 };
    size_t n = 0, more = 0;
    gtr_status st = gtr_input_read(in, head, HEADER_BYTES, &n, err);
    *got = n;
    if (st < 0)
        return st;
    *hst = tgen_header_check(head, n, n < HEADER_BYTES, herr);
    if (*hst != GTR_OK && *hst != GTR_EOF)
        return GTR_OK;
    gtr_err_clear(herr);
    if (n == HEADER_BYTES && (st = gtr_input_read(in, head + n, HEAD_MAX - n, &more, err)) < 0)
        return st;
    *got = n + more;
    *hst = tgen_header_check(head, *got, *got < HEAD_MAX, herr);
    return GTR_OK;
}

gtr_status tgen_read_trace(gtr_input *in, const char *name, uint64_t max, char **data,
                           size_t *len, gtr_err *err)
{
    char head[HEAD_MAX];
    size_t got = 0;
    gtr_status st, hst;

    *data = NULL;
    *len = 0;
    if ((st = read_head(in, head, &got, &hst, err, err)) < 0)
        return st;
    if (hst < 0)
        return hst;
    return read_rest(in, name, max, false, head, got, data, len, err);
}

gtr_status tgen_read_fixture_candidate(gtr_input *in, const void *head, size_t got, char **data,
                                       size_t *len, gtr_err *err)
{
    return read_rest(in, "input", TGEN_FIXTURE_MAX, true, head, got, data, len, err);
}

gtr_status tgen_load_trace(const char *path, gtr_buf *wire, bool *fixture, gtr_err *err)
{
    const char *name = strcmp(path, "-") == 0 ? "stdin" : path;
    gtr_input *in = NULL;
    char head[HEAD_MAX], *data = NULL;
    size_t got = 0, len = 0;
    bool is_fixture = has_suffix(path, ".test"), nomem = false;
    gtr_err sub = GTR_ERR_INIT;
    gtr_status st;

    if (fixture != NULL)
        *fixture = false;
    if ((st = gtr_input_open_path(path, NULL, &in, err)) < 0)
        return st;
    /* A plain regular .test too large to hold fails before it is read. */
    struct stat sb;
    if (is_fixture && strcmp(path, "-") != 0 && !gtr_input_is_gzip(in) && stat(path, &sb) == 0 &&
        S_ISREG(sb.st_mode) && (unsigned long long)sb.st_size > TGEN_FIXTURE_MAX) {
        st = over_limit(name, TGEN_FIXTURE_MAX, err);
        goto out;
    }
    if (!is_fixture) {
        gtr_status hst;
        if ((st = read_head(in, head, &got, &hst, &sub, err)) < 0)
            goto out;
        st = hst;
        comment_scan sc = {0, false};
        if (st == GTR_OK || st == GTR_EOF) {
            /* A trace (or one whose header these bytes cannot judge): all of it. */
            if ((st = read_rest(in, name, TGEN_TRACE_MAX, false, head, got, &data, &len, err)) < 0)
                goto out;
            goto wire_bytes;
        }
        /* Not a trace: a fixture by its content, or bytes whose first ones fail the header
         * anyway, which are all the reader looks at: no more of them is kept (nor read, when
         * the head already has a NUL byte no fixture's comment holds). */
        if (comment_has_nul(&sc, head, got) ||
            tgen_read_fixture_candidate(in, head, got, &data, &len, NULL) < 0 ||
            !tgen_fixture_sniff(data, len, &nomem)) {
            free(data);
            data = NULL;
            if (nomem) {
                st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
                goto out;
            }
            if (gtr_buf_append(wire, head, got) < 0)
                st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
            else
                st = GTR_OK;
            goto out;
        }
    } else if ((st = gtr_input_read(in, head, sizeof head, &got, err)) < 0 ||
               (st = read_rest(in, name, TGEN_FIXTURE_MAX, false, head, got, &data, &len, err)) <
                   0) {
        goto out;
    }
    tgen_fixture *f = NULL;
    if ((st = tgen_fixture_parse(path, data, len, &f, err)) < 0)
        goto out;
    size_t n;
    const uint8_t *w = tgen_fixture_trace(f, &n);
    if (gtr_buf_append(wire, w, n) < 0)
        st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    tgen_fixture_free(f);
    if (fixture != NULL)
        *fixture = true;
    goto out;
wire_bytes:
    if (gtr_buf_append(wire, data, len) < 0)
        st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
out:
    gtr_err_clear(&sub);
    gtr_input_free(in);
    free(data);
    return st;
}
