/* Port of src/internal/trace/base.go at go1.27.3. */
/* SPDX-License-Identifier: BSD-3-Clause */
/* base.c: the per-generation event table (Go's evTable and dataTable), its arena, and the
 * frequency conversion.
 *
 * Go's dataTable keeps a map while IDs are inserted and compactifies it into a dense array
 * when the IDs are small and dense. Here every table keeps its entries in insertion order
 * (IDs in one array, values in a parallel one) plus an index: a hash map while building,
 * and after gtr__evt_compactify a dense id -> entry array when Go's rules would pick the
 * dense form (the rules only decide the representation; lookups are exact either way).
 *
 * All data (strings, stack PCs, copied experimental batches and the reader's batch data)
 * lives in an arena of chunks that gtr__evt_reset rewinds without freeing, so one table
 * reused generation after generation needs the memory of its largest generation only. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base.h"
#include "idmap.h"
#include "mem.h"

/* ---- Arena. ---- */

typedef struct chunk {
    struct chunk *next;
    size_t cap;
    size_t used;
    /* data follows, 16-byte aligned */
} chunk;

#define CHUNK_HDR ((sizeof(chunk) + 15u) & ~(size_t)15u)
#define CHUNK_MIN ((size_t)4096) /* small traces stay small; chunks double from here */
#define CHUNK_MAX ((size_t)1 << 20)

static unsigned char *chunk_data(chunk *c)
{
    return (unsigned char *)c + CHUNK_HDR;
}

/* ---- Data tables. ---- */

typedef struct dtable {
    uint64_t *ids;       /* entry i's ID, in insertion order */
    size_t len, cap;
    gtr__idmap map;      /* id -> entry, for entries not in dense */
    uint32_t *dense;     /* id -> entry + 1 (0: absent), after a dense compactify */
    size_t ndense, dense_cap;
    size_t ncompact;     /* entries [0, ncompact) are indexed by dense */
} dtable;

typedef struct stack_val {
    const uint64_t *pcs;
    size_t n;
} stack_val;

typedef struct exp_list {
    gtr__exp_batch *v;
    size_t len, cap;
} exp_list;

struct gtr__ev_table {
    const gtr_alloc *alc;
    gtr__sync sync;

    dtable strings;
    gtr_str *str_vals;
    size_t str_cap;

    dtable stacks;
    stack_val *stk_vals;
    size_t stk_cap;

    gtr__frame *frames;
    size_t nframes, frames_cap;
    gtr__idmap pcs;      /* pc -> index into frames */

    gtr_str *extra;      /* extra string i+1 */
    size_t nextra, extra_cap;
    uint32_t *xslots;    /* open addressing over extra: index + 1, 0 empty */
    size_t xcap;
    uint32_t *xof;       /* gtr__evt_extra_of_string: string i's extra ID, 0 not known yet */
    size_t nxof, xof_cap; /* entries [0, nxof) are valid (zeroed when the string came) */

    exp_list *exp;       /* per experiment byte (256), allocated with the first batch */

    chunk *chunks;       /* all chunks, in allocation order */
    chunk *cur;          /* the chunk being filled */

    uint64_t serial;     /* gtr__evt_serial: new with every change to what it names */
};

/* Serials are unique in the process, so that no two states of any tables share one (a
 * table reset or freed and another made at the same address included). */
static _Atomic uint64_t last_serial;

static void touch(gtr__ev_table *t)
{
    t->serial = atomic_fetch_add_explicit(&last_serial, 1, memory_order_relaxed) + 1;
}

uint64_t gtr__evt_serial(const gtr__ev_table *t)
{
    return t->serial;
}

/* ---- Table lifetime. ---- */

gtr_status gtr__evt_new(const gtr_alloc *alc, gtr__ev_table **out, gtr_err *err)
{
    alc = gtr__alloc_or_libc(alc);
    gtr__ev_table *t = gtr__calloc(alc, 1, sizeof *t);
    if (t == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    t->alc = alc;
    touch(t);
    *out = t;
    return GTR_OK;
}

static void dtable_free(const gtr_alloc *alc, dtable *d)
{
    gtr__free(alc, d->ids);
    gtr__free(alc, d->dense);
    gtr__idmap_free(&d->map, alc);
}

static void dtable_reset(dtable *d)
{
    d->len = 0;
    d->ncompact = 0;
    if (d->ndense != 0)
        memset(d->dense, 0, d->ndense * sizeof *d->dense);
    d->ndense = 0;
    gtr__idmap_clear(&d->map);
}

void gtr__evt_free(gtr__ev_table *t)
{
    if (t == NULL)
        return;
    const gtr_alloc *alc = t->alc;
    dtable_free(alc, &t->strings);
    dtable_free(alc, &t->stacks);
    gtr__free(alc, t->str_vals);
    gtr__free(alc, t->stk_vals);
    gtr__free(alc, t->frames);
    gtr__idmap_free(&t->pcs, alc);
    gtr__free(alc, t->extra);
    gtr__free(alc, t->xslots);
    gtr__free(alc, t->xof);
    if (t->exp != NULL) {
        for (size_t i = 0; i < 256; i++)
            gtr__free(alc, t->exp[i].v);
        gtr__free(alc, t->exp);
    }
    for (chunk *c = t->chunks; c != NULL;) {
        chunk *next = c->next;
        gtr__free(alc, c);
        c = next;
    }
    gtr__free(alc, t);
}

void gtr__evt_reset(gtr__ev_table *t)
{
    memset(&t->sync, 0, sizeof t->sync);
    dtable_reset(&t->strings);
    dtable_reset(&t->stacks);
    t->nframes = 0;
    gtr__idmap_clear(&t->pcs);
    if (t->nextra != 0)
        memset(t->xslots, 0, t->xcap * sizeof *t->xslots);
    t->nextra = 0;
    t->nxof = 0;
    if (t->exp != NULL)
        for (size_t i = 0; i < 256; i++)
            t->exp[i].len = 0;
    for (chunk *c = t->chunks; c != NULL; c = c->next)
        c->used = 0;
    t->cur = t->chunks;
    touch(t);
}

void *gtr__evt_alloc(gtr__ev_table *t, size_t n)
{
    if (n > GTR__EVT_ALLOC_MAX)
        return NULL;
    n = (n + 7u) & ~(size_t)7u;
    chunk *c = t->cur;
    while (c != NULL && c->cap - c->used < n) {
        c = c->next;   /* a rewound chunk further on (reset left used at 0) */
        if (c != NULL)
            t->cur = c;
    }
    if (c == NULL) {
        /* Chunks double from CHUNK_MIN up to CHUNK_MAX, and always fit the request. */
        size_t cap = CHUNK_MIN;
        chunk *last = t->chunks;
        while (last != NULL && last->next != NULL)
            last = last->next;
        if (last != NULL)
            cap = last->cap >= CHUNK_MAX ? CHUNK_MAX : last->cap * 2;
        if (cap < n)
            cap = n;   /* n <= GTR__EVT_ALLOC_MAX < CHUNK_MAX */
        c = gtr__malloc(t->alc, CHUNK_HDR + cap);
        if (c == NULL)
            return NULL;
        c->next = NULL;
        c->cap = cap;
        c->used = 0;
        if (last == NULL)
            t->chunks = c;
        else
            last->next = c;
        t->cur = c;
    }
    void *p = chunk_data(c) + c->used;
    c->used += n;
    return p;
}

/* ---- Data table operations. ---- */

/* dtable_find returns the entry index of id, or -1. id 0 is handled by the callers. */
static long dtable_find(const dtable *d, uint64_t id)
{
    if (id < d->ndense && d->dense[id] != 0)
        return (long)d->dense[id] - 1;
    size_t v;
    if (gtr__idmap_get_index(&d->map, id, &v))
        return (long)v;
    return -1;
}

/* dtable_add appends id as a new entry (the caller has checked it is absent). */
static gtr_status dtable_add(const gtr_alloc *alc, dtable *d, uint64_t id, size_t *idx)
{
    if (d->len >= UINT32_MAX - 1 || !GTR__GROW(alc, d->ids, d->cap, d->len + 1))
        return GTR_E_NOMEM;
    size_t v;
    bool found;
    if (gtr__idmap_put_index(&d->map, alc, id, d->len, &v, &found) != GTR_OK)
        return GTR_E_NOMEM;
    d->ids[d->len] = id;
    *idx = d->len++;
    return GTR_OK;
}

/* dtable_compactify is Go's compactify: the dense form when the IDs are small and dense. */
static gtr_status dtable_compactify(const gtr_alloc *alc, dtable *d)
{
    if (d->len == 0 || d->ncompact != 0)
        return GTR_OK;
    uint64_t max_id = 0, min_id = UINT64_MAX;
    for (size_t i = 0; i < d->len; i++) {
        if (d->ids[i] > max_id)
            max_id = d->ids[i];
        if (d->ids[i] < min_id)
            min_id = d->ids[i];
    }
    uint64_t n = d->len;
    if (max_id >= (uint64_t)INT64_MAX)
        return GTR_OK;   /* Go: can't create a slice big enough */
    /* Go: "We're willing to waste at most 2x memory." */
    if (max_id - min_id > 2 * n)
        return GTR_OK;
    if (min_id > n)
        return GTR_OK;
    size_t size = (size_t)max_id + 1;
    if (!GTR__GROW(alc, d->dense, d->dense_cap, size))
        return GTR_E_NOMEM;
    memset(d->dense, 0, size * sizeof *d->dense);
    for (size_t i = 0; i < d->len; i++)
        d->dense[d->ids[i]] = (uint32_t)i + 1;
    d->ndense = size;
    d->ncompact = d->len;
    gtr__idmap_clear(&d->map);
    return GTR_OK;
}

/* ---- Lookups. ---- */

bool gtr__evt_string(const gtr__ev_table *t, uint64_t id, gtr_str *out)
{
    if (id == 0) {
        out->data = "";
        out->len = 0;
        return true;
    }
    long i = dtable_find(&t->strings, id);
    if (i < 0)
        return false;
    *out = t->str_vals[i];
    return true;
}

bool gtr__evt_stack(const gtr__ev_table *t, uint64_t id, const uint64_t **pcs, size_t *npcs)
{
    if (id == 0) {
        *pcs = NULL;
        *npcs = 0;
        return true;
    }
    long i = dtable_find(&t->stacks, id);
    if (i < 0)
        return false;
    *pcs = t->stk_vals[i].pcs;
    *npcs = t->stk_vals[i].n;
    return true;
}

/* dtable_has: dtable_find(d, id) >= 0 (an ID added after the dense form was made is in the
 * map, whatever its value). */
static inline bool dtable_has(const dtable *d, uint64_t id)
{
    if (id < d->ndense && d->dense[id] != 0)
        return true;
    size_t v;
    return gtr__idmap_get_index(&d->map, id, &v);
}

bool gtr__evt_has_stack(const gtr__ev_table *t, uint64_t id)
{
    return id == 0 || dtable_has(&t->stacks, id);
}

bool gtr__evt_has_string(const gtr__ev_table *t, uint64_t id)
{
    return id == 0 || dtable_has(&t->strings, id);
}

gtr__evt_id_index gtr__evt_id_index_of(const gtr__ev_table *t)
{
    gtr__evt_id_index x = {t->stacks.dense, t->strings.dense, t->stacks.ndense,
                           t->strings.ndense, t->str_vals};
    return x;
}

gtr_status gtr__event_validate_table_ids(const gtr_event *ev, gtr_err *err)
{
    bool stack;
    uint64_t id;
    if (ev->type_ == GTR_EV_SYNC_EVENT || !gtr__table_ids_bad(ev->table_, ev->type_, ev->args_,
                                                             &stack, &id))
        return GTR_OK;
    /* Go: "found invalid stack ID %d for event %s", "found invalid string ID %d for event %s" */
    return gtr_err_setf(err, GTR_E_FORMAT, "found invalid %s ID %llu for event %s",
                        stack ? "stack" : "string", (unsigned long long)id,
                        gtr_spec(ev->type_)->name);
}

bool gtr__evt_frame(const gtr__ev_table *t, uint64_t pc, gtr__frame *out)
{
    size_t i;
    if (!gtr__idmap_get_index(&t->pcs, pc, &i))
        return false;
    *out = t->frames[i];
    return true;
}

size_t gtr__evt_nstrings(const gtr__ev_table *t)
{
    return t->strings.len;
}

size_t gtr__evt_nstacks(const gtr__ev_table *t)
{
    return t->stacks.len;
}

const gtr__sync *gtr__evt_sync(const gtr__ev_table *t)
{
    return &t->sync;
}

gtr__sync *gtr__evt_sync_mut(gtr__ev_table *t)
{
    return &t->sync;
}

void gtr__evt_set_sync(gtr__ev_table *t, const gtr__sync *s)
{
    t->sync = *s;
}

size_t gtr__evt_exp_batches(const gtr__ev_table *t, unsigned exp, const gtr__exp_batch **out)
{
    if (exp >= 256 || t->exp == NULL) {
        *out = NULL;
        return 0;
    }
    *out = t->exp[exp].v;
    return t->exp[exp].len;
}

/* ---- Inserting. ---- */

gtr_status gtr__evt_add_string(gtr__ev_table *t, uint64_t id, const char *s, size_t len,
                               gtr_err *err)
{
    gtr_str existing;
    if (gtr__evt_string(t, id, &existing)) {
        /* Go: "multiple %Ts with the same ID: id=%d, new=%v, existing=%v" (%T is "string");
         * both strings are echoed whole, NUL bytes included. */
        gtr_err_setf(err, GTR_E_FORMAT, "multiple strings with the same ID: id=%llu, new=",
                     (unsigned long long)id);
        gtr_err_appendn(err, s, len);
        gtr_err_appendn(err, ", existing=", 11);
        return gtr_err_appendn(err, existing.data, existing.len);
    }
    if (len > GTR__EVT_ALLOC_MAX - 1)
        return gtr_err_setf(err, GTR_E_LIMIT, "string of %zu bytes is too long", len);
    char *copy = gtr__evt_alloc(t, len + 1);
    if (copy == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    if (len != 0)
        memcpy(copy, s, len);
    copy[len] = '\0';
    size_t idx;
    if (dtable_add(t->alc, &t->strings, id, &idx) != GTR_OK ||
        !GTR__GROW(t->alc, t->str_vals, t->str_cap, idx + 1))
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    t->str_vals[idx].data = copy;
    t->str_vals[idx].len = len;
    touch(t);
    return GTR_OK;
}

/* append_stack_string appends Go's stack.String(): "\t%#v\n" for each PC. */
static void append_stack_string(gtr_buf *b, const uint64_t *pcs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        gtr_buf_printf(b, "\t0x%llx\n", (unsigned long long)pcs[i]);
}

gtr_status gtr__evt_add_string_borrowed(gtr__ev_table *t, uint64_t id, const char *s,
                                        size_t len, gtr_err *err)
{
    gtr_str existing;
    if (gtr__evt_string(t, id, &existing))
        return gtr_err_setf(err, GTR_E_FORMAT,
                            "multiple strings with the same ID: id=%llu, new=%.*s, existing=%.*s",
                            (unsigned long long)id, (int)len, s, (int)existing.len,
                            existing.data);
    size_t idx;
    if (dtable_add(t->alc, &t->strings, id, &idx) != GTR_OK ||
        !GTR__GROW(t->alc, t->str_vals, t->str_cap, idx + 1))
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    t->str_vals[idx].data = s;
    t->str_vals[idx].len = len;
    touch(t);
    return GTR_OK;
}

gtr_status gtr__evt_add_stack(gtr__ev_table *t, uint64_t id, const uint64_t *pcs, size_t n,
                              gtr_err *err)
{
    const uint64_t *epcs;
    size_t en;
    if (gtr__evt_stack(t, id, &epcs, &en)) {
        gtr_buf nb, eb;
        gtr_buf_init(&nb, t->alc);
        gtr_buf_init(&eb, t->alc);
        append_stack_string(&nb, pcs, n);
        append_stack_string(&eb, epcs, en);
        gtr_status st = GTR_E_FORMAT;
        if (gtr_buf_status(&nb) != GTR_OK || gtr_buf_status(&eb) != GTR_OK)
            st = gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        else
            /* Go: "multiple %Ts with the same ID: id=%d, new=%v, existing=%v" (%T is
             * "trace.stack") */
            st = gtr_err_setf(err, GTR_E_FORMAT,
                              "multiple trace.stacks with the same ID: id=%llu, new=%s, "
                              "existing=%s",
                              (unsigned long long)id, nb.data ? nb.data : "",
                              eb.data ? eb.data : "");
        gtr_buf_free(&nb);
        gtr_buf_free(&eb);
        return st;
    }
    if (n > GTR__EVT_ALLOC_MAX / sizeof *pcs)
        return gtr_err_setf(err, GTR_E_LIMIT, "stack of %zu frames is too long", n);
    uint64_t *copy = NULL;
    if (n != 0) {
        copy = gtr__evt_alloc(t, n * sizeof *pcs);
        if (copy == NULL)
            return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
        memcpy(copy, pcs, n * sizeof *pcs);
    }
    size_t idx;
    if (dtable_add(t->alc, &t->stacks, id, &idx) != GTR_OK ||
        !GTR__GROW(t->alc, t->stk_vals, t->stk_cap, idx + 1))
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    t->stk_vals[idx].pcs = copy;
    t->stk_vals[idx].n = n;
    touch(t);
    return GTR_OK;
}

gtr_status gtr__evt_add_frame(gtr__ev_table *t, const gtr__frame *f, gtr_err *err)
{
    if (t->nframes >= UINT32_MAX - 1 || !GTR__GROW(t->alc, t->frames, t->frames_cap,
                                                   t->nframes + 1))
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    size_t v;
    bool found;
    if (gtr__idmap_put_index(&t->pcs, t->alc, f->pc, t->nframes, &v, &found) != GTR_OK)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    if (!found) {
        t->frames[t->nframes++] = *f;
        touch(t);
    }
    return GTR_OK;
}

gtr_status gtr__evt_add_exp_batch(gtr__ev_table *t, unsigned exp, gtr_threadid thread,
                                  const uint8_t *data, size_t len, bool copy, gtr_err *err)
{
    if (exp == 0 || exp >= 256)
        return gtr_err_setf(err, GTR_E_USAGE,
                            /* Go: "internal error: addExperimentalBatch called on
                             * non-experimental batch" */
                            "internal error: addExperimentalBatch called on non-experimental "
                            "batch");
    if (copy && len != 0) {
        uint8_t *p = gtr__evt_alloc(t, len);
        if (p == NULL)
            return gtr_err_setf(err, len > GTR__EVT_ALLOC_MAX ? GTR_E_LIMIT : GTR_E_NOMEM,
                                "out of memory");
        memcpy(p, data, len);
        data = p;
    }
    if (t->exp == NULL && (t->exp = gtr__calloc(t->alc, 256, sizeof *t->exp)) == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    exp_list *l = &t->exp[exp];
    if (!GTR__GROW(t->alc, l->v, l->cap, l->len + 1))
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    l->v[l->len].thread = thread;
    l->v[l->len].data = data;
    l->v[l->len].len = len;
    l->len++;
    return GTR_OK;
}

/* ---- Extra strings. ---- */

static size_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return (size_t)h;
}

static bool xslots_grow(gtr__ev_table *t)
{
    size_t ncap = t->xcap ? t->xcap * 2 : 16;
    uint32_t *slots = gtr__calloc(t->alc, ncap, sizeof *slots);
    if (slots == NULL)
        return false;
    for (size_t i = 0; i < t->nextra; i++) {
        size_t j = hash_bytes(t->extra[i].data, t->extra[i].len) & (ncap - 1);
        while (slots[j] != 0)
            j = (j + 1) & (ncap - 1);
        slots[j] = (uint32_t)i + 1;
    }
    gtr__free(t->alc, t->xslots);
    t->xslots = slots;
    t->xcap = ncap;
    return true;
}

gtr_status gtr__evt_add_extra_string(gtr__ev_table *t, const char *s, size_t len,
                                     uint64_t *id, gtr_err *err)
{
    if (len == 0) {
        *id = 0;
        return GTR_OK;
    }
    if ((t->nextra + 1) * 2 > t->xcap && !xslots_grow(t))
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    size_t mask = t->xcap - 1;
    size_t j = hash_bytes(s, len) & mask;
    for (; t->xslots[j] != 0; j = (j + 1) & mask) {
        const gtr_str *e = &t->extra[t->xslots[j] - 1];
        if (e->len == len && memcmp(e->data, s, len) == 0) {
            *id = t->xslots[j];
            return GTR_OK;
        }
    }
    if (len > GTR__EVT_ALLOC_MAX - 1)
        return gtr_err_setf(err, GTR_E_LIMIT, "string of %zu bytes is too long", len);
    char *copy = gtr__evt_alloc(t, len + 1);
    if (copy == NULL || t->nextra >= UINT32_MAX - 1 ||
        !GTR__GROW(t->alc, t->extra, t->extra_cap, t->nextra + 1))
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    memcpy(copy, s, len);
    copy[len] = '\0';
    t->extra[t->nextra].data = copy;
    t->extra[t->nextra].len = len;
    t->nextra++;
    t->xslots[j] = (uint32_t)t->nextra;
    *id = t->nextra;
    return GTR_OK;
}

gtr_status gtr__evt_extra_of_string(gtr__ev_table *t, uint64_t string_id, uint64_t *id,
                                    gtr_err *err)
{
    long i = string_id == 0 ? -1 : dtable_find(&t->strings, string_id);
    if (i < 0) {
        *id = 0;   /* "" (the caller's ID is present: this is ID 0) */
        return GTR_OK;
    }
    size_t k = (size_t)i;
    if (k >= t->nxof) {
        size_t n = t->strings.len;
        if (!GTR__GROW(t->alc, t->xof, t->xof_cap, n)) /* no memo: the plain way */
            return gtr__evt_add_extra_string(t, t->str_vals[k].data, t->str_vals[k].len, id,
                                             err);
        memset(t->xof + t->nxof, 0, (n - t->nxof) * sizeof *t->xof);
        t->nxof = n;
    }
    if (t->xof[k] != 0) {
        *id = t->xof[k];
        return GTR_OK;
    }
    gtr_status st = gtr__evt_add_extra_string(t, t->str_vals[k].data, t->str_vals[k].len, id, err);
    if (st == GTR_OK)
        t->xof[k] = (uint32_t)*id;   /* extra IDs stay below UINT32_MAX */
    return st;
}

gtr_str gtr__evt_extra_string(const gtr__ev_table *t, uint64_t id)
{
    gtr_str s = {"", 0};
    if (id != 0 && id <= t->nextra)
        s = t->extra[id - 1];
    return s;
}

/* ---- Finishing a generation's tables. ---- */

gtr_status gtr__evt_compactify(gtr__ev_table *t, gtr_err *err)
{
    if (dtable_compactify(t->alc, &t->stacks) != GTR_OK ||
        dtable_compactify(t->alc, &t->strings) != GTR_OK)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    return GTR_OK;
}

static gtr_status validate_stack(const gtr__ev_table *t, uint64_t id, const stack_val *stk,
                                 gtr_err *err)
{
    for (size_t i = 0; i < stk->n; i++) {
        uint64_t pc = stk->pcs[i];
        gtr__frame f;
        gtr_str s;
        if (!gtr__evt_frame(t, pc, &f))
            /* Go: "found unknown pc %x for stack %d" */
            return gtr_err_setf(err, GTR_E_FORMAT, "found unknown pc %llx for stack %llu",
                                (unsigned long long)pc, (unsigned long long)id);
        if (!gtr__evt_string(t, f.func_id, &s))
            /* Go: "found invalid func string ID %d for stack %d" */
            return gtr_err_setf(err, GTR_E_FORMAT,
                                "found invalid func string ID %llu for stack %llu",
                                (unsigned long long)f.func_id, (unsigned long long)id);
        if (!gtr__evt_string(t, f.file_id, &s))
            /* Go: "found invalid file string ID %d for stack %d" */
            return gtr_err_setf(err, GTR_E_FORMAT,
                                "found invalid file string ID %llu for stack %llu",
                                (unsigned long long)f.file_id, (unsigned long long)id);
    }
    return GTR_OK;
}

gtr_status gtr__evt_validate_stack_strings(const gtr__ev_table *t, gtr_err *err)
{
    /* Go's forEach: the dense part in ID order, then the sparse map (Go's order is random;
     * ours is insertion order). */
    const dtable *d = &t->stacks;
    for (size_t id = 0; id < d->ndense; id++) {
        if (d->dense[id] == 0)
            continue;
        gtr_status st = validate_stack(t, id, &t->stk_vals[d->dense[id] - 1], err);
        if (st != GTR_OK)
            return st;
    }
    for (size_t i = d->ncompact; i < d->len; i++) {
        gtr_status st = validate_stack(t, d->ids[i], &t->stk_vals[i], err);
        if (st != GTR_OK)
            return st;
    }
    return GTR_OK;
}

/* ---- Frequency. ---- */

gtr_time gtr__freq_mul(double freq, uint64_t ts)
{
    /* Go on amd64 (CVTTSD2SQ): NaN and out-of-range values become INT64_MIN. */
    return gtr__freq_mul_inline(freq, ts);
}
