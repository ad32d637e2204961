/* SPDX-License-Identifier: BSD-3-Clause */
/* event_testutil.h: build the vectors' tables and events (tests only). */
#ifndef GTR_TESTS_EVENT_TESTUTIL_H
#define GTR_TESTS_EVENT_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "event_vectors.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* vec_table builds the table of v (NULL for table 0); free with gtr__evt_free. Aborts the
 * test program if the table cannot be built. */
static inline gtr__ev_table *vec_table(const vec_event *v)
{
    gtr__ev_table *t = NULL;
    gtr_err err = GTR_ERR_INIT;
    uint64_t extra;
    gtr__sync s = {1.0, false, 0, 0, 0, 0};

    if (v->table == 0)
        return NULL;
    if (gtr__evt_new(NULL, &t, &err) < 0)
        goto fail;
    for (size_t i = 0; i < NELEM(vec_strings); i++)
        if (gtr__evt_add_string(t, vec_strings[i].id, vec_strings[i].s, vec_strings[i].len, &err) < 0)
            goto fail;
    for (size_t i = 0; i < NELEM(vec_stacks); i++)
        if (gtr__evt_add_stack(t, vec_stacks[i].id, vec_stacks[i].pcs, vec_stacks[i].n, &err) < 0)
            goto fail;
    for (size_t i = 0; i < NELEM(vec_frames); i++) {
        gtr__frame f = {vec_frames[i].pc, vec_frames[i].func, vec_frames[i].file,
                        vec_frames[i].line};
        if (gtr__evt_add_frame(t, &f, &err) < 0)
            goto fail;
    }
    if (gtr__evt_add_extra_string(t, "mytask", 6, &extra, &err) < 0 || extra != 1)
        goto fail;
    if (gtr__evt_compactify(t, &err) < 0)
        goto fail;
    if (v->table == 2) {
        s.freq = v->freq;
        s.has_clock_snapshot = true;
        s.snap_time = v->snap_time;
        s.snap_mono = v->mono;
        s.snap_wall_sec = v->wall_sec;
        s.snap_wall_nsec = v->wall_nsec;
    }
    gtr__evt_set_sync(t, &s);
    return t;
fail:
    fprintf(stderr, "building the vector table: %s\n", err.msg);
    abort();
}

static inline gtr_event vec_make_event(const vec_event *v, const gtr__ev_table *t)
{
    gtr_event e = gtr__make_event(t, v->g, v->p, v->m, v->type, v->time);
    for (size_t i = 0; i < 4; i++)
        e.args_[i] = v->args[i];
    return e;
}

#endif /* GTR_TESTS_EVENT_TESTUTIL_H */
