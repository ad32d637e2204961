/* SPDX-License-Identifier: BSD-3-Clause */
/* godiff_compare.c: the differential verdict of one input (godiff.h), after
 * ci/difffuzz/judge.sh. */
#include "godiff.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool godiff_same_reading(const godiff_reading *a, const godiff_reading *b)
{
    return a->end == b->end && a->dump_len == b->dump_len && a->msg_len == b->msg_len &&
           (a->dump_len == 0 || memcmp(a->dump, b->dump, a->dump_len) == 0) &&
           (a->msg_len == 0 || memcmp(a->msg, b->msg, a->msg_len) == 0);
}

godiff_verdict godiff_compare(const godiff_reading *ours, const godiff_reading *go)
{
    if (go->end == GODIFF_END_PANIC)
        return GODIFF_GO_PANIC;
    if (godiff_same_reading(ours, go))
        return GODIFF_SAME;
    /* judge.sh's "shape": the same dump, both failed; only then may the messages differ by
     * Go's map order. */
    if (ours->end == go->end && ours->end != GODIFF_END_EOF && ours->dump_len == go->dump_len &&
        (go->dump_len == 0 || memcmp(ours->dump, go->dump, go->dump_len) == 0) &&
        godiff_same_lines_up_to_numbers(ours->msg, ours->msg_len, go->msg, go->msg_len))
        return GODIFF_MAP_ORDER;
    return GODIFF_DIVERGES;
}

bool godiff_rerun_explains(const godiff_reading *ours, const godiff_reading *first,
                          const godiff_reading *again)
{
    if (godiff_same_reading(again, first))
        return false;   /* Go said the same again */
    godiff_verdict v = godiff_compare(ours, again);
    return v == GODIFF_SAME || v == GODIFF_MAP_ORDER;
}

/* count_lines: the lines of s[0..len) (a final newline ends the last one). */
static size_t count_lines(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += s[i] == '\n';
    return n + (len > 0 && s[len - 1] != '\n');
}

bool godiff_mix_init(godiff_mix *m, const godiff_reading *ours)
{
    memset(m, 0, sizeof *m);
    m->nlines = count_lines(ours->dump, ours->dump_len);
    m->seen = calloc(m->nlines > 0 ? m->nlines : 1, sizeof *m->seen);
    m->unseen = m->nlines;
    return m->seen != NULL;
}

void godiff_mix_add(godiff_mix *m, const godiff_reading *ours, const godiff_reading *first,
                   const godiff_reading *run)
{
    if (run->end != ours->end || count_lines(run->dump, run->dump_len) != m->nlines)
        return;
    if (!godiff_same_reading(run, first))
        m->varied = true;
    if (!m->msg_seen)
        m->msg_seen = godiff_same_lines_up_to_numbers(ours->msg, ours->msg_len, run->msg,
                                                     run->msg_len);
    size_t a = 0, b = 0;   /* the starts of line i in ours and in the run */
    for (size_t i = 0; i < m->nlines; i++) {
        const char *ea = memchr(ours->dump + a, '\n', ours->dump_len - a);
        const char *eb = memchr(run->dump + b, '\n', run->dump_len - b);
        size_t la = ea != NULL ? (size_t)(ea - (ours->dump + a)) : ours->dump_len - a;
        size_t lb = eb != NULL ? (size_t)(eb - (run->dump + b)) : run->dump_len - b;
        if (!m->seen[i] && la == lb && memcmp(ours->dump + a, run->dump + b, la) == 0) {
            m->seen[i] = true;
            m->unseen--;
        }
        a += la + 1;
        b += lb + 1;
    }
}

bool godiff_mix_explains(const godiff_mix *m)
{
    return m->unseen == 0 && m->msg_seen && m->varied;
}

void godiff_mix_free(godiff_mix *m)
{
    free(m->seen);
    m->seen = NULL;
}

/* A line of a normalised text. */
typedef struct line {
    const char *p;
    size_t len;
} line;

/* LC_ALL=C sort's order: bytes as unsigned, a prefix first. */
static int line_cmp(const void *a, const void *b)
{
    const line *x = a, *y = b;
    int c = memcmp(x->p, y->p, x->len < y->len ? x->len : y->len);
    if (c != 0)
        return c;
    return (x->len > y->len) - (x->len < y->len);
}

/* normalised_lines writes s[0..len) with each digit run made "N" into norm (len bytes at
 * the most) and its lines, sorted, into *out (*n of them). False when memory runs out. */
static bool normalised_lines(const char *s, size_t len, char **norm, line **out, size_t *n)
{
    size_t w = 0, count = 0;
    *norm = malloc(len > 0 ? len : 1);
    *out = NULL;
    if (*norm == NULL)
        return false;
    for (size_t i = 0; i < len;) {
        if (s[i] >= '0' && s[i] <= '9') {
            while (i < len && s[i] >= '0' && s[i] <= '9')
                i++;
            (*norm)[w++] = 'N';
        } else {
            if (s[i] == '\n')
                count++;
            (*norm)[w++] = s[i++];
        }
    }
    if (w > 0 && (*norm)[w - 1] != '\n')
        count++;   /* the last line has no newline */
    *out = malloc((count > 0 ? count : 1) * sizeof **out);
    if (*out == NULL)
        return false;
    size_t k = 0, start = 0;
    for (size_t i = 0; i < w; i++) {
        if ((*norm)[i] == '\n') {
            (*out)[k++] = (line){*norm + start, i - start};
            start = i + 1;
        }
    }
    if (start < w)
        (*out)[k++] = (line){*norm + start, w - start};
    qsort(*out, k, sizeof **out, line_cmp);
    *n = k;
    return true;
}

bool godiff_same_lines_up_to_numbers(const char *a, size_t alen, const char *b, size_t blen)
{
    char *na = NULL, *nb = NULL;
    line *la = NULL, *lb = NULL;
    size_t ca = 0, cb = 0;
    bool same = normalised_lines(a, alen, &na, &la, &ca) &&
                normalised_lines(b, blen, &nb, &lb, &cb) && ca == cb;
    for (size_t i = 0; same && i < ca; i++)
        same = line_cmp(&la[i], &lb[i]) == 0;
    free(na);
    free(nb);
    free(la);
    free(lb);
    return same;
}

size_t godiff_first_difference(const char *a, size_t alen, const char *b, size_t blen,
                              size_t *at)
{
    size_t i = 0, lineno = 0, start = 0;
    while (i < alen && i < blen && a[i] == b[i]) {
        if (a[i] == '\n') {
            lineno++;
            start = i + 1;
        }
        i++;
    }
    *at = start;
    if (i == alen && i == blen)
        return SIZE_MAX;
    return lineno;
}

const char *godiff_end_name(godiff_end end)
{
    switch (end) {
    case GODIFF_END_EOF:
        return "EOF, every event valid";
    case GODIFF_END_HEADER:
        return "header error";
    case GODIFF_END_READ:
        return "reader error";
    case GODIFF_END_VALIDATOR:
        return "validator error";
    case GODIFF_END_PANIC:
        return "panic (String() refused)";
    }
    return "?";
}

enum { CONTEXT_LINES = 3, LINE_SHOWN = 600 };

/* print_line prints the line of s[0..len) that starts at `at`, cut at LINE_SHOWN bytes. */
static void print_line(FILE *f, const char *who, const char *s, size_t len, size_t at)
{
    if (at >= len) {
        fprintf(f, "  %s (the dump ends here)\n", who);
        return;
    }
    const char *nl = memchr(s + at, '\n', len - at);
    size_t n = nl != NULL ? (size_t)(nl - (s + at)) : len - at;
    fprintf(f, "  %s %.*s%s\n", who, (int)(n < LINE_SHOWN ? n : LINE_SHOWN), s + at,
            n > LINE_SHOWN ? " [...]" : "");
}

static void print_message(FILE *f, const char *who, const godiff_reading *r)
{
    fprintf(f, "%s ended: %s\n", who, godiff_end_name(r->end));
    if (r->end != GODIFF_END_EOF)
        fprintf(f, "%s message: %.*s\n", who, (int)(r->msg_len < 4096 ? r->msg_len : 4096),
                r->msg);
}

void godiff_report(FILE *f, const godiff_reading *ours, const godiff_reading *go)
{
    size_t at;
    size_t n = godiff_first_difference(ours->dump, ours->dump_len, go->dump, go->dump_len, &at);
    fprintf(f, "==== fuzz_diff: gotrace and Go 1.27.3 disagree\n");
    if (n == SIZE_MAX) {
        fprintf(f, "event dumps: the same (%zu bytes)\n", ours->dump_len);
    } else {
        fprintf(f, "event dumps: the first difference is on line %zu (byte %zu):\n", n + 1, at);
        /* Up to CONTEXT_LINES lines before it, which both dumps share. */
        size_t from = at, shown = 0;
        while (from > 0 && shown < CONTEXT_LINES) {
            from--;
            while (from > 0 && ours->dump[from - 1] != '\n')
                from--;
            shown++;
        }
        for (size_t p = from; p < at;) {
            print_line(f, "         ", ours->dump, ours->dump_len, p);
            const char *nl = memchr(ours->dump + p, '\n', at - p);
            p = nl != NULL ? (size_t)(nl - ours->dump) + 1 : at;
        }
        print_line(f, "gotrace:", ours->dump, ours->dump_len, at);
        print_line(f, "go:     ", go->dump, go->dump_len, at);
    }
    print_message(f, "gotrace", ours);
    print_message(f, "go     ", go);
}
