# Tests of the reader component (base.c, batch.c, batchcursor.c, generation.c, reader.c).
gtr_unit_test(NAME test_heap SOURCES test_heap.c LIBS gtr)
gtr_unit_test(NAME test_batchcursor SOURCES test_batchcursor.c LIBS gtr)
gtr_unit_test(NAME test_reader SOURCES test_reader.c LIBS gtr)
gtr_unit_test(NAME test_generation SOURCES test_generation.c LIBS gtr)
gtr_unit_test(NAME test_reader_real SOURCES test_reader_real.c sha256.c LIBS gtr)
set_tests_properties(test_reader_real PROPERTIES TIMEOUT 600)
gtr_unit_test(NAME test_diagnosis SOURCES test_diagnosis.c LIBS gtr_tracedit gtr_testgen)
