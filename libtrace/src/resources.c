/* SPDX-License-Identifier: BSD-3-Clause */
/* Port of src/internal/trace/resources.go at go1.27.3: resource IDs, goroutine and proc
 * states, and state transitions. */
#include <inttypes.h>

#include "gtr/event.h"
#include "padded_names.h"

bool gtr_go_state_executing(gtr_go_state s)
{
    return s == GTR_GO_RUNNING || s == GTR_GO_SYSCALL;
}

static const gtr__padded_name bad_state = GTR__PADDED_NAME("Bad");
static const gtr__padded_name go_state_names[] = {
    [GTR_GO_UNDETERMINED] = GTR__PADDED_NAME("Undetermined"),
    [GTR_GO_NOT_EXIST] = GTR__PADDED_NAME("NotExist"),
    [GTR_GO_RUNNABLE] = GTR__PADDED_NAME("Runnable"),
    [GTR_GO_RUNNING] = GTR__PADDED_NAME("Running"),
    [GTR_GO_WAITING] = GTR__PADDED_NAME("Waiting"),
    [GTR_GO_SYSCALL] = GTR__PADDED_NAME("Syscall"),
};
static const gtr__padded_name proc_state_names[] = {
    [GTR_PROC_UNDETERMINED] = GTR__PADDED_NAME("Undetermined"),
    [GTR_PROC_NOT_EXIST] = GTR__PADDED_NAME("NotExist"),
    [GTR_PROC_RUNNING] = GTR__PADDED_NAME("Running"),
    [GTR_PROC_IDLE] = GTR__PADDED_NAME("Idle"),
};

const gtr__padded_name *gtr__go_state_name(gtr_go_state s)
{
    if ((unsigned)s >= sizeof go_state_names / sizeof go_state_names[0])
        return &bad_state;
    return &go_state_names[s];
}

const gtr__padded_name *gtr__proc_state_name(gtr_proc_state s)
{
    if ((unsigned)s >= sizeof proc_state_names / sizeof proc_state_names[0])
        return &bad_state;
    return &proc_state_names[s];
}

const char *gtr_go_state_string(gtr_go_state s)
{
    return gtr__go_state_name(s)->s;
}

bool gtr_proc_state_executing(gtr_proc_state s)
{
    return s == GTR_PROC_RUNNING;
}

const char *gtr_proc_state_string(gtr_proc_state s)
{
    return gtr__proc_state_name(s)->s;
}

const char *gtr_resource_kind_string(gtr_resource_kind k)
{
    switch (k) {
    case GTR_RESOURCE_NONE:
        return "None";
    case GTR_RESOURCE_GOROUTINE:
        return "Goroutine";
    case GTR_RESOURCE_PROC:
        return "Proc";
    case GTR_RESOURCE_THREAD:
        return "Thread";
    }
    return "Bad";
}

static gtr_resource_id make_resource(gtr_resource_kind k, int64_t id)
{
    gtr_resource_id r = {(uint8_t)k, id};
    return r;
}

gtr_resource_id gtr_make_resource_goroutine(gtr_goid id)
{
    return make_resource(GTR_RESOURCE_GOROUTINE, id);
}

gtr_resource_id gtr_make_resource_proc(gtr_procid id)
{
    return make_resource(GTR_RESOURCE_PROC, id);
}

gtr_resource_id gtr_make_resource_thread(gtr_threadid id)
{
    return make_resource(GTR_RESOURCE_THREAD, id);
}

/* get_id is ResourceID.Goroutine/Proc/Thread: kind must match, else Go panics with
 * "attempted to get <what> from %s resource ID". */
static gtr_status get_id(gtr_resource_id r, gtr_resource_kind want, const char *what,
                         int64_t *out, gtr_err *err)
{
    if (r.kind != want) {
        /* Go: panic(fmt.Sprintf("attempted to get GoID from %s resource ID", r.Kind)) */
        return gtr_err_setf(err, GTR_E_USAGE, "attempted to get %s from %s resource ID", what,
                            gtr_resource_kind_string((gtr_resource_kind)r.kind));
    }
    if (out != NULL)
        *out = r.id;
    return GTR_OK;
}

gtr_status gtr_resource_id_goroutine(gtr_resource_id r, gtr_goid *out, gtr_err *err)
{
    return get_id(r, GTR_RESOURCE_GOROUTINE, "GoID", out, err);
}

gtr_status gtr_resource_id_proc(gtr_resource_id r, gtr_procid *out, gtr_err *err)
{
    return get_id(r, GTR_RESOURCE_PROC, "ProcID", out, err);
}

gtr_status gtr_resource_id_thread(gtr_resource_id r, gtr_threadid *out, gtr_err *err)
{
    return get_id(r, GTR_RESOURCE_THREAD, "ThreadID", out, err);
}

bool gtr_resource_id_equal(gtr_resource_id a, gtr_resource_id b)
{
    return a.kind == b.kind && a.id == b.id;
}

gtr_status gtr_resource_id_string(gtr_resource_id r, gtr_buf *out)
{
    const char *kind = gtr_resource_kind_string((gtr_resource_kind)r.kind);
    if (out == NULL)
        return GTR_E_USAGE;
    if (r.kind == GTR_RESOURCE_NONE)
        return gtr_buf_puts(out, kind);
    return gtr_buf_printf(out, "%s(%" PRId64 ")", kind, r.id);
}

gtr_state_transition gtr_make_go_state_transition(gtr_goid id, gtr_go_state from, gtr_go_state to)
{
    gtr_state_transition st = {make_resource(GTR_RESOURCE_GOROUTINE, id), {"", 0}, {NULL, 0},
                               (uint8_t)from, (uint8_t)to};
    return st;
}

gtr_state_transition gtr_make_proc_state_transition(gtr_procid id, gtr_proc_state from,
                                                    gtr_proc_state to)
{
    gtr_state_transition st = {make_resource(GTR_RESOURCE_PROC, id), {"", 0}, {NULL, 0},
                               (uint8_t)from, (uint8_t)to};
    return st;
}

gtr_status gtr_state_transition_goroutine(const gtr_state_transition *st, gtr_go_state *from,
                                          gtr_go_state *to, gtr_err *err)
{
    if (st == NULL || st->resource.kind != GTR_RESOURCE_GOROUTINE) {
        /* Go: panic("Goroutine called on non-Goroutine state transition") */
        return gtr_err_setf(err, GTR_E_USAGE, "Goroutine called on non-Goroutine state transition");
    }
    if (from != NULL)
        *from = (gtr_go_state)st->old_state_;
    if (to != NULL)
        *to = (gtr_go_state)st->new_state_;
    return GTR_OK;
}

gtr_status gtr_state_transition_proc(const gtr_state_transition *st, gtr_proc_state *from,
                                     gtr_proc_state *to, gtr_err *err)
{
    if (st == NULL || st->resource.kind != GTR_RESOURCE_PROC) {
        /* Go: panic("Proc called on non-Proc state transition") */
        return gtr_err_setf(err, GTR_E_USAGE, "Proc called on non-Proc state transition");
    }
    if (from != NULL)
        *from = (gtr_proc_state)st->old_state_;
    if (to != NULL)
        *to = (gtr_proc_state)st->new_state_;
    return GTR_OK;
}
