# GtrStaticCli.cmake: GTR_STATIC_CLI, the gotrace command linked statically (glibc, zlib and
# PCRE2 from their archives), as Go links its own programs.
#
# Why: on this project's machines a process start costs more than a small trace's whole parse.
# A dynamically linked gotrace spends about 1 ms of CPU in the dynamic loader and its page
# faults before main (`gotrace --version`: 2.7 ms against 1.7 ms static), a sixth of a
# `gotrace validate` of a 58 K-event trace (bench/README.md, "The command linked statically").
#
# Only the gotrace executable is static: libgtr.so, libgtr.a and the installed package still
# name ZLIB::ZLIB and PkgConfig::PCRE2 as before. A target opts in with the target property
# GTR_LINK_STATIC; GTR_ZLIB_LINK and GTR_PCRE2_LINK (what libtrace and testgen link) pick the
# archive for such a consumer and the usual imported target for every other, through
# $<TARGET_PROPERTY:GTR_LINK_STATIC>, which in a usage requirement is read off the consumer.
#
# Off for sanitizer, coverage and fuzzing builds (their runtimes want the dynamic loader), and
# off with a note when an archive is missing or a static test program does not link
# (-DGTR_STATIC_CLI=OFF for distribution packaging). The output is GTR_STATIC_CLI_FLAG: the
# link flag (-static-pie when the compiler makes position-independent code by default, so the
# binary keeps address randomisation, else -static), empty when the command links dynamically.

set(_gtr_static_default ON)
if(GTR_SANITIZE OR GTR_COVERAGE OR GTR_BUILD_FUZZERS OR GTR_FUZZ_ENGINE)
  set(_gtr_static_default OFF)
endif()
option(GTR_STATIC_CLI "Link the gotrace command statically (glibc, zlib and PCRE2 archives)"
       ${_gtr_static_default})

set(GTR_STATIC_CLI_FLAG "")
set(GTR_ZLIB_LINK ZLIB::ZLIB)
if(GTR_BUILD_TESTGEN)
  set(GTR_PCRE2_LINK PkgConfig::PCRE2)
endif()

if(GTR_STATIC_CLI AND GTR_BUILD_CLI)
  include(CheckCSourceCompiles)
  find_library(GTR_ZLIB_ARCHIVE NAMES libz.a)
  find_library(GTR_PCRE2_ARCHIVE NAMES libpcre2-8.a)
  set(_why "")
  if(NOT GTR_ZLIB_ARCHIVE)
    set(_why "no libz.a (zlib1g-dev)")
  elseif(NOT GTR_PCRE2_ARCHIVE)
    set(_why "no libpcre2-8.a (libpcre2-dev)")
  else()
    check_c_source_compiles("
      #if !defined(__PIE__) && !defined(__pie__)
      #error not position-independent by default
      #endif
      int main(void) { return 0; }" GTR_CC_DEFAULT_PIE)
    set(_flag -static)
    if(GTR_CC_DEFAULT_PIE)
      set(_flag -static-pie)
    endif()
    set(CMAKE_REQUIRED_LINK_OPTIONS ${_flag})
    set(CMAKE_REQUIRED_LIBRARIES ${GTR_PCRE2_ARCHIVE} ${GTR_ZLIB_ARCHIVE} m)
    check_c_source_compiles("
      #include <zlib.h>
      #define PCRE2_CODE_UNIT_WIDTH 8
      #include <pcre2.h>
      int main(void) {
        pcre2_code *re = pcre2_compile((PCRE2_SPTR)\"a\", 1, 0, 0, 0, 0);
        pcre2_code_free(re);
        return zlibVersion()[0] == 0;
      }" GTR_STATIC_LINK_WORKS_${_flag})
    unset(CMAKE_REQUIRED_LINK_OPTIONS)
    unset(CMAKE_REQUIRED_LIBRARIES)
    if(GTR_STATIC_LINK_WORKS_${_flag})
      set(GTR_STATIC_CLI_FLAG ${_flag})
    else()
      set(_why "a static test program does not link with ${_flag}")
    endif()
  endif()
  if(GTR_STATIC_CLI_FLAG)
    set(_static "$<BOOL:$<TARGET_PROPERTY:GTR_LINK_STATIC>>")
    set(GTR_ZLIB_LINK
        "$<BUILD_INTERFACE:$<IF:${_static},${GTR_ZLIB_ARCHIVE},ZLIB::ZLIB>>"
        "$<INSTALL_INTERFACE:ZLIB::ZLIB>")
    set(GTR_PCRE2_LINK
        "$<BUILD_INTERFACE:$<IF:${_static},${GTR_PCRE2_ARCHIVE},PkgConfig::PCRE2>>"
        "$<INSTALL_INTERFACE:PkgConfig::PCRE2>")
    message(STATUS "GTR_STATIC_CLI: gotrace links with ${GTR_STATIC_CLI_FLAG}")
  else()
    message(STATUS "GTR_STATIC_CLI: gotrace links dynamically: ${_why}")
  endif()
endif()
