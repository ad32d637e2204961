# Tests of the txtar component.
gtr_unit_test(NAME test_txtar SOURCES test_txtar.c LIBS gtr_txtar)
