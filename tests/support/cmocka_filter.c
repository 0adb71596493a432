/* cmocka_filter.c — runs only the cmocka tests named by ASOBI_TEST_FILTER (set before main, for every test). */
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

/* ASOBI_TEST_FILTER=PATTERN (cmocka's wildcards * and ?) runs only the
 * matching tests of a test program: `ASOBI_TEST_FILTER='*shadow*' ctest -R
 * ninja`. tests/CMakeLists.txt uses it to split a long program into one CTest
 * test per cmocka test (ASOBI_SPLIT_TESTS), so that they run in parallel.
 * A constructor, so that no test's main has to know. */
__attribute__((constructor)) static void filter_tests_from_environment(void)
{
    const char *pattern = getenv("ASOBI_TEST_FILTER");
    if (pattern && *pattern)
        cmocka_set_test_filter(pattern);
}

/* A filter that matches no test would run none and pass: a test renamed
 * or removed, and its CTest entry (or a person's filter) would go on
 * saying "passed" (issue 32). Every test program's cmocka_run_group_tests
 * goes through here (the link's --wrap, tests/CMakeLists.txt), which fails
 * the program when the filter names none of its tests. */
int __real__cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *const tests,
                                   const size_t num_tests, CMFixtureFunction group_setup,
                                   CMFixtureFunction group_teardown);
int __wrap__cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *const tests,
                                   const size_t num_tests, CMFixtureFunction group_setup,
                                   CMFixtureFunction group_teardown);

int __wrap__cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *const tests,
                                   const size_t num_tests, CMFixtureFunction group_setup,
                                   CMFixtureFunction group_teardown)
{
    const char *pattern = getenv("ASOBI_TEST_FILTER");
    if (pattern && *pattern) {
        size_t matched = 0;
        for (size_t i = 0; i < num_tests; i++)
            matched += tests[i].name && fnmatch(pattern, tests[i].name, 0) == 0;
        if (matched == 0) {
            fprintf(stderr, "ASOBI_TEST_FILTER=%s matches none of the %zu tests of %s: nothing would run\n",
                    pattern, num_tests, group_name);
            return 1;
        }
    }
    return __real__cmocka_run_group_tests(group_name, tests, num_tests, group_setup, group_teardown);
}
