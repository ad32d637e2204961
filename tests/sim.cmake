# Tests of gsim, the scheduler model (sim/).
gtr_unit_test(NAME test_sim SOURCES test_sim.c LIBS gtr_sim gtr)
gtr_unit_test(NAME test_sim_generate SOURCES test_sim_generate.c LIBS gtr_sim gtr)

# The sim fuzz target replays its seeds (corpus/fuzz/sim/: choice strings) and every
# regression input of every target (any bytes are a choice string), like the other targets
# in fuzz.cmake. The model traces seeded into corpus/fuzz/reader/ and raw_roundtrip/ are
# replayed by those targets' own tests.
if(TARGET gtr_sim AND GTR_BUILD_TESTGEN)
  add_test(NAME fuzz_replay_sim
    COMMAND fuzz_sim_replay ${CMAKE_SOURCE_DIR}/corpus/fuzz/sim ${CMAKE_SOURCE_DIR}/fuzz/regressions)
  set_tests_properties(fuzz_replay_sim PROPERTIES LABELS fuzz TIMEOUT 300)
endif()

# `gotrace sim` (cli/cmd_sim.c): flags, usage errors, determinism, fixtures, write errors.
gtr_cli_test(cli_sim_help_lists_every_flag ARGS sim -h RC 0
  OUT "--go 1\\.N.*--seed S.*--events N.*--gens G.*--procs P.*-o FILE.*--test.*--check.*-h, --help")
gtr_cli_test(cli_sim_bad_version_is_usage_error ARGS sim --go 1.21 RC 2
  ERR "^gotrace: sim: invalid value \"1\\.21\" for flag -go")
gtr_cli_test(cli_sim_bad_procs_is_usage_error ARGS sim --procs=0 RC 2
  ERR "^gotrace: sim: invalid value \"0\" for flag -procs")
gtr_cli_test(cli_sim_unknown_flag_is_usage_error ARGS sim --bogus RC 2
  ERR "^gotrace: sim: unknown flag --bogus\nusage: gotrace sim")
# Numbers as Go's flag package reads them (strconv.ParseUint): its two errors, Go's words.
gtr_cli_test(cli_sim_seed_out_of_range_is_usage_error ARGS sim --seed 18446744073709551616 RC 2
  ERR "^gotrace: sim: invalid value \"18446744073709551616\" for flag -seed: value out of range\nusage: gotrace sim")
gtr_cli_test(cli_sim_seed_not_a_number_is_usage_error ARGS sim --seed=12x RC 2
  ERR "^gotrace: sim: invalid value \"12x\" for flag -seed: parse error\n")
gtr_cli_test(cli_sim_events_negative_is_usage_error ARGS sim --events -5 RC 2
  ERR "^gotrace: sim: invalid value \"-5\" for flag -events: parse error\n")
gtr_cli_test(cli_sim_creating_the_output_fails ARGS sim -o sim-no-dir/x.trace RC 1
  ERR "^gotrace: sim: creating sim-no-dir/x.trace: no such file or directory\n$")
# --events N is the exact count of events in the threads' batches.
foreach(_v 1.22 1.23 1.25 1.26)
  gtr_cli_test(cli_sim_events_is_exact_go${_v} ARGS sim --go ${_v} --events 1000 --check RC 0
    OUT "^ok go${_v} seed 1: 1000 events, ")
endforeach()
# --check -o FILE writes the trace to FILE (the bytes sim writes without --check) and checks it.
gtr_cli_test(cli_sim_check_writes_the_output ARGS sim --seed 7 --check -o sim-check-7.trace RC 0
  OUT "^ok go1\\.26 seed 7: 1000 events, " PRE_ARGS sim --seed 7 -o sim-check-7-ref.trace
  SAME_FILES sim-check-7.trace sim-check-7-ref.trace)
gtr_cli_test(cli_sim_check_to_stdout_is_usage_error ARGS sim --check -o - RC 2
  ERR "^gotrace: sim: --check prints its summary on stdout: give -o a file\n")
gtr_cli_test(cli_sim_check_passes ARGS sim --go 1.22 --seed 3 --events 2000 --check RC 0
  OUT "^ok go1\\.22 seed 3: 2000 events")
gtr_cli_test(cli_sim_same_seed_same_bytes ARGS sim --seed 9 --go 1.25 -o sim-9a.trace RC 0
  PRE_ARGS sim --seed 9 --go 1.25 -o sim-9b.trace SAME_FILES sim-9a.trace sim-9b.trace)
gtr_cli_test(cli_sim_test_fixture_passes_check ARGS check sim-4.test RC 0
  PRE_ARGS sim --test --seed 4 --go 1.23 -o sim-4.test OUT "1 passed, 0 failed")
gtr_cli_test(cli_sim_wire_trace_validates ARGS validate sim-5.trace RC 0
  PRE_ARGS sim --seed 5 --procs 32 --events 5000 -o sim-5.trace)
gtr_cli_test(cli_sim_write_error_names_the_output ARGS sim -o /dev/full RC 1
  ERR "writing /dev/full")
