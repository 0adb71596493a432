#!/usr/bin/env python3
"""bench_playouts.py — random playouts through the Python state API: actions per second (median of runs).

    python3 python/examples/bench_playouts.py [GAME] [--players N] [--runs R] [--seconds S]

Compare with the C figure of `asobi bench GAME --players N` (its "no views" line). The rate is
per second of this process's CPU time (time.process_time), so that a machine shared with other
work still measures the binding; the wall-clock rate is printed too."""
import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import asobi  # noqa: E402


def run(name, players, seconds, seed):
    """Play random games for about `seconds` of CPU time; (actions, games, cpu, wall)."""
    rng = random.Random(seed)
    choice = rng.choice
    actions = games = 0
    wall = time.perf_counter()
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = asobi.new_game(name, players=players, seed=rng.getrandbits(32))
        while not state.is_terminal():
            for seat in state.current_players():
                state.apply(seat, choice(state.legal_actions(seat)))
                actions += 1
        games += 1
    return actions, games, time.process_time() - start, time.perf_counter() - wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="psycle")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    rates, game_rates, wall_rates = [], [], []
    for r in range(args.runs):
        actions, games, cpu, wall = run(args.game, args.players, args.seconds, r)
        rates.append(actions / cpu)
        game_rates.append(games / cpu)
        wall_rates.append(actions / wall)
    print("%s, %d players, Python state API: %.0f random playouts/s, %.0f actions/s per CPU second "
          "(median of %d runs of %gs; runs from %.0f to %.0f); %.0f actions per wall-clock second"
          % (args.game, args.players, statistics.median(game_rates), statistics.median(rates),
             args.runs, args.seconds, min(rates), max(rates), statistics.median(wall_rates)))


if __name__ == "__main__":
    main()
