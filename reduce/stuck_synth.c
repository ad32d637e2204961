/* SPDX-License-Identifier: BSD-3-Clause */
/* stuck_synth.c: a minimal trace stuck for the same reason as a given one (reduce.h).
 *
 * A trace that fails to advance is stuck because each thread's next event waits on a
 * condition (gtr/diagnosis.h). Its shape, the distinct (event type, condition, statuses,
 * sequence relation) lines, is what a faithful reduction keeps. When the failure sits deep
 * in a large generation, the events before it matter only through the state they leave, and
 * delta debugging over them takes far too many candidates. This pass builds, for each line
 * of the shape, the few events that put a fresh goroutine, proc or GC into that state and
 * then present the stuck event; every other thread runs to its end. The result is judged
 * like any candidate (the reducer's keeper decides), so a shape this file cannot build, or
 * builds wrongly, only costs one candidate.
 *
 * Each snippet has threads, procs and goroutines of its own. The events that set the state
 * come early (small timestamps) and the stuck events late, so the reader, which always
 * advances the earliest event that can, applies them first. A condition on another
 * generation ("another-generation": the resource has no status in the stuck generation)
 * puts every snippet in a second generation, after a first that declares the goroutines
 * (a goroutine can be new only in the first generation read). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gtr/diagnosis.h"
#include "gtr/input.h"
#include "gtr/reader.h"
#include "reduce.h"
#include "tracedit.h"

#define NO_THREAD UINT64_MAX
#define LATE 100   /* the stuck events' dt: after every event that sets the state */

typedef struct synth {
    tracedit_trace t;
    uint64_t gen;            /* the generation being written */
    bool two_gens;           /* goroutines are declared in generation 1 too */
    uint64_t next_m, next_p, next_g;
    bool failed;
} synth;

/* batch_of: the index of thread m's batch in the generation being written (made on first
 * use). */
static size_t batch_of(synth *s, uint64_t m)
{
    for (size_t b = 0; b < s->t.nbatches; b++)
        if (s->t.batches[b].kind == GTR_EV_EVENT_BATCH && s->t.batches[b].gen == s->gen &&
            s->t.batches[b].m == m)
            return b;
    /* A later generation's events and clock come after the earlier one's. */
    tracedit_batch tmpl = {.kind = GTR_EV_EVENT_BATCH, .gen = s->gen, .m = m,
                           .time = (s->gen - 1) * 1000 + 1};
    if (tracedit_insert_batch(&s->t, s->t.nbatches, &tmpl) != GTR_OK)
        s->failed = true;
    return s->t.nbatches - 1;
}

/* emit appends to batch b an event of type typ: dt, then arguments given by name
 * ("p", 3, "p_seq", 1, ..., NULL); arguments not named are 0. */
static void emit(synth *s, size_t b, uint8_t typ, uint64_t dt, ...)
{
    const gtr_event_spec *spec = gtr_spec(typ);
    uint64_t args[GTR_MAX_SPEC_ARGS] = {0};
    va_list ap;
    if (s->failed || spec->name == NULL || spec->nargs > GTR_MAX_SPEC_ARGS) {
        s->failed = true;
        return;
    }
    args[0] = dt;
    va_start(ap, dt);
    for (const char *name; (name = va_arg(ap, const char *)) != NULL;) {
        uint64_t v = va_arg(ap, uint64_t);
        int i = 0;
        while (i < spec->nargs && strcmp(spec->args[i], name) != 0)
            i++;
        if (i == spec->nargs)
            s->failed = true;   /* this version's event has no such argument */
        else
            args[i] = v;
    }
    va_end(ap);
    uint32_t idx;
    if (tracedit_add_event(&s->t, typ, args, spec->nargs, false, NULL, 0, &idx) != GTR_OK ||
        tracedit_batch_insert(&s->t, b, s->t.batches[b].nev, idx) != GTR_OK)
        s->failed = true;
}

/* status_of: Go's status value of a status name, for goroutines or procs. */
static uint64_t go_status_of(const char *name)
{
    static const char *const names[] = {"Bad", "Runnable", "Running", "Syscall", "Waiting"};
    for (uint64_t i = 1; i < 5; i++)
        if (name != NULL && strcmp(name, names[i]) == 0)
            return i;
    return 0;
}

static uint64_t proc_status_of(const char *name)
{
    static const char *const names[] = {"Bad", "Running", "Idle", "Syscall",
                                        "SyscallAbandoned"};
    for (uint64_t i = 1; i < 5; i++)
        if (name != NULL && strcmp(name, names[i]) == 0)
            return i;
    return 0;
}

/* declare_go gives goroutine g status st, on a thread of its own (a syscall binds it there),
 * in the generation being written and, with two generations, in the first too. */
static void declare_go(synth *s, uint64_t g, uint64_t st)
{
    uint64_t m = s->next_m++;
    uint64_t gens[2] = {1, s->gen};
    for (int i = s->two_gens ? 0 : 1; i < 2; i++) {
        uint64_t keep = s->gen;
        s->gen = gens[i];
        emit(s, batch_of(s, m), GTR_EV_GO_STATUS, 1, "g", g, "m",
             st == 3 ? m : NO_THREAD, "gstatus", st, NULL);
        s->gen = keep;
    }
}

static void declare_proc(synth *s, uint64_t p, uint64_t st)
{
    emit(s, batch_of(s, s->next_m++), GTR_EV_PROC_STATUS, 1, "p", p, "pstatus", st, NULL);
}

/* running_context gives thread m a running proc and goroutine of their own. */
static void running_context(synth *s, uint64_t m)
{
    uint64_t p = s->next_p++, g = s->next_g++;
    size_t b = batch_of(s, m);
    emit(s, b, GTR_EV_PROC_STATUS, 1, "p", p, "pstatus", (uint64_t)1, NULL);
    if (s->two_gens) {
        uint64_t keep = s->gen;
        s->gen = 1;
        emit(s, batch_of(s, m), GTR_EV_GO_STATUS, 1, "g", g, "m", NO_THREAD, "gstatus",
             (uint64_t)2, NULL);
        s->gen = keep;
        b = batch_of(s, m);
    }
    emit(s, b, GTR_EV_GO_STATUS, 1, "g", g, "m", NO_THREAD, "gstatus", (uint64_t)2, NULL);
}

/* present_go puts the stuck goroutine event of e, for goroutine g with sequence number seq,
 * on a thread of its own. */
static void present_go(synth *s, const gtr_stuck_event *e, uint64_t g, uint64_t seq)
{
    uint64_t m = s->next_m++;
    if (e->type == GTR_EV_GO_SWITCH || e->type == GTR_EV_GO_SWITCH_DESTROY)
        running_context(s, m);   /* checked before the next goroutine is */
    size_t b = batch_of(s, m);
    if (e->type == GTR_EV_GO_UNBLOCK)
        emit(s, b, e->type, LATE, "g", g, "g_seq", seq, "stack", (uint64_t)0, NULL);
    else
        emit(s, b, e->type, LATE, "g", g, "g_seq", seq, NULL);
}

static void present_proc(synth *s, const gtr_stuck_event *e, uint64_t p, uint64_t seq,
                         uint64_t from_m)
{
    size_t b = batch_of(s, s->next_m++);
    if (e->type == GTR_EV_PROC_STEAL)
        emit(s, b, e->type, LATE, "p", p, "p_seq", seq, "m", from_m, NULL);
    else
        emit(s, b, e->type, LATE, "p", p, "p_seq", seq, NULL);
}

/* The sequence number the stuck event carries for a relation: its resource is at 0 after its
 * status, or at 1 or 2 after the events advance_* made. */
static uint64_t seq_for(const char *rel, uint64_t have)
{
    if (strcmp(rel, "zero") == 0)
        return 0;
    if (strcmp(rel, "behind") == 0)
        return have + 2;
    if (strcmp(rel, "ahead") == 0)
        return have;   /* need have - 1: the resource has passed it */
    return 1;
}

/* advance_go moves goroutine g (declared with status want) on by real events on a thread of
 * its own, so that it is at status want again with a sequence number of 1 (GoStart's
 * Runnable) or 2 (Waiting). Returns that sequence number. */
static uint64_t advance_go(synth *s, uint64_t g, uint64_t want)
{
    uint64_t m = s->next_m++, p = s->next_p++;
    size_t b = batch_of(s, m);
    emit(s, b, GTR_EV_PROC_STATUS, 1, "p", p, "pstatus", (uint64_t)1, NULL);
    if (want == 1) {   /* Runnable: GoStart, GoStop */
        emit(s, b, GTR_EV_GO_START, 1, "g", g, "g_seq", (uint64_t)1, NULL);
        emit(s, b, GTR_EV_GO_STOP, 1, "reason_string", (uint64_t)0, "stack", (uint64_t)0,
             NULL);
        return 1;
    }
    /* Waiting: GoUnblock, GoStart, GoBlock */
    emit(s, b, GTR_EV_GO_UNBLOCK, 1, "g", g, "g_seq", (uint64_t)1, "stack", (uint64_t)0, NULL);
    emit(s, b, GTR_EV_GO_START, 1, "g", g, "g_seq", (uint64_t)2, NULL);
    emit(s, b, GTR_EV_GO_BLOCK, 1, "reason_string", (uint64_t)0, "stack", (uint64_t)0, NULL);
    return 2;
}

/* advance_proc moves proc p (declared with status st on thread decl_m) on by real events, so
 * that it is at st again with a higher sequence number, which it returns; *holder gets the
 * thread that holds it then. */
static uint64_t advance_proc(synth *s, uint64_t p, uint64_t st, uint64_t decl_m,
                             uint64_t *holder)
{
    uint64_t m = s->next_m++;
    size_t b = batch_of(s, m);
    if (st == 2) {   /* Idle: ProcStart, ProcStop */
        emit(s, b, GTR_EV_PROC_START, 1, "p", p, "p_seq", (uint64_t)1, NULL);
        emit(s, b, GTR_EV_PROC_STOP, 1, NULL);
        *holder = NO_THREAD;
        return 1;
    }
    /* Syscall (on decl_m): stolen, started again, a goroutine enters a syscall on it. */
    uint64_t g = s->next_g++;
    emit(s, b, GTR_EV_PROC_STEAL, 1, "p", p, "p_seq", (uint64_t)1, "m", decl_m, NULL);
    emit(s, b, GTR_EV_PROC_START, 1, "p", p, "p_seq", (uint64_t)2, NULL);
    if (s->two_gens) {
        uint64_t keep = s->gen;
        s->gen = 1;
        emit(s, batch_of(s, m), GTR_EV_GO_STATUS, 1, "g", g, "m", NO_THREAD, "gstatus",
             (uint64_t)2, NULL);
        s->gen = keep;
        b = batch_of(s, m);
    }
    emit(s, b, GTR_EV_GO_STATUS, 1, "g", g, "m", NO_THREAD, "gstatus", (uint64_t)2, NULL);
    emit(s, b, GTR_EV_GO_SYSCALL_BEGIN, 1, "p_seq", (uint64_t)3, "stack", (uint64_t)0, NULL);
    *holder = m;
    return 3;
}

/* snippet writes the events that reproduce stuck event e's condition. */
static void snippet(synth *s, const gtr_stuck_event *e, const char *shape)
{
    const char *rel = strstr(shape, " seq=") != NULL ? strstr(shape, " seq=") + 5 : "";
    char relbuf[32];
    size_t n = strcspn(rel, " \n");
    if (n >= sizeof relbuf)
        n = sizeof relbuf - 1;
    memcpy(relbuf, rel, n);
    relbuf[n] = '\0';
    bool zero_seq = strstr(shape, "event-seq=0") != NULL;
    switch (e->wait) {
    case GTR_WAIT_UNDECLARED:
        if (e->resource == GTR_RESOURCE_PROC)
            present_proc(s, e, s->next_p++, zero_seq ? 0 : 1, s->next_m++);
        else
            present_go(s, e, strstr(shape, "goroutine=0") != NULL ? 0 : s->next_g++,
                       zero_seq ? 0 : 1);
        return;
    case GTR_WAIT_STATE:
    case GTR_WAIT_SEQUENCE: {
        bool state = e->wait == GTR_WAIT_STATE;
        const char *have = state ? e->have_status : e->need_status;
        if (e->type == GTR_EV_PROC_STEAL && !state)
            have = "Syscall";
        if (e->resource == GTR_RESOURCE_PROC) {
            uint64_t p = s->next_p++, st = proc_status_of(have);
            uint64_t decl_m = s->next_m, holder = decl_m, at = 0;
            if (st == 0) {
                s->failed = true;
                return;
            }
            if (strcmp(relbuf, "another-generation") == 0) {
                uint64_t keep = s->gen;
                s->gen = 1;
                declare_proc(s, p, st);
                s->gen = keep;
            } else {
                declare_proc(s, p, st);
                if (strcmp(relbuf, "ahead") == 0)
                    at = advance_proc(s, p, st, decl_m, &holder);
            }
            present_proc(s, e, p, state ? (zero_seq ? 0 : 1) : seq_for(relbuf, at), holder);
            return;
        }
        uint64_t g = strstr(shape, "goroutine=0") != NULL ? 0 : s->next_g++;
        uint64_t st = go_status_of(have), at = 0;
        if (st == 0) {
            s->failed = true;
            return;
        }
        if (strcmp(relbuf, "another-generation") == 0) {
            /* Declared in the first generation only. */
            uint64_t m = s->next_m++, keep = s->gen;
            s->gen = 1;
            emit(s, batch_of(s, m), GTR_EV_GO_STATUS, 1, "g", g, "m", st == 3 ? m : NO_THREAD,
                 "gstatus", st, NULL);
            s->gen = keep;
        } else {
            declare_go(s, g, st);
            if (strcmp(relbuf, "ahead") == 0)
                at = advance_go(s, g, st);
        }
        present_go(s, e, g, state ? (zero_seq ? 0 : 1) : seq_for(relbuf, at));
        return;
    }
    case GTR_WAIT_THREAD_PROC: {
        uint64_t m = s->next_m++, held = s->next_p++, p = s->next_p++;
        declare_proc(s, p, 2);
        size_t b = batch_of(s, m);
        emit(s, b, GTR_EV_PROC_STATUS, 1, "p", held, "pstatus", (uint64_t)1, NULL);
        emit(s, b, GTR_EV_PROC_START, LATE, "p", p, "p_seq", (uint64_t)(zero_seq ? 0 : 1), NULL);
        return;
    }
    case GTR_WAIT_PROC_RELEASE: {
        uint64_t m = s->next_m++;
        running_context(s, m);
        size_t b = batch_of(s, m);
        emit(s, b, GTR_EV_GO_SYSCALL_BEGIN, 1, "p_seq", (uint64_t)1, "stack", (uint64_t)0, NULL);
        emit(s, b, GTR_EV_GO_SYSCALL_END_BLOCKED, LATE, NULL);
        return;
    }
    case GTR_WAIT_GC_SEQUENCE: {
        /* A GC cycle on a thread of its own takes the GC to sequence 2; the stuck event then
         * names a later (behind) or an earlier (ahead) cycle. A GCActive waits only after the
         * first generation, where this recipe does not reach. */
        if (e->type == GTR_EV_GC_ACTIVE)
            break;
        uint64_t m = s->next_m++;
        running_context(s, m);
        size_t b = batch_of(s, m);
        emit(s, b, GTR_EV_GC_BEGIN, 1, "gc_seq", (uint64_t)1, "stack", (uint64_t)0, NULL);
        emit(s, b, GTR_EV_GC_END, 1, "gc_seq", (uint64_t)2, NULL);
        uint64_t seq = strcmp(relbuf, "behind") == 0 ? 5 : 1;
        uint64_t sm = s->next_m++;
        running_context(s, sm);
        b = batch_of(s, sm);
        if (e->type == GTR_EV_GC_BEGIN)
            emit(s, b, e->type, LATE, "gc_seq", seq, "stack", (uint64_t)0, NULL);
        else
            emit(s, b, e->type, LATE, "gc_seq", seq, NULL);
        return;
    }
    case GTR_WAIT_NOTHING:
        break;
    }
    s->failed = true;
}

/* tables appends the generation's batch on no thread: the frequency and, for go1.25+, the
 * sync and clock snapshot. */
static void tables(synth *s, uint64_t gen)
{
    tracedit_batch tmpl = {.kind = GTR_EV_EVENT_BATCH, .gen = gen, .m = NO_THREAD,
                           .time = gen * 1000};
    if (tracedit_insert_batch(&s->t, s->t.nbatches, &tmpl) != GTR_OK) {
        s->failed = true;
        return;
    }
    size_t b = s->t.nbatches - 1;
    static const uint64_t freq[1] = {15625000};
    const uint64_t clock[4] = {0, gen /* mono */, gen /* sec */, 0 /* nsec */};
    uint32_t idx;
    if (s->t.version >= GTR_GO125) {
        if (tracedit_add_event(&s->t, GTR_EV_SYNC, freq, 0, false, NULL, 0, &idx) != GTR_OK ||
            tracedit_batch_insert(&s->t, b, s->t.batches[b].nev, idx) != GTR_OK)
            s->failed = true;
    }
    if (tracedit_add_event(&s->t, GTR_EV_FREQUENCY, freq, 1, false, NULL, 0, &idx) != GTR_OK ||
        tracedit_batch_insert(&s->t, b, s->t.batches[b].nev, idx) != GTR_OK)
        s->failed = true;
    if (s->t.version >= GTR_GO125) {
        if (tracedit_add_event(&s->t, GTR_EV_CLOCK_SNAPSHOT, clock, 4, false, NULL, 0, &idx) !=
                GTR_OK ||
            tracedit_batch_insert(&s->t, b, s->t.batches[b].nev, idx) != GTR_OK)
            s->failed = true;
    }
}

/* order_generations puts the batches in generation order (the snippets wrote the two
 * generations' batches as they went), each generation closed by the go1.26+ EndOfGeneration
 * marker. */
static void order_generations(synth *s)
{
    size_t n = s->t.nbatches;
    tracedit_batch *sorted = calloc(n + 2, sizeof *sorted);
    if (sorted == NULL) {
        s->failed = true;
        return;
    }
    size_t w = 0;
    for (uint64_t g = 1; g <= s->gen; g++) {
        for (size_t b = 0; b < n; b++)
            if (s->t.batches[b].gen == g)
                sorted[w++] = s->t.batches[b];
        if (s->t.version >= GTR_GO126)
            sorted[w++] = (tracedit_batch){.kind = GTR_EV_END_OF_GENERATION};
    }
    /* The batches (and their events) move to the sorted array, which replaces the old. */
    free(s->t.batches);
    s->t.batches = sorted;
    s->t.nbatches = w;
    s->t.batches_cap = n + 2;
}

/* diagnose reads data to its failure and diagnoses it; NULL when it did not fail to
 * advance. */
static gtr_diagnosis *diagnose(const uint8_t *data, size_t size, gtr_go_version *ver)
{
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_diagnosis *d = NULL;
    gtr_event ev;
    if (gtr_input_open_memory_plain(data, size, NULL, &in, NULL) == GTR_OK &&
        gtr_reader_new(in, NULL, &r, NULL) == GTR_OK) {
        *ver = gtr_reader_go_version(r);
        while (gtr_reader_next(r, &ev, NULL) == GTR_OK)
            ;
        if (gtr_reader_diagnose(r, NULL, &d, NULL) != GTR_OK)
            d = NULL;
    }
    gtr_reader_free(r);
    gtr_input_free(in);
    return d;
}

gtr_status reduce_synthesize_stuck(const uint8_t *data, size_t size, gtr_buf *out)
{
    gtr_go_version ver = 0;
    gtr_diagnosis *d = diagnose(data, size, &ver);
    if (d == NULL || ver < GTR_GO122)
        return GTR_E_USAGE;
    synth s = {.next_m = 1, .next_p = 0, .next_g = 1, .gen = 1};
    s.t.has_header = true;
    s.t.version = ver;
    gtr_buf shape = {0};
    /* One snippet per distinct line of the shape. */
    for (size_t i = 0; i < gtr_diagnosis_len(d); i++) {
        gtr_buf_reset(&shape);
        gtr_stuck_event_shape(gtr_diagnosis_event(d, i), &shape);
        if (shape.data != NULL && strstr(shape.data, "another-generation") != NULL)
            s.two_gens = true;
    }
    if (s.two_gens) {
        tables(&s, 1);
        s.gen = 2;
    }
    gtr_buf done = {0};   /* the shape lines written, each followed by '\n' */
    for (size_t i = 0; i < gtr_diagnosis_len(d) && !s.failed; i++) {
        const gtr_stuck_event *e = gtr_diagnosis_event(d, i);
        gtr_buf_reset(&shape);
        gtr_stuck_event_shape(e, &shape);
        gtr_buf_putc(&shape, '\n');
        if (gtr_buf_status(&shape) != GTR_OK) {
            s.failed = true;
            break;
        }
        bool seen = false;
        for (const char *line = done.data; line != NULL && *line != '\0' && !seen;) {
            size_t n = strcspn(line, "\n") + 1;
            seen = n == shape.len && memcmp(line, shape.data, n) == 0;
            line += n;
        }
        if (seen)
            continue;
        gtr_buf_append(&done, shape.data, shape.len);
        snippet(&s, e, shape.data);
    }
    tables(&s, s.gen);
    if (!s.failed)
        order_generations(&s);
    gtr_status st = s.failed ? GTR_E_USAGE : tracedit_encode(&s.t, out, NULL);
    gtr_buf_free(&shape);
    gtr_buf_free(&done);
    tracedit_trace_free(&s.t);
    gtr_diagnosis_free(d);
    return st;
}
