# Tests of the raw component: quoting, header, wire and text readers and writers, corpus
# round trips.
gtr_unit_test(NAME test_quote SOURCES test_quote.c LIBS gtr)
gtr_unit_test(NAME test_raw_reader SOURCES test_raw_reader.c LIBS gtr)
gtr_unit_test(NAME test_text_reader SOURCES test_text_reader.c LIBS gtr)
gtr_unit_test(NAME test_raw_corpus SOURCES test_raw_corpus.c sha256.c LIBS gtr gtr_txtar)
gtr_unit_test(NAME test_raw_header SOURCES test_raw_header.c LIBS gtr ZLIB::ZLIB)
gtr_unit_test(NAME test_raw_cli SOURCES test_raw_cli.c LIBS gtr)
add_dependencies(test_raw_cli gotrace)
