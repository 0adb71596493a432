#!/usr/bin/env bash
# serve_script.sh — scripts/serve.sh says what it does before it builds, builds only the asobi target, then serves.
# Usage: serve_script.sh PATH/TO/asobi   (CTest cli_serve_script; the binary's folder is the build folder used)
# cmake, apt-get and npm are stand-ins that record how they were called: nothing is built or installed here.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$(dirname "$1")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
for tool in cmake apt-get npm; do
  printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n' "$tool" "$tmp" >"$tmp/bin/$tool"
  chmod +x "$tmp/bin/$tool"
done
failed=0
check() { # check WHAT COMMAND...
  local what=$1; shift
  if ! "$@"; then echo "FAIL: $what" >&2; failed=1; fi
}

PATH="$tmp/bin:$PATH" ASOBI_BUILD_DIR="$build" "$repo/scripts/serve.sh" --help >"$tmp/out" 2>"$tmp/err"
check "serve.sh says what it does before building" grep -q "^serve.sh: .*building" "$tmp/err"
check "setup.sh says what it builds" grep -q "^setup: building asobi in $build/" "$tmp/err"
check "serve.sh builds the asobi target only" grep -q "^cmake --build $build -j [0-9]* --target asobi$" "$tmp/calls"
check "serve.sh then starts asobi serve with its arguments" grep -q "usage: asobi serve" "$tmp/out"
check "nothing is installed" bash -c "! grep -q '^apt-get' '$tmp/calls'"

# test.sh's way: every target (the tests, benchmarks, fuzz replays)
: >"$tmp/calls"
PATH="$tmp/bin:$PATH" "$repo/scripts/setup.sh" "$build" 2>"$tmp/err2"
check "setup.sh without ASOBI_TARGET builds everything" grep -q "^cmake --build $build -j [0-9]*$" "$tmp/calls"
check "and says so" grep -q "^setup: building everything in $build/" "$tmp/err2"
if [ $failed -ne 0 ]; then cat "$tmp/err" "$tmp/calls" >&2; exit 1; fi
echo "serve_script: ok"
