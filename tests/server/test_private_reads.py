# test_private_reads.py — issue 39, point 4: a private table is read by its codes only (summary, record, replay, spectating), and answers strangers the very 404 of an id that does not exist.
#
# Usage: python3 test_private_reads.py PATH/TO/asobi   (CTest runs it; every wait has a timeout)
import asyncio
import http.client
import json
import os
import random
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_client import Client, Server, play_randomly, run_tests  # noqa: E402

import websockets  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ASOBI_BINARY", "build/asobi")
signal.alarm(200)


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def raw_get(srv, path, headers=None):
    """(status, headers without Date, body bytes) of one GET: what a stranger can compare."""
    con = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    con.request("GET", path, headers=headers or {})
    r = con.getresponse()
    body = r.read()
    con.close()
    return r.status, sorted((k.lower(), v) for k, v in r.getheaders() if k.lower() != "date"), body


def same_as_missing(srv, table, missing, suffix=""):
    """The private table's answer to a stranger is byte for byte a missing id's (the id itself aside)."""
    got = raw_get(srv, "/api/tables/%d%s" % (table, suffix))
    want = raw_get(srv, "/api/tables/%d%s" % (missing, suffix))
    check(got[0] == 404, "a stranger reads the private table", suffix, got)
    check((got[0], got[1], got[2].replace(b"%d" % table, b"ID")) == (want[0], want[1], want[2].replace(b"%d" % missing, b"ID")),
          "the 404 differs from a missing id's", got, want)


async def stranger_watches(srv, table, query="", hello=None):
    """What a spectator's socket is shown: the first message, or None when it was closed without one."""
    ws = await websockets.connect("ws://127.0.0.1:%d/ws/tables/%d%s" % (srv.port, table, query), close_timeout=1)
    try:
        if hello is not None:
            await ws.send(json.dumps(hello))
        try:
            return json.loads(await asyncio.wait_for(ws.recv(), 3))
        except (asyncio.TimeoutError, websockets.exceptions.ConnectionClosed):
            return None
    finally:
        await ws.close()


async def test_a_private_table_is_read_by_its_codes_only():
    """The attack: ids count up, so a stranger scans them and reads a private table's names, who is away,
    and every public move. Now: 404 (byte for byte a missing id's) to the summary, record and replay, and
    no update to a spectator's socket, unless the request carries the watch code, a seat's invite code or
    a seat's token (?code=, ?token=, the X-Asobi-Code header, or a hello); also once the game is over, and
    after a restart, when the finished table is read from the database."""
    srv = Server(BINARY, args=["--workers", "1"]).start()
    again = None
    try:
        status, made = srv.request("POST", "/api/tables", {"game": "psycle", "players": 2, "private": True})
        check(status == 201 and len(made["watch"]) == 32 and len(made["invites"]) == 2, status, made)
        t, watch, codes = made["table"], made["watch"], made["invites"]
        missing = t + 5  # an id of as many digits that no table has: the answers are then the same length
        check(len(str(missing)) == len(str(t)), t)
        same_as_missing(srv, t, missing)
        same_as_missing(srv, t, missing, "?code=" + "0" * 32)
        for key in (watch, codes[0], codes[1]):
            status, summary = srv.request("GET", "/api/tables/%d?code=%s" % (t, key))
            check(status == 200 and summary["table"] == t and "access" not in summary, status, summary)
        status, summary = srv.request("GET", "/api/tables/%d" % t, headers={"X-Asobi-Code": watch})
        check(status == 200, "the code in a header", status, summary)
        check(await stranger_watches(srv, t) is None, "a stranger's socket is shown the table")
        m = await stranger_watches(srv, t, hello={"type": "act", "action": 0})
        check(m and m["type"] == "error" and m["error"]["code"] == "not_found", "a stranger's message", m)
        m = await stranger_watches(srv, t, hello={"type": "hello", "code": "0" * 32})
        check(m and m["error"]["code"] == "not_found", "a wrong code's hello", m)
        m = await stranger_watches(srv, t, query="?code=" + watch)
        check(m and m["type"] == "update" and m["seat"] is None, "the watch code opens spectating", m)
        m = await stranger_watches(srv, t, hello={"type": "hello", "code": codes[1]})
        check(m and m["type"] == "update", "an invite code's hello opens spectating", m)
        seats = []
        for k in range(2):
            status, joined = srv.request("POST", "/api/tables/%d/join" % t, {"name": "P%d" % k, "invite": codes[k]})
            check(status == 200, status, joined)
            seats.append(joined["token"])
        status, summary = srv.request("GET", "/api/tables/%d?token=%s" % (t, seats[0]))
        check(status == 200, "a seat's token opens the summary", status, summary)
        m = await stranger_watches(srv, t, hello={"type": "hello", "token": seats[1]})
        check(m and m["type"] == "update" and m["seat"] == 1, "a seat's hello at a private table", m)
        clients = [await Client(srv, t, tok).connect() for tok in seats]
        rng = random.Random(5)
        await asyncio.gather(*(play_randomly(c, rng) for c in clients))
        for c in clients:
            await c.close()
        for suffix in ("", "/record", "/replay", "/replay?step=1"):
            same_as_missing(srv, t, missing, suffix)
        status, record = srv.request("GET", "/api/tables/%d/record?code=%s" % (t, watch))
        check(status == 200 and record["actions"], "the record with the watch code", status)
        status, step = srv.request("GET", "/api/tables/%d/replay?step=1&code=%s" % (t, watch))
        check(status == 200, "a replay step with the watch code", status, step)
        for suffix in ("/record", "/replay", "/replay?step=1"): # the replay cache now holds it: still closed
            same_as_missing(srv, t, missing, suffix)
        srv.stop(remove=False)
        again = Server(BINARY, db=srv.db, args=["--workers", "1"]).start()
        for suffix in ("", "/record", "/replay?step=2"):
            same_as_missing(again, t, missing, suffix)
        for key in (watch, codes[1], seats[0]):
            status, record = again.request("GET", "/api/tables/%d/record?code=%s" % (t, key))
            check(status == 200 and record["actions"], "the stored record with a code", status, record)
        for suffix in ("/record", "/replay?step=2"): # built into the replay cache from the store: still closed
            same_as_missing(again, t, missing, suffix)
        status, summary = again.request("GET", "/api/tables/%d?code=%s" % (t, watch))
        check(status == 200 and summary["status"] == "over" and "access" not in summary, status, summary)
        check(await stranger_watches(again, t) is None, "a stranger's socket is shown the finished table")
        m = await stranger_watches(again, t, query="?code=" + watch)
        check(m and m["type"] == "update" and m["status"] == "over", "the finished table watched with its code", m)
    finally:
        srv.stop_with(again)


if __name__ == "__main__":
    sys.exit(asyncio.run(run_tests([test_a_private_table_is_read_by_its_codes_only], timeout=150)) and 1)
