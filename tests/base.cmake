# Tests of the base component: input, varints, the spec table, status/err/buf.
gtr_unit_test(NAME test_input SOURCES test_input.c LIBS gtr ZLIB::ZLIB)
gtr_unit_test(NAME test_varint SOURCES test_varint.c LIBS gtr)
gtr_unit_test(NAME test_spec SOURCES test_spec.c LIBS gtr)
gtr_unit_test(NAME test_base SOURCES test_base.c LIBS gtr)
gtr_unit_test(NAME test_idmap SOURCES test_idmap.c LIBS gtr)
gtr_unit_test(NAME test_strpool SOURCES test_strpool.c LIBS gtr)
gtr_unit_test(NAME test_err SOURCES test_err.c LIBS gtr)
# Messages longer than 4 KiB or holding NUL bytes reach stderr whole, as Go's do.
add_test(NAME cli_validate_long_and_nul_messages_match_go
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/errlen_validate.sh $<TARGET_FILE:gotrace>
                 ${CMAKE_CURRENT_SOURCE_DIR}/data/errlen)
