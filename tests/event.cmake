# Tests of the event component: the event API and String() against vectors generated from Go
# (tests/gen/), and the validator.
gtr_unit_test(NAME test_event SOURCES test_event.c LIBS gtr)
gtr_unit_test(NAME test_validate SOURCES test_validate.c LIBS gtr)
gtr_unit_test(NAME test_validator_run SOURCES test_validator_run.c LIBS gtr)
gtr_unit_test(NAME test_event_lifetime SOURCES test_event_lifetime.c LIBS gtr)
gtr_unit_test(NAME test_event_make SOURCES test_event_make.c LIBS gtr)
gtr_unit_test(NAME test_event_formatter SOURCES test_event_formatter.c LIBS gtr)

# gotrace validate over the real traces: Go's verdict and Go's event dump, byte for byte.
set(_event_dir ${CMAKE_CURRENT_BINARY_DIR}/event)
file(MAKE_DIRECTORY ${_event_dir})
add_test(NAME event_validate_real_corpus_matches_go
         COMMAND ${CMAKE_COMMAND} -DGOTRACE=$<TARGET_FILE:gotrace>
                 -DCORPUS=${CMAKE_SOURCE_DIR}/corpus/real -DWORKDIR=${_event_dir}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/validate_corpus.cmake)

# The validate and stats subcommands: exit statuses and output shapes (tests/cli_run.cmake).
function(event_cli_test name)
  cmake_parse_arguments(C "" "RC;OUT;ERR;SETUP_FILE;SETUP_TEXT" "ARGS" ${ARGN})
  string(REPLACE ";" "|" _args "${C_ARGS}")
  set(_defs -DCMD=$<TARGET_FILE:gotrace> "-DARGS=${_args}" -DWANT_RC=${C_RC}
            -DWORKDIR=${_event_dir})
  foreach(k OUT ERR)
    if(DEFINED C_${k})
      list(APPEND _defs "-DWANT_${k}=${C_${k}}")
    endif()
  endforeach()
  if(DEFINED C_SETUP_FILE)
    list(APPEND _defs "-DSETUP_FILE=${_event_dir}/${C_SETUP_FILE}" "-DSETUP_TEXT=${C_SETUP_TEXT}")
  endif()
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} ${_defs} -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_run.cmake)
endfunction()

set(_annot ${CMAKE_SOURCE_DIR}/corpus/real/testprog-annotations.trace.gz)
event_cli_test(cli_validate_help_succeeds ARGS validate -h RC 0 OUT "^usage: gotrace validate")
event_cli_test(cli_validate_unknown_flag_is_usage_error ARGS validate --bogus RC 2
               ERR "^gotrace: validate: unknown flag --bogus\nusage: gotrace validate")
event_cli_test(cli_validate_two_inputs_is_usage_error ARGS validate a b RC 2
               ERR "more than one input")
event_cli_test(cli_validate_missing_file_fails ARGS validate missing.trace RC 1
               ERR "^gotrace: open missing.trace: ")
event_cli_test(cli_validate_not_a_trace_fails ARGS validate hello.bin RC 1
               SETUP_FILE hello.bin SETUP_TEXT "hello"
               ERR "^gotrace: bad file format: not a Go execution trace\\?\n$")
event_cli_test(cli_validate_real_trace_passes_silently ARGS validate ${_annot} RC 0 OUT "^$" ERR "^$")
event_cli_test(cli_validate_log_events_dumps_events ARGS validate --log-events ${_annot} RC 0
               OUT "^M=-1 P=-1 G=-1 Sync Time=2726735962688 N=1 Trace=2726735975360 Mono=2726735975349 Wall=2026-11-29T16:28:41.192597048Z\nM=31981 P=-1 G=-1 StateTransition ")
event_cli_test(cli_stats_help_succeeds ARGS stats --help RC 0 OUT "^usage: gotrace stats")
event_cli_test(cli_stats_unknown_flag_is_usage_error ARGS stats -x RC 2 ERR "unknown flag -x")
event_cli_test(cli_stats_not_a_trace_fails ARGS stats hello2.bin RC 1
               SETUP_FILE hello2.bin SETUP_TEXT "hello"
               ERR "^gotrace: bad file format: not a Go execution trace\\?\n$")
event_cli_test(cli_stats_real_trace_prints_table ARGS stats ${_annot} RC 0
               OUT "^Event +Bytes +% +Count +%\n- +- +- +- +-\nString +[0-9]+ +[0-9.]+% +[0-9]+ +[0-9.]+%\n")
event_cli_test(cli_stats_real_trace_prints_figures ARGS stats ${_annot} RC 0
               OUT "\n\nbytes: [0-9]+\ngenerations: 1\nbatches: [0-9]+\nwire events: [0-9]+\nevents: [0-9]+\n")
event_cli_test(cli_stats_real_trace_prints_resources ARGS stats ${_annot} RC 0
               OUT "\nMs: 2\nPs: 2\nGs: 10\nfirst timestamp: 2726735962688\nlast timestamp: 2726736279873\nduration: 317\\.185µs\n$")
