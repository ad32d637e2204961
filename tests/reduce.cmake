# The trace-editing model, the golden judgment and the reducer.
gtr_unit_test(NAME test_tracedit SOURCES test_tracedit.c LIBS gtr_tracedit gtr_testgen)
gtr_unit_test(NAME test_judge SOURCES test_judge.c LIBS gtr_testgen gtr_reduce)
gtr_unit_test(NAME test_reduce SOURCES test_reduce.c LIBS gtr_reduce)
add_dependencies(test_reduce gotrace)   # runs `gotrace reduce` and `gotrace check`
