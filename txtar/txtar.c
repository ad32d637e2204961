/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of golang.org/x/tools/txtar/archive.go (identical to Go 1.27.3's internal/txtar).
 *
 * Parsing is two passes over the input. The first pass walks the sections exactly as Go's
 * findFileMarker/isMarker do and only counts (files, name bytes). The second pass fills one
 * allocation laid out as: the txtar_archive, the txtar_file array, a copy of the input plus
 * one '\n' (Go's fixNL for the last section becomes "extend the length by one"), then the
 * NUL-terminated names. */
#include "txtar.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A section found by find_file_marker: the bytes before the marker [off, before_end), and,
 * when a marker was found, its trimmed name and where the data after the marker line starts. */
typedef struct section {
    size_t before_end;
    int has_name;
    size_t name_off, name_len;
    size_t after;
} section;

/* Non-ASCII code points for which Go's unicode.IsSpace is true, UTF-8 encoded. */
static const struct {
    unsigned char len;
    unsigned char b[3];
} uspaces[] = {
    {2, {0xC2, 0x85, 0}},    {2, {0xC2, 0xA0, 0}},    {3, {0xE1, 0x9A, 0x80}},
    {3, {0xE2, 0x80, 0x80}}, {3, {0xE2, 0x80, 0x81}}, {3, {0xE2, 0x80, 0x82}},
    {3, {0xE2, 0x80, 0x83}}, {3, {0xE2, 0x80, 0x84}}, {3, {0xE2, 0x80, 0x85}},
    {3, {0xE2, 0x80, 0x86}}, {3, {0xE2, 0x80, 0x87}}, {3, {0xE2, 0x80, 0x88}},
    {3, {0xE2, 0x80, 0x89}}, {3, {0xE2, 0x80, 0x8A}}, {3, {0xE2, 0x80, 0xA8}},
    {3, {0xE2, 0x80, 0xA9}}, {3, {0xE2, 0x80, 0xAF}}, {3, {0xE2, 0x81, 0x9F}},
    {3, {0xE3, 0x80, 0x80}},
};

static int ascii_space(unsigned char c)
{
    return c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == ' ';
}

/* space_prefix returns the length of the space rune p[0:n] starts with, or 0. A multi-byte
 * match is exactly one valid rune, as utf8.DecodeRune would decode it. */
static size_t space_prefix(const unsigned char *p, size_t n)
{
    if (n == 0)
        return 0;
    if (p[0] < 0x80)
        return ascii_space(p[0]) ? 1 : 0;
    for (size_t k = 0; k < sizeof uspaces / sizeof uspaces[0]; k++) {
        size_t l = uspaces[k].len;
        if (n >= l && memcmp(p, uspaces[k].b, l) == 0)
            return l;
    }
    return 0;
}

/* space_suffix returns the length of the space rune p[0:n] ends with, or 0. The encodings in
 * uspaces start with a lead byte followed only by continuation bytes, so a suffix match is
 * what utf8.DecodeLastRune returns. */
static size_t space_suffix(const unsigned char *p, size_t n)
{
    if (n == 0)
        return 0;
    if (p[n - 1] < 0x80)
        return ascii_space(p[n - 1]) ? 1 : 0;
    for (size_t k = 0; k < sizeof uspaces / sizeof uspaces[0]; k++) {
        size_t l = uspaces[k].len;
        if (n >= l && memcmp(p + n - l, uspaces[k].b, l) == 0)
            return l;
    }
    return 0;
}

/* trim_space is strings.TrimSpace on p[*off : *off+*len]. */
static void trim_space(const unsigned char *p, size_t *off, size_t *len)
{
    size_t s = *off, n = *len, w;
    while ((w = space_prefix(p + s, n)) > 0) {
        s += w;
        n -= w;
    }
    while ((w = space_suffix(p + s, n)) > 0)
        n -= w;
    *off = s;
    *len = n;
}

/* is_marker: Go's isMarker on p[i:n]. On success fills name and after. */
static int is_marker(const unsigned char *p, size_t i, size_t n, section *sec)
{
    size_t rest = n - i, line = rest, after = n;
    const unsigned char *nl;

    if (rest < 3 || memcmp(p + i, "-- ", 3) != 0)
        return 0;
    if ((nl = memchr(p + i, '\n', rest)) != NULL) {
        line = (size_t)(nl - (p + i));
        after = i + line + 1;
    }
    if (line < 6 || memcmp(p + i + line - 3, " --", 3) != 0)
        return 0;
    size_t off = i + 3, len = line - 6;
    trim_space(p, &off, &len);
    if (len == 0)
        return 0;
    sec->has_name = 1;
    sec->name_off = off;
    sec->name_len = len;
    sec->after = after;
    return 1;
}

/* find_newline_marker returns the offset of the first "\n-- " in p[i:n], or SIZE_MAX. */
static size_t find_newline_marker(const unsigned char *p, size_t i, size_t n)
{
    while (i < n) {
        const unsigned char *nl = memchr(p + i, '\n', n - i);
        if (nl == NULL)
            return SIZE_MAX;
        size_t j = (size_t)(nl - p);
        if (n - j >= 4 && memcmp(p + j, "\n-- ", 4) == 0)
            return j;
        i = j + 1;
    }
    return SIZE_MAX;
}

/* find_file_marker: Go's findFileMarker on p[off:n]. Without a marker the section runs to n
 * (the caller applies fixNL). */
static void find_file_marker(const unsigned char *p, size_t off, size_t n, section *sec)
{
    size_t i = off;
    memset(sec, 0, sizeof *sec);
    for (;;) {
        if (is_marker(p, i, n, sec)) {
            sec->before_end = i;
            return;
        }
        size_t j = find_newline_marker(p, i, n);
        if (j == SIZE_MAX) {
            sec->before_end = n;
            sec->has_name = 0;
            return;
        }
        i = j + 1; /* positioned at the start of a new possible marker */
    }
}

/* fixed_len is the length of p[off:end) after fixNL, given that the byte at end in the copy
 * is the extra '\n'. */
static size_t fixed_len(const unsigned char *p, size_t off, size_t end)
{
    if (end == off || p[end - 1] == '\n')
        return end - off;
    return end - off + 1;
}

txtar_archive *txtar_parse(const void *data, size_t len)
{
    static const unsigned char empty[1] = {0};
    const unsigned char *in = len > 0 ? data : empty;
    size_t nfiles = 0, names = 0, pos;
    section sec;

    /* Pass 1: count. */
    find_file_marker(in, 0, len, &sec);
    while (sec.has_name) {
        nfiles++;
        names += sec.name_len + 1;
        pos = sec.after;
        find_file_marker(in, pos, len, &sec);
    }

    /* One allocation; every term is bounded by len, so only the sum can overflow. */
    size_t head = sizeof(txtar_archive) + nfiles * sizeof(txtar_file);
    if (len > SIZE_MAX - head - 1 || names > SIZE_MAX - head - len - 1) {
        errno = ENOMEM;
        return NULL;
    }
    char *mem = malloc(head + len + 1 + names);
    if (mem == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    txtar_archive *a = (txtar_archive *)(void *)mem;
    txtar_file *files = (txtar_file *)(void *)(mem + sizeof(txtar_archive));
    unsigned char *copy = (unsigned char *)mem + head;
    char *namep = mem + head + len + 1;
    if (len > 0)
        memcpy(copy, in, len);
    copy[len] = '\n';

    /* Pass 2: fill, over the copy. */
    a->files = nfiles > 0 ? files : NULL;
    a->nfiles = nfiles;
    find_file_marker(copy, 0, len, &sec);
    a->comment = (const char *)copy;
    a->comment_len = sec.has_name ? sec.before_end : fixed_len(copy, 0, len);
    for (size_t k = 0; sec.has_name; k++) {
        files[k].name = namep;
        files[k].name_len = sec.name_len;
        memcpy(namep, copy + sec.name_off, sec.name_len);
        namep[sec.name_len] = '\0';
        namep += sec.name_len + 1;
        pos = sec.after;
        find_file_marker(copy, pos, len, &sec);
        files[k].data = (const char *)copy + pos;
        files[k].data_len = sec.has_name ? sec.before_end - pos : fixed_len(copy, pos, len);
    }
    return a;
}

txtar_archive *txtar_parse_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int saved;
    txtar_archive *a = NULL;

    if (f == NULL)
        return NULL;
    for (;;) {
        if (cap - len < 4096) {
            size_t ncap = cap < 65536 ? 65536 : cap;
            if (ncap > SIZE_MAX - cap) {
                errno = ENOMEM;
                goto out;
            }
            ncap += cap;
            char *nbuf = realloc(buf, ncap);
            if (nbuf == NULL) {
                errno = ENOMEM;
                goto out;
            }
            buf = nbuf;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) {
                if (errno == 0)
                    errno = EIO;
                goto out;
            }
            break;
        }
    }
    a = txtar_parse(buf, len);
out:
    saved = errno;
    free(buf);
    fclose(f);
    errno = saved;
    return a;
}

void txtar_free(txtar_archive *a)
{
    free(a);
}

const txtar_file *txtar_find(const txtar_archive *a, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < a->nfiles; i++) {
        const txtar_file *f = &a->files[i];
        if (f->name_len == n && memcmp(f->name, name, n) == 0)
            return f;
    }
    return NULL;
}

/* fixnl_len is len(fixNL(p[:n])). */
static size_t fixnl_len(const char *p, size_t n)
{
    return (n == 0 || p[n - 1] == '\n') ? n : n + 1;
}

static int add_size(size_t *total, size_t n)
{
    if (n > SIZE_MAX - 1 - *total)
        return 0;
    *total += n;
    return 1;
}

size_t txtar_format_len(const txtar_archive *a)
{
    size_t total = 0;
    if (a->comment_len == SIZE_MAX || !add_size(&total, fixnl_len(a->comment, a->comment_len)))
        return SIZE_MAX;
    for (size_t i = 0; i < a->nfiles; i++) {
        const txtar_file *f = &a->files[i];
        if (f->name_len > SIZE_MAX - 8 || f->data_len == SIZE_MAX ||
            !add_size(&total, f->name_len + 7) || !add_size(&total, fixnl_len(f->data, f->data_len)))
            return SIZE_MAX;
    }
    return total;
}

static char *put(char *dst, const char *src, size_t n)
{
    if (n > 0)
        memcpy(dst, src, n);
    return dst + n;
}

static char *put_fixnl(char *dst, const char *src, size_t n)
{
    dst = put(dst, src, n);
    if (n > 0 && src[n - 1] != '\n')
        *dst++ = '\n';
    return dst;
}

size_t txtar_format_to(const txtar_archive *a, char *dst)
{
    char *p = put_fixnl(dst, a->comment, a->comment_len);
    for (size_t i = 0; i < a->nfiles; i++) {
        const txtar_file *f = &a->files[i];
        p = put(p, "-- ", 3);
        p = put(p, f->name, f->name_len);
        p = put(p, " --\n", 4);
        p = put_fixnl(p, f->data, f->data_len);
    }
    return (size_t)(p - dst);
}

char *txtar_format(const txtar_archive *a, size_t *len)
{
    size_t n = txtar_format_len(a);
    char *out;
    if (n == SIZE_MAX || (out = malloc(n + 1)) == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    size_t w = txtar_format_to(a, out);
    out[w] = '\0';
    if (len != NULL)
        *len = w;
    return out;
}
