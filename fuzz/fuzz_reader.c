/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_reader.c: the high-level reader and the validator (Go's FuzzReader, with the
 * disabled testGetters block turned on and extended).
 *
 * Input: a wire-format trace, plain or gzip. Every event the reader returns goes to the
 * validator (until its first complaint) and through every accessor: the basic ones, the
 * stack and each of its frames, the detail accessor of its kind, Event.String(), and the
 * detail accessors of every *other* kind, which must refuse with GTR_E_USAGE (where Go
 * panics) instead of reading the wrong fields. Oracles beyond "no crash":
 *  - the reader's contract (reader.h): the first event is a Sync, times strictly increase,
 *    the event before GTR_EOF is a Sync, Sync N counts the syncs, errors are sticky;
 *  - every error carries a message; accessors of a mismatched kind fail with GTR_E_USAGE;
 *  - ResourceID getters succeed for exactly the ID's own kind. */
#include <stddef.h>

#include "fuzz_common.h"
#include "gtr/reader.h"
#include "gtr/validate.h"

/* One scratch buffer for every String()-style call; which kinds have had their refusals
 * probed. */
typedef struct probe {
    gtr_buf out;
    gtr_buf kept;                 /* the same event through the formatter */
    gtr_event_formatter *fmt;     /* String() keeping stack text: must equal String() */
    gtr_event_builder *builder;   /* for probe_make; made on first use */
    size_t made;                  /* events made so far (capped: the builder keeps them) */
    uint32_t kinds_probed;
    bool probe_refusals;
    bool format;   /* call the String() formatters (printf-heavy): see FORMAT_ALL */
    gtr_err err;   /* last: only what precedes it is zeroed per input */
} probe;

/* Formatting dominates the cost per event (FUZZING.md §0 throughput goal), so the String()
 * formatters run on the first FORMAT_ALL events of an input and on every 16th after. */
#define FORMAT_ALL 128

static void check_error(gtr_status st, const gtr_err *err, const char *what)
{
    if (st == GTR_OK || st == GTR_E_NOMEM)
        return;
    FUZZ_CHECK(st < 0, what);
    FUZZ_CHECK(err->code == st && err->len != 0, what);
}

/* The accessor of a kind other than the event's must refuse (Go panics there). */
static void check_refused(gtr_status st, const gtr_err *err, const char *what)
{
    FUZZ_CHECK(st == GTR_E_USAGE, what);
    FUZZ_CHECK(err->code == GTR_E_USAGE && err->len != 0, what);
}

static void probe_value(const gtr_value *v, probe *p)
{
    uint64_t u = 0;
    gtr_status st = gtr_value_uint64(v, &u, &p->err);
    if (v->kind == GTR_VALUE_UINT64)
        FUZZ_CHECK(st == GTR_OK && u == v->u64, "Value.Uint64 of a uint64 value");
    else
        check_refused(st, &p->err, "Value.Uint64 of a non-uint64 value");
    if (v->kind == GTR_VALUE_STRING)
        FUZZ_CHECK(v->str.len == 0 || v->str.data != NULL, "string value has bytes");
    gtr_buf_reset(&p->out);
    gtr_value_string(v, &p->out);
}

static void probe_resource(gtr_resource_id r, probe *p)
{
    gtr_goid g = 0;
    gtr_procid pr = 0;
    gtr_threadid m = 0;
    /* The getters of the other kinds refuse with Go's panic text, formatted each time: they
     * are probed with the refusals (the first event of each kind), the own one always. */
    bool all = p->probe_refusals;
    if (all || r.kind == GTR_RESOURCE_GOROUTINE) {
        gtr_status sg = gtr_resource_id_goroutine(r, &g, &p->err);
        FUZZ_CHECK((sg == GTR_OK) == (r.kind == GTR_RESOURCE_GOROUTINE), "ResourceID.Goroutine");
    }
    if (all || r.kind == GTR_RESOURCE_PROC) {
        gtr_status sp = gtr_resource_id_proc(r, &pr, &p->err);
        FUZZ_CHECK((sp == GTR_OK) == (r.kind == GTR_RESOURCE_PROC), "ResourceID.Proc");
    }
    if (all || r.kind == GTR_RESOURCE_THREAD) {
        gtr_status sm = gtr_resource_id_thread(r, &m, &p->err);
        FUZZ_CHECK((sm == GTR_OK) == (r.kind == GTR_RESOURCE_THREAD), "ResourceID.Thread");
    }
    FUZZ_CHECK(gtr_resource_id_equal(r, r), "ResourceID equals itself");
    if (p->format) {
        gtr_buf_reset(&p->out);
        gtr_resource_id_string(r, &p->out);
    }
    (void)gtr_resource_kind_string((gtr_resource_kind)r.kind);
}

static void probe_stack(gtr_stack s, probe *p)
{
    FUZZ_CHECK(gtr_stack_equal(s, s), "Stack equals itself");
    size_t n = gtr_stack_len(s);
    if (gtr_stack_is_none(s))
        FUZZ_CHECK(n == 0, "NoStack has no frames");
    /* Every frame of the sampled events (p->format); the first and the last of the others:
     * the same lookups, at a fraction of the cost on deep stacks. */
    size_t step = p->format || n < 2 ? 1 : n - 1;
    for (size_t i = 0; i < n; i += step) {
        gtr_frame f;
        gtr_status st = gtr_stack_frame(s, i, &f, &p->err);
        check_error(st, &p->err, "Stack frame error has a message");
        if (st == GTR_OK) {
            FUZZ_CHECK(f.func.len == 0 || f.func.data != NULL, "frame func has bytes");
            FUZZ_CHECK(f.file.len == 0 || f.file.data != NULL, "frame file has bytes");
        }
    }
    gtr_frame f;
    if (p->probe_refusals)
        FUZZ_CHECK(gtr_stack_frame(s, n, &f, &p->err) == GTR_E_USAGE,
                   "frame past the end refused");
    if (p->format) {
        gtr_buf_reset(&p->out);
        gtr_stack_string(s, &p->out);
    }
}

static void probe_state_transition(const gtr_state_transition *t, probe *p)
{
    gtr_go_state gf, gt;
    gtr_proc_state pf, pt;
    bool is_g = t->resource.kind == GTR_RESOURCE_GOROUTINE;
    bool is_p = t->resource.kind == GTR_RESOURCE_PROC;
    probe_resource(t->resource, p);
    probe_stack(t->stack, p);
    /* The getter of the other resource kind refuses (Go panics): probed with the refusals. */
    if (is_g || p->probe_refusals) {
        gtr_status sg = gtr_state_transition_goroutine(t, &gf, &gt, &p->err);
        FUZZ_CHECK((sg == GTR_OK) == is_g, "StateTransition.Goroutine");
        if (sg != GTR_OK)
            check_refused(sg, &p->err, "StateTransition.Goroutine of another resource");
    }
    if (is_p || p->probe_refusals) {
        gtr_status sp = gtr_state_transition_proc(t, &pf, &pt, &p->err);
        FUZZ_CHECK((sp == GTR_OK) == is_p, "StateTransition.Proc");
        if (sp != GTR_OK)
            check_refused(sp, &p->err, "StateTransition.Proc of another resource");
    }
    if (is_g) {
        (void)gtr_go_state_string(gf);
        (void)gtr_go_state_string(gt);
        (void)gtr_go_state_executing(gf);
        (void)gtr_go_state_executing(gt);
    } else if (is_p) {
        (void)gtr_proc_state_string(pf);
        (void)gtr_proc_state_string(pt);
        (void)gtr_proc_state_executing(pf);
        (void)gtr_proc_state_executing(pt);
    }
}

static void probe_sync(const gtr_sync *s, probe *p)
{
    for (unsigned exp = 0; exp <= GTR_EXP_NUM; exp++) {
        size_t n = gtr_sync_experimental_batch_count(s, exp);
        for (size_t i = 0; i <= n; i++) {
            gtr_experimental_batch b;
            gtr_status st = gtr_sync_experimental_batch(s, exp, i, &b, &p->err);
            if (i < n)
                FUZZ_CHECK(st == GTR_OK && (b.len == 0 || b.data != NULL), "batch i < count");
            else
                FUZZ_CHECK(st != GTR_OK, "batch past the count refused");
        }
    }
    if (s->has_clock_snapshot) {
        FUZZ_CHECK(s->clock.wall_nsec >= 0 && s->clock.wall_nsec < 1000000000,
                   "wall nanoseconds normalised");
        gtr_buf_reset(&p->out);
        gtr_clock_snapshot_wall_string(&s->clock, &p->out);
    }
}

static void probe_experimental(const gtr_experimental_event *e, probe *p)
{
    FUZZ_CHECK(e->nargs <= GTR_MAX_EXPERIMENTAL_ARGS, "experimental arg count");
    for (int i = -1; i <= (int)e->nargs; i++) {
        gtr_value v;
        gtr_status st = gtr_experimental_arg_value(e, i, &v, &p->err);
        if (i >= 0 && i < (int)e->nargs) {
            check_error(st, &p->err, "ArgValue error has a message");
            if (st == GTR_OK)
                probe_value(&v, p);
        } else {
            check_refused(st, &p->err, "ArgValue out of bounds refused");
        }
    }
}

/* own_kind checks the status of a detail accessor: refused when the event is of another
 * kind (match false), else OK or an error with a message. True when the details are there
 * to look at. A refusal formats Go's panic text, so refusals are probed only on the first
 * event of each kind (p->probe_refusals). */
static bool own_kind(gtr_status st, bool match, const gtr_err *err, const char *what)
{
    if (!match) {
        check_refused(st, err, what);
        return false;
    }
    check_error(st, err, what);
    return st == GTR_OK;
}

/* probe_details calls every detail accessor; the one matching the event's kind may succeed
 * (or fail like Go's panics, with a message), every other one must refuse. */
static void probe_details(const gtr_event *ev, gtr_event_kind k, probe *p)
{
    union {
        gtr_metric metric;
        gtr_label label;
        gtr_range range;
        gtr_task task;
        gtr_region region;
        gtr_log log;
        gtr_state_transition st;
        gtr_sync sync;
        gtr_experimental_event exp;
    } d;
    gtr_range_attribute attrs[GTR_MAX_RANGE_ATTRIBUTES];
    size_t nattrs = 0;
    bool is_range = k == GTR_EVENT_RANGE_BEGIN || k == GTR_EVENT_RANGE_ACTIVE ||
                    k == GTR_EVENT_RANGE_END;
    bool all = p->probe_refusals;

    if ((all || k == GTR_EVENT_METRIC) &&
        own_kind(gtr_event_metric(ev, &d.metric, &p->err), k == GTR_EVENT_METRIC, &p->err,
                 "Event.Metric"))
        probe_value(&d.metric.value, p);
    if ((all || k == GTR_EVENT_LABEL) &&
        own_kind(gtr_event_label(ev, &d.label, &p->err), k == GTR_EVENT_LABEL, &p->err,
                 "Event.Label"))
        probe_resource(d.label.resource, p);
    if ((all || is_range) &&
        own_kind(gtr_event_range(ev, &d.range, &p->err), is_range, &p->err, "Event.Range"))
        probe_resource(d.range.scope, p);
    if ((all || k == GTR_EVENT_RANGE_END) &&
        own_kind(gtr_event_range_attributes(ev, attrs, &nattrs, &p->err),
                 k == GTR_EVENT_RANGE_END, &p->err, "Event.RangeAttributes")) {
        FUZZ_CHECK(nattrs <= GTR_MAX_RANGE_ATTRIBUTES, "attribute count");
        for (size_t i = 0; i < nattrs; i++)
            probe_value(&attrs[i].value, p);
    }
    bool is_task = k == GTR_EVENT_TASK_BEGIN || k == GTR_EVENT_TASK_END;
    bool is_region = k == GTR_EVENT_REGION_BEGIN || k == GTR_EVENT_REGION_END;
    if (all || is_task)
        own_kind(gtr_event_task(ev, &d.task, &p->err), is_task, &p->err, "Event.Task");
    if (all || is_region)
        own_kind(gtr_event_region(ev, &d.region, &p->err), is_region, &p->err, "Event.Region");
    if (all || k == GTR_EVENT_LOG)
        own_kind(gtr_event_log(ev, &d.log, &p->err), k == GTR_EVENT_LOG, &p->err, "Event.Log");
    if ((all || k == GTR_EVENT_STATE_TRANSITION) &&
        own_kind(gtr_event_state_transition(ev, &d.st, &p->err),
                 k == GTR_EVENT_STATE_TRANSITION, &p->err, "Event.StateTransition"))
        probe_state_transition(&d.st, p);
    if ((all || k == GTR_EVENT_SYNC) &&
        own_kind(gtr_event_sync(ev, &d.sync, &p->err), k == GTR_EVENT_SYNC, &p->err,
                 "Event.Sync"))
        probe_sync(&d.sync, p);
    if ((all || k == GTR_EVENT_EXPERIMENTAL) &&
        own_kind(gtr_event_experimental(ev, &d.exp, &p->err), k == GTR_EVENT_EXPERIMENTAL,
                 &p->err, "Event.Experimental"))
        probe_experimental(&d.exp, p);
}

static bool same_str(gtr_str a, gtr_str b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
}

static bool same_value(const gtr_value *a, const gtr_value *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == GTR_VALUE_UINT64)
        return a->u64 == b->u64;
    return a->kind != GTR_VALUE_STRING || same_str(a->str, b->str);
}

/* stack_refuses: some frame of s is refused (GTR_E_USAGE: Go's Frames() panics there). */
static bool stack_refuses(gtr_stack s)
{
    size_t n = gtr_stack_len(s);
    for (size_t i = 0; i < n; i++) {
        gtr_frame f;
        if (gtr_stack_frame(s, i, &f, NULL) == GTR_E_USAGE)
            return true;
    }
    return false;
}

/* Events made per input: the first of each kind, and sampled ones up to MAKE_SAMPLED (the
 * builder keeps all it made; making costs a table per event). */
#define MAKE_SAMPLED 32

/* probe_make rebuilds ev with gtr_make_event (Go's MakeEvent) from what its accessors return.
 * MakeEvent may refuse with GTR_E_INVALID and a message (Go's errors: metric and range names
 * it does not know, transitions no event expresses); when it accepts, the made event must
 * give back the kind, time, resources and details it was given. */
static void probe_make(const gtr_event *ev, gtr_event_kind k, probe *p)
{
    gtr_event_config c;
    memset(&c, 0, sizeof c);
    c.time = gtr_event_time(ev);
    c.kind = k;
    c.goroutine = gtr_event_goroutine(ev);
    c.proc = gtr_event_proc(ev);
    c.thread = gtr_event_thread(ev);
    c.stack = gtr_event_stack(ev);
    gtr_status st;
    switch (k) {
    case GTR_EVENT_METRIC:
        c.details = GTR_DETAILS_METRIC;
        st = gtr_event_metric(ev, &c.metric, NULL);
        break;
    case GTR_EVENT_LABEL:
        c.details = GTR_DETAILS_LABEL;
        st = gtr_event_label(ev, &c.label, NULL);
        break;
    case GTR_EVENT_RANGE_BEGIN:
    case GTR_EVENT_RANGE_ACTIVE:
    case GTR_EVENT_RANGE_END:
        c.details = GTR_DETAILS_RANGE;
        st = gtr_event_range(ev, &c.range, NULL);
        break;
    case GTR_EVENT_TASK_BEGIN:
    case GTR_EVENT_TASK_END:
        c.details = GTR_DETAILS_TASK;
        st = gtr_event_task(ev, &c.task, NULL);
        break;
    case GTR_EVENT_REGION_BEGIN:
    case GTR_EVENT_REGION_END:
        c.details = GTR_DETAILS_REGION;
        st = gtr_event_region(ev, &c.region, NULL);
        break;
    case GTR_EVENT_LOG:
        c.details = GTR_DETAILS_LOG;
        st = gtr_event_log(ev, &c.log, NULL);
        break;
    case GTR_EVENT_STATE_TRANSITION:
        c.details = GTR_DETAILS_STATE_TRANSITION;
        st = gtr_event_state_transition(ev, &c.transition, NULL);
        break;
    case GTR_EVENT_STACK_SAMPLE:
        c.details = GTR_DETAILS_STACK_SAMPLE;
        st = GTR_OK;
        break;
    default:
        return; /* Sync: experimental batches cannot be given; Experimental: not makeable */
    }
    if (st != GTR_OK)
        return;
    if (p->builder == NULL && gtr_event_builder_new(NULL, &p->builder, NULL) != GTR_OK)
        return;
    p->made++;
    gtr_event m;
    st = gtr_make_event(p->builder, &c, &m, &p->err);
    if (st != GTR_OK) {
        /* MakeEvent reads the stacks' frames (Go: Stack.Frames), the event's and a state
         * transition's own (a GoCreate's new goroutine), so a frame that refuses (Go panics:
         * a frame string missing from a v1 trace's table) makes it refuse too. */
        FUZZ_CHECK(st == GTR_E_INVALID || st == GTR_E_NOMEM ||
                       (st == GTR_E_USAGE &&
                        (stack_refuses(c.stack) ||
                         (c.details == GTR_DETAILS_STATE_TRANSITION &&
                          stack_refuses(c.transition.stack)))),
                   "MakeEvent refuses with an error");
        check_error(st, &p->err, "MakeEvent error has a message");
        return;
    }
    FUZZ_CHECK(gtr_event_get_kind(&m) == k, "MakeEvent keeps the kind");
    FUZZ_CHECK(gtr_event_time(&m) == c.time, "MakeEvent keeps the time");
    FUZZ_CHECK(gtr_event_goroutine(&m) == c.goroutine && gtr_event_proc(&m) == c.proc &&
                   gtr_event_thread(&m) == c.thread,
               "MakeEvent keeps the scheduling context");
    FUZZ_CHECK(gtr_stack_len(gtr_event_stack(&m)) == gtr_stack_len(c.stack),
               "MakeEvent keeps the stack's frames");
    union {
        gtr_metric metric;
        gtr_label label;
        gtr_range range;
        gtr_task task;
        gtr_region region;
        gtr_log log;
        gtr_state_transition st;
    } d;
    switch (c.details) {
    case GTR_DETAILS_METRIC:
        FUZZ_CHECK(gtr_event_metric(&m, &d.metric, NULL) == GTR_OK &&
                       same_str(d.metric.name, c.metric.name) &&
                       same_value(&d.metric.value, &c.metric.value),
                   "MakeEvent keeps the metric");
        break;
    case GTR_DETAILS_LABEL:
        FUZZ_CHECK(gtr_event_label(&m, &d.label, NULL) == GTR_OK &&
                       same_str(d.label.label, c.label.label) &&
                       gtr_resource_id_equal(d.label.resource, c.label.resource),
                   "MakeEvent keeps the label");
        break;
    case GTR_DETAILS_RANGE:
        FUZZ_CHECK(gtr_event_range(&m, &d.range, NULL) == GTR_OK &&
                       same_str(gtr_range_name(&d.range), gtr_range_name(&c.range)) &&
                       gtr_resource_id_equal(d.range.scope, c.range.scope),
                   "MakeEvent keeps the range");
        break;
    case GTR_DETAILS_TASK:
        FUZZ_CHECK(gtr_event_task(&m, &d.task, NULL) == GTR_OK && d.task.id == c.task.id &&
                       d.task.parent == c.task.parent && same_str(d.task.type, c.task.type),
                   "MakeEvent keeps the task");
        break;
    case GTR_DETAILS_REGION:
        FUZZ_CHECK(gtr_event_region(&m, &d.region, NULL) == GTR_OK &&
                       d.region.task == c.region.task && same_str(d.region.type, c.region.type),
                   "MakeEvent keeps the region");
        break;
    case GTR_DETAILS_LOG:
        FUZZ_CHECK(gtr_event_log(&m, &d.log, NULL) == GTR_OK && d.log.task == c.log.task &&
                       same_str(d.log.category, c.log.category) &&
                       same_str(d.log.message, c.log.message),
                   "MakeEvent keeps the log");
        break;
    case GTR_DETAILS_STATE_TRANSITION: {
        /* Go's quirk, kept: a proc transition other than Idle->Idle, Idle->Running and
         * Running->Idle becomes a ProcStatus whose extra slot MakeEvent fills with a
         * tracev2.ProcStatus, where StateTransition reads a ProcState: the old state does
         * not survive (event.go, Go 1.27). */
        const gtr_state_transition *t = &c.transition;
        bool via_status = t->resource.kind == GTR_RESOURCE_PROC &&
                          !(t->old_state_ == GTR_PROC_IDLE && t->new_state_ == GTR_PROC_IDLE) &&
                          !(t->old_state_ == GTR_PROC_IDLE && t->new_state_ == GTR_PROC_RUNNING) &&
                          !(t->old_state_ == GTR_PROC_RUNNING && t->new_state_ == GTR_PROC_IDLE);
        FUZZ_CHECK(gtr_event_state_transition(&m, &d.st, NULL) == GTR_OK &&
                       gtr_resource_id_equal(d.st.resource, t->resource) &&
                       (via_status || d.st.old_state_ == t->old_state_) &&
                       d.st.new_state_ == t->new_state_,
                   "MakeEvent keeps the transition");
        break;
    }
    default:
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT_BYTES)
        return 0;
    gtr_input *in = fuzz_input_open(data, size);
    if (in == NULL)
        return 0;
    gtr_reader *r = NULL;
    gtr_validator *v = NULL;
    probe p;
    memset(&p, 0, offsetof(probe, err));
    gtr_err_init(&p.err);
    gtr_status st = gtr_reader_new(in, NULL, &r, &p.err);
    if (st != GTR_OK) {
        check_error(st, &p.err, "NewReader error has a message");
        gtr_err_clear(&p.err);
        gtr_input_free(in);
        return 0;
    }
    bool validating = gtr_validator_new(NULL, &v, NULL) == GTR_OK;
    (void)gtr_event_formatter_new(NULL, &p.fmt, NULL);   /* NULL (no memory): not compared */
    if (validating)
        gtr_validator_set_go_version(v, gtr_reader_go_version(r));

    gtr_event ev;
    gtr_err err = GTR_ERR_INIT;
    gtr_event_kind last_kind = GTR_EVENT_BAD;
    gtr_time last_time = 0;
    int64_t syncs = 0;
    size_t n = 0;
    for (; n < FUZZ_MAX_EVENTS; n++) {
        st = gtr_reader_next(r, &ev, &err);
        if (st != GTR_OK)
            break;
        gtr_event_kind k = gtr_event_get_kind(&ev);
        gtr_time t = gtr_event_time(&ev);
        if (n == 0)
            FUZZ_CHECK(k == GTR_EVENT_SYNC, "the first event is a Sync");
        else if (last_time != INT64_MAX)
            FUZZ_CHECK(t > last_time, "event times strictly increase");
        last_time = t;
        last_kind = k;
        (void)gtr_event_kind_string(k);
        (void)gtr_event_goroutine(&ev);
        (void)gtr_event_proc(&ev);
        (void)gtr_event_thread(&ev);
        p.format = n < FORMAT_ALL || (n & 15) == 0;
        p.probe_refusals = (unsigned)k < 32 && !(p.kinds_probed & (UINT32_C(1) << k));
        if (p.probe_refusals)
            p.kinds_probed |= UINT32_C(1) << k;
        probe_stack(gtr_event_stack(&ev), &p);
        probe_details(&ev, k, &p);
        if (k == GTR_EVENT_SYNC) {
            gtr_sync s;
            syncs++;
            if (gtr_event_sync(&ev, &s, NULL) == GTR_OK)
                FUZZ_CHECK(s.n == syncs, "Sync.N counts the syncs");
        }
        if (p.probe_refusals || (p.format && p.made < MAKE_SAMPLED))
            probe_make(&ev, k, &p);
        if (p.format) {
            gtr_buf_reset(&p.out);
            gtr_status ss = gtr_event_string(&ev, &p.out);
            FUZZ_CHECK(ss == GTR_OK || ss == GTR_E_NOMEM || ss == GTR_E_USAGE,
                       "String() succeeds or refuses like Go's panic");
            /* The formatter differs from String() only in how it prints stacks (every
             * transition stack comes with the event's own), so only events with a stack
             * are compared: the first 32 of an input and 1 in 8 after (the check would
             * otherwise cost more than a tenth of the target's time). */
            if (p.fmt != NULL && (n < 32 || (n & 7) == 0) &&
                !gtr_stack_is_none(gtr_event_stack(&ev))) {
                gtr_buf_reset(&p.kept);
                gtr_status ks = gtr_event_formatter_format(p.fmt, &ev, &p.kept, NULL);
                FUZZ_CHECK(ks == ss || ks == GTR_E_NOMEM || ss == GTR_E_NOMEM,
                           "the formatter succeeds or fails as String() does");
                if (ks == GTR_OK && ss == GTR_OK)
                    FUZZ_CHECK(p.kept.len == p.out.len &&
                                   memcmp(p.kept.data, p.out.data, p.out.len) == 0,
                               "the formatter writes String()'s text");
            }
        }
        if (validating) {
            gtr_status vs = gtr_validator_event(v, &ev, &p.err);
            check_error(vs, &p.err, "validator error has a message");
            if (vs != GTR_OK)
                validating = false;
        }
    }
    if (n < FUZZ_MAX_EVENTS) {
        if (st == GTR_EOF) {
            FUZZ_CHECK(n > 0 && last_kind == GTR_EVENT_SYNC, "the event before EOF is a Sync");
            FUZZ_CHECK(gtr_reader_next(r, &ev, NULL) == GTR_EOF, "EOF is sticky");
        } else {
            check_error(st, &err, "reader error has a message");
            gtr_err again = GTR_ERR_INIT;
            FUZZ_CHECK(gtr_reader_next(r, &ev, &again) == st, "errors are sticky");
            if (st != GTR_E_NOMEM)
                FUZZ_CHECK(again.len == err.len && memcmp(gtr_err_text(&again, NULL),
                                                          gtr_err_text(&err, NULL), err.len) == 0,
                           "sticky errors keep their text");
            gtr_err_clear(&again);
        }
    }
    gtr_err_clear(&err);
    gtr_err_clear(&p.err);
    gtr_validator_free(v);
    gtr_event_builder_free(p.builder);
    gtr_reader_free(r);
    gtr_input_free(in);
    gtr_buf_free(&p.out);
    gtr_buf_free(&p.kept);
    gtr_event_formatter_free(p.fmt);
    return 0;
}
