#!/usr/bin/env python3
"""bench_env.py — the AEC environment's steps per second with random masked actions, per game (median of runs).

    python3 python/examples/bench_env.py [GAME...] [--runs R] [--seconds S]

Each step is what a PettingZoo training loop does: env.last() (the observation
with its action mask), a random action drawn from the mask by the action
space's sample(mask), env.step(action). Per second of this process's CPU time."""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.environ.get("ASOBI_PYTHON_PATH", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")))
import asobi  # noqa: E402


def run(name, seconds, seed):
    env = asobi.env(name, seed=seed)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset()
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                action = env.action_space(agent).sample(observation["action_mask"])
            env.step(action)
            steps += 1
    return steps / (time.process_time() - start)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()
    for name in args.games or asobi.games():
        rates = [run(name, args.seconds, r) for r in range(args.runs)]
        print("%s: %.0f AEC steps/s (median of %d runs of %gs CPU; %.0f-%.0f)"
              % (name, statistics.median(rates), args.runs, args.seconds, min(rates), max(rates)))


if __name__ == "__main__":
    main()
