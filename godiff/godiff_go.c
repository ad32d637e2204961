/* SPDX-License-Identifier: BSD-3-Clause */
/* godiff_go.c: Go's reader linked in as the C archive of ci/go-diff-archive.sh, as a
 * godiff_go_fn (godiff.h). Built into gtr_godiff_go only when CMake found the archive. */
#include <stdint.h>

#include "go_reader.h"
#include "godiff.h"

bool godiff_go_read(void *ctx, const uint8_t *data, size_t size, godiff_owned *out)
{
    size_t dump_len = 0, msg_len = 0;
    (void)ctx;
    int end = gtrdiff_go_validate((unsigned char *)(uintptr_t)data, size, GODIFF_DUMP_LIMIT,
                                  &out->dump, &dump_len, &out->msg, &msg_len);
    out->r = (godiff_reading){(godiff_end)end, out->dump, dump_len, out->msg, msg_len};
    return true;
}
