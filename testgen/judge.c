/* SPDX-License-Identifier: BSD-3-Clause */
/* judge.c: Go's golden judgment of a trace (tgen/judge.h), after testReader in
 * src/internal/trace/reader_test.go at go1.27.3. */
#include "tgen/judge.h"

#include <string.h>

#include "gtr/diagnosis.h"
#include "gtr/input.h"
#include "gtr/reader.h"
#include "gtr/validate.h"

gtr_status tgen_judge(const uint8_t *wire, size_t len, const gtr_alloc *alc, gtr_buf *dump,
                      tgen_verdict *v)
{
    gtr_input *in = NULL;
    gtr_reader *r = NULL;
    gtr_validator *val = NULL;
    gtr_err verr = GTR_ERR_INIT;
    gtr_status st = GTR_OK;

    v->end = TGEN_END_EOF;
    v->version = 0;
    v->events = 0;
    v->invalid = 0;
    v->valid_at = 0;
    v->failed_on[0] = '\0';
    gtr_err_init(&v->end_err);
    gtr_err_init(&v->valid_err);
    gtr_err_set_alloc(&v->end_err, alc);
    gtr_err_set_alloc(&v->valid_err, alc);
    gtr_buf_init(&v->stuck, alc);
    if (gtr_validator_new(alc, &val, &v->valid_err) < 0) {
        st = GTR_E_NOMEM;
        goto out;
    }
    if (gtr_input_open_memory_plain(len > 0 ? wire : (const uint8_t *)"", len, alc, &in,
                                    &v->end_err) < 0 ||
        gtr_reader_new(in, alc, &r, &v->end_err) < 0) {
        v->end = TGEN_END_HEADER;
        goto out;
    }
    v->version = gtr_reader_go_version(r);
    for (;;) {
        gtr_event ev;
        gtr_status rs = gtr_reader_next(r, &ev, &v->end_err);
        if (rs == GTR_EOF)
            break;
        /* Go sets v.GoVersion = r.GoVersion() before looking at the error. */
        gtr_validator_set_go_version(val, gtr_reader_go_version(r));
        if (rs < 0) {
            v->end = TGEN_END_READ;
            /* Beyond Go: why a trace that failed to advance is stuck, as the reducer keeps
             * it. */
            gtr_diagnosis *d = NULL;
            if (gtr_reader_diagnose(r, NULL, &d, NULL) == GTR_OK &&
                gtr_diagnosis_shape(d, &v->stuck) != GTR_OK)
                st = GTR_E_NOMEM;
            gtr_diagnosis_free(d);
            const char *on = gtr_reader_failed_event(r);
            if (on != NULL)
                snprintf(v->failed_on, sizeof v->failed_on, "%s", on);
            break;
        }
        if (dump != NULL) {
            gtr_event_string(&ev, dump);
            gtr_buf_putc(dump, '\n');
        }
        if (gtr_validator_event(val, &ev, v->invalid == 0 ? &v->valid_err : &verr) < 0) {
            if (v->invalid++ == 0)
                v->valid_at = v->events;
        }
        v->events++;
    }
    if (dump != NULL && gtr_buf_status(dump) < 0)
        st = GTR_E_NOMEM;
out:
    gtr_err_clear(&verr);
    gtr_reader_free(r);
    gtr_input_free(in);
    gtr_validator_free(val);
    return st;
}

void tgen_verdict_free(tgen_verdict *v)
{
    if (v == NULL)
        return;
    gtr_err_clear(&v->end_err);
    gtr_err_clear(&v->valid_err);
    gtr_buf_free(&v->stuck);
}

gtr_status tgen_verdict_check(const tgen_verdict *v, const tgen_expect *exp, unsigned *failures,
                              gtr_err *err)
{
    unsigned n = v->invalid;
    gtr_status first = GTR_OK;
    gtr_err cerr = GTR_ERR_INIT;

    if (n > 0) {
        first = v->valid_err.code < 0 ? v->valid_err.code : GTR_E_INVALID;
        gtr_err_copy(err, &v->valid_err);
    }
    gtr_status cs = tgen_expect_check(exp, v->end == TGEN_END_EOF ? NULL : &v->end_err, &cerr);
    if (cs < 0 && n++ == 0) {
        first = cs;
        gtr_err_copy(err, &cerr);
    }
    if (failures != NULL)
        *failures = n;
    if (n > 0 && err != NULL)
        err->code = first;
    gtr_err_clear(&cerr);
    return first;
}

bool tgen_verdict_first_sync_artifact(const tgen_verdict *v)
{
    return v->end == TGEN_END_READ && v->version >= GTR_GO125 && v->invalid == 1 &&
           v->valid_at == 0 &&
           v->valid_err.len == sizeof "sync 1 has no clock snapshot" - 1 &&
           strcmp(v->valid_err.msg, "sync 1 has no clock snapshot") == 0;
}
