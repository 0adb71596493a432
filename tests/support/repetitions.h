/* repetitions.h — how often a long test repeats: in full in the normal build, a tenth under the sanitizers. */
#ifndef ASOBI_TEST_REPETITIONS_H
#define ASOBI_TEST_REPETITIONS_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * Long tests (thousands of random games, every bot on every game and player
 * count) run their full counts in the normal build, where they take seconds,
 * and a tenth of them under AddressSanitizer + UBSan, which run this code 10
 * to 50 times slower. The sanitizer build is there to catch memory errors and
 * undefined behaviour on every code path, which a tenth of the games still
 * walks; the statistics (bot strength, rare endings) are the normal build's.
 *
 * Use it for every count that makes a test take more than a second or so:
 *
 *     #include "repetitions.h"
 *     run(3, test_reps(500));      // 500 games; 50 under the sanitizers
 *
 * A check that needs a minimum sample keeps it: test_reps(600) >= 60.
 * ASOBI_UNDER_SANITIZER is defined for every test when the build has
 * -DASOBI_SANITIZE=ON (tests/CMakeLists.txt). ASOBI_TEST_SCALE=F in the
 * environment multiplies every count, in either build: F=0.1 for a quicker
 * look, F=10 for a long night.
 */
#ifdef ASOBI_UNDER_SANITIZER
#define ASOBI_TEST_REPS_SHARE 0.1
#else
#define ASOBI_TEST_REPS_SHARE 1.0
#endif

/* The number of repetitions to run for a test written for `normal` of them
 * (at least 1). */
static inline int test_reps(int normal)
{
    double share = ASOBI_TEST_REPS_SHARE;
    const char *scale = getenv("ASOBI_TEST_SCALE");
    if (scale && *scale) {
        char *end;
        double f = strtod(scale, &end);
        if (*end != '\0' || !(f > 0.0) || f > 1e6) {
            fprintf(stderr, "ASOBI_TEST_SCALE=%s: a positive number is expected (0.1, 1, 10)\n", scale);
            exit(2);
        }
        share *= f;
    }
    double n = (double)normal * share;
    if (n >= (double)INT_MAX)
        return INT_MAX;
    int reps = (int)n;
    if ((double)reps < n) /* round up: 15 at a tenth runs 2, not 1 */
        reps++;
    return reps < 1 ? 1 : reps;
}

#endif
