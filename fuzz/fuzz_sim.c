/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_sim.c: the scheduler model (sim/) driven by the fuzzer. The input bytes are the
 * model's choice string: the first choices pick the configuration (version, procs,
 * generations, events; gsim_config_choose), the rest every move. Whatever the bytes, the
 * model makes only legal moves, so the strong oracle must hold: the reader reads the trace to
 * EOF, the validator accepts every event, and every event read back equals the model's
 * record (gsim_check). A failure is a bug in the model or in the reader. */
#include "fuzz_common.h"
#include "gsim/sim.h"

#define SIM_MAX_CHOICE_BYTES ((size_t)64 << 10)   /* longer inputs: their first 64 KiB */
#define SIM_MAX_EVENTS 4000
#define SIM_MAX_TRACE_BYTES ((size_t)16 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gsim_bytes_state bs;
    gsim_choice ch;
    gsim_config c;
    gtr_err err = GTR_ERR_INIT;
    gtr_status st;

    if (size > SIM_MAX_CHOICE_BYTES)
        size = SIM_MAX_CHOICE_BYTES;
    ch = gsim_choice_bytes(&bs, data, size);
    gsim_config_choose(&c, ch, SIM_MAX_EVENTS);
    gtr_err_clear(&err);
    st = gsim_check(&c, ch, NULL, SIM_MAX_TRACE_BYTES, NULL, &err);
    if (st != GTR_OK)
        fprintf(stderr, "gsim_check go1.%d procs=%u gens=%llu events=%llu: %s\n",
                (int)c.version, c.procs, (unsigned long long)c.gens,
                (unsigned long long)c.events, err.msg);
    FUZZ_CHECK(st == GTR_OK, "model trace read back to EOF, valid and equal to the record");
    return 0;
}
