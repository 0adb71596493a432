/* rng.h — the seeded random generator (xoshiro256**) that every game keeps inside its state. */
#ifndef ASOBI_RNG_H
#define ASOBI_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "asobi/error.h"

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

/* A seed nobody can predict, for a game whose seed its caller does not
 * choose: 63 random bits from the operating system (getrandom(2)), below
 * 2^63 so that it is easy to type back (`--seed`). The seed decides every
 * hidden card, so it must say nothing about the process or the time it was
 * made. ASOBI_E_IO when the system gives no random bits: never a weaker
 * seed in its place. Every command, the engine protocol and the server take
 * their fresh seeds from here. */
int asobi_fresh_seed(uint64_t *seed, asobi_error *err);

#ifdef __cplusplus
}
#endif
#endif
