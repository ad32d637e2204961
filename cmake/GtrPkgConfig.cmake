# gtr_pkgconfig(TEMPLATE NAME): configure cmake/TEMPLATE (a .pc.in) into NAME.pc and install it
# to <libdir>/pkgconfig. Every .pc names its directories relative to its own (pcfiledir), so
# `cmake --install BUILD --prefix P` may choose any P; absolute CMAKE_INSTALL_<dir>s stay as
# they are. The template sees @GTR_PC_TO_PREFIX@, @GTR_PC_LIBDIR@, @GTR_PC_INCLUDEDIR@ and
# @PROJECT_VERSION@.
function(gtr_pkgconfig template name)
  file(RELATIVE_PATH GTR_PC_TO_PREFIX /P/${CMAKE_INSTALL_LIBDIR}/pkgconfig /P)
  string(REGEX REPLACE "/$" "" GTR_PC_TO_PREFIX "${GTR_PC_TO_PREFIX}")
  foreach(_d LIBDIR INCLUDEDIR)
    if(IS_ABSOLUTE "${CMAKE_INSTALL_${_d}}")
      set(GTR_PC_${_d} "${CMAKE_INSTALL_${_d}}")
    else()
      set(GTR_PC_${_d} "\${prefix}/${CMAKE_INSTALL_${_d}}")
    endif()
  endforeach()
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${template} ${CMAKE_CURRENT_BINARY_DIR}/${name}.pc
                 @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${name}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()
