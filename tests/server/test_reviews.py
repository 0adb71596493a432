# test_reviews.py — game reviews on the server (issue 46, point 4): queued, searched on the workers, cached in the store; limits; privacy; /healthz meanwhile.
#
# Usage: python3 test_reviews.py PATH/TO/asobi   (CTest runs it; every wait has a timeout)
import asyncio
import os
import signal
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_client import Server, run_tests  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ASOBI_BINARY", "build/asobi")
signal.alarm(280)
FAST_JUDGE = ["--review-bot", "ismcts:iters=300", "--bot-table-pace", "0"]


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def finished_table(srv, game="psycle", players=2, private=False):
    """A table random bots played to its end: (id, the create reply)."""
    status, made = srv.request("POST", "/api/tables", {"game": game, "players": players, "private": private,
                                                        "bots": ["random"] * players})
    check(status == 201, status, made)
    t = made["table"]
    code = "?code=" + made["watch"] if private else ""
    for _ in range(600):
        status, summary = srv.request("GET", "/api/tables/%d%s" % (t, code))
        if summary.get("status") == "over":
            return t, made
        time.sleep(0.1)
    raise AssertionError("table %d never finished" % t)


def review_done(srv, t, seat, suffix="", timeout=120):
    """Polls GET .../review?seat=K until done: the reply."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, got = srv.request("GET", "/api/tables/%d/review?seat=%d%s" % (t, seat, suffix))
        check(status == 200 and got["status"] in ("queued", "running", "done"), status, got)
        if got["status"] == "done":
            return got
        time.sleep(0.2)
    raise AssertionError("the review of table %d seat %d never finished" % (t, seat))


def searches_logged(srv):
    return srv.log_text().count("decisions\n")


async def test_a_review_is_queued_searched_and_cached():
    """POST queues (202), GET shows queued/running then done with decisions and a summary in the library's form;
    asking again (POST or GET, and after a restart) is answered from the cache: no second search."""
    srv = Server(BINARY, args=["--workers", "2"] + FAST_JUDGE).start()
    again = None
    try:
        t, _ = finished_table(srv)
        status, got = srv.request("GET", "/api/tables/%d/review?seat=0" % t)
        check(status == 404 and got["error"]["code"] == "not_found", "a review nobody asked for", status, got)
        status, got = srv.request("POST", "/api/tables/%d/review" % t, {"seat": 5})
        check(status == 400 and got["error"]["code"] == "bad_seat", status, got)
        status, got = srv.request("POST", "/api/tables/%d/review" % t, {"seat": "x"})
        check(status == 400 and got["error"]["code"] == "bad_request", status, got)
        status, got = srv.request("POST", "/api/tables/%d/review" % (t + 5), {"seat": 0})
        check(status == 404, "a review of a missing table", status, got)
        status, got = srv.request("POST", "/api/tables/%d/review" % t, {"seat": 0})
        check(status == 202 and got["status"] in ("queued", "running"), status, got)
        done = review_done(srv, t, 0)
        check(done["seat"] == 0 and done["game"] == "psycle" and done["bot"] == "ismcts:iters=300", done)
        check(done["decisions"] and done["summary"]["decisions"] == len(done["decisions"]), done["summary"])
        for d in done["decisions"]:
            check(0 <= d["best_value"] <= 1 and d["loss"] >= 0, d)
            check(d["loss"] == 0 or d["played"] != d["best"], "an agreeing move lost", d)
        check(searches_logged(srv) == 1, srv.log_text()[-2000:])
        for method, body in (("GET", None), ("POST", {"seat": 0}), ("GET", None)):
            status, got = srv.request(method, "/api/tables/%d/review%s" % (t, "?seat=0" if method == "GET" else ""),
                                      body)
            check(status == 200 and got == done, "asked again", method, status, got)
        srv.stop(remove=False)
        again = Server(BINARY, db=srv.db, args=["--workers", "2"] + FAST_JUDGE).start()
        status, got = again.request("GET", "/api/tables/%d/review?seat=0" % t)
        check(status == 200 and got == done, "the review from the store after a restart", status, got)
        check(searches_logged(again) == 0, "searched again after a restart", again.log_text()[-2000:])
    finally:
        srv.stop_with(again)


async def test_limits_per_address_and_overall():
    """--reviews-per-hour-per-address (a burst of 3) answers 429 with Retry-After; --max-queued-reviews answers
    503 busy while that many are queued or running."""
    srv = Server(BINARY, args=["--workers", "1", "--reviews-per-hour-per-address", "1", "--max-queued-reviews", "1",
                               "--review-bot", "ismcts:iters=20000", "--bot-table-pace", "0"]).start()
    try:
        t, _ = finished_table(srv, players=3)
        status, got = srv.request("POST", "/api/tables/%d/review" % t, {"seat": 0})
        check(status == 202, status, got)
        status, got = srv.request("POST", "/api/tables/%d/review" % t, {"seat": 1})
        check(status == 503 and got["error"]["code"] == "busy", "past --max-queued-reviews", status, got)
        status, got = srv.request("POST", "/api/tables/%d/review" % t, {"seat": 2})
        check(status == 503, status, got)
        status, got = srv.request("POST", "/api/tables/%d/review" % t, {"seat": 2})
        check(status == 429 and got["error"]["code"] == "rate_limited", "past the address's burst", status, got)
        status, got = srv.request("GET", "/api/tables/%d/review?seat=0" % t)
        check(status == 200, "reading is not limited", status, got)
    finally:
        srv.stop()


async def test_a_private_tables_review_is_as_private_as_its_record():
    """A private table's review answers a stranger the very 404 of a missing table; its watch code opens it."""
    srv = Server(BINARY, args=["--workers", "2"] + FAST_JUDGE).start()
    try:
        t, made = finished_table(srv, private=True)
        missing = t + 5
        for method, path, body in (("POST", "/review", {"seat": 0}), ("GET", "/review?seat=0", None)):
            got = srv.request(method, "/api/tables/%d%s" % (t, path), body)
            want = srv.request(method, "/api/tables/%d%s" % (missing, path), body)
            check(got[0] == 404 and str(got[1]).replace(str(t), "ID") == str(want[1]).replace(str(missing), "ID"),
                  "a stranger reads a private review", got, want)
        code = "?code=" + made["watch"]
        status, got = srv.request("POST", "/api/tables/%d/review%s" % (t, code), {"seat": 1})
        check(status == 202, status, got)
        done = review_done(srv, t, 1, "&code=" + made["watch"])
        check(done["decisions"], done)
        status, got = srv.request("GET", "/api/tables/%d/review?seat=1" % t)  # now cached in memory: still closed
        check(status == 404, "the cached review opens to a stranger", status, got)
    finally:
        srv.stop()


def healthz_p99(srv, seconds):
    """/healthz every 20 ms for SECONDS: its p99 in seconds and the number of requests."""
    times = []
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        t0 = time.monotonic()
        with urllib.request.urlopen(srv.url("/healthz"), timeout=5) as r:
            r.read()
        times.append(time.monotonic() - t0)
        time.sleep(0.02)
    times.sort()
    return times[max(0, int(len(times) * 0.99) - 1)], len(times)


async def test_healthz_stays_quick_while_reviews_run():
    """Four Time Masters reviews keep the review lane busy; /healthz answers at p99 under 50 ms meanwhile
    (the issue's bound; on a machine so loaded that /healthz alone, before the reviews, is slower than 50 ms
    at p99, under twice that), and a live table's random bots still play (the review lane leaves them a
    worker)."""
    srv = Server(BINARY, args=["--workers", "2", "--review-bot", "ismcts:iters=3000", "--bot-table-pace", "0",
                               "--reviews-per-hour-per-address", "0"]).start()
    try:
        tables = [finished_table(srv, game="timemasters", players=2)[0] for _ in range(2)]
        quiet, _ = healthz_p99(srv, 3)
        for t in tables:
            for seat in (0, 1):
                status, got = srv.request("POST", "/api/tables/%d/review" % t, {"seat": seat})
                check(status == 202, status, got)
        p99, n = healthz_p99(srv, 8)
        _, progress = srv.request("GET", "/api/tables/%d/review?seat=0" % tables[0])
        check(progress["status"] in ("running", "done"), "no review ran", progress)
        live_started = time.monotonic()
        finished_table(srv)  # a live table of random bots plays to its end meanwhile
        live = time.monotonic() - live_started
        _, still = srv.request("GET", "/api/tables/%d/review?seat=1" % tables[1])
        figures = "/healthz p99 %.1f ms over %d requests (%.1f ms before the reviews); a live game %.1f s; the last " \
                  "review %s" % (p99 * 1000, n, quiet * 1000, live, still["status"])
        check(p99 < max(0.05, 2 * quiet), figures)
        check(live < 20, "a live table waited behind the reviews:", figures)
        return figures
    finally:
        srv.stop()


if __name__ == "__main__":
    sys.exit(asyncio.run(run_tests([test_a_review_is_queued_searched_and_cached, test_limits_per_address_and_overall,
                                    test_a_private_tables_review_is_as_private_as_its_record,
                                    test_healthz_stays_quick_while_reviews_run], timeout=240)) and 1)
