/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/event.go at go1.27.3: the Event accessors, the mapping from
 * wire types to kinds (tracev2Type2Kind), the detail constructions and Event.String().
 *
 * Where Go panics, the C accessor returns GTR_E_USAGE with Go's panic text. An event borrows
 * its generation's table (base.h); events with a NULL table (the final Sync) are handled.
 * Numbers are written by numfmt.h, a clock snapshot's wall time by gotime.c. */
#include <inttypes.h>
#include <string.h>

#include "base.h"
#include "err_text.h"
#include "event_format.h"
#include "event_transition.h"
#include "gotime.h"
#include "gtr/event.h"
#include "gtr/raw.h"
#include "mem.h"
#include "numfmt.h"
#include "padded_names.h"

/* tracev2Type2Kind; unlisted types are EventBad. */
static const uint8_t type2kind[256] = {
    [GTR_EV_CPU_SAMPLE] = GTR_EVENT_STACK_SAMPLE,
    [GTR_EV_PROCS_CHANGE] = GTR_EVENT_METRIC,
    [GTR_EV_PROC_START] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_PROC_STOP] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_PROC_STEAL] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_PROC_STATUS] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_CREATE] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_CREATE_SYSCALL] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_START] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_DESTROY] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_DESTROY_SYSCALL] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_STOP] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_BLOCK] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_UNBLOCK] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_SYSCALL_BEGIN] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_SYSCALL_END] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_SYSCALL_END_BLOCKED] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_STATUS] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_STW_BEGIN] = GTR_EVENT_RANGE_BEGIN,
    [GTR_EV_STW_END] = GTR_EVENT_RANGE_END,
    [GTR_EV_GC_ACTIVE] = GTR_EVENT_RANGE_ACTIVE,
    [GTR_EV_GC_BEGIN] = GTR_EVENT_RANGE_BEGIN,
    [GTR_EV_GC_END] = GTR_EVENT_RANGE_END,
    [GTR_EV_GC_SWEEP_ACTIVE] = GTR_EVENT_RANGE_ACTIVE,
    [GTR_EV_GC_SWEEP_BEGIN] = GTR_EVENT_RANGE_BEGIN,
    [GTR_EV_GC_SWEEP_END] = GTR_EVENT_RANGE_END,
    [GTR_EV_GC_MARK_ASSIST_ACTIVE] = GTR_EVENT_RANGE_ACTIVE,
    [GTR_EV_GC_MARK_ASSIST_BEGIN] = GTR_EVENT_RANGE_BEGIN,
    [GTR_EV_GC_MARK_ASSIST_END] = GTR_EVENT_RANGE_END,
    [GTR_EV_HEAP_ALLOC] = GTR_EVENT_METRIC,
    [GTR_EV_HEAP_GOAL] = GTR_EVENT_METRIC,
    [GTR_EV_GO_LABEL] = GTR_EVENT_LABEL,
    [GTR_EV_USER_TASK_BEGIN] = GTR_EVENT_TASK_BEGIN,
    [GTR_EV_USER_TASK_END] = GTR_EVENT_TASK_END,
    [GTR_EV_USER_REGION_BEGIN] = GTR_EVENT_REGION_BEGIN,
    [GTR_EV_USER_REGION_END] = GTR_EVENT_REGION_END,
    [GTR_EV_USER_LOG] = GTR_EVENT_LOG,
    [GTR_EV_GO_SWITCH] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_SWITCH_DESTROY] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_CREATE_BLOCKED] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_GO_STATUS_STACK] = GTR_EVENT_STATE_TRANSITION,
    [GTR_EV_SPAN] = GTR_EVENT_EXPERIMENTAL,
    [GTR_EV_SPAN_ALLOC] = GTR_EVENT_EXPERIMENTAL,
    [GTR_EV_SPAN_FREE] = GTR_EVENT_EXPERIMENTAL,
    [GTR_EV_HEAP_OBJECT] = GTR_EVENT_EXPERIMENTAL,
    [GTR_EV_HEAP_OBJECT_ALLOC] = GTR_EVENT_EXPERIMENTAL,
    [GTR_EV_HEAP_OBJECT_FREE] = GTR_EVENT_EXPERIMENTAL,
    [GTR_EV_GOROUTINE_STACK] = GTR_EVENT_EXPERIMENTAL,
    [GTR_EV_GOROUTINE_STACK_ALLOC] = GTR_EVENT_EXPERIMENTAL,
    [GTR_EV_GOROUTINE_STACK_FREE] = GTR_EVENT_EXPERIMENTAL,
    [GTR_EV_SYNC_EVENT] = GTR_EVENT_SYNC,
};

/* The kinds' names, padded (padded_names.h) for String(). */
static const gtr__padded_name kind_names[] = {
    [GTR_EVENT_BAD] = GTR__PADDED_NAME("Bad"),
    [GTR_EVENT_SYNC] = GTR__PADDED_NAME("Sync"),
    [GTR_EVENT_METRIC] = GTR__PADDED_NAME("Metric"),
    [GTR_EVENT_LABEL] = GTR__PADDED_NAME("Label"),
    [GTR_EVENT_STACK_SAMPLE] = GTR__PADDED_NAME("StackSample"),
    [GTR_EVENT_RANGE_BEGIN] = GTR__PADDED_NAME("RangeBegin"),
    [GTR_EVENT_RANGE_ACTIVE] = GTR__PADDED_NAME("RangeActive"),
    [GTR_EVENT_RANGE_END] = GTR__PADDED_NAME("RangeEnd"),
    [GTR_EVENT_TASK_BEGIN] = GTR__PADDED_NAME("TaskBegin"),
    [GTR_EVENT_TASK_END] = GTR__PADDED_NAME("TaskEnd"),
    [GTR_EVENT_REGION_BEGIN] = GTR__PADDED_NAME("RegionBegin"),
    [GTR_EVENT_REGION_END] = GTR__PADDED_NAME("RegionEnd"),
    [GTR_EVENT_LOG] = GTR__PADDED_NAME("Log"),
    [GTR_EVENT_STATE_TRANSITION] = GTR__PADDED_NAME("StateTransition"),
    [GTR_EVENT_EXPERIMENTAL] = GTR__PADDED_NAME("Experimental"),
};

static const gtr__padded_name *kind_name_of(gtr_event_kind k)
{
    if ((unsigned)k >= sizeof kind_names / sizeof kind_names[0])
        return &kind_names[0];
    return &kind_names[k];
}

const char *gtr_event_kind_string(gtr_event_kind k)
{
    return kind_name_of(k)->s;
}

/* ---- table helpers ------------------------------------------------------------------- */

gtr_status gtr__must_string(const gtr__ev_table *t, uint64_t id, gtr_str *out, gtr_err *err)
{
    if (id == 0 || (t != NULL && gtr__evt_string(t, id, out))) {
        if (id == 0)
            *out = (gtr_str){"", 0};
        return GTR_OK;
    }
    *out = (gtr_str){"", 0};
    /* Go: panic(fmt.Sprintf("expected id %d in %T table", id, data)) */
    return gtr_err_setf(err, GTR_E_USAGE, "expected id %" PRIu64 " in string table", id);
}

/* Formatting without printf: String() is the hot path of `gotrace validate --log-events`.
 * app and putch are gtr_buf_append and gtr_buf_putc with the common case (room left)
 * inlined; a failed buffer stays failed (gtr_buf_status reports it). */
static inline void app(gtr_buf *b, const void *s, size_t n)
{
    if (n < b->cap - b->len && !b->failed) {
        memcpy(b->data + b->len, s, n);
        b->len += n;
        b->data[b->len] = '\0';
        return;
    }
    gtr_buf_append(b, s, n);
}

static inline void putch(gtr_buf *b, char c)
{
    if (1 < b->cap - b->len && !b->failed) {
        b->data[b->len++] = c;
        b->data[b->len] = '\0';
        return;
    }
    gtr_buf_putc(b, c);
}

#define PUT_LIT(b, lit) app((b), (lit), sizeof(lit) - 1)

/* room returns where n more bytes (and the NUL) can be written at the end of b, growing it
 * if needed, or NULL when b has failed or cannot grow; commit ends such a write at p. The
 * fixed parts of String() go through these: one capacity test for a whole line, not one
 * per piece. */
static inline char *room(gtr_buf *b, size_t n)
{
    if ((b->failed || n >= b->cap - b->len) && gtr_buf_reserve(b, n) != GTR_OK)
        return NULL;
    return b->data + b->len;
}

static inline void commit(gtr_buf *b, char *p)
{
    *p = '\0';
    b->len = (size_t)(p - b->data);
}

/* cpy copies n bytes to p and returns the end. */
static inline char *cpy(char *p, const void *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}
#define CPY_LIT(p, lit) cpy((p), (lit), sizeof(lit) - 1)

/* cpy_name copies a padded name to p (16 bytes, its padding included: p needs room for 16)
 * and returns the end of the name. */
static inline char *cpy_name(char *p, const gtr__padded_name *name)
{
    memcpy(p, name->s, sizeof name->s);
    return p + name->n;
}

static void put_u64(gtr_buf *b, uint64_t v)
{
    char t[20];
    app(b, t, gtr__fmt_u64(t, v));
}

/* ---- basic accessors ----------------------------------------------------------------- */

gtr_event_kind gtr_event_get_kind(const gtr_event *ev)
{
    return ev == NULL ? GTR_EVENT_BAD : (gtr_event_kind)type2kind[ev->type_];
}

gtr_event_kind gtr_event_type_kind(uint8_t type)
{
    return (gtr_event_kind)type2kind[type];
}

gtr_time gtr_event_time(const gtr_event *ev)
{
    return ev != NULL ? ev->time_ : 0;
}

gtr_goid gtr_event_goroutine(const gtr_event *ev)
{
    return ev != NULL ? ev->g_ : GTR_NO_GOROUTINE;
}

gtr_procid gtr_event_proc(const gtr_event *ev)
{
    return ev != NULL ? ev->p_ : GTR_NO_PROC;
}

gtr_threadid gtr_event_thread(const gtr_event *ev)
{
    return ev != NULL ? ev->m_ : GTR_NO_THREAD;
}

gtr_stack gtr_event_stack(const gtr_event *ev)
{
    gtr_stack s = {NULL, 0};

    if (ev == NULL)
        return s;
    if (ev->type_ == GTR_EV_CPU_SAMPLE) {
        s.table_ = ev->table_;
        s.id_ = ev->args_[0];
        return s;
    }
    return gtr__event_stack_of(ev, ev->type_);
}

/* ---- stacks -------------------------------------------------------------------------- */

bool gtr_stack_is_none(gtr_stack s)
{
    return s.table_ == NULL && s.id_ == 0;
}

bool gtr_stack_equal(gtr_stack a, gtr_stack b)
{
    return a.table_ == b.table_ && a.id_ == b.id_;
}

/* stack_pcs is stacks.mustGet(s.id) for a non-zero ID. */
static gtr_status stack_pcs(gtr_stack s, const uint64_t **pcs, size_t *n, gtr_err *err)
{
    *pcs = NULL;
    *n = 0;
    if (s.id_ == 0)
        return GTR_OK;
    if (s.table_ != NULL && gtr__evt_stack(s.table_, s.id_, pcs, n))
        return GTR_OK;
    /* Go: panic(fmt.Sprintf("expected id %d in %T table", id, data)) */
    return gtr_err_setf(err, GTR_E_USAGE, "expected id %" PRIu64 " in trace.stack table", s.id_);
}

size_t gtr_stack_len(gtr_stack s)
{
    const uint64_t *pcs;
    size_t n;
    return stack_pcs(s, &pcs, &n, NULL) == GTR_OK ? n : 0;
}

/* frame_at builds StackFrame for pcs[i]: a PC missing from the table is a zero frame (Go's
 * map lookup), whose string IDs are 0 (""). */
static gtr_status frame_at(const gtr__ev_table *t, uint64_t pc, gtr_frame *out, gtr_err *err)
{
    gtr__frame f = {0, 0, 0, 0};
    gtr_status st;

    if (t != NULL && !gtr__evt_frame(t, pc, &f))
        memset(&f, 0, sizeof f);
    out->pc = f.pc;
    out->line = f.line;
    if ((st = gtr__must_string(t, f.func_id, &out->func, err)) < 0)
        return st;
    return gtr__must_string(t, f.file_id, &out->file, err);
}

gtr_status gtr_stack_frame(gtr_stack s, size_t i, gtr_frame *out, gtr_err *err)
{
    const uint64_t *pcs;
    size_t n;
    gtr_status st;

    if (out == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_stack_frame: NULL out");
    if ((st = stack_pcs(s, &pcs, &n, err)) < 0)
        return st;
    if (i >= n) {
        /* Go: panic: runtime error: index out of range [%d] with length %d */
        return gtr__err_index(err, i, n);
    }
    return frame_at(s.table_, pcs[i], out, err);
}

gtr_status gtr__print_stack(gtr_buf *out, const char *prefix, gtr_stack s, gtr_err *err)
{
    const uint64_t *pcs;
    size_t n;
    gtr_status st;

    if ((st = stack_pcs(s, &pcs, &n, err)) < 0)
        return st;
    size_t plen = strlen(prefix);
    for (size_t i = 0; i < n; i++) {
        gtr_frame f;
        char *p;
        if ((st = frame_at(s.table_, pcs[i], &f, err)) < 0)
            return st;
        /* One reservation per frame: the prefixes, names, " @ 0x", 16 hex digits, "\n\t",
         * ':', 20 decimal digits and "\n". */
        if (f.func.len > SIZE_MAX / 4 || f.file.len > SIZE_MAX / 4 ||
            gtr_buf_reserve(out, 2 * plen + f.func.len + f.file.len + 45) != GTR_OK)
            return GTR_E_NOMEM;
        p = out->data + out->len;
        memcpy(p, prefix, plen);
        p += plen;
        if (f.func.len > 0)
            memcpy(p, f.func.data, f.func.len);
        p += f.func.len;
        memcpy(p, " @ 0x", 5);
        p += 5;
        p += gtr__fmt_hex(p, f.pc);
        *p++ = '\n';
        memcpy(p, prefix, plen);
        p += plen;
        *p++ = '\t';
        if (f.file.len > 0)
            memcpy(p, f.file.data, f.file.len);
        p += f.file.len;
        *p++ = ':';
        p += gtr__fmt_u64(p, f.line);
        *p++ = '\n';
        *p = '\0';
        out->len = (size_t)(p - out->data);
    }
    return gtr_buf_status(out);
}

gtr_status gtr_stack_string(gtr_stack s, gtr_buf *out)
{
    if (out == NULL)
        return GTR_E_USAGE;
    return gtr__print_stack(out, "", s, NULL);
}

/* ---- details ------------------------------------------------------------------------- */

gtr_status gtr_event_metric(const gtr_event *ev, gtr_metric *out, gtr_err *err)
{
    const char *name;

    if (ev == NULL || out == NULL || gtr_event_get_kind(ev) != GTR_EVENT_METRIC) {
        /* Go: panic("Metric called on non-Metric event") */
        return GTR__ERR_LIT(err, GTR_E_USAGE, "Metric called on non-Metric event");
    }
    switch (ev->type_) {
    case GTR_EV_PROCS_CHANGE:
        name = "/sched/gomaxprocs:threads";
        break;
    case GTR_EV_HEAP_ALLOC:
        name = "/memory/classes/heap/objects:bytes";
        break;
    default: /* GTR_EV_HEAP_GOAL: the only other Metric type. */
        name = "/gc/heap/goal:bytes";
        break;
    }
    out->name = (gtr_str){name, strlen(name)};
    out->value = gtr_uint64_value(ev->args_[0]);
    return GTR_OK;
}

gtr_status gtr_event_label(const gtr_event *ev, gtr_label *out, gtr_err *err)
{
    if (ev == NULL || out == NULL || gtr_event_get_kind(ev) != GTR_EVENT_LABEL) {
        /* Go: panic("Label called on non-Label event") */
        return GTR__ERR_LIT(err, GTR_E_USAGE, "Label called on non-Label event");
    }
    out->resource = gtr_make_resource_goroutine(ev->g_);
    return gtr__must_string(ev->table_, ev->args_[0], &out->label, err);
}

static bool is_range_kind(gtr_event_kind k)
{
    return k == GTR_EVENT_RANGE_BEGIN || k == GTR_EVENT_RANGE_ACTIVE || k == GTR_EVENT_RANGE_END;
}

static void set_static(gtr_str *s, const char *text)
{
    s->data = text;
    s->len = strlen(text);
}

static void set_static_range_name(gtr_range *r, const char *text)
{
    r->name_ext_ = text;
    r->name_len_ = strlen(text);
}

gtr_status gtr_event_range(const gtr_event *ev, gtr_range *out, gtr_err *err)
{
    gtr_status st;
    gtr_str kind;

    if (ev == NULL || out == NULL || !is_range_kind(gtr_event_get_kind(ev))) {
        /* Go: panic("Range called on non-Range event") */
        return GTR__ERR_LIT(err, GTR_E_USAGE, "Range called on non-Range event");
    }
    out->name_buf_[0] = '\0';
    out->name_ext_ = NULL;
    out->name_len_ = 0;
    switch (ev->type_) {
    case GTR_EV_STW_BEGIN:
    case GTR_EV_STW_END:
        /* N.B. the ordering smuggles the STW reason into args[0] for STWEnd too. */
        if ((st = gtr__must_string(ev->table_, ev->args_[0], &kind, err)) < 0)
            return st;
        if (kind.len > sizeof out->name_buf_ - sizeof "stop-the-world ()") {
            return gtr_err_setf(err, GTR_E_LIMIT, "stop-the-world kind of %zu bytes is too long",
                                kind.len);
        }
        memcpy(out->name_buf_, "stop-the-world (", 16);
        memcpy(out->name_buf_ + 16, kind.data, kind.len);
        out->name_buf_[16 + kind.len] = ')';
        out->name_buf_[17 + kind.len] = '\0';
        out->name_len_ = 17 + kind.len;   /* name_ext_ NULL: in name_buf_ */
        out->scope = gtr_make_resource_goroutine(ev->g_);
        break;
    case GTR_EV_GC_BEGIN:
    case GTR_EV_GC_ACTIVE:
    case GTR_EV_GC_END:
        set_static_range_name(out, "GC concurrent mark phase");
        out->scope = (gtr_resource_id){GTR_RESOURCE_NONE, 0};
        break;
    case GTR_EV_GC_SWEEP_BEGIN:
    case GTR_EV_GC_SWEEP_ACTIVE:
    case GTR_EV_GC_SWEEP_END:
        set_static_range_name(out, "GC incremental sweep");
        out->scope = gtr_make_resource_proc(ev->type_ == GTR_EV_GC_SWEEP_ACTIVE
                                                ? (gtr_procid)ev->args_[0]
                                                : ev->p_);
        break;
    default: /* GCMarkAssistBegin, GCMarkAssistActive, GCMarkAssistEnd */
        set_static_range_name(out, "GC mark assist");
        out->scope = gtr_make_resource_goroutine(ev->type_ == GTR_EV_GC_MARK_ASSIST_ACTIVE
                                                     ? (gtr_goid)ev->args_[0]
                                                     : ev->g_);
        break;
    }
    return GTR_OK;
}

gtr_status gtr_event_range_attributes(const gtr_event *ev,
                                      gtr_range_attribute out[GTR_MAX_RANGE_ATTRIBUTES],
                                      size_t *n, gtr_err *err)
{
    if (ev == NULL || out == NULL || n == NULL ||
        gtr_event_get_kind(ev) != GTR_EVENT_RANGE_END) {
        /* Go: panic("Range called on non-Range event") (sic, in RangeAttributes) */
        return GTR__ERR_LIT(err, GTR_E_USAGE, "Range called on non-Range event");
    }
    *n = 0;
    if (ev->type_ != GTR_EV_GC_SWEEP_END)
        return GTR_OK;
    set_static(&out[0].name, "bytes swept");
    out[0].value = gtr_uint64_value(ev->args_[0]);
    set_static(&out[1].name, "bytes reclaimed");
    out[1].value = gtr_uint64_value(ev->args_[1]);
    *n = 2;
    return GTR_OK;
}

gtr_status gtr_event_task(const gtr_event *ev, gtr_task *out, gtr_err *err)
{
    gtr_event_kind k = gtr_event_get_kind(ev);

    if (ev == NULL || out == NULL || (k != GTR_EVENT_TASK_BEGIN && k != GTR_EVENT_TASK_END)) {
        /* Go: panic("Task called on non-Task event") */
        return GTR__ERR_LIT(err, GTR_E_USAGE, "Task called on non-Task event");
    }
    out->id = ev->args_[0];
    if (ev->type_ == GTR_EV_USER_TASK_BEGIN) {
        out->parent = ev->args_[1];
        return gtr__must_string(ev->table_, ev->args_[2], &out->type, err);
    }
    /* UserTaskEnd: the ordering put the parent and an extra string ID in extra(). */
    out->parent = gtr__extra_arg(ev, 0);
    out->type = ev->table_ != NULL ? gtr__evt_extra_string(ev->table_, gtr__extra_arg(ev, 1))
                                   : (gtr_str){"", 0};
    return GTR_OK;
}

gtr_status gtr_event_region(const gtr_event *ev, gtr_region *out, gtr_err *err)
{
    gtr_event_kind k = gtr_event_get_kind(ev);

    if (ev == NULL || out == NULL || (k != GTR_EVENT_REGION_BEGIN && k != GTR_EVENT_REGION_END)) {
        /* Go: panic("Region called on non-Region event") */
        return GTR__ERR_LIT(err, GTR_E_USAGE, "Region called on non-Region event");
    }
    out->task = ev->args_[0];
    return gtr__must_string(ev->table_, ev->args_[1], &out->type, err);
}

gtr_status gtr_event_log(const gtr_event *ev, gtr_log *out, gtr_err *err)
{
    gtr_status st;

    if (ev == NULL || out == NULL || gtr_event_get_kind(ev) != GTR_EVENT_LOG) {
        /* Go: panic("Log called on non-Log event") */
        return GTR__ERR_LIT(err, GTR_E_USAGE, "Log called on non-Log event");
    }
    out->task = ev->args_[0];
    out->message = (gtr_str){"", 0};
    if ((st = gtr__must_string(ev->table_, ev->args_[1], &out->category, err)) < 0)
        return st;
    return gtr__must_string(ev->table_, ev->args_[2], &out->message, err);
}

gtr_status gtr__status_index_panic(gtr_err *err, uint64_t i)
{
    /* Go: panic: runtime error: index out of range [%d] with length 5 */
    return gtr__err_index(err, i, 5);
}

gtr_status gtr_event_state_transition(const gtr_event *ev, gtr_state_transition *out,
                                      gtr_err *err)
{
    return gtr__event_state_transition(ev, out, err);
}

gtr_status gtr_event_sync(const gtr_event *ev, gtr_sync *out, gtr_err *err)
{
    if (ev == NULL || out == NULL || gtr_event_get_kind(ev) != GTR_EVENT_SYNC) {
        /* Go: panic("Sync called on non-Sync event") */
        return GTR__ERR_LIT(err, GTR_E_USAGE, "Sync called on non-Sync event");
    }
    memset(out, 0, sizeof *out);
    out->n = (int64_t)ev->args_[0];
    out->table_ = ev->table_;
    if (ev->table_ != NULL) {
        const gtr__sync *s = gtr__evt_sync(ev->table_);
        if (s != NULL && s->has_clock_snapshot) {
            out->has_clock_snapshot = true;
            out->clock.trace = gtr__freq_mul(s->freq, s->snap_time);
            gtr__wall_unix(s->snap_wall_sec, s->snap_wall_nsec, &out->clock.wall_sec,
                           &out->clock.wall_nsec);
            out->clock.mono = s->snap_mono;
        }
    }
    return GTR_OK;
}

size_t gtr_sync_experimental_batch_count(const gtr_sync *s, unsigned exp)
{
    const gtr__exp_batch *b;
    if (s == NULL || s->table_ == NULL)
        return 0;
    return gtr__evt_exp_batches(s->table_, exp, &b);
}

gtr_status gtr_sync_experimental_batch(const gtr_sync *s, unsigned exp, size_t i,
                                       gtr_experimental_batch *out, gtr_err *err)
{
    const gtr__exp_batch *b = NULL;
    size_t n = 0;

    if (s != NULL && s->table_ != NULL)
        n = gtr__evt_exp_batches(s->table_, exp, &b);
    if (out == NULL || i >= n) {
        /* Go: panic: runtime error: index out of range [%d] with length %d */
        return gtr__err_index(err, i, n);
    }
    out->thread = b[i].thread;
    out->data = b[i].data;
    out->len = b[i].len;
    return GTR_OK;
}

gtr_status gtr_clock_snapshot_wall_string(const gtr_clock_snapshot *c, gtr_buf *out)
{
    if (c == NULL || out == NULL)
        return GTR_E_USAGE;
    return gtr__wall_rfc3339nano(c->wall_sec, c->wall_nsec, out);
}

gtr_status gtr_event_experimental(const gtr_event *ev, gtr_experimental_event *out,
                                  gtr_err *err)
{
    const gtr_event_spec *spec;
    const char *exp;

    if (ev == NULL || out == NULL || gtr_event_get_kind(ev) != GTR_EVENT_EXPERIMENTAL) {
        /* Go: panic("Experimental called on non-Experimental event") */
        return GTR__ERR_LIT(err, GTR_E_USAGE, "Experimental called on non-Experimental event");
    }
    spec = gtr_spec(ev->type_);
    memset(out, 0, sizeof *out);
    out->name = spec->name;
    exp = gtr_experiment_name(spec->experiment);
    out->experiment = exp != NULL ? exp : "";
    /* Skip the timestamp, already handled. */
    out->nargs = spec->nargs > 0 ? (size_t)spec->nargs - 1 : 0;
    if (out->nargs > GTR_MAX_EXPERIMENTAL_ARGS)
        out->nargs = GTR_MAX_EXPERIMENTAL_ARGS;
    for (size_t i = 0; i < out->nargs; i++) {
        out->args[i] = spec->args[i + 1];
        out->arg_values_[i] = ev->args_[i];
    }
    out->table_ = ev->table_;
    return GTR_OK;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* arg_index_panic: "experimental event argument index %d out of bounds [0, %d)". */
static gtr_status arg_index_panic(gtr_err *err, int i, size_t n)
{
    static const char head[] = "experimental event argument index ";
    static const char mid[] = " out of bounds [0, ";
    char b[sizeof head + sizeof mid + 48];
    size_t at = 0;
    if (err == NULL)
        return GTR_E_USAGE;
    gtr__err_put(b, &at, head, sizeof head - 1);
    gtr__err_put_dec(b, &at, i < 0 ? 0 - (uint64_t)(int64_t)i : (uint64_t)i, i < 0);
    gtr__err_put(b, &at, mid, sizeof mid - 1);
    gtr__err_put_dec(b, &at, n, false);
    gtr__err_put(b, &at, ")", 1);
    return gtr__err_setn(err, GTR_E_USAGE, b, at);
}

gtr_status gtr_experimental_arg_value(const gtr_experimental_event *e, int i, gtr_value *out,
                                      gtr_err *err)
{
    gtr_status st;
    gtr_str s;

    if (e == NULL || out == NULL || i < 0 || (size_t)i >= e->nargs) {
        /* Go: panic(fmt.Sprintf("experimental event argument index %d out of bounds [0, %d)",
         *     i, len(e.Args))) */
        return arg_index_panic(err, i, e != NULL ? e->nargs : 0);
    }
    if (has_suffix(e->args[i], "string")) {
        if ((st = gtr__must_string(e->table_, e->arg_values_[i], &s, err)) < 0)
            return st;
        *out = gtr_string_value(s.data, s.len);
        return GTR_OK;
    }
    *out = gtr_uint64_value(e->arg_values_[i]);
    return GTR_OK;
}

/* ---- String() ------------------------------------------------------------------------ */

static void put_q(gtr_buf *out, gtr_str s)
{
    gtr_go_quote(out, s.data, s.len);
}

/* put_stack prints s with sp, or directly without one. */
static gtr_status put_stack(gtr_buf *out, gtr_stack s, const gtr__stack_printer *sp,
                            gtr_err *err)
{
    if (sp != NULL)
        return sp->print(sp->ctx, out, s, err);
    return gtr__print_stack(out, "\t", s, err);
}

static gtr_status string_details(const gtr_event *ev, gtr_event_kind kind, gtr_buf *out,
                                 const gtr__stack_printer *sp, gtr_err *err)
{
    gtr_status st = GTR_OK;

    switch (kind) {
    case GTR_EVENT_METRIC: {
        gtr_metric m;
        if ((st = gtr_event_metric(ev, &m, err)) < 0)
            return st;
        gtr_buf_puts(out, " Name=");
        put_q(out, m.name);
        gtr_buf_puts(out, " Value=");
        return gtr_value_string(&m.value, out);
    }
    case GTR_EVENT_LABEL: {
        gtr_label l;
        if ((st = gtr_event_label(ev, &l, err)) < 0)
            return st;
        gtr_buf_puts(out, " Label=");
        put_q(out, l.label);
        gtr_buf_puts(out, " Resource=");
        return gtr_resource_id_string(l.resource, out);
    }
    case GTR_EVENT_RANGE_BEGIN:
    case GTR_EVENT_RANGE_ACTIVE:
    case GTR_EVENT_RANGE_END: {
        gtr_range r;
        gtr_range_attribute attrs[GTR_MAX_RANGE_ATTRIBUTES];
        size_t n = 0;
        if ((st = gtr_event_range(ev, &r, err)) < 0)
            return st;
        gtr_buf_puts(out, " Name=");
        put_q(out, gtr_range_name(&r));
        gtr_buf_puts(out, " Scope=");
        gtr_resource_id_string(r.scope, out);
        if (kind == GTR_EVENT_RANGE_END) {
            if ((st = gtr_event_range_attributes(ev, attrs, &n, err)) < 0)
                return st;
            gtr_buf_puts(out, " Attributes=[");
            for (size_t i = 0; i < n; i++) {
                if (i != 0)
                    putch(out, ' ');
                put_q(out, attrs[i].name);
                putch(out, '=');
                gtr_value_string(&attrs[i].value, out);
            }
            putch(out, ']');
        }
        return GTR_OK;
    }
    case GTR_EVENT_TASK_BEGIN:
    case GTR_EVENT_TASK_END: {
        gtr_task t;
        if ((st = gtr_event_task(ev, &t, err)) < 0)
            return st;
        PUT_LIT(out, " ID=");
        put_u64(out, t.id);
        PUT_LIT(out, " Parent=");
        put_u64(out, t.parent);
        PUT_LIT(out, " Type=");
        put_q(out, t.type);
        return GTR_OK;
    }
    case GTR_EVENT_REGION_BEGIN:
    case GTR_EVENT_REGION_END: {
        gtr_region r;
        if ((st = gtr_event_region(ev, &r, err)) < 0)
            return st;
        PUT_LIT(out, " Task=");
        put_u64(out, r.task);
        PUT_LIT(out, " Type=");
        put_q(out, r.type);
        return GTR_OK;
    }
    case GTR_EVENT_LOG: {
        gtr_log l;
        if ((st = gtr_event_log(ev, &l, err)) < 0)
            return st;
        PUT_LIT(out, " Task=");
        put_u64(out, l.task);
        PUT_LIT(out, " Category=");
        put_q(out, l.category);
        PUT_LIT(out, " Message=");
        put_q(out, l.message);
        return GTR_OK;
    }
    case GTR_EVENT_STATE_TRANSITION: {
        gtr_state_transition s;
        if ((st = gtr_event_state_transition(ev, &s, err)) < 0)
            return st;
        /* " ProcID=" or " GoID=", the ID, ' ', two state names (16 bytes of room each),
         * "->" and " Reason=". */
        char *p = room(out, 8 + GTR__I64_MAX_LEN + 1 + 16 + 2 + 16 + 8 + 2);
        if (p == NULL)
            return GTR_OK;   /* the buffer has failed: gtr_event_format reports it */
        if (s.resource.kind == GTR_RESOURCE_GOROUTINE) {
            p = CPY_LIT(p, " GoID=");
            p += gtr__fmt_i64(p, s.resource.id);
            *p++ = ' ';
            p = cpy_name(p, gtr__go_state_name((gtr_go_state)s.old_state_));
            p = CPY_LIT(p, "->");
            p = cpy_name(p, gtr__go_state_name((gtr_go_state)s.new_state_));
        } else if (s.resource.kind == GTR_RESOURCE_PROC) {
            p = CPY_LIT(p, " ProcID=");
            p += gtr__fmt_i64(p, s.resource.id);
            *p++ = ' ';
            p = cpy_name(p, gtr__proc_state_name((gtr_proc_state)s.old_state_));
            p = CPY_LIT(p, "->");
            p = cpy_name(p, gtr__proc_state_name((gtr_proc_state)s.new_state_));
        }
        p = CPY_LIT(p, " Reason=");
        if (s.reason.len == 0) {   /* most transitions: the quoted "" in the room made */
            p = CPY_LIT(p, "\"\"");
            commit(out, p);
        } else {
            commit(out, p);
            put_q(out, s.reason);
        }
        if (!gtr_stack_is_none(s.stack)) {
            gtr_buf_puts(out, "\nTransitionStack=\n");
            return put_stack(out, s.stack, sp, err);
        }
        return GTR_OK;
    }
    case GTR_EVENT_EXPERIMENTAL: {
        gtr_experimental_event x;
        if ((st = gtr_event_experimental(ev, &x, err)) < 0)
            return st;
        gtr_buf_printf(out, " Name=%s Args=[", x.name);
        for (size_t i = 0; i < x.nargs; i++) {
            gtr_value v;
            if (i != 0)
                gtr_buf_puts(out, ", ");
            if ((st = gtr_experimental_arg_value(&x, (int)i, &v, err)) < 0)
                return st;
            gtr_buf_printf(out, "%s=", x.args[i]);
            gtr_value_string(&v, out);
        }
        putch(out, ']');
        return GTR_OK;
    }
    case GTR_EVENT_SYNC: {
        gtr_sync s;
        if ((st = gtr_event_sync(ev, &s, err)) < 0)
            return st;
        gtr_buf_printf(out, " N=%" PRId64, s.n);
        if (s.has_clock_snapshot) {
            gtr_buf_printf(out, " Trace=%" PRId64 " Mono=%" PRIu64 " Wall=", s.clock.trace,
                           s.clock.mono);
            return gtr__wall_rfc3339nano(s.clock.wall_sec, s.clock.wall_nsec, out);
        }
        return GTR_OK;
    }
    default:
        return GTR_OK;
    }
}

gtr_status gtr_event_string(const gtr_event *ev, gtr_buf *out)
{
    return gtr_event_format(ev, out, NULL);
}

gtr_status gtr_event_format(const gtr_event *ev, gtr_buf *out, gtr_err *err)
{
    return gtr__event_format(ev, out, NULL, err);
}

gtr_status gtr__event_format(const gtr_event *ev, gtr_buf *out, const gtr__stack_printer *sp,
                             gtr_err *err)
{
    gtr_event_kind kind;
    gtr_stack stk;
    gtr_status st;

    if (ev == NULL || out == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_event_format: NULL %s",
                            ev == NULL ? "event" : "buffer");
    kind = gtr_event_get_kind(ev);
    /* "M=", " P=", " G=", ' ', the kind (16 bytes of room), " Time=" and four numbers. */
    char *p = room(out, 2 + 3 + 3 + 1 + 16 + 6 + 4 * GTR__I64_MAX_LEN);
    if (p == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory formatting an event");
    p = CPY_LIT(p, "M=");
    p += gtr__fmt_i64(p, ev->m_);
    p = CPY_LIT(p, " P=");
    p += gtr__fmt_i64(p, ev->p_);
    p = CPY_LIT(p, " G=");
    p += gtr__fmt_i64(p, ev->g_);
    *p++ = ' ';
    p = cpy_name(p, kind_name_of(kind));
    p = CPY_LIT(p, " Time=");
    p += gtr__fmt_i64(p, ev->time_);
    commit(out, p);
    if ((st = string_details(ev, kind, out, sp, err)) < 0)
        return st;
    stk = gtr_event_stack(ev);
    if (!gtr_stack_is_none(stk)) {
        gtr_buf_puts(out, "\nStack=\n");
        if ((st = put_stack(out, stk, sp, err)) < 0)
            return st;
    }
    if ((st = gtr_buf_status(out)) < 0)
        return gtr_err_setf(err, st, "out of memory formatting an event");
    return GTR_OK;
}

/* ---- MakeEvent / MakeStack ------------------------------------------------------------- */

struct gtr_event_builder {
    gtr_alloc alc;
    gtr__ev_table **tables;   /* every table made, freed with the builder */
    size_t ntables, tables_cap;
    gtr_frame *pending;       /* frames added by addStack, in order (see register_frames) */
    size_t npending, pending_cap;
    uint64_t *pcs;
    size_t pcs_cap;
};

/* One table under construction (Go's evTable with dataTable.append IDs). */
typedef struct make_ctx {
    gtr_event_builder *b;
    gtr__ev_table *t;
    uint64_t next_string, next_stack;
    gtr_err *err;
} make_ctx;

gtr_status gtr_event_builder_new(const gtr_alloc *alc, gtr_event_builder **out, gtr_err *err)
{
    const gtr_alloc *a = gtr__alloc_or_libc(alc);
    gtr_event_builder *b;

    if (out == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_event_builder_new: NULL out");
    *out = NULL;
    if ((b = gtr__calloc(a, 1, sizeof *b)) == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    b->alc = *a;
    *out = b;
    return GTR_OK;
}

void gtr_event_builder_free(gtr_event_builder *b)
{
    if (b == NULL)
        return;
    for (size_t i = 0; i < b->ntables; i++)
        gtr__evt_free(b->tables[i]);
    gtr__free(&b->alc, b->tables);
    gtr__free(&b->alc, b->pending);
    gtr__free(&b->alc, b->pcs);
    gtr__free(&b->alc, b);
}

static gtr_status nomem(gtr_err *err)
{
    return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
}

static gtr_status ctx_begin(make_ctx *m, gtr_event_builder *b, gtr_err *err)
{
    m->b = b;
    m->t = NULL;
    m->next_string = 1;
    m->next_stack = 1;
    m->err = err;
    b->npending = 0;
    if (!GTR__GROW(&b->alc, b->tables, b->tables_cap, b->ntables + 1))
        return nomem(err);
    return gtr__evt_new(&b->alc, &m->t, err);
}

/* add_string is strings.append: a new ID for every call. */
static gtr_status add_string(make_ctx *m, gtr_str s, uint64_t *id)
{
    *id = m->next_string++;
    return gtr__evt_add_string(m->t, *id, s.data, s.len, m->err);
}

/* add_frames is Go's addStack: the frames are remembered (their strings and PCs are entered
 * by register_frames) and the PCs become a new stack. */
static gtr_status add_frames(make_ctx *m, const gtr_frame *frames, size_t n, uint64_t *id)
{
    gtr_event_builder *b = m->b;
    if (!GTR__GROW(&b->alc, b->pending, b->pending_cap, b->npending + n) ||
        !GTR__GROW(&b->alc, b->pcs, b->pcs_cap, n + 1))
        return nomem(m->err);
    for (size_t i = 0; i < n; i++) {
        b->pending[b->npending++] = frames[i];
        b->pcs[i] = frames[i].pc;
    }
    *id = m->next_stack++;
    return gtr__evt_add_stack(m->t, *id, b->pcs, n, m->err);
}

/* add_stack is addStack(table, slices.Collect(s.Frames())). */
static gtr_status add_stack(make_ctx *m, gtr_stack s, uint64_t *id)
{
    gtr_event_builder *b = m->b;
    size_t n = gtr_stack_len(s), base = b->npending;
    gtr_status st;

    if (!GTR__GROW(&b->alc, b->pending, b->pending_cap, base + n))
        return nomem(m->err);
    for (size_t i = 0; i < n; i++)
        if ((st = gtr_stack_frame(s, i, &b->pending[base + i], m->err)) < 0)
            return st;
    /* add_frames copies from the end of pending onto itself: same positions. (No frames:
     * pending may still be NULL, and NULL + 0 is undefined in C.) */
    b->npending = base;
    return add_frames(m, n > 0 ? b->pending + base : NULL, n, id);
}

/* register_frames enters every frame's strings and PC. Go assigns table.pcs[pc] for each
 * frame in turn, so the last definition of a PC wins; the table keeps the first, so the
 * frames go in backwards. */
static gtr_status register_frames(make_ctx *m)
{
    gtr_event_builder *b = m->b;
    gtr_status st;

    for (size_t i = b->npending; i-- > 0;) {
        const gtr_frame *f = &b->pending[i];
        gtr__frame tf = {f->pc, 0, 0, f->line};
        if ((st = add_string(m, f->func, &tf.func_id)) < 0 ||
            (st = add_string(m, f->file, &tf.file_id)) < 0 ||
            (st = gtr__evt_add_frame(m->t, &tf, m->err)) < 0)
            return st;
    }
    b->npending = 0;
    return GTR_OK;
}

static gtr_status ctx_finish(make_ctx *m, const gtr__sync *sync)
{
    gtr_status st;
    if ((st = register_frames(m)) < 0 || (st = gtr__evt_compactify(m->t, m->err)) < 0)
        return st;
    gtr__evt_set_sync(m->t, sync);
    m->b->tables[m->b->ntables++] = m->t;
    m->t = NULL;
    return GTR_OK;
}

gtr_status gtr_make_stack(gtr_event_builder *b, const gtr_frame *frames, size_t n,
                          gtr_stack *out, gtr_err *err)
{
    static const gtr__sync no_sync = {1.0, false, 0, 0, 0, 0};
    make_ctx m;
    uint64_t id;
    gtr_status st;

    if (b == NULL || out == NULL || (frames == NULL && n > 0))
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_make_stack: NULL argument");
    if ((st = ctx_begin(&m, b, err)) < 0 || (st = add_frames(&m, frames, n, &id)) < 0 ||
        (st = ctx_finish(&m, &no_sync)) < 0) {
        gtr__evt_free(m.t);
        return st;
    }
    out->table_ = b->tables[b->ntables - 1];
    out->id_ = id;
    return GTR_OK;
}

static const char *details_type_name(gtr_details_kind d)
{
    switch (d) {
    case GTR_DETAILS_METRIC: return "trace.Metric";
    case GTR_DETAILS_LABEL: return "trace.Label";
    case GTR_DETAILS_RANGE: return "trace.Range";
    case GTR_DETAILS_STATE_TRANSITION: return "trace.StateTransition";
    case GTR_DETAILS_SYNC: return "trace.Sync";
    case GTR_DETAILS_TASK: return "trace.Task";
    case GTR_DETAILS_REGION: return "trace.Region";
    case GTR_DETAILS_LOG: return "trace.Log";
    case GTR_DETAILS_STACK_SAMPLE: return "trace.StackSample";
    }
    return "<nil>";
}

/* resource_string formats r into buf (for error messages). */
static const char *resource_string(gtr_resource_id r, char *buf, size_t n)
{
    if (r.kind == GTR_RESOURCE_NONE)
        snprintf(buf, n, "None");
    else
        snprintf(buf, n, "%s(%" PRId64 ")", gtr_resource_kind_string((gtr_resource_kind)r.kind),
                 r.id);
    return buf;
}

static bool str_eq(gtr_str s, const char *lit)
{
    size_t n = strlen(lit);
    return s.len == n && memcmp(s.data, lit, n) == 0;
}

static gtr_status make_metric(make_ctx *m, const gtr_metric *d, gtr_event *e)
{
    gtr_buf v = {0};
    if (d->value.kind != GTR_VALUE_UINT64) {
        gtr_status st;
        gtr_value_string(&d->value, &v);
        /* Go: fmt.Errorf("metric value must be a uint64, got: %s", m.Value.String()) */
        gtr_err_setf(m->err, GTR_E_INVALID, "metric value must be a uint64, got: ");
        st = gtr_err_appendn(m->err, v.data, v.len);
        gtr_buf_free(&v);
        return st;
    }
    if (str_eq(d->name, "/sched/gomaxprocs:threads"))
        e->type_ = GTR_EV_PROCS_CHANGE;
    else if (str_eq(d->name, "/memory/classes/heap/objects:bytes"))
        e->type_ = GTR_EV_HEAP_ALLOC;
    else if (str_eq(d->name, "/gc/heap/goal:bytes"))
        e->type_ = GTR_EV_HEAP_GOAL;
    else { /* Go: fmt.Errorf("unknown metric name: %s", m.Name) */
        gtr_err_setf(m->err, GTR_E_INVALID, "unknown metric name: ");
        return gtr_err_appendn(m->err, d->name.data, d->name.len);
    }
    e->args_[0] = d->value.u64;
    return GTR_OK;
}

static gtr_status make_label(make_ctx *m, const gtr_label *d, gtr_event *e)
{
    char rb[64];
    if (d->resource.kind != GTR_RESOURCE_GOROUTINE) {
        /* Go: fmt.Errorf("resource must be a goroutine: %s", l.Resource) */
        return gtr_err_setf(m->err, GTR_E_INVALID, "resource must be a goroutine: %s",
                            resource_string(d->resource, rb, sizeof rb));
    }
    e->type_ = GTR_EV_GO_LABEL;
    e->g_ = d->resource.id;
    return add_string(m, d->label, &e->args_[0]);
}

/* stw_kind matches Go's `^stop-the-world \((.*)\)$` (`.` does not match "\n"). */
static bool stw_kind(gtr_str name, gtr_str *kind)
{
    static const char prefix[] = "stop-the-world (";
    size_t np = sizeof prefix - 1;
    if (name.len < np + 1 || memcmp(name.data, prefix, np) != 0 || name.data[name.len - 1] != ')')
        return false;
    kind->data = name.data + np;
    kind->len = name.len - np - 1;
    return memchr(kind->data, '\n', kind->len) == NULL;
}

static gtr_status make_range(make_ctx *m, gtr_event_kind kind, const gtr_range *d, gtr_event *e)
{
    char rb[64];
    gtr_str stw;
    gtr_resource_kind want;
    static const uint8_t types[4][3] = {
        /* RangeBegin, RangeActive, RangeEnd */
        {GTR_EV_GC_BEGIN, GTR_EV_GC_ACTIVE, GTR_EV_GC_END},
        {GTR_EV_GC_SWEEP_BEGIN, GTR_EV_GC_SWEEP_ACTIVE, GTR_EV_GC_SWEEP_END},
        {GTR_EV_GC_MARK_ASSIST_BEGIN, GTR_EV_GC_MARK_ASSIST_ACTIVE, GTR_EV_GC_MARK_ASSIST_END},
        {GTR_EV_STW_BEGIN, 0, GTR_EV_STW_END},
    };
    int which;

    gtr_str name = gtr_range_name(d);

    if (str_eq(name, "GC concurrent mark phase"))
        which = 0, want = GTR_RESOURCE_NONE;
    else if (str_eq(name, "GC incremental sweep"))
        which = 1, want = GTR_RESOURCE_PROC;
    else if (str_eq(name, "GC mark assist"))
        which = 2, want = GTR_RESOURCE_GOROUTINE;
    else if (stw_kind(name, &stw))
        which = 3, want = GTR_RESOURCE_GOROUTINE;
    else { /* Go: fmt.Errorf("unexpected range name: %s", r.Name) */
        gtr_err_setf(m->err, GTR_E_INVALID, "unexpected range name: ");
        return gtr_err_appendn(m->err, name.data, name.len);
    }
    if (d->scope.kind != want) {
        /* Go: fmt.Errorf("unexpected scope: %s", r.Scope) */
        return gtr_err_setf(m->err, GTR_E_INVALID, "unexpected scope: %s",
                            resource_string(d->scope, rb, sizeof rb));
    }
    if (!is_range_kind(kind) || types[which][kind - GTR_EVENT_RANGE_BEGIN] == 0) {
        /* Go: fmt.Errorf("unexpected range kind: %s", kind) */
        return gtr_err_setf(m->err, GTR_E_INVALID, "unexpected range kind: %s",
                            gtr_event_kind_string(kind));
    }
    e->type_ = types[which][kind - GTR_EVENT_RANGE_BEGIN];
    switch (which) {
    case 1: /* sweep: Active names its P, Begin and End run on it */
    case 2: /* mark assist: the same with goroutines */
        if (kind == GTR_EVENT_RANGE_ACTIVE)
            e->args_[0] = (uint64_t)d->scope.id;
        else if (which == 1)
            e->p_ = d->scope.id;
        else
            e->g_ = d->scope.id;
        return GTR_OK;
    case 3:
        e->g_ = d->scope.id;
        return add_string(m, stw, &e->args_[0]);
    default:
        return GTR_OK;
    }
}

static gtr_status transition_error(make_ctx *m, gtr_go_state from, gtr_go_state to)
{
    /* Go: fmt.Errorf("unexpected transition: %s -> %s", from, to) */
    return gtr_err_setf(m->err, GTR_E_INVALID, "unexpected transition: %s -> %s",
                        gtr_go_state_string(from), gtr_go_state_string(to));
}

/* goState2Tracev2GoStatus and procState2Tracev2ProcStatus (0 past their ends). */
static uint64_t go_status_of(gtr_go_state s)
{
    switch (s) {
    case GTR_GO_RUNNABLE: return GTR_GSTATUS_RUNNABLE;
    case GTR_GO_RUNNING: return GTR_GSTATUS_RUNNING;
    case GTR_GO_WAITING: return GTR_GSTATUS_WAITING;
    case GTR_GO_SYSCALL: return GTR_GSTATUS_SYSCALL;
    default: return 0;
    }
}

static uint64_t proc_status_of(gtr_proc_state s)
{
    return s == GTR_PROC_RUNNING ? GTR_PSTATUS_RUNNING : s == GTR_PROC_IDLE ? GTR_PSTATUS_IDLE : 0;
}

static gtr_status make_transition(make_ctx *m, const gtr_state_transition *d, gtr_event *e)
{
    char rb[64];
    uint64_t *a = e->args_;

    if (d->resource.kind == GTR_RESOURCE_PROC) {
        gtr_proc_state from = (gtr_proc_state)d->old_state_, to = (gtr_proc_state)d->new_state_;
        if (from == GTR_PROC_IDLE && to == GTR_PROC_IDLE) {
            e->type_ = GTR_EV_PROC_STEAL;
            a[0] = (uint64_t)d->resource.id;
            a[gtr__extra_index(e->type_)] = GTR_PSTATUS_SYSCALL_ABANDONED;
        } else if (from == GTR_PROC_IDLE && to == GTR_PROC_RUNNING) {
            e->type_ = GTR_EV_PROC_START;
            a[0] = (uint64_t)d->resource.id;
        } else if (from == GTR_PROC_RUNNING && to == GTR_PROC_IDLE) {
            e->type_ = GTR_EV_PROC_STOP;
            if (d->resource.id != e->p_) {
                e->type_ = GTR_EV_PROC_STEAL;
                a[0] = (uint64_t)d->resource.id;
            }
        } else {
            /* Go indexes procState2Tracev2ProcStatus (length 4) with to, then from. */
            if ((unsigned)to >= 4 || (unsigned)from >= 4)
                return gtr_err_setf(m->err, GTR_E_USAGE,
                                    "runtime error: index out of range [%u] with length 4",
                                    (unsigned)to >= 4 ? (unsigned)to : (unsigned)from);
            e->type_ = GTR_EV_PROC_STATUS;
            a[0] = (uint64_t)d->resource.id;
            a[1] = proc_status_of(to);
            a[gtr__extra_index(e->type_)] = proc_status_of(from);
        }
        return GTR_OK;
    }
    if (d->resource.kind != GTR_RESOURCE_GOROUTINE) {
        /* Go: fmt.Errorf("unsupported state transition resource: %s", t.Resource) */
        return gtr_err_setf(m->err, GTR_E_INVALID, "unsupported state transition resource: %s",
                            resource_string(d->resource, rb, sizeof rb));
    }
    gtr_go_state from = (gtr_go_state)d->old_state_, to = (gtr_go_state)d->new_state_;
    gtr_goid g = d->resource.id;
    if ((from == GTR_GO_UNDETERMINED || from == to) && from != GTR_GO_NOT_EXIST) {
        if ((unsigned)to >= 6) /* Go indexes goState2Tracev2GoStatus (length 6) */
            return gtr_err_setf(m->err, GTR_E_USAGE,
                                "runtime error: index out of range [%u] with length 6", (unsigned)to);
        e->type_ = gtr_stack_len(d->stack) > 0 ? GTR_EV_GO_STATUS_STACK : GTR_EV_GO_STATUS;
        a[0] = (uint64_t)g;
        a[2] = (uint64_t)from << 32 | go_status_of(to);
        return GTR_OK;
    }
    switch (from) {
    case GTR_GO_NOT_EXIST:
        if (to == GTR_GO_WAITING || to == GTR_GO_RUNNABLE) {
            e->type_ = to == GTR_GO_WAITING ? GTR_EV_GO_CREATE_BLOCKED : GTR_EV_GO_CREATE;
            a[0] = (uint64_t)g;
            return add_stack(m, d->stack, &a[1]);
        }
        if (to == GTR_GO_SYSCALL) {
            e->type_ = GTR_EV_GO_CREATE_SYSCALL;
            a[0] = (uint64_t)g;
            return GTR_OK;
        }
        return transition_error(m, from, to);
    case GTR_GO_RUNNABLE:
        e->type_ = GTR_EV_GO_START;
        a[0] = (uint64_t)g;
        return GTR_OK;
    case GTR_GO_RUNNING:
        e->g_ = g;
        switch (to) {
        case GTR_GO_NOT_EXIST: e->type_ = GTR_EV_GO_DESTROY; return GTR_OK;
        case GTR_GO_RUNNABLE: e->type_ = GTR_EV_GO_STOP; return add_string(m, d->reason, &a[0]);
        case GTR_GO_WAITING: e->type_ = GTR_EV_GO_BLOCK; return add_string(m, d->reason, &a[0]);
        case GTR_GO_SYSCALL: e->type_ = GTR_EV_GO_SYSCALL_BEGIN; return GTR_OK;
        default: e->g_ = GTR_NO_GOROUTINE; return transition_error(m, from, to);
        }
    case GTR_GO_SYSCALL:
        e->g_ = g;
        switch (to) {
        case GTR_GO_NOT_EXIST: e->type_ = GTR_EV_GO_DESTROY_SYSCALL; return GTR_OK;
        case GTR_GO_RUNNING: e->type_ = GTR_EV_GO_SYSCALL_END; return GTR_OK;
        case GTR_GO_RUNNABLE: e->type_ = GTR_EV_GO_SYSCALL_END_BLOCKED; return GTR_OK;
        default: return transition_error(m, from, to);
        }
    case GTR_GO_WAITING:
        if (to == GTR_GO_RUNNABLE) {
            e->type_ = GTR_EV_GO_UNBLOCK;
            a[0] = (uint64_t)g;
            return GTR_OK;
        }
        return transition_error(m, from, to);
    default:
        return transition_error(m, from, to);
    }
}

static gtr_status make_details(make_ctx *m, const gtr_event_config *c, gtr_event *e,
                               gtr__sync *sync)
{
    gtr_status st;

    switch (c->details) {
    case GTR_DETAILS_METRIC:
        return make_metric(m, &c->metric, e);
    case GTR_DETAILS_LABEL:
        return make_label(m, &c->label, e);
    case GTR_DETAILS_RANGE:
        return make_range(m, c->kind, &c->range, e);
    case GTR_DETAILS_STATE_TRANSITION:
        return make_transition(m, &c->transition, e);
    case GTR_DETAILS_SYNC:
        e->type_ = GTR_EV_SYNC_EVENT;
        e->args_[0] = (uint64_t)c->sync.n;
        if (c->sync.has_clock_snapshot) {
            /* N.B. the table's frequency is 1. */
            sync->has_clock_snapshot = true;
            sync->snap_wall_sec = (uint64_t)c->sync.clock.wall_sec;
            sync->snap_wall_nsec = (uint64_t)(int64_t)c->sync.clock.wall_nsec;
            sync->snap_mono = c->sync.clock.mono;
            sync->snap_time = (uint64_t)c->sync.clock.trace;
        }
        return GTR_OK;
    case GTR_DETAILS_TASK:
        if (c->task.id == GTR_NO_TASK) /* Go: errors.New("task ID cannot be NoTask") */
            return gtr_err_setf(m->err, GTR_E_INVALID, "task ID cannot be NoTask");
        e->args_[0] = c->task.id;
        if (c->kind == GTR_EVENT_TASK_BEGIN) {
            e->type_ = GTR_EV_USER_TASK_BEGIN;
            e->args_[1] = c->task.parent;
            return add_string(m, c->task.type, &e->args_[2]);
        }
        e->type_ = GTR_EV_USER_TASK_END;
        e->args_[gtr__extra_index(e->type_)] = c->task.parent;
        return gtr__evt_add_extra_string(m->t, c->task.type.data, c->task.type.len,
                                         &e->args_[gtr__extra_index(e->type_) + 1], m->err);
    case GTR_DETAILS_REGION:
        e->type_ = c->kind == GTR_EVENT_REGION_BEGIN ? GTR_EV_USER_REGION_BEGIN
                                                     : GTR_EV_USER_REGION_END;
        e->args_[0] = c->region.task;
        return add_string(m, c->region.type, &e->args_[1]);
    case GTR_DETAILS_LOG:
        e->type_ = GTR_EV_USER_LOG;
        e->args_[0] = c->log.task;
        if ((st = add_string(m, c->log.category, &e->args_[1])) < 0)
            return st;
        return add_string(m, c->log.message, &e->args_[2]);
    case GTR_DETAILS_STACK_SAMPLE:
        e->type_ = GTR_EV_CPU_SAMPLE;
        return add_stack(m, c->stack, &e->args_[0]);
    }
    return GTR_E_USAGE; /* unreachable: checked by details_match */
}

/* details_match: MakeEvent's switch accepts the details type T only for these kinds. */
static bool details_match(gtr_event_kind k, gtr_details_kind d)
{
    switch (d) {
    case GTR_DETAILS_METRIC: return k == GTR_EVENT_METRIC;
    case GTR_DETAILS_LABEL: return k == GTR_EVENT_LABEL;
    case GTR_DETAILS_RANGE: return is_range_kind(k);
    case GTR_DETAILS_STATE_TRANSITION: return k == GTR_EVENT_STATE_TRANSITION;
    case GTR_DETAILS_SYNC: return k == GTR_EVENT_SYNC;
    case GTR_DETAILS_TASK: return k == GTR_EVENT_TASK_BEGIN || k == GTR_EVENT_TASK_END;
    case GTR_DETAILS_REGION: return k == GTR_EVENT_REGION_BEGIN || k == GTR_EVENT_REGION_END;
    case GTR_DETAILS_LOG: return k == GTR_EVENT_LOG;
    case GTR_DETAILS_STACK_SAMPLE: return k == GTR_EVENT_STACK_SAMPLE;
    }
    return false;
}

gtr_status gtr_make_event(gtr_event_builder *b, const gtr_event_config *c, gtr_event *out,
                          gtr_err *err)
{
    gtr__sync sync = {1.0, false, 0, 0, 0, 0};
    make_ctx m = {NULL, NULL, 0, 0, NULL};
    gtr_event e;
    gtr_status st;

    if (b == NULL || c == NULL || out == NULL)
        return gtr_err_setf(err, GTR_E_USAGE, "gtr_make_event: NULL argument");
    memset(out, 0, sizeof *out);
    if (c->kind == GTR_EVENT_BAD) /* Go: fmt.Errorf("the Kind field must be provided") */
        return gtr_err_setf(err, GTR_E_INVALID, "the Kind field must be provided");
    if (!details_match(c->kind, c->details)) {
        /* Go: fmt.Errorf("the Kind field %s is incompatible with Details type %T", ...) */
        return gtr_err_setf(err, GTR_E_INVALID,
                            "the Kind field %s is incompatible with Details type %s",
                            gtr_event_kind_string(c->kind), details_type_name(c->details));
    }
    if ((st = ctx_begin(&m, b, err)) < 0)
        goto fail;
    e = gtr__make_event(m.t, c->goroutine, c->proc, c->thread, 0, c->time);
    if ((st = make_details(&m, c, &e, &sync)) < 0)
        goto fail;
    if (e.type_ != GTR_EV_SYNC_EVENT) {
        /* Go's deferred part: the stack of the main execution context is the first of the
         * spec's StackIDs (minus one: dt is not in args). */
        const gtr_event_spec *spec = gtr_spec(e.type_);
        if (spec->nstack_ids > 0 && !gtr_stack_is_none(c->stack) &&
            (st = add_stack(&m, c->stack, &e.args_[spec->stack_ids[0] - 1])) < 0)
            goto fail;
    }
    if ((st = ctx_finish(&m, &sync)) < 0)
        goto fail;
    *out = e;
    return GTR_OK;
fail:
    gtr__evt_free(m.t);
    return st;
}
