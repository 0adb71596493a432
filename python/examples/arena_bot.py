#!/usr/bin/env python3
"""arena_bot.py — a Python bot that plays in `asobi arena` and `asobi sim` as an external bot.

    asobi arena psycle --bots "exec:cmd=python3 python/examples/arena_bot.py,random" --games 40

The arena starts this program once per seat per game (or once for many
games with exec:...,reuse=1) and speaks JSON lines on its stdin/stdout
(docs/protocol.md, "External bots"). Every request carries an "id" that the
reply repeats: {"cmd":"hello","id":0} first, answered {"ok":true,"id":0};
{"cmd":"new",...} as each game begins; for each decision a {"cmd":"choose",
"view", "legal", "log", ...} line, answered with {"ok":true,"id":N,
"action":{"id":A}} or "action":"text"; at the end of a game
{"cmd":"over","result":...}, and {"cmd":"quit"} at the end. The bot sees only its
seat's view, the legal actions and the public log: nothing else is sent.
It needs no binding, only the standard library. Diagnostics go to stderr
(stdout is the protocol)."""
import json
import random
import sys


def choose(view, legal, rng):
    """An action (its id) from legal, [{"id","text"}], given the seat's view.
    In PSYCLE it plays the round's target number when it still holds that
    card (the bonus tile pays only for it), else a random card; in every
    other game a random legal action. Replace with your own policy."""
    if view.get("game") == "psycle" and "target" in view:
        target = "play %d" % view["target"]
        for action in legal:
            if action["text"] == target:
                return action["id"]
    return rng.choice(legal)["id"]


def reply(request, **fields):
    """Answer request: one line on stdout that repeats its id (lines that
    do not are skipped by the arena and counted as stray)."""
    print(json.dumps({"ok": True, "id": request["id"], **fields}), flush=True)


def main():
    rng = None
    for line in sys.stdin:
        request = json.loads(line)
        if request["cmd"] == "hello":
            reply(request, name="arena_bot.py")
        elif request["cmd"] == "new":  # a reproducible game, even in a reused program
            rng = random.Random(request["game"] * 8 + request["seat"])
        elif request["cmd"] == "choose":
            action = choose(request["view"], request["legal"], rng)
            reply(request, action={"id": action})
        elif request["cmd"] == "over":
            pass  # request["result"]: {"terminal","scores","ranks","winners"}
        elif request["cmd"] == "quit":
            break


if __name__ == "__main__":
    main()
