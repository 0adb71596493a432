/* rng.c — xoshiro256** seeded by splitmix64: small, fast, and a plain value inside every state. */
#include <string.h>

#include "rng_inline.h"

/* splitmix64 turns any 64-bit seed (0 included) into well-mixed words; it is
 * the seeding procedure recommended by xoshiro's authors. */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void asobi_rng_seed(asobi_rng *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&x);
}

uint64_t asobi_rng_next(asobi_rng *rng) { return asobi_rng_next_inline(rng); }

uint32_t asobi_rng_below(asobi_rng *rng, uint32_t n) { return asobi_rng_below_inline(rng, n); }

double asobi_rng_unit(asobi_rng *rng)
{
    return (double)(asobi_rng_next(rng) >> 11) * 0x1.0p-53;
}

void asobi_rng_shuffle(asobi_rng *rng, void *base, size_t n, size_t size)
{
    unsigned char *a = base, tmp[64];
    if (size > sizeof tmp || n < 2)
        return;
    if (size == 1) { /* the games shuffle bytes (card and tile numbers): no memcpy calls */
        for (size_t i = n - 1; i > 0; i--) {
            size_t j = asobi_rng_below_inline(rng, (uint32_t)(i + 1));
            unsigned char t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return;
    }
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = asobi_rng_below_inline(rng, (uint32_t)(i + 1));
        if (j != i) {
            memcpy(tmp, a + i * size, size);
            memcpy(a + i * size, a + j * size, size);
            memcpy(a + j * size, tmp, size);
        }
    }
}

asobi_rng asobi_rng_split(asobi_rng *rng)
{
    asobi_rng child;
    asobi_rng_seed(&child, asobi_rng_next(rng));
    return child;
}
