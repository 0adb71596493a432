# test_accounts_pg.py — accounts on several nodes (issue 42): a session made on one node is valid on every node, and one ended on a node is refused by a node that reads it afresh; on a throwaway PostgreSQL (tests/support/pg_fixture.py).
#
# Usage: python3 test_accounts_pg.py PATH/TO/asobi
import asyncio
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import pg_fixture  # noqa: E402
from serve_client import Server, run_tests  # noqa: E402
from test_accounts import call, check, me, sign_in, sign_up  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else "build/asobi"
signal.alarm(200)


def node(uri, name):
    return Server(BINARY, db=uri, args=["--workers", "1", "--node", name]).start()


async def test_a_session_is_valid_on_every_node(a, b):
    """Signed up on a, signed in on b: each node knows the other's session (read from the store on its
    accounts' worker, never on the loop); names are unique over the nodes; a session ended on b is refused
    by a, which had not seen it; a signed-in seat taken on b keeps its account."""
    on_a = sign_up(a, "Aya")
    check(me(b, on_a) == (200, {"name": "Aya"}), "a's session on b", me(b, on_a))
    check(call(b, "POST", "/api/accounts", {"name": "AYA", "password": "correct horse"})[0] == 409, "unique")
    on_b = sign_in(b, "aya")
    status, _, _ = call(b, "DELETE", "/api/session", cookie=on_b)
    check(status == 200 and me(b, on_b)[0] == 401, "ended on b")
    check(me(a, on_b)[0] == 401, "b's ended session on a", me(a, on_b))
    check(me(a, on_a) == (200, {"name": "Aya"}), "a's own session lives on")
    t = b.create(game="psycle", players=2, bots=[None, "random"])
    status, _, joined = call(b, "POST", "/api/tables/%d/join" % t, {"name": "Aya"}, cookie=on_a)
    check(status == 200, status, joined)


async def main():
    pg_fixture.exit_on_signals()
    with pg_fixture.postgres() as uri:
        a, b = node(uri, "a"), node(uri, "b")
        try:
            failures = await run_tests([(test_a_session_is_valid_on_every_node, a, b)],
                                       only_variable="ASOBI_ACCOUNTS_PG_TESTS", timeout=90)
        finally:
            a.stop()
            b.stop()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
