# cli_run.cmake: run one command and check its exit status and output (a ctest helper).
#   cmake -DCMD=<program> -DARGS=<a|b|c> -DWANT_RC=<n> [-DWANT_OUT=<regex>] [-DWANT_ERR=<regex>]
#         [-DWORKDIR=<dir>] [-DSETUP_FILE=<path> -DSETUP_TEXT=<text>]
#         [-DSETUP_TRACE_OF=<fixture> -DSETUP_TRACE_TO=<path>]
#         [-DSETUP_GZIP_OF=<path> -DSETUP_GZIP_TO=<path>] [-DPRE_ARGS=<a|b>]
#         [-DSTDIN=<path> | -DSTDIN_PIPE=<path>]
#         [-DSAME_AS=<a|b> [-DSAME_STDIN=<path>]] [-DSAME_FILES=<path|path>]
#         [-DREMOVE=<path>] [-DMKDIRS=<dir|dir>] [-DCWD=<dir>] [-DSTDOUT_TO=<path>]
#         [-DOUT_STARTS_WITH=<file>] [-DABSENT=<path|path>]
#         -P cli_run.cmake
# ARGS separates arguments with '|' (an empty ARGS runs CMD alone). WANT_OUT/WANT_ERR are CMake
# regexes, matched by a backtracking engine: nested repetitions like `(.*\n)*` over a long output
# can take forever; keep the patterns flat.
#
# Set-up, in this order, before the command runs (relative paths are under WORKDIR):
#   REMOVE          removed, with everything under it;
#   MKDIRS          these directories created (with every missing level);
#   SETUP_FILE      written with SETUP_TEXT (its directory is created);
#   SETUP_TRACE_TO  the `trace` file of the .test fixture SETUP_TRACE_OF (what follows its
#                   "-- trace --" line), written as it stands;
#   SETUP_GZIP_TO   SETUP_GZIP_OF gzip-compressed;
#   PRE_ARGS        CMD run with these arguments, which must exit 0.
# The command's stdin is the file STDIN, or a pipe fed with the file STDIN_PIPE. It runs in
# the directory CWD (default WORKDIR; created if missing). Its stdout goes to the file
# STDOUT_TO (e.g. /dev/full) instead of being captured (WANT_OUT then sees nothing).
# Checks after it: OUT_STARTS_WITH names a file whose bytes stdout must begin with (a golden
# prefix, e.g. Go's own output); SAME_AS runs CMD again with those arguments (stdin: the file SAME_STDIN)
# and wants the same exit status, stdout and stderr; SAME_FILES names two files that must be
# byte-identical; ABSENT names paths that must not exist after the command (files it must
# not create).
if(NOT DEFINED WORKDIR)
  set(WORKDIR "${CMAKE_CURRENT_BINARY_DIR}")
endif()

function(_cli_abs var path)
  if(IS_ABSOLUTE "${path}")
    set(${var} "${path}" PARENT_SCOPE)
  else()
    set(${var} "${WORKDIR}/${path}" PARENT_SCOPE)
  endif()
endfunction()

if(DEFINED REMOVE)
  _cli_abs(_p "${REMOVE}")
  file(REMOVE_RECURSE "${_p}")
endif()
if(DEFINED MKDIRS)
  string(REPLACE "|" ";" _dirs "${MKDIRS}")
  foreach(_d IN LISTS _dirs)
    _cli_abs(_p "${_d}")
    file(MAKE_DIRECTORY "${_p}")
  endforeach()
endif()
if(DEFINED SETUP_FILE)
  _cli_abs(_p "${SETUP_FILE}")
  get_filename_component(_d "${_p}" DIRECTORY)
  file(MAKE_DIRECTORY "${_d}")
  file(WRITE "${_p}" "${SETUP_TEXT}")
endif()
if(DEFINED SETUP_TRACE_TO)
  file(READ "${SETUP_TRACE_OF}" _fixture)
  string(FIND "${_fixture}" "\n-- trace --\n" _at)
  if(_at LESS 0)
    message(FATAL_ERROR "${SETUP_TRACE_OF}: no \"-- trace --\" line")
  endif()
  math(EXPR _at "${_at} + 13")
  string(SUBSTRING "${_fixture}" ${_at} -1 _trace)
  _cli_abs(_p "${SETUP_TRACE_TO}")
  file(WRITE "${_p}" "${_trace}")
endif()
if(DEFINED SETUP_GZIP_TO)
  _cli_abs(_src "${SETUP_GZIP_OF}")
  _cli_abs(_p "${SETUP_GZIP_TO}")
  get_filename_component(_d "${_p}" DIRECTORY)
  file(MAKE_DIRECTORY "${_d}")
  file(ARCHIVE_CREATE OUTPUT "${_p}" PATHS "${_src}" FORMAT raw COMPRESSION GZip)
endif()
if(DEFINED PRE_ARGS)
  string(REPLACE "|" ";" _pre "${PRE_ARGS}")
  execute_process(COMMAND "${CMD}" ${_pre} WORKING_DIRECTORY "${WORKDIR}"
                  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT "${_rc}" STREQUAL "0")
    message(FATAL_ERROR "set-up command ${PRE_ARGS} exited ${_rc}: ${_err}")
  endif()
endif()

string(REPLACE "|" ";" _args "${ARGS}")
set(_cwd "${WORKDIR}")
if(DEFINED CWD)
  _cli_abs(_cwd "${CWD}")
  file(MAKE_DIRECTORY "${_cwd}")
endif()
set(_stdout OUTPUT_VARIABLE out)
if(DEFINED STDOUT_TO)
  _cli_abs(_p "${STDOUT_TO}")
  set(_stdout OUTPUT_FILE "${_p}")
  set(out "")
endif()
if(DEFINED STDIN_PIPE)
  _cli_abs(_in "${STDIN_PIPE}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E cat "${_in}"
                  COMMAND "${CMD}" ${_args} WORKING_DIRECTORY "${_cwd}"
                  RESULT_VARIABLE rc ${_stdout} ERROR_VARIABLE err)
elseif(DEFINED STDIN)
  _cli_abs(_in "${STDIN}")
  execute_process(COMMAND "${CMD}" ${_args} WORKING_DIRECTORY "${_cwd}" INPUT_FILE "${_in}"
                  RESULT_VARIABLE rc ${_stdout} ERROR_VARIABLE err)
else()
  execute_process(COMMAND "${CMD}" ${_args} WORKING_DIRECTORY "${_cwd}"
                  RESULT_VARIABLE rc ${_stdout} ERROR_VARIABLE err)
endif()
string(LENGTH "${out}" _outlen)
if(_outlen GREATER 20000)
  string(SUBSTRING "${out}" 0 20000 _shown)
  set(_shown "${_shown}[... ${_outlen} characters in all]\n")
else()
  set(_shown "${out}")
endif()
message("exit status ${rc}\n--- stdout\n${_shown}--- stderr\n${err}---")
if(NOT "${rc}" STREQUAL "${WANT_RC}")
  message(FATAL_ERROR "exit status ${rc}, want ${WANT_RC}")
endif()
if(DEFINED WANT_OUT AND NOT out MATCHES "${WANT_OUT}")
  message(FATAL_ERROR "stdout does not match: ${WANT_OUT}")
endif()
if(DEFINED WANT_ERR AND NOT err MATCHES "${WANT_ERR}")
  message(FATAL_ERROR "stderr does not match: ${WANT_ERR}")
endif()
if(DEFINED OUT_STARTS_WITH)
  file(READ "${OUT_STARTS_WITH}" _golden)
  string(LENGTH "${_golden}" _glen)
  string(SUBSTRING "${out}" 0 ${_glen} _head)
  if(NOT _head STREQUAL _golden)
    message(FATAL_ERROR "stdout does not start with the contents of ${OUT_STARTS_WITH}")
  endif()
endif()

if(DEFINED SAME_AS)
  string(REPLACE "|" ";" _same "${SAME_AS}")
  if(DEFINED SAME_STDIN)
    _cli_abs(_in "${SAME_STDIN}")
    execute_process(COMMAND "${CMD}" ${_same} WORKING_DIRECTORY "${WORKDIR}" INPUT_FILE "${_in}"
                    RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2 ERROR_VARIABLE err2)
  else()
    execute_process(COMMAND "${CMD}" ${_same} WORKING_DIRECTORY "${WORKDIR}"
                    RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2 ERROR_VARIABLE err2)
  endif()
  if(NOT "${rc2}" STREQUAL "${rc}")
    message(FATAL_ERROR "exit status ${rc}, but ${SAME_AS} exits ${rc2}")
  endif()
  if(NOT out STREQUAL out2)
    message(FATAL_ERROR "stdout differs from that of ${SAME_AS}:\n${out2}")
  endif()
  if(NOT err STREQUAL err2)
    message(FATAL_ERROR "stderr differs from that of ${SAME_AS}:\n${err2}")
  endif()
endif()
if(DEFINED SAME_FILES)
  string(REPLACE "|" ";" _files "${SAME_FILES}")
  list(GET _files 0 _a)
  list(GET _files 1 _b)
  _cli_abs(_a "${_a}")
  _cli_abs(_b "${_b}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${_a}" "${_b}" RESULT_VARIABLE _rc)
  if(NOT "${_rc}" STREQUAL "0")
    message(FATAL_ERROR "${_a} and ${_b} differ")
  endif()
endif()
if(DEFINED ABSENT)
  string(REPLACE "|" ";" _absent "${ABSENT}")
  foreach(_p IN LISTS _absent)
    _cli_abs(_p "${_p}")
    if(EXISTS "${_p}" OR IS_SYMLINK "${_p}")
      message(FATAL_ERROR "${_p} exists: the command must not create it")
    endif()
  endforeach()
endif()
