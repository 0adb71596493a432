#!/usr/bin/env bash
# play.sh — sets everything up, then starts a game of PSYCLE in the terminal against bots.
# Extra arguments go to `asobi play` (e.g. --players 4 --seed 7, or another game: scripts/play.sh octal).
set -euo pipefail
cd "$(dirname "$0")/.."
ASOBI_TARGET=asobi scripts/setup.sh build   # the asobi command only, not the tests
game=psycle
if [ $# -gt 0 ] && [[ "$1" != -* ]]; then game=$1; shift; fi
if [ "$game" = psycle ] && [[ " $* " != *" --players "* ]]; then set -- --players 3 "$@"; fi
exec build/asobi play "$game" "$@"
