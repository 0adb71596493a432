#!/usr/bin/env bash
# serve.sh — sets everything up (Debian packages, build), then starts the game server `asobi serve`.
# Extra arguments go to `asobi serve` (e.g. --port 9000, --db games.db, --host 0.0.0.0 to let others in).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
echo "serve.sh: open the address printed below in a browser to play (the lobby is at /)" >&2
exec build/asobi serve "$@"
