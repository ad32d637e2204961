/* SPDX-License-Identifier: BSD-3-Clause */
/* txtar.h: the txtar archive format of golang.org/x/tools/txtar (and Go's internal/txtar).
 *
 * A txtar archive is zero or more comment lines followed by file entries. Each entry starts
 * with a marker line "-- NAME --" (the line begins with the three bytes "-- ", ends with the
 * three bytes " --", and NAME is what lies between, with Go's strings.TrimSpace applied; a
 * marker whose trimmed name is empty is not a marker) and runs to the next marker line. There
 * are no syntax errors. If the input lacks a final newline, the last section (the comment when
 * there are no files, else the last file) gets one. A marker line is recognised only at the
 * start of the input or right after a '\n', so "-- a --\r\n" (CRLF) is not a marker; a marker
 * on the very last line needs no newline.
 *
 * This library depends on nothing but libc and allocates with malloc/free. All lengths are
 * explicit: data may contain NUL bytes. */
#ifndef TXTAR_H
#define TXTAR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TXTAR_API __attribute__((visibility("default")))
#else
#define TXTAR_API
#endif

/* txtar_file is one entry. In a parsed archive, name is NUL-terminated (name[name_len] == 0)
 * and both pointers point into the archive's own storage. */
typedef struct txtar_file {
    const char *name;
    size_t name_len;
    const char *data;
    size_t data_len;
} txtar_file;

/* txtar_archive is a comment and files. The struct is transparent so callers can build one
 * (for instance on the stack, pointing at their own bytes) and pass it to txtar_format; only
 * archives returned by txtar_parse/txtar_parse_file may be given to txtar_free. */
typedef struct txtar_archive {
    const char *comment;
    size_t comment_len;
    txtar_file *files;
    size_t nfiles;
} txtar_archive;

/* txtar_parse parses len bytes at data (data may be NULL when len is 0) and returns a new
 * archive, or NULL when out of memory (errno is ENOMEM). The archive COPIES the input: it
 * owns every byte it points to (one allocation), and the input may be freed right after the
 * call. Free it with txtar_free. Mirrors Go's txtar.Parse exactly, including the final
 * newline fix-up. */
TXTAR_API txtar_archive *txtar_parse(const void *data, size_t len);

/* txtar_parse_file reads the file at path and parses it (Go's txtar.ParseFile). On failure it
 * returns NULL with errno set (from open/read, or ENOMEM). */
TXTAR_API txtar_archive *txtar_parse_file(const char *path);

/* txtar_free frees an archive returned by txtar_parse or txtar_parse_file. NULL: no-op. */
TXTAR_API void txtar_free(txtar_archive *a);

/* txtar_find returns the first file named name (a NUL-terminated string), or NULL. */
TXTAR_API const txtar_file *txtar_find(const txtar_archive *a, const char *name);

/* txtar_format_len returns the exact size of txtar_format's output, or (size_t)-1 when it
 * does not fit in a size_t. */
TXTAR_API size_t txtar_format_len(const txtar_archive *a);

/* txtar_format_to writes the serialised archive (Go's txtar.Format) into dst, which must hold
 * txtar_format_len(a) bytes; returns the number of bytes written. No NUL is appended. Like Go,
 * it assumes a well-formed archive: no marker lines in the comment or data, non-empty names.
 * The comment and each file's data get a final '\n' when they are non-empty and lack one. */
TXTAR_API size_t txtar_format_to(const txtar_archive *a, char *dst);

/* txtar_format returns the serialised archive in a new malloc'd buffer (NUL-terminated for
 * convenience, the NUL not counted in *len); the caller frees it with free(). NULL when out of
 * memory (errno is ENOMEM). */
TXTAR_API char *txtar_format(const txtar_archive *a, size_t *len);

#ifdef __cplusplus
}
#endif
#endif /* TXTAR_H */
