# Tests of the cli component, and of the golden-runner machinery it sits on (testgen's
# expect.c and fixture.c, owned with the CLI's check mode).
gtr_unit_test(NAME test_expect SOURCES test_expect.c LIBS gtr_testgen)
gtr_unit_test(NAME test_fixture SOURCES test_fixture.c sha256.c LIBS gtr_testgen)

# Go's slices.SortFunc order (libtrace's gtr/sort.h), under stats' gotraceeventstats table
# and the reader's order of CPU samples and of its frontier.
gtr_unit_test(NAME test_gosort SOURCES test_gosort.c LIBS gtr)

# Durations as Go's time.Duration.String prints them (cli/duration.c).
gtr_unit_test(NAME test_duration SOURCES test_duration.c ${CMAKE_SOURCE_DIR}/cli/duration.c LIBS "")
target_include_directories(test_duration PRIVATE ${CMAKE_SOURCE_DIR}/cli)

# Regular files read from a mapping (cli/mapped_file.c), and the clean exit when one is cut.
gtr_unit_test(NAME test_mapped_file SOURCES test_mapped_file.c ${CMAKE_SOURCE_DIR}/cli/mapped_file.c LIBS "")
target_include_directories(test_mapped_file PRIVATE ${CMAKE_SOURCE_DIR}/cli)

# The golden runner over Go's own fixtures: the acceptance test of the whole reader.
add_test(NAME golden_upstream
         COMMAND $<TARGET_FILE:gotrace> check ${CMAKE_SOURCE_DIR}/corpus/upstream)
# ... and over the fixtures our generators write (corpus/tests, regenerated and diffed in CI).
add_test(NAME golden_generated
         COMMAND $<TARGET_FILE:gotrace> check ${CMAKE_SOURCE_DIR}/corpus/tests)

# Exit statuses and messages of the command line. cli_run.cmake checks both.
set(_cli_dir ${CMAKE_CURRENT_BINARY_DIR}/cli)
file(MAKE_DIRECTORY ${_cli_dir})
# gtr_cli_test(NAME ARGS a b ... RC n [OUT regex] [ERR regex] [set-up and checks]): the keywords
# after RC are those of cli_run.cmake (see there); list values (ARGS, PRE_ARGS, SAME_AS,
# SAME_FILES, MKDIRS, ABSENT) are given as CMake lists. Relative paths are under the test
# directory, which all CLI tests share (they run in parallel): each test names its own files.
function(gtr_cli_test name)
  set(_one RC OUT ERR SETUP_FILE SETUP_TEXT SETUP_TRACE_OF SETUP_TRACE_TO SETUP_GZIP_OF
      SETUP_GZIP_TO STDIN STDIN_PIPE SAME_STDIN REMOVE CWD STDOUT_TO OUT_STARTS_WITH)
  set(_lists ARGS PRE_ARGS SAME_AS SAME_FILES MKDIRS ABSENT)
  cmake_parse_arguments(C "" "${_one}" "${_lists}" ${ARGN})
  string(REPLACE ";" "|" _args "${C_ARGS}")
  set(_defs -DCMD=$<TARGET_FILE:gotrace> "-DARGS=${_args}" -DWANT_RC=${C_RC}
            -DWORKDIR=${_cli_dir})
  foreach(k IN ITEMS OUT ERR)
    if(DEFINED C_${k})
      list(APPEND _defs "-DWANT_${k}=${C_${k}}")
    endif()
  endforeach()
  foreach(k IN ITEMS SETUP_FILE SETUP_TEXT SETUP_TRACE_OF SETUP_TRACE_TO SETUP_GZIP_OF
                     SETUP_GZIP_TO STDIN STDIN_PIPE SAME_STDIN REMOVE CWD STDOUT_TO
                     OUT_STARTS_WITH)
    if(DEFINED C_${k})
      list(APPEND _defs "-D${k}=${C_${k}}")
    endif()
  endforeach()
  foreach(k IN ITEMS PRE_ARGS SAME_AS SAME_FILES MKDIRS ABSENT)
    if(DEFINED C_${k})
      string(REPLACE ";" "|" _v "${C_${k}}")
      list(APPEND _defs "-D${k}=${_v}")
    endif()
  endforeach()
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} ${_defs} -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_run.cmake)
endfunction()

gtr_cli_test(cli_no_mode_is_usage_error RC 2 ERR "usage: gotrace <mode>")
gtr_cli_test(cli_unknown_mode_is_usage_error ARGS bogus RC 2 ERR "unknown mode bogus")
gtr_cli_test(cli_help_succeeds ARGS -h RC 0 OUT "modes:")
gtr_cli_test(cli_check_help_succeeds ARGS check -h RC 0 OUT "^usage: gotrace check")
# No fixture given means stdin, as in every mode (the README's rule).
gtr_cli_test(cli_check_no_args_reads_stdin ARGS check RC 0
             STDIN ${CMAKE_SOURCE_DIR}/corpus/upstream/go122-fail-first-gen-first.test
             OUT "^ok   -\n1 passed, 0 failed\n$")
gtr_cli_test(cli_check_unknown_flag_is_usage_error ARGS check --bogus RC 2
             ERR "unknown flag --bogus")
gtr_cli_test(cli_check_missing_file_fails ARGS check missing.test RC 1
             OUT "FAIL missing.test: failed to parse test file at missing.test: failed to read test file for missing.test: open missing.test: no such file or directory\n0 passed, 1 failed\n$")
gtr_cli_test(cli_check_single_fixture_passes
             ARGS check ${CMAKE_SOURCE_DIR}/corpus/upstream/go122-fail-first-gen-first.test RC 0
             OUT "^ok   [^\n]*go122-fail-first-gen-first.test\n1 passed, 0 failed\n$")
gtr_cli_test(cli_check_wrong_expectation_fails ARGS check wrong.test RC 1
             SETUP_FILE wrong.test
             SETUP_TEXT "-- expect --\nFAILURE \"x\"\n-- trace --\nTrace Go1.22\n"
             OUT "FAIL wrong.test: unexpected error while reading the trace: want something matching \"x\", got no frequency event found\n0 passed, 1 failed")
gtr_cli_test(cli_check_mixed_counts_both ARGS check mixed.test ${CMAKE_SOURCE_DIR}/corpus/upstream/go123-sync.test RC 1
             SETUP_FILE mixed.test SETUP_TEXT "-- expect --\nSUCCESS\n"
             OUT "FAIL mixed.test: failed to parse test file at mixed.test: malformed test mixed.test: wrong number of files\nok   [^\n]*go123-sync.test\n1 passed, 1 failed\n$")

# .test fixtures where a trace is expected (cli_load_input): validate, stats and raw text2bytes
# read a fixture's trace section as the wire bytes Go's testtrace.ParseFile makes of it, and
# behave exactly as on those wire bytes. The reference is built without the fixture route:
# cli_run.cmake cuts the trace section out of the fixture, `raw text2bytes` converts that text
# file, and the mode reads the result on stdin.
set(_up ${CMAKE_SOURCE_DIR}/corpus/upstream)
set(_ann ${_up}/go122-annotations.test)
gtr_cli_test(cli_validate_fixture_log_events_is_its_wire_trace
             ARGS validate --log-events ${_ann} RC 0
             OUT "^M=-1 P=-1 G=-1 Sync Time=[0-9]+ N=1\n"
             SETUP_TRACE_OF ${_ann} SETUP_TRACE_TO val-ann.txt
             PRE_ARGS raw text2bytes val-ann.txt val-ann.bin
             SAME_AS validate --log-events - SAME_STDIN val-ann.bin)
gtr_cli_test(cli_validate_fixture_is_its_wire_trace ARGS validate ${_ann} RC 0 OUT "^$"
             SETUP_TRACE_OF ${_ann} SETUP_TRACE_TO val2-ann.txt
             PRE_ARGS raw text2bytes val2-ann.txt val2-ann.bin
             SAME_AS validate val2-ann.bin)
gtr_cli_test(cli_validate_fixture_on_stdin_file_is_recognised
             ARGS validate --log-events - STDIN ${_ann} RC 0
             SAME_AS validate --log-events ${_ann})
gtr_cli_test(cli_validate_fixture_on_stdin_pipe_is_recognised
             ARGS validate --log-events STDIN_PIPE ${_ann} RC 0
             SAME_AS validate --log-events ${_ann})
gtr_cli_test(cli_validate_gzip_fixture_on_stdin_pipe_is_recognised
             ARGS validate --log-events STDIN_PIPE val-ann.test.gz RC 0
             SETUP_GZIP_OF ${_ann} SETUP_GZIP_TO val-ann.test.gz
             SAME_AS validate --log-events ${_ann})
gtr_cli_test(cli_validate_gzip_fixture_named_test_gz_is_recognised
             ARGS validate --log-events val2-ann.test.gz RC 0
             SETUP_GZIP_OF ${_ann} SETUP_GZIP_TO val2-ann.test.gz
             SAME_AS validate --log-events ${_ann})
# Under another name a fixture is recognised by its content (a comment may come first).
gtr_cli_test(cli_validate_fixture_by_content_under_another_name ARGS validate fixture.txt RC 1
             SETUP_FILE fixture.txt
             SETUP_TEXT "a comment\n-- expect --\nSUCCESS\n-- trace --\nTrace Go1.22\n"
             ERR "^gotrace: no frequency event found\n$")
# ... but a txtar that is not `expect` then `trace` is read as a trace, as before.
gtr_cli_test(cli_validate_other_txtar_on_stdin_is_a_trace ARGS validate - STDIN other.txtar RC 1
             SETUP_FILE other.txtar SETUP_TEXT "-- expect --\nSUCCESS\n-- tracex --\n"
             ERR "^gotrace: bad file format: not a Go execution trace[?]\n$")
# A fixture whose expectation is a failure: validate reports the reader's error.
gtr_cli_test(cli_validate_failing_fixture_reports_reader_error
             ARGS validate ${_up}/go122-fail-first-gen-first.test RC 1 OUT "^$"
             ERR "^gotrace: expected a proc but didn't have one\n$")
# A malformed fixture: Go's ParseFile message, exit 1.
gtr_cli_test(cli_validate_malformed_fixture_fails ARGS validate bad-files.test RC 1
             SETUP_FILE bad-files.test SETUP_TEXT "-- expect --\nSUCCESS\n"
             ERR "^gotrace: malformed test bad-files.test: wrong number of files\n$")
gtr_cli_test(cli_validate_malformed_fixture_on_stdin_fails ARGS validate STDIN_PIPE bad-trace.txt
             RC 1 SETUP_FILE bad-trace.txt
             SETUP_TEXT "-- expect --\nSUCCESS\n-- trace --\nTrace Go1.22\nBogus x=1\n"
             ERR "^gotrace: malformed test -: bad trace file: unidentified event: Bogus\n$")
gtr_cli_test(cli_validate_fixture_bad_filename_fails ARGS validate bad-name.test RC 1
             SETUP_FILE bad-name.test SETUP_TEXT "-- expect --\nSUCCESS\n-- traces --\n"
             ERR "^gotrace: malformed test bad-name.test: bad filename traces\n$")
gtr_cli_test(cli_validate_fixture_bad_expectation_fails ARGS validate bad-expect.test RC 1
             SETUP_FILE bad-expect.test SETUP_TEXT "-- expect --\nMAYBE\n-- trace --\nTrace Go1.22\n"
             ERR "^gotrace: internal error during bad-expect.test: failed to parse expectation \"MAYBE\\\\n\": ")
gtr_cli_test(cli_validate_missing_fixture_fails ARGS validate missing.test RC 1
             ERR "^gotrace: open missing.test: no such file or directory\n$")
# A missing input reads the same in every mode: Go's os.Open error, Go's errno text.
foreach(_m validate stats raw|bytes2text raw|text2bytes reduce)
  string(REPLACE "|" ";" _args "${_m}")
  string(REPLACE "|" "_" _name "${_m}")
  set(_ctx "")
  if(_m STREQUAL "reduce")
    set(_ctx "reduce: ")
  endif()
  gtr_cli_test(cli_${_name}_missing_file_says_go_errno_text ARGS ${_args} no-such-44 RC 1
               ERR "^gotrace: ${_ctx}open no-such-44: no such file or directory\n$")
endforeach()
gtr_cli_test(cli_check_missing_file_says_go_errno_text ARGS check no-such-44 RC 1
             OUT "^FAIL no-such-44: [^\n]*: open no-such-44: no such file or directory\n")
gtr_cli_test(cli_validate_help_mentions_fixtures ARGS validate -h RC 0 OUT "a .test fixture")

gtr_cli_test(cli_stats_fixture_is_its_wire_trace ARGS stats ${_ann} RC 0
             OUT "^Event +Bytes +% +Count +%\n.*\nbytes: [0-9]+\n"
             SETUP_TRACE_OF ${_ann} SETUP_TRACE_TO stats-ann.txt
             PRE_ARGS raw text2bytes stats-ann.txt stats-ann.bin
             SAME_AS stats - SAME_STDIN stats-ann.bin)
gtr_cli_test(cli_stats_fixture_on_stdin_pipe_is_recognised ARGS stats STDIN_PIPE ${_ann} RC 0
             SAME_AS stats ${_ann})
gtr_cli_test(cli_stats_malformed_fixture_fails ARGS stats bad-stats.test RC 1
             SETUP_FILE bad-stats.test SETUP_TEXT "-- expect --\nSUCCESS\n"
             ERR "^gotrace: malformed test bad-stats.test: wrong number of files\n$")
gtr_cli_test(cli_stats_help_mentions_fixtures ARGS stats -h RC 0 OUT "a .test fixture")

gtr_cli_test(cli_raw_text2bytes_fixture_converts_its_trace_section
             ARGS raw text2bytes ${_ann} raw-ann-fixture.bin RC 0
             SETUP_TRACE_OF ${_ann} SETUP_TRACE_TO raw-ann.txt
             PRE_ARGS raw text2bytes raw-ann.txt raw-ann.bin
             SAME_FILES raw-ann.bin raw-ann-fixture.bin)
gtr_cli_test(cli_raw_text2bytes_fixture_on_stdin_is_recognised
             ARGS raw text2bytes - raw2-ann-fixture.bin STDIN_PIPE ${_ann} RC 0
             SETUP_TRACE_OF ${_ann} SETUP_TRACE_TO raw2-ann.txt
             PRE_ARGS raw text2bytes raw2-ann.txt raw2-ann.bin
             SAME_FILES raw2-ann.bin raw2-ann-fixture.bin)
gtr_cli_test(cli_raw_text2bytes_malformed_fixture_fails ARGS raw text2bytes bad-raw.test RC 1
             SETUP_FILE bad-raw.test SETUP_TEXT "-- expect --\nSUCCESS\n"
             ERR "^gotrace: malformed test bad-raw.test: wrong number of files\n$")
gtr_cli_test(cli_raw_help_mentions_fixtures ARGS raw -h RC 0 OUT "a .test fixture")

# A wire trace on a pipe reads as it always did (the bytes looked at are replayed).
gtr_cli_test(cli_validate_gzip_trace_on_stdin_pipe_is_unchanged
             ARGS validate --log-events RC 0
             STDIN_PIPE ${CMAKE_SOURCE_DIR}/corpus/real/testprog-annotations.trace.gz
             SAME_AS validate --log-events ${CMAKE_SOURCE_DIR}/corpus/real/testprog-annotations.trace.gz)

# check: one fixture on stdin (named "-"), gzip-compressed fixtures, *.test.gz in a DIR.
set(_sync ${_up}/go123-sync.test)
gtr_cli_test(cli_check_stdin_passes ARGS check - STDIN_PIPE ${_sync} RC 0
             OUT "^ok   -\n1 passed, 0 failed\n$")
gtr_cli_test(cli_check_stdin_malformed_fails ARGS check - STDIN empty.txt RC 1
             SETUP_FILE empty.txt SETUP_TEXT ""
             OUT "^FAIL -: failed to parse test file at -: malformed test -: wrong number of files\n0 passed, 1 failed\n$")
gtr_cli_test(cli_check_gzip_stdin_passes ARGS check - STDIN_PIPE check-stdin.test.gz RC 0
             SETUP_GZIP_OF ${_sync} SETUP_GZIP_TO check-stdin.test.gz
             OUT "^ok   -\n1 passed, 0 failed\n$")
gtr_cli_test(cli_check_test_gz_passes ARGS check check-sync.test.gz RC 0
             SETUP_GZIP_OF ${_sync} SETUP_GZIP_TO check-sync.test.gz
             OUT "^ok   check-sync.test.gz\n1 passed, 0 failed\n$")
gtr_cli_test(cli_check_gzip_bytes_named_test_passes ARGS check check-gz.test RC 0
             SETUP_GZIP_OF ${_sync} SETUP_GZIP_TO check-gz.test
             OUT "^ok   check-gz.test\n1 passed, 0 failed\n$")
gtr_cli_test(cli_check_gzip_failing_expectation_fails ARGS check check-wrong.test.gz RC 1
             SETUP_FILE check-wrong.test
             SETUP_TEXT "-- expect --\nFAILURE \"x\"\n-- trace --\nTrace Go1.22\n"
             SETUP_GZIP_OF check-wrong.test SETUP_GZIP_TO check-wrong.test.gz
             OUT "^FAIL check-wrong.test.gz: unexpected error while reading the trace: want something matching \"x\", got no frequency event found\n0 passed, 1 failed\n$")
gtr_cli_test(cli_check_dir_includes_test_gz ARGS check check-dir RC 0
             SETUP_FILE check-dir/b.test
             SETUP_TEXT "-- expect --\nFAILURE \"no frequency event found\"\n-- trace --\nTrace Go1.22\n"
             SETUP_GZIP_OF ${_sync} SETUP_GZIP_TO check-dir/a.test.gz
             OUT "^ok   check-dir/a.test.gz\nok   check-dir/b.test\n2 passed, 0 failed\n$")
gtr_cli_test(cli_check_help_mentions_stdin_and_gzip ARGS check -h RC 0
             OUT "\"-\", or no argument, reads one fixture from stdin.*\\*\\.test\\.gz")

# --version / version, help [MODE]. The version's one source is gtr/version.h (test_version:
# macros, gtr_version() of the static and the shared library, PROJECT_VERSION agree).
foreach(_lib gtr gtr_shared)
  if(TARGET ${_lib})
    gtr_unit_test(NAME test_version_${_lib} SOURCES test_version.c LIBS ${_lib})
    target_compile_definitions(test_version_${_lib} PRIVATE
      GTR_PROJECT_VERSION="${PROJECT_VERSION}")
  endif()
endforeach()
gtr_cli_test(cli_version_flag_prints_versions ARGS --version RC 0
             OUT "^gotrace ${PROJECT_VERSION}\na port of internal/trace of Go 1\\.27\\.3\n$")
gtr_cli_test(cli_version_mode_prints_versions ARGS version RC 0
             OUT "^gotrace ${PROJECT_VERSION}\na port of internal/trace of Go 1\\.27\\.3\n$")
# GTR_STATIC_CLI (cmake/GtrStaticCli.cmake): when the configure step chose a static link, the
# gotrace under test names no shared library and no program interpreter.
find_program(GTR_READELF NAMES readelf)
if(GTR_STATIC_CLI_FLAG AND GTR_READELF)
  add_test(NAME cli_static_link_needs_no_shared_library
           COMMAND ${GTR_READELF} -d -l $<TARGET_FILE:gotrace>)
  set_tests_properties(cli_static_link_needs_no_shared_library PROPERTIES
                       PASS_REGULAR_EXPRESSION "Program Headers"
                       FAIL_REGULAR_EXPRESSION "\\(NEEDED\\)|INTERP")
endif()
gtr_cli_test(cli_version_with_args_is_usage_error ARGS version x RC 2 ERR "takes no arguments")
gtr_cli_test(cli_help_mode_prints_usage ARGS help RC 0 OUT "^usage: gotrace <mode>.*modes:")
gtr_cli_test(cli_help_mode_prints_mode_help ARGS help stats RC 0 OUT "^usage: gotrace stats"
             SAME_AS stats -h)
gtr_cli_test(cli_help_reduce_prints_reduce_help ARGS help reduce RC 0
             OUT "^usage: gotrace reduce" SAME_AS reduce -h)
gtr_cli_test(cli_help_unknown_mode_is_usage_error ARGS help bogus RC 2
             ERR "^gotrace: help: unknown mode bogus\nusage: gotrace <mode>")
gtr_cli_test(cli_help_two_modes_is_usage_error ARGS help check gen RC 2 ERR "at most one MODE")
# Help asked of help or version is printed: help's own is the top-level usage.
gtr_cli_test(cli_help_help_prints_usage ARGS help help RC 0 OUT "^usage: gotrace <mode>"
             SAME_AS help)
gtr_cli_test(cli_help_flag_of_help_prints_usage ARGS help -h RC 0 OUT "^usage: gotrace <mode>"
             SAME_AS help)
gtr_cli_test(cli_version_help_prints_version_usage ARGS version -h RC 0
             OUT "^usage: gotrace version [^\n]*\n\nPrints gotrace's version" ERR "^$")
gtr_cli_test(cli_version_flag_help_prints_version_usage ARGS --version --help RC 0
             SAME_AS version -h)
gtr_cli_test(cli_help_version_prints_version_usage ARGS help version RC 0 SAME_AS version -h)

# A usage text is printed as it stands: no printf escapes left in it.
gtr_cli_test(cli_stats_help_has_no_doubled_percent ARGS stats -h RC 0
             OUT "<% of the decompressed input>")
foreach(_mode raw validate stats check gen reduce)
  gtr_cli_test(cli_${_mode}_help_has_no_printf_escapes ARGS ${_mode} -h RC 0
               OUT "^[^%]*(%[^%][^%]*)*$")
endforeach()

# Every mode's -h lists every flag it accepts (reduce's are tested in reduce.cmake).
gtr_cli_test(cli_validate_help_lists_flags ARGS validate -h RC 0
             OUT "\n  --log-events  [^\n]*\n.*\n  --  [^\n]*\n  -h, --help ")
gtr_cli_test(cli_stats_help_lists_flags ARGS stats -h RC 0
             OUT "flags [^\n]*:\n  --progress  [^\n]*\n[^\n]*\n[^\n]*\n  --quiet  [^\n]*\n  --  [^\n]*\n  -h, --help ")
gtr_cli_test(cli_check_help_lists_flags ARGS check -h RC 0
             OUT "flags:\n  --  [^\n]*\n  -h, --help ")
gtr_cli_test(cli_raw_help_lists_flags ARGS raw -h RC 0
             OUT "flags [^\n]*:\n  --progress  [^\n]*\n[^\n]*\n[^\n]*\n  --quiet  [^\n]*\n  -h, --help ")
gtr_cli_test(cli_gen_help_lists_flags ARGS gen -h RC 0
             OUT "\n  --out DIR  [^\n]*\n[^\n]*--out=DIR\n  --list  [^\n]*\n[^\n]*--list=BOOL[^\n]*\n  -h, --help ")
# ... and accepts them as listed: one dash or two, a boolean's =BOOL as Go's ParseBool reads it.
gtr_cli_test(cli_validate_log_events_false_logs_nothing
             ARGS validate -log-events=false ${_sync} RC 0 OUT "^$")
gtr_cli_test(cli_validate_log_events_one_dash_logs
             ARGS validate -log-events=1 ${_sync} RC 0 SAME_AS validate --log-events ${_sync})
gtr_cli_test(cli_validate_double_dash_ends_flags ARGS validate -- -h RC 1
             ERR "^gotrace: open -h: ")
gtr_cli_test(cli_stats_double_dash_ends_flags ARGS stats -- -h RC 1 ERR "^gotrace: open -h: ")
gtr_cli_test(cli_check_double_dash_ends_flags ARGS check -- -h RC 1 OUT "^FAIL -h: ")
gtr_cli_test(cli_gen_list_one_dash_lists ARGS gen -list=t syscall-steal-proc-simple RC 0
             OUT "^go122-syscall-steal-proc-simple\tgo1\\.22\ngo122-syscall-steal-proc-simple-bare-m\tgo1\\.22\n$")

# Bad flag values are usage errors (exit 2) that say what is wrong.
gtr_cli_test(cli_gen_out_without_value_is_usage_error ARGS gen --out RC 2
             ERR "^gotrace: gen: flag needs an argument: --out\nusage: gotrace gen")
gtr_cli_test(cli_gen_out_empty_is_usage_error ARGS gen --out= RC 2
             ERR "^gotrace: gen: invalid value \"\" for flag --out: empty directory name\nusage: gotrace gen")
gtr_cli_test(cli_gen_list_bad_bool_is_usage_error ARGS gen --list=maybe RC 2
             ERR "^gotrace: gen: invalid boolean value \"maybe\" for --list: parse error\nusage: gotrace gen")
gtr_cli_test(cli_gen_unknown_flag_is_usage_error ARGS gen --bogus RC 2
             ERR "^gotrace: gen: unknown flag --bogus\nusage: gotrace gen")
gtr_cli_test(cli_gen_bad_regexp_is_usage_error ARGS gen "a(" RC 2
             ERR "^gotrace: gen: bad NAME-REGEXP a\\(: ")
gtr_cli_test(cli_validate_log_events_bad_bool_is_usage_error ARGS validate --log-events=yes RC 2
             ERR "^gotrace: validate: invalid boolean value \"yes\" for --log-events: parse error\nusage: gotrace validate")
gtr_cli_test(cli_raw_too_many_arguments_is_usage_error ARGS raw text2bytes a b c RC 2
             ERR "^gotrace: raw: too many arguments\nusage: gotrace raw")

# gen without --out: the corpus/tests of the repository the current directory is in (here a
# stand-in repository, from two levels below its root); outside a repository a usage error.
set(_bare go122-syscall-steal-proc-simple-bare-m)
gtr_cli_test(cli_gen_default_out_is_the_repository_corpus ARGS gen "${_bare}$" RC 0
             REMOVE gen-repo MKDIRS gen-repo/corpus/tests gen-repo/testgen/generators
             CWD gen-repo/x/y
             SAME_FILES gen-repo/corpus/tests/${_bare}.test ${CMAKE_SOURCE_DIR}/corpus/tests/${_bare}.test)
gtr_cli_test(cli_gen_outside_the_repository_needs_out ARGS gen ${_bare} RC 2 CWD /
             ERR "^gotrace: gen: --out DIR is needed outside the gotrace repository [^\n]*\nusage: gotrace gen")
gtr_cli_test(cli_gen_list_outside_the_repository_needs_no_out ARGS gen --list ${_bare} RC 0 CWD /
             OUT "^${_bare}\tgo1\\.22\n$")
# --out creates every missing level.
gtr_cli_test(cli_gen_out_creates_every_level ARGS gen --out gen-deep/a/b/c ${_bare} RC 0
             REMOVE gen-deep
             SAME_FILES gen-deep/a/b/c/${_bare}.test ${CMAKE_SOURCE_DIR}/corpus/tests/${_bare}.test)
gtr_cli_test(cli_gen_out_under_a_file_fails ARGS gen --out gen-file/f/x ${_bare} RC 1
             SETUP_FILE gen-file/f SETUP_TEXT "not a directory\n"
             ERR "^gotrace: creating gen-file/f: not a directory\n$")

# Write errors read the same in every mode: "gotrace: writing OUTPUT: <strerror>", exit 1.
set(_real ${CMAKE_SOURCE_DIR}/corpus/real/testprog-annotations.trace.gz)
set(_full "^gotrace: writing /dev/full: no space left on device\n$")
set(_full_stdout "^gotrace: writing stdout: no space left on device\n$")
gtr_cli_test(cli_raw_bytes2text_write_error ARGS raw bytes2text ${_real} /dev/full RC 1
             ERR "${_full}")
gtr_cli_test(cli_raw_text2bytes_write_error ARGS raw text2bytes wr-ann.txt /dev/full RC 1
             SETUP_TRACE_OF ${_ann} SETUP_TRACE_TO wr-ann.txt ERR "${_full}")
gtr_cli_test(cli_raw_bytes2text_stdout_write_error ARGS raw bytes2text ${_real} RC 1
             STDOUT_TO /dev/full ERR "${_full_stdout}")
gtr_cli_test(cli_validate_stdout_write_error ARGS validate --log-events ${_real} RC 1
             STDOUT_TO /dev/full ERR "${_full_stdout}")
gtr_cli_test(cli_stats_stdout_write_error ARGS stats ${_real} RC 1
             STDOUT_TO /dev/full ERR "${_full_stdout}")
gtr_cli_test(cli_check_stdout_write_error ARGS check ${_sync} RC 1
             STDOUT_TO /dev/full ERR "${_full_stdout}")
gtr_cli_test(cli_gen_list_stdout_write_error ARGS gen --list RC 1
             STDOUT_TO /dev/full ERR "${_full_stdout}")
gtr_cli_test(cli_version_stdout_write_error ARGS --version RC 1
             STDOUT_TO /dev/full ERR "${_full_stdout}")
# Help is output too: to a full disk it fails as any write does.
foreach(_mode raw validate stats check gen reduce sim)
  gtr_cli_test(cli_${_mode}_help_write_error ARGS ${_mode} -h RC 1
               STDOUT_TO /dev/full ERR "${_full_stdout}")
endforeach()
foreach(_t IN ITEMS "flag|-h" "mode|help" "of_a_mode|help|check" "of_help|help|help"
                    "of_version|version|-h")
  string(REPLACE "|" ";" _t "${_t}")
  list(POP_FRONT _t _name)
  gtr_cli_test(cli_help_${_name}_write_error ARGS ${_t} RC 1
               STDOUT_TO /dev/full ERR "${_full_stdout}")
endforeach()

# A trace in the text format where the wire format is wanted: Go's message, then a hint.
set(_hint "^gotrace: bad file format: not a Go execution trace[?]\ngotrace: [(]this is a trace in the text format: convert it with gotrace raw text2bytes[)]\n$")
gtr_cli_test(cli_validate_text_trace_gets_hint ARGS validate hint-ann.txt RC 1 OUT "^$"
             SETUP_TRACE_OF ${_ann} SETUP_TRACE_TO hint-ann.txt ERR "${_hint}")
gtr_cli_test(cli_validate_text_trace_on_stdin_pipe_gets_hint ARGS validate --log-events RC 1
             STDIN_PIPE hint2-ann.txt SETUP_TRACE_OF ${_ann} SETUP_TRACE_TO hint2-ann.txt
             OUT "^$" ERR "${_hint}")
gtr_cli_test(cli_stats_text_trace_gets_hint ARGS stats hint3-ann.txt RC 1 OUT "^$"
             SETUP_TRACE_OF ${_ann} SETUP_TRACE_TO hint3-ann.txt ERR "${_hint}")
gtr_cli_test(cli_validate_other_bytes_get_no_hint ARGS validate hint-other.txt RC 1
             SETUP_FILE hint-other.txt SETUP_TEXT "Trace go1.22\n"
             ERR "^gotrace: bad file format: not a Go execution trace[?]\n$")

# The man page gotrace(1) (man/): generated from man/gotrace.1.in and `gotrace help [MODE]`;
# clean under groff -ww, within 80 columns at 80 columns, with its sections (EXIT STATUS,
# ENVIRONMENT naming every getenv of the sources, EXAMPLES, ...) and every mode's help
# (man_check.cmake). groff-base is in setup.sh; man(1), when there, renders it too.
find_program(GTR_GROFF groff)
find_program(GTR_MAN man)
if(TARGET gotrace_man AND GTR_GROFF)
  add_test(NAME cli_man_page_has_every_mode
           COMMAND ${CMAKE_COMMAND} -DGOTRACE=$<TARGET_FILE:gotrace>
                   -DMAN=${CMAKE_BINARY_DIR}/man/gotrace.1 -DGROFF=${GTR_GROFF}
                   -DSOURCE_DIR=${CMAKE_SOURCE_DIR} "-DMANCMD=${GTR_MAN}"
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/man_check.cmake)
elseif(TARGET gotrace_man)
  message(STATUS "groff not found: cli_man_page_has_every_mode is not run (bash ci/setup.sh)")
endif()

# The README's table of modes names every flag, its Layout every public header, and it gives
# the main job's build the time ci/main-job.sh gives (readme_check.cmake).
add_test(NAME cli_readme_is_true
         COMMAND ${CMAKE_COMMAND} -DGOTRACE=$<TARGET_FILE:gotrace> -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/readme_check.cmake)

# stats: Go's gotraceeventstats table, every one of the 256 rows (zero rows included, the
# empty name of an unused type number, "<unknown (N)>" past the version's table), rows of
# equal bytes in the order of Go's slices.SortFunc; the duration as Go's time.Duration prints
# it.
set(_ann_real ${CMAKE_SOURCE_DIR}/corpus/real/testprog-annotations.trace.gz)
# tests/data/gotraceeventstats-*.txt are Go's own output: gotraceeventstats' last main.go
# (golang/go, src/internal/trace/testdata/cmd/gotraceeventstats, "size" mode) built against
# Go 1.27.3's internal/trace/raw (its package renamed tracev2), run on the gunzipped trace.
foreach(_t testprog-annotations go1.22-testprog-gc-stress)
  gtr_cli_test(cli_stats_table_is_gotraceeventstats_${_t}
               ARGS stats ${CMAKE_SOURCE_DIR}/corpus/real/${_t}.trace.gz RC 0
               OUT_STARTS_WITH ${CMAKE_CURRENT_SOURCE_DIR}/data/gotraceeventstats-${_t}.txt
               OUT "0\\.00%\n\nbytes: [0-9]+\n")
endforeach()
gtr_cli_test(cli_stats_duration_has_units ARGS stats ${_ann_real} RC 0
             OUT "\nduration: 317\\.185µs\n$")
gtr_cli_test(cli_stats_help_says_tie_order ARGS stats -h RC 0
             OUT "zero rows included.*not stable.*a port of it, so the table is Go's line for line")

# Progress on stderr (cli/progress.c): shown by default only when stderr is a terminal (under
# ctest it is a pipe: nothing); --progress forces it (the last line, with the totals, ends in
# ", done", or ", stopped" before the error); --quiet silences it; the last flag wins. The
# percentage of a gzip file comes from its trailer's size (100% at the end).
set(_stress ${CMAKE_SOURCE_DIR}/corpus/real/testprog-gc-stress.trace.gz)
gtr_cli_test(cli_validate_progress_forced_to_a_pipe ARGS validate --progress ${_stress} RC 0
             ERR "gotrace validate: [0-9.]+ [kMG]?B read \\(100%\\), [0-9.]+[kMG]? events, [0-9.]+[kMG]? events/s, done\n$")
gtr_cli_test(cli_validate_no_progress_when_stderr_is_not_a_terminal ARGS validate ${_stress}
             RC 0 ERR "^$")
gtr_cli_test(cli_validate_quiet_silences_progress ARGS validate --progress --quiet ${_stress}
             RC 0 ERR "^$")
gtr_cli_test(cli_validate_progress_after_quiet_wins ARGS validate -quiet -progress ${_stress}
             RC 0 ERR ", done\n$")
gtr_cli_test(cli_validate_progress_false_is_off ARGS validate --progress=false ${_stress}
             RC 0 ERR "^$")
gtr_cli_test(cli_validate_progress_bad_value_is_usage_error ARGS validate --progress=maybe
             RC 2 ERR "^gotrace: validate: invalid boolean value \"maybe\" for --progress: parse error\n")
gtr_cli_test(cli_validate_progress_stops_before_the_error
             ARGS validate --progress ${_up}/go122-fail-first-gen-first.test RC 1
             ERR "^gotrace validate: [^\n]*, stopped\ngotrace: expected a proc but didn't have one\n$")
gtr_cli_test(cli_stats_progress_shows_both_passes ARGS stats --progress ${_stress} RC 0
             ERR "gotrace stats \\(raw events\\): [^\n]* read \\(100%\\), [^\n]*, done\n(gotrace stats \\(reader\\): [^\n]*\n)*gotrace stats \\(reader\\): [^\n]* read \\(100%\\), [^\n]*, done\n$")
gtr_cli_test(cli_stats_quiet_silences_progress ARGS stats --quiet ${_stress} RC 0 ERR "^$")
gtr_cli_test(cli_raw_text2bytes_progress_has_percentage
             ARGS raw text2bytes --progress prog.txt prog.bin RC 0
             PRE_ARGS raw bytes2text ${_stress} prog.txt
             ERR "gotrace raw text2bytes: [^\n]* read \\(100%\\), [^\n]*, done\n$")
gtr_cli_test(cli_raw_bytes2text_progress_to_stdout_pipe ARGS raw bytes2text ${_stress} --progress
             RC 0 ERR "gotrace raw bytes2text: [^\n]*, done\n$")
gtr_cli_test(cli_raw_quiet_silences_progress ARGS raw bytes2text --quiet ${_stress} RC 0
             ERR "^$")
# On a terminal (script(1) gives gotrace a pseudo-terminal), without flags: the line is drawn
# in place ("\r...\e[K") and erased at the end ("\r\e[K"); --quiet draws nothing there.
find_program(GTR_SCRIPT script)
if(GTR_SCRIPT)
  set(_big ${CMAKE_SOURCE_DIR}/corpus/real/testprog-stress.trace.gz)
  foreach(_t IN ITEMS "on_a_terminal_draws_in_place|validate|\rgotrace validate: [^\n]* events/s.\\[K.*\r.\\[K$"
                      "quiet_on_a_terminal_draws_nothing|validate --quiet|^$")
    string(REPLACE "|" ";" _t "${_t}")
    list(GET _t 0 _name)
    list(GET _t 1 _cmd)
    list(GET _t 2 _want)
    add_test(NAME cli_progress_${_name}
             COMMAND ${CMAKE_COMMAND} -DCMD=${GTR_SCRIPT}
                     "-DARGS=-qec|$<TARGET_FILE:gotrace> ${_cmd} ${_big}|/dev/null"
                     -DWANT_RC=0 "-DWANT_OUT=${_want}" -DWORKDIR=${_cli_dir}
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_run.cmake)
  endforeach()
endif()
# raw -h (and so gotrace(1)) points to the text format's grammar, which exists.
gtr_cli_test(cli_raw_help_points_to_text_format_grammar ARGS raw -h RC 0
             OUT "grammar, with the error of\nevery rule, is doc/text-format\\.md")
if(NOT EXISTS ${CMAKE_SOURCE_DIR}/doc/text-format.md)
  message(FATAL_ERROR "doc/text-format.md, which gotrace raw -h names, is missing")
endif()

# Traces that make Go 1.27.3 panic (corpus/go-panics/README.md): gotrace reports an error.
gtr_cli_test(cli_validate_go_panic_proc_status_is_an_error
             ARGS validate ${CMAKE_SOURCE_DIR}/corpus/go-panics/go122-proc-status-out-of-range.test
             RC 1 ERR "^gotrace: runtime error: index out of range \\[2097152\\] with length 5\n$")
gtr_cli_test(cli_validate_go_panic_cpu_sample_stack_is_an_error
             ARGS validate --log-events
                  ${CMAKE_SOURCE_DIR}/corpus/go-panics/go122-cpu-sample-unknown-stack.test
             RC 1 OUT "GoID=1 Undetermined->Running Reason=\"\"\n$"
             ERR "^gotrace: expected id 9 in trace.stack table\n$")
gtr_cli_test(cli_validate_go_panic_v1_undefined_stack_is_an_error
             ARGS validate --log-events
                  ${CMAKE_SOURCE_DIR}/corpus/go-panics/go121-v1-gocreate-undefined-stack.trace
             RC 1 OUT "^M=-1 P=-1 G=-1 Sync Time=-1 N=1\n$"
             ERR "^gotrace: expected id 11 in trace.stack table\n$")
gtr_cli_test(cli_validate_go_panic_v1_frame_string_is_an_error
             ARGS validate --log-events
                  ${CMAKE_SOURCE_DIR}/corpus/go-panics/go119-v1-stack-frame-undefined-string.trace
             RC 1 OUT "GoID=19 Running->Waiting Reason=\"sync\"\n$"
             ERR "^gotrace: expected id 1809 in string table\n$")
gtr_cli_test(cli_validate_go_panic_v1_frame_string_validator
             ARGS validate ${CMAKE_SOURCE_DIR}/corpus/go-panics/go119-v1-stack-frame-undefined-string.trace
             RC 1 ERR "^gotrace: expected id 1809 in string table\n$")

# validate --explain: Go's message unchanged, then why the trace is stuck; nothing more
# without the flag, and nothing for a trace that fails otherwise or reads.
set(_stuck ${CMAKE_CURRENT_SOURCE_DIR}/data/stuck-go-start-seq.test)
gtr_cli_test(cli_validate_explain_says_why_stuck ARGS validate --explain ${_stuck} RC 1
             ERR "^gotrace: broken trace: failed to advance: frontier:\n\\[gen=1\\]\n\nM 1 \\[GoStart time=384 g=1 g_seq=3\\].*\ngotrace: why the trace is stuck in generation 1: 1 thread, none of whose next events can happen yet:\n  M 1's GoStart g=1 g_seq=3 \\(time 384\\) waits for goroutine 1 at sequence 2 of generation 1; the goroutine is at sequence 0 \\(its last event: GoStop on M 0 at time 192, generation 1\\)\\. The events with sequences 1-2 are missing: was a batch lost\\?\n$")
gtr_cli_test(cli_validate_without_explain_is_go_message ARGS validate ${_stuck} RC 1
             ERR "^gotrace: broken trace: failed to advance: frontier:\n\\[gen=1\\]\n\nM 1 \\[GoStart time=384 g=1 g_seq=3\\]\n\nG 1 [^\n]*\n\nP 0 [^\n]*\nP 1 [^\n]*\n\nM 0 [^\n]*\nM 1 [^\n]*\n\nGC 0 Undetermined\n\n\n$")
gtr_cli_test(cli_validate_explain_other_failure_adds_nothing
             ARGS validate --explain ${CMAKE_SOURCE_DIR}/corpus/upstream/go122-fail-first-gen-first.test
             RC 1 ERR "^gotrace: expected a proc but didn't have one\n$")
gtr_cli_test(cli_validate_explain_bad_value ARGS validate --explain=maybe ${_stuck} RC 2
             ERR "invalid boolean value \"maybe\" for --explain: parse error")

# Text lines as Go's bufio.Scanner reads them: 65,535 bytes are a line, 65,536 are "too long"
# (a comment line too: the scanner fails before the text reader sees it).
string(REPEAT "x" 65534 _x65534)
gtr_cli_test(cli_raw_text2bytes_line_under_64k_is_read ARGS raw text2bytes line-64k-1.txt RC 0
             OUT "^go 1.22 trace" SETUP_FILE line-64k-1.txt SETUP_TEXT "Trace Go1.22\n#${_x65534}\n")
gtr_cli_test(cli_raw_text2bytes_line_of_64k_fails_as_go ARGS raw text2bytes line-64k.txt RC 1
             ERR "^gotrace: bufio.Scanner: token too long\n$"
             SETUP_FILE line-64k.txt SETUP_TEXT "Trace Go1.22\n#${_x65534}x\n")

# A mapped file cut by another process while validate reads it, at offsets that are not
# page-aligned (the rest of the cut's last page reads as zeros, no SIGBUS): always the
# documented message, never what the reader makes of the zeros. Traces from `gotrace sim`.
if(TARGET gtr_sim)
  add_test(NAME cli_validate_file_cut_while_read_says_truncated
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/truncate_during_validate.sh
                   $<TARGET_FILE:gotrace> ${CMAKE_CURRENT_BINARY_DIR}/cli-truncate 13)
  set_tests_properties(cli_validate_file_cut_while_read_says_truncated PROPERTIES TIMEOUT 300)
endif()

# Hostile input in every mode (/dev/zero, a gzip bomb, 1 GiB sparse files, bad headers before
# endless data; by path and on stdin): exit status 1 and a clear message within 20 s, under a
# 512 MiB address-space limit (not for sanitizer builds). The script makes its own inputs.
add_test(NAME cli_hostile_input_is_bounded
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/hostile_input.sh $<TARGET_FILE:gotrace>
                 ${CMAKE_CURRENT_BINARY_DIR}/cli-hostile)
set_tests_properties(cli_hostile_input_is_bounded PROPERTIES TIMEOUT 1200)

# reduce's progress: with --progress (stderr not a terminal), a line per refresh and a last
# one ending ", done", in the whole job's candidates; --quiet shows none.
gtr_cli_test(cli_reduce_progress_shows_where_it_stands
             ARGS reduce --progress ${_stuck} -o reduce-progress.test RC 0
             ERR "gotrace reduce: [0-9]+ bytes, [0-9]+ events, [0-9]+ candidates, [0-9]+ s\n(.*\n)*gotrace reduce: [0-9]+ bytes, 3 events, [0-9]+ candidates, [0-9]+ s, done\ngotrace: reduce: kept the input's reader error: broken trace: failed to advance: frontier:\ngotrace: reduce: the trace was built from the input's diagnosis")
gtr_cli_test(cli_reduce_quiet_shows_no_progress
             ARGS reduce --quiet ${_stuck} -o reduce-quiet.test RC 0
             ERR "^gotrace: reduce: kept the input's reader error: broken trace: failed to advance: frontier:\n")
gtr_cli_test(cli_reduce_no_synthesis_reduces_its_own_events
             ARGS reduce --quiet --no-synthesis ${_stuck} -o reduce-nosynth.test RC 0
             ERR "^gotrace: reduce: kept the input's reader error: broken trace: failed to advance: frontier:\ngotrace: reduce: [^\n]*reduce-nosynth.test: [0-9]+ bytes")
gtr_cli_test(cli_reduce_progress_bad_value ARGS reduce --progress=maybe ${_stuck} RC 2
             ERR "invalid boolean value \"maybe\" for --progress: parse error")
