#!/usr/bin/python3
# test_ratings_failover.py — a rated game's ratings change exactly once when its owner node is killed -9 at the last move (issue 42): two nodes on a throwaway PostgreSQL, the other node takes the table over and finishes it.
#
# Usage: python3 test_ratings_failover.py PATH/TO/asobi   (CTest runs it; every wait has a timeout)
import asyncio
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from serve_client import Client, Server, play_randomly, run_tests  # noqa: E402
from test_ratings_api import check, sign_up  # noqa: E402

import websockets  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ASOBI_BINARY", "build/asobi")
SEED = 5
NAMES = ("Aoi", "Ben", "Chie")


def newest(client):
    """The newest log index this client has been told of (-1: none)."""
    return max((e["index"] for m in client.received if m.get("type") == "update" for e in m["log"]), default=-1)


async def connect_all(srv, t, tokens):
    clients = []
    for tok in tokens:
        cl = await Client(srv, t, tok).connect()
        await cl.until(lambda m: m["type"] == "update")
        clients.append(cl)
    return clients


async def step(clients, wait=True):
    """One move, the same whoever runs it: the first seat (by seat order) with legal actions plays its first.
    With wait, until every seat was told of it. False: the game is over."""
    mover = next((c for c in clients if c.last["status"] != "over" and c.last["legal"]), None)
    if mover is None:
        return False
    seen = max(newest(c) for c in clients)
    await mover.send({"type": "act", "action": mover.last["legal"][0]["id"], "id": seen + 2})
    if wait:
        for c in clients:
            while newest(c) <= seen:
                msg = await c.recv(30)
                check(msg["type"] != "error", "a move refused", msg)
    return True


async def moves_to_the_end(srv, t, tokens):
    """How many steps this seed's game takes, played by step() (a rehearsal on an unrated table)."""
    clients = await connect_all(srv, t, tokens)
    n = 0
    while await step(clients):
        n += 1
        check(n < 2000, "the rehearsal ends")
    for c in clients:
        await c.close()
    return n


def store_rows(uri, t):
    """Each account's rating-history rows for table t, and the table's status, read from the store itself."""
    out = subprocess.run(["psql", uri, "-At", "-c", "SELECT account, count(*) FROM asobi_rating_history"
                          " WHERE table_id = %d GROUP BY account ORDER BY account" % t],
                         capture_output=True, text=True, timeout=30, check=True).stdout.split()
    return [int(line.split("|")[1]) for line in out]


class Watcher:
    """A psql session of its own, asked again and again whether table t is finished in the store: a
    session, not a psql a time, so that the kill follows the commit within milliseconds."""

    def __init__(self, uri, t):
        self.t = t
        self.psql = subprocess.Popen(["psql", uri, "-qAt"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def finished(self):
        self.psql.stdin.write("SELECT finished FROM asobi_tables WHERE id = %d;\n" % self.t)
        self.psql.stdin.flush()
        return self.psql.stdout.readline().strip() == "1"

    def close(self):
        self.psql.stdin.close()
        self.psql.wait(timeout=10)


async def kill9_at_the_last_move(binary, when):
    """A rated 3-player PSYCLE table of three accounts on node a; a is killed -9 at its last move: the
    instant the move is sent (when "sent": before a could commit its finish), or the instant the store says
    the table finished (when "stored": right after the finish's commit). Node b takes the table over, and
    either finds it finished or is told the last move again and finishes it: every account's history has one
    row for the table, and its `games` counts it once, through b's API and in the store."""
    import pg_fixture
    pg_fixture.exit_on_signals()
    with pg_fixture.postgres() as uri:
        args = ["--workers", "1", "--lease", "3", "--allow-chosen-seeds", "--grace", "60"]
        a = Server(binary, db=uri, args=args + ["--node", "a"]).start()
        b = Server(binary, db=uri, args=args + ["--node", "b"]).start()
        try:
            cookies = [sign_up(a, n) for n in NAMES]
            # the rehearsal: the same seed, unrated, by guests, to learn which step is the last
            r = a.create(game="psycle", players=3, seed=SEED)
            n = await moves_to_the_end(a, r, [a.join(r, "G%d" % s, seat=s)["token"] for s in range(3)])
            status, made = a.request("POST", "/api/tables", {"game": "psycle", "players": 3, "rated": True,
                                                             "seed": SEED}, headers=cookies[0])
            check(status == 201, status, made)
            t = made["table"]
            tokens = []
            for s, who in enumerate(cookies):
                status, joined = a.request("POST", "/api/tables/%d/join" % t, {"seat": s}, headers=who)
                check(status == 200, status, joined)
                tokens.append(joined["token"])
            clients = await connect_all(a, t, tokens)
            for _ in range(n - 1):
                check(await step(clients), "the rated game is the rehearsal's")
            check(all(c.last["status"] != "over" for c in clients), "one move is left")
            watcher = Watcher(uri, t) if when == "stored" else None
            if watcher:
                check(not watcher.finished(), "the table is not finished before its last move")
            await step(clients, wait=False)  # the last move, and at once (or at its commit):
            deadline = time.monotonic() + 30
            while watcher and not watcher.finished():
                check(time.monotonic() < deadline, "node a finished the table")
            a.kill9()
            if watcher:
                watcher.close()
            killed = time.monotonic()
            for c in clients:
                try:
                    await c.close()
                except Exception:
                    pass
            # node b takes the table (or finds it finished); a seat told there the game goes on plays it out
            while True:
                try:
                    status, summary = b.request("GET", "/api/tables/%d" % t)
                    if status == 200 and (summary.get("ws", "").startswith("ws://127.0.0.1:%d/" % b.port) or
                                          summary.get("status") == "over"):
                        break
                except (websockets.InvalidStatusCode, OSError):
                    pass
                check(time.monotonic() - killed < 30, "node b took the table")
                await asyncio.sleep(0.2)
            over_on_arrival = summary.get("status") == "over"
            if not over_on_arrival:
                clients = await connect_all(b, t, tokens)
                await asyncio.wait_for(asyncio.gather(*(play_randomly(c, random.Random(s))
                                                        for s, c in enumerate(clients))), 60)
                for c in clients:
                    await c.close()
            for name in NAMES:
                deadline = time.monotonic() + 20
                while True:
                    status, p = b.request("GET", "/api/players/" + name)
                    if status == 200 and p["ratings"].get("psycle"):
                        break
                    check(time.monotonic() < deadline, name, "rated on node b", status, p)
                    await asyncio.sleep(0.2)
                check(p["ratings"]["psycle"]["games"] == 1, name, "games counts the table once", p["ratings"])
                check([g["table"] for g in p["games"] if g["rated"]] == [t], name, p["games"])
                check([h["table"] for h in p["history"]["psycle"]] == [t], name, p["history"])
            rows = store_rows(uri, t)
            check(rows == [1, 1, 1], "one history row per account in the store", rows)
            return "%d moves; killed at the last (%s); %s on node b after %.1f s" % (
                n, when, "found finished" if over_on_arrival else "finished there", time.monotonic() - killed)
        finally:
            a.stop()
            b.stop()


async def test_a_kill9_as_the_last_move_is_sent_rates_once(binary):
    return await kill9_at_the_last_move(binary, "sent")


async def test_a_kill9_right_after_the_finish_commits_rates_once(binary):
    return await kill9_at_the_last_move(binary, "stored")


async def main():
    return 1 if await run_tests([(test_a_kill9_as_the_last_move_is_sent_rates_once, BINARY),
                                 (test_a_kill9_right_after_the_finish_commits_rates_once, BINARY)],
                                timeout=240) else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
