/* SPDX-License-Identifier: BSD-3-Clause */
/* event_transition.h: Event.StateTransition (Go's event.go), inline: behind the public
 * gtr_event_state_transition (event.c) and in the validator's per-event path (validate.c),
 * where it was a call that wrote its whole result through memory. */
#ifndef GTR_SRC_EVENT_TRANSITION_H
#define GTR_SRC_EVENT_TRANSITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base.h"
#include "compiler.h"
#include "err_text.h"
#include "gtr/event.h"
#include "gtr/spec.h"

/* gtr__must_string is strings.mustGet(id): Go panics when the ID is absent ("expected id %d
 * in string table", GTR_E_USAGE); id 0 is "". */
gtr_status gtr__must_string(const gtr__ev_table *t, uint64_t id, gtr_str *out, gtr_err *err);

/* gtr__status_index_panic is Go's index panic on a status table of length 5. */
gtr_status gtr__status_index_panic(gtr_err *err, uint64_t i);

/* gtr__extra_index is the first slot of baseEvent.extra(version.Go122): len(spec.Args)-1. */
static inline size_t gtr__extra_index(uint8_t type)
{
    const gtr_event_spec *spec = gtr_spec(type);
    return spec->nargs > 0 ? (size_t)spec->nargs - 1 : 0;
}

/* gtr__extra_arg is extra(version.Go122)[i] (0 past the arguments' slots). */
static inline uint64_t gtr__extra_arg(const gtr_event *ev, size_t i)
{
    size_t k = gtr__extra_index(ev->type_) + i;
    return k < GTR_MAX_TIMED_EVENT_ARGS - 1 ? ev->args_[k] : 0;
}

/* gtr__event_stack_of is gtr_event_stack(ev) for an event of type `type` (ev->type_, not
 * CPUSample): a caller that knows the type at compile time passes it as a constant, and the
 * spec's stack index folds to a constant too. The main execution context's stack is the
 * first of StackIDs (counting dt, hence -1; 0 when the type has none: the spec table leaves
 * it zero); the Sync (gtr_spec's empty spec), types without stacks and an index past the
 * arguments give NoStack. A mask, not a branch, for whether the type has a stack: with a
 * type known only at run time, it is not predictable, and the mispredicted branch was a
 * quarter of gtr_event_stack's time. */
static GTR__ALWAYS_INLINE gtr_stack gtr__event_stack_of(const gtr_event *ev, uint8_t type)
{
    _Static_assert(GTR_MAX_TIMED_EVENT_ARGS - 1 == 4, "args_ has 4 slots: (k - 1) & 3");
    unsigned k = gtr_spec(type)->stack_ids[0];
    uint64_t has = -(uint64_t)(k >= 1 && k <= GTR_MAX_TIMED_EVENT_ARGS - 1);
    uint64_t id = ev->args_[(k - 1) & 3] & has;
    gtr_stack s = {id != 0 ? ev->table_ : NULL, id};
    return s;
}

/* gtr__set_transition starts *out as MakeGoStateTransition or MakeProcStateTransition would
 * (no reason, no stack), writing it field by field: a transition built in a local and copied
 * out whole makes the copy's wide loads wait on the narrower stores just made to the local. */
static GTR__ALWAYS_INLINE void gtr__set_transition(gtr_state_transition *out,
                                                  gtr_resource_kind kind, int64_t id,
                                                  uint8_t from, uint8_t to)
{
    out->resource.kind = (uint8_t)kind;
    out->resource.id = id;
    out->reason.data = "";
    out->reason.len = 0;
    out->stack.table_ = NULL;
    out->stack.id_ = 0;
    out->old_state_ = from;
    out->new_state_ = to;
}

/* gtr__state_transition_of is Event.StateTransition of ev, an event of a state-transition
 * type, whose type is `type` (ev->type_): a caller that knows the type at compile time
 * passes it as a constant and gets only that type's case (the validator's per-type paths).
 * with_reason false leaves a GoStop's or GoBlock's reason "" without looking it up: for a
 * caller that does not read it, of an event the reader has passed (its string ID was
 * checked to be in the table, Go's validateTableIDs, or is one of the old-format
 * conversion's own strings), where Go's mustGet cannot panic. */
static GTR__ALWAYS_INLINE gtr_status gtr__state_transition_of(const gtr_event *ev, uint8_t type,
                                                              bool with_reason,
                                                              gtr_state_transition *out,
                                                              gtr_err *err)
{
    const uint64_t *a = ev->args_;
    switch (type) {
    case GTR_EV_PROC_START:
        gtr__set_transition(out, GTR_RESOURCE_PROC, (gtr_procid)a[0], GTR_PROC_IDLE, GTR_PROC_RUNNING);
        break;
    case GTR_EV_PROC_STOP:
        gtr__set_transition(out, GTR_RESOURCE_PROC, ev->p_, GTR_PROC_RUNNING, GTR_PROC_IDLE);
        break;
    case GTR_EV_PROC_STEAL: {
        /* N.B. the ordering puts the stolen P's status in extra()[0]. A ProcSteal that
         * advanced on SyscallAbandoned lost information: treat the P as idle, as ProcStatus
         * does, or the transition would be invalid. */
        gtr_proc_state before = GTR_PROC_RUNNING;
        if (gtr__extra_arg(ev, 0) == GTR_PSTATUS_SYSCALL_ABANDONED)
            before = GTR_PROC_IDLE;
        gtr__set_transition(out, GTR_RESOURCE_PROC, (gtr_procid)a[0], (uint8_t)before, GTR_PROC_IDLE);
        break;
    }
    case GTR_EV_PROC_STATUS:
        /* N.B. the ordering puts the old state in extra()[0]. */
        if (a[1] >= 5)
            return gtr__status_index_panic(err, a[1]);
        gtr__set_transition(out, GTR_RESOURCE_PROC, (gtr_procid)a[0], (uint8_t)gtr__extra_arg(ev, 0),
                       gtr__procstatus2state[a[1]]);
        break;
    case GTR_EV_GO_CREATE:
    case GTR_EV_GO_CREATE_BLOCKED:
        gtr__set_transition(out, GTR_RESOURCE_GOROUTINE, (gtr_goid)a[0], GTR_GO_NOT_EXIST,
                       type == GTR_EV_GO_CREATE_BLOCKED ? GTR_GO_WAITING : GTR_GO_RUNNABLE);
        out->stack.table_ = ev->table_;
        out->stack.id_ = a[1];
        break;
    case GTR_EV_GO_CREATE_SYSCALL:
        gtr__set_transition(out, GTR_RESOURCE_GOROUTINE, (gtr_goid)a[0], GTR_GO_NOT_EXIST,
                       GTR_GO_SYSCALL);
        break;
    case GTR_EV_GO_START:
        gtr__set_transition(out, GTR_RESOURCE_GOROUTINE, (gtr_goid)a[0], GTR_GO_RUNNABLE,
                       GTR_GO_RUNNING);
        break;
    case GTR_EV_GO_DESTROY:
        gtr__set_transition(out, GTR_RESOURCE_GOROUTINE, ev->g_, GTR_GO_RUNNING, GTR_GO_NOT_EXIST);
        break;
    case GTR_EV_GO_DESTROY_SYSCALL:
        gtr__set_transition(out, GTR_RESOURCE_GOROUTINE, ev->g_, GTR_GO_SYSCALL, GTR_GO_NOT_EXIST);
        break;
    case GTR_EV_GO_STOP:
    case GTR_EV_GO_BLOCK: {
        gtr_status st;
        gtr__set_transition(out, GTR_RESOURCE_GOROUTINE, ev->g_, GTR_GO_RUNNING,
                       type == GTR_EV_GO_STOP ? GTR_GO_RUNNABLE : GTR_GO_WAITING);
        if (with_reason && (st = gtr__must_string(ev->table_, a[0], &out->reason, err)) < 0)
            return st;
        out->stack = gtr__event_stack_of(ev, type); /* The resource the event happened on. */
        break;
    }
    case GTR_EV_GO_UNBLOCK:
    case GTR_EV_GO_SWITCH:
    case GTR_EV_GO_SWITCH_DESTROY:
        /* N.B. GoSwitch and GoSwitchDestroy emit more events, but the first thing both do
         * is unblock the goroutine they name, exactly like GoUnblock. */
        gtr__set_transition(out, GTR_RESOURCE_GOROUTINE, (gtr_goid)a[0], GTR_GO_WAITING,
                       GTR_GO_RUNNABLE);
        break;
    case GTR_EV_GO_SYSCALL_BEGIN:
        gtr__set_transition(out, GTR_RESOURCE_GOROUTINE, ev->g_, GTR_GO_RUNNING, GTR_GO_SYSCALL);
        out->stack = gtr__event_stack_of(ev, type);
        break;
    case GTR_EV_GO_SYSCALL_END:
        gtr__set_transition(out, GTR_RESOURCE_GOROUTINE, ev->g_, GTR_GO_SYSCALL, GTR_GO_RUNNING);
        break;
    case GTR_EV_GO_SYSCALL_END_BLOCKED:
        gtr__set_transition(out, GTR_RESOURCE_GOROUTINE, ev->g_, GTR_GO_SYSCALL, GTR_GO_RUNNABLE);
        break;
    default: { /* GoStatus, GoStatusStack: gstatus is oldState<<32 | newStatus. */
        uint64_t packed = a[2], from = packed >> 32, to = packed & 0xffffffffu;
        if (to >= 5)
            return gtr__status_index_panic(err, to);
        gtr__set_transition(out, GTR_RESOURCE_GOROUTINE, (gtr_goid)a[0], (uint8_t)from,
                       gtr__gostatus2state[to]);
        out->stack = gtr__event_stack_of(ev, type);
        break;
    }
    }
    return GTR_OK;
}

static GTR__ALWAYS_INLINE gtr_status gtr__event_state_transition(const gtr_event *ev,
                                                                 gtr_state_transition *out,
                                                                 gtr_err *err)
{
    if (ev == NULL || out == NULL || gtr_event_get_kind(ev) != GTR_EVENT_STATE_TRANSITION) {
        /* Go: panic("StateTransition called on non-StateTransition event") */
        return GTR__ERR_LIT(err, GTR_E_USAGE,
                            "StateTransition called on non-StateTransition event");
    }
    return gtr__state_transition_of(ev, ev->type_, true, out, err);
}

#endif /* GTR_SRC_EVENT_TRANSITION_H */
