/* SPDX-License-Identifier: BSD-3-Clause */
/* write_trace.c: write a Go execution trace by hand with testgen, as a .test fixture, then
 * read it back with libtrace to check it is a valid trace.
 *
 * What it shows: testgen's DSL (one generation, one batch per thread, events by name with
 * typed arguments; strings and stacks interned for you, batch sizes exact), its .test output
 * (a txtar with `expect` and the trace in the text format), and the fixture side: the .test
 * file turned into wire bytes as Go's testtrace.ParseFile does, which the reader and the
 * validator accept. DSL calls check nothing themselves: the first mistake is recorded on the
 * trace and reported by tgen_generate. C only: tgen_event builds its argument list with
 * compound literals, which C++ does not have.
 *
 *   write_trace out.test && gotrace check out.test
 *
 * Build: cc write_trace.c $(pkg-config --cflags --libs gtr-testgen), or
 * target_link_libraries(app PRIVATE gotrace::tgen) after
 * find_package(gotrace CONFIG REQUIRED COMPONENTS tgen). */
#include <gtr/gtr.h>
#include <stdio.h>
#include <tgen/fixture.h>
#include <tgen/tgen.h>

/* build: goroutine 1, running on P 0 and M 0, creates goroutine 2 and blocks; goroutine 2
 * runs and exits. The generation's clock snapshot (go1.25+) needs non-zero times. */
static void build(tgen_trace *t)
{
    static const tgen_frame where[] = {{0x401000, "main.main", "/app/main.go", 12}};
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *m0;

    tgen_sync(g, TGEN_DEFAULT_FREQ, 1000, 1000, TGEN_WALL(1764547200, 0));
    m0 = tgen_batch_new(g, 0, 1000);

    tgen_event(m0, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(m0, "GoStatus", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING));
    tgen_event(m0, "GoCreate", TG_G(2), TG_STACK(where, 1), TG_STACK(where, 1));
    tgen_event(m0, "GoBlock", TG_STR("chan receive"), TG_STACK(where, 1));
    tgen_event(m0, "GoStart", TG_G(2), TG_SEQ(1));
    tgen_event(m0, "GoDestroy");
}

int main(int argc, char **argv)
{
    tgen_trace *t = tgen_trace_new(GTR_GO126, NULL);
    tgen_fixture *fx = NULL;
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_validator *v = NULL;
    gtr_buf out = {0};
    gtr_event ev;
    gtr_err err = GTR_ERR_INIT;
    gtr_status st;
    size_t nwire = 0;
    unsigned long nevents = 0;
    FILE *f;

    if (argc != 2) {
        fprintf(stderr, "usage: write_trace OUT.test\n");
        return 2;
    }
    gtr_err_clear(&err);
    build(t);
    if ((st = tgen_generate(t, &out, &err)) == GTR_OK &&
        (st = tgen_fixture_parse(argv[1], out.data, out.len, &fx, &err)) == GTR_OK) {
        const uint8_t *wire = tgen_fixture_trace(fx, &nwire);
        if ((st = gtr_input_open_memory_plain(wire, nwire, NULL, &in, &err)) == GTR_OK &&
            (st = gtr_reader_new(in, NULL, &r, &err)) == GTR_OK &&
            (st = gtr_validator_new(NULL, &v, &err)) == GTR_OK) {
            gtr_validator_set_go_version(v, gtr_reader_go_version(r));
            while ((st = gtr_reader_next(r, &ev, &err)) == GTR_OK &&
                   (st = gtr_validator_event(v, &ev, &err)) == GTR_OK)
                nevents++;
        }
    }
    if (st == GTR_EOF) {
        st = GTR_OK;
        if ((f = fopen(argv[1], "wb")) == NULL || fwrite(out.data, 1, out.len, f) != out.len ||
            fclose(f) != 0) {
            perror(argv[1]);
            st = GTR_E_IO;
        } else {
            printf("%s: %zu bytes of fixture, %zu wire bytes, %lu valid events\n", argv[1],
                   out.len, nwire, nevents);
        }
    } else {
        fprintf(stderr, "write_trace: %s\n", err.msg);
    }
    gtr_validator_free(v);
    gtr_reader_free(r);
    gtr_input_free(in);
    tgen_fixture_free(fx);
    gtr_buf_free(&out);
    tgen_trace_free(t);
    return st == GTR_OK ? 0 : 1;
}
