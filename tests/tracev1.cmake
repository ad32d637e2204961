# Tests of the v1 path (libtrace/src/tracev1/, tracev1_convert.c): Go 1.11-1.21 traces.
# GTR_GO_TRACEV1_TESTDATA: Go's tracev1 testdata (the 12 real traces), from the oracle's
# unpacked golang-1.27-src; the tests that need it skip when it is absent.
set(GTR_GO_TRACEV1_TESTDATA
  "/root/.cache/gotrace-oracle/unpacked/usr/share/go-1.27/src/internal/trace/internal/tracev1/testdata"
  CACHE PATH "Go's internal/trace/internal/tracev1/testdata")
gtr_unit_test(NAME test_tracev1_parser SOURCES test_tracev1_parser.c LIBS gtr)
target_compile_definitions(test_tracev1_parser PRIVATE
  GTR_GO_TRACEV1_TESTDATA="${GTR_GO_TRACEV1_TESTDATA}")
gtr_unit_test(NAME test_tracev1_reader SOURCES test_tracev1_reader.c sha256.c LIBS gtr)
target_compile_definitions(test_tracev1_reader PRIVATE
  GTR_GO_TRACEV1_TESTDATA="${GTR_GO_TRACEV1_TESTDATA}" _GNU_SOURCE)
