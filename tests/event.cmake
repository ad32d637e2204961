# Tests of the event component: the event API and String() against vectors generated from Go
# (tests/gen/), and the validator.
gtr_unit_test(NAME test_event SOURCES test_event.c LIBS gtr)
gtr_unit_test(NAME test_validate SOURCES test_validate.c LIBS gtr)
