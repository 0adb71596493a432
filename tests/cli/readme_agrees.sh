#!/usr/bin/env bash
# readme_agrees.sh — figures README.md states about the test scripts are the ones the scripts use.
# Usage: readme_agrees.sh [PATH_TO_ASOBI]   (run by CTest as cli_readme_agrees; the binary is not used)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
# the fuzz exploration in CI: README's "explores each target for N seconds" is scripts/test.sh's fuzz_seconds
script=$(sed -n 's/^fuzz_seconds=\([0-9][0-9]*\)$/\1/p' "$root/scripts/test.sh")
readme=$(tr '\n' ' ' <"$root/README.md" | grep -o 'explores each target for [0-9]* seconds' | grep -o '[0-9][0-9]*')
if [ -z "$script" ] || [ -z "$readme" ]; then
  echo "FAILED: fuzz seconds not found (scripts/test.sh: '${script}', README.md: '${readme}')" >&2; fail=1
elif [ "$script" != "$readme" ]; then
  echo "FAILED: README.md says $readme s of fuzz exploration per target, scripts/test.sh runs $script" >&2; fail=1
fi
[ "$fail" -eq 0 ] && echo "README.md agrees with scripts/test.sh"
exit "$fail"
