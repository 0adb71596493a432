# test_fair_bots.py — `asobi serve`'s bot workers shared by client address (issue 39, point 1): quick play from one address beside another person's bot; the caps on slow-bot tables and bot seconds.
#
# Usage: python3 test_fair_bots.py PATH/TO/asobi   (CTest runs it; every wait is bounded)
# Clients bind other loopback addresses (127.0.0.2, ...) to stand for other people; the server listens on 127.0.0.1.
import asyncio
import json
import os
import random
import signal
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_client import Server, run_tests  # noqa: E402
from test_limits import check, create, join, metric, request, ws  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ASOBI_BINARY", "build/asobi")
signal.alarm(280)  # the whole file, whatever happens

ATTACKER, VICTIM = "127.0.0.2", "127.0.0.3"
SLOW = "ismcts:time=2"


async def play_along(sock, stop):
    """A person who plays a random legal move whenever it is their turn, until stop is set."""
    rng = random.Random(1)
    try:
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(sock.recv(), 0.5))
            except asyncio.TimeoutError:
                continue
            if msg.get("type") == "update" and msg["legal"] and msg["status"] == "playing":
                await sock.send(json.dumps({"type": "act", "action": rng.choice(msg["legal"])["id"]}))
    except Exception:  # the server closed it as the test ends
        pass


async def answer_times(srv, moves, limit):
    """The victim's table (ninja, the victim and one random bot): for each of its moves, the seconds until the
    bot has answered and it is the victim's turn again; a wait past `limit` seconds ends it (that one counted)."""
    table = create(srv, VICTIM, game="ninja", players=2, bots=[None, "random"])
    seat = join(srv, table, "victim", source=VICTIM)
    sock = await ws(srv, table, seat["token"], source=VICTIM)
    times, rng = [], random.Random(2)
    try:
        msg = {}
        while len(times) < moves:
            if msg.get("type") != "update" or msg["status"] != "playing" or not msg["legal"]:
                msg = json.loads(await asyncio.wait_for(sock.recv(), limit + 5))
                continue
            await sock.send(json.dumps({"type": "act", "action": rng.choice(msg["legal"])["id"]}))
            sent = time.monotonic()
            while True:  # until it is our turn again (the bot moved) or the game is over
                left = limit - (time.monotonic() - sent)
                try:
                    msg = json.loads(await asyncio.wait_for(sock.recv(), max(0.05, left)))
                except asyncio.TimeoutError:
                    times.append(time.monotonic() - sent)
                    return times
                if msg.get("type") == "update" and (msg["status"] != "playing" or msg["legal"]):
                    break
            times.append(time.monotonic() - sent)
            if msg["status"] != "playing":
                break
    finally:
        await sock.close()
    return times


async def test_quick_play_beside_another_persons_bot():
    """One address makes 60 quick-play tables (a person who plays along and three `ismcts:time=2` bots each:
    the issue's attack, with the cap on such tables lifted); another address's `random` bot still answers
    within 3 s (it answered after 60 s when the workers were shared by table only). Two workers: the
    attacker holds one at most."""
    srv = Server(BINARY, args=["--workers", "2", "--max-slow-bot-tables-per-address", "0"]).start()
    stop = asyncio.Event()
    players = []
    try:
        tables = [create(srv, ATTACKER, game="ninja", players=4, bots=[None, SLOW, SLOW, SLOW])
                  for _ in range(60)]
        for t in tables:
            seat = join(srv, t, "attacker", source=ATTACKER)
            sock = await ws(srv, t, seat["token"], source=ATTACKER)
            players.append((sock, asyncio.ensure_future(play_along(sock, stop))))
        await asyncio.sleep(3)  # the attacker's bots hold the workers they may
        # alone, the attacker's bots use one worker of two: 8 s of bot time in 8 s, give or take a move
        # (both workers would give 16)
        before = metric(srv, "asobi_bot_move_seconds_sum")
        await asyncio.sleep(8)
        spent = metric(srv, "asobi_bot_move_seconds_sum") - before
        check(spent < 12, "one address's bots held more than one worker of two:", spent, "s of bot time in 8 s")
        times = await answer_times(srv, 5, 10)
        check(times and max(times) < 3, "another address's random bot answered after", times, "s")
        return "the victim's random bot beside 60 tables: median %.3f s, most %.3f s over %d moves; " \
            "the attacker's bots: %.1f s of bot time in 8 s" % (statistics.median(times), max(times), len(times), spent)
    finally:
        stop.set()
        for sock, task in players:
            await sock.close()
            await task
        srv.stop()


async def test_slow_bot_tables_per_address():
    """A family plays 4 tables against searching bots at once, untouched; an address may keep
    --max-slow-bot-tables-per-address (8 by default) unfinished tables with a searching bot: the next is
    refused (429 too_many_bot_tables with Retry-After), while tables with quick bots and another address's
    stay free."""
    srv = Server(BINARY, args=["--workers", "1"]).start()
    try:
        for _ in range(8):
            create(srv, ATTACKER, game="ninja", players=2, bots=[None, "ismcts:iters=50"])
        status, r, reply = request(srv, "POST", "/api/tables", {"game": "ninja", "players": 2,
                                                                 "bots": [None, "ismcts:iters=50"]}, source=ATTACKER)
        check(status == 429 and reply["error"]["code"] == "too_many_bot_tables" and r.getheader("retry-after"),
              "the 9th table with a searching bot:", status, reply)
        check("--max-slow-bot-tables-per-address" in reply["error"]["message"], reply)
        create(srv, ATTACKER, game="ninja", players=2, bots=[None, "random"])  # quick bots: not counted
        for _ in range(4):  # a family: 4 tables against strong bots
            create(srv, VICTIM, game="ninja", players=3, bots=[None, "ismcts:iters=50", "ismcts:iters=50"])
        text = request(srv, "GET", "/metrics")[2]
        check('asobi_limited_total{limit="slow_bot_tables_per_address"} 1' in text, "not counted:", text[-800:])
    finally:
        srv.stop()


async def test_bot_seconds_per_minute():
    """An address's bots spend at most --bot-seconds-per-minute-per-address of worker time (a burst of one
    minute's worth): past it, its table's bot moves wait, while another address's bot answers at once."""
    srv = Server(BINARY, args=["--workers", "2", "--bot-seconds-per-minute-per-address", "1",
                               "--bot-table-pace", "0"]).start()
    try:
        table = create(srv, ATTACKER, game="ninja", players=2, bots=["ismcts:time=0.4", "ismcts:time=0.4"])
        await asyncio.sleep(6)
        played = request(srv, "GET", "/api/tables/%d" % table)[2]["actions"]
        check(played <= 4, "the address's bots moved", played, "times in 6 s on 1 s of bot time a minute")
        times = await answer_times(srv, 3, 10)
        check(max(times) < 3, "another address's bot answered after", times)
        return "%d moves in 6 s for 1 bot-second a minute" % played
    finally:
        srv.stop()


if __name__ == "__main__":
    sys.exit(asyncio.run(run_tests([test_slow_bot_tables_per_address, test_bot_seconds_per_minute,
                                    test_quick_play_beside_another_persons_bot],
                                   only_variable="ASOBI_FAIR_BOTS_TESTS")))
