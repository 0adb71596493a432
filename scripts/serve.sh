#!/usr/bin/env bash
# serve.sh — sets everything up (Debian packages, build), then starts the game server `asobi serve`.
# Extra arguments go to `asobi serve` (e.g. --port 9000, --db games.db, --host 0.0.0.0 to let others in).
set -euo pipefail
cd "$(dirname "$0")/.."
# ASOBI_BUILD_DIR: another build folder (the tests use theirs)
build=${ASOBI_BUILD_DIR:-build}
echo "serve.sh: checking the packages and building the server (the first time takes a minute or two)" >&2
ASOBI_TARGET=asobi scripts/setup.sh "$build"
echo "serve.sh: open the address printed below in a browser to play (the lobby is at /)" >&2
exec "$build/asobi" serve "$@"
