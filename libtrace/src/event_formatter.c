/* SPDX-License-Identifier: BSD-3-Clause */
/* event_formatter.c: gtr_event_formatter, String() for a stream of events, keeping the text
 * of the stacks it printed. A stack's text depends only on its table (the PCs, frames and
 * strings), which does not change while a generation's events are read: the text is kept
 * per stack ID for as long as the table's serial (gtr__evt_serial) stays the same, and all
 * of it is dropped when an event of another table (or of the same table, changed) comes. */
#include <string.h>

#include "base.h"
#include "event_format.h"
#include "idmap.h"
#include "mem.h"

/* Bounds on what is kept: the whole text, one stack's text, and the number of stacks (their
 * index: 16 bytes each here and at most 64 in the ID map, 20 MiB at most). A stack past them
 * is printed every time, as gtr_event_format does. */
#define KEPT_TEXT_MAX ((size_t)16 << 20)
#define KEPT_STACK_MAX ((size_t)64 << 10)
#define KEPT_STACKS_MAX ((size_t)1 << 18)

typedef struct kept_stack {
    size_t off;   /* in text */
    size_t len;
} kept_stack;

struct gtr_event_formatter {
    gtr_alloc alc;
    uint64_t serial;      /* the table state the kept text is of; 0: nothing kept */
    gtr__idmap ids;       /* stack ID -> index in stacks */
    kept_stack *stacks;
    size_t nstacks, stacks_cap;
    char *text;           /* the kept texts, back to back */
    size_t ntext, text_cap;
    gtr__stack_printer printer;
};

static void forget(gtr_event_formatter *f, uint64_t serial)
{
    gtr__idmap_clear(&f->ids);
    f->nstacks = 0;
    f->ntext = 0;
    f->serial = serial;
}

/* keep records text[0..n) as stack id's; when it cannot (a bound, or no memory) the stack
 * is simply printed again next time. */
static void keep(gtr_event_formatter *f, uint64_t id, const char *text, size_t n)
{
    if (n > KEPT_STACK_MAX || n > KEPT_TEXT_MAX - f->ntext || f->nstacks >= KEPT_STACKS_MAX)
        return;
    if (!GTR__GROW(&f->alc, f->text, f->text_cap, f->ntext + n) ||
        !GTR__GROW(&f->alc, f->stacks, f->stacks_cap, f->nstacks + 1))
        return;
    size_t idx;
    bool found;
    if (gtr__idmap_put_index(&f->ids, &f->alc, id, f->nstacks, &idx, &found) != GTR_OK || found)
        return;
    if (n > 0)   /* a stack without frames prints nothing: f->text may still be NULL */
        memcpy(f->text + f->ntext, text, n);
    f->stacks[f->nstacks].off = f->ntext;
    f->stacks[f->nstacks].len = n;
    f->nstacks++;
    f->ntext += n;
}

static gtr_status print_kept(void *ctx, gtr_buf *out, gtr_stack s, gtr_err *err)
{
    gtr_event_formatter *f = ctx;
    const gtr__ev_table *t = s.table_;
    if (t == NULL || s.id_ == 0)
        return gtr__print_stack(out, "\t", s, err);
    uint64_t serial = gtr__evt_serial(t);
    if (serial != f->serial)
        forget(f, serial);
    size_t idx;
    if (gtr__idmap_get_index(&f->ids, s.id_, &idx)) {
        const kept_stack *k = &f->stacks[idx];
        return k->len > 0 ? gtr_buf_append(out, f->text + k->off, k->len) : gtr_buf_status(out);
    }
    size_t before = out->len;
    gtr_status st = gtr__print_stack(out, "\t", s, err);
    if (st == GTR_OK)
        keep(f, s.id_, out->len > before ? out->data + before : "", out->len - before);
    return st;
}

gtr_status gtr_event_formatter_new(const gtr_alloc *alc, gtr_event_formatter **out,
                                   gtr_err *err)
{
    if (out == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_event_formatter_new: NULL out");
    *out = NULL;
    const gtr_alloc *a = gtr__alloc_or_libc(alc);
    gtr_event_formatter *f = gtr__calloc(a, 1, sizeof *f);
    if (f == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    f->alc = *a;
    f->printer.print = print_kept;
    f->printer.ctx = f;
    *out = f;
    return GTR_OK;
}

void gtr_event_formatter_free(gtr_event_formatter *f)
{
    if (f == NULL)
        return;
    gtr__idmap_free(&f->ids, &f->alc);
    gtr__free(&f->alc, f->stacks);
    gtr__free(&f->alc, f->text);
    gtr__free(&f->alc, f);
}

gtr_status gtr_event_formatter_format(gtr_event_formatter *f, const gtr_event *ev, gtr_buf *out,
                                      gtr_err *err)
{
    if (f == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_event_formatter_format: NULL formatter");
    return gtr__event_format(ev, out, &f->printer, err);
}
