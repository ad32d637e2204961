# gotrace-man.cmake: write the man page gotrace(1) from its hand-written sections
# (gotrace.1.in: DESCRIPTION, EXIT STATUS, ENVIRONMENT, EXAMPLES, ...) and the help texts
# gotrace itself prints, so that the flags and the CLI have one source (the usage strings in
# cli/*.c):
#   cmake -DGOTRACE=<gotrace binary> -DTEMPLATE=<gotrace.1.in> -DOUT=<gotrace.1> -DVERSION=<x.y.z>
#         -P gotrace-man.cmake
# `gotrace help` gives the list of modes (the lines under "modes:", @MODE_LIST@), and
# `gotrace help MODE` the section of each mode (all but help and version, @MODE_SECTIONS@).
# A help text is set verbatim (.nf), with the portable escapes (a backslash \e, - \-, ' \(aq,
# ` \(ga, so that flags copy as typed) and a line starting with . guarded with \&. The page
# indents it by 7 columns, so a help line longer than 73 columns is wrapped there (at a space,
# the rest under the flag's description or the line's own indentation): rendered at 80
# columns the page keeps within 80.
cmake_minimum_required(VERSION 3.20)
foreach(_v GOTRACE TEMPLATE OUT VERSION)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "gotrace-man.cmake: -D${_v}=... is required")
  endif()
endforeach()
set(WRAP_AT 73)

# _run(var args...): the stdout of `gotrace args...`, which must exit 0.
function(_run var)
  execute_process(COMMAND "${GOTRACE}" ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out
                  ERROR_VARIABLE _err)
  if(NOT _rc STREQUAL "0")
    message(FATAL_ERROR "gotrace ${ARGN} exited ${_rc}: ${_err}")
  endif()
  set(${var} "${_out}" PARENT_SCOPE)
endfunction()

# CMake lists split on ';', but not inside '[' ']' nor after '\': help lines are carried with
# these four characters swapped for control characters, and swapped back at the end.
string(ASCII 1 _semi)
string(ASCII 2 _open)
string(ASCII 3 _close)
string(ASCII 4 _backslash)
function(_hide var text)
  string(REPLACE "\\" "${_backslash}" text "${text}")
  string(REPLACE ";" "${_semi}" text "${text}")
  string(REPLACE "[" "${_open}" text "${text}")
  string(REPLACE "]" "${_close}" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()
function(_unhide var text)
  string(REPLACE "${_semi}" ";" text "${text}")
  string(REPLACE "${_open}" "[" text "${text}")
  string(REPLACE "${_close}" "]" text "${text}")
  string(REPLACE "${_backslash}" "\\" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# _indent_of(var line): the column a wrapped part of line goes under: a usage line's
# arguments ("usage: gotrace MODE "), a flag line's description ("  --flag VALUE   what it
# does"), otherwise the line's own first character.
function(_indent_of var line)
  if(line MATCHES "^(usage: gotrace [a-z0-9]+ )")
    string(LENGTH "${CMAKE_MATCH_1}" _n)
  elseif(line MATCHES "^( +[^ ]+( [^ ]+)?  +)[^ ]")
    string(LENGTH "${CMAKE_MATCH_1}" _n)
  elseif(line MATCHES "^( *)")
    string(LENGTH "${CMAKE_MATCH_1}" _n)
  endif()
  set(${var} ${_n} PARENT_SCOPE)
endfunction()

# _wrap(var text): text with every line longer than WRAP_AT broken at its last space that
# fits. The rest goes under the line's indentation (_indent_of), joined to the next line
# when that one continues the same text (not blank, indented as much, not a flag line of its
# own), so that a paragraph is reflowed rather than left with stubs. A word longer than the
# room stays whole. The words keep their order.
function(_wrap var text)
  _hide(text "${text}")
  string(REPLACE "\n" ";" _lines "${text}")
  list(LENGTH _lines _count)
  set(_out "")
  set(_i 0)
  set(_have_pending FALSE)
  while(TRUE)
    if(_have_pending)
      set(_line "${_pending}")
      set(_have_pending FALSE)
    elseif(_i LESS _count)
      list(GET _lines ${_i} _line)
      math(EXPR _i "${_i} + 1")
    else()
      break()
    endif()
    string(LENGTH "${_line}" _len)
    if(NOT _len GREATER WRAP_AT)
      string(APPEND _out "${_line}\n")
      continue()
    endif()
    _indent_of(_indent "${_line}")
    # The last space at or before column WRAP_AT + 1, past the indentation.
    string(SUBSTRING "${_line}" 0 ${WRAP_AT} _head)
    string(SUBSTRING "${_line}" ${WRAP_AT} 1 _next)
    if(_next STREQUAL " ")
      set(_at ${WRAP_AT})
    else()
      string(FIND "${_head}" " " _at REVERSE)
    endif()
    if(_at LESS_EQUAL _indent)
      string(APPEND _out "${_line}\n")
      continue()
    endif()
    string(SUBSTRING "${_line}" 0 ${_at} _head)
    string(SUBSTRING "${_line}" ${_at} -1 _rest)
    string(REGEX REPLACE " +$" "" _head "${_head}")
    string(REGEX REPLACE "^ +" "" _rest "${_rest}")
    string(APPEND _out "${_head}\n")
    string(REPEAT " " ${_indent} _pad)
    set(_pending "${_pad}${_rest}")
    set(_have_pending TRUE)
    if(_i LESS _count)
      list(GET _lines ${_i} _following)
      string(REGEX REPLACE "[^ ].*$" "" _lead "${_following}")
      string(LENGTH "${_lead}" _lead_len)
      _indent_of(_following_indent "${_following}")
      if(NOT _following MATCHES "^ *$" AND _lead_len EQUAL _indent
         AND _following_indent EQUAL _lead_len)
        string(REGEX REPLACE "^ +" "" _following "${_following}")
        set(_pending "${_pad}${_rest} ${_following}")
        math(EXPR _i "${_i} + 1")
      endif()
    endif()
  endwhile()
  _unhide(_out "${_out}")
  set(${var} "${_out}" PARENT_SCOPE)
endfunction()

# _escape(var text): text with roff's special characters escaped (see the header).
function(_escape var text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REPLACE "'" "\\(aq" text "${text}")
  string(REPLACE "`" "\\(ga" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# _roff(var text): text as the lines of a no-fill block.
function(_roff var text)
  _wrap(text "${text}")
  _escape(text "${text}")
  string(REGEX REPLACE "\n+$" "" text "${text}")
  string(REGEX REPLACE "(^|\n)\\." "\\1\\\\&." text "${text}")
  set(${var} ".nf\n${text}\n.fi\n" PARENT_SCOPE)
endfunction()

_run(top help)
string(FIND "${top}" "\nmodes:\n" _at)
if(_at LESS 0)
  message(FATAL_ERROR "gotrace help: no \"modes:\" line")
endif()
string(SUBSTRING "${top}" ${_at} -1 _list)
string(REGEX REPLACE "^\nmodes:\n" "" _list "${_list}")
string(REGEX REPLACE "\n\n.*" "\n" _list "${_list}")
# Each "  NAME      summary" line: an item of the list; the modes but help and version get
# their section.
_hide(_list "${_list}")
string(REGEX REPLACE "\n$" "" _list "${_list}")
string(REPLACE "\n" ";" _items "${_list}")
set(modes "")
set(mode_list "")
foreach(_item IN LISTS _items)
  if(NOT _item MATCHES "^  ([a-z0-9-]+) +(.*)$")
    message(FATAL_ERROR "gotrace help: a line under \"modes:\" is not \"  NAME  summary\": ${_item}")
  endif()
  set(_n "${CMAKE_MATCH_1}")
  _unhide(_summary "${CMAKE_MATCH_2}")
  _escape(_summary "${_summary}")
  string(APPEND mode_list ".TP\n.B ${_n}\n${_summary}\n")
  if(NOT _n STREQUAL "help" AND NOT _n STREQUAL "version")
    list(APPEND modes "${_n}")
  endif()
endforeach()
list(LENGTH modes _count)
if(_count EQUAL 0)
  message(FATAL_ERROR "gotrace help: no mode under \"modes:\"")
endif()

set(mode_sections "")
foreach(_m IN LISTS modes)
  _run(_help help ${_m})
  _roff(_body "${_help}")
  string(APPEND mode_sections ".SS ${_m}\n${_body}")
endforeach()

file(READ "${TEMPLATE}" page)
string(REGEX REPLACE "\n$" "" mode_list "${mode_list}")
string(REGEX REPLACE "\n$" "" mode_sections "${mode_sections}")
foreach(_slot VERSION MODE_LIST MODE_SECTIONS)
  string(FIND "${page}" "@${_slot}@" _at)
  if(_at LESS 0)
    message(FATAL_ERROR "${TEMPLATE}: no @${_slot}@")
  endif()
endforeach()
string(REPLACE "@VERSION@" "${VERSION}" page "${page}")
string(REPLACE "@MODE_LIST@" "${mode_list}" page "${page}")
string(REPLACE "@MODE_SECTIONS@" "${mode_sections}" page "${page}")
file(WRITE "${OUT}" "${page}")
