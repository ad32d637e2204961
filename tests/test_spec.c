/* SPDX-License-Identifier: BSD-3-Clause */
/* test_spec.c: the event table (spec.c) and version helpers against Go.
 *   - every row equals tracev2.Specs() as dumped by Go 1.27.3 into
 *     tests/data/spec_vectors.txt, with Version.Valid, len(Version.Specs()) and
 *     Version.EventName for a grid of versions and types;
 *   - the invariants of Go's tracev2.TestSpecs, over the regular events and the
 *     experimental rows (128..136) alike. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gtr/spec.h"

/* join writes a list like Go's strings.Join(..., ","), or "-" when empty. */
static void join_args(const gtr_event_spec *s, char *out, size_t n)
{
    out[0] = '\0';
    for (size_t i = 0; i < s->nargs; i++) {
        if (i > 0)
            strncat(out, ",", n - strlen(out) - 1);
        strncat(out, s->args[i], n - strlen(out) - 1);
    }
    if (out[0] == '\0')
        snprintf(out, n, "-");
}

static void join_ids(const uint8_t *ids, size_t k, char *out, size_t n)
{
    out[0] = '\0';
    for (size_t i = 0; i < k; i++)
        snprintf(out + strlen(out), n - strlen(out), i > 0 ? ",%u" : "%u", (unsigned)ids[i]);
    if (out[0] == '\0')
        snprintf(out, n, "-");
}

static const char *tf(bool b)
{
    return b ? "true" : "false";
}

static void test_spec_rows_match_go(void **state)
{
    (void)state;
    FILE *f = fopen(GTR_SOURCE_DIR "/tests/data/spec_vectors.txt", "r");
    assert_non_null(f);
    char line[1024];
    int rows = 0, versions = 0, names = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == 'T') {
            unsigned len, num, max, maxexp;
            assert_int_equal(sscanf(line, "T %u %u %u %u", &len, &num, &max, &maxexp), 4);
            assert_int_equal(len, GTR_EV_MAX_EXPERIMENTAL);
            assert_int_equal(num, GTR_EV_NUM);
            assert_int_equal(max, GTR_EV_MAX);
            assert_int_equal(maxexp, GTR_EV_MAX_EXPERIMENTAL);
        } else if (line[0] == 'S') {
            unsigned t;
            int off;
            assert_int_equal(sscanf(line, "S %u %n", &t, &off), 1);
            const gtr_event_spec *s = gtr_spec((uint8_t)t);
            char args[256], sids[32], kids[32], got[512];
            join_args(s, args, sizeof args);
            join_ids(s->string_ids, s->nstring_ids, sids, sizeof sids);
            join_ids(s->stack_ids, s->nstack_ids, kids, sizeof kids);
            snprintf(got, sizeof got, "S %u %s %s %s %s %u %s %s %s %u", t,
                     s->name != NULL ? s->name : "-", args, sids, kids, (unsigned)s->start_ev,
                     tf(s->is_timed), tf(s->has_data), tf(s->is_stack), (unsigned)s->experiment);
            if (strcmp(got, line) != 0)
                fail_msg("spec row differs:\n ours %s\n Go   %s", got, line);
            rows++;
        } else if (line[0] == 'V') {
            unsigned v, n;
            char valid[8];
            assert_int_equal(sscanf(line, "V %u %7s %u", &v, valid, &n), 3);
            assert_int_equal(gtr_go_version_valid(v), strcmp(valid, "true") == 0);
            assert_int_equal(gtr_go_version_nspecs(v), n);
            versions++;
        } else if (line[0] == 'N') {
            unsigned v, t;
            char want[64], buf[64];
            assert_int_equal(sscanf(line, "N %u %u %63s", &v, &t, want), 3);
            /* EventName of "<invalid trace version>" has a space: take the rest of line. */
            const char *rest = strchr(strchr(line + 2, ' ') + 1, ' ') + 1;
            assert_string_equal(gtr_go_version_event_name(v, (uint8_t)t, buf, sizeof buf), rest);
            names++;
        }
    }
    fclose(f);
    assert_int_equal(rows, GTR_EV_MAX_EXPERIMENTAL);
    assert_int_equal(versions, 30);
    assert_int_equal(names, 6 * 14);
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

static bool listed(const uint8_t *ids, size_t n, size_t i)
{
    for (size_t j = 0; j < n; j++) {
        if (ids[j] == i)
            return true;
    }
    return false;
}

/* check_event: the body of tracev2.TestSpecs for one event type. */
static void check_event(unsigned ev)
{
    const gtr_event_spec *s = gtr_spec((uint8_t)ev);
    if (s->name == NULL)
        fail_msg("expected event %u to be defined in specs", ev);
    if (s->is_timed && (s->nargs == 0 || strcmp(s->args[0], "dt") != 0))
        fail_msg("%s is a timed event, but its first argument is not 'dt'", s->name);
    if (s->has_data && strcmp(s->name, "String") != 0 && strcmp(s->name, "ExperimentalBatch") != 0)
        fail_msg("%s has data, but is not a special kind of event", s->name);
    if (s->is_stack && strcmp(s->name, "Stack") != 0)
        fail_msg("%s listed as being a stack, but is not the Stack event", s->name);
    if (s->is_timed && s->nargs > GTR_MAX_TIMED_EVENT_ARGS)
        fail_msg("%s has too many timed event args: have %u, want %d at most", s->name,
                 (unsigned)s->nargs, GTR_MAX_TIMED_EVENT_ARGS);
    if (gtr_event_type_experimental((uint8_t)ev) && s->experiment == GTR_EXP_NONE)
        fail_msg("experimental event %s must have an experiment", s->name);
    if (!gtr_event_type_experimental((uint8_t)ev) && s->experiment != GTR_EXP_NONE)
        fail_msg("regular event %s has an experiment", s->name);
    assert_true(s->nargs <= GTR_MAX_SPEC_ARGS);
    for (size_t i = 0; i < s->nargs; i++) {
        /* argNameRegexp ((name)_)?(type) finds a match iff the name has a letter. */
        bool letter = false;
        for (const char *p = s->args[i]; *p != '\0'; p++)
            letter |= isalpha((unsigned char)*p) != 0;
        if (!letter)
            fail_msg("malformed argument %s for event %s", s->args[i], s->name);
    }
    for (size_t j = 0; j < s->nstack_ids; j++) {
        assert_true(s->stack_ids[j] < s->nargs);
        if (!has_suffix(s->args[s->stack_ids[j]], "stack"))
            fail_msg("stack argument listed at %u in %s does not imply stack type",
                     (unsigned)s->stack_ids[j], s->name);
    }
    for (size_t i = 0; i < s->nargs; i++) {
        if (has_suffix(s->args[i], "stack") && !listed(s->stack_ids, s->nstack_ids, i))
            fail_msg("found stack argument %s in %s at index %zu not listed in StackIDs",
                     s->args[i], s->name, i);
    }
    for (size_t j = 0; j < s->nstring_ids; j++) {
        assert_true(s->string_ids[j] < s->nargs);
        if (!has_suffix(s->args[s->string_ids[j]], "string"))
            fail_msg("string argument listed at %u in %s does not imply string type",
                     (unsigned)s->string_ids[j], s->name);
    }
    for (size_t i = 0; i < s->nargs; i++) {
        if (has_suffix(s->args[i], "string") && !listed(s->string_ids, s->nstring_ids, i))
            fail_msg("found string argument %s in %s at index %zu not listed in StringIDs",
                     s->args[i], s->name, i);
    }
    if (s->start_ev != GTR_EV_NONE)
        assert_non_null(gtr_spec(s->start_ev)->name);
}

static void test_spec_invariants_hold_for_all_events(void **state)
{
    (void)state;
    assert_true(GTR_EV_NUM > 0);
    assert_true(GTR_EV_MAX_EXPERIMENTAL >= GTR_EV_MAX);
    for (unsigned ev = GTR_EV_NONE + 1; ev < GTR_EV_NUM; ev++)
        check_event(ev);
    for (unsigned ev = GTR_EV_MAX + 1; ev < GTR_EV_MAX_EXPERIMENTAL; ev++)
        check_event(ev);
    /* Rows between the regular and experimental ranges are empty. */
    for (unsigned ev = GTR_EV_NUM; ev <= GTR_EV_MAX; ev++)
        assert_null(gtr_spec((uint8_t)ev)->name);
    assert_null(gtr_spec(GTR_EV_NONE)->name);
    /* A type without stacks has stack_ids[0] == 0 (gtr_event_stack reads it alone), every
     * row and the empty spec of types past the table (the Sync's, 255) alike. */
    for (unsigned ev = 0; ev < 256; ev++) {
        const gtr_event_spec *sp = gtr_spec((uint8_t)ev);
        if (sp->nstack_ids == 0)
            assert_int_equal(sp->stack_ids[0], 0);
    }
    assert_string_equal(gtr_experiment_name(GTR_EXP_NONE), "None");
    assert_string_equal(gtr_experiment_name(GTR_EXP_ALLOC_FREE), "AllocFree");
    assert_null(gtr_experiment_name(GTR_EXP_NUM));
}

static void test_spec_lookup_and_header_format(void **state)
{
    (void)state;
    assert_int_equal(gtr_go_version_lookup_event(GTR_GO122, "GoStart", 7), GTR_EV_GO_START);
    assert_int_equal(gtr_go_version_lookup_event(GTR_GO122, "GoSwitch", 8), -1);
    assert_int_equal(gtr_go_version_lookup_event(GTR_GO123, "GoSwitch", 8), GTR_EV_GO_SWITCH);
    assert_int_equal(gtr_go_version_lookup_event(GTR_GO125, "Span", 4), -1);
    assert_int_equal(gtr_go_version_lookup_event(GTR_GO126, "Span", 4), GTR_EV_SPAN);
    assert_int_equal(gtr_go_version_lookup_event(GTR_GO111, "GoStart", 7), -1);
    assert_int_equal(gtr_go_version_lookup_event(GTR_GO126, "GoStar", 6), -1);
    char h[GTR_HEADER_MAX];
    assert_int_equal(gtr_header_format(22, h), 16);
    assert_memory_equal(h, "go 1.22 trace\0\0\0", 16);
    assert_int_equal(gtr_header_format(5, h), 15);
    assert_memory_equal(h, "go 1.5 trace\0\0\0", 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_rows_match_go),
        cmocka_unit_test(test_spec_invariants_hold_for_all_events),
        cmocka_unit_test(test_spec_lookup_and_header_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
