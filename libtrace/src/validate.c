/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/testtrace/validation.go at go1.27.3: the Validator.
 *
 * Go keeps its state in maps (gs, ps, ms, ranges, tasks) of pointers. Here each map is an
 * ID store (idmap.h), so any int64 ID works. A binding (Go's *schedContext) is stored as the
 * thread ID, since threads are never removed from ms. Range names and task types are
 * interned in a string pool, so the steady state allocates nothing and equal names compare
 * by pointer. Every failed check is appended to an accumulator and the messages are joined
 * with "\n", as errors.Join does. */
#include <inttypes.h>
#include <string.h>

#include "base.h"
#include "compiler.h"
#include "event_transition.h"
#include "gotime.h"
#include "gtr/raw.h"
#include "gtr/reader.h"
#include "gtr/validate.h"
#include "idmap.h"
#include "mem.h"
#include "reader_priv.h"
#include "strpool.h"
#include "validate_priv.h"

/* state_put is Go's lookup that adds a zero value when absent: id's record, zeroed when
 * *created. NULL when out of memory. (Only task records are ever deleted, and they own no
 * buffers, so zeroing a recycled record loses nothing.) The insertion, rare, is out of line. */
static GTR__NOINLINE void *state_add(gtr__idstore *s, int64_t id)
{
    void *r = gtr__idstore_insert(s, (uint64_t)id);
    if (r != NULL)
        memset(r, 0, s->elem_size);
    return r;
}

static GTR__ALWAYS_INLINE void *state_put(gtr__idstore *s, int64_t id, bool *created)
{
    void *r = gtr__idstore_get(s, (uint64_t)id);
    *created = r == NULL;
    return r != NULL ? r : state_add(s, id);
}

/* Go's schedContext. */
typedef struct sched_ctx {
    gtr_threadid m;
    gtr_procid p;
    gtr_goid g;
} sched_ctx;

/* Go's goState and procState: binding is the thread whose schedContext is bound. */
typedef struct res_state {
    uint8_t state;
    bool bound;
    gtr_threadid binding;
} res_state;

/* One resource's active ranges (Go's []string). Items are interned (pointer equality). */
typedef struct range_list {
    const char **items;
    size_t n, cap;
} range_list;

struct gtr_validator {
    gtr_alloc alc;
    gtr_time last_ts;
    gtr__idstore gs;        /* goid -> res_state */
    gtr__idstore ps;        /* procid -> res_state */
    gtr__idstore ms;        /* threadid -> sched_ctx */
    gtr__idstore ranges[4]; /* per gtr_resource_kind: id -> range_list */
    gtr__idstore tasks;     /* taskid -> gtr_str, the type (interned) */
    gtr__strpool pool;
    gtr_sync last;          /* Go's lastSync (its table is not read) */
    gtr_go_version go_version;
    bool go_version_set;   /* by the caller (gtr_validator_set_go_version) */
    bool skip_clock_snapshot_checks;
    bool fast_paths_off;   /* gtr__validator_set_fast_paths(v, false) */
    gtr_buf errs;        /* the accumulator: messages joined with "\n" */
    size_t nerrs;
    /* The stacks found complete in this generation (their frames do not change within one),
     * of clean_table, the last Sync's, only: events made one by one (gtr_make_event) may come
     * with tables freed and reallocated at one address, so a table does not name a
     * generation. */
    const void *clean_table;
    gtr__idmap clean;      /* stack ID -> index 0 (a set) */
    /* range_names[t]: the pool's copy of the name of the ranges of event type t, once met,
     * for the types whose range name is a static string (all but stop-the-world's). */
    const char *range_names[256];
};

void gtr__validator_set_fast_paths(gtr_validator *v, bool on)
{
    v->fast_paths_off = !on;
}

gtr_status gtr_validator_new(const gtr_alloc *alc, gtr_validator **out, gtr_err *err)
{
    const gtr_alloc *a = gtr__alloc_or_libc(alc);

    if (out == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_validator_new: NULL out");
    *out = NULL;
    gtr_validator *v = gtr__calloc(a, 1, sizeof *v);
    if (v == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "allocating validator");
    v->alc = *a;
    gtr__idstore_init(&v->gs, &v->alc, sizeof(res_state));
    gtr__idstore_init(&v->ps, &v->alc, sizeof(res_state));
    gtr__idstore_init(&v->ms, &v->alc, sizeof(sched_ctx));
    for (int i = 0; i < 4; i++)
        gtr__idstore_init(&v->ranges[i], &v->alc, sizeof(range_list));
    gtr__idstore_init(&v->tasks, &v->alc, sizeof(gtr_str));
    v->tasks.map.slides = true;   /* task IDs only grow, the ended ones deleted */
    v->go_version = GTR_GO_CURRENT;
    gtr_buf_init(&v->errs, &v->alc);
    *out = v;
    return GTR_OK;
}

void gtr_validator_set_go_version(gtr_validator *v, gtr_go_version ver)
{
    if (v != NULL) {
        v->go_version = ver;
        v->go_version_set = true;
    }
}

void gtr_validator_skip_clock_snapshot_checks(gtr_validator *v)
{
    if (v != NULL)
        v->skip_clock_snapshot_checks = true;
}

static void free_range_list(const gtr_alloc *a, void *p)
{
    range_list *l = p;
    gtr__free(a, (void *)l->items);
}

void gtr_validator_free(gtr_validator *v)
{
    if (v == NULL)
        return;
    const gtr_alloc *a = &v->alc;
    gtr__idstore_destroy(&v->gs, NULL);
    gtr__idstore_destroy(&v->ps, NULL);
    gtr__idstore_destroy(&v->ms, NULL);
    for (int i = 0; i < 4; i++)
        gtr__idstore_destroy(&v->ranges[i], free_range_list);
    gtr__idstore_destroy(&v->tasks, NULL);
    gtr__strpool_free(&v->pool, a);
    gtr_buf_free(&v->errs);
    gtr__idmap_free(&v->clean, a);
    gtr__free(a, v);
}

/* acc_begin starts a new message (errors.Join separates them with "\n"). */
static gtr_buf *acc_begin(gtr_validator *v)
{
    if (v->nerrs++ > 0)
        gtr_buf_putc(&v->errs, '\n');
    return &v->errs;
}

static void acc_errorf(gtr_validator *v, const char *fmt, ...) GTR_PRINTF(2, 3);
static void acc_errorf(gtr_validator *v, const char *fmt, ...)
{
    va_list ap;
    gtr_buf *b = acc_begin(v);
    va_start(ap, fmt);
    gtr_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

/* walk_stack is Go's checkStack: every frame but the first must be complete. A stack found
 * complete is remembered for its generation; one with an incomplete frame is walked, and
 * reported, at every use, as in Go. */
static GTR__NOINLINE gtr_status walk_stack(gtr_validator *v, gtr_stack stk, gtr_err *err)
{
    const uint64_t *pcs;
    size_t npcs, nerrs = v->nerrs, n = gtr_stack_len(stk), i;
    bool found;
    gtr_status st;

    if (stk.table_ == NULL || !gtr__evt_stack(stk.table_, stk.id_, &pcs, &npcs)) {
        /* Go: panic(fmt.Sprintf("expected id %d in %T table", id, data)) (Frames) */
        return gtr_err_setf(err, GTR_E_USAGE, "expected id %" PRIu64 " in trace.stack table",
                            stk.id_);
    }
    for (i = 0; i < n; i++) {
        gtr_frame f;
        if ((st = gtr_stack_frame(stk, i, &f, err)) < 0)
            return st;
        if (i == 0)
            continue; /* Allow for one fully zero stack. */
        if (f.func.len == 0 || f.file.len == 0 || f.pc == 0 || f.line == 0) {
            /* Go: e.Errorf("invalid stack frame %#v: missing information", f) */
            gtr_buf *b = acc_begin(v);
            gtr_buf_printf(b, "invalid stack frame trace.StackFrame{PC:0x%" PRIx64 ", Func:",
                           f.pc);
            gtr_go_quote(b, f.func.data, f.func.len);
            gtr_buf_puts(b, ", File:");
            gtr_go_quote(b, f.file.data, f.file.len);
            gtr_buf_printf(b, ", Line:0x%" PRIx64 "}: missing information", f.line);
        }
    }
    /* Out of memory, the stack is not remembered: only walked again. */
    if (stk.table_ == v->clean_table && v->nerrs == nerrs)
        (void)gtr__idmap_put_index(&v->clean, &v->alc, stk.id_, 0, &i, &found);
    return GTR_OK;
}

/* stack_known_clean is whether stk has nothing for check_stack to report without a look at
 * its frames: the empty stack, or one found complete in this generation. */
static GTR__ALWAYS_INLINE bool stack_known_clean(const gtr_validator *v, gtr_stack stk)
{
    size_t i;
    return stk.id_ == 0 ||
           (stk.table_ == v->clean_table && gtr__idmap_peek_index(&v->clean, stk.id_, &i));
}

/* check_stack is checkStack: inline for a stack known clean, twice per event. */
static inline gtr_status check_stack(gtr_validator *v, gtr_stack stk, gtr_err *err)
{
    return stack_known_clean(v, stk) ? GTR_OK : walk_stack(v, stk, err);
}

static range_list *ranges_of(gtr_validator *v, gtr_resource_id r)
{
    return gtr__idstore_get(&v->ranges[r.kind & 3], (uint64_t)r.id);
}

/* has_range: a name never interned (NULL) is in no list. */
static bool has_range(gtr_validator *v, gtr_resource_id r, const char *name)
{
    range_list *l = ranges_of(v, r);
    for (size_t i = 0; l != NULL && i < l->n; i++)
        if (l->items[i] == name)
            return true;
    return false;
}

static bool has_any_range(gtr_validator *v, gtr_resource_id r)
{
    range_list *l = ranges_of(v, r);
    return l != NULL && l->n != 0;
}

static gtr_status add_range(gtr_validator *v, gtr_resource_id r, const char *name, gtr_err *err)
{
    bool created;
    range_list *l = state_put(&v->ranges[r.kind & 3], r.id, &created);
    if (l == NULL || !GTR__GROW(&v->alc, l->items, l->cap, l->n + 1))
        return gtr_err_setf(err, GTR_E_NOMEM, "validator: out of memory");
    l->items[l->n++] = name;
    return GTR_OK;
}

static void delete_range(gtr_validator *v, gtr_resource_id r, const char *name)
{
    range_list *l = ranges_of(v, r);
    for (size_t i = 0; l != NULL && i < l->n; i++) {
        if (l->items[i] == name) {
            memmove(&l->items[i], &l->items[i + 1], (l->n - i - 1) * sizeof l->items[0]);
            l->n--;
            return;
        }
    }
}

/* get_or_create_thread is Go's getOrCreateThread for ev, whose transition is tr: *ctx is
 * NULL when the event has no thread (an error is recorded). */
static GTR__ALWAYS_INLINE gtr_status get_or_create_thread(gtr_validator *v, const gtr_event *ev,
                                                          const gtr_state_transition *tr,
                                                          sched_ctx **ctx, gtr_err *err)
{
    gtr_threadid m = ev->m_;   /* gtr_event_thread(ev); ev is not NULL */
    bool created;

    *ctx = NULL;
    /* Be lenient about GoUndetermined -> GoSyscall transitions from traces older than Go 1.22,
     * which lack thread information for them. */
    if (m == GTR_NO_THREAD &&
        !(v->go_version < GTR_GO122 && gtr_event_get_kind(ev) == GTR_EVENT_STATE_TRANSITION &&
          tr->resource.kind == GTR_RESOURCE_GOROUTINE &&
          tr->old_state_ == GTR_GO_UNDETERMINED && tr->new_state_ == GTR_GO_SYSCALL)) {
        acc_errorf(v, "must have thread, but thread ID is none");
        return GTR_OK;
    }
    if ((*ctx = state_put(&v->ms, m, &created)) == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "validator: out of memory");
    if (created) {
        (*ctx)->m = m;
        (*ctx)->p = GTR_NO_PROC;
        (*ctx)->g = GTR_NO_GOROUTINE;
    }
    return GTR_OK;
}

static gtr_status check_sync(gtr_validator *v, const gtr_event *ev, gtr_err *err)
{
    gtr_sync s;
    gtr_status st;

    if ((st = gtr_event_sync(ev, &s, err)) < 0)
        return st;
    if (s.n != v->last.n + 1) {
        acc_errorf(v, "sync count is not sequential: expected %" PRId64 ", got %" PRId64,
                   v->last.n + 1, s.n);
    }
    /* The reader emits a synthetic Sync at the end of a trace without clock snapshot data;
     * those are not checked. */
    if (v->go_version >= GTR_GO125 && !(s.n > 1 && !s.has_clock_snapshot)) {
        const gtr_clock_snapshot *c = &s.clock, *l = &v->last.clock;
        /* From the second Sync on, Go compares with lastSync's snapshot (and panics on a nil
         * one: the nil pointer's message stands for the panic). */
        bool compare = !v->skip_clock_snapshot_checks && s.n >= 2;
        if (!s.has_clock_snapshot) {
            acc_errorf(v, "sync %" PRId64 " has no clock snapshot", s.n);
            compare = false;
        } else {
            if (gtr__wall_is_zero(c->wall_sec, c->wall_nsec))
                acc_errorf(v, "sync %" PRId64 " has zero wall time", s.n);
            if (c->mono == 0)
                acc_errorf(v, "sync %" PRId64 " has zero mono time", s.n);
            if (c->trace == 0)
                acc_errorf(v, "sync %" PRId64 " has zero trace time", s.n);
        }
        if (compare && !v->last.has_clock_snapshot) {
            acc_errorf(v, "runtime error: invalid memory address or nil pointer dereference");
            compare = false;
        }
        if (compare && !gtr__wall_after(c->wall_sec, c->wall_nsec, l->wall_sec, l->wall_nsec)) {
            gtr_buf *b = acc_begin(v);
            gtr_buf_printf(b, "sync %" PRId64 " has non-increasing wall time: ", s.n);
            gtr__wall_string(c->wall_sec, c->wall_nsec, b);
            gtr_buf_puts(b, " vs ");
            gtr__wall_string(l->wall_sec, l->wall_nsec, b);
        }
        if (compare && !(c->mono > l->mono)) {
            acc_errorf(v, "sync %" PRId64 " has non-increasing mono time: %" PRIu64 " vs %" PRIu64,
                       s.n, c->mono, l->mono);
        }
        if (compare && !(c->trace > l->trace)) {
            acc_errorf(v, "sync %" PRId64 " has non-increasing trace time: %" PRId64
                          " vs %" PRId64, s.n, c->trace, l->trace);
        }
    }
    v->last = s;
    return GTR_OK;
}

/* The resources' names in the messages (GTR_RESOURCE_...). */
static const char *const resource_names[4] = {"none", "goroutine", "proc", "thread"};

static gtr_status check_label(gtr_validator *v, const gtr_event *ev, gtr_err *err)
{
    gtr_label l;
    gtr_status st;

    if ((st = gtr_event_label(ev, &l, err)) < 0)
        return st;
    if (l.label.len == 0) {
        gtr_buf *b = acc_begin(v);
        gtr_buf_puts(b, "invalid label ");
        gtr_go_quote(b, l.label.data, l.label.len);
    }
    if (l.resource.kind == GTR_RESOURCE_NONE)
        acc_errorf(v, "label resource none");
    gtr__idstore *known = l.resource.kind == GTR_RESOURCE_GOROUTINE ? &v->gs
                          : l.resource.kind == GTR_RESOURCE_PROC    ? &v->ps
                          : l.resource.kind == GTR_RESOURCE_THREAD  ? &v->ms
                                                                    : NULL;
    if (known != NULL && gtr__idstore_get(known, (uint64_t)l.resource.id) == NULL) {
        acc_errorf(v, "label for invalid %s %" PRId64, resource_names[l.resource.kind],
                   l.resource.id);
    }
    return GTR_OK;
}

/* state_string and executing are GoState's and ProcState's String and Executing (go: a
 * goroutine's state, else a proc's). */
static const char *state_string(bool go, uint8_t s)
{
    return go ? gtr_go_state_string((gtr_go_state)s) : gtr_proc_state_string((gtr_proc_state)s);
}

static bool executing(bool go, uint8_t s)
{
    return go ? gtr_go_state_executing((gtr_go_state)s)
              : gtr_proc_state_executing((gtr_proc_state)s);
}

_Static_assert((int)GTR_GO_UNDETERMINED == (int)GTR_PROC_UNDETERMINED &&
                   (int)GTR_GO_NOT_EXIST == (int)GTR_PROC_NOT_EXIST,
               "check_resource tests a goroutine's and a proc's states alike");

/* check_resource is Event's StateTransition case for a goroutine's or a proc's transition tr,
 * of ev, whose type is `type` (ev->type_; a constant in the per-type copies). Go writes the
 * two cases out, "intentionally handled identically"; here they are one, with what differs
 * chosen by go, and the messages name the resource. */
static GTR__ALWAYS_INLINE gtr_status check_resource(gtr_validator *v, const gtr_event *ev,
                                                    uint8_t type,
                                                    const gtr_state_transition *tr,
                                                    gtr_err *err)
{
    const bool go = tr->resource.kind == GTR_RESOURCE_GOROUTINE;
    const char *what = resource_names[tr->resource.kind];
    const int64_t id = tr->resource.id, none = go ? GTR_NO_GOROUTINE : GTR_NO_PROC;
    const uint8_t old = tr->old_state_, new_ = tr->new_state_;
    gtr_threadid thread = ev->m_;   /* gtr_event_thread(ev); ev is not NULL */
    res_state *state;
    bool created;
    gtr_status st;

    if (new_ == GTR_GO_UNDETERMINED)
        acc_errorf(v, "transition to undetermined state for %s %" PRId64, what, id);
    if (v->last.n > 1 && old == GTR_GO_UNDETERMINED)
        acc_errorf(v, "undetermined %s %" PRId64 " after first global sync", what, id);
    if (new_ == GTR_GO_NOT_EXIST && has_any_range(v, tr->resource))
        acc_errorf(v, "%s %" PRId64 " died with active ranges", what, id);
    state = state_put(go ? &v->gs : &v->ps, id, &created);
    if (state == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "validator: out of memory");
    if (!created && old != state->state) {
        acc_errorf(v, "bad old state for %s %" PRId64 ": got %s, want %s", what, id,
                   state_string(go, old), state_string(go, state->state));
    } else if (created && old != GTR_GO_UNDETERMINED && old != GTR_GO_NOT_EXIST) {
        acc_errorf(v, "bad old state for unregistered %s %" PRId64 ": %s", what, id,
                   state_string(go, old));
    }
    state->state = new_;

    /* Validate the sched context. */
    if (executing(go, new_)) {
        sched_ctx *ctx;
        if ((st = get_or_create_thread(v, ev, tr, &ctx, err)) < 0)
            return st;
        if (ctx != NULL) {
            int64_t *runs = go ? &ctx->g : &ctx->p;
            if (*runs != none && *runs != id) {
                acc_errorf(v, "tried to run %s %" PRId64 " when one was already executing (%"
                              PRId64 ") on thread %" PRId64, what, id, *runs, thread);
            }
            *runs = id;
            /* get_or_create_thread only touches ms: state (in gs or ps) is still valid. */
            state->bound = true;
            state->binding = ctx->m;
        }
    } else if (executing(go, old) && !executing(go, new_)) {
        if (go && !gtr_stack_equal(tr->stack, gtr__event_stack_of(ev, type))) {
            /* The transitioning goroutine is the executing one: the stacks must match. */
            acc_errorf(v, "StateTransition.Stack doesn't match Event.Stack");
        }
        if (state->bound) {
            sched_ctx *ctx = gtr__idstore_get(&v->ms, (uint64_t)state->binding);
            int64_t *runs = go ? &ctx->g : &ctx->p;
            /* Go names the event's thread for a goroutine, the context's for a proc. */
            if (*runs != id) {
                acc_errorf(v, "tried to stop %s %" PRId64 " when it wasn't currently executing "
                              "(currently executing %" PRId64 ") on thread %" PRId64,
                           what, id, *runs, go ? thread : ctx->m);
            }
            *runs = none;
            state->bound = false;
        } else {
            acc_errorf(v, "stopping %s %" PRId64 " not bound to any active context", what, id);
        }
    }
    return GTR_OK;
}

/* range_error records Go's "<what>%q on %v<how>" of a range named name on scope. */
static void range_error(gtr_validator *v, const char *what, gtr_str name, gtr_resource_id scope,
                        const char *how)
{
    gtr_buf *b = acc_begin(v);
    gtr_buf_puts(b, what);
    gtr_go_quote(b, name.data, name.len);
    gtr_buf_puts(b, " on ");
    gtr_resource_id_string(scope, b);
    gtr_buf_puts(b, how);
}

static GTR__ALWAYS_INLINE gtr_status check_range(gtr_validator *v, const gtr_event *ev,
                                                 gtr_event_kind kind, gtr_err *err)
{
    gtr_range r;
    gtr_status st;

    if ((st = gtr_event_range(ev, &r, err)) < 0)
        return st;
    gtr_str rname = gtr_range_name(&r);
    /* The name's copy in the pool (NULL: never interned): remembered by event type when the
     * name is a static string, looked up by value otherwise (a stop-the-world range's name
     * holds its reason, in r's own buffer: no name_ext_). */
    bool fixed = r.name_ext_ != NULL;
    const char *name = fixed ? v->range_names[ev->type_] : NULL;
    if (name == NULL) {
        name = gtr__strpool_find(&v->pool, rname.data, rname.len);
        if (fixed)
            v->range_names[ev->type_] = name;   /* NULL until it is interned */
    }
    bool active = has_range(v, r.scope, name);
    if (kind == GTR_EVENT_RANGE_END) {
        if (!active)
            range_error(v, "inactive range ", rname, r.scope, " ended");
        delete_range(v, r.scope, name);
        return GTR_OK;
    }
    if (kind == GTR_EVENT_RANGE_BEGIN && active)
        range_error(v, "already active range ", rname, r.scope, " begun again");
    else if (active)   /* RangeActive */
        return GTR_OK;
    /* Begin and Active add the range. */
    if (name == NULL &&
        (name = gtr__strpool_intern(&v->pool, &v->alc, rname.data, rname.len)) == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "validator: out of memory");
    if (fixed)
        v->range_names[ev->type_] = name;
    return add_range(v, r.scope, name, err);
}

/* task_error records Go's "<what>%s" of a task's type. */
static void task_error(gtr_validator *v, const char *what, gtr_str type)
{
    gtr_buf *b = acc_begin(v);
    gtr_buf_puts(b, what);
    gtr_buf_append(b, type.data, type.len);
}

static gtr_status check_task(gtr_validator *v, const gtr_event *ev, gtr_event_kind kind,
                             gtr_err *err)
{
    gtr_task t;
    gtr_str *typ;
    bool created;
    gtr_status st;

    if ((st = gtr_event_task(ev, &t, err)) < 0)
        return st;
    if (kind == GTR_EVENT_TASK_BEGIN) {
        /* The background task should never have an event emitted for it. */
        if (t.id == GTR_NO_TASK || t.id == GTR_BACKGROUND_TASK)
            task_error(v, "found invalid task ID for task of type ", t.type);
        /* A task cannot be a subtask of the background task. */
        if (t.parent == GTR_BACKGROUND_TASK)
            task_error(v, "found background task as the parent for task of type ", t.type);
        /* N.B. the task type is not checked: "" is a valid type. */
        const char *type = gtr__strpool_intern(&v->pool, &v->alc, t.type.data, t.type.len);
        if (type == NULL || (typ = state_put(&v->tasks, (int64_t)t.id, &created)) == NULL)
            return gtr_err_setf(err, GTR_E_NOMEM, "validator: out of memory");
        typ->data = type;
        typ->len = t.type.len;
        return GTR_OK;
    }
    /* A task end may come without a begin: only check ends whose begin was seen. */
    if ((typ = gtr__idstore_get(&v->tasks, t.id)) != NULL) {
        if (t.type.len != typ->len || memcmp(t.type.data, typ->data, typ->len) != 0) {
            gtr_buf *b = acc_begin(v);
            gtr_buf_puts(b, "task end type ");
            gtr_go_quote(b, t.type.data, t.type.len);
            gtr_buf_puts(b, " doesn't match task start type ");
            gtr_go_quote(b, typ->data, typ->len);
            gtr_buf_printf(b, " for task %" PRIu64, t.id);
        }
        gtr__idstore_delete(&v->tasks, t.id);
    }
    return GTR_OK;
}

/* time_out_of_order records the error of an event not later than the last (out of line). */
static GTR__NOINLINE gtr_status time_out_of_order(gtr_validator *v, const gtr_event *ev,
                                                  gtr_err *err)
{
    gtr_status st;
    gtr_buf *b = acc_begin(v);
    gtr_buf_printf(b, "timestamp out-of-order (want > %" PRId64 ") for ", v->last_ts);
    if ((st = gtr_event_string(ev, b)) < 0 && st != GTR_E_NOMEM)
        return gtr_err_setf(err, st, "formatting event: %s", gtr_status_text(st));
    return GTR_OK;
}

/* check_transition is Event's StateTransition case for an event of type `type`, a constant
 * where the caller passes one: the transition then folds to constants and loads, and
 * check_resource's branches on it are decided here, not by a branch predictor. The event's
 * own stack was checked, leaving nerrs messages. */
static GTR__ALWAYS_INLINE gtr_status check_transition(gtr_validator *v, const gtr_event *ev,
                                                      uint8_t type, size_t nerrs, gtr_err *err)
{
    gtr_state_transition tr;
    gtr_status st;
    /* The reason is not read here, and the reader has checked its string ID (a GoStop's or
     * GoBlock's, the only types that have one). */
    if ((st = gtr__state_transition_of(ev, type, false, &tr, err)) < 0)
        return st;
    /* The transition's stack is the event's own for these types: a second check of a clean
     * one would find nothing. One with an incomplete frame is checked, and reported, again,
     * as in Go. */
    bool same_stack = type == GTR_EV_GO_STOP || type == GTR_EV_GO_BLOCK ||
                      type == GTR_EV_GO_SYSCALL_BEGIN;
    if ((!same_stack || v->nerrs != nerrs) && (st = check_stack(v, tr.stack, err)) < 0)
        return st;
    if (tr.resource.kind == GTR_RESOURCE_GOROUTINE || tr.resource.kind == GTR_RESOURCE_PROC)
        return check_resource(v, ev, type, &tr, err);
    return GTR_OK;
}

/* check_metric is Event's Metric case. */
static gtr_status check_metric(gtr_validator *v, const gtr_event *ev, gtr_err *err)
{
    gtr_metric m;
    gtr_status st;
    if ((st = gtr_event_metric(ev, &m, err)) < 0)
        return st;
    if (memchr(m.name.data, ':', m.name.len) == NULL) {
        /* Metric names have a ":" per the runtime/metrics convention. */
        gtr_buf *b = acc_begin(v);
        gtr_buf_puts(b, "invalid metric name ");
        gtr_go_quote(b, m.name.data, m.name.len);
    }
    if (m.value.kind == GTR_VALUE_BAD)
        acc_errorf(v, "invalid value");
    return GTR_OK;
}

/* check_state_transition is Event's StateTransition case. The common transitions that the
 * fast path does not take each get their own copy of check_transition, their type a constant
 * (the case labels); the others share one, the type read at run time. Out of line: Event's
 * other cases, inline in the caller's loop, stay small. */
static GTR__NOINLINE gtr_status check_state_transition(gtr_validator *v, const gtr_event *ev,
                                                       size_t nerrs, gtr_err *err)
{
    switch (ev->type_) {
    case GTR_EV_GO_CREATE: return check_transition(v, ev, GTR_EV_GO_CREATE, nerrs, err);
    case GTR_EV_GO_DESTROY: return check_transition(v, ev, GTR_EV_GO_DESTROY, nerrs, err);
    case GTR_EV_GO_UNBLOCK: return check_transition(v, ev, GTR_EV_GO_UNBLOCK, nerrs, err);
    case GTR_EV_GO_SYSCALL_BEGIN:
        return check_transition(v, ev, GTR_EV_GO_SYSCALL_BEGIN, nerrs, err);
    case GTR_EV_GO_SYSCALL_END:
        return check_transition(v, ev, GTR_EV_GO_SYSCALL_END, nerrs, err);
    case GTR_EV_GO_SYSCALL_END_BLOCKED:
        return check_transition(v, ev, GTR_EV_GO_SYSCALL_END_BLOCKED, nerrs, err);
    default: /* statuses, steals, the rarer transitions: the type read at run time */
        return check_transition(v, ev, ev->type_, nerrs, err);
    }
}

/* validate_event is validation.go's Event: the time and the stack of every event, then the
 * checks of its kind. */
static GTR__ALWAYS_INLINE gtr_status validate_event(gtr_validator *v, const gtr_event *ev,
                                                    gtr_err *err)
{
    gtr_status st;
    /* Validate timestamp order (ev->time_ is gtr_event_time(ev)). */
    if (v->last_ts != 0 && ev->time_ <= v->last_ts) {
        if ((st = time_out_of_order(v, ev, err)) < 0)
            return st;
    } else {
        v->last_ts = ev->time_;
    }
    size_t nerrs = v->nerrs;
    if ((st = check_stack(v, gtr_event_stack(ev), err)) < 0)
        return st;

    switch (gtr_event_get_kind(ev)) {
    case GTR_EVENT_SYNC:
        gtr__idmap_clear(&v->clean);   /* a new generation */
        v->clean_table = ev->table_;
        return check_sync(v, ev, err);
    case GTR_EVENT_METRIC:
        return check_metric(v, ev, err);
    case GTR_EVENT_LABEL:
        return check_label(v, ev, err);
    case GTR_EVENT_STATE_TRANSITION:
        return check_state_transition(v, ev, nerrs, err);
    case GTR_EVENT_RANGE_BEGIN:
    case GTR_EVENT_RANGE_ACTIVE:
    case GTR_EVENT_RANGE_END:
        return check_range(v, ev, gtr_event_get_kind(ev), err);
    case GTR_EVENT_TASK_BEGIN:
    case GTR_EVENT_TASK_END:
        return check_task(v, ev, gtr_event_get_kind(ev), err);
    case GTR_EVENT_LOG: {
        /* Category and message are the user's; only make sure a Log can be built. */
        gtr_log l;
        return gtr_event_log(ev, &l, err);
    }
    default:
        /* StackSample: a sched context and a stack, already checked. */
        return GTR_OK;
    }
}

/* transition_fast is Event for a ProcStart, ProcStop, GoStart, GoStop or GoBlock (type, a
 * constant) when every check passes: a later time; the transition's stack known clean (it is
 * the event's own for GoStop and GoBlock, so Go's check that they match passes, and the other
 * three have none: test_validate holds the spec to it); the P or goroutine known in the state
 * the transition leaves; a start's thread known and running no other, or a stop's P or
 * goroutine bound to a thread that runs it. It then makes the full checks' changes and
 * returns true; otherwise it changes nothing and returns false, for the full checks to run.
 * Its lookups are the ID maps' dense windows only: a call on its path would make every entry
 * save registers. */
static GTR__ALWAYS_INLINE bool transition_fast(gtr_validator *v, const gtr_event *ev,
                                               uint8_t type)
{
    gtr_state_transition tr;
    gtr_time ts = ev->time_;
    if (v->fast_paths_off || (v->last_ts != 0 && ts <= v->last_ts))   /* Event's time check */
        return false;
    /* The full checks' transition: none of the five types can fail. */
    if (gtr__state_transition_of(ev, type, false, &tr, NULL) != GTR_OK ||
        !stack_known_clean(v, tr.stack))
        return false;
    const bool proc = tr.resource.kind == GTR_RESOURCE_PROC;
    const bool start = tr.new_state_ == (proc ? GTR_PROC_RUNNING : GTR_GO_RUNNING);
    const int64_t id = tr.resource.id, none = proc ? GTR_NO_PROC : GTR_NO_GOROUTINE;
    res_state *state = gtr__idstore_peek(proc ? &v->ps : &v->gs, (uint64_t)id);
    if (state == NULL || state->state != tr.old_state_)
        return false;
    sched_ctx *ctx;
    if (start) {
        if (ev->m_ == GTR_NO_THREAD || (ctx = gtr__idstore_peek(&v->ms, (uint64_t)ev->m_)) == NULL)
            return false;
        int64_t *runs = proc ? &ctx->p : &ctx->g;
        if (*runs != none && *runs != id)
            return false;
        *runs = id;
        state->bound = true;
        state->binding = ctx->m;
    } else {
        if (!state->bound || (ctx = gtr__idstore_peek(&v->ms, (uint64_t)state->binding)) == NULL)
            return false;
        int64_t *runs = proc ? &ctx->p : &ctx->g;
        if (*runs != id)
            return false;
        *runs = none;
        state->bound = false;
    }
    state->state = tr.new_state_;
    v->last_ts = ts;
    return true;
}

/* validate is Event with its one fast path in front (transition_fast, for five types). */
static GTR__ALWAYS_INLINE gtr_status validate(gtr_validator *v, const gtr_event *ev,
                                              gtr_err *err)
{
    bool done;
    switch (ev->type_) {
    case GTR_EV_PROC_START: done = transition_fast(v, ev, GTR_EV_PROC_START); break;
    case GTR_EV_PROC_STOP: done = transition_fast(v, ev, GTR_EV_PROC_STOP); break;
    case GTR_EV_GO_START: done = transition_fast(v, ev, GTR_EV_GO_START); break;
    case GTR_EV_GO_STOP: done = transition_fast(v, ev, GTR_EV_GO_STOP); break;
    case GTR_EV_GO_BLOCK: done = transition_fast(v, ev, GTR_EV_GO_BLOCK); break;
    default: done = false; break;
    }
    return done ? GTR_OK : validate_event(v, ev, err);
}

/* take_errors is errAccumulator.Errors for an event that left messages (v->nerrs != 0): they
 * become err, unless the event failed otherwise (st < 0), and the accumulator is emptied, so
 * that every event starts with it empty. */
static GTR__NOINLINE gtr_status take_errors(gtr_validator *v, gtr_status st, gtr_err *err)
{
    if (st >= 0 && gtr_buf_status(&v->errs) < 0)
        st = gtr_err_setf(err, GTR_E_NOMEM, "validator: out of memory");
    else if (st >= 0)
        st = gtr_err_setn(err, GTR_E_INVALID, v->errs.data, v->errs.len);
    gtr_buf_reset(&v->errs);
    v->nerrs = 0;
    return st;
}

/* gtr_validator_event inlines validate and the checks shared by the other types: a caller of
 * the library (the CLI, a program linked to the shared library) makes one call per event. */
gtr_status gtr_validator_event(gtr_validator *v, const gtr_event *ev, gtr_err *err)
{
    gtr_err local;
    gtr_status st;

    if (v == NULL || ev == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_validator_event: NULL argument");
    if (err == NULL) {
        gtr_err_init(&local);   /* per event: the message buffer need not be zeroed */
        err = &local;
    }
    if ((st = validate(v, ev, err)) != GTR_OK || v->nerrs != 0)
        st = take_errors(v, st, err);
    if (err == &local)
        gtr_err_clear(&local);
    return st;
}

/* gtr_validator_run inlines validate too, and gtr_reader_next's common case is small enough
 * for link-time optimisation to inline it (reader.c). */
gtr_status gtr_validator_run(gtr_validator *v, gtr_reader *r, uint64_t max, uint64_t *n,
                             gtr_err *err)
{
    gtr_event buf, *ev;
    gtr_status st = GTR_OK;
    uint64_t k = 0;
    gtr_err local;

    if (n != NULL)
        *n = 0;
    if (v == NULL || r == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_validator_run: NULL argument");
    if (err == NULL) {
        gtr_err_init(&local);
        err = &local;
    }
    /* Clear once: a step that succeeds (the reader's and the validator's) leaves it clear. */
    gtr_err_clear(err);
    if (!v->go_version_set)
        v->go_version = gtr_reader_go_version(r);
    while (max == 0 || k < max) {
        if ((st = gtr__reader_next_ref(r, &buf, &ev, err)) != GTR_OK)
            break;
        k++;
        if ((st = validate(v, ev, err)) != GTR_OK || v->nerrs != 0) {
            st = take_errors(v, st, err);
            break;
        }
    }
    /* The end of the trace is a success: the reader's "EOF" is not the caller's error. */
    if (st == GTR_EOF || err == &local)
        gtr_err_clear(err);
    if (n != NULL)
        *n = k;
    return st;
}
