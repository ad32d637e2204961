/* SPDX-License-Identifier: BSD-3-Clause */
/* corpus_events.h: every event of a corpus trace, through the high-level reader, for the
 * unit tests that check a property on each (tests only; cmocka). */
#ifndef GTR_TESTS_CORPUS_EVENTS_H
#define GTR_TESTS_CORPUS_EVENTS_H

#include <stdio.h>

#include "gtr/input.h"
#include "gtr/reader.h"

typedef void (*corpus_event_fn)(const gtr_event *ev, void *ctx);

/* corpus_each_event reads corpus/<dir>/<name> of the source tree to its end and calls
 * fn(ev, ctx) on every event (Syncs included); the test fails unless the trace opens and
 * reads to EOF. */
static inline void corpus_each_event(const char *dir, const char *name, corpus_event_fn fn,
                                     void *ctx)
{
    char path[1024];
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_event ev;
    gtr_err err = GTR_ERR_INIT;
    gtr_status st;

    snprintf(path, sizeof path, "%s/corpus/%s/%s", GTR_SOURCE_DIR, dir, name);
    assert_int_equal(gtr_input_open_path(path, NULL, &in, &err), GTR_OK);
    assert_int_equal(gtr_reader_new(in, NULL, &r, &err), GTR_OK);
    while ((st = gtr_reader_next(r, &ev, &err)) == GTR_OK)
        fn(&ev, ctx);
    if (st != GTR_EOF)
        fail_msg("%s: %s", name, gtr_err_text(&err, NULL));
    gtr_err_clear(&err);
    gtr_reader_free(r);
    gtr_input_free(in);
}

#endif /* GTR_TESTS_CORPUS_EVENTS_H */
