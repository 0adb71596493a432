#!/usr/bin/python3
# test_pg_slow_reads.py — a node on PostgreSQL keeps serving while a read waits on the database (issue 34: the loop never waits on the network).
"""One node (two for the paging test) on a throwaway PostgreSQL (tests/support/pg_fixture.py). A psql session
holds asobi_tables under an ACCESS EXCLUSIVE lock for a few seconds: a read of it (a table not in memory)
waits that long in the database, while the writes of the tables in play (seats, actions: asobi_seats,
asobi_actions, the leases) do not touch it. The node must answer /healthz, a join and a move at another
table meanwhile. Long leases (--lease 60): no heartbeat (which counts asobi_tables) falls in the lock's
few seconds. Run: test_pg_slow_reads.py ASOBI_BINARY."""
import asyncio
import os
import random
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import pg_fixture  # noqa: E402
import websockets  # noqa: E402
from serve_client import Client, Server, run_tests  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else "build/asobi"
LOCK_S = 2.0    # how long the database holds the read at least
BOUND_S = 1.0   # what the loop may take meanwhile (a hang of LOCK_S fails it)


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def node(uri, name):
    return Server(BINARY, db=uri, args=["--workers", "1", "--node", name, "--lease", "60", "--bot-table-pace", "0.01",
                                        "--tables-per-minute-per-address", "10000", "--table-burst-per-address", "1000"]).start()


class TablesLocked:
    """A psql session that holds asobi_tables until release() (at most `seconds`: a failed test lets go)."""

    def __init__(self, uri, seconds=LOCK_S + 8):
        self.proc = subprocess.Popen(["psql", uri, "-q"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        self.proc.stdin.write("BEGIN;\nLOCK TABLE asobi_tables IN ACCESS EXCLUSIVE MODE;\n"
                              "SET idle_in_transaction_session_timeout = %d;\n" % int(seconds * 1000))
        self.proc.stdin.flush()
        wait_for_lock(uri)

    def release(self):
        self.proc.stdin.write("COMMIT;\n")
        self.proc.stdin.close()
        self.proc.wait(10)


def wait_for_lock(uri):
    end = time.monotonic() + 5
    while time.monotonic() < end:
        held = subprocess.run(["psql", uri, "-At", "-c", "SELECT count(*) FROM pg_locks l JOIN pg_class c ON "
                               "c.oid = l.relation WHERE c.relname = 'asobi_tables' AND l.mode = "
                               "'AccessExclusiveLock' AND l.granted"], capture_output=True, text=True).stdout
        if held.strip() == "1":
            return
        time.sleep(0.05)
    raise AssertionError("the lock was not taken")


def timed(fn):
    started = time.monotonic()
    result = fn()
    return result, time.monotonic() - started


async def test_the_loop_serves_while_a_read_waits(srv, uri):
    """A record asked of a table not in memory waits on the database's lock; /healthz, a join and a move at
    another table are answered within BOUND_S meanwhile, and the slow request is answered once the lock goes."""
    table = srv.create(game="psycle", players=2)
    seat = srv.join(table, "ann")
    other = srv.create(game="psycle", players=2)
    cl = await Client(srv, table, seat["token"]).connect()
    srv.join(table, "bob")
    update = await cl.until(lambda m: m.get("type") == "update" and m["status"] == "playing")
    locker = TablesLocked(uri)
    locked_at = time.monotonic()
    slow = {}
    asker = threading.Thread(target=lambda: slow.update(answer=timed(
        lambda: srv.request("GET", "/api/tables/%d/record" % (other + 1000)))))
    asker.start()
    # a replay's step too (issue 39: it read the database on the loop, /healthz took 2.4 s behind a 3 s lock)
    replayer = threading.Thread(target=lambda: slow.update(replay=timed(
        lambda: srv.request("GET", "/api/tables/%d/replay?step=3" % (other + 1000)))))
    replayer.start()
    time.sleep(0.3)  # the slow read is under way on the node
    check(asker.is_alive() and replayer.is_alive(), "the record and the replay wait on the database's lock")
    (status, _), took = await asyncio.to_thread(timed, lambda: srv.request("GET", "/healthz"))
    check(status == 200 and took < BOUND_S, "/healthz answered in %.2f s" % took, status)
    (status, _), took = await asyncio.to_thread(timed, lambda: srv.request(
        "POST", "/api/tables/%d/join" % other, {"name": "cy"}))
    check(status == 200 and took < BOUND_S, "a join at another table answered in %.2f s" % took, status)
    check(update["legal"], "ann moves first")
    started = time.monotonic()
    await cl.send({"type": "act", "action": random.Random(1).choice(update["legal"])["id"], "id": 1})
    await cl.until(lambda m: m.get("type") == "update" and len(m["log"]) > len(update["log"]), BOUND_S)
    took = time.monotonic() - started
    check(took < BOUND_S, "a move answered in %.2f s" % took)
    await asyncio.sleep(max(0, LOCK_S - (time.monotonic() - locked_at)))
    check(asker.is_alive(), "the record still waits on the database's lock")
    locker.release()
    asker.join(10)
    replayer.join(10)
    (status, reply), took = slow["answer"]
    check(status == 404, "the slow request is answered after the lock: 404 for no such table", status, reply)
    (status, reply), _ = slow["replay"]
    check(status == 404, "the replay is answered after the lock: 404 for no such table", status, reply)
    await cl.close()
    return "healthz, a join and a move within %.1f s while a read waited %.1f s" % (BOUND_S, took)


async def test_a_websocket_waits_for_its_rows_off_the_loop(srv, uri):
    """A WebSocket on a table not in memory: its rows are read off the loop (the socket waits, /healthz does
    not), and once the lock goes it hears that there is no such table."""
    locker = TablesLocked(uri)
    started = time.monotonic()
    opening = asyncio.ensure_future(Client(srv, 99999).connect())
    await asyncio.sleep(0.3)
    (status, _), took = await asyncio.to_thread(timed, lambda: srv.request("GET", "/healthz"))
    check(status == 200 and took < BOUND_S, "/healthz answered in %.2f s" % took, status)
    cl = await opening
    try:
        early = await cl.recv(max(0.1, LOCK_S - (time.monotonic() - started)))
    except asyncio.TimeoutError:
        early = None
    check(early is None, "nothing before the lock goes: the rows are still being read", early)
    locker.release()
    msg = await cl.recv(10)
    waited = time.monotonic() - started
    check(msg.get("type") == "error" and msg["error"]["code"] == "not_found", "not_found", msg)
    await cl.close()
    return "/healthz in %.2f s while a socket waited %.1f s for its rows" % (took, waited)


async def until_over(srv, table, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        status, summary = srv.request("GET", "/api/tables/%d" % table)
        if status == 200 and summary["status"] == "over":
            return summary
        await asyncio.sleep(0.1)
    raise AssertionError("table %d did not finish" % table)


async def test_a_finished_table_comes_back_on_another_node(a, b):
    """A table finished on node a is not in node b's memory: a WebSocket on b brings it back from rows read
    on b's store reader, its first update the finished game; its summary and record are read off b's loop."""
    table = a.create(game="psycle", players=2, bots=["random", "random"])
    await until_over(a, table)
    status, summary = b.request("GET", "/api/tables/%d" % table)
    check(status == 200 and summary["status"] == "over", "b answers the summary from the database", status, summary)
    status, record = b.request("GET", "/api/tables/%d/record" % table)
    check(status == 200 and isinstance(record, dict), "b answers the record from the database", status)
    end = time.monotonic() + 3
    while True:  # 421 while b still counts the table as a's (its map of leases is a NOTIFY behind): ask again
        try:
            cl = await Client(b, table).connect()
            break
        except websockets.InvalidStatusCode as e:
            check(e.status_code == 421 and time.monotonic() < end, "b takes the socket", e)
            await asyncio.sleep(0.1)
    update = await cl.until(lambda m: m.get("type") == "update")
    check(update["status"] == "over", "the table is back on b, over", update["status"])
    await cl.close()
    check("table %d is back in memory from the store" % table in b.log_text(), "b brought it back")


def psql(uri, sql):
    return subprocess.run(["psql", uri, "-At", "-c", sql], capture_output=True, text=True, check=True).stdout.strip()


async def test_a_table_no_node_can_restore_is_let_go(a, b, uri):
    """A table its new owner cannot restore (a spec this version cannot replay) is not held forever under a
    lease renewed by its node's name: the node lets it go at once and never takes it again (no spinning)."""
    args = ["--workers", "1", "--lease", "2"]
    c = Server(BINARY, db=uri, args=args + ["--node", "c"]).start()
    table = c.create(game="psycle", players=2)
    c.join(table, "ann")
    c.stop()  # SIGTERM: its leases end at once
    psql(uri, "UPDATE asobi_tables SET spec = '{\"game\":\"no such game\"}' WHERE id = %d" % table)
    d = Server(BINARY, db=uri, args=args + ["--node", "d"]).start()  # takes the orphan at its first heartbeat
    try:
        await asyncio.sleep(2.5)  # three of d's heartbeats (a third of its lease each)
        held = psql(uri, "SELECT node FROM asobi_leases WHERE table_id = %d AND expires > now()" % table)
        check(held == "", "nobody holds the table's lease any more", held)
        tries = [n.log_text().count("table %d cannot be restored" % table) for n in (a, b, d)]
        check(sum(tries) >= 1 and max(tries) == 1, "tried once by a node, never again by it", tries)
    finally:
        d.stop()
    return "let go after %d failed restore(s)" % sum(tries)


def every_page(srv):
    """The ids of GET /api/tables, page after page (?before=next) to the end."""
    ids, before = [], None
    for _ in range(50):
        status, page = srv.request("GET", "/api/tables" + ("?before=%d" % before if before else ""))
        check(status == 200, "a page", status, page)
        ids += [e["table"] for e in page["tables"]]
        if "next" not in page:
            return ids
        before = page["next"]
    raise AssertionError("no end to the pages")


async def test_every_page_lists_every_nodes_tables(a, b):
    """More than a page of tables on each of two nodes: paging GET /api/tables?before=ID on either node
    lists every table of both, each once, newest first (not only the first page merges the other node's)."""
    made = set()
    for _ in range(70):  # 140 tables in all, over a page (100) on each node's list
        made.add(a.create(game="psycle", players=2))
        made.add(b.create(game="psycle", players=2))
    end = time.monotonic() + 5
    for srv in (a, b):
        while True:  # the other node's entries come with its next publication (twice a second at most)
            ids = every_page(srv)
            if made <= set(ids) or time.monotonic() > end:
                break
            await asyncio.sleep(0.2)
        check(made <= set(ids), "node on port %d pages every table: %d of %d missing" % (
            srv.port, len(made - set(ids)), len(made)))
        check(len(ids) == len(set(ids)) and ids == sorted(ids, reverse=True), "each once, newest first")
    return "%d tables over two nodes, every one on each node's pages" % len(made)


async def main():
    pg_fixture.exit_on_signals()
    with pg_fixture.postgres() as uri:
        a, b = node(uri, "a"), node(uri, "b")
        failures = 0
        try:
            failures += await run_tests([
                (test_the_loop_serves_while_a_read_waits, a, uri),
                (test_a_websocket_waits_for_its_rows_off_the_loop, a, uri),
                (test_a_finished_table_comes_back_on_another_node, a, b),
                (test_every_page_lists_every_nodes_tables, a, b),
                (test_a_table_no_node_can_restore_is_let_go, a, b, uri),
            ], only_variable="ASOBI_PG_SLOW_TESTS", timeout=60)
            if failures:
                for n in (a, b):
                    print("--- log of node on port %d ---\n%s" % (n.port, n.log_text()[-3000:]))
        finally:
            a.stop()
            b.stop()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
