# Installation of txtar and testgen (included by the top CMakeLists.txt once their targets
# exist): the static libraries, their headers (<txtar.h>, <tgen/*.h>), a pkg-config file each
# (gtr-txtar.pc, gtr-testgen.pc) and their CMake targets, gotrace::txtar and gotrace::tgen.
# txtar goes into libtrace's export set (gotraceTargets: it needs nothing); testgen into its
# own (gotraceTestgenTargets), which gotraceConfig.cmake loads only when PCRE2 is found, so
# that find_package(gotrace) keeps needing zlib only unless the tgen component is asked for.
set_target_properties(gtr_txtar PROPERTIES EXPORT_NAME txtar)
add_library(gotrace::txtar ALIAS gtr_txtar)
install(TARGETS gtr_txtar EXPORT gotraceTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
set_property(GLOBAL APPEND PROPERTY GTR_INSTALLED_TARGETS gtr_txtar)
install(FILES ${PROJECT_SOURCE_DIR}/txtar/include/txtar.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
gtr_pkgconfig(gtr-txtar.pc.in gtr-txtar)

if(TARGET gtr_testgen)
  set_target_properties(gtr_testgen PROPERTIES EXPORT_NAME tgen)
  add_library(gotrace::tgen ALIAS gtr_testgen)
  set_property(GLOBAL APPEND PROPERTY GTR_INSTALLED_TARGETS gtr_testgen)
  install(TARGETS gtr_testgen EXPORT gotraceTestgenTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/testgen/include/tgen
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
  install(EXPORT gotraceTestgenTargets NAMESPACE gotrace::
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gotrace)
  gtr_pkgconfig(gtr-testgen.pc.in gtr-testgen)
endif()
