/* SPDX-License-Identifier: BSD-3-Clause */
/* test_event_formatter.c: gtr_event_formatter writes exactly what gtr_event_format writes,
 * on every event of real traces of each format (many generations, each with its own stack
 * table), and where the stack text it keeps would go stale: a table changed after a stack
 * was printed, tables that alternate, a table freed and another made in its place. Errors
 * are gtr_event_format's, and stacks it cannot keep (too long, no memory) are still right. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base.h"
#include "budget_alloc.h"
#include "corpus_events.h"
#include "gtr/event.h"
#include "gtr/input.h"
#include "gtr/reader.h"

/* both formats ev with gtr_event_format and with f; both results must be the same. */
static void both(gtr_event_formatter *f, const gtr_event *ev, gtr_status *st_out)
{
    gtr_buf want, got;
    gtr_err ew = GTR_ERR_INIT, eg = GTR_ERR_INIT;
    gtr_buf_init(&want, NULL);
    gtr_buf_init(&got, NULL);
    gtr_status sw = gtr_event_format(ev, &want, &ew);
    gtr_status sg = gtr_event_formatter_format(f, ev, &got, &eg);
    assert_int_equal(sg, sw);
    if (sw == GTR_OK) {
        assert_int_equal(got.len, want.len);
        assert_memory_equal(got.data, want.data, want.len);
    } else {
        size_t nw, ng;
        const char *tw = gtr_err_text(&ew, &nw), *tg = gtr_err_text(&eg, &ng);
        assert_int_equal(ng, nw);
        assert_memory_equal(tg, tw, nw);
    }
    if (st_out != NULL)
        *st_out = sw;
    gtr_err_clear(&ew);
    gtr_err_clear(&eg);
    gtr_buf_free(&want);
    gtr_buf_free(&got);
}

/* The real-trace walk: every event formatted both ways, syncs and events with a stack
 * counted. */
typedef struct walk {
    gtr_event_formatter *f;
    size_t stacks, syncs;
} walk;

static void check_event(const gtr_event *ev, void *ctx)
{
    walk *w = ctx;
    if (gtr_event_get_kind(ev) == GTR_EVENT_SYNC)
        w->syncs++;
    if (!gtr_stack_is_none(gtr_event_stack(ev)))
        w->stacks++;
    both(w->f, ev, NULL);
}

static void test_event_formatter_matches_format_on_real_traces(void **state)
{
    static const struct {
        const char *dir, *name;
    } traces[] = {
        {"real", "go1.22-testprog-gc-stress.trace.gz"},
        {"real", "go1.23-testprog-annotations-stress.trace.gz"},
        {"real", "go1.25-testprog-annotations-stress.trace.gz"},
        {"real", "testprog-cgo-callback.stress.trace.gz"},
        {"real", "testprog-cpu-profile.trace.gz"},
        {"real", "testprog-annotations-stress.allocfree.trace.gz"},
        {"old", "tracev1-stress_1_21_good.trace.gz"},
        {"old", "tracev1-user_task_region_1_19_good.trace.gz"},
    };
    walk w = {NULL, 0, 0};
    gtr_err err = GTR_ERR_INIT;
    (void)state;
    /* One formatter for all: each trace's tables replace the last one's. */
    assert_int_equal(gtr_event_formatter_new(NULL, &w.f, &err), GTR_OK);
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++)
        corpus_each_event(traces[i].dir, traces[i].name, check_event, &w);
    print_message("%zu events with stacks, %zu syncs\n", w.stacks, w.syncs);
    assert_true(w.stacks > 10000);
    assert_true(w.syncs > 20);
    gtr_event_formatter_free(w.f);
}

/* A table with one stack (ID 1) of two PCs; func/file names come from strings 1-4. */
static gtr__ev_table *small_table(const char *func0)
{
    gtr__ev_table *t = NULL;
    gtr_err err = GTR_ERR_INIT;
    static const uint64_t pcs[] = {0x1000, 0x2000};
    gtr__frame f0 = {0x1000, 1, 2, 10};
    assert_int_equal(gtr__evt_new(NULL, &t, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_string(t, 1, func0, strlen(func0), &err), GTR_OK);
    assert_int_equal(gtr__evt_add_string(t, 2, "/src/a.go", 9, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_stack(t, 1, pcs, 2, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_frame(t, &f0, &err), GTR_OK);
    return t;
}

/* An event with stack 1 of t: GoCreate's (args: new G, stack, stack). */
static gtr_event stack_event(const gtr__ev_table *t)
{
    gtr_event e = gtr__make_event(t, 1, 0, 7, GTR_EV_GO_CREATE, 100);
    e.args_[0] = 9; /* the new goroutine */
    e.args_[1] = 1; /* its stack */
    e.args_[2] = 1; /* the creator's stack */
    return e;
}

/* The text of ev, through f. */
static void text_of(gtr_event_formatter *f, const gtr_event *ev, gtr_buf *out)
{
    gtr_err err = GTR_ERR_INIT;
    gtr_buf_reset(out);
    assert_int_equal(gtr_event_formatter_format(f, ev, out, &err), GTR_OK);
}

static void test_event_formatter_sees_table_changes(void **state)
{
    gtr_event_formatter *f = NULL;
    gtr_err err = GTR_ERR_INIT;
    gtr_buf a, b;
    (void)state;
    gtr_buf_init(&a, NULL);
    gtr_buf_init(&b, NULL);
    assert_int_equal(gtr_event_formatter_new(NULL, &f, &err), GTR_OK);

    /* A frame added after the stack was printed changes its text (the second PC had none,
     * a zero frame). */
    gtr__ev_table *t = small_table("main.f");
    gtr_event e = stack_event(t);
    both(f, &e, NULL);
    text_of(f, &e, &a);
    gtr__frame f1 = {0x2000, 1, 2, 20};
    assert_int_equal(gtr__evt_add_frame(t, &f1, &err), GTR_OK);
    both(f, &e, NULL);
    text_of(f, &e, &b);
    assert_true(b.len > a.len);
    assert_non_null(strstr(b.data, "/src/a.go:20"));

    /* Two tables whose stacks share an ID, alternating: each event gets its own. */
    gtr__ev_table *u = small_table("main.g");
    gtr_event e2 = stack_event(u);
    for (int i = 0; i < 3; i++) {
        text_of(f, &e, &a);
        assert_non_null(strstr(a.data, "main.f @ 0x1000"));
        text_of(f, &e2, &b);
        assert_non_null(strstr(b.data, "main.g @ 0x1000"));
        assert_null(strstr(b.data, "main.f"));
    }
    gtr__evt_free(u);

    /* A stack without frames prints nothing, kept or not (a fuzz input's first stack). */
    gtr__ev_table *z = NULL;
    assert_int_equal(gtr__evt_new(NULL, &z, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_stack(z, 1, NULL, 0, &err), GTR_OK);
    gtr_event_formatter *fz = NULL;
    assert_int_equal(gtr_event_formatter_new(NULL, &fz, &err), GTR_OK);
    gtr_event ez = stack_event(z);
    for (int i = 0; i < 3; i++)
        both(fz, &ez, NULL);
    gtr_event_formatter_free(fz);
    gtr__evt_free(z);

    /* A table reset and filled again, and a table freed and another made (perhaps at the
     * same address): the new contents are printed. */
    gtr__evt_reset(t);
    static const uint64_t pc[] = {0x3000};
    gtr__frame f2 = {0x3000, 5, 5, 30};
    assert_int_equal(gtr__evt_add_string(t, 5, "main.h", 6, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_stack(t, 1, pc, 1, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_frame(t, &f2, &err), GTR_OK);
    both(f, &e, NULL);
    text_of(f, &e, &a);
    assert_non_null(strstr(a.data, "main.h @ 0x3000"));
    assert_null(strstr(a.data, "main.f"));
    gtr__evt_free(t);
    for (int i = 0; i < 4; i++) {
        char name[16];
        snprintf(name, sizeof name, "main.k%d", i);
        gtr__ev_table *w = small_table(name);
        gtr_event ew = stack_event(w);
        both(f, &ew, NULL);
        text_of(f, &ew, &a);
        assert_non_null(strstr(a.data, name));
        gtr__evt_free(w);
    }

    gtr_event_formatter_free(f);
    gtr_buf_free(&a);
    gtr_buf_free(&b);
}

static void test_event_formatter_fails_as_format_does(void **state)
{
    gtr_event_formatter *f = NULL;
    gtr_err err = GTR_ERR_INIT;
    gtr_status st;
    (void)state;
    assert_int_equal(gtr_event_formatter_new(NULL, &f, &err), GTR_OK);
    gtr__ev_table *t = small_table("main.f");
    /* A stack ID the table lacks: Go's mustGet panic, every time (nothing was kept). */
    gtr_event e = stack_event(t);
    e.args_[1] = 42;
    e.args_[2] = 42;
    for (int i = 0; i < 2; i++) {
        both(f, &e, &st);
        assert_int_equal(st, GTR_E_USAGE);
    }
    /* A frame naming a missing string: the same message both ways. */
    static const uint64_t pc[] = {0x4000};
    gtr__frame bad = {0x4000, 77, 2, 1};
    assert_int_equal(gtr__evt_add_stack(t, 2, pc, 1, &err), GTR_OK);
    assert_int_equal(gtr__evt_add_frame(t, &bad, &err), GTR_OK);
    e.args_[1] = 2;
    e.args_[2] = 2;
    for (int i = 0; i < 2; i++) {
        both(f, &e, &st);
        assert_int_equal(st, GTR_E_USAGE);
    }
    assert_int_equal(gtr_event_formatter_format(NULL, &e, NULL, &err), GTR_E_USAGE);
    assert_int_equal(gtr_event_formatter_new(NULL, NULL, &err), GTR_E_USAGE);
    gtr_event_formatter_free(NULL);
    gtr__evt_free(t);
    gtr_event_formatter_free(f);
}

static void test_event_formatter_right_when_it_cannot_keep(void **state)
{
    gtr_err err = GTR_ERR_INIT;
    (void)state;
    /* A stack whose text is over 64 KiB (400 frames of a 200-byte name) is not kept. */
    char name[201];
    memset(name, 'x', 200);
    name[200] = '\0';
    gtr__ev_table *t = small_table(name);
    uint64_t pcs[400];
    for (uint64_t i = 0; i < 400; i++) {
        gtr__frame fr = {0x10000 + i, 1, 2, i};
        pcs[i] = fr.pc;
        assert_int_equal(gtr__evt_add_frame(t, &fr, &err), GTR_OK);
    }
    assert_int_equal(gtr__evt_add_stack(t, 3, pcs, 400, &err), GTR_OK);
    gtr_event e = stack_event(t);
    e.args_[1] = 3;
    e.args_[2] = 3;
    gtr_event_formatter *f = NULL;
    assert_int_equal(gtr_event_formatter_new(NULL, &f, &err), GTR_OK);
    gtr_buf out;
    gtr_buf_init(&out, NULL);
    text_of(f, &e, &out);
    assert_true(out.len > 2 * (64 << 10));   /* the stack twice: Stack and TransitionStack */
    gtr_buf_free(&out);
    for (int i = 0; i < 3; i++)
        both(f, &e, NULL);
    gtr_event_formatter_free(f);
    gtr__evt_free(t);

    /* Past the 262,144th stack of a table, stacks are printed, not kept: all still right,
     * the first ones still kept. */
    t = small_table("main.f");
    const uint64_t pc0[] = {0x1000};
    for (uint64_t id = 2; id <= 270000; id++)
        assert_int_equal(gtr__evt_add_stack(t, id, pc0, 1, &err), GTR_OK);
    assert_int_equal(gtr_event_formatter_new(NULL, &f, &err), GTR_OK);
    for (int pass = 0; pass < 2; pass++) {
        for (uint64_t id = 1; id <= 270000; id += pass == 0 ? 1 : 997) {
            e = stack_event(t);
            e.args_[1] = id;
            e.args_[2] = id;
            both(f, &e, NULL);
        }
    }
    gtr_event_formatter_free(f);
    gtr__evt_free(t);

    /* With no memory to keep anything, every stack is printed as it comes. */
    budget bud = {1}; /* the formatter itself, then nothing */
    gtr_alloc alc = budget_alloc(&bud);
    assert_int_equal(gtr_event_formatter_new(&alc, &f, &err), GTR_OK);
    t = small_table("main.f");
    e = stack_event(t);
    for (int i = 0; i < 3; i++)
        both(f, &e, NULL);
    gtr_event_formatter_free(f);
    gtr__evt_free(t);
    bud.left = 0;
    assert_int_equal(gtr_event_formatter_new(&alc, &f, &err), GTR_E_NOMEM);
    assert_null(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_formatter_matches_format_on_real_traces),
        cmocka_unit_test(test_event_formatter_sees_table_changes),
        cmocka_unit_test(test_event_formatter_fails_as_format_does),
        cmocka_unit_test(test_event_formatter_right_when_it_cannot_keep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
