#!/usr/bin/python3
# test_review_cluster.py — game reviews on several PostgreSQL nodes (issue 46, point 4): any node takes a queued review, and a node killed mid-review gives it back once its lease lapses.
"""Two nodes on one throwaway PostgreSQL (tests/support/pg_fixture.py), short leases (--lease 2: a review's
lease is three of them). Run: test_review_cluster.py ASOBI_BINARY."""
import asyncio
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import pg_fixture  # noqa: E402
from serve_client import Server, run_tests  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else "build/asobi"
LEASE = 2.0


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def node(uri, name):
    return Server(BINARY, db=uri, args=["--workers", "1", "--node", name, "--lease", str(LEASE),
                                        "--review-bot", "ismcts:time=0.5", "--bot-table-pace", "0"]).start()


def claimed(n, table):
    """How many times node n began searching table's review (its log's line)."""
    return len(re.findall(r"review of table %d seat 0: \d+ decisions" % table, n.log_text()))


async def test_a_review_killed_mid_search_is_taken_by_another_node(uri):
    """A review asked on node b is claimed by one node; that node is killed -9 mid-review; the other one
    claims it again once the review's lease lapses, and finishes it; both nodes then answer it done, from the
    job table (no third search)."""
    nodes = {"a": node(uri, "a"), "b": node(uri, "b")}
    try:
        status, made = nodes["a"].request("POST", "/api/tables", {"game": "octal", "players": 3,
                                                                  "bots": ["random"] * 3})
        check(status == 201, status, made)
        t = made["table"]
        for _ in range(600):
            if nodes["a"].request("GET", "/api/tables/%d" % t)[1].get("status") == "over":
                break
            time.sleep(0.1)
        status, got = nodes["b"].request("POST", "/api/tables/%d/review" % t, {"seat": 0})
        check(status == 202, "asked on the node that does not own the table", status, got)
        first = None
        for _ in range(100):
            first = next((k for k, n in nodes.items() if claimed(n, t)), None)
            if first:
                break
            time.sleep(0.1)
        check(first, "no node claimed the review")
        # mid-review: each decision is searched for 0.5 s whatever the build, so the node is still searching. (A
        # judge by iterations cannot be both: at 4000 an idle machine finished a short game's review before the
        # kill; at 20000 the sanitizer build did not finish it within the deadline after the kill, both in CI)
        time.sleep(0.1)
        status, got = nodes[first].request("GET", "/api/tables/%d/review?seat=0" % t)
        check(got["status"] == "running" and got["progress"]["searched"] < got["progress"]["decisions"],
              "the review was not mid-search", got)
        nodes[first].kill9()
        other = "b" if first == "a" else "a"
        killed_at = time.monotonic()
        deadline = killed_at + 3 * LEASE + 120
        while time.monotonic() < deadline:
            status, got = nodes[other].request("GET", "/api/tables/%d/review?seat=0" % t)
            check(status == 200 and got["status"] in ("running", "done"), status, got)
            if got["status"] == "done":
                break
            time.sleep(0.3)
        check(got["status"] == "done" and got["decisions"], "the review never finished on the live node", got)
        check(claimed(nodes[other], t) == 1, "the live node claimed it", claimed(nodes[other], t), "times")
        again = node(uri, first)  # the killed node back: the review is done, asking costs nothing
        nodes[first] = again
        status, got2 = again.request("GET", "/api/tables/%d/review?seat=0" % t)
        check(status == 200 and got2 == got, "the review from the job table", status)
        check(claimed(again, t) == 0, "searched again")
        return "taken over %.1f s after the kill (the review's lease: %.0f s)" % (
            time.monotonic() - killed_at, 3 * LEASE)
    finally:
        for n in nodes.values():
            if n.proc.poll() is None:
                n.stop()


async def main():
    pg_fixture.exit_on_signals()
    with pg_fixture.postgres() as uri:
        return await run_tests([(test_a_review_killed_mid_search_is_taken_by_another_node, uri)],
                               only_variable="ASOBI_CLUSTER_TESTS", timeout=240)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()) and 1)
