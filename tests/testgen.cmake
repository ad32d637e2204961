# Tests of the testgen component: the tgen DSL, and the generators against the fixtures.
gtr_unit_test(NAME test_testgen SOURCES test_testgen.c LIBS gtr_testgen)
gtr_unit_test(NAME test_testgen_corpus SOURCES test_testgen_corpus.c LIBS gtr_testgen)

# `gotrace gen` regenerates corpus/tests byte for byte (the CI drift check).
add_test(NAME testgen_regen_corpus
         COMMAND sh ${CMAKE_SOURCE_DIR}/ci/regen-corpus.sh $<TARGET_FILE:gotrace>)
