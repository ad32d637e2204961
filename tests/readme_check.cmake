# readme_check.cmake: what the README says of the command line and the library is true.
#   cmake -DGOTRACE=<gotrace> -DSOURCE_DIR=<repo> -P readme_check.cmake
# 1. The row of each mode in the table of "The `gotrace` command" names every flag that
#    `gotrace help MODE` lists (a line "  --flag ..." or "  -f ..." under its flags; -h and --
#    aside);
# 2. the Layout's list of public headers names every header of libtrace/include/gtr/;
# 3. the README and ci/main-job.sh give the main job's build the same time ("about N
#    minutes").
cmake_minimum_required(VERSION 3.20)
file(READ "${SOURCE_DIR}/README.md" readme)

# 1. Flags.
include(${CMAKE_CURRENT_LIST_DIR}/cli_modes.cmake)
gtr_cli_modes(modes "${GOTRACE}")
set(checked 0)
foreach(m IN LISTS modes)
  string(REGEX MATCH "\n\\| `${m}[ `][^\n]*" row "${readme}")
  if(row STREQUAL "")
    message(FATAL_ERROR "README: no row for mode ${m} in the table of modes")
  endif()
  # The row's first cell: the synopsis.
  string(REGEX REPLACE "^\n\\| `([^`]*)`.*" "\\1" synopsis "${row}")
  execute_process(COMMAND "${GOTRACE}" help ${m} RESULT_VARIABLE rc OUTPUT_VARIABLE mode_help)
  string(REGEX MATCHALL "\n  -[-a-z]*[a-z]" flags "${mode_help}")
  foreach(f IN LISTS flags)
    string(STRIP "${f}" f)
    if(f STREQUAL "-h")
      continue()
    endif()
    string(FIND "${synopsis}" "${f}" at)
    # The flag whole: not a prefix of a longer one.
    string(REGEX MATCH "${f}([^-a-z]|$)" whole "${synopsis}")
    if(at LESS 0 OR whole STREQUAL "")
      message(FATAL_ERROR "README: the row of ${m} (`${synopsis}`) does not name ${f}, "
                          "which `gotrace ${m} -h` lists")
    endif()
    math(EXPR checked "${checked} + 1")
  endforeach()
endforeach()

# 2. Public headers.
string(REGEX MATCH "include/gtr/ +public headers:[^\n]*\n[^\n]*" listed "${readme}")
if(listed STREQUAL "")
  message(FATAL_ERROR "README: no \"include/gtr/   public headers:\" line in the Layout")
endif()
file(GLOB headers RELATIVE "${SOURCE_DIR}/libtrace/include/gtr"
     "${SOURCE_DIR}/libtrace/include/gtr/*.h")
foreach(h IN LISTS headers)
  string(FIND "${listed}" " ${h}" at)
  if(at LESS 0)
    message(FATAL_ERROR "README: the Layout's public headers do not name ${h}")
  endif()
endforeach()

# 3. The main job's build time.
file(READ "${SOURCE_DIR}/ci/main-job.sh" job)
string(REGEX MATCH "main job.s build [^;]*about ([0-9.]+) minutes" _ "${readme}")
set(readme_time "${CMAKE_MATCH_1}")
string(REGEX MATCH "\n# On an idle[^\n]*about ([0-9.]+) minutes" _ "${job}")
set(job_time "${CMAKE_MATCH_1}")
if(readme_time STREQUAL "" OR job_time STREQUAL "")
  message(FATAL_ERROR "README (\"${readme_time}\") or ci/main-job.sh (\"${job_time}\"): "
                      "no \"about N minutes\" for the main job's build")
endif()
if(NOT readme_time STREQUAL job_time)
  message(FATAL_ERROR "the main job's build takes about ${readme_time} minutes in the README, "
                      "about ${job_time} in ci/main-job.sh")
endif()
list(LENGTH headers nheaders)
message("README: ${checked} flags in the rows of the modes, ${nheaders} public headers, "
        "the main job's build about ${readme_time} minutes in both")
