/* SPDX-License-Identifier: BSD-3-Clause */
/* goroutine_summary.c: per goroutine, the time spent running, runnable (waiting for a P),
 * blocked and in syscalls, in milliseconds, from the trace's state transitions.
 *
 * Shows the event accessors: a StateTransition event's resource says whose state changed,
 * gtr_state_transition_goroutine gives the old and new state, and gtr_event_time the
 * (strictly increasing) time. A goroutine's time in a state runs from the transition into it
 * to the next one; time before its first transition is not known and not counted.
 *
 *   goroutine_summary corpus/real/testprog-annotations.trace.gz */
#include <gtr/gtr.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct g_info {
    gtr_goid id;
    gtr_go_state state;          /* current state, since `since` */
    gtr_time since;
    gtr_time in[GTR_GO_SYSCALL + 1];
} g_info;

static g_info *gs;
static size_t ngs;

static g_info *lookup(gtr_goid id)   /* linear search: fine for an example */
{
    for (size_t i = 0; i < ngs; i++)
        if (gs[i].id == id)
            return &gs[i];
    g_info *more = realloc(gs, (ngs + 1) * sizeof *gs);
    if (more == NULL)
        return NULL;
    gs = more;
    gs[ngs] = (g_info){.id = id, .state = GTR_GO_UNDETERMINED, .since = -1};
    return &gs[ngs++];
}

static void enter(g_info *g, gtr_go_state to, gtr_time now)
{
    if (g->since >= 0 && g->state <= GTR_GO_SYSCALL)
        g->in[g->state] += now - g->since;
    g->state = to;
    g->since = now;
}

int main(int argc, char **argv)
{
    gtr_reader *r = NULL;
    gtr_event ev;
    gtr_state_transition t;
    gtr_go_state from, to;
    gtr_time last = 0;
    gtr_err err = GTR_ERR_INIT;
    gtr_status st;

    if (argc != 2) {
        fprintf(stderr, "usage: goroutine_summary TRACE\n");
        return 2;
    }
    if ((st = gtr_reader_open_path(argv[1], NULL, &r, &err)) == GTR_OK) {
        while ((st = gtr_reader_next(r, &ev, &err)) == GTR_OK) {
            last = gtr_event_time(&ev);
            if (gtr_event_get_kind(&ev) != GTR_EVENT_STATE_TRANSITION ||
                gtr_event_state_transition(&ev, &t, &err) != GTR_OK ||
                t.resource.kind != GTR_RESOURCE_GOROUTINE ||
                gtr_state_transition_goroutine(&t, &from, &to, &err) != GTR_OK)
                continue;
            g_info *g = lookup(t.resource.id);
            if (g == NULL) {
                st = gtr_err_setf(&err, GTR_E_NOMEM, "out of memory");
                break;
            }
            enter(g, to, last);
        }
    }
    gtr_reader_free(r);   /* and the input it opened */
    if (st != GTR_EOF) {
        fprintf(stderr, "goroutine_summary: %s\n", gtr_err_text(&err, NULL));
        gtr_err_clear(&err);
        free(gs);
        return 1;
    }
    gtr_err_clear(&err);
    printf("%10s %12s %12s %12s %12s\n", "goroutine", "running", "runnable", "blocked",
           "syscall");
    for (size_t i = 0; i < ngs; i++) {
        enter(&gs[i], gs[i].state, last);   /* close the open interval at the trace's end */
        printf("%10lld %12.3f %12.3f %12.3f %12.3f\n", (long long)gs[i].id,
               (double)gs[i].in[GTR_GO_RUNNING] / 1e6, (double)gs[i].in[GTR_GO_RUNNABLE] / 1e6,
               (double)gs[i].in[GTR_GO_WAITING] / 1e6, (double)gs[i].in[GTR_GO_SYSCALL] / 1e6);
    }
    free(gs);
    return 0;
}
