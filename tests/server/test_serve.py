# test_serve.py — `asobi serve` end to end: real HTTP and WebSocket clients against the real binary on 127.0.0.1.
#
# Usage: python3 test_serve.py PATH/TO/asobi   (CTest runs it; it stops by itself: every wait has a timeout)
import asyncio
import json
import os
import random
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_client import Client, Server, play_randomly, run_tests  # noqa: E402

import websockets  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ASOBI_BINARY", "build/asobi")
signal.alarm(280)  # the whole file, whatever happens


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def error_code(reply):
    return reply["error"]["code"]


# ---------------------------------------------------------------------------
# HTTP
# ---------------------------------------------------------------------------
async def test_http_api(srv):
    status, body = srv.request("GET", "/healthz")
    check(status == 200 and body == {"ok": True}, status, body)
    status, body = srv.request("GET", "/api/games")
    check(status == 200 and {g["name"] for g in body["games"]} >= {"psycle", "ninja", "octal", "timemasters"}, body)

    for req, code in [({"game": "chess"}, "unknown_game"), ({"game": "psycle", "players": 9}, "bad_players"),
                      ({"game": "psycle", "options": {"x": 1}}, "bad_option"),
                      ({"game": "psycle", "bots": ["nobot", None]}, "bad_bot"),
                      ({"game": "psycle", "bots": ["ismcts:iters=100000", None]}, "bad_bot"),
                      ({"game": "psycle", "bots": ["ismcts:time=30", None]}, "bad_bot"),
                      ({"game": "psycle", "clock": {"kind": "sundial"}}, "bad_clock"), ({}, "bad_request")]:
        status, body = srv.request("POST", "/api/tables", req)
        check(status == 400 and error_code(body) == code, req, status, body)
    status, body = srv.request("POST", "/api/tables", raw=b"{not json")
    check(status == 400 and error_code(body) == "bad_json", status, body)
    status, body = srv.request("POST", "/api/tables", raw=b'{"game":"' + b"x" * 70000 + b'"}')
    check(status == 413 and error_code(body) == "body_too_long", status, body)

    t1 = srv.create(game="octal", players=3, bots=[None, "random", None], seed=5)
    t2 = srv.create(game="psycle", clock={"kind": "fischer", "base": 300, "increment": 5})
    status, body = srv.request("GET", "/api/tables")
    ids = [t["table"] for t in body["tables"]]
    check(ids.index(t2) < ids.index(t1), "newest first", ids)
    status, body = srv.request("GET", "/api/tables/%d" % t1)
    check(status == 200 and body["status"] == "open" and body["game"] == "octal" and body["players"] == 3, body)
    check([s["bot"] for s in body["seats"]] == [None, "random", None], body)
    status, body = srv.request("GET", "/api/tables/%d" % t2)
    check(body["clock"] == {"kind": "fischer", "base": 300, "increment": 5}, body)

    for name, code in [("", "bad_name"), ("x" * 25, "bad_name"), ("a\u0007b", "bad_name"), (7, "bad_name")]:
        status, body = srv.request("POST", "/api/tables/%d/join" % t1, {"name": name})
        check(status == 400 and error_code(body) == code, name, status, body)
    status, body = srv.request("POST", "/api/tables/%d/join" % t1, {"name": "Aki", "seat": 1})
    check(status == 409 and error_code(body) == "seat_taken", status, body)
    a = srv.join(t1, "<script>x</script>")
    check(a["seat"] == 0 and len(a["token"]) == 32, a)
    status, body = srv.request("POST", "/api/tables/%d/join" % t1, {"name": "Ben", "seat": 0})
    check(status == 409 and error_code(body) == "seat_taken", body)
    b = srv.join(t1, "ベン")
    check(b["seat"] == 2, b)
    status, body = srv.request("POST", "/api/tables/%d/join" % t1, {"name": "Cho"})
    check(status == 409 and error_code(body) == "table_full", body)
    status, body = srv.request("GET", "/api/tables/%d" % t1)
    check(body["status"] == "playing" and body["seats"][2]["name"] == "ベン", body)
    check(body["seats"][0]["name"] == "<script>x</script>", "names come back as they were given (JSON-escaped)")

    status, body = srv.request("GET", "/api/tables/%d/record" % t1)
    check(status == 409 and error_code(body) == "game_not_over", status, body)
    status, body = srv.request("GET", "/api/tables/999999")
    check(status == 404 and error_code(body) == "not_found", status, body)
    status, body = srv.request("POST", "/api/tables/999999/join", {"name": "A"})
    check(status == 404 and error_code(body) == "not_found", status, body)
    status, body = srv.request("GET", "/api/nothing")
    check(status == 404 and error_code(body) == "not_found", status, body)
    status, body = srv.request("POST", "/api/tables/%d" % t1, {})
    check(status == 405 and error_code(body) == "method_not_allowed", status, body)
    for method in ("PUT", "DELETE", "PATCH"):
        status, body = srv.request(method, "/api/tables", {})
        check(status == 405 and error_code(body) == "method_not_allowed", method, status, body)
    status, body = srv.request("POST", "/api/tables/%d/join" % t1)  # no body at all
    check(status == 400 and error_code(body) == "bad_json", status, body)
    status, body = srv.request("GET", "/../../etc/passwd")
    check(status == 404, status)
    status, body = srv.request("GET", "/")
    check(status == 200 and "<html" in body, status)

    # the database keeps token hashes, never tokens (read while the server runs: it holds the file against a
    # second server only, see test_the_database_is_held_by_one_server)
    con = sqlite3.connect(srv.db)
    rows = con.execute("SELECT token_hash FROM seats").fetchall()
    con.close()
    check(len(rows) >= 2 and all(len(r[0]) == 64 for r in rows), rows)
    with open(srv.db, "rb") as f:
        data = f.read()
    for suffix in ("-wal",):
        if os.path.exists(srv.db + suffix):
            with open(srv.db + suffix, "rb") as f:
                data += f.read()
    check(a["token"].encode() not in data and b["token"].encode() not in data, "a token reached the database")

    status, text = srv.request("GET", "/metrics")
    for name in ("asobi_tables{status=\"open\"}", "asobi_connections", "asobi_actions_accepted_total",
                 "asobi_action_latency_seconds_bucket", "asobi_bot_move_seconds_count"):
        check(name in text, name, "missing from /metrics")


# ---------------------------------------------------------------------------
# Full games: several people, a bot, a spectator
# ---------------------------------------------------------------------------
GAMES = [
    ("psycle", 3, [None, None, "heuristic"]),
    ("ninja", 4, [None, "random", None, None]),
    ("octal", 4, [None, None, "heuristic", None]),
    ("timemasters", 3, [None, "random", None]),
]


PRIVATE_KEYS = ("hand", "scrolls", "discards", "deck_cards", "choice", "delay_cards")


def hidden_fields_of_others(view, seat):
    """The private fields of other seats in a view, at any depth of their entries (a Time Masters timer's
    delay cards, a NINJA open card's tile): they must all be null; a NINJA tile not face up is "hidden";
    Time Masters' points are another seat's only at the end."""
    leaks = []

    def walk(node, owner, path):
        if isinstance(node, list):
            for i, x in enumerate(node):
                walk(x, owner, path + [i])
            return
        if not isinstance(node, dict):
            return
        for key, value in node.items():
            if key in PRIVATE_KEYS and value is not None:
                leaks.append((owner, "/".join(map(str, path + [key])), value))
            walk(value, owner, path + [key])
        if node.get("face_up") is False and node.get("scroll") not in (None, "hidden"):
            leaks.append((owner, "/".join(map(str, path + ["scroll"])), node["scroll"]))

    for p in view.get("players", []):
        if p.get("seat") == seat:
            continue
        walk(p, p.get("seat"), [])
        if view.get("game") == "timemasters" and not view.get("terminal") and p.get("points") is not None:
            leaks.append((p.get("seat"), "points", p["points"]))
    return leaks


async def full_game(srv, game, players, bots, seed):
    t = srv.create(game=game, players=players, bots=bots, seed=seed)
    people = {}
    for s, b in enumerate(bots):
        if b is None:
            people[s] = srv.join(t, "P%d" % s, seat=s)["token"]
    clients = {s: await Client(srv, t, tok).connect() for s, tok in people.items()}
    spectator = await Client(srv, t).connect()
    rng = random.Random(seed)
    finals = await asyncio.gather(*(play_randomly(c, rng, send_text=True) for c in clients.values()))
    for u in finals:
        check(u["status"] == "over" and "result" in u and u["result"]["terminal"], game, u.get("result"))
    final = await spectator.until(lambda m: m["type"] == "update" and m["status"] == "over")
    check(final["seat"] is None and final["view"]["spectator"] is True and final["legal"] == [], game)
    status, record = srv.request("GET", "/api/tables/%d/record" % t)
    check(status == 200 and record["game"] == game and record["seed"] == seed, status, record)
    n = len(record["actions"])
    # every client was told every action, in order, each as its viewer may see it
    for s, c in list(clients.items()) + [(None, spectator)]:
        check(sorted(c.events) == list(range(n)), game, "seat", s, "missed events", len(c.events), n)
        for i, ev in c.events.items():
            check(ev["seat"] == record["actions"][i]["seat"], game, ev)
            if ev["seat"] == s:
                check(ev["text"] == record["actions"][i]["action"], game, "own action text", ev)
        for m in c.received:
            if m["type"] == "update":
                check(m["seat"] == s, game, m["seat"], s)
                check(not hidden_fields_of_others(m["view"], s), game, "seat", s, "sees",
                      hidden_fields_of_others(m["view"], s))
    for c in list(clients.values()) + [spectator]:
        await c.close()
    return t


async def test_full_games_of_every_game(srv):
    for i, (game, players, bots) in enumerate(GAMES):
        await full_game(srv, game, players, bots, 100 + i)


# ---------------------------------------------------------------------------
# Refusals over the WebSocket
# ---------------------------------------------------------------------------
async def test_websocket_refusals(srv):
    t = srv.create(game="ninja", players=3, seed=8)
    a = srv.join(t, "A")
    b = srv.join(t, "B")
    # acting before the game started
    ca = await Client(srv, t, a["token"]).connect()
    await ca.recv()
    await ca.send({"type": "act", "action": 0, "id": 1})
    m = await ca.until(lambda m: m["type"] == "error")
    check(m["id"] == 1 and error_code(m) == "not_started", m)
    c = srv.join(t, "C")
    cb = await Client(srv, t, b["token"]).connect()
    cc = await Client(srv, t, c["token"]).connect()
    spectator = await Client(srv, t).connect()
    u = await ca.until(lambda m: m["type"] == "update" and m["status"] == "playing")
    mover = u["view"]["to_move"][0]
    movers = {0: ca, 1: cb, 2: cc}
    waiting = movers[(mover + 1) % 3]
    await waiting.send({"type": "act", "action": 0, "id": 2})
    check(error_code(await waiting.until(lambda m: m["type"] == "error")) == "not_your_turn")
    await waiting.send({"type": "act", "action": 0, "seat": mover, "id": 3})
    m = await waiting.until(lambda m: m["type"] == "error")
    check(m["id"] == 3 and error_code(m) == "wrong_seat", m)
    await spectator.send({"type": "act", "action": 0, "id": 4})
    check(error_code(await spectator.until(lambda m: m["type"] == "error")) == "not_seated")
    await movers[mover].send({"type": "act", "action": "fly away", "id": 5})
    m = await movers[mover].until(lambda m: m["type"] == "error")
    check(error_code(m) == "illegal_action" and m["error"]["message"], m)
    await movers[mover].send({"type": "act", "action": "x\nasobi serve: forged line", "id": 7})
    check(error_code(await movers[mover].until(lambda m: m["type"] == "error")) == "illegal_action")
    check("\nasobi serve: forged line" not in srv.log_text(), "a client wrote a line of the log")
    await movers[mover].send({"type": "dance", "id": 6})
    check(error_code(await movers[mover].until(lambda m: m["type"] == "error")) == "unknown_type")
    await movers[mover].send("[1,2")
    check(error_code(await movers[mover].until(lambda m: m["type"] == "error")) == "bad_json")
    # nothing changed: no update came, the table is as it was
    status, body = srv.request("GET", "/api/tables/%d" % t)
    check(body["actions"] == 0, body)

    # more than 20 messages a second: refused, connection kept
    await asyncio.sleep(1.1)  # a full bucket: the messages above used some of it
    # 30 frames in one write: the server reads them at once, whatever the machine's load (sent one by one,
    # a loaded sanitizer build took them in over 0.25 s, and the bucket refilled to refuse only 4)
    movers[mover].ws.transport.write(b"".join(
        masked_frame(json.dumps({"type": "act", "action": "fly away", "id": 100 + i})) for i in range(30)))
    codes = []
    while len(codes) < 30:
        m = await movers[mover].until(lambda m: m["type"] == "error")
        codes.append(error_code(m))
    check(codes.count("illegal_action") >= 20 and codes.count("rate_limited") >= 5, codes)
    await asyncio.sleep(1.1)
    await movers[mover].send({"type": "act", "action": "fly away", "id": 200})
    check(error_code(await movers[mover].until(lambda m: m["type"] == "error")) == "illegal_action")

    # a message over 64 KiB: refused and the connection closed
    big = await Client(srv, t).connect()
    await big.recv()
    await big.send(json.dumps({"type": "act", "pad": "x" * 70000}))
    m = await big.until(lambda m: m["type"] == "error")
    check(error_code(m) == "message_too_long", m)
    try:
        await big.recv(5)
        check(False, "the connection stayed open after a message over 64 KiB")
    except websockets.ConnectionClosed as e:
        check(e.code == 1009, e.code)

    # a wrong token: refused and closed
    bad = await Client(srv, t, "0" * 32).connect()
    m = await bad.recv()
    check(m["type"] == "error" and error_code(m) == "bad_token", m)
    try:
        await bad.recv(5)
        check(False, "the connection stayed open with a wrong token")
    except websockets.ConnectionClosed as e:
        check(e.code == 1008, e.code)

    # no such table; a foreign Origin; our own Origin
    for url, kw in [(srv.ws_url(999999), {}), (srv.ws_url(t), {"origin": "http://evil.example"})]:
        try:
            ws = await websockets.connect(url, **kw)
            await ws.recv()
            check(False, "upgrade accepted", url, kw)
        except (websockets.InvalidStatusCode, websockets.InvalidHandshake, websockets.ConnectionClosed,
                ConnectionError):
            pass
    own = await Client(srv, t, origin="http://127.0.0.1:%d" % srv.port).connect()
    check((await own.recv())["type"] == "update")
    allowed = await Client(srv, t, origin="https://friends.example").connect()
    check((await allowed.recv())["type"] == "update")

    # acting at a finished table
    rng = random.Random(1)
    await asyncio.gather(*(play_randomly(c, rng) for c in movers.values()))
    await asyncio.sleep(1.1)  # the game's last moves may have used up ca's rate budget (20 a second)
    await ca.send({"type": "act", "action": 0, "id": 300})
    m = await ca.until(lambda m: m["type"] == "error")
    check(error_code(m) == "game_over", m)
    for cl in (ca, cb, cc, spectator, own, allowed):
        await cl.close()
    check("refused" in srv.log_text() and "bad_token" in srv.log_text(), "refusals are logged")


# ---------------------------------------------------------------------------
# Reconnecting
# ---------------------------------------------------------------------------
async def test_reconnect_to_the_same_seat(srv):
    t = srv.create(game="octal", players=3, bots=[None, None, "random"], seed=9)
    a, b = srv.join(t, "A"), srv.join(t, "B")
    ca, cb = await Client(srv, t, a["token"]).connect(), await Client(srv, t, b["token"]).connect()
    rng = random.Random(2)
    await asyncio.gather(play_randomly(ca, rng, stop=lambda c: len(c.events) >= 12),
                         play_randomly(cb, rng, stop=lambda c: len(c.events) >= 12))
    seen = dict(ca.events)
    await ca.close()
    u = await cb.until(lambda m: m["type"] == "update" and not m["seats"][0]["connected"])
    again = await Client(srv, t, a["token"]).connect()
    first = await again.recv()
    check(first["seat"] == 0 and first["seats"][0]["connected"], first["seats"])
    for i, ev in seen.items():
        check(again.events.get(i) == ev, "the reconnected seat is told the same history", i)
    await asyncio.gather(play_randomly(again, rng), play_randomly(cb, rng))
    await again.close()
    await cb.close()


def server_socket_timers(port):
    """The kernel's timer ("tr" in /proc/net/tcp: 0 none, 1 retransmit, 2 keepalive, ...) of every
    established connection whose local port is the server's, with the seconds until it fires."""
    timers = []
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(name) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                local_port, state, timer = int(fields[1].rsplit(":", 1)[1], 16), fields[3], fields[5]
                if local_port == port and state == "01":  # TCP_ESTABLISHED
                    kind, when = timer.split(":")
                    timers.append((int(kind, 16), int(when, 16) / os.sysconf("SC_CLK_TCK")))
    return timers


async def test_silent_connections_are_probed(srv):
    """A peer that vanishes without a FIN (a phone out of coverage) is found by TCP keepalive: every
    connection the server accepted has the kernel's keepalive timer running once it is quiet (docs/server.md,
    How it works; the library's validity timer is off, it cost a walk over every connection per message)."""
    t = srv.create(game="psycle", players=2)
    a = srv.join(t, "A")
    client = await Client(srv, t, a["token"]).connect()
    await client.recv()
    timers = []
    for _ in range(50):  # a connection with bytes still unacknowledged shows its retransmit timer for a moment
        timers = server_socket_timers(srv.port)
        if timers and all(tr == 2 for tr, _ in timers):
            break
        await asyncio.sleep(0.02)
    check(timers and all(tr == 2 for tr, _ in timers), "connections without the keepalive timer", timers)
    # the server's 60 s of silence before the first probe (set on the listening socket, which every
    # accepted socket inherits), not the kernel's default of two hours
    check(all(0 < when <= 60 for _, when in timers), "keepalive not after 60 s of silence", timers)
    await client.close()


# ---------------------------------------------------------------------------
# Hidden information: what a seat is sent does not depend on what it may not see
# ---------------------------------------------------------------------------
async def test_hidden_choice_is_not_sent(srv):
    """PSYCLE: two tables with the same seed; seat 1 chooses a different card
    at each; seat 0's and the spectator's messages are byte-identical (but
    for the table number) until the cards are revealed."""
    sent = []
    for card in (1, 4):
        t = srv.create(game="psycle", players=2, seed=77)
        a, b = srv.join(t, "A"), srv.join(t, "B")
        ca = await Client(srv, t, a["token"]).connect()
        sp = await Client(srv, t).connect()
        cb = await Client(srv, t, b["token"]).connect()
        await cb.until(lambda m: m["type"] == "update" and m["status"] == "playing")
        await cb.send({"type": "act", "action": "play %d" % card, "id": 1})
        await cb.until(lambda m: m["type"] == "update" and len(m["log"]) > 0)
        ua = await ca.until(lambda m: m["type"] == "update" and len(ca.events) == 1)
        us = await sp.until(lambda m: m["type"] == "update" and len(sp.events) == 1)
        check(ua["log"][0]["text"] != "play %d" % card, ua["log"])
        sent.append([json.dumps({k: v for k, v in u.items() if k != "table"}, sort_keys=True) for u in (ua, us)])
        for c in (ca, sp, cb):
            await c.close()
    check(sent[0][0] == sent[1][0], "seat 0 was told something about seat 1's hidden card")
    check(sent[0][1] == sent[1][1], "the spectator was told something about seat 1's hidden card")


def hidden_key_psycle(text, view):
    return "play" if text.startswith("play ") else None


def hidden_key_octal(text, view):
    return "discard" if text.startswith("discard ") else None


def hidden_key_ninja(text, view):
    # "scroll +3 on fire-5": the others see the card, not the tile
    return text.split(" on ", 1)[1] if text.startswith("scroll ") else None


def hidden_key_timemasters(text, view):
    # the card put face down under a timer to delay it: "pick CARD" while delaying
    choice = view.get("choice")
    return "pick" if text.startswith("pick ") and choice and choice.get("kind") == "delay" else None


async def events_at_least(client, n):
    while len(client.events) < n:
        await client.recv()


async def paced_send(client, msg):
    """Send, at most 18 messages a second from one connection (the server
    refuses more than 20 a second): a Time Masters seat acts many times in
    a row."""
    wait = getattr(client, "sent_at", 0) + 1 / 18 - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)
    client.sent_at = time.monotonic()
    await client.send(msg)


async def hidden_choice_diverges(srv, game, players, seed, key):
    """Two tables of people with the same seed play the same moves until a seat
    has two legal moves that the others see alike (the same key); it plays one
    at each table. Then every other seat and the spectator must have been sent
    the very same update at both tables. False if no such choice came."""
    tables, seats, specs = [], [], []
    for _ in range(2):
        t = srv.create(game=game, players=players, seed=seed)
        toks = [srv.join(t, "P%d" % k)["token"] for k in range(players)]
        tables.append(t)
        seats.append([await Client(srv, t, tok).connect() for tok in toks])
        specs.append(await Client(srv, t).connect())
    everyone = [c for side in seats for c in side] + specs
    rng = random.Random(seed)
    n = 0
    try:
        while True:
            for c in everyone:
                await events_at_least(c, n)
            while specs[0].last is None:
                await specs[0].recv()
            if specs[0].last["status"] == "over":
                return False
            j = specs[0].last["view"]["to_move"][0]
            for side in seats:
                while not side[j].last or not side[j].last["legal"] or len(side[j].events) < n:
                    await side[j].recv()
            legal = seats[0][j].last["legal"]
            check(legal == seats[1][j].last["legal"], "the tables drifted apart", game)
            groups = {}
            for a in legal:
                k = key(a["text"], seats[0][j].last["view"])
                if k is not None:
                    groups.setdefault(k, []).append(a)
            pair = next((g for g in groups.values() if len(g) >= 2), None)
            if pair:
                a1, a2 = rng.sample(pair, 2)
                await paced_send(seats[0][j], {"type": "act", "action": a1["id"]})
                await paced_send(seats[1][j], {"type": "act", "action": a2["id"]})
                n += 1
                for c in everyone:
                    await events_at_least(c, n)
                viewers = [k for k in range(players) if k != j]
                for k in viewers + [None]:
                    a = seats[0][k] if k is not None else specs[0]
                    b = seats[1][k] if k is not None else specs[1]
                    # everything the viewer was told: its last update (but its log slice, which depends on
                    # how the server's sends were coalesced), and every log entry and event in all its updates
                    # (nor the chat history only a connection's first update carries: one
                    # table's connection may have had no update since that first one)
                    told = ("table", "log", "chat", "chat_muted")
                    ua = {x: v for x, v in a.last.items() if x not in told}
                    ub = {x: v for x, v in b.last.items() if x not in told}
                    differ = sorted(x for x in set(ua) | set(ub) if ua.get(x) != ub.get(x))
                    differ += [x for x in ("events", "happened") if getattr(a, x) != getattr(b, x)]
                    check(not differ, game, "viewer", k, "was told which of", a1["text"], a2["text"],
                          "seat", j, "chose:", {x: (ua.get(x, getattr(a, x, None)), ub.get(x, getattr(b, x, None)))
                                                 for x in differ})
                # and the chooser itself does see the difference
                check(seats[0][j].events[n - 1]["text"] != seats[1][j].events[n - 1]["text"], game)
                return True
            pick = rng.choice(legal)
            for side in seats:
                await paced_send(side[j], {"type": "act", "action": pick["id"]})
            n += 1
    finally:
        for c in everyone:
            await c.close()


async def test_hidden_choices_of_every_game_are_not_sent(srv):
    """For each game with hidden choices (PSYCLE's card, OCTAL's face-down
    discard, NINJA's face-down scroll tile, Time Masters' card put face down
    under a timer) the choice differs between two tables with the same
    history: no other seat and no spectator can tell. Hidden deals are
    checked against the library's determinization in test_table.c."""
    for game, players, key in (("psycle", 3, hidden_key_psycle), ("octal", 3, hidden_key_octal),
                               ("ninja", 3, hidden_key_ninja), ("timemasters", 2, hidden_key_timemasters)):
        found = False
        for seed in range(500, 540):
            if await hidden_choice_diverges(srv, game, players, seed, key):
                found = True
                break
        check(found, game, ": no hidden choice came up in 40 games")


# ---------------------------------------------------------------------------
# The lobby's socket and the rematch (the browser client's needs)
# ---------------------------------------------------------------------------
async def test_lobby_socket_pushes_the_tables(srv):
    """/ws/lobby sends the open and playing tables on connect, then again
    after a change (at most twice a second): the same entries as GET /api/tables."""
    ws = await websockets.connect("ws://127.0.0.1:%d/ws/lobby" % srv.port, close_timeout=2)
    first = json.loads(await asyncio.wait_for(ws.recv(), 10))
    check(first["type"] == "tables" and isinstance(first["tables"], list), first)
    t = srv.create(game="octal", players=3, bots=[None, "random", "random"])
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        entry = next((x for x in msg["tables"] if x["table"] == t), None)
        if entry:
            break
    status, listed = srv.request("GET", "/api/tables")
    check(entry == next(x for x in listed["tables"] if x["table"] == t), entry)
    await ws.send(json.dumps({"type": "act", "action": "pass"}))
    while True:  # refused, and the socket stays
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if msg["type"] == "error":
            break
    check(msg["error"]["code"] == "unknown_type", msg)
    await ws.close()


async def test_rematch_over_the_socket(srv):
    """At a finished table a seat sends {"type":"rematch"}: every connection's
    next update names the new table, where each person holds the same seat
    under the same token and the game has begun."""
    t = srv.create(game="psycle", players=2, seed=9)
    a, b = srv.join(t, "A"), srv.join(t, "B")
    ca = await Client(srv, t, a["token"]).connect()
    cb = await Client(srv, t, b["token"]).connect()
    sp = await Client(srv, t).connect()
    rng = random.Random(3)
    early = await ca.until(lambda m: m["type"] == "update")
    await ca.send({"type": "rematch", "id": 1})
    refused = await ca.until(lambda m: m["type"] == "error")
    check(refused["error"]["code"] == "game_not_over", refused)
    await asyncio.gather(play_randomly(ca, rng), play_randomly(cb, rng))
    await sp.send({"type": "rematch"})
    check((await sp.until(lambda m: m["type"] == "error"))["error"]["code"] == "not_seated", "a spectator asked")
    # cb may have used up its 20 messages a second playing (a client answering every update at once
    # does): a refusal of its request for that is the rate limit working; it asks again once the
    # bucket has refilled (its requests carry ids, to tell their refusals from late ones of its moves)
    for attempt in range(10):
        await cb.send({"type": "rematch", "id": 100 + attempt})
        m = await cb.until(lambda m: (m["type"] == "error" and m.get("id") == 100 + attempt)
                           or (m["type"] == "update" and "rematch" in m))
        if m["type"] == "update":
            break
        check(m["error"]["code"] == "rate_limited", m)
        await asyncio.sleep(0.3)
    news = [await ca.until(lambda m: m["type"] == "update" and "rematch" in m), m,
            await sp.until(lambda m: m["type"] == "update" and "rematch" in m)]
    new = news[0]["rematch"]
    check(all(u["rematch"] == new for u in news) and new != t, news[0].get("rematch"))
    status, summary = srv.request("GET", "/api/tables/%d" % t)
    check(summary.get("rematch") == new, summary)
    na = await Client(srv, new, a["token"]).connect()  # the same token holds the same seat
    first = await na.until(lambda m: m["type"] == "update")
    check(first["seat"] == 0 and first["status"] == "playing", first["seat"], first["status"])
    for c in (ca, cb, sp, na):
        await c.close()


# ---------------------------------------------------------------------------
# kill -9 and restart: nothing acknowledged is lost
# ---------------------------------------------------------------------------
async def test_event_loops_and_stop_signals(binary):
    """--event-loop: each loop serves (Server.start checks that the start line names it) and stops with
    exit status 0 on SIGINT and on SIGTERM (libev's plugin watches SIGINT only: the server sends SIGTERM
    on to itself as SIGINT); an unknown loop is refused."""
    bad = subprocess.run([binary, "serve", "--port", "0", "--event-loop", "epoll"], capture_output=True, text=True,
                         timeout=10)
    check(bad.returncode == 2 and "--event-loop is libev, libuv or poll" in bad.stderr, bad.returncode, bad.stderr)
    for loop in ("libev", "libuv", "poll"):
        for sig in (signal.SIGINT, signal.SIGTERM):
            srv = Server(binary, args=["--workers", "1", "--event-loop=" + loop]).start()
            try:
                status, body = srv.request("GET", "/healthz")
                check(status == 200, loop, status, body)
            finally:
                srv.stop(remove=False, sig=sig)  # raises unless it exits with status 0, sanitizers silent
            check("asobi serve: stopping" in srv.log_text(), loop, signal.Signals(sig).name, srv.log_text()[-500:])
            shutil.rmtree(srv.dir, ignore_errors=True)


async def test_the_database_is_held_by_one_server(binary):
    """While a server runs, a second server on the same file is refused at start (it would restore and play
    the same tables) and changes nothing; other processes' SQLite still reads the file; once the first
    server has stopped, the next one starts on the file and restores its table."""
    srv = Server(binary, args=["--workers", "1"]).start()
    try:
        t = srv.create(game="psycle", players=2)
        srv.join(t, "A")
        srv.join(t, "B")
        second = subprocess.run([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--db", srv.db],
                                capture_output=True, text=True, timeout=30)
        check(second.returncode == 1 and "is in use by another process" in second.stderr,
              second.returncode, second.stdout, second.stderr)
        con = sqlite3.connect(srv.db, timeout=5)
        rows = con.execute("SELECT seat FROM seats WHERE table_id = ? ORDER BY seat", (t,)).fetchall()
        con.close()
        check(rows == [(0,), (1,)], "the sqlite3 module reads the database while the server runs", rows)
        status, body = srv.request("GET", "/api/tables/%d" % t)
        check(status == 200 and body["status"] == "playing", "the refused server changed nothing", body)
    finally:
        srv.stop(remove=False)
    again = Server(binary, db=srv.db, args=["--workers", "1"]).start()
    try:
        status, body = again.request("GET", "/api/tables/%d" % t)
        check(status == 200 and body["status"] == "playing", body)
    finally:
        again.stop()
        shutil.rmtree(srv.dir, ignore_errors=True)


def serve_once(binary, cwd, env, args=()):
    """Starts `asobi serve` (no --db) in CWD with ENV; (its start line, the icon's status and type, the pages'
    links to it), then stops it."""
    proc = subprocess.Popen([os.path.abspath(binary), "serve", "--host", "127.0.0.1", "--port", "0", "--workers", "1"] + list(args),
                            cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        line = proc.stdout.readline().decode()
        check("listening on http://127.0.0.1:" in line, line)
        port = int(line.split("127.0.0.1:")[1].split()[0])
        with urllib.request.urlopen("http://127.0.0.1:%d/favicon.ico" % port, timeout=10) as r:
            icon = (r.status, r.headers.get("content-type"), r.read())
        pages = []
        for page in ("/", "/t/1", "/rules/ninja.html"):
            with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, page), timeout=10) as r:
                pages.append(r.read().decode())
        return line, icon, pages
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


async def test_default_database_and_icon(binary):
    """Without --db the database is where user data lives, never the current folder: $XDG_DATA_HOME/asobi/
    asobi.db, else ~/.local/share/asobi/asobi.db, its folders created, the path printed at start. The icon
    the pages link is served, and /favicon.ico answers with it (browsers ask for it on every page: a 404
    was logged for each)."""
    top = tempfile.mkdtemp(prefix="asobi-default-db-")
    web = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../web")
    try:
        cwd = os.path.join(top, "repo")
        os.mkdir(cwd)
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(top, "xdg"), HOME=os.path.join(top, "home"))
        line, icon, pages = serve_once(binary, cwd, env, ["--web", web])
        want = os.path.join(top, "xdg", "asobi", "asobi.db")
        check("(database %s," % want in line, "the default database is printed at start", line)
        check(os.path.exists(want), "the database and its folders are created", want)
        check(os.listdir(cwd) == [], "nothing is written into the current folder", os.listdir(cwd))
        check(icon[0] == 200 and icon[1] == "image/svg+xml" and b"<svg" in icon[2], "/favicon.ico", icon[:2])
        check(all('rel="icon" href="/favicon.svg"' in p for p in pages), "every page links the icon")
        for relative in ("", "relative/dir"):  # unset or not absolute: ignored, as the XDG spec says
            env["XDG_DATA_HOME"] = relative
            line, _, _ = serve_once(binary, cwd, env, ["--web", web])
            want = os.path.join(top, "home", ".local", "share", "asobi", "asobi.db")
            check("(database %s," % want in line and os.path.exists(want), repr(relative), line)
        check(os.listdir(cwd) == [], "nothing is written into the current folder", os.listdir(cwd))
        del env["HOME"], env["XDG_DATA_HOME"]
        bad = subprocess.run([os.path.abspath(binary), "serve", "--port", "0"], cwd=cwd, env=env, capture_output=True, text=True,
                             timeout=10)
        check(bad.returncode == 1 and "give --db FILE" in bad.stderr, bad.returncode, bad.stderr)
    finally:
        shutil.rmtree(top, ignore_errors=True)


async def test_kill9_and_restart(binary):
    srv = first = Server(binary, args=["--workers", "2", "--allow-chosen-seeds"]).start()
    try:
        tables = []
        for game, players, bots in GAMES:
            t = srv.create(game=game, players=players, bots=bots, seed=300 + len(tables))
            toks = {s: srv.join(t, "P%d" % s, seat=s)["token"] for s, b in enumerate(bots) if b is None}
            tables.append((t, toks))
        clients = {}
        rng = random.Random(3)
        for t, toks in tables:
            clients[t] = {s: await Client(srv, t, tok).connect() for s, tok in toks.items()}
        # play a while, then kill the server in the middle of everything
        await asyncio.gather(*(play_randomly(c, rng, stop=lambda c: len(c.events) >= 10)
                               for cs in clients.values() for c in cs.values()))
        acknowledged = {t: max((dict(c.events) for c in cs.values()), key=len) for t, cs in clients.items()}
        # and one table played to its end: after the restart it is only in the
        # store, and a connection to it brings it back
        done = srv.create(game="psycle", players=2, bots=[None, "random"], seed=77)
        done_token = srv.join(done, "Fin", seat=0)["token"]
        done_client = await Client(srv, done, done_token).connect()
        final = await play_randomly(done_client, rng)
        await done_client.close()
        srv.kill9()
        first = srv
        for cs in clients.values():
            for c in cs.values():
                try:
                    await c.close()
                except Exception:
                    pass
        srv = Server(binary, db=srv.db, args=["--workers", "2", "--allow-chosen-seeds"]).start()
        running = 0
        for t, toks in tables:
            status, body = srv.request("GET", "/api/tables/%d" % t)
            check(status == 200 and body["status"] in ("playing", "over"), body)
            if body["status"] == "over":
                # a game may end early (OCTAL can), even by a move no client saw before
                # the kill: it comes back over, with every acknowledged action in its record
                status, record = srv.request("GET", "/api/tables/%d/record" % t)
                check(status == 200 and len(record["actions"]) >= len(acknowledged[t]), "actions were lost", t)
                for i, ev in acknowledged[t].items():
                    check(record["actions"][i]["seat"] == ev["seat"], "the record differs from what was told", t, i)
                continue
            running += 1
            check(all(s["connected"] == (s["bot"] is not None) for s in body["seats"]), "nobody is back yet", body)
            check(body["actions"] >= len(acknowledged[t]), "actions were lost", t, body["actions"],
                  len(acknowledged[t]))
            again = {s: await Client(srv, t, tok).connect() for s, tok in toks.items()}
            for c in again.values():
                await c.recv()
                # every action any client saw accepted is there, told to this
                # seat exactly as it was told before the crash
                check(all(i in c.events for i in acknowledged[t]), "an acknowledged action is gone", t)
                before = clients[t][c.last["seat"]].events
                for i, ev in before.items():
                    check(c.events[i] == ev, "history changed across the restart", t, i)
            await asyncio.gather(*(play_randomly(c, rng) for c in again.values()))
            status, record = srv.request("GET", "/api/tables/%d/record" % t)
            check(status == 200, status, record)
            for c in again.values():
                await c.close()
        check(running >= 2, "too few games were still running at the kill for this test to mean much", running)
        # the finished table: the same final update for its seat (view, log,
        # result), a spectator's too, and a rematch from it
        # (a seat and a spectator at once: both wait for the one replay, on a worker)
        back, watcher = await asyncio.gather(Client(srv, done, done_token).connect(), Client(srv, done).connect())
        u = await back.until(lambda m: m["type"] == "update")
        check(u["status"] == "over" and u["seat"] == 0 and u["legal"] == [], u["status"], u["seat"])
        check(u["view"] == final["view"] and u["result"] == final["result"], "the final update changed", u, final)
        check(back.events == done_client.events, "the finished table's history changed")
        check((await watcher.recv())["status"] == "over", "a spectator of the finished table")
        await back.send({"type": "rematch", "id": 1})
        m = await back.until(lambda m: m["type"] == "update" and "rematch" in m)
        status, summary = srv.request("GET", "/api/tables/%d" % done)
        check(summary.get("rematch") == m["rematch"] and summary["status"] == "over", summary)
        await back.close()
        await watcher.close()
    finally:
        srv.stop()
        if srv is not first:
            first.stop()  # removes the first directory (the database) too


KILL_TABLES = [("psycle", 2, [None, None]), ("octal", 3, [None, "random", None]),
               ("ninja", 3, [None, None, "random"]), ("timemasters", 2, [None, None])]
KILLS = 8  # kill -9 this many times, each the instant some client has read an update


async def play_until_killed(srv, tables, rng):
    """Connect every person of every table still playing, play at random, and kill the server with
    SIGKILL the very instant any client has read the k-th update that told it of a new action (k random),
    before anything else runs: whatever that client was told must have been committed already. Returns
    what every client was told: {(table, seat): {index: event}}."""
    target = rng.randint(1, 60)
    seen = {"updates": 0}

    def on_update(client, msg, fresh):
        if fresh and srv.proc.poll() is None:
            seen["updates"] += 1
            if seen["updates"] >= target:
                srv.kill9()  # synchronous: no other coroutine reads or sends before the server is gone

    clients = {}
    for t, toks in tables:
        for seat, tok in toks.items():
            c = await Client(srv, t, tok).connect()
            c.on_update = on_update
            clients[(t, seat)] = c

    async def play(c):
        try:
            await play_randomly(c, random.Random(rng.random()))
        except (websockets.ConnectionClosed, ConnectionError, asyncio.TimeoutError, OSError):
            pass  # the kill

    await asyncio.wait_for(asyncio.gather(*(play(c) for c in clients.values())), 60)
    if srv.proc.poll() is None:  # every game ended before the k-th update: kill now
        srv.kill9()
    for c in clients.values():
        try:
            await c.close()
        except Exception:
            pass
    return {key: dict(c.events) for key, c in clients.items()}


async def check_nothing_told_was_lost(srv, tables, told):
    """After the restart: every action any client was told of is at its table, and each seat is told
    its whole history exactly as before (the same line for the same viewer)."""
    for t, toks in tables:
        status, body = srv.request("GET", "/api/tables/%d" % t)
        check(status == 200, t, status, body)
        longest = max((max(told[(t, s)], default=-1) for s in toks), default=-1)
        check(body["actions"] > longest, "table", t, "has", body["actions"], "actions after the restart, but action",
              longest, "had been told to a client: it was sent before it was committed")
        for seat, tok in toks.items():
            c = await Client(srv, t, tok).connect()
            await c.until(lambda m: m["type"] == "update")
            for i, ev in told[(t, seat)].items():
                check(c.events.get(i) == ev, "table", t, "seat", seat, "was told", ev, "before the kill, and",
                      c.events.get(i), "after the restart")
            await c.close()


async def test_kill9_the_instant_an_update_arrives(binary):
    """Send-before-commit would lose an action some client has already been told of, if the server died
    between the send and the commit. So: several tables playing at once, the server killed with SIGKILL
    the instant a client has read an update (at a random moment, KILLS times), restarted on the same
    database each time, and everything any client was told checked to be there."""
    rng = random.Random(32)
    first = Server(binary, args=["--workers", "2", "--allow-chosen-seeds"]).start()
    servers = [first]
    try:
        srv = first
        tables, serial = [], 0

        def new_table(game, players, bots):
            nonlocal serial
            serial += 1
            t = srv.create(game=game, players=players, bots=bots, seed=3200 + serial)
            return t, {s: srv.join(t, "P%d" % s, seat=s)["token"] for s, b in enumerate(bots) if b is None}

        kinds = {}
        for game, players, bots in KILL_TABLES:
            t = new_table(game, players, bots)
            tables.append(t)
            kinds[t[0]] = (game, players, bots)
        told_total = 0
        for kill in range(KILLS):
            told = await play_until_killed(srv, tables, rng)
            told_total += sum(len(ev) for ev in told.values())
            srv = Server(binary, db=first.db, args=["--workers", "2", "--allow-chosen-seeds"]).start()
            servers.append(srv)
            await check_nothing_told_was_lost(srv, tables, told)
            # a finished table makes way for a new one: several tables are always playing
            for i, (t, toks) in enumerate(tables):
                status, body = srv.request("GET", "/api/tables/%d" % t)
                if body["status"] == "over":
                    tables[i] = new_table(*kinds[t])
                    kinds[tables[i][0]] = kinds[t]
        check(told_total > 0, "no client was told anything")
    finally:
        for s in servers[1:]:
            s.stop()
        first.stop()


# ---------------------------------------------------------------------------
# Guarantees of docs/server.md with no other test (issue 32)
# ---------------------------------------------------------------------------
def masked_frame(text):
    """One client-to-server WebSocket text frame (RFC 6455: masked), for a payload under 126 bytes."""
    payload = text.encode()
    assert len(payload) < 126
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def closed_by_server(client, timeout=10):
    """Read until the server closes the connection; its close frame (code, reason)."""
    try:
        while True:
            await client.recv(timeout)
    except websockets.ConnectionClosed as e:
        return e.code, e.reason


async def test_flood_and_unread_refusals_close(srv):
    """docs/server.md, refusals: more than 100 messages in one second close the connection (1008,
    "rate_limited"), even from a client that reads every reply; more than 32 refusals the client has not
    read close it too (1008)."""
    t = srv.create(game="psycle", players=2, seed=12)
    flood = await Client(srv, t).connect()
    await flood.recv()
    closed = None
    try:
        # up to 250 messages, each sent once the reply to the one before has been read (nothing unread
        # on either side when the server closes): sent within a second or so, more than 100 fall in one
        # second
        for i in range(250):
            await flood.send({"type": "act", "action": 0, "id": i})
            m = await flood.recv(10)
            check(m["type"] == "error" and error_code(m) in ("not_seated", "rate_limited"), m)
    except websockets.ConnectionClosed as e:
        closed = (e.code, e.reason)
    check(closed == (1008, "rate_limited"), "a flood of messages was not closed for it:", closed)

    unread = await Client(srv, t).connect()
    await unread.recv()
    # 60 refusals in one write (one read for the server, no chance to send any reply between them)
    unread.ws.transport.write(b"".join(masked_frame('{"type":"act","action":0,"id":%d}' % i) for i in range(60)))
    code, reason = await closed_by_server(unread)
    check(code == 1008 and reason == "too many unread messages", "unread refusals:", code, reason)
    check(sum(m["type"] == "error" for m in unread.received) <= 32, "more than 32 refusals were queued")


async def test_chunked_body_and_localhost_origin(srv):
    """HTTP: a chunked request body is refused with 411 length_required. WebSockets: with --host
    127.0.0.1, the origin http://localhost:PORT is the server's own (and only with its port)."""
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
        reply = b""
        while b"}" not in reply:
            more = sock.recv(65536)
            if not more:
                break
            reply += more
    check(reply.startswith(b"HTTP/1.1 411 ") and b'"length_required"' in reply, reply[:300])
    t = srv.create(game="psycle", players=2)
    own = await Client(srv, t, origin="http://localhost:%d" % srv.port).connect()
    check((await own.recv())["type"] == "update", "http://localhost:PORT refused")
    await own.close()
    try:
        ws = await websockets.connect(srv.ws_url(t), origin="http://localhost:%d" % (srv.port + 1), close_timeout=2)
        await ws.recv()
        check(False, "http://localhost with another port accepted")
    except (websockets.InvalidStatusCode, websockets.InvalidHandshake, websockets.ConnectionClosed,
            ConnectionError):
        pass


def ignore_file_size_signal():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the file size limit then fails with EFBIG


async def test_a_failed_commit_stops_the_server(binary):
    """docs/server.md: a database that cannot commit stops the server with exit status 1 before anyone
    is told of what it could not keep. The database's files are capped at their present size (the file
    size limit of the running process), then a table is created: its reply never comes, the server
    exits 1, and a restart does not know the table."""
    srv = Server(binary, args=["--workers", "1"], preexec_fn=ignore_file_size_signal).start()
    restarted = None
    try:
        kept = srv.create(game="psycle", players=2)
        limit = max(os.path.getsize(os.path.join(srv.dir, f)) for f in os.listdir(srv.dir) if f.startswith("asobi.db"))
        resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE, (limit, limit))
        try:
            lost = srv.create(game="octal", players=4, bots=["random", "random", "random", None])
            check(False, "table", lost, "was announced although it could not be committed")
        except (ConnectionError, OSError, AssertionError) as e:
            check("announced" not in str(e), e)
        srv.proc.wait(timeout=30)
        check(srv.proc.returncode == 1, "exit status", srv.proc.returncode, srv.log_text()[-500:])
        check("stopping, so that nothing the database does not keep is told to anyone" in srv.log_text(),
              srv.log_text()[-500:])
        restarted = Server(binary, db=srv.db, args=["--workers", "1"]).start()
        status, body = restarted.request("GET", "/api/tables/%d" % kept)
        check(status == 200, "the committed table is gone", status, body)
        status, body = restarted.request("GET", "/api/tables/%d" % (kept + 1))
        check(status == 404, "the table that could not be committed came back", status, body)
    finally:
        if restarted:
            restarted.stop()
        srv.proc = None  # it exited with status 1 on purpose: Server.stop would call that a failure
        srv.stop()


# ---------------------------------------------------------------------------
# Clocks and leavers
# ---------------------------------------------------------------------------
async def test_clock_timeouts_and_grace(binary):
    srv = Server(binary, args=["--workers", "1", "--grace", "1", "--allow-chosen-seeds"]).start()
    try:
        # a move clock of 1 s: the heuristic moves for the idle seat; three
        # timeouts in a row hand it over; reconnecting takes it back
        t = srv.create(game="octal", players=3, bots=[None, "random", "random"], seed=4,
                       clock={"kind": "move", "seconds": 1})
        a = srv.join(t, "Idle")
        ca = await Client(srv, t, a["token"]).connect()
        u = await ca.until(lambda m: m["type"] == "update" and m["seats"][0]["handed"], timeout=30)
        timeouts = [ev for ev in ca.events.values() if ev["seat"] == 0 and ev["by"] == "timeout"]
        check(len(timeouts) >= 3, timeouts)
        check("clock" in u and u["clock"]["kind"] == "move" and len(u["clock"]["remaining_ms"]) == 3, u.get("clock"))
        await ca.close()
        back = await Client(srv, t, a["token"]).connect()
        u = await back.recv()
        check(not u["seats"][0]["handed"], u["seats"])
        await back.close()
        # no clock, but a person who left: after --grace 1 s on its turn a bot moves for it
        t = srv.create(game="ninja", players=2, bots=[None, None], seed=6)
        a, b = srv.join(t, "Stays"), srv.join(t, "Leaves")
        ca = await Client(srv, t, a["token"]).connect()
        await asyncio.wait_for(play_randomly(ca, random.Random(5), stop=lambda c: any(
            ev["by"] == "timeout" for ev in c.events.values())), 60)
        check(any(ev["seat"] == 1 and ev["by"] == "timeout" for ev in ca.events.values()), ca.events)
        # issue 33: while "Leaves" was to move, the updates counted its grace down (--grace 1: at most 1000 ms),
        # and said how long it had been away; a person's level is null
        counting = [m["seats"][1] for m in ca.received if m["type"] == "update" and "grace_left_ms" in m["seats"][1]]
        check(counting and all(0 <= s["grace_left_ms"] <= 1000 and s["away_ms"] >= 0 for s in counting), counting[:3])
        check(all(s["level"] is None for s in ca.last["seats"]), ca.last["seats"])
        await ca.close()
    finally:
        srv.stop()


async def main():
    failures = 0
    # --allow-chosen-seeds: the tests deal the same games every run (issue 31: a server refuses seeds without it)
    srv = Server(BINARY, args=["--workers", "2", "--allow-origin", "https://friends.example",
                               "--allow-chosen-seeds"]).start()
    tests = [(test_http_api, srv), (test_full_games_of_every_game, srv), (test_websocket_refusals, srv),
             (test_reconnect_to_the_same_seat, srv), (test_silent_connections_are_probed, srv),
             (test_hidden_choice_is_not_sent, srv),
             (test_hidden_choices_of_every_game_are_not_sent, srv),
             (test_lobby_socket_pushes_the_tables, srv), (test_rematch_over_the_socket, srv),
             (test_event_loops_and_stop_signals, BINARY), (test_the_database_is_held_by_one_server, BINARY),
             (test_default_database_and_icon, BINARY),
             (test_flood_and_unread_refusals_close, srv), (test_chunked_body_and_localhost_origin, srv),
             (test_a_failed_commit_stops_the_server, BINARY),
             (test_kill9_and_restart, BINARY), (test_kill9_the_instant_an_update_arrives, BINARY),
             (test_clock_timeouts_and_grace, BINARY)]
    try:
        failures += await run_tests(tests)  # ASOBI_SERVE_TESTS: a comma-separated subset, by name
        if failures:
            print("--- server log ---\n" + srv.log_text()[-4000:])
    finally:
        try:
            srv.stop()
        except AssertionError:
            failures += 1
            traceback.print_exc()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
