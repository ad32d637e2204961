/* SPDX-License-Identifier: BSD-3-Clause */
/* validate_trace.c: whether a Go execution trace is valid, as Go's reader and the validator
 * of Go's tests judge it (what `gotrace validate` says, without its options).
 *
 * One call opens the file as a reader (plain or gzip-compressed, "-" is stdin; the reader
 * owns the input), one runs the validator over every event: it validates as of the trace's
 * own version (go1.11 to go1.26), and its success, GTR_EOF at the end of the trace, leaves
 * no error to clear. On failure the message is Go's, byte for byte.
 *
 *   validate_trace corpus/real/go1.22-testprog-gc-stress.trace.gz */
#include <gtr/gtr.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    gtr_reader *r = NULL;
    gtr_validator *v = NULL;
    gtr_err err = GTR_ERR_INIT;
    uint64_t n = 0;
    gtr_status st;

    if (argc != 2) {
        fprintf(stderr, "usage: validate_trace TRACE\n");
        return 2;
    }
    if ((st = gtr_reader_open_path(argv[1], NULL, &r, &err)) == GTR_OK &&
        (st = gtr_validator_new(NULL, &v, &err)) == GTR_OK)
        st = gtr_validator_run(v, r, 0, &n, &err);   /* every event, to the end or an error */
    gtr_validator_free(v);
    gtr_reader_free(r);   /* and the input it opened */
    if (st != GTR_EOF) {
        fputs("validate_trace: ", stderr);
        gtr_err_fputs(&err, stderr);   /* Go's message, whole */
        fputc('\n', stderr);
        gtr_err_clear(&err);
        return 1;
    }
    printf("%llu valid events\n", (unsigned long long)n);
    return 0;
}
