#!/usr/bin/env bash
# fuzz.sh — builds the libFuzzer targets (clang, ASan+UBSan) into build-fuzz/ and explores each for SECONDS (one per core at a time).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (default 60 s each; targets: every fuzz/fuzz_TARGET.c)
# Each target starts from fuzz/corpus/TARGET/ (read only) and keeps what it finds in build-fuzz/corpus/TARGET/;
# a crash leaves its input in build-fuzz/crashes/TARGET/ and makes the script fail. To keep a crash as a
# regression case: minimize it (build-fuzz/fuzz/fuzz_TARGET -minimize_crash=1 -runs=10000 FILE), fix the
# bug, and copy the minimized input to fuzz/corpus/TARGET/regress-WHAT (the corpus replay test runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then # every fuzz/fuzz_NAME.c
  for f in fuzz/fuzz_*.c; do t=${f#fuzz/fuzz_}; targets+=("${t%.c}"); done
fi

if ! command -v clang >/dev/null; then
  echo "fuzz: clang is needed (scripts/setup.sh installs it with ASOBI_FUZZ=1)" >&2
  exit 1
fi
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DASOBI_FUZZ=ON -DASOBI_TESTS=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc 2>/dev/null || echo 2)" --target $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null

# ASan's memory for exploring: a smaller quarantine of freed blocks (32 MB; a use after free is still caught
# within it), nothing handed back to the system between inputs, no fill of fresh blocks. Measured on the
# http_api corpus (668 inputs): 30-32 s and 640 MB by default, 20-23 s and 90 MB so; under load the default's
# madvise calls made single inputs pass the timeout.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=32:allocator_release_to_os_interval_ms=-1:max_malloc_fill_size=0}

# One target per core at a time (each libFuzzer process is single-threaded); each says how it went when done.
explore() {
  local t=$1 bin=build-fuzz/fuzz/fuzz_$1 dict=() status=0
  mkdir -p "build-fuzz/corpus/$t" "build-fuzz/crashes/$t"
  [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="fuzz/dict/$t.dict")
  echo "fuzz: $t for ${seconds}s" >&2
  # new inputs go to the first folder (the work corpus); fuzz/corpus/$t only seeds it
  if ! "$bin" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
      "${dict[@]}" -artifact_prefix="build-fuzz/crashes/$t/" "build-fuzz/corpus/$t" "fuzz/corpus/$t" \
      > "build-fuzz/$t.log" 2>&1; then
    echo "fuzz: $t FAILED: see build-fuzz/$t.log and build-fuzz/crashes/$t/" >&2
    # what failed, where CI shows it: the property or sanitizer report, and the input
    grep -v -E '^(#[0-9]+|INFO:|\s+NEW_FUNC)' "build-fuzz/$t.log" | head -40 | sed "s/^/fuzz: $t: /" >&2
    for crash in "build-fuzz/crashes/$t"/*; do
      [ -f "$crash" ] && head -c 2000 "$crash" | cat -v | sed "s/^/fuzz: $t: input: /" >&2
    done
    status=1
  fi
  # the last status line: executions, coverage (cov) and features (ft)
  grep -E '^#[0-9]+' "build-fuzz/$t.log" | tail -1 | sed "s/^/fuzz: $t: /" >&2
  grep -E '^stat::number_of_executed_units' "build-fuzz/$t.log" | sed "s/^/fuzz: $t: /" >&2 || true
  return $status
}
for t in "${targets[@]}"; do
  [ -x "build-fuzz/fuzz/fuzz_$t" ] || { echo "fuzz: no target $t" >&2; exit 2; }
done
status=0 running=0 at_once=$(nproc 2>/dev/null || echo 2)
for t in "${targets[@]}"; do
  if ((running == at_once)); then wait -n || status=1; running=$((running - 1)); fi
  explore "$t" &
  running=$((running + 1))
done
while ((running > 0)); do wait -n || status=1; running=$((running - 1)); done
exit $status
