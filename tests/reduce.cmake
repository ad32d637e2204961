# The trace-editing model, the golden judgment and the reducer.
gtr_unit_test(NAME test_tracedit SOURCES test_tracedit.c LIBS gtr_tracedit gtr_testgen)
gtr_unit_test(NAME test_judge SOURCES test_judge.c LIBS gtr_testgen gtr_reduce)
gtr_unit_test(NAME test_reduce SOURCES test_reduce.c LIBS gtr_reduce)
target_include_directories(test_reduce PRIVATE ${CMAKE_SOURCE_DIR}/reduce)   # engine.h, fdio.h
# reduce --diff: the divergence signature, and reductions against a stand-in for Go's reader.
gtr_unit_test(NAME test_reduce_diff SOURCES test_reduce_diff.c LIBS gtr_reduce)
add_dependencies(test_reduce gotrace)   # runs `gotrace reduce` and `gotrace check`

# `gotrace reduce`: flags and bad input (exit statuses and messages).
set(_up ${CMAKE_SOURCE_DIR}/corpus/upstream)
gtr_cli_test(cli_reduce_help_lists_every_flag ARGS reduce -h RC 0
             OUT "--expect REGEXP.*--out OUT.*-o OUT.*--timeout SECONDS.*--budget SECONDS.*--oracle PATH.*--no-oracle.*--diff.*--go-reader in-process\\|oracle")
# No INPUT means stdin, as '-' does (the README's rule): the same fixture as from the file.
gtr_cli_test(cli_reduce_no_input_reads_stdin ARGS reduce --no-oracle -o reduce-stdin.test RC 0
             STDIN ${_up}/go122-create-syscall-with-p.test
             PRE_ARGS reduce --no-oracle ${_up}/go122-create-syscall-with-p.test -o reduce-stdin-ref.test
             ERR "reduce: -: 104 bytes" SAME_FILES reduce-stdin.test reduce-stdin-ref.test)
gtr_cli_test(cli_reduce_dash_reads_stdin ARGS reduce --no-oracle - -o reduce-dash.test RC 0
             STDIN_PIPE ${_up}/go122-create-syscall-with-p.test
             PRE_ARGS reduce --no-oracle ${_up}/go122-create-syscall-with-p.test -o reduce-dash-ref.test
             SAME_FILES reduce-dash.test reduce-dash-ref.test)
gtr_cli_test(cli_reduce_timeout_not_a_number_is_usage_error
             ARGS reduce --timeout abc x.trace RC 2
             ERR "reduce: --timeout abc: want a whole number of seconds from 1 to 86400")
gtr_cli_test(cli_reduce_timeout_zero_is_usage_error ARGS reduce --timeout=0 x.trace RC 2
             ERR "reduce: --timeout 0: want a whole number")
gtr_cli_test(cli_reduce_expect_without_value_is_usage_error ARGS reduce x.trace --expect RC 2
             ERR "reduce: flag needs an argument: --expect")
gtr_cli_test(cli_reduce_unknown_flag_is_usage_error ARGS reduce --bogus x.trace RC 2
             ERR "reduce: unknown flag --bogus")
gtr_cli_test(cli_reduce_two_inputs_is_usage_error ARGS reduce a.trace b.trace RC 2
             ERR "reduce: more than one input")
gtr_cli_test(cli_reduce_directory_fails ARGS reduce ${CMAKE_SOURCE_DIR}/corpus RC 1
             ERR "^gotrace: reduce: read [^\n]*corpus: is a directory\n$")
gtr_cli_test(cli_reduce_missing_file_fails ARGS reduce no-such-file.trace RC 1
             ERR "^gotrace: reduce: open no-such-file.trace: no such file or directory\n$")
gtr_cli_test(cli_reduce_empty_file_fails ARGS reduce reduce-empty.trace RC 1
             SETUP_FILE reduce-empty.trace SETUP_TEXT ""
             ERR "reduce-empty.trace: no trace to reduce: bad file format: not a Go execution trace\\?")
gtr_cli_test(cli_reduce_non_trace_fails ARGS reduce reduce-nontrace.trace RC 1
             SETUP_FILE reduce-nontrace.trace SETUP_TEXT "hello, world\n"
             ERR "no trace to reduce: bad file format: not a Go execution trace\\?")
gtr_cli_test(cli_reduce_malformed_expectation_fails ARGS reduce reduce-badexp.test RC 1
             SETUP_FILE reduce-badexp.test
             SETUP_TEXT "-- expect --\nFAILURE bad\n-- trace --\nTrace Go1.22\n"
             ERR "failed to parse expectation \"FAILURE bad\\\\n\": malformed pattern: not correctly quoted")
gtr_cli_test(cli_reduce_valid_trace_has_nothing_to_keep
             ARGS reduce --no-oracle ${_up}/go123-sync.test RC 1
             ERR "the input reads and validates: there is no failure to keep")
# A bad --expect pattern is a usage error found before any input is read or judged (a
# missing file, a valid trace), with Go's regexp/syntax message.
gtr_cli_test(cli_reduce_expect_bad_regexp_is_usage_error
             ARGS reduce --expect "(" no-such-file.trace RC 2
             ERR "^gotrace: reduce: invalid value \"\\(\" for flag --expect: error parsing regexp: missing closing \\): `\\(`\nusage: gotrace reduce")
gtr_cli_test(cli_reduce_expect_lookahead_is_usage_error
             ARGS reduce --no-oracle "--expect=(?=x)" ${_up}/go123-sync.test RC 2
             ERR "^gotrace: reduce: invalid value \"\\(\\?=x\\)\" for flag --expect: error parsing regexp: invalid or unsupported Perl syntax: `\\(\\?=`\nusage: gotrace reduce")
gtr_cli_test(cli_reduce_expect_not_matching_fails
             ARGS reduce --no-oracle --expect "no such message" ${_up}/go122-create-syscall-with-p.test
             RC 1 ERR "--expect does not match the input's failure \\(reader error: expected a proc but didn't have one\\)")
# A reduced fixture from a fixture, by the short flag, checked by the golden runner.
gtr_cli_test(cli_reduce_fixture_input_and_short_out_flag
             PRE_ARGS reduce --no-oracle ${_up}/go122-create-syscall-with-p.test -o reduce-short.test
             ARGS check reduce-short.test RC 0 OUT "^ok   reduce-short.test\n1 passed, 0 failed\n$")
gtr_cli_test(cli_reduce_write_error_names_the_output
             ARGS reduce --no-oracle ${_up}/go122-create-syscall-with-p.test --out /dev/full RC 1
             ERR "^gotrace: writing /dev/full: no space left on device\n$")
# Where reduce writes (the rule of its help text). An old-format trace with a validator error
# is always written as wire bytes: to F.trace for --out F.test, to the named file itself for
# any other name or a device (nothing created beside it), to stdout only when asked (-o -),
# never unasked; a directory is refused before any work.
set(_flaw ${CMAKE_SOURCE_DIR}/corpus/go-panics/go121-v1-blocking-syscall-validator-flaw.trace)
gtr_cli_test(cli_reduce_wire_bytes_to_another_name_go_there
             PRE_ARGS reduce --no-oracle ${_flaw} --out reduce-name-ref.test
             ARGS reduce --no-oracle ${_flaw} --out reduce-name.fixture RC 0
             ERR "as wire bytes to reduce-name\\.fixture instead"
             SAME_FILES reduce-name.fixture reduce-name-ref.trace
             ABSENT reduce-name.fixture.trace reduce-name-ref.test)
gtr_cli_test(cli_reduce_wire_bytes_to_a_full_device_fail
             ARGS reduce --no-oracle ${_flaw} -o /dev/full RC 1
             ERR "as wire bytes to /dev/full instead[^\n]*\ngotrace: writing /dev/full: no space left on device\n$"
             ABSENT /dev/full.trace)
gtr_cli_test(cli_reduce_wire_bytes_not_to_stdout_unasked ARGS reduce --no-oracle ${_flaw} RC 1
             OUT "^$" ERR "wire bytes are not written to stdout unasked: give --out FILE\\.test")
gtr_cli_test(cli_reduce_wire_bytes_to_stdout_when_asked ARGS reduce --no-oracle ${_flaw} -o - RC 0
             OUT "^go 1\\.21 trace" ERR "as wire bytes to stdout instead")
if(GTR_SCRIPT)
  add_test(NAME cli_reduce_wire_bytes_never_to_a_terminal
           COMMAND ${CMAKE_COMMAND} -DCMD=${GTR_SCRIPT}
                   "-DARGS=-qec|$<TARGET_FILE:gotrace> reduce --no-oracle -o - ${_flaw}|/dev/null"
                   -DWANT_RC=1 "-DWANT_OUT=wire bytes are not written to a terminal"
                   -DWORKDIR=${_cli_dir} -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_run.cmake)
endif()
gtr_cli_test(cli_reduce_out_directory_is_usage_error
             ARGS reduce --no-oracle ${_up}/go122-create-syscall-with-p.test -o reduce-outdir/ RC 2
             ERR "^gotrace: reduce: --out reduce-outdir/: is a directory; name the file"
             ABSENT reduce-outdir/.trace reduce-outdir/.test)
gtr_cli_test(cli_reduce_out_existing_directory_is_usage_error
             ARGS reduce --no-oracle ${_up}/go122-create-syscall-with-p.test --out reduce-outdir2
             MKDIRS reduce-outdir2 RC 2 ERR "^gotrace: reduce: --out reduce-outdir2: is a directory")
gtr_cli_test(cli_reduce_budget_not_a_number_is_usage_error ARGS reduce --budget 1.5 x.trace RC 2
             ERR "reduce: --budget 1.5: want a whole number of seconds \\(0: no limit\\)")

# --diff (a divergence from Go): what it cannot go with, and without Go's reader (the oracle
# program asked for and refused: a usage error in a build with Go's archive or without).
gtr_cli_test(cli_reduce_diff_with_expect_is_usage_error
             ARGS reduce --diff --expect "x" no-such-file.trace RC 2
             ERR "^gotrace: reduce: --diff and --expect cannot go together: --diff keeps the input's divergence from Go, --expect a failure's message\nusage: gotrace reduce")
gtr_cli_test(cli_reduce_diff_without_go_is_usage_error
             ARGS reduce --diff --no-oracle --go-reader oracle no-such-file.trace RC 2
             ERR "^gotrace: reduce: --diff needs Go's reader: give Go's oracle \\(--oracle PATH, \\$GTR_ORACLE or ci/oracle-fetch.sh\\), or Go's reader as a library \\(ci/go-diff-archive.sh --shared, --go-library PATH\\)\nusage: gotrace reduce")
gtr_cli_test(cli_reduce_diff_oracle_not_executable_is_usage_error
             ARGS reduce --diff --go-reader oracle --oracle /nonexistent/gtroracle no-such-file.trace RC 2
             ERR "^gotrace: reduce: --diff needs Go's reader: the oracle /nonexistent/gtroracle is not an executable file")
gtr_cli_test(cli_reduce_go_reader_bad_value_is_usage_error
             ARGS reduce --diff --go-reader go x.trace RC 2
             ERR "^gotrace: reduce: --go-reader go: want in-process or oracle")
gtr_cli_test(cli_reduce_go_reader_without_diff_is_usage_error
             ARGS reduce --go-reader oracle x.trace RC 2
             ERR "^gotrace: reduce: --go-reader is for --diff")
gtr_cli_test(cli_reduce_go_library_without_diff_is_usage_error
             ARGS reduce --go-library x.so x.trace RC 2
             ERR "^gotrace: reduce: --go-library is for --diff")
gtr_cli_test(cli_reduce_go_library_with_oracle_is_usage_error
             ARGS reduce --diff --go-reader oracle --go-library x.so x.trace RC 2
             ERR "^gotrace: reduce: --go-library is for --go-reader in-process")
# Go's reader in process: a static gotrace cannot load it; a dynamic one says why a library
# does not load, and with Go's library (ci/go-diff-archive.sh --shared, found when this build
# was configured) reads a seed on which libtrace and Go agree: nothing to reduce.
if(GTR_STATIC_CLI_FLAG)
  gtr_cli_test(cli_reduce_diff_in_process_static_is_usage_error
               ARGS reduce --diff --go-reader in-process x.trace RC 2
               ERR "^gotrace: reduce: --go-reader in-process: this gotrace is linked statically and cannot load Go's reader \\(configure with -DGTR_STATIC_CLI=OFF\\), or use --go-reader oracle")
else()
  gtr_cli_test(cli_reduce_diff_go_library_missing_fails
               ARGS reduce --diff --go-library /nonexistent/libgtrdiff.so x.trace RC 1
               ERR "^gotrace: reduce: cannot load Go's reader: /nonexistent/libgtrdiff.so: cannot open shared object file")
  gtr_cli_test(cli_reduce_diff_go_library_not_go_fails
               ARGS reduce --diff --go-library libc.so.6 x.trace RC 1
               ERR "^gotrace: reduce: cannot load Go's reader: libc.so.6 has no gtrdiff_go_validate")
  if(EXISTS "${GTR_GO_DIFF_CACHE}/gtrdiff/libgtrdiff.so" AND NOT "memory" IN_LIST GTR_SANITIZE)
    gtr_cli_test(cli_reduce_diff_in_process_agreeing_input_fails
                 ARGS reduce --diff --go-reader in-process
                      --go-library ${GTR_GO_DIFF_CACHE}/gtrdiff/libgtrdiff.so
                      ${_up}/go122-create-syscall-with-p.test RC 1
                 ERR "agree")
  endif()
endif()
