/* hash.h — a fast 64-bit hash of a block of bytes, for the names search gives information sets (internal). */
#ifndef ASOBI_HASH_H
#define ASOBI_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Four independent lanes of xxHash64's round (acc += w * P2, rotate, *= P1)
 * over 32 bytes at a time, folded and finished with MurmurHash3's fmix64.
 * Search hashes a state after every step of its tree descent (Time Masters'
 * state is 5.7 KB): one word per lane per round keeps the multiplier busy
 * where a single chain of dependent multiplications waited on each. Only
 * equality of the values matters, within one process; they are never stored. */
static inline uint64_t asobi_hash_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t asobi_hash_round(uint64_t acc, uint64_t w)
{
    return asobi_hash_rotl(acc + w * 0xC2B2AE3D27D4EB4FULL, 31) * 0x9E3779B185EBCA87ULL;
}

static inline uint64_t asobi_hash_bytes(const void *p, size_t n, uint64_t seed)
{
    const unsigned char *b = p;
    uint64_t a0 = seed + 0x60EA27EEADC0B5D6ULL, a1 = seed ^ 0xC2B2AE3D27D4EB4FULL, a2 = seed,
             a3 = seed - 0x9E3779B185EBCA87ULL;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t w[4];
        memcpy(w, b + i, sizeof w);
        a0 = asobi_hash_round(a0, w[0]);
        a1 = asobi_hash_round(a1, w[1]);
        a2 = asobi_hash_round(a2, w[2]);
        a3 = asobi_hash_round(a3, w[3]);
    }
    uint64_t h = asobi_hash_rotl(a0, 1) + asobi_hash_rotl(a1, 7) + asobi_hash_rotl(a2, 12) + asobi_hash_rotl(a3, 18);
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, sizeof w);
        h = asobi_hash_round(h, w);
    }
    for (; i < n; i++)
        h = asobi_hash_round(h, b[i]);
    h ^= (uint64_t)n;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 33;
    return h;
}

#endif
