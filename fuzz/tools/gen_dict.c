/* SPDX-License-Identifier: BSD-3-Clause */
/* gen_dict.c: writes the fuzzing dictionaries (libFuzzer/AFL syntax, `name="bytes"`) from
 * the spec table, so they never drift from the parser. Run by the build
 * (fuzz/CMakeLists.txt); not hand-edited.
 *
 *   gen_dict wire|text|txtar > TARGET.dict
 *
 * wire: every header ("go 1.N trace\0\0\0"), every event-type byte, and the LEB128
 *   encodings of the values the parser compares a decoded varint against (FUZZING.md §7.4:
 *   byte-level engines cannot solve a comparison made after varint decoding): the format
 *   limits (MaxBatchSize, MaxFramesPerStack, MaxEventTrailerDataSize) and their
 *   neighbours, generation numbers, wire status values, varint width boundaries, the
 *   all-ones "no thread/goroutine/proc" value, math.MaxInt64 and its neighbours (base.go's
 *   maxID check), plus small batch headers (EventBatch/ExperimentalBatch gen=1 m=0).
 * text: the text format: "Trace Go1.N" headers, every event name of the newest version,
 *   every "arg=" token, the frame fields, `data="`, comments and escapes.
 * txtar: the text tokens plus the .test file framing ("-- expect --", "-- trace --",
 *   SUCCESS, FAILURE "...") and regexp pieces. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gtr/gtr.h"

static const unsigned versions[] = {11, 19, 21, 22, 23, 25, 26};
#define NVERSIONS (sizeof versions / sizeof versions[0])

/* put writes one entry name="bytes", escaping everything but printable ASCII (and the
 * brackets and semicolon, so that CMake can read the file as a list in the build's check). */
static void put(const char *name, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    printf("%s=\"", name);
    for (size_t i = 0; i < n; i++) {
        if (p[i] >= 0x20 && p[i] < 0x7f && strchr("\"\\[];", p[i]) == NULL)
            putchar(p[i]);
        else
            printf("\\x%02x", p[i]);
    }
    printf("\"\n");
}

static void put_str(const char *name, const char *s)
{
    put(name, s, strlen(s));
}

static size_t uvarint(uint64_t v, unsigned char *out)
{
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (unsigned char)v;
    return n;
}

/* put_varint writes the LEB128 encoding of v as entry "<tag>_<v>". */
static void put_varint(const char *tag, uint64_t v)
{
    unsigned char b[10];
    char name[64];
    snprintf(name, sizeof name, "%s_%llu", tag, (unsigned long long)v);
    put(name, b, uvarint(v, b));
}

/* put_near writes v-1, v and v+1 (where they exist). */
static void put_near(const char *tag, uint64_t v)
{
    if (v > 0)
        put_varint(tag, v - 1);
    put_varint(tag, v);
    if (v < UINT64_MAX)
        put_varint(tag, v + 1);
}

static void gen_wire(void)
{
    char hdr[GTR_HEADER_MAX], name[64];
    printf("# Wire format: headers.\n");
    for (size_t i = 0; i < NVERSIONS; i++) {
        size_t n = gtr_header_format(versions[i], hdr);
        snprintf(name, sizeof name, "header_go1_%u", versions[i]);
        put(name, hdr, n);
    }
    printf("# Event-type bytes (tracev2).\n");
    for (unsigned t = 1; t < GTR_EV_MAX_EXPERIMENTAL; t++) {
        const gtr_event_spec *s = gtr_spec((uint8_t)t);
        if (s->name == NULL)
            continue;
        unsigned char b = (unsigned char)t;
        snprintf(name, sizeof name, "ev_%s", s->name);
        put(name, &b, 1);
    }
    printf("# Batch headers: EventBatch/ExperimentalBatch, gen 1, m 0, time 0.\n");
    {
        const unsigned char eb[] = {GTR_EV_EVENT_BATCH, 1, 0, 0};
        const unsigned char xb[] = {GTR_EV_EXPERIMENTAL_BATCH, GTR_EXP_ALLOC_FREE, 1, 0, 0};
        const unsigned char eog[] = {GTR_EV_END_OF_GENERATION};
        put("batch_gen1_m0", eb, sizeof eb);
        put("batch_experimental_allocfree_gen1_m0", xb, sizeof xb);
        put("end_of_generation", eog, sizeof eog);
    }
    printf("# LEB128 encodings of constants the parser compares decoded values with.\n");
    put_near("max_batch_size", GTR_MAX_BATCH_SIZE);
    put_near("max_frames_per_stack", GTR_MAX_FRAMES_PER_STACK);
    put_near("max_event_trailer_data_size", GTR_MAX_EVENT_TRAILER_DATA_SIZE);
    put_near("max_int64", (uint64_t)INT64_MAX);
    put_varint("all_ones", UINT64_MAX);              /* NoThread/NoGoroutine/NoProc as uint64 */
    put_varint("all_ones", UINT64_MAX - 1);
    for (unsigned k = 1; k <= 9; k++)                /* varint width boundaries */
        put_near("width", (uint64_t)1 << (7 * k));
    put_near("pow2_32", (uint64_t)1 << 32);
    for (uint64_t v = 0; v <= 6; v++)                /* gen, wire statuses, experiments */
        put_varint("small", v);
    for (unsigned t = GTR_EV_NUM; t <= GTR_EV_MAX_EXPERIMENTAL; t++)
        put_varint("event_type", t);                 /* event types compared as values */
}

static void gen_text(void)
{
    char hdr[64], name[128];
    printf("# Text format: headers.\n");
    for (size_t i = 0; i < NVERSIONS; i++) {
        snprintf(hdr, sizeof hdr, "Trace Go1.%u\n", versions[i]);
        snprintf(name, sizeof name, "text_header_go1_%u", versions[i]);
        put_str(name, hdr);
    }
    printf("# Event names and argument tokens (newest version's table).\n");
    size_t nspecs = gtr_go_version_nspecs(GTR_GO_CURRENT);
    for (unsigned t = 1; t < GTR_EV_MAX_EXPERIMENTAL; t++) {
        const gtr_event_spec *s = gtr_spec((uint8_t)t);
        if (s->name == NULL || (t >= nspecs && !gtr_event_type_experimental((uint8_t)t)))
            continue;
        snprintf(name, sizeof name, "name_%s", s->name);
        put_str(name, s->name);
        for (unsigned a = 0; a < s->nargs; a++) {
            char tok[64];
            snprintf(tok, sizeof tok, " %s=", s->args[a]);
            snprintf(name, sizeof name, "arg_%s_%s", s->name, s->args[a]);
            put_str(name, tok);
        }
    }
    put_str("frame", "\n\tpc=1 func=1 file=1 line=1");
    put_str("frame_pc", "pc=");
    put_str("frame_func", " func=");
    put_str("frame_file", " file=");
    put_str("frame_line", " line=");
    put_str("data", "\n\tdata=\"");
    put_str("comment", "# ");
    put_str("esc_x", "\\x");
    put_str("esc_u", "\\u");
    put_str("esc_U", "\\U0010ffff");
    put_str("esc_oct", "\\377");
    put_str("max_uint64", "18446744073709551615");
    put_str("over_uint64", "18446744073709551616");
    put_str("max_batch_size", "65536");
    put_str("max_frames", "128");
    put_str("max_data", "1024");
}

static void gen_txtar(void)
{
    gen_text();
    printf("# txtar framing and expectations.\n");
    put_str("section_expect", "-- expect --\n");
    put_str("section_trace", "-- trace --\n");
    put_str("success", "SUCCESS\n");
    put_str("failure", "FAILURE \"");
    put_str("failure_any", "FAILURE \".*\"\n");
    put_str("re_any", ".*");
    put_str("re_class", "[a-z]");
    put_str("re_group", "(?:");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    printf("# Generated by fuzz/tools/gen_dict.c (%s); do not edit.\n", mode);
    if (strcmp(mode, "wire") == 0)
        gen_wire();
    else if (strcmp(mode, "text") == 0)
        gen_text();
    else if (strcmp(mode, "txtar") == 0)
        gen_txtar();
    else {
        fprintf(stderr, "usage: gen_dict wire|text|txtar > FILE.dict\n");
        return 2;
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
