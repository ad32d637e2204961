/* SPDX-License-Identifier: BSD-3-Clause */
/* mapped_file.h: a regular file mapped read-only into memory, for the trace readers to take
 * their batches from in place (a plain memory input is never copied: see
 * gtr__input_borrow). */
#ifndef GTR_CLI_MAPPED_FILE_H
#define GTR_CLI_MAPPED_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CLI_MAPPED_FILE_AHEAD: how many bytes past those let go the mapping is made resident in
 * advance (the whole of a file of at most this size as it is mapped). */
#define CLI_MAPPED_FILE_AHEAD ((size_t)2 << 20)

typedef struct cli_mapped_file {
    void *data;       /* NULL: nothing mapped */
    int fd;           /* the file, open while it is mapped: its size is checked against len */
    size_t len;
    size_t released;  /* bytes at the start let go by cli_mapped_file_release_before */
    size_t populated; /* the end of the bytes made resident in advance */
} cli_mapped_file;

/* cli_map_file maps the regular file path whole, and makes its first CLI_MAPPED_FILE_AHEAD
 * bytes resident (their pages entered in one call, not a fault every few pages). Returns
 * false, with nothing mapped, when path is not a regular file, is empty (as /proc files say
 * they are), cannot be opened or mapped: the caller then reads it as a stream, which reports
 * any error in Go's words. A file cut short by another process while it is mapped would
 * raise SIGBUS on the next read of a lost page: once a file is mapped, SIGBUS ends gotrace
 * with "gotrace: read PATH: the file was truncated while being read" (PATH the last file
 * mapped) and exit status 1. A cut that is not page-aligned raises no SIGBUS for the rest of
 * its last page, which reads as zeros: cli_mapped_file_check catches that one. */
bool cli_map_file(const char *path, cli_mapped_file *out);

/* cli_mapped_file_check ends gotrace as SIGBUS does (the same message, exit status 1) when
 * the file of m is now shorter than its mapping: bytes read from it may have been the zeros
 * that stand for the lost part of the last page. Call it before any outcome of reading the
 * mapping is reported, so that the outcome of a cut file is always that message. Returns
 * when nothing is mapped or the file is whole. */
void cli_mapped_file_check(const cli_mapped_file *m);

/* cli_mapped_file_release_before lets go of the whole pages of m before offset, so that a
 * long file read front to back keeps the memory of a short one: they leave the process (its
 * resident set), not the file; touched again, they are read back from the page cache. The
 * CLI_MAPPED_FILE_AHEAD bytes after them are then made resident. */
void cli_mapped_file_release_before(cli_mapped_file *m, uint64_t offset);

/* cli_unmap_file releases what cli_map_file mapped (and zeroes m). */
void cli_unmap_file(cli_mapped_file *m);

#endif /* GTR_CLI_MAPPED_FILE_H */
