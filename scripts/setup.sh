#!/usr/bin/env bash
# setup.sh — installs the Debian packages asobi needs (only the missing ones) and builds it.
# Usage: scripts/setup.sh [BUILD_DIR [extra cmake args...]]   (default build dir: build)
# ASOBI_TARGET=NAME builds that target only (serve.sh and play.sh: asobi), not the tests and benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libjansson-dev libcmocka-dev libwebsockets-dev libwebsockets-evlib-ev libwebsockets-evlib-uv libsqlite3-dev libpq-dev postgresql libssl-dev libargon2-dev
          python3 python3-websockets python3-numpy chromium fonts-ipafont-gothic zbar-tools nginx ccache)
# the fuzz targets (scripts/fuzz.sh) need clang and its libFuzzer runtime: wanted with ASOBI_FUZZ=1 or in CI
if [ "${ASOBI_FUZZ:-}" = 1 ] || [ "${CI:-}" = true ]; then packages+=(clang libclang-rt-14-dev); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node and npm (the browser tests' runner): a machine may already have them from another packaging of
# Node.js whose nodejs package conflicts with Debian's npm, so ask for the commands, not the packages.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  if [ "$(id -u)" -eq 0 ]; then SUDO=(); elif command -v sudo >/dev/null; then SUDO=(sudo); else
    echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The tests' npm packages, pinned in package-lock.json: playwright-core and axe-core for the browser tests (playwright
# drives Debian's chromium, so no browser is downloaded and no install script runs), and openskill, the reference
# implementation that test_rating checks the Weng-Lin ratings against.
if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ] || [ ! -d node_modules/openskill ]; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --no-audit --no-fund >/dev/null
fi

build_dir=${1:-build}
shift || true
jobs=$(nproc 2>/dev/null || echo 2)
target=${ASOBI_TARGET:-}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
# A first build takes minutes: say what is built, show CMake's progress on one line while it runs (on a
# terminal), and how long it took. Nothing to do is said in one line.
echo "setup: building ${target:-everything} in $build_dir/ ($jobs jobs)..." >&2
started=$SECONDS
progress() {   # CMake's "[ 42%] Building C object ..." lines, each over the last, cut to the terminal's width
  if [ -t 2 ]; then
    local width line
    width=$(tput cols 2>/dev/null || echo 80)
    while IFS= read -r line; do
      [[ $line == "["*"%]"* ]] && printf '\r\033[K%s' "${line:0:$((width - 1))}" >&2
    done
    printf '\r\033[K' >&2
  else
    cat >/dev/null
  fi
}
cmake --build "$build_dir" -j "$jobs" ${target:+--target "$target"} | progress
echo "setup: $build_dir/ is built (${target:-everything}, $((SECONDS - started)) s)" >&2
