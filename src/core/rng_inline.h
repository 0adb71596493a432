/* rng_inline.h — the generator's two hot steps as inline functions, for the playout loops of core, games and bots (internal). */
#ifndef ASOBI_RNG_INLINE_H
#define ASOBI_RNG_INLINE_H

#include "asobi/rng.h"

/* rng.c's public asobi_rng_next and asobi_rng_below are these, behind a
 * call; a random playout draws once per action, and the call and the
 * spilled registers around it were a tenth of a PSYCLE playout. */

static inline uint64_t asobi_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256** (Blackman and Vigna). */
static inline uint64_t asobi_rng_next_inline(asobi_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = asobi_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = asobi_rng_rotl(s[3], 45);
    return result;
}

/* Lemire's multiply-and-reject: uniform in [0, n) without the bias of %. */
static inline uint32_t asobi_rng_below_inline(asobi_rng *rng, uint32_t n)
{
    uint64_t m = (uint64_t)(uint32_t)(asobi_rng_next_inline(rng) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(asobi_rng_next_inline(rng) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

#endif
