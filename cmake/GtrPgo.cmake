# GtrPgo.cmake: GTR_PGO, profile-guided optimisation with GCC, in the two stages
# ci/pgo-build.sh runs in one build tree:
#
#   -DGTR_PGO=GENERATE  every object is instrumented (-fprofile-generate=GTR_PGO_DIR): running
#                       the programs writes their counts into GTR_PGO_DIR;
#   -DGTR_PGO=USE       every object is compiled with those counts (-fprofile-use=GTR_PGO_DIR):
#                       the branches laid out as they went, the hot code inlined and kept
#                       together, the cold code moved out of its way;
#   -DGTR_PGO=OFF       neither (the default).
#
# Why: the reader and the validator are a loop over event types whose branches and calls a
# compiler guesses from the source alone. With the counts of ci/pgo-build.sh's training run
# (bench/pgo-train.sh: real traces and gsim traces that the benchmarks do not measure), the
# Release gotrace takes 2-7 % less CPU to parse, 4-13 % to parse and validate, and 4-11 % for
# `gotrace validate FILE` (bench/README.md, "Built with the profile").
#
# The counts name each object by its path: GENERATE and USE must build the same sources in
# the same tree (ci/pgo-build.sh does). -fprofile-partial-training keeps what the training
# never ran optimised as without a profile (old-format paths, error paths), and
# -Wno-missing-profile quiets the objects it never reached. Branch and call counts only: value
# profiling (-fprofile-values, -fvpt) is off, as its string-operation profile turned the event
# dump's copies of stack text into inline `rep movs`, which made bigtrace-10mb's
# --log-events 6 % slower than without a profile on this project's AMD EPYC machine (14 %
# against the profile without it). GCC only; not with sanitizers,
# coverage or the fuzzing builds, which instrument the code their own way.

set(GTR_PGO "OFF" CACHE STRING "Profile-guided optimisation stage: OFF, GENERATE or USE (GCC)")
set_property(CACHE GTR_PGO PROPERTY STRINGS OFF GENERATE USE)
set(GTR_PGO_DIR "${CMAKE_BINARY_DIR}/pgo-profile" CACHE PATH
    "Where GTR_PGO=GENERATE's programs write their counts and GTR_PGO=USE reads them")

if(NOT GTR_PGO STREQUAL "OFF")
  if(NOT GTR_PGO MATCHES "^(GENERATE|USE)$")
    message(FATAL_ERROR "GTR_PGO is OFF, GENERATE or USE, not '${GTR_PGO}'")
  endif()
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "GTR_PGO=${GTR_PGO}: profile-guided optimisation is set up for GCC "
                        "(this is ${CMAKE_C_COMPILER_ID})")
  endif()
  if(GTR_SANITIZE OR GTR_COVERAGE OR GTR_BUILD_FUZZERS OR GTR_FUZZ_ENGINE)
    message(FATAL_ERROR "GTR_PGO=${GTR_PGO} does not go with sanitizer, coverage or fuzzing "
                        "builds")
  endif()
  if(GTR_PGO STREQUAL "GENERATE")
    # One thread writes the counts at a time (the library and the CLI run one thread each).
    add_compile_options(-fprofile-generate=${GTR_PGO_DIR} -fprofile-update=single
                        -fno-profile-values)
    add_link_options(-fprofile-generate=${GTR_PGO_DIR} -fno-profile-values)
  else()
    if(NOT IS_DIRECTORY "${GTR_PGO_DIR}")
      message(FATAL_ERROR "GTR_PGO=USE: no profile in ${GTR_PGO_DIR} (ci/pgo-build.sh makes it)")
    endif()
    add_compile_options(-fprofile-use=${GTR_PGO_DIR} -fprofile-partial-training
                        -fno-profile-values -fno-vpt -Wno-missing-profile)
    add_link_options(-fprofile-use=${GTR_PGO_DIR} -fprofile-partial-training
                     -fno-profile-values -fno-vpt)
  endif()
endif()
