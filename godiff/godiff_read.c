/* SPDX-License-Identifier: BSD-3-Clause */
/* godiff_read.c: gotrace's reading of one input, and the reruns of Go that may explain how
 * it differs from Go's (godiff.h). */
#include <stdlib.h>
#include <string.h>

#include "godiff.h"
#include "gtr/input.h"
#include "gtr/reader.h"
#include "gtr/validate.h"

/* mask_time replaces the digits of the first " Time=" of an event line with "?", as
 * norm_nosync.go does on Go's side (ci/go-releases-bench.sh against Go 1.22 - 1.24). */
static void mask_time(gtr_buf *line)
{
    static const char key[] = " Time=";
    for (size_t i = 0; i + sizeof key - 1 <= line->len; i++) {
        if (memcmp(line->data + i, key, sizeof key - 1) != 0)
            continue;
        size_t d = i + sizeof key - 1, e = d;
        while (e < line->len && line->data[e] >= '0' && line->data[e] <= '9')
            e++;
        if (e > d) {
            line->data[d] = '?';
            memmove(line->data + d + 1, line->data + e, line->len - e);
            line->len -= e - d - 1;
            line->data[line->len] = '\0';
        }
        return;
    }
}

godiff_end godiff_read_ours(const uint8_t *data, size_t size, int go_minor, gtr_buf *dump,
                            gtr_err *err)
{
    bool no_sync = go_minor < 25;
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_validator *v = NULL;
    gtr_buf line = {0};
    gtr_event ev;
    godiff_end end = GODIFF_END_HEADER;

    if (gtr_input_open_memory_plain(size > 0 ? data : (const uint8_t *)"", size, NULL, &in,
                                    err) < 0 ||
        gtr_reader_new(in, NULL, &r, err) < 0)
        goto out;
    end = GODIFF_END_READ;
    if (gtr_validator_new(NULL, &v, err) < 0)
        goto out;
    gtr_validator_set_go_version(v, gtr_reader_go_version(r));
    for (;;) {
        gtr_status st = gtr_reader_next(r, &ev, err);
        if (st == GTR_EOF) {
            end = GODIFF_END_EOF;
            break;
        }
        if (st < 0)
            break;
        gtr_buf_reset(&line);
        /* Against Go 1.22 - 1.24, whose reader emits a Sync after each generation, not before
         * it, and prints no N: Sync events are left out of both dumps. */
        if (no_sync && gtr_event_get_kind(&ev) == GTR_EVENT_SYNC) {
            if (gtr_validator_event(v, &ev, err) < 0) {
                end = GODIFF_END_VALIDATOR;
                break;
            }
            continue;
        }
        if (gtr_event_format(&ev, &line, err) < 0) {
            end = err->code == GTR_E_USAGE ? GODIFF_END_PANIC : GODIFF_END_READ;
            break;
        }
        /* ... and each event's Time= is masked (golang/go#73558: the Sync before the first
         * generation moves the times that the reader bumps to keep them increasing). */
        if (no_sync)
            mask_time(&line);
        gtr_buf_putc(&line, '\n');
        if (dump->len < GODIFF_DUMP_LIMIT) {
            size_t room = GODIFF_DUMP_LIMIT - dump->len;
            gtr_buf_append(dump, line.data, line.len < room ? line.len : room);
        }
        if (gtr_validator_event(v, &ev, err) < 0) {
            end = GODIFF_END_VALIDATOR;
            break;
        }
    }
out:
    gtr_buf_free(&line);
    gtr_validator_free(v);
    gtr_reader_free(r);
    gtr_input_free(in);
    return end;
}

void godiff_owned_free(godiff_owned *g)
{
    free(g->dump);
    free(g->msg);
    g->dump = g->msg = NULL;
}

bool godiff_go_explains(godiff_go_fn go, void *ctx, const uint8_t *data, size_t size,
                        const godiff_reading *ours, const godiff_reading *first, int runs)
{
    godiff_mix mix;
    bool have_mix = godiff_mix_init(&mix, ours), explained = false;
    if (have_mix)
        godiff_mix_add(&mix, ours, first, first);
    for (int i = 1; i < runs && !explained; i++) {
        godiff_owned again;
        if (!go(ctx, data, size, &again))
            continue;
        explained = godiff_rerun_explains(ours, first, &again.r);
        if (have_mix && !explained) {
            godiff_mix_add(&mix, ours, first, &again.r);
            explained = godiff_mix_explains(&mix);
        }
        godiff_owned_free(&again);
    }
    if (have_mix)
        godiff_mix_free(&mix);
    return explained;
}
