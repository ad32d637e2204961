# Tests of the event component: the event API and String() against vectors generated from Go
# (tests/gen/), and the validator.
gtr_unit_test(NAME test_event SOURCES test_event.c LIBS gtr)
gtr_unit_test(NAME test_validate SOURCES test_validate.c LIBS gtr)

# gotrace validate over the real traces: Go's verdict and Go's event dump, byte for byte.
set(_event_dir ${CMAKE_CURRENT_BINARY_DIR}/event)
file(MAKE_DIRECTORY ${_event_dir})
add_test(NAME event_validate_real_corpus_matches_go
         COMMAND ${CMAKE_COMMAND} -DGOTRACE=$<TARGET_FILE:gotrace>
                 -DCORPUS=${CMAKE_SOURCE_DIR}/corpus/real -DWORKDIR=${_event_dir}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/validate_corpus.cmake)
