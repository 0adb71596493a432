# test_chat.py — issue 44, chat: the channels and the spectators' wall, limits and refusals, quick phrases, mute across reconnection (and a restart, and a failover), history after a restart (and a kill -9 failover on PostgreSQL), private tables, records without chat.
#
# Usage: python3 test_chat.py PATH/TO/asobi   (CTest runs it; every wait has a timeout)
import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from serve_client import Client, Server, play_randomly, run_tests  # noqa: E402

import websockets  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ASOBI_BINARY", "build/asobi")
signal.alarm(280)


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def lines(client):
    """The chat lines a client was sent one by one (not its history)."""
    return [m for m in client.received if m.get("type") == "chat"]


async def said(client, pred, timeout=10):
    return await client.until(lambda m: m.get("type") == "chat" and pred(m), timeout)


async def quiet(client, seconds=0.6):
    """Every message that arrives within seconds (none is waited for beyond)."""
    got = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            got.append(await client.recv(max(0.05, end - time.monotonic())))
        except asyncio.TimeoutError:
            break
    return got


async def table_of_two(srv, **extra):
    t = srv.create(game="psycle", players=2, **extra)
    tokens = [srv.join(t, name)["token"] for name in ("Aki", "Ben")]
    seats = [await Client(srv, t, tok).connect() for tok in tokens]
    for c in seats:
        await c.until(lambda m: m["type"] == "update")
    return t, tokens, seats


def metric(srv, name):
    with urllib.request.urlopen(srv.url("/metrics"), timeout=10) as r:
        for line in r.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    return 0.0


async def test_channels_and_the_spectators_wall():
    """Seats talk in "players", spectators in "spectators"; while the game is in play no seat hears a
    spectator (not in a line, not in a history), spectators hear both, and once it is over everyone does."""
    srv = Server(BINARY, args=["--workers", "1"]).start()
    try:
        t, tokens, (a, b) = await table_of_two(srv)
        watcher = await Client(srv, t).connect()
        first = await watcher.until(lambda m: m["type"] == "update")
        check(first.get("chat") == [], "a connection's first update carries its chat history", first.keys())
        await a.send({"type": "chat", "text": "hello <img src=x onerror=alert(1)>"})
        for c in (a, b, watcher):
            m = await said(c, lambda m: m["seat"] == 0)
            check(m["channel"] == "players" and m["name"] == "Aki" and m["text"].startswith("hello <img") and
                  isinstance(m["at"], int) and m["index"] == 0, "a seat's line as everyone hears it", m)
        await watcher.send({"type": "chat", "text": "play the 3!"})
        m = await said(watcher, lambda m: m["seat"] is None)
        check(m["channel"] == "spectators" and m["name"] == "#1", "a spectator's line", m)
        await b.send({"type": "chat", "phrase": "gg"})
        for c in (a, b, watcher):
            m = await said(c, lambda m: m["seat"] == 1)
            check(m["phrase"] == "gg" and "text" not in m, "a quick phrase goes as its id", m)
        check(not any(m["channel"] == "spectators" for c in (a, b) for m in lines(c)),
              "a seat heard a spectator during play")
        again = await Client(srv, t, tokens[0]).connect()
        u = await again.until(lambda m: m["type"] == "update")
        check([m["index"] for m in u["chat"]] == [0, 2], "a seat's history during play", u["chat"])
        spect = await Client(srv, t).connect()
        u = await spect.until(lambda m: m["type"] == "update")
        check([m["index"] for m in u["chat"]] == [0, 1, 2], "a spectator's history holds both", u["chat"])
        await again.close()
        await spect.close()
        rng = random.Random(3)
        await asyncio.gather(*(play_randomly(c, rng) for c in (a, b)))
        over = lambda m: m["type"] == "update" and "chat" in m and m["status"] == "over"
        u = next((m for m in a.received if over(m)), None) or await a.until(over)
        check([m["index"] for m in u["chat"]] == [0, 1, 2], "once over, a seat reads both channels", u["chat"])
        await watcher.send({"type": "chat", "text": "well played both"})
        m = await said(b, lambda m: m["seat"] is None)
        check(m["text"] == "well played both", "after the game a spectator's line reaches the seats", m)
        status, record = srv.request("GET", "/api/tables/%d/record" % t)
        check(status == 200 and "chat" not in json.dumps(record) and "well played" not in json.dumps(record),
              "the record carries no chat", status)
        check(m["move"] == len(record["actions"]) and u["chat"][0]["move"] == 0,
              "a line's move is the number of actions before it (where a replay shows it)", m, len(record["actions"]))
        status, summary = srv.request("GET", "/api/tables/%d" % t)
        check("well played" not in json.dumps(summary), "the summary carries no chat")
        for c in (a, b, watcher):
            await c.close()
    finally:
        srv.stop()


async def test_limits_and_refusals():
    """1-500 characters of valid UTF-8 without control characters (chat_too_long, bad_request), 5 lines
    per 10 s per seat and per spectator connection, an address's budget: rate_limited, counted in
    /metrics and summed up in the log, never a log line per line; nothing refused is told to anyone."""
    srv = Server(BINARY, args=["--workers", "1", "--chat-lines-per-minute-per-address", "30"]).start()
    try:
        t, tokens, (a, b) = await table_of_two(srv)
        refusals = [({"type": "chat", "text": "x" * 501}, "chat_too_long"),
                    ({"type": "chat", "text": "あ" * 501}, "chat_too_long"),
                    ({"type": "chat", "text": ""}, "bad_request"),
                    ({"type": "chat", "text": "bell\u0007"}, "bad_request"),
                    ({"type": "chat", "text": "two\nlines"}, "bad_request"),
                    ({"type": "chat", "text": "c1\u0085"}, "bad_request"),
                    ({"type": "chat", "text": 5}, "bad_request"),
                    ({"type": "chat", "phrase": "insult"}, "bad_request"),
                    ({"type": "chat", "text": "a", "phrase": "gg"}, "bad_request"),
                    ({"type": "chat"}, "bad_request"),
                    ({"type": "mute", "seat": 7}, "bad_request"),
                    ({"type": "mute", "seat": 0}, "bad_request"),
                    ({"type": "mute"}, "bad_request")]
        for i, (msg, code) in enumerate(refusals):
            msg["id"] = i
            await a.send(msg)
            m = await a.until(lambda m: m["type"] == "error")
            check(m["error"]["code"] == code and m["id"] == i, msg, m)
        await a.send({"type": "chat", "text": "あ" * 500})
        m = await said(b, lambda m: True)
        check(m["text"] == "あ" * 500, "500 characters (1500 bytes) are a line")
        for i in range(4):
            await a.send({"type": "chat", "text": "line %d" % i})
        await a.send({"type": "chat", "text": "one too many", "id": 99})
        m = await a.until(lambda m: m["type"] == "error")
        check(m["error"]["code"] == "rate_limited" and m["id"] == 99, "the sixth line in 10 s", m)
        got = [m.get("text") for m in await quiet(b)]
        check("one too many" not in got, "a refused line was told", got)
        # the address: 30 a minute, a burst of 5 (the seat spent them): each spectator's own five are not reached
        w = [await Client(srv, t).connect() for _ in range(2)]
        for c in w:
            await c.until(lambda m: m["type"] == "update")
        codes = []
        for k in range(6):
            await w[k % 2].send({"type": "chat", "text": "s%d" % k, "id": k})
        for c in w:
            codes += [m["error"]["code"] for m in await quiet(c, 1.0) if m["type"] == "error"]
        check(codes.count("rate_limited") >= 2, "the address's budget", codes)
        check(metric(srv, 'asobi_limited_total{limit="chat_per_seat"}') >= 1, "chat_per_seat not counted")
        check(metric(srv, 'asobi_limited_total{limit="chat_per_address"}') >= 2, "chat_per_address not counted")
        await asyncio.sleep(1.2)  # the summary comes once a second at most
        await a.send({"type": "chat", "text": "late", "id": 100})  # a refusal: the loop summarises
        await quiet(a, 1.5)
        log = srv.log_text()
        check("chat_per_seat" in log or "chat_per_address" in log, "no summary line", log[-800:])
        check("one too many" not in log and "rate_limited" not in log.replace("refused", ""), "a line per refusal",
              log[-800:])
        for c in [a, b] + w:
            await c.close()
    finally:
        srv.stop()


async def test_mute_lasts_across_reconnection():
    """A seat's mute holds for that seat (its token) on every connection and after it reconnects; unmute
    undoes it; a spectator mutes the spectators for its own connection."""
    srv = Server(BINARY, args=["--workers", "1"]).start()
    try:
        t, tokens, (a, b) = await table_of_two(srv)
        await a.send({"type": "mute", "seat": 1})
        u = await a.until(lambda m: m["type"] == "update" and "chat_muted" in m)
        check(u["chat_muted"] == {"seats": [1], "spectators": False}, u["chat_muted"])
        await b.send({"type": "chat", "text": "can you hear me"})
        await said(b, lambda m: m["text"] == "can you hear me")
        await a.send({"type": "chat", "text": "mine"})
        await said(a, lambda m: m["text"] == "mine")
        check(not any(m.get("seat") == 1 for m in lines(a)), "a muted seat's line came through", lines(a))
        await a.close()
        a = await Client(srv, t, tokens[0]).connect()
        u = await a.until(lambda m: m["type"] == "update")
        check([m["text"] for m in u["chat"]] == ["mine"] and u["chat_muted"]["seats"] == [1],
              "after reconnecting the mute holds", u["chat"], u.get("chat_muted"))
        await b.send({"type": "chat", "text": "still?"})
        await said(b, lambda m: m["text"] == "still?")
        await a.send({"type": "unmute", "seat": 1})
        u = await a.until(lambda m: m["type"] == "update" and "chat_muted" in m)
        check(u["chat_muted"]["seats"] == [], u["chat_muted"])
        check([m["text"] for m in u["chat"]] == ["can you hear me", "mine", "still?"], "unmuted history", u["chat"])
        await b.send({"type": "chat", "text": "now"})
        await said(a, lambda m: m["text"] == "now")
        w = await Client(srv, t).connect()
        await w.until(lambda m: m["type"] == "update")
        w2 = await Client(srv, t).connect()
        await w2.until(lambda m: m["type"] == "update")
        await w.send({"type": "mute", "spectators": True})
        await w.until(lambda m: m["type"] == "update" and m.get("chat_muted", {}).get("spectators"))
        await w2.send({"type": "chat", "text": "coach"})
        await said(w2, lambda m: m["text"] == "coach")
        await b.send({"type": "chat", "text": "after coach"})
        await said(w, lambda m: m["text"] == "after coach")
        check(not any(m.get("text") == "coach" for m in lines(w)), "a muted spectators' line came through")
        for c in (a, b, w, w2):
            await c.close()
    finally:
        srv.stop()


async def test_mute_lasts_across_a_restart():
    """A seat's mutes are kept with the table's chat: after kill -9 and a restart the seat's first update
    says them and the muted seat's lines stay out; a mute that changes nothing keeps nothing more; a line's
    index never reuses the one a kept mute took."""
    srv = Server(BINARY, args=["--workers", "1"]).start()
    again = None
    try:
        t, tokens, (a, b) = await table_of_two(srv)
        for _ in range(2):  # the second mute changes nothing
            await a.send({"type": "mute", "seat": 1})
            u = await a.until(lambda m: m["type"] == "update" and "chat_muted" in m)
        check(u["chat_muted"]["seats"] == [1], u["chat_muted"])
        await b.send({"type": "chat", "text": "muted"})
        m = await said(b, lambda m: m["text"] == "muted")
        check(m["index"] == 1, "the mute took index 0, once", m)
        # the operator's hide takes lines, not the mutes kept among them (hiding those would forget them)
        done = subprocess.run([BINARY, "chat", "--db", srv.db, "hide", str(t), "0"], capture_output=True, text=True)
        check(done.returncode == 1 and "no chat line 0" in done.stderr, "a kept mute is not a line to hide",
              done.returncode, done.stderr)
        srv.kill9()  # the mute was committed before its seat heard of it
        again = Server(BINARY, db=srv.db, args=["--workers", "1"]).start()
        a2 = await Client(again, t, tokens[0]).connect()
        u = await a2.until(lambda m: m["type"] == "update")
        check(u["chat_muted"] == {"seats": [1], "spectators": False} and u["chat"] == [],
              "after a restart the mute holds", u.get("chat_muted"), u["chat"])
        b2 = await Client(again, t, tokens[1]).connect()
        u = await b2.until(lambda m: m["type"] == "update")
        check(u["chat_muted"]["seats"] == [] and [m["text"] for m in u["chat"]] == ["muted"],
              "the muted seat's own history", u)
        await b2.send({"type": "chat", "text": "after"})
        m = await said(b2, lambda m: m["text"] == "after")
        check(m["index"] == 2, "the numbering goes on past the mute's row", m)
        check(not [x for x in await quiet(a2) if x.get("type") == "chat"], "a muted seat's line came through")
        await a2.send({"type": "unmute", "seat": 1})
        u = await a2.until(lambda m: m["type"] == "update" and "chat_muted" in m)
        check(u["chat_muted"]["seats"] == [] and [m["text"] for m in u["chat"]] == ["muted", "after"], u)
        for c in (a2, b2):
            await c.close()
    finally:
        srv.stop_with(again)


async def test_kept_mutes_count_as_lines():
    """A mute that changes a seat's set is a row in the store: it counts against the chat limits, so a seat
    toggling a mute cannot flood the store; a refused one changes nothing; a mute that changes nothing is
    never refused."""
    srv = Server(BINARY, args=["--workers", "1"]).start()
    try:
        t, tokens, (a, b) = await table_of_two(srv)
        for i in range(8):
            await a.send({"type": "mute" if i % 2 == 0 else "unmute", "seat": 1, "id": i})
        got = await quiet(a, 1.5)
        refused = [m["id"] for m in got if m.get("type") == "error" and m["error"]["code"] == "rate_limited"]
        # five kept (mute, unmute, mute, unmute, mute); the sixth (5, an unmute) refused, so the seventh (a
        # mute of a muted seat) changes nothing and is answered; the eighth (an unmute) refused again
        check(refused == [5, 7], "the sixth kept mute in 10 s is refused, one that changes nothing is not", refused)
        muted = [m["chat_muted"]["seats"] for m in got if m.get("type") == "update" and "chat_muted" in m]
        check(muted and muted[-1] == [1], "the refused ones changed nothing: still muted", muted)
        with sqlite3.connect("file:%s?mode=ro" % srv.db, uri=True) as db:
            rows = db.execute("SELECT count(*) FROM chat WHERE table_id = ?", (t,)).fetchone()[0]
        check(rows == 5, "five mute rows kept", rows)
        for c in (a, b):
            await c.close()
    finally:
        srv.stop()


async def test_history_after_a_restart_and_the_operators_hide():
    """Lines are kept with the table: a restart (SIGTERM, then kill -9) brings them back in the first
    update; `asobi chat --db FILE hide TABLE INDEX` takes one out of every reader's history."""
    srv = Server(BINARY, args=["--workers", "1"]).start()
    again = None
    try:
        t, tokens, (a, b) = await table_of_two(srv)
        w = await Client(srv, t).connect()
        await w.until(lambda m: m["type"] == "update")
        for c, text in ((a, "one"), (b, "two"), (w, "three"), (a, "four")):
            await c.send({"type": "chat", "text": text})
            await said(c, lambda m, text=text: m["text"] == text)
        srv.kill9()  # nothing flushed at exit: a line is committed before anyone hears of it
        again = Server(BINARY, db=srv.db, args=["--workers", "1"]).start()
        b2 = await Client(again, t, tokens[1]).connect()
        u = await b2.until(lambda m: m["type"] == "update")
        check([m["text"] for m in u["chat"]] == ["one", "two", "four"], "the history after kill -9", u["chat"])
        check(u["chat"][1]["at"] > 0 and u["chat"][1]["name"] == "Ben", u["chat"][1])
        await b2.close()
        again.stop(remove=False)
        done = subprocess.run([BINARY, "chat", "--db", srv.db, "hide", str(t), "1"], capture_output=True, text=True)
        check(done.returncode == 0, "asobi chat hide", done.stderr)
        done = subprocess.run([BINARY, "chat", "--db", srv.db, "hide", str(t), "99"], capture_output=True, text=True)
        check(done.returncode == 1 and "no chat line" in done.stderr, "hiding a line that is not there", done)
        again = Server(BINARY, db=srv.db, args=["--workers", "1"]).start()
        w2 = await Client(again, t).connect()
        u = await w2.until(lambda m: m["type"] == "update")
        check([m["text"] for m in u["chat"]] == ["one", "three", "four"], "a hidden line is gone", u["chat"])
        await w2.send({"type": "chat", "text": "five"})
        m = await said(w2, lambda m: m["text"] == "five")
        check(m["index"] == 4 and m["name"] == "#2", "the numbering goes on after a restart", m)
        await w2.close()
    finally:
        srv.stop_with(again)


async def hidden_live(srv, db, t, tokens, readers, timeout=8):
    """Say three lines, hide the second with `asobi chat --db DB hide` while srv runs: within timeout every
    connected reader's next update carries a history without it, and so does a reconnecting reader's first."""
    a = readers[0]
    for text in ("keep", "hide me", "keep too"):
        await a.send({"type": "chat", "text": text})
        await said(a, lambda m, text=text: m["text"] == text)
    index = next(m["index"] for m in lines(a) if m["text"] == "hide me")
    done = subprocess.run([BINARY, "chat", "--db", db, "hide", str(t), str(index)], capture_output=True, text=True)
    check(done.returncode == 0, "asobi chat hide beside a running server", done.stderr)
    start = time.monotonic()
    for c in readers:
        u = await c.until(lambda m: m["type"] == "update" and "chat" in m and
                          all(line["text"] != "hide me" for line in m["chat"]), timeout)
        check([m["text"] for m in u["chat"]][-2:] == ["keep", "keep too"], "the rest of the history", u["chat"])
    seen = time.monotonic() - start
    again = await Client(srv, t, tokens[1]).connect()
    u = await again.until(lambda m: m["type"] == "update")
    check("hide me" not in [m["text"] for m in u["chat"]], "a reconnecting reader's first update", u["chat"])
    await again.close()
    return "every reader's history without the line %.2f s after the hide" % seen


async def test_a_hide_reaches_a_running_server():
    """`asobi chat --db FILE hide` beside a running server (no hold on the file): within a few seconds (the
    news polled off the loop) every reader's history lacks the line, as does a new connection's."""
    srv = Server(BINARY, args=["--workers", "1"]).start()
    try:
        t, tokens, (a, b) = await table_of_two(srv)
        w = await Client(srv, t).connect()
        await w.until(lambda m: m["type"] == "update")
        return await hidden_live(srv, srv.db, t, tokens, [a, b, w])
    finally:
        srv.stop()


async def test_a_private_tables_chat_is_as_private():
    """A private table's chat reaches only those who may read the table: a stranger's socket is told
    nothing and cannot speak; the watch code opens the spectators' seat (and its chat)."""
    srv = Server(BINARY, args=["--workers", "1"]).start()
    try:
        status, made = srv.request("POST", "/api/tables", {"game": "psycle", "players": 2, "private": True})
        t, watch, codes = made["table"], made["watch"], made["invites"]
        tokens = []
        for k in range(2):
            status, joined = srv.request("POST", "/api/tables/%d/join" % t, {"name": "P%d" % k, "invite": codes[k]})
            tokens.append(joined["token"])
        a = await Client(srv, t, tokens[0]).connect()
        await a.until(lambda m: m["type"] == "update")
        await a.send({"type": "chat", "text": "secret plans"})
        await said(a, lambda m: m["text"] == "secret plans")
        ws = await websockets.connect("ws://127.0.0.1:%d/ws/tables/%d" % (srv.port, t), close_timeout=1)
        await ws.send(json.dumps({"type": "chat", "text": "let me in"}))
        got = []
        try:
            while True:
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 3)))
        except (asyncio.TimeoutError, websockets.exceptions.ConnectionClosed):
            pass
        await ws.close()
        check(len(got) == 1 and got[0]["type"] == "error" and got[0]["error"]["code"] == "not_found",
              "a stranger at a private table", got)
        check("secret" not in json.dumps(got), got)
        await quiet(a)
        check(not any(m.get("text") == "let me in" for m in lines(a)), "a stranger's line was said")
        w = await Client(srv, t, None).connect()
        await w.send({"type": "hello", "code": watch})
        u = await w.until(lambda m: m["type"] == "update")
        check([m["text"] for m in u["chat"]] == ["secret plans"], "the watch code's history", u["chat"])
        await a.close()
        await w.close()
    finally:
        srv.stop()


async def test_history_after_a_failover_on_postgresql():
    """Two nodes on one PostgreSQL: a table's owner is killed (-9) after its seats chatted; the node that
    takes the table over sends the same history, and a line said there goes on the numbering."""
    import pg_fixture
    pg_fixture.exit_on_signals()
    with pg_fixture.postgres() as uri:
        nodes = [Server(BINARY, db=uri, args=["--workers", "1", "--node", name, "--lease", "3", "--grace", "30"]).start()
                 for name in ("a", "b")]
        try:
            a_node, b_node = nodes
            t, tokens, (a, b) = await table_of_two(a_node)
            for c, text in ((a, "before"), (b, "the kill")):
                await c.send({"type": "chat", "text": text})
                await said(c, lambda m, text=text: m["text"] == text)
            await b.send({"type": "mute", "seat": 0})  # kept with the chat: the next owner knows it
            await b.until(lambda m: m["type"] == "update" and m.get("chat_muted", {}).get("seats") == [0])
            a_node.kill9()
            end = time.monotonic() + 20
            while True:
                try:
                    status, summary = b_node.request("GET", "/api/tables/%d" % t)
                    if status == 200 and summary.get("ws", "").startswith("ws://127.0.0.1:%d/" % b_node.port):
                        c = await Client(b_node, t, tokens[0]).connect()
                        u = await c.until(lambda m: m["type"] in ("update", "error"))
                        if u["type"] == "update":
                            break
                except (websockets.exceptions.InvalidStatusCode, websockets.exceptions.ConnectionClosed, OSError):
                    pass
                check(time.monotonic() < end, "node b did not take the table")
                await asyncio.sleep(0.3)
            check([m["text"] for m in u["chat"]] == ["before", "the kill"], "the history after a failover", u["chat"])
            b2 = await Client(b_node, t, tokens[1]).connect()
            u = await b2.until(lambda m: m["type"] == "update")
            check(u["chat_muted"]["seats"] == [0] and [m["text"] for m in u["chat"]] == ["the kill"],
                  "the mute after a failover", u.get("chat_muted"), u["chat"])
            await c.send({"type": "chat", "text": "after"})
            m = await said(c, lambda m: m["text"] == "after")
            check(m["index"] == 3, "the numbering goes on past the mute's row", m)
            out = subprocess.run(["psql", uri, "-At", "-c", "SELECT idx, epoch FROM asobi_chat WHERE table_id = %d "
                                  "ORDER BY idx" % t], capture_output=True, text=True, check=True).stdout.split()
            check(out == ["0|1", "1|1", "2|1", "3|2"], "each line and mute kept with its writer's epoch", out)
            done = subprocess.run([BINARY, "chat", "--db", uri, "hide", str(t), "2"], capture_output=True, text=True)
            check(done.returncode == 1 and "no chat line 2" in done.stderr, "a kept mute is not a line to hide",
                  done.returncode, done.stderr)
            await c.close()
            await b2.close()
        finally:
            for n in nodes:
                if n.proc.poll() is None:
                    n.stop()


async def test_a_hide_reaches_the_nodes_on_postgresql():
    """Two nodes on one PostgreSQL: `asobi chat --db URI hide` reaches the node holding the table (each
    node polls the news on a connection of its own); the other node, which holds no such table, skips it."""
    import pg_fixture
    pg_fixture.exit_on_signals()
    with pg_fixture.postgres() as uri:
        nodes = [Server(BINARY, db=uri, args=["--workers", "1", "--node", name]).start() for name in ("a", "b")]
        try:
            t, tokens, (a, b) = await table_of_two(nodes[0])
            w = await Client(nodes[0], t).connect()
            await w.until(lambda m: m["type"] == "update")
            seen = await hidden_live(nodes[0], uri, t, tokens, [a, b, w])
            for c in (a, b, w):
                await c.close()
            status, _ = nodes[1].request("GET", "/api/tables/%d" % t)
            check(status == 200 and nodes[1].proc.poll() is None, "the other node goes on", status)
            return seen
        finally:
            for n in nodes:
                if n.proc.poll() is None:
                    n.stop()


if __name__ == "__main__":
    sys.exit(asyncio.run(run_tests([test_channels_and_the_spectators_wall, test_limits_and_refusals,
                                    test_mute_lasts_across_reconnection, test_mute_lasts_across_a_restart,
                                    test_kept_mutes_count_as_lines,
                                    test_history_after_a_restart_and_the_operators_hide,
                                    test_a_hide_reaches_a_running_server,
                                    test_a_private_tables_chat_is_as_private,
                                    test_history_after_a_failover_on_postgresql,
                                    test_a_hide_reaches_the_nodes_on_postgresql], timeout=120)) and 1)
