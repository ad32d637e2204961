/* SPDX-License-Identifier: BSD-3-Clause */
/* count_events.c: how many events of each kind a Go execution trace holds.
 *
 * The smallest complete use of libtrace: open a reader on a file (plain or gzip-compressed,
 * "-" is stdin), pull ordered events until GTR_EOF, free the reader (and with it the input
 * it opened). Every fallible call takes a caller-owned gtr_err whose message is Go's own
 * text.
 *
 *   count_events corpus/real/testprog-annotations.trace.gz */
#include <gtr/gtr.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    unsigned long counts[GTR_EVENT_EXPERIMENTAL + 1] = {0};
    gtr_reader *r = NULL;
    gtr_event ev;
    gtr_err err = GTR_ERR_INIT;
    gtr_status st;

    if (argc != 2) {
        fprintf(stderr, "usage: count_events TRACE\n");
        return 2;
    }
    if ((st = gtr_reader_open_path(argv[1], NULL, &r, &err)) == GTR_OK) {
        while ((st = gtr_reader_next(r, &ev, &err)) == GTR_OK)
            if (gtr_event_get_kind(&ev) <= GTR_EVENT_EXPERIMENTAL)
                counts[gtr_event_get_kind(&ev)]++;
    }
    gtr_reader_free(r);
    if (st != GTR_EOF) {
        /* The whole message: Go's can be long and hold any byte. */
        fputs("count_events: ", stderr);
        gtr_err_fputs(&err, stderr);
        fputc('\n', stderr);
        gtr_err_clear(&err);
        return 1;
    }
    gtr_err_clear(&err);
    for (int k = 0; k <= GTR_EVENT_EXPERIMENTAL; k++)
        if (counts[k] > 0)
            printf("%-16s %lu\n", gtr_event_kind_string((gtr_event_kind)k), counts[k]);
    return 0;
}
