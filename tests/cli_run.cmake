# cli_run.cmake: run one command and check its exit status and output (a ctest helper).
#   cmake -DCMD=<program> -DARGS=<a|b|c> -DWANT_RC=<n> [-DWANT_OUT=<regex>] [-DWANT_ERR=<regex>]
#         [-DWORKDIR=<dir>] [-DSETUP_FILE=<path> -DSETUP_TEXT=<text>] -P cli_run.cmake
# ARGS separates arguments with '|' (an empty ARGS runs CMD alone). WANT_OUT/WANT_ERR are CMake
# regexes, matched by a backtracking engine: nested repetitions like `(.*\n)*` over a long output
# can take forever; keep the patterns flat.
if(DEFINED SETUP_FILE)
  file(WRITE "${SETUP_FILE}" "${SETUP_TEXT}")
endif()
if(NOT DEFINED WORKDIR)
  set(WORKDIR "${CMAKE_CURRENT_BINARY_DIR}")
endif()
string(REPLACE "|" ";" _args "${ARGS}")
execute_process(COMMAND "${CMD}" ${_args} WORKING_DIRECTORY "${WORKDIR}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("exit status ${rc}\n--- stdout\n${out}--- stderr\n${err}---")
if(NOT "${rc}" STREQUAL "${WANT_RC}")
  message(FATAL_ERROR "exit status ${rc}, want ${WANT_RC}")
endif()
if(DEFINED WANT_OUT AND NOT out MATCHES "${WANT_OUT}")
  message(FATAL_ERROR "stdout does not match: ${WANT_OUT}")
endif()
if(DEFINED WANT_ERR AND NOT err MATCHES "${WANT_ERR}")
  message(FATAL_ERROR "stderr does not match: ${WANT_ERR}")
endif()
