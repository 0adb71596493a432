#!/usr/bin/env bash
# test.sh — sets everything up, builds twice (a normal build in build/, one under AddressSanitizer +
# UndefinedBehaviorSanitizer in build-asan/), then runs both builds' tests in one CTest (build-all/).
#
# One CTest over both trees (scripts/ctest_both.py writes it; the sanitizer build's tests are named asan:NAME)
# lets the sanitizer tests run beside the normal build's browser tests instead of after them. CTest counts
# cores, not jobs: a resource spec of one `cpu` slot per core (at least two) and each test's share of them
# (tests/CMakeLists.txt, asobi_share_cores: a CPU-bound or browser test takes a slot, a test that mostly waits
# none, a test that times a latency two), with three jobs per slot so that waiting tests fill the gaps.
# ASOBI_TEST_TIMES=FILE: every test's wall and CPU seconds are appended to FILE (scripts/ctest_both.py).
set -euo pipefail
cd "$(dirname "$0")/.."
cores=$(nproc 2>/dev/null || echo 2)
slots=$((cores < 2 ? 2 : cores))
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# In CI every long test runs at its full count: a smaller ASOBI_TEST_SCALE there would shrink them unseen.
if [ "${CI:-}" = true ] && [ -n "${ASOBI_TEST_SCALE:-}" ] &&
   ! python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= 1 else 1)' "$ASOBI_TEST_SCALE" 2>/dev/null; then
  echo "test.sh: ASOBI_TEST_SCALE=$ASOBI_TEST_SCALE in CI: every count must be at least the full one (1)" >&2
  exit 1
fi
started=$SECONDS
# ccache (CMakeLists.txt): paths relative to the clone, and the compiler's folder left out of the key (with -g it is
# in by default), so that another clone of the same sources hits (checked: two clones, the second's object a hit)
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
# Warnings are errors here (and so in CI), not in a plain build: ASOBI_WERROR=ON.
echo "== normal build (build/)"
scripts/setup.sh build -DASOBI_WERROR=ON -DASOBI_SANITIZE=OFF
echo "== sanitizer build (build-asan/)"
scripts/setup.sh build-asan -DASOBI_WERROR=ON -DASOBI_SANITIZE=ON
echo "== both builds' tests (build-all/: $slots cpu slots, $((3 * slots)) jobs; built in $((SECONDS - started)) s)"
python3 scripts/ctest_both.py build-all build build-asan "$slots"
status=0 tests_failed=0
# --no-tests=error: a build that registered no test at all fails rather than passing with none
tested=$SECONDS
if ! ctest --test-dir build-all --resource-spec-file "$PWD/build-all/resources.json" --output-on-failure \
    --no-tests=error -j $((3 * slots)); then status=1 tests_failed=1; fi
echo "== tests took $((SECONDS - tested)) s"
# In CI, explore every fuzz target for a short fixed time (the corpus replay ran in CTest above).
# README.md (Fuzzing) gives the same figure; tests/cli/readme_agrees.sh checks that it does.
fuzz_seconds=12
if [ "${CI:-}" = true ]; then
  echo "== fuzz exploration (scripts/fuzz.sh, $fuzz_seconds s per target, $cores at a time)"
  ASOBI_FUZZ=1 scripts/setup.sh build # installs clang when missing
  scripts/fuzz.sh $fuzz_seconds || status=1
fi
# A failed test's output is printed where it failed, mid-log: say its end again last, where a CI's tail shows it.
if [ $tests_failed -ne 0 ]; then python3 scripts/failed_tails.py build-all 30 || true; fi
if [ $status -eq 0 ]; then echo "test.sh: all tests passed in both builds ($((SECONDS - started)) s)"; else echo "test.sh: FAILURES" >&2; fi
exit $status
