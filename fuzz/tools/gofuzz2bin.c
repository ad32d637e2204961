/* SPDX-License-Identifier: BSD-3-Clause */
/* gofuzz2bin.c: converts a Go fuzz corpus file (`go test fuzz v1` then one `[]byte("...")`
 * line) to the raw bytes it holds, decoding the Go string literal with gtr_go_unquote.
 * Used once to turn src/internal/trace/testdata/fuzz/FuzzReader/ into fuzz/regressions/.
 *
 *   gofuzz2bin IN OUT
 *
 * Exit 0 on success; 1 with "gofuzz2bin: IN: <reason>" for a file it cannot convert. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtr/gtr.h"

static int fail(const char *path, const char *why)
{
    fprintf(stderr, "gofuzz2bin: %s: %s\n", path, why);
    return 1;
}

/* trim_line strips trailing CR/LF/spaces of s[0..*n). */
static void trim_line(const char *s, size_t *n)
{
    while (*n > 0 && (s[*n - 1] == '\n' || s[*n - 1] == '\r' || s[*n - 1] == ' '))
        (*n)--;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gofuzz2bin IN OUT\n");
        return 2;
    }
    gtr_input *in = NULL;
    gtr_err err = GTR_ERR_INIT;
    char *text = NULL;
    size_t len = 0;
    if (gtr_input_open_path(argv[1], NULL, &in, &err) != GTR_OK)
        return fail(argv[1], gtr_err_text(&err, NULL));
    gtr_status st = gtr_input_read_all(in, &text, &len, &err);
    gtr_input_free(in);
    if (st != GTR_OK) {
        free(text);
        return fail(argv[1], gtr_err_text(&err, NULL));
    }
    static const char magic[] = "go test fuzz v1\n";
    static const char open[] = "[]byte(";
    if (len < sizeof magic - 1 || memcmp(text, magic, sizeof magic - 1) != 0) {
        free(text);
        return fail(argv[1], "not a `go test fuzz v1` file");
    }
    const char *line = text + sizeof magic - 1;
    size_t n = len - (size_t)(line - text);
    const char *nl = memchr(line, '\n', n);
    if (nl != NULL && (size_t)(text + len - nl) > 1) {
        free(text);
        return fail(argv[1], "more than one value (the converter handles one []byte)");
    }
    trim_line(line, &n);
    if (n < sizeof open || memcmp(line, open, sizeof open - 1) != 0 || line[n - 1] != ')') {
        free(text);
        return fail(argv[1], "the value is not a []byte(...) literal");
    }
    gtr_buf out = {0};
    st = gtr_go_unquote(&out, line + sizeof open - 1, n - sizeof open, &err);
    free(text);
    if (st != GTR_OK) {
        gtr_buf_free(&out);
        return fail(argv[1], gtr_err_text(&err, NULL));
    }
    FILE *f = fopen(argv[2], "wb");
    int bad = f == NULL;
    if (f != NULL) {
        bad = fwrite(out.data, 1, out.len, f) != out.len;
        bad |= fclose(f) != 0;
    }
    gtr_buf_free(&out);
    return bad ? fail(argv[2], "write failed") : 0;
}
