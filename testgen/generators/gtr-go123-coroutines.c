/* SPDX-License-Identifier: BSD-3-Clause */
/* gtr-go123-coroutines: a gotrace generator (no upstream counterpart).
 *
 * Every event go1.23 added for coroutines (iter.Pull): a goroutine reported with its stack
 * (GoStatusStack) creates a blocked goroutine (GoCreateBlocked), switches to it (GoSwitch), is
 * switched back to (GoSwitch), then exits by switching to it for good (GoSwitchDestroy). GoSwitch
 * must read as the current goroutine blocking and the next one starting; GoSwitchDestroy as the
 * current one dying.
 */
#include "generators.h"

void tgen_gen_gtr_go123_coroutines(tgen_trace *t)
{
    static const tgen_frame main_stk[] = {
        {0x401000, "main.main", "/src/main.go", 12},
        {0x400100, "runtime.main", "/goroot/src/runtime/proc.go", 283},
    };
    static const tgen_frame coro_stk[] = {
        {0x402000, "main.seq.func1", "/src/main.go", 30},
        {0x400200, "iter.Pull.func1", "/goroot/src/iter/iter.go", 70},
    };
    static const tgen_frame wait_stk[] = {
        {0x400300, "runtime.gopark", "/goroot/src/runtime/proc.go", 435},
    };
    tgen_gen *g = tgen_generation(t, 1);
    tgen_batch *b = tgen_batch_new(g, 0, 0);
    tgen_event(b, "ProcStatus", TG_P(0), TG_PSTATUS(GTR_PSTATUS_RUNNING));
    tgen_event(b, "GoStatusStack", TG_G(1), TG_M(0), TG_GSTATUS(GTR_GSTATUS_RUNNING),
               TG_STACK(main_stk, 2));
    tgen_event(b, "GoStatusStack", TG_G(3), TG_M(GTR_NO_THREAD), TG_GSTATUS(GTR_GSTATUS_WAITING),
               TG_STACK(wait_stk, 1));
    tgen_event(b, "GoCreateBlocked", TG_G(2), TG_STACK(coro_stk, 2), TG_STACK(main_stk, 2));
    tgen_event(b, "GoSwitch", TG_G(2), TG_SEQ(1));
    tgen_event(b, "GoSwitch", TG_G(1), TG_SEQ(1));
    tgen_event(b, "GoSwitchDestroy", TG_G(2), TG_SEQ(2));
    tgen_event(b, "GoStop", TG_STR("yield"), TG_STACK(coro_stk, 2));
    tgen_event(b, "ProcStop");
}
