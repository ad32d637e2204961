/* SPDX-License-Identifier: BSD-3-Clause */
/* fake_go_reader.c: a stand-in for an earlier Go release's reader as a shared library
 * (ci/go-releases-bench.sh --shared), for test_godiff_library: the two functions godiff.go
 * exports, with Go 1.23's release number and one fixed reading. */
#include <stdlib.h>
#include <string.h>

int gtrdiff_go_minor(void);
int gtrdiff_go_validate(unsigned char *data, size_t size, size_t limit, char **dump,
                        size_t *dump_len, char **msg, size_t *msg_len);

int gtrdiff_go_minor(void)
{
    return 23;
}

int gtrdiff_go_validate(unsigned char *data, size_t size, size_t limit, char **dump,
                        size_t *dump_len, char **msg, size_t *msg_len)
{
    (void)data;
    (void)size;
    (void)limit;
    *dump = malloc(5);
    *msg = malloc(10);
    if (*dump == NULL || *msg == NULL)
        abort();
    memcpy(*dump, "fake\n", 5);
    memcpy(*msg, "fake error", 10);
    *dump_len = 5;
    *msg_len = 10;
    return 2;   /* a reader error */
}
