# Tests of the cli component, and of the golden-runner machinery it sits on (testgen's
# expect.c and fixture.c, owned with the CLI's check mode).
gtr_unit_test(NAME test_expect SOURCES test_expect.c LIBS gtr_testgen)
gtr_unit_test(NAME test_fixture SOURCES test_fixture.c LIBS gtr_testgen)
