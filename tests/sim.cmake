# Tests of gsim, the scheduler model (sim/).
gtr_unit_test(NAME test_sim SOURCES test_sim.c LIBS gtr_sim gtr)
