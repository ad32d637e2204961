/* SPDX-License-Identifier: BSD-3-Clause */
/* generators.h: the list of testgen generators (one .c file each, named like the fixture it
 * writes) and their prototypes. registry.c turns the list into the table `gotrace gen` runs.
 *
 * Adding a generator: write testgen/generators/<name>.c defining tgen_gen_<name>() (dashes
 * become underscores), add one X() row here (keep name order) and the file to
 * testgen/CMakeLists.txt, then run `gotrace gen` and commit the new corpus/tests/<name>.test. */
#ifndef TGEN_GENERATORS_H
#define TGEN_GENERATORS_H

#include "tgen/tgen.h"

/* X(identifier, fixture name, trace format version) */
#define TGEN_GENERATOR_LIST(X) \
    X(go122_confuse_seq_across_generations, "go122-confuse-seq-across-generations", GTR_GO122) \
    X(go122_create_syscall_reuse_thread_id, "go122-create-syscall-reuse-thread-id", GTR_GO122) \
    X(go122_create_syscall_with_p, "go122-create-syscall-with-p", GTR_GO122) \
    X(go122_fail_first_gen_first, "go122-fail-first-gen-first", GTR_GO122) \
    X(go122_go_create_without_running_g, "go122-go-create-without-running-g", GTR_GO122) \
    X(go122_syscall_steal_proc_ambiguous, "go122-syscall-steal-proc-ambiguous", GTR_GO122) \
    X(go122_syscall_steal_proc_gen_boundary, "go122-syscall-steal-proc-gen-boundary", GTR_GO122) \
    X(go122_syscall_steal_proc_gen_boundary_bare_m, "go122-syscall-steal-proc-gen-boundary-bare-m", GTR_GO122) \
    X(go122_syscall_steal_proc_gen_boundary_reacquire_new_proc, "go122-syscall-steal-proc-gen-boundary-reacquire-new-proc", GTR_GO122) \
    X(go122_syscall_steal_proc_gen_boundary_reacquire_new_proc_bare_m, "go122-syscall-steal-proc-gen-boundary-reacquire-new-proc-bare-m", GTR_GO122) \
    X(go122_syscall_steal_proc_reacquire_new_proc, "go122-syscall-steal-proc-reacquire-new-proc", GTR_GO122) \
    X(go122_syscall_steal_proc_reacquire_new_proc_bare_m, "go122-syscall-steal-proc-reacquire-new-proc-bare-m", GTR_GO122) \
    X(go122_syscall_steal_proc_self, "go122-syscall-steal-proc-self", GTR_GO122) \
    X(go122_syscall_steal_proc_simple, "go122-syscall-steal-proc-simple", GTR_GO122) \
    X(go122_syscall_steal_proc_simple_bare_m, "go122-syscall-steal-proc-simple-bare-m", GTR_GO122) \
    X(go122_syscall_steal_proc_sitting_in_syscall, "go122-syscall-steal-proc-sitting-in-syscall", GTR_GO122) \
    X(go122_task_across_generations, "go122-task-across-generations", GTR_GO122) \
    X(go123_sync, "go123-sync", GTR_GO123) \
    X(go125_sync, "go125-sync", GTR_GO125)

#define TGEN_DECLARE_(ident, name, ver) void tgen_gen_##ident(tgen_trace *t);
TGEN_GENERATOR_LIST(TGEN_DECLARE_)
#undef TGEN_DECLARE_

#endif /* TGEN_GENERATORS_H */
