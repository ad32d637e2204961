/* SPDX-License-Identifier: BSD-3-Clause */
/* sha256.h: a small SHA-256 (FIPS 180-4) for tests that compare outputs with recorded
 * hashes. Not constant-time; not for anything but tests. */
#ifndef GTR_TESTS_SHA256_H
#define GTR_TESTS_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sha256_ctx {
    uint32_t h[8];
    uint64_t len;      /* bytes hashed so far */
    uint8_t block[64];
    size_t fill;       /* bytes in block */
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t n);
/* sha256_update_sized hashes n as 8 little-endian bytes, then data[0..n): a run of outputs
 * hashed one after another is told from another run with the same bytes cut elsewhere. */
void sha256_update_sized(sha256_ctx *c, const void *data, size_t n);
void sha256_final(sha256_ctx *c, uint8_t out[32]);
/* sha256_hex hashes data[0..n) and writes 64 lowercase hex digits and a NUL into hex. */
void sha256_hex(const void *data, size_t n, char hex[65]);
/* sha256_final_hex finishes c into 64 hex digits and a NUL. */
void sha256_final_hex(sha256_ctx *c, char hex[65]);

#endif /* GTR_TESTS_SHA256_H */
