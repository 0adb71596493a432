# server_load.py — load generator for `asobi serve`: M concurrent 2-player PSYCLE tables on loopback, random legal moves.
#
# Usage: /usr/bin/python3 bench/server_load.py build/asobi [--tables 10,100,1000] [--seconds 20] [--warmup 3]
#                                            [--client c|python] [--procs 2] [--server-arg=--event-loop=poll]
#                                            [--think-ms 0] [--rounds 1]
#        /usr/bin/python3 bench/server_load.py OLD/asobi@--event-loop=libuv build/asobi --rounds 3
#
# Several binaries (PATH, or PATH@ARG,ARG... with options for that server alone) are compared: every round
# runs each M with each binary in turn, so that the machine's slow spells fall on all of them alike; with
# more than one run per figure a table of medians (and ranges) per binary and M follows the runs' lines.
#
# For each M it starts its own `asobi serve` (127.0.0.1, a free port, a fresh SQLite file: every action is
# committed as in production), keeps M tables playing (a finished table is replaced by a new one, created
# and joined through the HTTP API as a person's browser would), and measures over the last `seconds`:
#   tables finished/s, actions/s, action latency p50/p99 (from sending "act" to the update that shows it, as
#   the clients see it, and the server's share of it from its /metrics histogram),
#   server CPU ms per 1000 actions (/proc/PID/stat), bytes sent per action per client (/metrics), RSS.
# The clients: by default bench/server_load.c (build/bench_server_load: one C process, libwebsockets, every
# socket on one thread); --client python runs them as Python (asyncio) processes, whose own speed bounds the
# figures at a few hundred tables (see docs/server.md).
import argparse
import asyncio
import json
import multiprocessing
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "server"))
from serve_client import Server  # noqa: E402

import websockets  # noqa: E402


def cpu_seconds(pid):
    """The server's CPU time so far: (user, system) seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def rss_mb(pid):
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(("VmRSS", "VmHWM")):
                out[line.split(":")[0]] = int(line.split()[1]) / 1024
    return out


def histogram(srv, name):
    """{le: cumulative count} of a Prometheus histogram."""
    status, text = srv.request("GET", "/metrics")
    out = {}
    for line in text.splitlines():
        if line.startswith(name + "_bucket{le=\""):
            le = line.split('le="')[1].split('"')[0]
            out[float("inf") if le == "+Inf" else float(le)] = float(line.split()[1])
    return out


def histogram_quantile(before, after, q):
    """The upper bound of the bucket holding quantile q of the observations between two scrapes."""
    counts = sorted((le, after[le] - before.get(le, 0)) for le in after)
    total = counts[-1][1] if counts else 0
    for le, c in counts:
        if total and c >= q * total:
            return le
    return float("nan")


def metric(srv, name):
    status, text = srv.request("GET", "/metrics")
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


class Stats:
    def __init__(self):
        self.latencies = []
        self.actions = 0
        self.finished = 0
        self.measuring = False


async def seat_loop(srv, table, token, rng, stats, stop):
    """One person: acts on every update that offers moves, times each act until its update."""
    async with websockets.connect(srv.ws_url(table, token), max_size=None, max_queue=None) as ws:
        seen = 0
        sent_at = None
        while not stop.is_set():
            try:
                u = json.loads(await asyncio.wait_for(ws.recv(), 30))
            except asyncio.TimeoutError:
                return False
            if u["type"] == "error":
                if u["error"]["code"] == "rate_limited":
                    await asyncio.sleep(0.1)
                sent_at = None
                continue
            if sent_at is not None and any(ev["seat"] == u["seat"] for ev in u["log"]):
                if stats.measuring:
                    stats.latencies.append(time.monotonic() - sent_at)
                    stats.actions += 1
                sent_at = None
            seen += len(u["log"])
            if u["status"] == "over":
                return True
            if u["legal"] and sent_at is None:
                pick = rng.choice(u["legal"])
                sent_at = time.monotonic()
                await ws.send(json.dumps({"type": "act", "action": pick["id"]}))
    return False


async def table_loop(srv, rng, stats, stop):
    while not stop.is_set():
        t = await asyncio.to_thread(srv.create, game="psycle", players=2)
        a = await asyncio.to_thread(srv.join, t, "A")
        b = await asyncio.to_thread(srv.join, t, "B")
        done = await asyncio.gather(seat_loop(srv, t, a["token"], rng, stats, stop),
                                    seat_loop(srv, t, b["token"], rng, stats, stop))
        if all(done) and stats.measuring:
            stats.finished += 1


async def clients(port, m, seconds, warmup, seed):
    """This process's share of the tables: warm up, then measure for `seconds`."""
    srv = Server.__new__(Server)
    srv.port = port
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(seed)
    tasks = [asyncio.create_task(table_loop(srv, rng, stats, stop)) for _ in range(m)]
    await asyncio.sleep(warmup)
    stats.measuring = True
    await asyncio.sleep(seconds)
    stats.measuring = False
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"latencies": stats.latencies, "finished": stats.finished, "actions": stats.actions}


def client_process(port, m, seconds, warmup, seed, out):
    out.put(asyncio.run(clients(port, m, seconds, warmup, seed)))


class CClient:
    """bench/server_load.c as one client process: its JSON line becomes the same result as the Python clients'."""

    def __init__(self, program, port, m, seconds, warmup, seed, think_ms=0):
        self.proc = subprocess.Popen([program, str(port), str(m), str(seconds), str(warmup), str(seed), str(think_ms)],
                                     stdout=subprocess.PIPE)

    def result(self):
        out = json.loads(self.proc.communicate(timeout=120)[0])
        return {"finished": out["tables_finished"], "actions": out["actions_timed"],
                "p50_ms": out["latency_p50_ms"], "p99_ms": out["latency_p99_ms"]}


# Every client of the load is one address (127.0.0.1), thousands of people at once: the server's limits per
# client address (docs/server.md, "Limits") are off for it, on servers that have them.
UNLIMITED = ["--max-connections-per-address", "0", "--tables-per-minute-per-address", "0",
             "--max-bot-tables-per-address", "0", "--max-spectators-per-address", "0",
             "--messages-per-second-per-address", "0"]


def limits_off(binary):
    """The options that lift the limits per address, if this server has them (an older one does not)."""
    usage = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True, timeout=10).stdout
    return UNLIMITED if "--max-connections-per-address" in usage else []


def run(binary, m, seconds, warmup, procs, client, server_args=(), think_ms=0):
    """One figure: a fresh server, m tables spread over procs client processes (or the C client)."""
    srv = Server(binary, args=["--workers", "1"] + limits_off(binary) + list(server_args)).start()
    try:
        out = multiprocessing.Queue()
        children = []
        if client == "c":
            program = os.path.join(os.path.dirname(os.path.abspath(binary)), "bench_server_load")
            cclient = CClient(program, srv.port, m, seconds, warmup, m, think_ms)
        else:
            cclient = None
            shares = [m // procs + (1 if i < m % procs else 0) for i in range(procs)]
            children = [multiprocessing.Process(target=client_process,
                                                args=(srv.port, k, seconds, warmup, 1000 * m + i, out))
                        for i, k in enumerate(shares) if k > 0]
        for c in children:
            c.start()
        time.sleep(warmup)
        cpu0, bytes0, acts0 = cpu_seconds(srv.proc.pid), metric(srv, "asobi_ws_bytes_sent_total"), \
            metric(srv, "asobi_actions_accepted_total")
        hist0 = histogram(srv, "asobi_action_latency_seconds")
        t0 = time.monotonic()
        time.sleep(seconds)
        hist1 = histogram(srv, "asobi_action_latency_seconds")
        elapsed = time.monotonic() - t0
        cpu1, bytes1, acts1 = cpu_seconds(srv.proc.pid), metric(srv, "asobi_ws_bytes_sent_total"), \
            metric(srv, "asobi_actions_accepted_total")
        mem = rss_mb(srv.proc.pid)
        actions = acts1 - acts0
        if cclient:
            r = cclient.result()
            finished, p50, p99 = r["finished"], r["p50_ms"], r["p99_ms"]
        else:
            results = [out.get(timeout=120) for _ in children]
            for c in children:
                c.join(30)
            lat = sorted(x for r in results for x in r["latencies"])
            finished = sum(r["finished"] for r in results)

            def pct(p):
                return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")
            p50, p99 = pct(0.50), pct(0.99)
        return {
            "tables": m, "client": client, "client_processes": len(children) or 1, "seconds": round(elapsed, 1),
            "tables_finished_per_s": round(finished / elapsed, 2), "actions_per_s": round(actions / elapsed, 1),
            "latency_p50_ms": round(p50, 2), "latency_p99_ms": round(p99, 2),
            # the server's share: act received to its update written (bucket upper bounds)
            "server_latency_p50_ms_at_most": histogram_quantile(hist0, hist1, 0.50) * 1000,
            "server_latency_p99_ms_at_most": histogram_quantile(hist0, hist1, 0.99) * 1000,
            "server_cpu_ms_per_1000_actions": round((sum(cpu1) - sum(cpu0)) * 1000 / max(actions, 1) * 1000, 1),
            # of which in the kernel (system time: sockets, poll, SQLite's file I/O)
            "server_cpu_system_ms_per_1000_actions": round((cpu1[1] - cpu0[1]) * 1000 / max(actions, 1) * 1000, 1),
            "bytes_per_action_per_client": round((bytes1 - bytes0) / max(actions, 1) / 2, 1),
            "rss_mb": round(mem.get("VmRSS", 0), 1), "peak_rss_mb": round(mem.get("VmHWM", 0), 1),
        }
    finally:
        srv.stop()


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def summary(runs):
    """Medians (and ranges) per binary and M, as a Markdown table: one line per figure."""
    lines = ["| server | tables | runs | actions/s | p99 ms (range) | server CPU ms per 1000 actions (range) "
             "| of which system | bytes per action per client | peak RSS MB |",
             "|---|---|---|---|---|---|---|---|---|"]
    keys = []
    for r in runs:
        if (r["server"], r["tables"]) not in keys:
            keys.append((r["server"], r["tables"]))
    for name, m in sorted(keys, key=lambda k: (k[1], keys.index(k))):
        rs = [r for r in runs if r["server"] == name and r["tables"] == m]

        def col(key):
            return [r[key] for r in rs]
        cpu, p99 = col("server_cpu_ms_per_1000_actions"), col("latency_p99_ms")
        lines.append("| %s | %d | %d | %.0f | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | %.1f | %.0f | %.0f |" % (
            name, m, len(rs), median(col("actions_per_s")), median(p99), min(p99), max(p99),
            median(cpu), min(cpu), max(cpu), median(col("server_cpu_system_ms_per_1000_actions")),
            median(col("bytes_per_action_per_client")), max(col("peak_rss_mb"))))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("binary", nargs="+", help="asobi binaries to measure: PATH, or PATH@ARG,ARG... (options for it)")
    ap.add_argument("--tables", default="10,100,1000")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--warmup", type=float, default=3)
    ap.add_argument("--client", choices=("c", "python"), default="c",
                    help="c: build/bench_server_load (default); python: asyncio processes")
    ap.add_argument("--procs", type=int, default=2, help="Python client processes (--client python)")
    ap.add_argument("--server-arg", action="append", default=[],
                    help="an option for every `asobi serve`, e.g. --server-arg=--event-loop=poll (repeatable)")
    ap.add_argument("--think-ms", type=float, default=0,
                    help="each person thinks this long on average before a move (C clients; default 0: flat out)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="runs of every figure, interleaved across the binaries (default 1)")
    args = ap.parse_args()
    if args.think_ms and args.client != "c":
        ap.error("--think-ms needs the C clients")
    if args.rounds < 1:
        ap.error("--rounds is at least 1")
    servers = []
    for spec in args.binary:
        path, _, extra = spec.partition("@")
        if not os.access(path, os.X_OK):
            ap.error("%s is not an executable" % path)
        servers.append((spec, path, args.server_arg + [a for a in extra.split(",") if a]))
    runs = []
    for rnd in range(args.rounds):
        for m in [int(x) for x in args.tables.split(",")]:
            for spec, path, server_args in servers:
                r = run(path, m, args.seconds, args.warmup, args.procs, args.client, server_args, args.think_ms)
                if len(servers) > 1 or args.rounds > 1:
                    r["server"], r["round"] = spec, rnd + 1
                if args.think_ms:
                    r["think_ms"] = args.think_ms
                if server_args:
                    r["server_args"] = " ".join(server_args)
                print(json.dumps(r), flush=True)
                runs.append(dict(r, server=spec))
    if len(runs) > len({(r["server"], r["tables"]) for r in runs}):
        print(summary(runs), flush=True)


if __name__ == "__main__":
    main()
