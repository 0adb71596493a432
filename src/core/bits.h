/* bits.h — counting and picking the set bits of a mask, inline and without libgcc calls (internal). */
#ifndef ASOBI_BITS_H
#define ASOBI_BITS_H

#include <stdint.h>

/* GCC compiles __builtin_popcount into a call to libgcc's table-driven
 * __popcountdi2 unless the target has the POPCNT instruction, which the
 * baseline x86-64 that Debian builds for does not: in THE OCTAL's legal()
 * that call was 9% of a random playout. The SWAR count below is a dozen
 * register operations, inlined. (__builtin_ctz needs no such care: it is
 * one instruction, bsf or tzcnt, on every x86-64.) */
static inline int asobi_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

static inline int asobi_popcount32(uint32_t x) { return asobi_popcount64(x); }

/* The index of the k-th set bit of x (k = 0 is the lowest); x must have more
 * than k bits set. */
static inline int asobi_nth_bit(uint64_t x, int k)
{
    while (k-- > 0)
        x &= x - 1;
    return __builtin_ctzll(x);
}

#endif
