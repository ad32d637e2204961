/* SPDX-License-Identifier: BSD-3-Clause */
/* choice.c: the model's two choice sources, a seeded generator and a byte string. */
#include "gsim/sim.h"

/* splitmix64 (Steele, Lea, Flood): tiny, fast, every seed a full-period stream. */
static uint64_t seed_next(void *ctx, uint64_t n)
{
    gsim_seed_state *st = ctx;
    uint64_t z = (st->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return n <= 1 ? 0 : z % n;
}

gsim_choice gsim_choice_seed(gsim_seed_state *st, uint64_t seed)
{
    st->s = seed;
    return (gsim_choice){.next = seed_next, .ctx = st};
}

static uint64_t bytes_next(void *ctx, uint64_t n)
{
    gsim_bytes_state *st = ctx;
    uint64_t v = 0;
    unsigned shift = 0;
    if (n <= 1)
        return 0;
    /* As many bytes as n - 1 needs. */
    for (uint64_t left = n - 1; left != 0; left >>= 8, shift += 8) {
        uint64_t b = st->pos < st->len ? st->data[st->pos] : 0;
        st->pos += st->pos < st->len;
        v |= b << shift;
    }
    return v % n;
}

gsim_choice gsim_choice_bytes(gsim_bytes_state *st, const uint8_t *data, size_t len)
{
    st->data = data;
    st->len = data != NULL ? len : 0;
    st->pos = 0;
    return (gsim_choice){.next = bytes_next, .ctx = st};
}
