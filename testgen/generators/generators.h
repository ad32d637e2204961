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
    X(go125_sync, "go125-sync", GTR_GO125) \
    X(gtr_go122_fail_gc_active_after_begin, "gtr-go122-fail-gc-active-after-begin", GTR_GO122) \
    X(gtr_go122_fail_gc_active_not_running, "gtr-go122-fail-gc-active-not-running", GTR_GO122) \
    X(gtr_go122_fail_gc_begin_twice, "gtr-go122-fail-gc-begin-twice", GTR_GO122) \
    X(gtr_go122_fail_gc_end_twice, "gtr-go122-fail-gc-end-twice", GTR_GO122) \
    X(gtr_go122_fail_gc_end_undetermined, "gtr-go122-fail-gc-end-undetermined", GTR_GO122) \
    X(gtr_go122_fail_gc_sweep_active_unknown_proc, "gtr-go122-fail-gc-sweep-active-unknown-proc", GTR_GO122) \
    X(gtr_go122_fail_go_create_exists, "gtr-go122-fail-go-create-exists", GTR_GO122) \
    X(gtr_go122_fail_go_create_from_syscall, "gtr-go122-fail-go-create-from-syscall", GTR_GO122) \
    X(gtr_go122_fail_go_create_syscall_exists, "gtr-go122-fail-go-create-syscall-exists", GTR_GO122) \
    X(gtr_go122_fail_go_destroy_syscall_proc_running, "gtr-go122-fail-go-destroy-syscall-proc-running", GTR_GO122) \
    X(gtr_go122_fail_go_destroy_syscall_running, "gtr-go122-fail-go-destroy-syscall-running", GTR_GO122) \
    X(gtr_go122_fail_go_status_inconsistent, "gtr-go122-fail-go-status-inconsistent", GTR_GO122) \
    X(gtr_go122_fail_go_status_invalid, "gtr-go122-fail-go-status-invalid", GTR_GO122) \
    X(gtr_go122_fail_go_status_new_after_first_gen, "gtr-go122-fail-go-status-new-after-first-gen", GTR_GO122) \
    X(gtr_go122_fail_go_status_syscall_no_thread, "gtr-go122-fail-go-status-syscall-no-thread", GTR_GO122) \
    X(gtr_go122_fail_go_status_syscall_other_thread, "gtr-go122-fail-go-status-syscall-other-thread", GTR_GO122) \
    X(gtr_go122_fail_go_status_syscall_same_thread, "gtr-go122-fail-go-status-syscall-same-thread", GTR_GO122) \
    X(gtr_go122_fail_go_stop_destroyed, "gtr-go122-fail-go-stop-destroyed", GTR_GO122) \
    X(gtr_go122_fail_go_syscall_begin_bad_seq, "gtr-go122-fail-go-syscall-begin-bad-seq", GTR_GO122) \
    X(gtr_go122_fail_go_syscall_end_not_in_syscall, "gtr-go122-fail-go-syscall-end-not-in-syscall", GTR_GO122) \
    X(gtr_go122_fail_go_syscall_end_proc_running, "gtr-go122-fail-go-syscall-end-proc-running", GTR_GO122) \
    X(gtr_go122_fail_mark_assist_active_missing, "gtr-go122-fail-mark-assist-active-missing", GTR_GO122) \
    X(gtr_go122_fail_mark_assist_active_twice, "gtr-go122-fail-mark-assist-active-twice", GTR_GO122) \
    X(gtr_go122_fail_mark_assist_active_unknown_goroutine, "gtr-go122-fail-mark-assist-active-unknown-goroutine", GTR_GO122) \
    X(gtr_go122_fail_no_goroutine, "gtr-go122-fail-no-goroutine", GTR_GO122) \
    X(gtr_go122_fail_no_thread, "gtr-go122-fail-no-thread", GTR_GO122) \
    X(gtr_go122_fail_proc_status_inconsistent, "gtr-go122-fail-proc-status-inconsistent", GTR_GO122) \
    X(gtr_go122_fail_proc_status_invalid, "gtr-go122-fail-proc-status-invalid", GTR_GO122) \
    X(gtr_go122_fail_proc_steal_self_wrong_proc, "gtr-go122-fail-proc-steal-self-wrong-proc", GTR_GO122) \
    X(gtr_go122_fail_proc_steal_unknown_thread, "gtr-go122-fail-proc-steal-unknown-thread", GTR_GO122) \
    X(gtr_go122_fail_proc_steal_wrong_proc, "gtr-go122-fail-proc-steal-wrong-proc", GTR_GO122) \
    X(gtr_go122_fail_proc_stop_idle, "gtr-go122-fail-proc-stop-idle", GTR_GO122) \
    X(gtr_go122_fail_proc_stop_no_proc, "gtr-go122-fail-proc-stop-no-proc", GTR_GO122) \
    X(gtr_go122_fail_region_begin_destroyed_goroutine, "gtr-go122-fail-region-begin-destroyed-goroutine", GTR_GO122) \
    X(gtr_go122_fail_region_end_destroyed_goroutine, "gtr-go122-fail-region-end-destroyed-goroutine", GTR_GO122) \
    X(gtr_go122_fail_region_end_mismatch, "gtr-go122-fail-region-end-mismatch", GTR_GO122) \
    X(gtr_go122_fail_start_while_running, "gtr-go122-fail-start-while-running", GTR_GO122) \
    X(gtr_go122_fail_stw_begin_destroyed_goroutine, "gtr-go122-fail-stw-begin-destroyed-goroutine", GTR_GO122) \
    X(gtr_go122_fail_sweep_begin_twice, "gtr-go122-fail-sweep-begin-twice", GTR_GO122) \
    X(gtr_go122_fail_sweep_end_without_begin, "gtr-go122-fail-sweep-end-without-begin", GTR_GO122) \
    X(gtr_go122_fail_task_bad_name_string, "gtr-go122-fail-task-bad-name-string", GTR_GO122) \
    X(gtr_go122_fail_task_id_conflict, "gtr-go122-fail-task-id-conflict", GTR_GO122) \
    X(gtr_go122_region_end_without_begin, "gtr-go122-region-end-without-begin", GTR_GO122) \
    X(gtr_go122_task_end_two_generations_later, "gtr-go122-task-end-two-generations-later", GTR_GO122) \
    X(gtr_go123_coroutines, "gtr-go123-coroutines", GTR_GO123) \
    X(gtr_go125_clock_snapshot, "gtr-go125-clock-snapshot", GTR_GO125) \
    X(gtr_go125_fail_bad_event_type, "gtr-go125-fail-bad-event-type", GTR_GO125) \
    X(gtr_go126_allocfree, "gtr-go126-allocfree", GTR_GO126) \
    X(gtr_go126_end_of_generation, "gtr-go126-end-of-generation", GTR_GO126) \
    X(gtr_go126_fail_truncated_generation, "gtr-go126-fail-truncated-generation", GTR_GO126) \
    X(gtr_go126_flight_recorder_window, "gtr-go126-flight-recorder-window", GTR_GO126)

#define TGEN_DECLARE_(ident, name, ver) void tgen_gen_##ident(tgen_trace *t);
TGEN_GENERATOR_LIST(TGEN_DECLARE_)
#undef TGEN_DECLARE_

#endif /* TGEN_GENERATORS_H */
