#!/usr/bin/env python3
# accounts_load.py — sign-ups and sign-ins per second through `asobi serve`, and the event loop's latency (GET /healthz p99) while 50 sign-ins a second run (issue 42).
#
# Usage: python3 bench/accounts_load.py [--binary build/asobi] [--seconds 10] [--rate 50] [--clients 8]
#                                       [--password-hashes N]
# The hashes run on the server's accounts threads (--password-hashes); the loop only parses, throttles (off
# here: every client is one address) and answers from memory. What it prints:
#   sign-ups/s and sign-ins/s flat out (--clients at once), each a hash;
#   /healthz p50/p99 idle, then while --rate sign-ins a second run, paced.
import argparse
import http.client
import json
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "server"))
from serve_client import Server  # noqa: E402


def post(port, path, body):
    con = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    con.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    r = con.getresponse()
    r.read()
    con.close()
    return r.status


def flat_out(port, path, bodies, clients):
    """Send every body, `clients` at a time; (requests a second, statuses)."""
    statuses, lock, next_index = [], threading.Lock(), [0]

    def worker():
        while True:
            with lock:
                i = next_index[0]
                next_index[0] += 1
            if i >= len(bodies):
                return
            s = post(port, path, bodies[i])
            with lock:
                statuses.append(s)
    started = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(bodies) / (time.monotonic() - started), statuses


def healthz_latencies(port, seconds):
    con = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    out, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.monotonic()
        con.request("GET", "/healthz")
        con.getresponse().read()
        out.append(time.monotonic() - t)
        time.sleep(0.002)
    con.close()
    return out


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="build/asobi")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--rate", type=float, default=50)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--accounts", type=int, default=200)
    ap.add_argument("--password-hashes", type=int, default=None)
    a = ap.parse_args()
    extra = ["--sign-ins-per-minute-per-address", "0", "--sign-ins-per-hour-per-name", "0",
             "--sign-ups-per-hour-per-address", "0", "--password-queue-per-address", "0",
             "--max-connections-per-address", "0"]
    if a.password_hashes:
        extra += ["--password-hashes", str(a.password_hashes)]
    srv = Server(a.binary, args=extra).start()
    try:
        names = ["bench%d" % i for i in range(a.accounts)]
        ups, st = flat_out(srv.port, "/api/accounts", [{"name": n, "password": "correct horse"} for n in names],
                           a.clients)
        assert set(st) == {201}, set(st)
        ins, st = flat_out(srv.port, "/api/session", [{"name": n, "password": "correct horse"} for n in names],
                           a.clients)
        assert set(st) == {200}, set(st)
        idle = healthz_latencies(srv.port, a.seconds / 2)
        # paced sign-ins at --rate a second, each on a thread of its own (a hash waits; the pace does not)
        stop, sent, done = threading.Event(), [0], []

        def pacer():
            start, k = time.monotonic(), 0
            while not stop.is_set():
                due = start + k / a.rate
                now = time.monotonic()
                if due > now:
                    time.sleep(due - now)
                n = names[k % len(names)]
                threading.Thread(target=lambda n=n: done.append(post(srv.port, "/api/session",
                                                                     {"name": n, "password": "correct horse"}))).start()
                k += 1
                sent[0] = k
        p = threading.Thread(target=pacer)
        p.start()
        time.sleep(1)  # the pace settles
        t0, d0 = time.monotonic(), len(done)
        loaded = healthz_latencies(srv.port, a.seconds)
        achieved = (len(done) - d0) / (time.monotonic() - t0)
        stop.set()
        p.join()
        time.sleep(2)
        print("sign-ups: %.1f/s, sign-ins: %.1f/s flat out (%d clients, %s hash threads)"
              % (ups, ins, a.clients, a.password_hashes or "default"))
        print("/healthz idle: p50 %.2f ms, p99 %.2f ms (%d requests)" % (pct(idle, .5), pct(idle, .99), len(idle)))
        print("/healthz with %.0f sign-ins/s asked (%.1f/s answered): p50 %.2f ms, p99 %.2f ms (%d requests)"
              % (a.rate, achieved, pct(loaded, .5), pct(loaded, .99), len(loaded)))
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
