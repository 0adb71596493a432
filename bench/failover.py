# failover.py — several `asobi serve` nodes on one PostgreSQL: the time from `kill -9` of a table's owner to the first update its seats get from the new owner.
#
# Usage: /usr/bin/python3 bench/failover.py build/asobi [--kills 20] [--nodes 3] [--lease 3]
#
# Starts a throwaway PostgreSQL (tests/support/pg_fixture.py) and --nodes nodes on loopback with --lease
# seconds. Each round: a 2-player PSYCLE table of people on one node, both seats connected and playing
# random moves; its owner is killed with SIGKILL; each seat then does what the browser client does (ask
# any live node for the table's summary, connect to its "ws" with the same token, again on a refusal)
# until an update comes; the killed node is started again (same --node name) for the next round. Prints
# one JSON line per kill and a summary line: median and worst seconds from the kill to the first update
# on the new owner (both seats back: the later of the two).
import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "server"))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "support"))
import pg_fixture  # noqa: E402
import test_cluster  # noqa: E402  (its helpers: ask, At, connect_where_it_is)
from serve_client import Client, Server, play_randomly  # noqa: E402


def start(binary, uri, name, lease):
    return Server(binary, db=uri, args=["--workers", "1", "--node", name, "--lease", str(lease),
                                        "--allow-chosen-seeds", "--grace", "60"]).start()


async def one_kill(nodes, victim, rng):
    owner = nodes[victim]
    t = owner.create(game="psycle", players=2, seed=rng.randrange(1 << 30))
    toks = {s: owner.join(t, "P%d" % s, seat=s)["token"] for s in (0, 1)}
    clients = [await Client(owner, t, tok).connect() for tok in toks.values()]
    await asyncio.gather(*(play_randomly(c, random.Random(rng.random()), stop=lambda c: len(c.events) >= 4)
                           for c in clients))
    for c in clients:
        await c.close()
    killed = time.monotonic()
    owner.kill9()
    test_cluster.LEASE = 60  # (the helpers' deadlines: generous, this measures)
    backs = await asyncio.gather(*(reconnect(nodes, t, tok, killed) for tok in toks.values()))
    return max(backs)


async def reconnect(nodes, table, token, killed):
    c = await test_cluster.connect_where_it_is(nodes, table, token)
    await c.until(lambda m: m["type"] == "update")
    back = time.monotonic() - killed
    await c.close()
    return back


async def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("binary")
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--nodes", type=int, default=3)
    ap.add_argument("--lease", type=float, default=3.0)
    args = ap.parse_args()
    test_cluster.BINARY = args.binary
    pg_fixture.exit_on_signals()
    rng = random.Random(34)
    times = []
    with pg_fixture.postgres() as uri:
        names = ["n%d" % i for i in range(args.nodes)]
        nodes = [start(args.binary, uri, n, args.lease) for n in names]
        try:
            for k in range(args.kills):
                victim = k % args.nodes
                took = await one_kill(nodes, victim, rng)
                times.append(took)
                print(json.dumps({"kill": k + 1, "node": names[victim], "lease_s": args.lease,
                                  "seconds_to_first_update": round(took, 3)}), flush=True)
                nodes[victim].stop()  # (killed: only its folder is removed)
                nodes[victim] = start(args.binary, uri, names[victim], args.lease)
        finally:
            for n in nodes:
                try:
                    n.stop()
                except AssertionError:
                    pass
    print(json.dumps({"kills": len(times), "lease_s": args.lease, "median_s": round(statistics.median(times), 3),
                      "worst_s": round(max(times), 3), "best_s": round(min(times), 3)}), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
