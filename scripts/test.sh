#!/usr/bin/env bash
# test.sh — sets everything up, then builds and runs the whole test suite twice:
# a normal build (build/) and one under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for config in normal sanitize; do
  # Warnings are errors here (and so in CI), not in a plain build: ASOBI_WERROR=ON.
  if [ $config = normal ]; then dir=build; args=(-DASOBI_WERROR=ON -DASOBI_SANITIZE=OFF)
  else dir=build-asan; args=(-DASOBI_WERROR=ON -DASOBI_SANITIZE=ON); fi
  echo "== $config build ($dir)"
  scripts/setup.sh "$dir" "${args[@]}"
  # --no-tests=error: a build that registered no test at all fails rather than passing with none
  if ! ctest --test-dir "$dir" --output-on-failure --no-tests=error -j "$jobs"; then status=1; fi
done
# In CI, explore every fuzz target for a short fixed time (the corpus replay ran in CTest above).
# README.md (Fuzzing) gives the same figure; tests/cli/readme_agrees.sh checks that it does.
fuzz_seconds=12
if [ "${CI:-}" = true ]; then
  echo "== fuzz exploration (scripts/fuzz.sh, $fuzz_seconds s per target)"
  ASOBI_FUZZ=1 scripts/setup.sh build # installs clang when missing
  scripts/fuzz.sh $fuzz_seconds || status=1
fi
if [ $status -eq 0 ]; then echo "test.sh: all tests passed in both builds"; else echo "test.sh: FAILURES" >&2; fi
exit $status
