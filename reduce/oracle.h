/* SPDX-License-Identifier: BSD-3-Clause */
/* oracle.h: Go's own reader as an oracle, for the reducer (internal to reduce/). The oracle
 * is the gtroracle program of ci/oracle-fetch.sh: `validate` reads stdin and exits 0 (read
 * and validated), 1 (reader error) or 3 (validator error), the error on stderr as
 * "error: <msg>"; `check FILE` is Go's TestReaderGolden on one fixture. */
#ifndef GTR_REDUCE_ORACLE_H
#define GTR_REDUCE_ORACLE_H

#include <stdbool.h>
#include <stdint.h>

#include "gtr/buf.h"

typedef enum reduce_go_verdict {
    REDUCE_GO_PASS,
    REDUCE_GO_READ_ERROR,
    REDUCE_GO_VALIDATOR_ERROR
} reduce_go_verdict;

/* reduce_oracle_usable: oracle names an executable file. */
bool reduce_oracle_usable(const char *oracle);

/* reduce_oracle_validate asks Go's reader and validator about wire[0..len): *verdict, and
 * the error message (first error, without the "error: " prefix) appended to msg. False when
 * the oracle could not be run or gave an unknown status. */
bool reduce_oracle_validate(const char *oracle, const uint8_t *wire, size_t len,
                            unsigned timeout_s, reduce_go_verdict *verdict, gtr_buf *msg);

/* reduce_oracle_check runs Go's golden runner on the fixture text fixture[0..len): *passed,
 * and "ok" or the failure's text appended to line. False when it could not be run. */
bool reduce_oracle_check(const char *oracle, const char *fixture, size_t len, unsigned timeout_s,
                         bool *passed, gtr_buf *line);

#endif /* GTR_REDUCE_ORACLE_H */
