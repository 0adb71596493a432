#!/usr/bin/python3
# test_undo.py — taking back over the real `asobi serve` (issue 44): {"type":"undo"}, "undo": true, every viewer's view back, the log's entry, refusals, and the take-back kept across kill -9 on SQLite and a failover on PostgreSQL.
#
# Usage: python3 test_undo.py PATH/TO/asobi   (CTest runs it; every wait has a timeout)
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from serve_client import Client, Server, run_tests  # noqa: E402

import websockets  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ASOBI_BINARY", "build/asobi")


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def newest(client):
    """The newest log index this client has been told of (-1: none)."""
    return max((e["index"] for m in client.received if m.get("type") == "update" for e in m["log"]), default=-1)


async def heard(clients, index):
    """Every client's updates until one tells it of log entry index."""
    for cl in clients:
        if newest(cl) < index:
            await cl.until(lambda m: m["type"] == "update" and any(e["index"] >= index for e in m["log"]))


def entry(update, index, kind):
    return next(e for e in update["log"] if e["index"] == index and e["kind"] == kind)


async def connect_all(srv, t, tokens):
    """A connection per seat (by its token) and a spectator's; each with its first update read."""
    seats = []
    for tok in tokens:
        cl = await Client(srv, t, tok).connect()
        await cl.until(lambda m: m["type"] == "update")
        seats.append(cl)
    spectator = await Client(srv, t).connect()
    await spectator.until(lambda m: m["type"] == "update")
    return seats, spectator


async def take_backs(seats, spectator, rng, want, chance=1.0):
    """Random moves by the seats to move; whenever the mover's update says "undo": true, it takes back (with
    the chance given; until want take-backs were made or the game is over). Checks each take-back: every viewer's view (and legal actions) is again the
    one before the action, byte for byte; each is told a log entry "undo" with the action's text as it was
    told it; nobody else's update offers "undo". Each refusal ("undo" absent) is undo_not_allowed and changes
    nothing. Returns (take-backs, refusals)."""
    everyone = seats + [spectator]
    made = refused = 0
    index = max(newest(cl) for cl in everyone)
    while made < want and seats[0].last["status"] == "playing":
        u = next((cl.last for cl in seats if cl.last["legal"]), None)
        check(u is not None, "someone is to move")
        seat = u["seat"]
        before = [json.dumps([cl.last["view"], cl.last["legal"]]) for cl in everyone]
        await seats[seat].send({"type": "act", "action": rng.choice(u["legal"])["id"]})
        index += 1
        await heard(everyone, index)
        for k, cl in enumerate(everyone):
            check(k == seat or "undo" not in cl.last or u["view"]["game"] == "psycle", "viewer", k,
                  "is offered a take-back of another's move")
        if seats[seat].last.get("undo") and rng.random() >= chance:
            continue
        if not seats[seat].last.get("undo"):
            await seats[seat].send({"type": "undo", "id": "u%d" % index})
            msg = await seats[seat].until(lambda m: m["type"] == "error")
            check(msg["id"] == "u%d" % index and msg["error"]["code"] == "undo_not_allowed" and msg["error"]["message"],
                  msg)
            refused += 1
            continue
        told = [entry(cl.last, index, "action")["text"] for cl in everyone]
        await seats[seat].send({"type": "undo"})
        index += 1
        await heard(everyone, index)
        made += 1
        for k, cl in enumerate(everyone):
            check(json.dumps([cl.last["view"], cl.last["legal"]]) == before[k], "viewer", k,
                  "is told another table after the take-back")
            e = entry(cl.last, index, "undo")
            check(e["seat"] == seat and e["by"] == "human" and e["text"] == told[k], "the take-back's entry", e,
                  told[k])
    # a spectator cannot take back
    await spectator.send({"type": "undo"})
    msg = await spectator.until(lambda m: m["type"] == "error")
    check(msg["error"]["code"] == "not_seated", msg)
    return made, refused


async def fresh_pictures(srv, t, tokens):
    """What fresh connections of every seat and a spectator are told first: (view, legal, log, undo) each."""
    seats, spectator = await connect_all(srv, t, tokens)
    pictures = [json.dumps([cl.last["view"], cl.last["legal"], cl.last["log"], cl.last.get("undo")])
                for cl in seats + [spectator]]
    for cl in seats + [spectator]:
        await cl.close()
    return pictures


def replays(record, workdir):
    path = os.path.join(workdir, "record.json")
    with open(path, "w") as f:
        json.dump(record, f)
    return subprocess.run([BINARY, "replay", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          timeout=60).returncode == 0


async def test_take_backs_in_every_game_that_has_them(binary):
    """Time Masters, NINJA and PSYCLE (a face-down choice withdrawn): take-backs and refusals as above."""
    srv = Server(binary, args=["--workers", "1", "--allow-chosen-seeds"]).start()
    figures = []
    try:
        for game, players, seed in (("timemasters", 2, 4), ("ninja", 3, 11), ("psycle", 3, 8)):
            t = srv.create(game=game, players=players, seed=seed)
            tokens = [srv.join(t, "P%d" % s, seat=s)["token"] for s in range(players)]
            seats, spectator = await connect_all(srv, t, tokens)
            made, refused = await take_backs(seats, spectator, random.Random(seed), 3)
            figures.append("%s: %d taken back, %d refused" % (game, made, refused))
            for cl in seats + [spectator]:
                await cl.close()
        status, metrics = srv.request("GET", "/metrics")
        check("asobi_takebacks_total 9" in metrics, "the take-backs are counted", metrics[-400:])
    finally:
        srv.stop()
    return "; ".join(figures)


async def test_a_take_back_outlives_kill9_and_the_record_replays(binary):
    """SQLite: a take-back heard by the seat is in the database (committed before anyone heard of it): after
    kill -9 and a restart every fresh connection is told the same table (views, legal actions, log, "undo").
    The game then plays to its end, taking back now and then; the record holds the actions not taken back
    and replays."""
    srv = Server(binary, args=["--workers", "1", "--allow-chosen-seeds"]).start()
    workdir = tempfile.mkdtemp(prefix="asobi-undo-")
    try:
        t = srv.create(game="psycle", players=2, seed=21, options={"max_cycles": 1})
        tokens = [srv.join(t, "P%d" % s, seat=s)["token"] for s in range(2)]
        seats, spectator = await connect_all(srv, t, tokens)
        await take_backs(seats, spectator, random.Random(3), 2)
        before = await fresh_pictures(srv, t, tokens)
        srv.kill9()
        srv.start()
        after = await fresh_pictures(srv, t, tokens)
        for k in range(3):
            check(after[k] == before[k], "viewer", k, "is told another table after kill -9:", after[k][:300], before[k][:300])
        seats, spectator = await connect_all(srv, t, tokens)
        made = 2 + (await take_backs(seats, spectator, random.Random(4), 10 ** 6, chance=0.5))[0]
        final = seats[0].last
        check(final["status"] == "over", final["status"])
        status, record = srv.request("GET", "/api/tables/%d/record" % t)
        check(status == 200, status, record)
        actions = sum(1 for e in seats[0].events.values())
        log = [e for m in seats[0].received if m.get("type") == "update" for e in m["log"] if e["kind"] == "undo"]
        check(len(record["actions"]) == actions - len({e["index"] for e in log}), "the record holds",
              len(record["actions"]), "actions of", actions, "made and", len(log), "taken back")
        check(replays(record, workdir), "the record replays")
        for cl in seats + [spectator]:
            await cl.close()
        return "%d taken back, record of %d actions, final %s" % (made, len(record["actions"]), final["status"])
    finally:
        srv.stop()


async def test_a_take_back_outlives_a_failover_on_postgresql(binary):
    """Two nodes on one PostgreSQL: a take-back on the owner, then kill -9 of the owner; the other node takes
    the table and tells every fresh connection the same table, take-back and all; the seat may take back
    again there if it could before."""
    import pg_fixture
    pg_fixture.exit_on_signals()
    with pg_fixture.postgres() as uri:
        args = ["--workers", "1", "--lease", "3", "--allow-chosen-seeds", "--grace", "30"]
        a = Server(binary, db=uri, args=args + ["--node", "a"]).start()
        b = Server(binary, db=uri, args=args + ["--node", "b"]).start()
        try:
            t = a.create(game="ninja", players=3, seed=11)
            tokens = [a.join(t, "P%d" % s, seat=s)["token"] for s in range(3)]
            seats, spectator = await connect_all(a, t, tokens)
            await take_backs(seats, spectator, random.Random(11), 2)
            before = await fresh_pictures(a, t, tokens)
            a.kill9()
            killed = time.monotonic()
            while True:
                try:
                    status, summary = b.request("GET", "/api/tables/%d" % t)
                    if status == 200 and summary.get("ws", "").startswith("ws://127.0.0.1:%d/" % b.port):
                        after = await fresh_pictures(b, t, tokens)
                        break
                except (websockets.InvalidStatusCode, OSError):
                    pass
                check(time.monotonic() - killed < 20, "node b took the table")
                await asyncio.sleep(0.2)
            for k in range(4):
                check(after[k] == before[k], "viewer", k, "is told another table after the failover")
            seats, spectator = await connect_all(b, t, tokens)
            made, refused = await take_backs(seats, spectator, random.Random(12), 2)
            for cl in seats + [spectator]:
                await cl.close()
            return "taken over %.1f s after the kill; %d more taken back there" % (time.monotonic() - killed, made)
        finally:
            b.stop()


async def main():
    return 1 if await run_tests([
        (test_take_backs_in_every_game_that_has_them, BINARY),
        (test_a_take_back_outlives_kill9_and_the_record_replays, BINARY),
        (test_a_take_back_outlives_a_failover_on_postgresql, BINARY),
    ], timeout=240) else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
