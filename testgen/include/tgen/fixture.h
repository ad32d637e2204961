/* SPDX-License-Identifier: BSD-3-Clause */
/* fixture.h: `.test` fixture files (Go's testtrace.ParseFile) and the golden check that runs
 * one (Go's TestReaderGolden / testReader in src/internal/trace/reader_test.go).
 *
 * A fixture is a txtar archive with exactly two files, `expect` (see tgen/expect.h) then
 * `trace` (the text format of gtr/raw.h). Parsing turns the text trace into wire bytes with
 * the text reader and the raw writer, as Go does. */
#ifndef TGEN_FIXTURE_H
#define TGEN_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "gtr/buf.h"
#include "gtr/input.h"
#include "gtr/spec.h"
#include "gtr/status.h"
#include "tgen/expect.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tgen_fixture tgen_fixture;   /* opaque; immutable once parsed */

/* TGEN_FIXTURE_MAX: the most bytes of a fixture read into memory (after gunzip): past it,
 * reading one fails with "read PATH: input exceeds the limit of 67108864 bytes" (Go's
 * os.ReadFile has no limit; Go's own fixtures are at most a few KiB). */
#define TGEN_FIXTURE_MAX (UINT64_C(64) << 20)

/* TGEN_TRACE_MAX: the most bytes of a wire trace tgen_load_trace holds (after gunzip): 256
 * MiB, more than any real trace a reduction starts from, far less than a hostile input. */
#define TGEN_TRACE_MAX (UINT64_C(256) << 20)

/* tgen_fixture_parse_file reads and parses the fixture at path (ParseFile), at most
 * TGEN_FIXTURE_MAX bytes (a larger regular file fails before it is read). Errors carry
 * Go's messages, path as given:
 *   "failed to read test file for %s: %v" (GTR_E_IO; %v is Go's "open PATH: <reason>" or
 *   "read PATH: <reason>"; GTR_E_LIMIT past the limit), "malformed test %s: wrong number of files",
 *   "malformed test %s: bad filename %s", "malformed test %s: bad trace file: %v",
 *   "failed to create trace byte writer: %v",
 *   "internal error during %s: failed to write trace bytes: %v",
 *   "internal error during %s: failed to parse expectation %q: %v".
 * On success *out owns the fixture (tgen_fixture_free). */
GTR_API gtr_status tgen_fixture_parse_file(const char *path, tgen_fixture **out, gtr_err *err);

/* tgen_fixture_parse parses a fixture held in memory (data is not retained); path is used
 * only in messages. Same errors as tgen_fixture_parse_file, minus the read error. */
GTR_API gtr_status tgen_fixture_parse(const char *path, const void *data, size_t len,
                                      tgen_fixture **out, gtr_err *err);

/* tgen_fixture_trace returns the trace's wire bytes (header included), owned by f; *len gets
 * their length. */
GTR_API const uint8_t *tgen_fixture_trace(const tgen_fixture *f, size_t *len);

/* tgen_fixture_version returns the trace's version (the text trace's "Trace Go1.N" line). */
GTR_API gtr_go_version tgen_fixture_version(const tgen_fixture *f);

/* tgen_fixture_expect returns the fixture's expectation, owned by f. */
GTR_API const tgen_expect *tgen_fixture_expect(const tgen_fixture *f);

/* tgen_fixture_free releases f. NULL: no-op. */
GTR_API void tgen_fixture_free(tgen_fixture *f);

/* tgen_fixture_sniff reports whether data[0..len) (already decompressed) is a fixture by its
 * content: it starts with neither trace header ("go 1." of the wire format, "Trace Go1." of
 * the text format) and is a txtar archive of exactly `expect` then `trace`, the shape
 * ParseFile accepts. *nomem (may be NULL) is set when parsing ran out of memory. */
GTR_API bool tgen_fixture_sniff(const char *data, size_t len, bool *nomem);

/* tgen_header_check judges a trace's header from its first bytes head[0..n) as
 * gtr_header_read judges it on the whole input (whole: the input ends there). Returns GTR_OK
 * for a valid header, the header's error (Go's message) when these bytes decide it, and
 * GTR_EOF (err untouched) when they cannot: a header padded with more spaces or digits than
 * n bytes hold. */
GTR_API gtr_status tgen_header_check(const void *head, size_t n, bool whole, gtr_err *err);

/* tgen_read_trace reads the wire trace in delivers (nothing read from it yet) into a malloc'd
 * buffer (*data, *len, NUL-terminated; the caller frees *data), as tgen_load_trace reads one:
 * its header is judged on its first 16 bytes, before more is asked for (a stream that sends
 * a bad header and stalls is rejected on it), then on its first 4 KiB (tgen_header_check),
 * and a header they reject is that error (Go's message) before anything more is read; then
 * at most max bytes in all, the
 * buffer never larger than max + 1. Errors: in's, the header's, "read NAME: input exceeds the
 * limit of MAX bytes" (GTR_E_LIMIT), "out of memory". */
GTR_API gtr_status tgen_read_trace(gtr_input *in, const char *name, uint64_t max, char **data,
                                   size_t *len, gtr_err *err);

/* tgen_read_fixture_candidate reads the rest of in after its first bytes head[0..got)
 * (already read from it) into a malloc'd buffer (*data, *len, NUL-terminated; the caller
 * frees *data), for tgen_fixture_sniff to tell whether it is a fixture: at most
 * TGEN_FIXTURE_MAX bytes in all, and no further than a NUL byte that comes before the first
 * line starting with "-- " (a fixture's comment, before its first file, is text: an input
 * with such a byte is not taken for a fixture by its content). Either way it fails
 * (GTR_E_LIMIT, GTR_E_FORMAT), *data NULL: the input is no fixture. Also in's read errors,
 * "out of memory". */
GTR_API gtr_status tgen_read_fixture_candidate(gtr_input *in, const void *head, size_t got,
                                               char **data, size_t *len, gtr_err *err);

/* tgen_load_trace appends to wire the wire bytes of the trace in the file at path ("-":
 * stdin), gunzipped when compressed. A .test fixture (a name ending in ".test", or content
 * tgen_fixture_sniff recognises) gives its trace section, converted
 * the way ParseFile does (with its messages); anything else is taken as wire bytes. *fixture
 * (may be NULL) tells which. Memory is bounded whatever the input: a trace is read whole
 * only once its header is valid (tgen_header_check on its first 16 bytes, then on its first
 * 4 KiB), and then at most TGEN_TRACE_MAX bytes of it; a fixture, or an input that may be
 * one, at most TGEN_FIXTURE_MAX bytes, and nothing past the head when the head has a NUL
 * byte no fixture's comment holds. An input whose header fails and that is no fixture gives
 * only its first bytes (16 when they decide, at most 4 KiB: all that decides a reader's
 * verdict on it). Errors: "open PATH:
 * <reason>", "read PATH: <reason>" (a directory: "read PATH: is a directory"; past
 * TGEN_TRACE_MAX: "read PATH: input exceeds the limit of 268435456 bytes", PATH "stdin" for
 * "-"), the gzip layer's, or ParseFile's. */
GTR_API gtr_status tgen_load_trace(const char *path, gtr_buf *wire, bool *fixture, gtr_err *err);

/* What a golden check saw. */
typedef struct tgen_check_report {
    uint64_t events;     /* events the reader returned before EOF or its error */
    unsigned failures;   /* failures recorded (Go's t.Error/t.Fatalf calls); err holds the first */
} tgen_check_report;

/* tgen_fixture_check runs the fixture at path the way TestReaderGolden does: parse it
 * (failure: "failed to parse test file at %s: %v"), read the wire bytes with gtr_reader,
 * validate every event with a gtr_validator told the trace's version, and check the
 * reader's outcome against the expectation. Validation failures do not stop the reading (Go
 * calls t.Error and goes on). Returns GTR_OK when nothing failed, else the first failure's
 * status with its message in err (GTR_E_INVALID for a broken expectation, the validator's
 * GTR_E_INVALID, or the parse error's code). rep (may be NULL) receives the counts. */
GTR_API gtr_status tgen_fixture_check(const char *path, tgen_check_report *rep, gtr_err *err);

/* tgen_fixture_check_parsed is tgen_fixture_check on an already parsed fixture. */
GTR_API gtr_status tgen_fixture_check_parsed(const tgen_fixture *f, tgen_check_report *rep,
                                             gtr_err *err);

#ifdef __cplusplus
}
#endif
#endif /* TGEN_FIXTURE_H */
