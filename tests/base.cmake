# Tests of the base component: input, varints, the spec table, status/err/buf.
gtr_unit_test(NAME test_input SOURCES test_input.c LIBS gtr ZLIB::ZLIB)
gtr_unit_test(NAME test_varint SOURCES test_varint.c LIBS gtr)
gtr_unit_test(NAME test_spec SOURCES test_spec.c LIBS gtr)
gtr_unit_test(NAME test_base SOURCES test_base.c LIBS gtr)
