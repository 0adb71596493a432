#!/usr/bin/env bash
# sprt_example.sh — the example searching bot (python/examples/ismcts_exec_bot.py, flat Monte Carlo over samples) in a gauntlet with a sequential test against heuristic.
# Usage: scripts/sprt_example.sh [GAME] [MAX_GAMES]   (default ninja 400; build/asobi from scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:-ninja}
games=${2:-400}
# H0: the bot is no stronger than heuristic (0 Elo); H1: 50 Elo stronger; 5% error rates each way.
# The arena stops at the first game where the test decides; "undecided" when MAX_GAMES come first.
# Generous start-up and decision limits: on a loaded machine python3 alone can take seconds to start,
# and a missed handshake would forfeit every decision (the forfeits line says so: check it).
exec build/asobi arena "$game" --bots heuristic \
  --gauntlet "mc=exec:cmd=python3 python/examples/ismcts_exec_bot.py,samples=8,reuse=1,startup=120,timeout=60" \
  --sprt 0,50,0.05,0.05 --games "$games"
