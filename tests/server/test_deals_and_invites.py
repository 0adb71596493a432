# test_deals_and_invites.py — issue 31's attacks on deals and seats, played against the real `asobi serve`: fresh seeds that invert to nothing, seeds a client may not choose, private tables.
#
# Usage: python3 test_deals_and_invites.py PATH/TO/asobi   (CTest runs it; every wait has a timeout)
import asyncio
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_client import Client, Server, run_tests  # noqa: E402

import websockets  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ASOBI_BINARY", "build/asobi")
M64 = (1 << 64) - 1


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


# ---------------------------------------------------------------------------
# The attack of issue 31.1: the old fresh seed, x = sec * 1000000007 ^ nsec ^ pid << 32, went through
# splitmix64 and xoshiro256**'s output (both invertible) and was shifted right once. From one finished
# table's record this gives x back, hence the server's pid and the nanosecond the table was made.
# ---------------------------------------------------------------------------
def inverse(a):
    x = a
    for _ in range(6):
        x = (x * (2 - a * x)) & M64
    return x


def unshift(y, k):
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x >> k)
    return x


def rotr(x, k):
    return ((x >> k) | (x << (64 - k))) & M64


def old_formula_inputs(seed):
    """Both x the old formula could have turned into this seed."""
    for low in (0, 1):
        r = (seed << 1 | low) & M64
        s1 = (rotr((r * inverse(9)) & M64, 7) * inverse(5)) & M64
        z = (unshift(s1, 31) * inverse(0x94d049bb133111eb)) & M64
        z = (unshift(z, 27) * inverse(0xbf58476d1ce4e5b9)) & M64
        z = unshift(z, 30)
        yield (z - 2 * 0x9e3779b97f4a7c15) & M64


def gives_pid_and_time(seed, pid, created):
    for x in old_formula_inputs(seed):
        for sec in range(created - 10, created + 11):
            rest = x ^ ((sec * 1000000007) & M64)
            if rest >> 32 == pid and rest & 0xffffffff < 1000000000:
                return True
    return False


def wait_over(srv, table, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        status, body = srv.request("GET", "/api/tables/%d" % table)
        if body["status"] == "over":
            return body
        time.sleep(0.05)
    raise AssertionError("table %d did not finish" % table)


async def test_fresh_seeds_say_nothing_of_the_server(binary):
    """All-bot tables made one after the other: each finished table's record gives its seed, and no seed
    inverts to the server's pid and the second the table was made; the seeds are all different. A client's
    own seed is refused (seed_not_allowed) by a server without --allow-chosen-seeds, and makes no table."""
    # eight all-bot tables made at once: above the default limit per address (docs/server.md, "Limits")
    srv = Server(binary, args=["--workers", "1", "--max-bot-tables-per-address", "0"]).start()
    try:
        status, body = srv.request("POST", "/api/tables", {"game": "ninja", "players": 2, "seed": 42,
                                                           "bots": ["random", "random"]})
        check(status == 400 and body["error"]["code"] == "seed_not_allowed", status, body)
        status, listed = srv.request("GET", "/api/tables")
        check(listed["tables"] == [], "a refused table was made", listed)
        tables = [srv.create(game="psycle", players=2, bots=["random", "random"]) for _ in range(8)]
        seeds = []
        for t in tables:
            summary = wait_over(srv, t)
            check("seed_chosen" not in summary, summary)
            status, record = srv.request("GET", "/api/tables/%d/record" % t)
            check(status == 200, status, record)
            seed = record["seed"]
            check(0 <= seed < 1 << 63, seed)
            check(not gives_pid_and_time(seed, srv.proc.pid, summary["created"]),
                  "table %d's seed %d gives the server's pid %d and its time" % (t, seed, srv.proc.pid))
            seeds.append(seed)
        check(len(set(seeds)) == len(seeds), seeds)
    finally:
        srv.stop()


async def test_a_chosen_seed_is_told_to_everyone(binary):
    """With --allow-chosen-seeds the seed is taken, and the table says so: its summary, the lobby's list
    (HTTP and /ws/lobby) and every update, a seat's and a spectator's. A table of the server's seed does
    not."""
    srv = Server(binary, args=["--workers", "1", "--allow-chosen-seeds"]).start()
    try:
        lobby = await websockets.connect("ws://127.0.0.1:%d/ws/lobby" % srv.port, close_timeout=2)
        await asyncio.wait_for(lobby.recv(), 10)
        t = srv.create(game="ninja", players=2, seed=42)
        plain = srv.create(game="ninja", players=2)
        status, summary = srv.request("GET", "/api/tables/%d" % t)
        check(summary.get("seed_chosen") is True, summary)
        status, listed = srv.request("GET", "/api/tables")
        by_id = {x["table"]: x for x in listed["tables"]}
        check(by_id[t].get("seed_chosen") is True and "seed_chosen" not in by_id[plain], listed)
        while True:
            msg = json.loads(await asyncio.wait_for(lobby.recv(), 10))
            entry = {x["table"]: x for x in msg["tables"]}
            if t in entry and plain in entry:
                break
        check(entry[t].get("seed_chosen") is True and "seed_chosen" not in entry[plain], msg)
        await lobby.close()
        a = srv.join(t, "Aki")
        seat = await Client(srv, t, a["token"]).connect()
        watcher = await Client(srv, t).connect()
        for c in (seat, watcher):
            u = await c.until(lambda m: m["type"] == "update")
            check(u.get("seed_chosen") is True, u)
            await c.close()
        other = await Client(srv, plain).connect()
        u = await other.until(lambda m: m["type"] == "update")
        check("seed_chosen" not in u, u)
        await other.close()
    finally:
        srv.stop()


async def test_a_private_table_keeps_strangers_out(binary):
    """Issue 31.9, the attack: a stranger reads the lobby and sits in a friend's free seat. A private table
    is in no list (HTTP or /ws/lobby); its seats open with their invite codes only (invite_required without
    one, bad_invite with a wrong one); after a restart it is still private, with the same codes."""
    srv = Server(binary, args=["--workers", "1"]).start()
    again = None
    try:
        lobby = await websockets.connect("ws://127.0.0.1:%d/ws/lobby" % srv.port, close_timeout=2)
        await asyncio.wait_for(lobby.recv(), 10)
        status, made = srv.request("POST", "/api/tables", {"game": "octal", "players": 3, "private": True,
                                                           "bots": [None, None, "random"]})
        check(status == 201 and len(made["invites"]) == 3 and made["invites"][2] is None, status, made)
        t, codes = made["table"], made["invites"]
        marker = srv.create(game="psycle", players=2)  # a public table made after it: the lobby has heard both
        while True:
            msg = json.loads(await asyncio.wait_for(lobby.recv(), 10))
            ids = [x["table"] for x in msg["tables"]]
            if marker in ids:
                break
        check(t not in ids, "the lobby's socket lists the private table", ids)
        await lobby.close()
        status, listed = srv.request("GET", "/api/tables")
        check(t not in [x["table"] for x in listed["tables"]], listed)
        for body, want in [({"name": "Eve"}, (403, "invite_required")),
                           ({"name": "Eve", "seat": 0}, (403, "invite_required")),
                           ({"name": "Eve", "invite": "0" * 32}, (403, "bad_invite")),
                           ({"name": "Eve", "seat": 1, "invite": codes[0]}, (403, "bad_invite"))]:
            status, body = srv.request("POST", "/api/tables/%d/join" % t, body)
            check((status, body["error"]["code"]) == want, status, body)
        status, joined = srv.request("POST", "/api/tables/%d/join" % t, {"name": "Aki", "invite": codes[0]})
        check(status == 200 and joined["seat"] == 0, status, joined)
        status, summary = srv.request("GET", "/api/tables/%d?code=%s" % (t, made["watch"]))
        check(summary.get("private") is True and summary["status"] == "open", summary)
        seat = await Client(srv, t, joined["token"]).connect()
        u = await seat.until(lambda m: m["type"] == "update")
        check(u.get("private") is True, u)
        await seat.close()
        srv.stop(remove=False)
        again = Server(binary, db=srv.db, args=["--workers", "1"]).start()
        status, listed = again.request("GET", "/api/tables")
        check(t not in [x["table"] for x in listed["tables"]], "listed after a restart", listed)
        status, body = again.request("POST", "/api/tables/%d/join" % t, {"name": "Eve"})
        check(status == 403 and body["error"]["code"] == "invite_required", status, body)
        status, body = again.request("POST", "/api/tables/%d/join" % t, {"name": "Ben", "invite": codes[1]})
        check(status == 200 and body["seat"] == 1, status, body)
        status, summary = again.request("GET", "/api/tables/%d?code=%s" % (t, made["watch"]))
        check(summary["status"] == "playing", summary)
    finally:
        srv.stop_with(again)


async def main():
    tests = [test_fresh_seeds_say_nothing_of_the_server, test_a_chosen_seed_is_told_to_everyone,
             test_a_private_table_keeps_strangers_out]
    return 1 if await run_tests([(fn, BINARY) for fn in tests], timeout=120) else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
