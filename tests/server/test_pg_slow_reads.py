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
from serve_client import Client, Server, run_tests  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else "build/asobi"
LOCK_S = 3.0    # how long the database holds the read
BOUND_S = 1.0   # what the loop may take meanwhile (a hang of LOCK_S fails it)


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def node(uri, name):
    return Server(BINARY, db=uri, args=["--workers", "1", "--node", name, "--lease", "60"]).start()


def lock_tables(uri, seconds):
    """A psql session that holds asobi_tables for `seconds`; returns once the lock is held."""
    proc = subprocess.Popen(["psql", uri, "-q", "-c", "BEGIN", "-c", "LOCK TABLE asobi_tables IN ACCESS EXCLUSIVE MODE",
                             "-c", "SELECT pg_sleep(%f)" % seconds, "-c", "COMMIT"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    end = time.monotonic() + 5
    while time.monotonic() < end:
        held = subprocess.run(["psql", uri, "-At", "-c", "SELECT count(*) FROM pg_locks l JOIN pg_class c ON "
                               "c.oid = l.relation WHERE c.relname = 'asobi_tables' AND l.mode = "
                               "'AccessExclusiveLock' AND l.granted"], capture_output=True, text=True).stdout
        if held.strip() == "1":
            return proc
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
    locker = lock_tables(uri, LOCK_S)
    slow = {}
    asker = threading.Thread(target=lambda: slow.update(answer=timed(
        lambda: srv.request("GET", "/api/tables/%d/record" % (other + 1000)))))
    asker.start()
    time.sleep(0.3)  # the slow read is under way on the node
    check(asker.is_alive(), "the record waits on the database's lock")
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
    asker.join(LOCK_S + 10)
    (status, reply), took = slow["answer"]
    check(status == 404, "the slow request is answered after the lock: 404 for no such table", status, reply)
    check(took >= LOCK_S - 0.5, "it did wait for the lock (%.2f s)" % took)
    locker.wait(10)
    await cl.close()
    return "healthz, a join and a move within %.1f s while a read waited %.1f s" % (BOUND_S, took)


async def main():
    pg_fixture.exit_on_signals()
    with pg_fixture.postgres() as uri:
        srv = node(uri, "a")
        failures = 0
        try:
            failures += await run_tests([(test_the_loop_serves_while_a_read_waits, srv, uri)],
                                        only_variable="ASOBI_PG_SLOW_TESTS", timeout=60)
            if failures:
                print("--- log ---\n%s" % srv.log_text()[-3000:])
        finally:
            srv.stop()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
