# Tests of gsim, the scheduler model (sim/).
gtr_unit_test(NAME test_sim SOURCES test_sim.c LIBS gtr_sim gtr)

# The sim fuzz target replays its seeds (corpus/fuzz/sim/: choice strings) and every
# regression input of every target (any bytes are a choice string), like the other targets
# in fuzz.cmake. The model traces seeded into corpus/fuzz/reader/ and raw_roundtrip/ are
# replayed by those targets' own tests.
if(TARGET gtr_sim AND GTR_BUILD_TESTGEN)
  add_test(NAME fuzz_replay_sim
    COMMAND fuzz_sim_replay ${CMAKE_SOURCE_DIR}/corpus/fuzz/sim ${CMAKE_SOURCE_DIR}/fuzz/regressions)
  set_tests_properties(fuzz_replay_sim PROPERTIES LABELS fuzz TIMEOUT 300)
endif()
