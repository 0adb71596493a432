# test_leave.py — POST /api/tables/ID/leave against the real `asobi serve`: a seat handed to the bot for good, a table every person left abandoned (out of the list, ended as expired), the refusals (issue 33).
#
# Usage: python3 test_leave.py PATH/TO/asobi   (CTest runs it; every wait has a timeout)
import asyncio
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_client import Client, Server, play_randomly, run_tests  # noqa: E402

import websockets  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ASOBI_BINARY", "build/asobi")


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def leave(srv, table, token):
    return srv.request("POST", "/api/tables/%d/leave" % table, {"token": token})


def listed(srv):
    status, page = srv.request("GET", "/api/tables")
    return [x["table"] for x in page["tables"]]


def wait_gone(srv, table, seconds=3):
    """The table's summary until it answers 404 (the tick expires an abandoned table); the last status."""
    end = time.monotonic() + seconds
    while True:
        status, _ = srv.request("GET", "/api/tables/%d" % table)
        if status == 404 or time.monotonic() > end:
            return status
        time.sleep(0.05)


async def test_refusals_change_nothing(binary):
    srv = Server(binary, args=["--workers", "1"]).start()
    try:
        t = srv.create(game="psycle", players=2)
        a = srv.join(t, "Aki")
        status, before = srv.request("GET", "/api/tables/%d" % t)
        for body, code, want in ((None, 400, "bad_json"), ([], 400, "bad_request"), ({}, 400, "bad_request"),
                                 ({"token": 7}, 400, "bad_request"), ({"token": "00" * 16}, 403, "bad_token"),
                                 ({"token": "x"}, 403, "bad_token")):
            raw = b"" if body is None else None
            status, reply = srv.request("POST", "/api/tables/%d/leave" % t, body, raw=raw)
            check(status == code and reply["error"]["code"] == want, body, status, reply)
        status, reply = srv.request("GET", "/api/tables/%d/leave" % t)
        check(status == 405 and reply["error"]["code"] == "method_not_allowed", status, reply)
        status, reply = leave(srv, t + 100, a["token"])
        check(status == 404 and reply["error"]["code"] == "not_found", status, reply)
        status, after = srv.request("GET", "/api/tables/%d" % t)
        check(json.dumps(after, sort_keys=True) == json.dumps(before, sort_keys=True), "a refusal changed the table",
              before, after)
    finally:
        srv.stop()


async def test_leaving_a_game_hands_the_seat_to_the_bot(binary):
    """Two people; Aki leaves: the heuristic plays her seat for good (her token holds it no more), Ben plays on
    to the end; the table stays listed while Ben is there; a second leave and a leave after the end are refused."""
    srv = Server(binary, args=["--workers", "1"]).start()
    try:
        t = srv.create(game="psycle", players=2, options={"max_cycles": 1})
        a, b = srv.join(t, "Aki"), srv.join(t, "Ben")
        aki = await Client(srv, t, a["token"]).connect()
        ben = await Client(srv, t, b["token"]).connect()
        await ben.until(lambda m: m["type"] == "update")
        status, reply = leave(srv, t, a["token"])
        check(status == 200 and reply == {"seat": 0, "abandoned": False}, status, reply)
        status, summary = srv.request("GET", "/api/tables/%d" % t)
        check(summary["seats"][0]["handed"] is True and summary["status"] == "playing", summary)
        check(t in listed(srv), "a table a person still plays is listed")
        await aki.close()
        # her token no longer opens the seat
        async with websockets.connect(srv.ws_url(t, a["token"])) as ws:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            check(msg["type"] == "error" and msg["error"]["code"] == "bad_token", msg)
        status, reply = leave(srv, t, a["token"])
        check(status == 403 and reply["error"]["code"] == "bad_token", "leaving twice", status, reply)
        # Ben plays on; the bot moves for seat 0
        last = await asyncio.wait_for(play_randomly(ben, random.Random(5)), 60)
        check(last["status"] == "over", last["status"])
        check(any(ev["seat"] == 0 and ev.get("by") == "bot" for ev in ben.events.values()),
              "the bot moved for the seat Aki left")
        status, reply = leave(srv, t, b["token"])
        check(status == 409 and reply["error"]["code"] == "game_over", status, reply)
        await ben.close()
    finally:
        srv.stop()


async def test_a_table_everyone_left_is_abandoned(binary):
    """A person against a bot leaves: nobody holds a seat, the table is abandoned: out of the list at once (the
    lobby's socket told), ended as an expired table (404, not restored). The same for a waiting table whose only
    seated person leaves."""
    srv = Server(binary, args=["--workers", "1"]).start()
    again = None
    try:
        lobby = await websockets.connect("ws://127.0.0.1:%d/ws/lobby" % srv.port)
        vs_bot = srv.create(game="ninja", players=2, bots=[None, "random"])
        me = srv.join(vs_bot, "Aki", seat=0)
        waiting = srv.create(game="octal", players=3)
        w = srv.join(waiting, "Ben", seat=1)
        check(vs_bot in listed(srv) and waiting in listed(srv), listed(srv))
        for table, token in ((vs_bot, me["token"]), (waiting, w["token"])):
            status, reply = leave(srv, table, token)
            check(status == 200 and reply["abandoned"] is True, table, status, reply)
            check(table not in listed(srv), "an abandoned table is not listed", table)
            check(wait_gone(srv, table) == 404, "an abandoned table ends as an expired one", table)
            status, reply = leave(srv, table, token)
            check(status == 404, "leaving an ended table", status, reply)
        # the lobby's socket is told: its latest list has neither
        end, tables = time.monotonic() + 3, None
        while time.monotonic() < end:
            msg = json.loads(await asyncio.wait_for(lobby.recv(), 3))
            tables = [x["table"] for x in msg["tables"]]
            if vs_bot not in tables and waiting not in tables:
                break
        check(vs_bot not in tables and waiting not in tables, "the lobby's socket still lists them", tables)
        await lobby.close()
        check("nobody is left: abandoned" in srv.log_text(), "the log says why")
        srv.stop(remove=False)
        again = Server(binary, db=srv.db, args=["--workers", "1"]).start()
        for table in (vs_bot, waiting):
            status, _ = again.request("GET", "/api/tables/%d" % table)
            check(status == 404, "an abandoned table is not restored", table, status)
    finally:
        srv.stop_with(again)


async def test_a_left_seat_stays_left_after_a_restart(binary):
    """Issue 39, point 5, the attack: a seat's person left (POST .../leave), the server restarted on the same
    database, and the leaver's token opened the seat again while the others waited out --grace at its turns.
    Now the left seat is kept in the store: after the restart the old token is refused (bad_token, in the URL
    and in a hello), the summary says left, the bot plays its turns at once (--grace is 60 s here: the game
    ends well before), and the rematch of the private table starts with a bot in that seat, never an open seat
    waiting for a code nobody holds."""
    srv = Server(binary, args=["--workers", "1", "--grace", "60"]).start()
    again = None
    try:
        status, made = srv.request("POST", "/api/tables", {"game": "psycle", "players": 2, "private": True})
        check(status == 201, status, made)
        t = made["table"]
        tokens = []
        for k in range(2):
            status, joined = srv.request("POST", "/api/tables/%d/join" % t, {"name": "P%d" % k,
                                                                             "invite": made["invites"][k]})
            check(status == 200, status, joined)
            tokens.append(joined["token"])
        status, reply = leave(srv, t, tokens[1])
        check(status == 200 and reply["seat"] == 1, status, reply)
        srv.stop(remove=False)
        again = Server(binary, db=srv.db, args=["--workers", "1", "--grace", "60"]).start()
        for how in ("url", "hello"):
            ws = await websockets.connect(again.ws_url(t, tokens[1] if how == "url" else None), close_timeout=1)
            if how == "hello":
                await ws.send(json.dumps({"type": "hello", "token": tokens[1]}))
            refused = None
            try:
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    if m["type"] == "error":
                        refused = m["error"]["code"]
                        break
                    check(m.get("seat") is None, "the leaver's token opened the seat after a restart (%s)" % how, m)
            except websockets.exceptions.ConnectionClosed:
                pass
            check(refused == "bad_token", "the leaver's token after a restart (%s)" % how, refused)
            await ws.close()
        status, summary = again.request("GET", "/api/tables/%d?code=%s" % (t, made["watch"]))
        check(summary["seats"][1].get("left") is True and summary["seats"][1]["handed"] is True, summary["seats"])
        started = time.monotonic()
        seat = await Client(again, t, tokens[0]).connect()
        last = await asyncio.wait_for(play_randomly(seat, random.Random(3)), 40)
        check(last["status"] == "over", last["status"])
        check(time.monotonic() - started < 30, "the bot waited out --grace at the left seat's turns")
        await seat.send({"type": "rematch"})
        update = await seat.until(lambda m: m["type"] == "update" and m.get("rematch"), 10)
        await seat.close()
        status, rematch = again.request("GET", "/api/tables/%d?token=%s" % (update["rematch"], tokens[0]))
        check(status == 200 and rematch["seats"][1]["bot"] == "heuristic" and rematch["status"] == "playing",
              "the rematch leaves the left seat open (a code nobody holds) rather than to a bot", status, rematch)
        check(rematch["seats"][0]["name"] == "P0", rematch["seats"])
    finally:
        srv.stop_with(again)


async def main():
    tests = [test_refusals_change_nothing, test_leaving_a_game_hands_the_seat_to_the_bot,
             test_a_left_seat_stays_left_after_a_restart,
             test_a_table_everyone_left_is_abandoned]
    return 1 if await run_tests([(fn, BINARY) for fn in tests], timeout=120) else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
