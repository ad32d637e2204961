/* SPDX-License-Identifier: BSD-3-Clause */
/* common.c: helpers shared by the gotrace subcommands, among them cli_load_input, the one place
 * that recognises a .test fixture given where a trace is expected.
 *
 * _GNU_SOURCE is for fopencookie (glibc and musl): a stream that cannot be read twice (a pipe)
 * is looked at through a FILE that records what it reads, and is then handed to the reader
 * through a FILE that replays the recording before reading on. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli.h"
#include "tgen/fixture.h"
#include "txtar.h"

int cli_fail(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("gotrace: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_FAIL;
}

int cli_fail_err(const gtr_err *err)
{
    size_t n;
    const char *msg = gtr_err_text(err, &n);
    if (n == 0)
        return cli_fail("%s", gtr_status_text(err->code));
    /* The whole text, NUL bytes included, as Go prints an error. */
    fflush(stdout);
    fputs("gotrace: ", stderr);
    fwrite(msg, 1, n, stderr);
    fputc('\n', stderr);
    return CLI_FAIL;
}

const char *cli_errno_text(int errnum)
{
    static char buf[128];
    return gtr_errno_text(errnum, buf, sizeof buf);
}

int cli_fail_write(const char *path, int errnum)
{
    if (path == NULL || strcmp(path, "-") == 0)
        path = "stdout";
    return cli_fail("writing %s: %s", path, cli_errno_text(errnum != 0 ? errnum : EIO));
}

int cli_close_stdout(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return CLI_OK;
    return cli_fail_write(NULL, errno);
}

int cli_help(const char *text)
{
    fputs(text, stdout);
    return cli_close_stdout();
}

int cli_usage(const char *usage, const char *fmt, ...)
{
    va_list ap;
    fputs("gotrace: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fputs(usage, stderr);
    return CLI_USAGE;
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "-help") == 0 || strcmp(arg, "--help") == 0;
}

bool cli_flag(const char *arg, const char *name, const char **value)
{
    size_t n = strlen(name);

    if (arg[0] != '-')
        return false;
    arg += arg[1] == '-' ? 2 : 1;
    if (strncmp(arg, name, n) != 0 || (arg[n] != '\0' && arg[n] != '='))
        return false;
    *value = arg[n] == '=' ? arg + n + 1 : NULL;
    return true;
}

bool cli_bool_value(const char *value, bool *on)
{
    static const char *const yes[] = {"1", "t", "T", "TRUE", "true", "True"};
    static const char *const no[] = {"0", "f", "F", "FALSE", "false", "False"};

    if (value == NULL) {
        *on = true;
        return true;
    }
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (strcmp(value, yes[i]) == 0 || strcmp(value, no[i]) == 0) {
            *on = strcmp(value, yes[i]) == 0;
            return true;
        }
    }
    return false;
}

FILE *cli_open_out(const char *path)
{
    if (path == NULL || strcmp(path, "-") == 0)
        return stdout;
    return fopen(path, "wb");
}

int cli_close_out(FILE *f)
{
    if (f == stdout)
        return fflush(f) == 0 && !ferror(f) ? 0 : -1;
    int bad = ferror(f);
    return (fclose(f) == 0 && !bad) ? 0 : -1;
}

bool cli_has_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n > k && strcmp(name + n - k, suffix) == 0;
}

/* ---- trace inputs that may be .test fixtures ---- */

/* The first bytes of the wire format ("go 1.%d trace\x00\x00\x00") and of the text format
 * ("Trace Go1.%d"): an input starting with either is a trace, not a fixture. */
static const char wire_magic[] = "go 1.";
static const char text_magic[] = "Trace Go1.";
enum { MAGIC_MAX = sizeof text_magic - 1 };

/* The most raw bytes a recording keeps: what the decompressed limit needs, and some slack (a
 * FILE reads whole chunks; gzip adds framing). Past it the recording FILE fails, so that the
 * look stops (the recorded bytes are still replayed). */
#define RECORD_MAX (CLI_FIXTURE_MAX + (UINT64_C(1) << 20))

static bool starts_with(const char *p, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && memcmp(p, lit, k) == 0;
}

gtr_status cli_read_decompressed(const char *path, char **data, size_t *len, gtr_err *err)
{
    gtr_input *in = NULL;
    gtr_status st;

    *data = NULL;
    *len = 0;
    struct stat sb;
    if ((st = gtr_input_open_path(path, NULL, &in, err)) < 0)
        return st;
    /* A plain regular file too large to hold fails before it is read. */
    if (strcmp(path, "-") != 0 && !gtr_input_is_gzip(in) && stat(path, &sb) == 0 &&
        S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > CLI_FIXTURE_MAX) {
        gtr_input_free(in);
        return gtr_err_setf(err, GTR_E_LIMIT, "read %s: input exceeds the limit of %llu bytes",
                            path, (unsigned long long)CLI_FIXTURE_MAX);
    }
    gtr_input_set_limit(in, CLI_FIXTURE_MAX);
    if ((st = gtr_input_read_all(in, data, len, err)) < 0) {
        if (st == GTR_E_LIMIT)
            gtr_err_wrapf(err, "read %s", strcmp(path, "-") == 0 ? "stdin" : path);
        free(*data);
        *data = NULL;
        *len = 0;
    }
    gtr_input_free(in);
    return st;
}

/* sniff decides by its content whether the input in (freshly opened, limit set) is a
 * fixture. When it is, *data receives the whole decompressed input (malloc'd, the caller
 * frees it); otherwise *data is NULL. A read error (or the limit) means "not a fixture": the
 * input is then read as a trace, which meets the same error, or fails on its header first,
 * exactly as before. Errors: out of memory only. */
static gtr_status sniff(gtr_input *in, char **data, size_t *len, bool *text, gtr_err *err)
{
    char head[MAGIC_MAX];
    size_t got = 0;
    bool nomem;

    *data = NULL;
    *len = 0;
    gtr_input_set_limit(in, CLI_FIXTURE_MAX);
    if (gtr_input_read(in, head, sizeof head, &got, NULL) < 0)
        return GTR_OK;
    *text = starts_with(head, got, text_magic);
    if (*text || starts_with(head, got, wire_magic))
        return GTR_OK;
    /* The head, then the rest, as long as it may be a fixture. */
    size_t n = 0;
    char *buf = NULL;
    if (tgen_read_fixture_candidate(in, head, got, &buf, &n, NULL) < 0)
        return GTR_OK;
    if (!tgen_fixture_sniff(buf, n, &nomem)) {
        free(buf);
        return nomem ? gtr_err_setf(err, GTR_E_NOMEM, "out of memory") : GTR_OK;
    }
    *data = buf;
    *len = n;
    return GTR_OK;
}

/* load_fixture parses the fixture data[0..len) (named path in messages) into out, whose in
 * then delivers the section want. */
static gtr_status load_fixture(const char *path, const char *data, size_t len, cli_section want,
                               cli_input *out, gtr_err *err)
{
    const char *sec;
    size_t seclen;
    gtr_status st;

    if ((st = tgen_fixture_parse(path, data, len, &out->fixture, err)) < 0)
        return st;
    if (want == CLI_SECTION_WIRE) {
        sec = (const char *)tgen_fixture_trace(out->fixture, &seclen);
    } else {
        /* ParseFile accepted it, so the archive has two files, `trace` second. */
        out->archive = txtar_parse(data, len);
        if (out->archive == NULL || out->archive->nfiles != 2)
            return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        sec = out->archive->files[1].data;
        seclen = out->archive->files[1].data_len;
    }
    /* Go's ParseFile never gunzips the trace file: its bytes are read as they are. */
    if ((st = gtr_input_open_memory_plain(seclen > 0 ? sec : "", seclen, NULL, &out->in, err)) < 0)
        return st;
    out->from_fixture = true;
    return GTR_OK;
}

/* ---- looking at a stream that cannot be read twice ---- */

/* A recording of a stream: while recording, every byte read from src is kept in buf; while
 * replaying, buf[pos..len) is served first, then src is read on. A read error of src is kept
 * (errno) and returned by every later read, as a FILE would. */
struct cli_replay {
    FILE *src;
    bool own_src;       /* fclose src at the end */
    char *buf;
    size_t len, cap, pos;
    bool replaying;
    int src_errno;      /* != 0 once src failed */
};

/* replay_src reads up to n bytes of src into dst: what the stream has now, as read(2) gives it
 * (a FILE read function may return less than asked), so that the bytes that came are judged
 * without waiting for more: a pipe that sends a bad header and stalls is rejected on the
 * header. src is read only here, never through its stdio buffer. */
static ssize_t replay_src(struct cli_replay *r, char *dst, size_t n)
{
    if (r->src_errno != 0) {
        errno = r->src_errno;
        return -1;
    }
    int fd = fileno(r->src);
    ssize_t got;
    do {
        errno = 0;
        got = fd >= 0 ? read(fd, dst, n) : (ssize_t)fread(dst, 1, n, r->src);
    } while (got < 0 && errno == EINTR);
    if (got < 0 || (fd < 0 && got == 0 && ferror(r->src))) {
        r->src_errno = errno != 0 ? errno : EIO;
        errno = r->src_errno;
        return -1;
    }
    return got;
}

static ssize_t replay_read(void *cookie, char *dst, size_t n)
{
    struct cli_replay *r = cookie;

    if (n > SSIZE_MAX)
        n = SSIZE_MAX;
    if (r->replaying) {
        if (r->pos < r->len) {
            size_t k = r->len - r->pos < n ? r->len - r->pos : n;
            memcpy(dst, r->buf + r->pos, k);
            r->pos += k;
            return (ssize_t)k;
        }
        return replay_src(r, dst, n);
    }
    if (r->len >= RECORD_MAX) {
        errno = EFBIG;
        return -1;
    }
    if (n > RECORD_MAX - r->len)
        n = (size_t)(RECORD_MAX - r->len);
    if (r->cap - r->len < n) {
        size_t ncap = r->cap < 65536 ? 65536 : r->cap;
        while (ncap - r->len < n)
            ncap *= 2; /* r->len + n <= RECORD_MAX: no overflow */
        char *nbuf = realloc(r->buf, ncap);
        if (nbuf == NULL) {
            errno = ENOMEM;
            return -1;
        }
        r->buf = nbuf;
        r->cap = ncap;
    }
    ssize_t got = replay_src(r, r->buf + r->len, n);
    if (got > 0) {
        memcpy(dst, r->buf + r->len, (size_t)got);
        r->len += (size_t)got;
    }
    return got;
}

static FILE *replay_open(struct cli_replay *r)
{
    cookie_io_functions_t io = {replay_read, NULL, NULL, NULL};
    return fopencookie(r, "r", io);
}

static void replay_free(struct cli_replay *r)
{
    if (r == NULL)
        return;
    if (r->own_src)
        fclose(r->src);
    free(r->buf);
    free(r);
}

/* load_stream is cli_load_input for a stream (stdin, a FIFO): it is looked at through a
 * recording FILE; a fixture is loaded from what was read, anything else is read by the trace
 * reader through a FILE that replays the recording and then reads on. name is the stream's
 * name in I/O messages ("stdin", or the path), as gtr_input_open_path gives it. */
static gtr_status load_stream(const char *path, FILE *src, bool own_src, const char *name,
                              cli_section want, cli_input *out, gtr_err *err)
{
    struct cli_replay *r = calloc(1, sizeof *r);
    gtr_input *probe = NULL;
    FILE *probe_fp = NULL;
    char *data = NULL;
    size_t len = 0;
    gtr_status st = GTR_OK;

    if (r == NULL) {
        if (own_src)
            fclose(src);
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    }
    r->src = src;
    r->own_src = own_src;
    out->replay = r;
    if ((probe_fp = replay_open(r)) == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    if (gtr_input_open_file(probe_fp, NULL, &probe, NULL) == GTR_OK) {
        st = sniff(probe, &data, &len, &out->text_format, err);
        gtr_input_free(probe);
    }
    fclose(probe_fp);
    if (st < 0)
        return st;
    if (data != NULL) {
        st = load_fixture(path, data, len, want, out, err);
        free(data);
        return st;
    }
    if (r->src_errno != 0 && r->len == 0)
        /* The stream failed at once: say so as gtr_input_open_path would have. */
        return gtr_err_setf(err, GTR_E_IO, "read %s: %s", name, cli_errno_text(r->src_errno));
    r->replaying = true;
    if ((out->mem = replay_open(r)) == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    return gtr_input_open_file(out->mem, NULL, &out->in, err);
}

/* release_mapped is the mapped input's release function (gtr_input_set_release). */
static void release_mapped(void *ctx, uint64_t offset)
{
    cli_mapped_file_release_before(ctx, offset);
    /* A generation is done with: a cut file is told as soon as it can be. */
    cli_mapped_file_check(ctx);
}

/* map_plain_file maps path when it is a regular file that is not gzip-compressed (a gzip
 * file is inflated into the input's own buffer anyway, and streams in less memory). */
static bool map_plain_file(const char *path, cli_mapped_file *m)
{
    if (!cli_map_file(path, m))
        return false;
    const unsigned char *p = m->data;
    if (m->len >= 2 && p[0] == 0x1f && p[1] == 0x8b) {
        cli_unmap_file(m);
        return false;
    }
    return true;
}

gtr_status cli_load_input(const char *path, cli_section want, cli_input *out, gtr_err *err)
{
    gtr_input *probe = NULL;
    char *data = NULL;
    size_t len = 0;
    struct stat sb;
    gtr_status st;

    memset(out, 0, sizeof *out);
    if (strcmp(path, "-") == 0) {
        /* A directory on stdin fails at the first read: leave that to the trace reader. */
        if (fstat(fileno(stdin), &sb) == 0 && S_ISDIR(sb.st_mode))
            st = gtr_input_open_path(path, NULL, &out->in, err);
        else
            st = load_stream(path, stdin, false, "stdin", want, out, err);
        goto done;
    }
    if (cli_has_suffix(path, ".test")) {
        if ((st = cli_read_decompressed(path, &data, &len, err)) == GTR_OK)
            st = load_fixture(path, data, len, want, out, err);
        goto done;
    }
    if (stat(path, &sb) == 0 && (S_ISFIFO(sb.st_mode) || S_ISCHR(sb.st_mode) ||
                                 S_ISSOCK(sb.st_mode))) {
        FILE *fp = fopen(path, "rb");
        if (fp == NULL)
            /* Go: os.Open's *PathError, as gtr_input_open_path words it. */
            st = gtr_err_setf(err, GTR_E_IO, "open %s: %s", path, cli_errno_text(errno));
        else
            st = load_stream(path, fp, true, path, want, out, err);
        goto done;
    }
    if (want == CLI_SECTION_WIRE && map_plain_file(path, &out->map)) {
        /* A plain regular file is looked at and read through its mapping: nothing is read
         * into a buffer to look (a 64 KiB read and its copy), the reader takes its batches
         * in place and says when a generation's are done with (their pages then go). */
        if ((st = gtr_input_open_memory_plain(out->map.data, out->map.len, NULL, &probe,
                                              err)) < 0)
            goto done;
        st = sniff(probe, &data, &len, &out->text_format, err);
        gtr_input_free(probe);
        if (st == GTR_OK && data != NULL) {
            cli_unmap_file(&out->map);
            st = load_fixture(path, data, len, want, out, err);
        } else if (st == GTR_OK) {
            st = gtr_input_open_memory_plain(out->map.data, out->map.len, NULL, &out->in, err);
            if (st == GTR_OK)
                gtr_input_set_release(out->in, release_mapped, &out->map);
        }
        goto done;
    }
    /* Any other file that can be read twice (or one gtr_input_open_path reports an error
     * for): look, then reopen. */
    if ((st = gtr_input_open_path(path, NULL, &probe, err)) < 0)
        goto done;
    st = sniff(probe, &data, &len, &out->text_format, err);
    gtr_input_free(probe);
    if (st == GTR_OK && data != NULL)
        st = load_fixture(path, data, len, want, out, err);
    else if (st == GTR_OK)
        st = gtr_input_open_path(path, NULL, &out->in, err);
done:
    free(data);
    if (st < 0)
        cli_input_free(out);
    return st;
}

int cli_fail_trace_err(const cli_input *ci, const gtr_err *err)
{
    /* Go: the header check's message (internal/trace/version.ReadHeader). */
    static const char not_a_trace[] = "bad file format: not a Go execution trace?";
    int rc = cli_fail_err(err);
    size_t n;
    const char *msg = gtr_err_text(err, &n);
    if (ci->text_format && n == sizeof not_a_trace - 1 && memcmp(msg, not_a_trace, n) == 0)
        fputs("gotrace: (this is a trace in the text format: convert it with gotrace raw "
              "text2bytes)\n", stderr);
    return rc;
}

void cli_input_check_whole(const cli_input *ci)
{
    cli_mapped_file_check(&ci->map);
}

void cli_input_free(cli_input *ci)
{
    gtr_input_free(ci->in);
    if (ci->mem != NULL)
        fclose(ci->mem);
    replay_free(ci->replay);
    txtar_free(ci->archive);
    tgen_fixture_free(ci->fixture);
    cli_unmap_file(&ci->map);
    memset(ci, 0, sizeof *ci);
}
