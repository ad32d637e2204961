# Tests of the v1 path (libtrace/src/tracev1/, tracev1_convert.c): Go 1.11-1.21 traces.
# GTR_GO_TRACEV1_TESTDATA: Go's tracev1 testdata (the 12 real traces of Go 1.27.3's
# src/internal/trace/internal/tracev1/testdata), committed as corpus/old/tracev1-NAME.trace.gz.
set(GTR_GO_TRACEV1_TESTDATA "${CMAKE_SOURCE_DIR}/corpus/old")
gtr_unit_test(NAME test_tracev1_parser SOURCES test_tracev1_parser.c LIBS gtr)
target_compile_definitions(test_tracev1_parser PRIVATE
  GTR_GO_TRACEV1_TESTDATA="${GTR_GO_TRACEV1_TESTDATA}")
gtr_unit_test(NAME test_tracev1_reader SOURCES test_tracev1_reader.c sha256.c LIBS gtr)
target_compile_definitions(test_tracev1_reader PRIVATE
  GTR_GO_TRACEV1_TESTDATA="${GTR_GO_TRACEV1_TESTDATA}" _GNU_SOURCE)

# The command line on Go's old traces: validate accepts each of them (as Go's oracle and
# TestTraceV1 do), stats reads them.
set(_v1_traces fmt_1_21_pprof_good http_1_19_good http_1_21_good stress_1_11_good
    stress_1_19_good stress_1_21_good stress_start_stop_1_11_good stress_start_stop_1_19_good
    stress_start_stop_1_21_good user_task_region_1_11_good user_task_region_1_19_good
    user_task_region_1_21_good)
if(EXISTS "${GTR_GO_TRACEV1_TESTDATA}/tracev1-user_task_region_1_21_good.trace.gz")
  foreach(_t IN LISTS _v1_traces)
    add_test(NAME cli_tracev1_validate_${_t}
             COMMAND gotrace validate "${GTR_GO_TRACEV1_TESTDATA}/tracev1-${_t}.trace.gz")
  endforeach()
  add_test(NAME cli_tracev1_stats
           COMMAND gotrace stats "${GTR_GO_TRACEV1_TESTDATA}/tracev1-user_task_region_1_21_good.trace.gz")
  set_tests_properties(cli_tracev1_stats PROPERTIES PASS_REGULAR_EXPRESSION
    "no size table: Go's raw reader does not read the go 1.21 format.*generations: 1\nbatches: -\nwire events: -\nevents: 33\n")
  # Cuts of the smallest old trace against Go's oracle (every 17th byte here; the script
  # takes any step, 1 for every offset), when the oracle and python3 are there.
  set(GTR_ORACLE "/root/.cache/gotrace-oracle/gtroracle" CACHE FILEPATH "Go's gtroracle binary")
  find_program(GTR_PYTHON3 python3)
  if(EXISTS "${GTR_ORACLE}" AND GTR_PYTHON3)
    add_test(NAME tracev1_truncate_vs_go
             COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/tracev1_truncate.sh" $<TARGET_FILE:gotrace>
                     "${GTR_ORACLE}" "${GTR_GO_TRACEV1_TESTDATA}/tracev1-user_task_region_1_19_good.trace.gz" 17)
    set_tests_properties(tracev1_truncate_vs_go PROPERTIES TIMEOUT 900)
  endif()
endif()

# Where Go's Event.String() panics (a cut old trace whose GoCreate names a stack it never
# defined; Go: "panic: expected id 9 in trace.stack table"), validate --log-events prints Go's
# dump up to that event, nothing of it, and fails with the panic's text.
gtr_cli_test(cli_tracev1_go_panic_is_an_error
  ARGS validate --log-events ${CMAKE_CURRENT_SOURCE_DIR}/data/v1-cut-go-panics.trace
  RC 1 ERR "^gotrace: expected id 9 in trace.stack table\n$"
  STDOUT_TO v1-cut-go-panics.out
  SAME_FILES v1-cut-go-panics.out ${CMAKE_CURRENT_SOURCE_DIR}/data/v1-cut-go-panics.go.txt)
