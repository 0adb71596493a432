/* rng.c — xoshiro256** seeded by splitmix64: small, fast, and a plain value inside every state; fresh seeds from the OS. */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

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

/* Fresh seeds come from the kernel's generator, never from the clock and
 * the process id: those are known to within milliseconds and a few
 * thousand values, and a seed made of them was inverted from one finished
 * table's record (issue 31: the pid and the nanosecond, then every hand of
 * a table made near it). getrandom(2) with no flags blocks only until the
 * kernel's pool is first initialised at boot; a signal may cut it short
 * (EINTR: ask again) and a read may be short (ask for the rest). Any other
 * failure (ENOSYS on a kernel without the call, a seccomp filter) is
 * reported: a game dealt from a guessable seed would be worse than no game. */
static int read_os_random(void *buf, size_t n, asobi_error *err)
{
    unsigned char *p = buf;
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(p + got, n - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return asobi_fail(err, ASOBI_E_IO, "the system gives no random bits for a seed (getrandom: %s)",
                              r < 0 ? strerror(errno) : "no bytes");
        got += (size_t)r;
    }
    return ASOBI_OK;
}

int asobi_fresh_seed(uint64_t *seed, asobi_error *err)
{
    uint64_t bits;
    if (!seed)
        return asobi_fail(err, ASOBI_E_BAD_ARGUMENT, "asobi_fresh_seed: seed is NULL");
    int rc = read_os_random(&bits, sizeof bits, err);
    if (rc != ASOBI_OK)
        return rc;
    *seed = bits >> 1; /* below 2^63: easy to type back */
    asobi_error_clear(err);
    return ASOBI_OK;
}
