# Tests of the order component.
gtr_unit_test(NAME test_order SOURCES test_order.c LIBS gtr)
