#!/usr/bin/env python3
"""ismcts_exec_bot.py — a searching external bot: flat Monte Carlo over the samples that `asobi arena` sends.

    asobi arena psycle --bots "mc=exec:cmd=python3 python/examples/ismcts_exec_bot.py,samples=8,reuse=1,heuristic" --games 40

With exec:...,samples=K every choose request carries "samples": K states of
the whole game drawn for this bot's seat by the game's determinize, each
consistent with everything the seat knows (docs/protocol.md, "Samples").
For each legal action this bot plays it in every sample and finishes the
game with the library's random playouts (C speed, State.playout_returns),
and plays the action with the best mean return: determinized flat Monte
Carlo, the simplest information-set search. Replace choose() with ISMCTS or
anything else; loading a sample is asobi.State.load_sample(text).

Samples are signed by the arena (ASOBI_SAMPLE_KEY, which this process
inherits): a sample that was changed or made up does not load (bad_sample).
Requests carry an "id" that every answer repeats; stdout is the protocol,
diagnostics go to stderr."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import asobi  # noqa: E402

PLAYOUTS = int(os.environ.get("MC_PLAYOUTS", "4"))  # random playouts per action and sample
WARNED = []  # a refused sample is said once on stderr


def choose(request, seed):
    """The id of the legal action with the best mean return over the samples."""
    seat, legal = request["seat"], [a["id"] for a in request["legal"]]
    if len(legal) == 1 or not request.get("samples"):
        return legal[0]
    try:
        states = [asobi.State.load_sample(s) for s in request["samples"]]
    except asobi.AsobiError as refusal:
        # bad_sample: this binding is not the arena's build (or ASOBI_SAMPLE_KEY is not its key)
        if not WARNED:
            print("ismcts_exec_bot: %s: %s (playing the first legal action)" % (refusal.code, refusal),
                  file=sys.stderr)
            WARNED.append(True)
        return legal[0]
    best, best_value = legal[0], None
    for action in legal:
        total = 0.0
        for k, state in enumerate(states):
            after = state.clone()
            after.apply(seat, action)
            total += after.playout_returns(PLAYOUTS, seed * 7919 + k)[seat]
        if best_value is None or total > best_value:
            best, best_value = action, total
    return best


def main():
    seed = 0
    for line in sys.stdin:
        request = json.loads(line)
        cmd = request["cmd"]
        if cmd == "hello":
            print(json.dumps({"ok": True, "id": request["id"], "name": "flat Monte Carlo"}), flush=True)
        elif cmd == "new":
            seed = request["game"] * 8 + request["seat"]  # the same game plays the same way
        elif cmd == "choose":
            seed += 1
            action = choose(request, seed)
            print(json.dumps({"ok": True, "id": request["id"], "action": {"id": action}}), flush=True)
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
