#!/usr/bin/python3
# test_cluster.py — several `asobi serve` nodes on one PostgreSQL (issue 34): owners, redirects, kill -9 and kill -STOP of an owner, the lobby everywhere.
"""Three nodes on one throwaway PostgreSQL (tests/support/pg_fixture.py), each on a free loopback port,
with short leases (--lease) so that a takeover takes about two seconds. Run: test_cluster.py ASOBI_BINARY."""
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import pg_fixture  # noqa: E402
import websockets  # noqa: E402
from serve_client import Client, Server, play_randomly, run_tests  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else "build/asobi"
LEASE = 3.0  # seconds (--lease): a dead owner's tables are taken within LEASE + a heartbeat (2 s had a
#             loaded machine's ASan build miss a heartbeat's slack now and then: a node then drops its tables)


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def node(uri, name):
    return Server(BINARY, db=uri, args=["--workers", "1", "--node", name, "--lease", str(LEASE),
                                        "--allow-chosen-seeds", "--grace", "30"]).start()


def http(url, method="GET", body=None, timeout=10, headers=None):
    """(status, JSON, Location) of one request to an absolute URL, redirects not followed."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method,
                                 headers=dict({"Content-Type": "application/json"}, **(headers or {})))

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kw):
            return None
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(req, timeout=timeout) as r:
            return r.status, json.loads(r.read().decode() or "null"), r.headers.get("location")
    except urllib.error.HTTPError as e:
        text = e.read().decode()
        return e.code, (json.loads(text) if text.startswith("{") else text), e.headers.get("location")


def ask(srv, method, path, body=None, timeout=LEASE + 8):
    """A request to any node, as a browser would make it: a 307 to the table's owner followed (POST body
    and all), a 503 table_moving asked again a little later. (status, reply, the node's URL that answered)."""
    end = time.monotonic() + timeout
    url = srv.url(path)
    while True:
        try:
            status, reply, location = http(url, method, body)
        except (urllib.error.URLError, OSError) as e:
            # the owner the database still names is dead or paused (its lease has not lapsed yet): a
            # browser sees a network error and asks again a little later
            check(time.monotonic() < end, "no live node answers for", path, e)
            time.sleep(0.2)
            url = srv.url(path)
            continue
        if status == 307:
            check(location and location.endswith(path), "a redirect to the same path", location)
            url = location
            continue
        if status == 503 and isinstance(reply, dict) and reply["error"]["code"] == "table_moving" \
                and time.monotonic() < end:
            time.sleep(0.2)
            url = srv.url(path)
            continue
        return status, reply, url


class At:
    """Where a client connects: a table's "ws" (the owner's WebSocket URL)."""

    def __init__(self, ws):
        self.ws = ws

    def ws_url(self, table, token=None):
        return self.ws + ("?token=" + token if token else "")


def owner_of(nodes, ws):
    return next(n for n in nodes if ws.startswith("ws://127.0.0.1:%d/" % n.port))


async def connect_where_it_is(nodes, table, token):
    """Ask any live node for the table's summary and connect to its "ws" with the token, as table.js does;
    a 421 (moved again meanwhile) asks again."""
    end = time.monotonic() + LEASE + 10
    while True:
        live = [n for n in nodes if n.proc.poll() is None]
        status, summary, _ = ask(live[0], "GET", "/api/tables/%d" % table, timeout=max(1, end - time.monotonic()))
        check(status == 200 and "ws" in summary, "a summary says where the table is", status, summary)
        try:
            return await Client(At(summary["ws"]), table, token).connect()
        except (websockets.InvalidStatusCode, OSError) as e:
            check(time.monotonic() < end, "no node took the table", table, e)
            await asyncio.sleep(0.2)


def replays(record, workdir):
    """`asobi replay` reads the record to its end (exit status 0)."""
    path = os.path.join(workdir, "record.json")
    with open(path, "w") as f:
        json.dump(record, f)
    done = subprocess.run([BINARY, "replay", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
    return done.returncode == 0


async def test_created_on_one_joined_through_another_played_on_its_owner(nodes, workdir):
    a, b, c = nodes
    t = a.create(game="psycle", players=2, seed=11)
    # joined through the two other nodes: each redirects to the owner, which answers with "ws"
    tokens = {}
    for seat, via in ((0, b), (1, c)):
        status, reply, answered = ask(via, "POST", "/api/tables/%d/join" % t, {"name": "P%d" % seat, "seat": seat})
        check(status == 200, "joined through another node", status, reply)
        check(answered.startswith(a.url("")), "the owner answered the join", answered)
        check(reply["ws"] == "ws://127.0.0.1:%d/ws/tables/%d" % (a.port, t), "the owner's WebSocket", reply)
        tokens[seat] = (reply["token"], reply["ws"])
    # a node that does not own it refuses its WebSocket with 421: ask the summary again
    try:
        await Client(b, t, tokens[0][0]).connect()
        check(False, "a node that does not own the table took its WebSocket")
    except websockets.InvalidStatusCode as e:
        check(e.status_code == 421, "421 Misdirected Request", e.status_code)
    clients = [await Client(At(ws), t, tok).connect() for tok, ws in tokens.values()]
    rng = random.Random(5)
    final = (await asyncio.gather(*(play_randomly(cl, rng) for cl in clients)))[0]
    check(final["status"] == "over", final["status"])
    for cl in clients:
        await cl.close()
    # every node takes the others' pages (their public URLs' origins), and no other site's
    for origin, want in (("http://127.0.0.1:%d" % a.port, 201), ("https://elsewhere.example", 403)):
        status, reply, _ = http(b.url("/api/tables"), "POST", {"game": "psycle"}, headers={"Origin": origin})
        check(status == want, "a POST from", origin, status, reply)
    status, record, _ = ask(c, "GET", "/api/tables/%d/record" % t)  # a finished table: from the database
    check(status == 200 and len(record["actions"]) == len(clients[0].events), status)
    check(replays(record, workdir), "the record replays")


async def test_the_lobby_of_every_node_lists_every_table(nodes, workdir):
    made = [n.create(game="psycle", players=2, seed=20 + i) for i, n in enumerate(nodes)]
    end = time.monotonic() + 10
    for n in nodes:
        while True:
            status, page = n.request("GET", "/api/tables")
            listed = {e["table"] for e in page["tables"]}
            if set(made) <= listed:
                break
            check(time.monotonic() < end, "node", n.port, "lists", sorted(listed), "not every one of", made)
            await asyncio.sleep(0.1)
        # the lobby's socket too
        ws = await websockets.connect("ws://127.0.0.1:%d/ws/lobby" % n.port)
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        check(set(made) <= {e["table"] for e in msg["tables"]}, "the lobby socket of", n.port)
        check(all("ws" in e for e in msg["tables"]), "every entry says where it is played")
        await ws.close()


async def start_tables(owner, rng, count):
    """count 2-player tables of people created on owner, both seats joined; [(table, {seat: token})]."""
    tables = []
    for i in range(count):
        game = ("psycle", "timemasters")[i % 2]
        t = owner.create(game=game, players=2, seed=rng.randrange(1 << 30))
        tables.append((t, {s: owner.join(t, "P%d" % s, seat=s)["token"] for s in (0, 1)}))
    return tables


async def test_kill9_of_an_owner_mid_game(nodes, workdir, uri):
    a, b, c = nodes
    rng = random.Random(9)
    tables = await start_tables(a, rng, 3)
    clients = {(t, s): await Client(a, t, tok).connect() for t, toks in tables for s, tok in toks.items()}
    await asyncio.gather(*(play_randomly(cl, random.Random(rng.random()), stop=lambda cl: len(cl.events) >= 6)
                           for cl in clients.values()))
    told = {key: dict(cl.events) for key, cl in clients.items()}
    killed = time.monotonic()
    a.kill9()
    for cl in clients.values():
        try:
            await cl.close()
        except Exception:
            pass
    # the seats reconnect with their tokens, wherever the tables are now
    again = {}
    for t, toks in tables:
        for s, tok in toks.items():
            again[(t, s)] = await connect_where_it_is(nodes, t, tok)
    for (t, s), cl in again.items():
        await cl.until(lambda m: m["type"] == "update")
        check(time.monotonic() - killed < LEASE + 5 + 5, "the tables were taken within the lease + 5 s")
        for i, ev in told[(t, s)].items():
            check(cl.events.get(i) == ev, "table", t, "seat", s, "was told", ev, "and now", cl.events.get(i))
    took = time.monotonic() - killed
    # the dead node's tables went to the live ones, none holding much more than its even share
    # (every one of them, the other tests' too: at a heartbeat a node takes up to its share, at least one)
    end = time.monotonic() + LEASE + 5
    while True:
        out = subprocess.run(["psql", uri, "-At", "-c", "SELECT node, count(*) FROM asobi_leases GROUP BY node"],
                             capture_output=True, text=True, check=True).stdout
        held = {n: int(k) for n, k in (line.split("|") for line in out.split())}
        if "a" not in held:
            break
        check(time.monotonic() < end, "the dead node still holds tables", held)
        await asyncio.sleep(0.2)
    share = -(-sum(held.values()) // 2)
    check(all(k <= share + 1 for k in held.values()), "the tables are not spread evenly", held)
    await asyncio.gather(*(play_randomly(cl, random.Random(rng.random())) for cl in again.values()))
    for t, toks in tables:
        status, record, _ = ask(b, "GET", "/api/tables/%d/record" % t)
        check(status == 200, status, record)
        check(replays(record, workdir), "the record of table", t, "replays")
    for cl in again.values():
        await cl.close()
    return "taken over and every seat back %.1f s after the kill" % took


def actions_by_epoch(uri, table):
    out = subprocess.run(["psql", uri, "-At", "-c",
                          "SELECT epoch, count(*) FROM asobi_actions WHERE table_id = %d GROUP BY epoch ORDER BY epoch"
                          % table], capture_output=True, text=True, check=True).stdout
    return {int(e): int(n) for e, n in (line.split("|") for line in out.split())}


def actions_in_store(uri, table):
    """The actions the database keeps for table: {index: seat}."""
    out = subprocess.run(["psql", uri, "-At", "-c",
                          "SELECT idx, seat FROM asobi_actions WHERE table_id = %d" % table],
                         capture_output=True, text=True, check=True).stdout
    return {int(i): int(s) for i, s in (line.split("|") for line in out.split())}


async def test_stop_cont_of_an_owner_appends_nothing(nodes, workdir, uri):
    """An owner paused past its lease (kill -STOP) loses its tables; woken (kill -CONT), it must not append
    a single action, and it sends its clients away (close 4001, "moved"). Two ways a paused node could
    write: a move it accepted just before the pause, its commit still on the way to the database when the
    lease lapses (held here by a lock on the lease row, so that it reaches the database after the lapse:
    only the fence in asobi_apply stops it); and moves waiting in its sockets, read when it wakes."""
    a, b, c = nodes
    rng = random.Random(12)
    tables = await start_tables(c, rng, 2)
    clients = {(t, s): await Client(c, t, tok).connect() for t, toks in tables for s, tok in toks.items()}
    await asyncio.gather(*(play_randomly(cl, random.Random(rng.random()), stop=lambda cl: len(cl.events) >= 4)
                           for cl in clients.values()))
    before = {t: actions_by_epoch(uri, t) for t, _ in tables}
    # the first table's lease row locked: the owner's next commit to it waits in the database
    first = tables[0][0]
    lock = subprocess.Popen(["psql", uri, "-qAt"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    lock.stdin.write("BEGIN; SELECT 'locked' FROM asobi_leases WHERE table_id = %d FOR UPDATE;\n" % first)
    lock.stdin.flush()
    check(lock.stdout.readline().strip() == "locked", "the lease row is locked")
    mover = next(cl for (t, s), cl in clients.items() if t == first and cl.last["legal"])
    await mover.send({"type": "act", "action": mover.last["legal"][0]["id"], "id": 98})
    await asyncio.sleep(0.5)  # accepted, its commit waiting on the lock: nobody is told of it
    c.proc.send_signal(signal.SIGSTOP)
    try:
        # moves sent to the paused owner: they wait in its sockets until it wakes
        for cl in clients.values():
            if cl is not mover and cl.last and cl.last["legal"]:
                await cl.send({"type": "act", "action": cl.last["legal"][0]["id"], "id": 99})
        await asyncio.sleep(LEASE + 0.5)
        lock.stdin.write("COMMIT;\n")  # the owner's commit reaches the lease now, past the lapse
        lock.stdin.close()
        lock.wait(timeout=10)
        # another node takes the tables
        end = time.monotonic() + LEASE + 8
        for t, _ in tables:
            while True:  # (never following a redirect to the paused node: it would not answer)
                status, summary, location = http(a.url("/api/tables/%d" % t))
                if status == 200 or (status == 307 and not location.startswith(c.url(""))):
                    break
                check(time.monotonic() < end, "nobody took table", t, "from the paused node")
                await asyncio.sleep(0.2)
        taken = {t: actions_by_epoch(uri, t) for t, _ in tables}
    finally:
        c.proc.send_signal(signal.SIGCONT)
    # its clients are sent away, never told of the move it could not keep ...
    for cl in clients.values():
        try:
            while True:
                await cl.recv(timeout=10)
        except websockets.ConnectionClosed as e:
            check(e.code == 4001, "closed with 4001 (moved)", e.code, e.reason)
    # (each seat was told only what the database keeps: another seat's move that was in flight when the
    # mover acted may still reach it, so the count of what it was told is no measure, the database is)
    for (t, s), cl in clients.items():
        kept = actions_in_store(uri, t)
        for i, ev in cl.events.items():
            check(kept.get(i) == ev["seat"], "a move the owner could not keep was told: table", t, "seat", s,
                  "heard of action", i, ev, "which the database does not keep:", kept)
    await asyncio.sleep(1.0)  # time for anything the woken node might still write
    # ... and nothing was written under its old epoch after the lapse
    for t, _ in tables:
        old = max(before[t])
        now = actions_by_epoch(uri, t)
        check(now.get(old, 0) == before[t][old] == taken[t].get(old, 0),
              "the paused owner appended to table", t, "after losing it:", before[t], taken[t], now)
    # the seats go on where the tables are now, and the games finish
    again = {key: await connect_where_it_is(nodes, key[0], dict(tables)[key[0]][key[1]]) for key in clients}
    await asyncio.gather(*(play_randomly(cl, random.Random(rng.random())) for cl in again.values()))
    for cl in again.values():
        await cl.close()
    check(c.proc.poll() is None, "the woken node lives on")


async def main():
    failures = 0
    workdir = tempfile.mkdtemp(prefix="asobi-cluster-")
    pg_fixture.exit_on_signals()
    with pg_fixture.postgres() as uri:
        nodes = [node(uri, name) for name in ("a", "b", "c")]
        try:
            failures += await run_tests([
                (test_created_on_one_joined_through_another_played_on_its_owner, nodes, workdir),
                (test_the_lobby_of_every_node_lists_every_table, nodes, workdir),
                (test_stop_cont_of_an_owner_appends_nothing, nodes, workdir, uri),
                (test_kill9_of_an_owner_mid_game, nodes, workdir, uri),
            ], only_variable="ASOBI_CLUSTER_TESTS", timeout=120)
            if failures:
                for n in nodes:
                    print("--- log of node on port %d ---\n%s" % (n.port, n.log_text()[-3000:]))
        finally:
            for n in nodes:
                try:
                    if n.proc.poll() is None or n.proc.returncode != -9:
                        n.stop()
                except AssertionError:
                    failures += 1
                    import traceback
                    traceback.print_exc()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
