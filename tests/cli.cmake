# Tests of the cli component, and of the golden-runner machinery it sits on (testgen's
# expect.c and fixture.c, owned with the CLI's check mode).
gtr_unit_test(NAME test_expect SOURCES test_expect.c LIBS gtr_testgen)
gtr_unit_test(NAME test_fixture SOURCES test_fixture.c sha256.c LIBS gtr_testgen)

# The golden runner over Go's own fixtures: the acceptance test of the whole reader.
add_test(NAME golden_upstream
         COMMAND $<TARGET_FILE:gotrace> check ${CMAKE_SOURCE_DIR}/corpus/upstream)
# ... and over the fixtures our generators write (corpus/tests, regenerated and diffed in CI).
add_test(NAME golden_generated
         COMMAND $<TARGET_FILE:gotrace> check ${CMAKE_SOURCE_DIR}/corpus/tests)

# Exit statuses and messages of the command line. cli_run.cmake checks both.
set(_cli_dir ${CMAKE_CURRENT_BINARY_DIR}/cli)
file(MAKE_DIRECTORY ${_cli_dir})
function(gtr_cli_test name)
  cmake_parse_arguments(C "" "RC;OUT;ERR;SETUP_FILE;SETUP_TEXT" "ARGS" ${ARGN})
  string(REPLACE ";" "|" _args "${C_ARGS}")
  set(_defs -DCMD=$<TARGET_FILE:gotrace> "-DARGS=${_args}" -DWANT_RC=${C_RC}
            -DWORKDIR=${_cli_dir})
  if(DEFINED C_OUT)
    list(APPEND _defs "-DWANT_OUT=${C_OUT}")
  endif()
  if(DEFINED C_ERR)
    list(APPEND _defs "-DWANT_ERR=${C_ERR}")
  endif()
  if(DEFINED C_SETUP_FILE)
    list(APPEND _defs "-DSETUP_FILE=${_cli_dir}/${C_SETUP_FILE}" "-DSETUP_TEXT=${C_SETUP_TEXT}")
  endif()
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} ${_defs} -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_run.cmake)
endfunction()

gtr_cli_test(cli_no_mode_is_usage_error RC 2 ERR "usage: gotrace <mode>")
gtr_cli_test(cli_unknown_mode_is_usage_error ARGS bogus RC 2 ERR "unknown mode bogus")
gtr_cli_test(cli_help_succeeds ARGS -h RC 0 OUT "modes:")
gtr_cli_test(cli_check_help_succeeds ARGS check -h RC 0 OUT "^usage: gotrace check")
gtr_cli_test(cli_check_no_args_is_usage_error ARGS check RC 2 ERR "no fixtures given")
gtr_cli_test(cli_check_unknown_flag_is_usage_error ARGS check --bogus RC 2
             ERR "unknown flag --bogus")
gtr_cli_test(cli_check_missing_file_fails ARGS check missing.test RC 1
             OUT "FAIL missing.test: failed to parse test file at missing.test: failed to read test file for missing.test: open missing.test: no such file or directory\n0 passed, 1 failed\n$")
gtr_cli_test(cli_check_single_fixture_passes
             ARGS check ${CMAKE_SOURCE_DIR}/corpus/upstream/go122-fail-first-gen-first.test RC 0
             OUT "^ok   [^\n]*go122-fail-first-gen-first.test\n1 passed, 0 failed\n$")
gtr_cli_test(cli_check_wrong_expectation_fails ARGS check wrong.test RC 1
             SETUP_FILE wrong.test
             SETUP_TEXT "-- expect --\nFAILURE \"x\"\n-- trace --\nTrace Go1.22\n"
             OUT "FAIL wrong.test: unexpected error while reading the trace: want something matching \"x\", got no frequency event found\n0 passed, 1 failed")
gtr_cli_test(cli_check_mixed_counts_both ARGS check mixed.test ${CMAKE_SOURCE_DIR}/corpus/upstream/go123-sync.test RC 1
             SETUP_FILE mixed.test SETUP_TEXT "-- expect --\nSUCCESS\n"
             OUT "FAIL mixed.test: failed to parse test file at mixed.test: malformed test mixed.test: wrong number of files\nok   [^\n]*go123-sync.test\n1 passed, 1 failed\n$")
