/* test_fresh_seed.c — asobi_fresh_seed: seeds from getrandom(2) that say nothing about the process or the time (issue 31). */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "asobi/asobi.h"

/* ---- the attack of issue 31 ------------------------------------------------------
 * The old fresh seed was x = sec * 1000000007 ^ nsec ^ pid << 32 (the clock
 * and the process id), then the second word splitmix64 makes of x through
 * xoshiro256**'s output function, shifted right once. Every step inverts:
 * one seed gives x back (two candidates for the bit shifted out), and x
 * xor the second's term leaves the pid in the high half and the nanosecond
 * in the low. This is how one finished table's record gave the server's pid
 * and the instant, and then every other table's deal. */

static const uint64_t GOLDEN = 0x9e3779b97f4a7c15ULL;

/* The inverse of an odd number modulo 2^64 (Newton's iteration). */
static uint64_t inverse(uint64_t a)
{
    uint64_t x = a;
    for (int i = 0; i < 6; i++)
        x *= 2 - a * x;
    return x;
}

/* The inverse of y ^= y >> k. */
static uint64_t unshift(uint64_t y, int k)
{
    uint64_t x = y;
    for (int i = 0; i < 64 / k + 1; i++)
        x = y ^ (x >> k);
    return x;
}

static uint64_t rotr(uint64_t x, int k) { return (x >> k) | (x << (64 - k)); }

/* The x of the old formula that gives output bit by bit (low: the bit the
 * shift dropped). */
static uint64_t old_formula_input(uint64_t output, int low)
{
    uint64_t r = output << 1 | (uint64_t)low;
    uint64_t s1 = rotr(r * inverse(9), 7) * inverse(5); /* xoshiro256**: rotl(s1 * 5, 7) * 9 */
    uint64_t z = unshift(s1, 31) * inverse(0x94d049bb133111ebULL); /* splitmix64's mix, backwards */
    z = unshift(z, 27) * inverse(0xbf58476d1ce4e5b9ULL);
    z = unshift(z, 30);
    return z - 2 * GOLDEN; /* s[1]: the second word, x + 2 golden steps */
}

/* Does seed come from this process's pid at a second within 10 s of now? */
static bool gives_pid_and_time(uint64_t seed)
{
    time_t now = time(NULL);
    for (int low = 0; low < 2; low++) {
        uint64_t x = old_formula_input(seed, low);
        for (time_t sec = now - 10; sec <= now + 10; sec++) {
            uint64_t rest = x ^ (uint64_t)sec * 1000000007ULL;
            if (rest >> 32 == (uint64_t)getpid() && (rest & 0xffffffffu) < 1000000000u)
                return true;
        }
    }
    return false;
}

/* The inversion itself is right: a seed made by the old formula now gives
 * this process's pid back. */
static void test_the_old_formula_inverts_to_the_pid(void **unused)
{
    (void)unused;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
    asobi_rng r;
    asobi_rng_seed(&r, x);
    assert_true(gives_pid_and_time(asobi_rng_next(&r) >> 1));
}

/* Fresh seeds made in one process at nearly the same instant: none inverts
 * to the pid and the time, all are distinct, below 2^63, and every one of
 * their 63 bits takes both values (a clock's seeds share their high bits);
 * consecutive seeds rise about as often as they fall (a clock's rise). */
static void test_fresh_seeds_say_nothing_of_the_pid_or_the_time(void **unused)
{
    (void)unused;
    enum { N = 256 };
    uint64_t seed[N], ones = 0, zeros = 0;
    for (int i = 0; i < N; i++) {
        asobi_error err;
        assert_int_equal(asobi_fresh_seed(&seed[i], &err), ASOBI_OK);
        assert_int_equal(err.code, ASOBI_OK);
    }
    int rises = 0;
    for (int i = 0; i < N; i++) {
        assert_false(gives_pid_and_time(seed[i]));
        assert_true(seed[i] < (1ULL << 63));
        for (int j = 0; j < i; j++)
            assert_true(seed[i] != seed[j]);
        ones |= seed[i];
        zeros |= ~seed[i];
        rises += i > 0 && seed[i] > seed[i - 1];
    }
    assert_true(ones == (1ULL << 63) - 1);
    assert_true((zeros & ((1ULL << 63) - 1)) == (1ULL << 63) - 1);
    assert_in_range(rises, 80, 175); /* 127.5 expected; 8 is one standard deviation */
}

/* ---- the system's side: EINTR, short reads, no getrandom -------------------------
 * ld's --wrap=getrandom (tests/CMakeLists.txt) sends libasobi's calls here:
 * each mode plays one way the call can end. */
enum { PASS, INTERRUPTED_THEN_BYTE_BY_BYTE, NO_SYSCALL, NOTHING };
static int mode = PASS;
static int calls;

ssize_t __real_getrandom(void *buf, size_t n, unsigned flags);
ssize_t __wrap_getrandom(void *buf, size_t n, unsigned flags);
ssize_t __wrap_getrandom(void *buf, size_t n, unsigned flags)
{
    calls++;
    switch (mode) {
    case INTERRUPTED_THEN_BYTE_BY_BYTE:
        if (calls % 2) { /* every other call: a signal came first */
            errno = EINTR;
            return -1;
        }
        memset(buf, 0xa5, 1);
        return 1;
    case NO_SYSCALL:
        errno = ENOSYS;
        return -1;
    case NOTHING:
        return 0;
    default:
        return __real_getrandom(buf, n, flags);
    }
}

static void test_interrupted_and_short_reads_are_read_to_the_end(void **unused)
{
    (void)unused;
    mode = INTERRUPTED_THEN_BYTE_BY_BYTE;
    calls = 0;
    uint64_t seed = 0;
    asobi_error err;
    assert_int_equal(asobi_fresh_seed(&seed, &err), ASOBI_OK);
    assert_int_equal(calls, 16); /* 8 interruptions, 8 bytes one at a time */
    assert_true(seed == 0xa5a5a5a5a5a5a5a5ULL >> 1);
    mode = PASS;
}

/* No random bits: an error, never a seed made of something else. */
static void test_no_random_bits_is_an_error_not_a_weaker_seed(void **unused)
{
    (void)unused;
    for (int m = NO_SYSCALL; m <= NOTHING; m++) {
        mode = m;
        uint64_t seed = 12345;
        asobi_error err;
        assert_int_equal(asobi_fresh_seed(&seed, &err), ASOBI_E_IO);
        assert_int_equal(err.code, ASOBI_E_IO);
        assert_non_null(strstr(err.message, "no random bits"));
        assert_true(seed == 12345); /* untouched */
    }
    mode = PASS;
    assert_int_equal(asobi_fresh_seed(NULL, NULL), ASOBI_E_BAD_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_old_formula_inverts_to_the_pid),
        cmocka_unit_test(test_fresh_seeds_say_nothing_of_the_pid_or_the_time),
        cmocka_unit_test(test_interrupted_and_short_reads_are_read_to_the_end),
        cmocka_unit_test(test_no_random_bits_is_an_error_not_a_weaker_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
