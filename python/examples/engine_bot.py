#!/usr/bin/env python3
"""engine_bot.py — a Python bot playing against asobi's C bots through the engine protocol (`asobi engine`).

    python3 python/examples/engine_bot.py [GAME] [--games N] [--players P] [--opponent SPEC] [--asobi PATH]

The Python bot holds seat k of game k (rotating), the engine's bot (`suggest`
with --opponent, default ismcts:iters=500) every other seat. The Python side
sees only what the protocol gives its seat: `view` and `legal` for its seat.
This needs no binding at all, only the `asobi` command: any program in any
language can do the same (docs/protocol.md).

To seat a Python bot in `asobi arena` itself instead, see arena_bot.py
(the bot spec exec:cmd=COMMAND)."""
import argparse
import json
import math
import os
import random
import subprocess
import sys


class Engine:
    """One `asobi engine` process: a request per line, a reply per line."""

    def __init__(self, binary):
        self.proc = subprocess.Popen([binary, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def ask(self, **request):
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        if not reply["ok"]:
            raise RuntimeError("%s: %s" % (reply["error"]["code"], reply["error"]["message"]))
        return reply

    def close(self):
        self.ask(cmd="quit")
        self.proc.wait()


class PythonBot:
    """The bot written in Python: replace choose() with your own policy.
    This one plays a uniformly random legal action, except in PSYCLE, where
    it plays the round's target number when it still holds that card (the
    bonus tile pays only for it), else a random card."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, view, legal):
        """An action (its text) from legal, [{"id","text"}], given the seat's view."""
        if view["game"] == "psycle":
            target = "play %d" % view["target"]
            if any(a["text"] == target for a in legal):
                return target
        return self.rng.choice(legal)["text"]


def play_one(engine, bot, game, players, seat, opponent, seed):
    """One game; the Python bot's rank (1 is best) and whether it won."""
    reply = engine.ask(cmd="new", game=game, players=players, seed=seed)
    while not reply["terminal"]:
        # The first seat listed acts, then the list is asked again: several
        # may be listed at once (PSYCLE: each commits face down, the round
        # resolves after the last; THE OCTAL: the seat that forgot to call
        # Octo! may still do so while the next seat plays, and that play
        # closes its chance).
        s = reply["to_move"][0]
        if s == seat:
            view = engine.ask(cmd="view", seat=seat)["view"]
            action = bot.choose(view, engine.ask(cmd="legal", seat=seat)["actions"])
        else:
            action = engine.ask(cmd="suggest", seat=s, bot=opponent, seed=seed * 31 + s)["action"]
        reply = engine.ask(cmd="act", seat=s, action=action)
    result = engine.ask(cmd="result")
    return result["ranks"][seat], seat in result["winners"]


def find_asobi():
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (os.environ.get("ASOBI_BINARY"), os.path.join(here, "..", "..", "build", "asobi")):
        if path and os.path.exists(path):
            return path
    sys.exit("engine_bot: no asobi binary (build it with scripts/setup.sh, or pass --asobi PATH)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="psycle")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponent", default="ismcts:iters=500")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--asobi", default=None)
    args = ap.parse_args()
    engine = Engine(args.asobi or find_asobi())
    bot = PythonBot(args.seed)
    wins = 0
    for g in range(args.games):
        seat = g % args.players
        rank, won = play_one(engine, bot, args.game, args.players, seat, args.opponent, args.seed + g)
        wins += won
        print("game %d: the Python bot at seat %d ranks %d%s" % (g + 1, seat, rank, " (wins)" if won else ""))
    engine.close()
    # The 95% Wilson interval of the win rate, as `asobi sim` prints it.
    n, p, z = args.games, wins / args.games, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    print("the Python bot won %d of %d against %s: %.0f%% (95%% interval %.0f-%.0f%%)"
          % (wins, n, args.opponent, 100 * p, 100 * (centre - half), 100 * (centre + half)))


if __name__ == "__main__":
    main()
