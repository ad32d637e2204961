# Tests of the fuzz component: every fuzz target replays its seed corpus
# (corpus/fuzz/<target>/) and every regression input (fuzz/regressions/, all targets) with
# the engine-free regression driver; CI runs them under ASan+UBSan (GTR_SANITIZE).
foreach(t reader raw_roundtrip text txtar_check testgen)
  add_test(NAME fuzz_replay_${t}
    COMMAND fuzz_${t}_replay ${CMAKE_SOURCE_DIR}/corpus/fuzz/${t} ${CMAKE_SOURCE_DIR}/fuzz/regressions)
  set_tests_properties(fuzz_replay_${t} PROPERTIES LABELS fuzz TIMEOUT 120)
endforeach()

# The sweep: every target's replay driver over every real trace (as it is, gunzipped, in the
# text format) and every fixture (as wire bytes, as text, as the .test file), not only over its
# own seeds: a target whose oracle fails on a real trace raises a false alarm a fuzzer would
# file as a crash. fuzz_sweep_inputs gathers them (fuzz/tools/sweep_inputs.sh) once.
if(TARGET gotrace)
  add_test(NAME fuzz_sweep_inputs
    COMMAND bash ${CMAKE_SOURCE_DIR}/fuzz/tools/sweep_inputs.sh $<TARGET_FILE:gotrace>
      ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/fuzz-sweep)
  set_tests_properties(fuzz_sweep_inputs PROPERTIES LABELS fuzz FIXTURES_SETUP fuzz_sweep)
  set(_sweep_targets reader raw_roundtrip text txtar_check testgen)
  if(TARGET gtr_sim)
    list(APPEND _sweep_targets sim)
  endif()
  foreach(t IN LISTS _sweep_targets)
    add_test(NAME fuzz_sweep_${t} COMMAND fuzz_${t}_replay ${CMAKE_BINARY_DIR}/fuzz-sweep)
    set_tests_properties(fuzz_sweep_${t} PROPERTIES LABELS fuzz TIMEOUT 300
                         FIXTURES_REQUIRED fuzz_sweep)
  endforeach()
endif()

# The committed Go crashers in fuzz/regressions/reader/go-* are exactly what the converter
# makes of Go's testdata/fuzz/FuzzReader files (when that source tree is present).
set(GTR_GO_FUZZREADER_DIR
  "/root/.cache/gotrace-oracle/unpacked/usr/lib/go-1.27/src/internal/trace/testdata/fuzz/FuzzReader"
  CACHE PATH "Go's internal/trace FuzzReader corpus (go test fuzz v1 files)")
if(EXISTS "${GTR_GO_FUZZREADER_DIR}")
  add_test(NAME fuzz_gofuzz2bin_matches_regressions
    COMMAND ${CMAKE_COMMAND} -DCONVERTER=$<TARGET_FILE:gtr_gofuzz2bin>
      -DGO_DIR=${GTR_GO_FUZZREADER_DIR} -DREG_DIR=${CMAKE_SOURCE_DIR}/fuzz/regressions/reader
      -DWORK=${CMAKE_BINARY_DIR}/fuzz-gofuzz2bin -P ${CMAKE_SOURCE_DIR}/fuzz/tools/check_gofuzz.cmake)
  set_tests_properties(fuzz_gofuzz2bin_matches_regressions PROPERTIES LABELS fuzz)
endif()

# The generated dictionaries are well-formed libFuzzer/AFL dictionaries with the entries
# the parser needs (headers, LEB128 of MaxBatchSize, event names).
add_test(NAME fuzz_dicts_well_formed
  COMMAND ${CMAKE_COMMAND} -DBIN=${CMAKE_BINARY_DIR}/bin -P ${CMAKE_SOURCE_DIR}/fuzz/tools/check_dicts.cmake)
set_tests_properties(fuzz_dicts_well_formed PROPERTIES LABELS fuzz)

# Every canary's patch (fuzz/canary/patches/) still applies exactly to this tree: a change
# around a planted bug fails here, not only in CI's canary witnesses.
find_program(GTR_PATCH_PROGRAM patch)
if(GTR_PATCH_PROGRAM)
  add_test(NAME fuzz_canary_patches_apply
    COMMAND bash ${CMAKE_SOURCE_DIR}/fuzz/canary/tree.sh --check)
  set_tests_properties(fuzz_canary_patches_apply PROPERTIES LABELS fuzz)
endif()

# The earlier Go releases' patches (fuzz/releases/, and the old formats' order patches) still
# apply to their trees, when ci/go-releases-bench.sh has fetched them (~/.cache/gotrace-gorel
# or $GTR_GOREL_CACHE); skipped when none is cached, as in CI.
if(GTR_PATCH_PROGRAM)
  add_test(NAME fuzz_go_releases_patches_apply
    COMMAND bash ${CMAKE_SOURCE_DIR}/ci/go-releases-bench.sh --check-patches)
  set_tests_properties(fuzz_go_releases_patches_apply PROPERTIES LABELS fuzz SKIP_RETURN_CODE 77)
endif()

# --classify on a measurement where no seed diverged and no run found anything (as every
# --old run so far) prints nothing and succeeds: an empty seeds-diverging/ once ended it with
# status 1 under set -e.
add_test(NAME fuzz_go_releases_classify_nothing_found
  COMMAND bash -c "d=$(mktemp -d) && mkdir -p $d/go1.24-old/seeds-diverging $d/go1.24-old/run-1 && out=$(bash '${CMAKE_SOURCE_DIR}/ci/go-releases-bench.sh' --classify --old --releases 1.24 --out $d); rc=$?; rm -rf $d; [ $rc -eq 0 ] && [ -z \"$out\" ]")
set_tests_properties(fuzz_go_releases_classify_nothing_found PROPERTIES LABELS fuzz)

# fuzz_diff's verdict (godiff/godiff_compare.c): Go's map-order messages normalised as
# ci/difffuzz/judge.sh does, the first differing line, the report. Needs no Go archive.
gtr_unit_test(NAME test_diff_compare SOURCES test_diff_compare.c LIBS gtr_godiff)
set_tests_properties(test_diff_compare PROPERTIES LABELS fuzz)
# Go's reader loaded at run time (godiff_go_library.c, for reduce --diff): its errors always;
# its readings when ci/go-diff-archive.sh --shared had built the library when this build was
# configured (not under MemorySanitizer: Go's runtime is not instrumented).
gtr_unit_test(NAME test_godiff_library SOURCES test_godiff_library.c LIBS gtr_godiff)
set_tests_properties(test_godiff_library PROPERTIES LABELS fuzz TIMEOUT 300)
add_library(fake_go_reader MODULE fake_go_reader.c)
set_target_properties(fake_go_reader PROPERTIES C_VISIBILITY_PRESET default)
add_dependencies(test_godiff_library fake_go_reader)
target_compile_definitions(test_godiff_library PRIVATE
  GTR_FAKE_GO_READER="$<TARGET_FILE:fake_go_reader>")
if(EXISTS "${GTR_GO_DIFF_CACHE}/gtrdiff/libgtrdiff.so" AND NOT "memory" IN_LIST GTR_SANITIZE)
  target_compile_definitions(test_godiff_library PRIVATE
    GTR_TEST_GO_LIBRARY="${GTR_GO_DIFF_CACHE}/gtrdiff/libgtrdiff.so")
endif()
