# test_ratings_api.py — rated tables and the ratings' API against the real `asobi serve` (issue 42): the refusals, "rated" in the list, a rated game played by three accounts moving their ratings, the profile's and leaderboard's shapes; their reads' limit per address.
#
# Usage: python3 test_ratings_api.py PATH/TO/asobi   (CTest runs it; every wait has a timeout)
import asyncio
import json
import os
import random
import sys
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_client import Client, Server, play_randomly, run_tests  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ASOBI_BINARY", "build/asobi")


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def sign_up(srv, name):
    """A new account, signed in: the Cookie header its session cookie makes."""
    req = urllib.request.Request(srv.url("/api/accounts"), method="POST",
                                 data=json.dumps({"name": name, "password": "correct horse " + name}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        check(r.status == 201, r.status)
        cookie = r.headers.get("Set-Cookie")
    return {"Cookie": cookie.split(";")[0]}


def refused(srv, method, path, body, headers, status, code):
    got, reply = srv.request(method, path, body, headers=headers)
    check(got == status and isinstance(reply, dict) and reply["error"]["code"] == code, method, path, body, got, reply)


async def test_rated_tables_refusals_and_ratings(binary):
    srv = Server(binary, args=["--workers", "1"]).start()
    try:
        aoi, ben, chie = (sign_up(srv, n) for n in ("Aoi", "Ben", "Chie"))
        rated = {"game": "psycle", "players": 3, "rated": True}
        refused(srv, "POST", "/api/tables", rated, None, 401, "account_required")
        refused(srv, "POST", "/api/tables", dict(rated, bots=[None, "random", None]), aoi, 400, "rated_needs_people")
        status, made = srv.request("POST", "/api/tables", rated, headers=aoi)
        check(status == 201, status, made)
        t = made["table"]
        refused(srv, "POST", "/api/tables/%d/join" % t, {"name": "Guest"}, None, 401, "account_required")
        tokens = []
        for who in (aoi, ben, chie):
            status, joined = srv.request("POST", "/api/tables/%d/join" % t, {"name": "Mallory"}, headers=who)
            check(status == 200, status, joined)
            tokens.append(joined["token"])
        refused(srv, "POST", "/api/tables/%d/join" % t, {"name": "Aoi"}, aoi, 409, "already_seated")
        status, summary = srv.request("GET", "/api/tables/%d" % t)
        check(summary.get("rated") is True, summary)
        check([s["name"] for s in summary["seats"]] == ["Aoi", "Ben", "Chie"], summary)  # the accounts' names
        status, page = srv.request("GET", "/api/tables")
        check(any(x["table"] == t and x.get("rated") is True for x in page["tables"]), page)
        # three people play it to its end
        clients = [await Client(srv, t, token).connect() for token in tokens]
        rng = random.Random(42)
        await asyncio.gather(*(play_randomly(c, rng) for c in clients))
        for c in clients:
            await c.close()
        for name in ("Aoi", "ben", "CHIE"):  # any case
            for _ in range(50):  # the finish's commit, then the read
                status, p = srv.request("GET", "/api/players/" + name)
                if status == 200 and p["ratings"]:
                    break
                await asyncio.sleep(0.1)
            check(status == 200, name, status, p)
            r = p["ratings"]["psycle"]
            check(set(r) >= {"mu", "sigma", "rating", "games", "provisional"}, r)
            check(r["games"] == 1 and r["provisional"] is True, r)
            check(abs(r["rating"] - (r["mu"] - 3 * r["sigma"])) < 1e-9, r)
            g = p["games"][0]
            check(g["table"] == t and g["game"] == "psycle" and g["rated"] is True, g)
            check(len(g["players"]) == 3 and all("rank" in x for x in g["players"]), g)
            check(abs(g["change"]["after"] - r["rating"]) < 1e-9, g, r)
            check(list(p["history"]["psycle"][0]) == ["table", "rating"], p["history"])
        status, p = srv.request("GET", "/api/players/Aoi?before=%d" % t)
        check(status == 200 and p["games"] == [], status, p)
        status, board = srv.request("GET", "/api/leaderboard/psycle")
        check(status == 200 and board == {"game": "psycle", "players": []}, board)  # provisional: left out
        refused(srv, "GET", "/api/players/nobody", None, None, 404, "not_found")
        refused(srv, "GET", "/api/players/a%20b", None, None, 404, "not_found")
        refused(srv, "GET", "/api/players/Aoi?before=x", None, None, 400, "bad_request")
        refused(srv, "GET", "/api/leaderboard/chess", None, None, 404, "not_found")
    finally:
        srv.stop()


async def test_profile_reads_per_address(binary):
    """--profile-reads-per-second-per-address R: a burst of 3 R reads (profiles and leaderboards together, a
    404 too), then 429 rate_limited with Retry-After; the reads themselves on a worker (SQLite)."""
    srv = Server(binary, args=["--workers", "1", "--profile-reads-per-second-per-address", "1"]).start()
    try:
        sign_up(srv, "Dai")
        paths = ["/api/players/Dai", "/api/leaderboard/ninja", "/api/players/nobody"]
        want = [200, 200, 404]
        for path, status in zip(paths, want):
            got, reply = srv.request("GET", path)
            check(got == status, path, got, reply)
        check(reply["error"]["code"] == "not_found", reply)
        req = urllib.request.Request(srv.url("/api/players/Dai"))
        try:
            urllib.request.urlopen(req, timeout=30)
            check(False, "a fourth read at once is refused")
        except urllib.error.HTTPError as e:
            body = json.loads(e.read())
            check(e.code == 429 and body["error"]["code"] == "rate_limited", e.code, body)
            check(int(e.headers.get("Retry-After", "0")) >= 1, e.headers)
            check("--profile-reads-per-second-per-address" in body["error"]["message"], body)
    finally:
        srv.stop()


async def main():
    return await run_tests([(test_rated_tables_refusals_and_ratings, BINARY), (test_profile_reads_per_address, BINARY)],
                           timeout=300)


if __name__ == "__main__":
    sys.exit(1 if asyncio.run(main()) else 0)
