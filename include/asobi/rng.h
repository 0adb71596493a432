/* rng.h — the seeded random generator (xoshiro256**) that every game keeps inside its state. */
#ifndef ASOBI_RNG_H
#define ASOBI_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A plain value: copying a state copies its generator, so the same seed and
 * the same actions always give the same game, byte for byte. */
typedef struct asobi_rng {
    uint64_t s[4];
} asobi_rng;

/* Seed from a 64-bit number (expanded with splitmix64; every seed is valid). */
void asobi_rng_seed(asobi_rng *rng, uint64_t seed);

/* The next 64 random bits. */
uint64_t asobi_rng_next(asobi_rng *rng);

/* A uniform integer in [0, n), without modulo bias; n must be > 0. */
uint32_t asobi_rng_below(asobi_rng *rng, uint32_t n);

/* A uniform double in [0, 1). */
double asobi_rng_unit(asobi_rng *rng);

/* Fisher-Yates shuffle of n elements of size bytes each (size <= 64). */
void asobi_rng_shuffle(asobi_rng *rng, void *base, size_t n, size_t size);

/* A fresh generator split off from rng: seeded by rng's next output. */
asobi_rng asobi_rng_split(asobi_rng *rng);

#ifdef __cplusplus
}
#endif
#endif
