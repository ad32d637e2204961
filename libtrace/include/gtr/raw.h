/* SPDX-License-Identifier: BSD-3-Clause */
/* raw.h: the raw layer (Go's internal/trace/raw): trace events as they are framed on the
 * wire, without meaning. Readers and writers for the binary (wire) format and the text
 * format, plus the header and Go-compatible string quoting the text format uses.
 *
 * Lifetime: an event filled in by a reader borrows its args and data from the reader; they
 * stay valid until the next call on that reader. */
#ifndef GTR_RAW_H
#define GTR_RAW_H

#include "gtr/buf.h"
#include "gtr/input.h"
#include "gtr/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A raw event (raw.Event). args holds every argument in spec order; for a Stack event the
 * spec args (id, nframes) are followed by nframes groups of 4 values (pc, func, file, line).
 * data is the trailer of HasData events (String, ExperimentalBatch); has_data_field tells
 * a present-but-empty trailer (data_len 0) from none (Go's nil Data). */
typedef struct gtr_raw_event {
    uint8_t version;          /* gtr_go_version of the trace */
    uint8_t type;             /* gtr_event_type */
    const uint64_t *args;
    size_t nargs;
    const uint8_t *data;
    size_t data_len;
    bool has_data_field;
} gtr_raw_event;

/* gtr_raw_event_string appends raw.Event.String() to out. */
GTR_API gtr_status gtr_raw_event_string(const gtr_raw_event *ev, gtr_buf *out);
/* gtr_raw_event_encoded_size: raw.Event.EncodedSize(). */
GTR_API size_t gtr_raw_event_encoded_size(const gtr_raw_event *ev);

/* gtr_header_read reads and checks the binary header from in (version.ReadHeader):
 * "bad file format: not a Go execution trace?" or
 * "unknown or unsupported trace version go 1.%d". */
GTR_API gtr_status gtr_header_read(gtr_input *in, gtr_go_version *v, gtr_err *err);

/* Binary (wire) reader: raw.Reader. */
typedef struct gtr_raw_reader gtr_raw_reader;
GTR_API gtr_status gtr_raw_reader_new(gtr_input *in, const gtr_alloc *alc, gtr_raw_reader **out,
                                      gtr_err *err);
GTR_API gtr_go_version gtr_raw_reader_version(const gtr_raw_reader *r);
/* gtr_raw_reader_next: GTR_OK with *ev filled, GTR_EOF at a clean end, or an error. */
GTR_API gtr_status gtr_raw_reader_next(gtr_raw_reader *r, gtr_raw_event *ev, gtr_err *err);
GTR_API void gtr_raw_reader_free(gtr_raw_reader *r);

/* Binary writer: raw.Writer. Writes the header at creation. */
typedef struct gtr_raw_writer gtr_raw_writer;
GTR_API gtr_status gtr_raw_writer_new(gtr_sink sink, gtr_go_version v, const gtr_alloc *alc,
                                      gtr_raw_writer **out, gtr_err *err);
GTR_API gtr_status gtr_raw_writer_write(gtr_raw_writer *w, const gtr_raw_event *ev,
                                        gtr_err *err);
/* gtr_raw_writer_flush pushes buffered bytes to the sink; _free flushes too (errors lost). */
GTR_API gtr_status gtr_raw_writer_flush(gtr_raw_writer *w, gtr_err *err);
GTR_API void gtr_raw_writer_free(gtr_raw_writer *w);

/* Text reader: raw.TextReader. Reads lines as Go's bufio.Scanner does, up to its limit: a
 * line of 64 KiB or more (its '\n' not counted) fails with GTR_E_FORMAT "bufio.Scanner: token
 * too long", as in Go. */
typedef struct gtr_text_reader gtr_text_reader;
GTR_API gtr_status gtr_text_reader_new(gtr_input *in, const gtr_alloc *alc,
                                       gtr_text_reader **out, gtr_err *err);
GTR_API gtr_go_version gtr_text_reader_version(const gtr_text_reader *r);
GTR_API gtr_status gtr_text_reader_next(gtr_text_reader *r, gtr_raw_event *ev, gtr_err *err);
GTR_API void gtr_text_reader_free(gtr_text_reader *r);

/* Text writer: raw.TextWriter. Writes "Trace Go1.%d\n" at creation. */
typedef struct gtr_text_writer gtr_text_writer;
GTR_API gtr_status gtr_text_writer_new(gtr_sink sink, gtr_go_version v, const gtr_alloc *alc,
                                       gtr_text_writer **out, gtr_err *err);
GTR_API gtr_status gtr_text_writer_write(gtr_text_writer *w, const gtr_raw_event *ev,
                                         gtr_err *err);
GTR_API gtr_status gtr_text_writer_flush(gtr_text_writer *w, gtr_err *err);
GTR_API void gtr_text_writer_free(gtr_text_writer *w);

/* Whole-trace conversions (Go's gotraceraw loop): the trace text[0..len) in the text format
 * appended to wire in the wire format, or the wire trace data[0..size) (never gunzipped)
 * appended to text in the text format. The first reader or writer error is returned with
 * Go's message; what was converted before it stays in the output. */
GTR_API gtr_status gtr_raw_text_to_wire(const char *text, size_t len, gtr_buf *wire,
                                        gtr_err *err);
GTR_API gtr_status gtr_raw_wire_to_text(const uint8_t *data, size_t size, gtr_buf *text,
                                        gtr_err *err);

/* Go string literals (strconv.Quote / strconv.Unquote), used by the text format's data=
 * trailer, by %q in messages and by fixture expectations. */
/* gtr_go_quote appends strconv.Quote(s[0..n)) to out. */
GTR_API gtr_status gtr_go_quote(gtr_buf *out, const void *s, size_t n);
/* gtr_go_unquote appends strconv.Unquote(s[0..n)) to out: "...", `...` or '.'; fails with
 * GTR_E_FORMAT "invalid syntax" exactly where Go's does. */
GTR_API gtr_status gtr_go_unquote(gtr_buf *out, const char *s, size_t n, gtr_err *err);

#ifdef __cplusplus
}
#endif
#endif /* GTR_RAW_H */
