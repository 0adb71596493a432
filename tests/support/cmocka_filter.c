/* cmocka_filter.c — runs only the cmocka tests named by ASOBI_TEST_FILTER (set before main, for every test). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
