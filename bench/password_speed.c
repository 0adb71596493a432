/* password_speed.c — Argon2id password hashes and verifications per second on one core, at today's parameters (password.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/password.h"

/* Usage: bench_password_speed [HASHES] [RUNS]
 * One run makes HASHES hashes (default 20) of a 20-character password at
 * 19 MiB, t=2, p=1, then as many verifications (a right password, a wrong
 * one, a name with no account, in turn); the figures are the medians of
 * RUNS runs (default 7), each per second of one thread, of the wall clock
 * and of the thread's own CPU time (the figure that holds on a machine
 * others are using too). A server's worker does one at a time: its
 * sign-ins per second per core are about these. */

static double clock_seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static double now(void) { return clock_seconds(CLOCK_MONOTONIC); }
/* this thread's CPU time: on a loaded machine, what a hash costs whatever else runs */
static double cpu(void) { return clock_seconds(CLOCK_THREAD_CPUTIME_ID); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int hashes = argc > 1 ? atoi(argv[1]) : 20, runs = argc > 2 ? atoi(argv[2]) : 7;
    if (hashes < 1 || runs < 1 || runs > 100) {
        fprintf(stderr, "usage: bench_password_speed [HASHES >= 1] [RUNS 1-100]\n");
        return 2;
    }
    static const char password[] = "a fine long passw0rd";
    static const char wrong[] = "a fine long passw0rt";
    char encoded[PASSWORD_ENCODED_MAX];
    double hash_rate[100], verify_rate[100], hash_cpu[100], verify_cpu[100];
    printf("Argon2id m=%u KiB, t=%u, p=%u; %d hashes and %d verifications per run\n", PASSWORD_MEMORY_KIB,
           PASSWORD_PASSES, PASSWORD_LANES, hashes, hashes);
    for (int r = 0; r < runs; r++) {
        double t0 = now(), c0 = cpu();
        for (int i = 0; i < hashes; i++)
            if (password_hash(password, sizeof password - 1, encoded) != PASSWORD_OK) {
                fprintf(stderr, "hashing failed\n");
                return 1;
            }
        double t1 = now(), c1 = cpu();
        int right = 0;
        for (int i = 0; i < hashes; i++) {
            if (i % 3 == 0)
                right += password_verify(password, sizeof password - 1, encoded) == PASSWORD_OK;
            else
                (void)password_verify(wrong, sizeof wrong - 1, i % 3 == 1 ? encoded : NULL);
        }
        double t2 = now(), c2 = cpu();
        if (right != (hashes + 2) / 3) {
            fprintf(stderr, "a right password did not verify\n");
            return 1;
        }
        hash_rate[r] = hashes / (t1 - t0);
        verify_rate[r] = hashes / (t2 - t1);
        hash_cpu[r] = hashes / (c1 - c0);
        verify_cpu[r] = hashes / (c2 - c1);
        printf("run %d: %.1f hashes/s, %.1f verifications/s (per CPU second: %.1f, %.1f)\n", r + 1, hash_rate[r],
               verify_rate[r], hash_cpu[r], verify_cpu[r]);
    }
    qsort(hash_rate, (size_t)runs, sizeof *hash_rate, cmp_double);
    qsort(verify_rate, (size_t)runs, sizeof *verify_rate, cmp_double);
    qsort(hash_cpu, (size_t)runs, sizeof *hash_cpu, cmp_double);
    qsort(verify_cpu, (size_t)runs, sizeof *verify_cpu, cmp_double);
    printf("median of %d runs: %.1f hashes/s (%.1f ms each), %.1f verifications/s per thread;\n"
           "per CPU second: %.1f hashes (%.1f ms each), %.1f verifications\n",
           runs, hash_rate[runs / 2], 1000 / hash_rate[runs / 2], verify_rate[runs / 2], hash_cpu[runs / 2],
           1000 / hash_cpu[runs / 2], verify_cpu[runs / 2]);
    return 0;
}
