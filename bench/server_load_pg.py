# server_load_pg.py — bench/server_load.py with SQLite against PostgreSQL (a throwaway one), with the database's own CPU and commits.
#
# Usage: /usr/bin/python3 bench/server_load_pg.py build/asobi [--tables 10,1000] [--seconds 10] [--rounds 2]
#                                               [--think-ms 0] [--nodes 1]
#
# Starts PostgreSQL (tests/support/pg_fixture.py), then for each round and each M runs server_load.py once
# with SQLite (a fresh file) and once with --db postgresql://... (interleaved, so the machine's slow spells
# fall on both), printing server_load.py's JSON line for each with "backend" added, and for PostgreSQL:
#   pg_cpu_ms_per_1000_actions: the CPU of the database's processes (the postmaster's own and its reaped
#       backends', /proc/PID/stat) over the run, per 1000 actions: the cost the server's figure leaves out;
#   pg_commits_per_s and actions_per_commit: from pg_stat_database.xact_commit (heartbeats, lobby
#       publications and id reservations included, so the batch size is a little under the true one).
# --nodes 2: two server_load.py at once, each with its own node on the one database and half the tables
# (M/2 each): the two nodes' actions/s summed, against one node with M ("two nodes against one").
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "support"))
import pg_fixture  # noqa: E402


def postmaster_cpu(base):
    """CPU seconds of the postmaster and every child it reaped (and the live ones)."""
    with open(os.path.join(base, "data", "postmaster.pid")) as f:
        pid = int(f.readline())
    tick = os.sysconf("SC_CLK_TCK")

    def stat(p):
        with open("/proc/%d/stat" % p) as f:
            return f.read().rsplit(")", 1)[1].split()
    fields = stat(pid)
    total = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                f = stat(int(entry))
                if int(f[1]) == pid:
                    total += int(f[11]) + int(f[12])
            except (OSError, IndexError):
                pass
    return total / tick


def commits(uri):
    out = subprocess.run(["psql", uri, "-At", "-c", "SELECT xact_commit FROM pg_stat_database WHERE datname = 'asobi'"],
                         capture_output=True, text=True, check=True).stdout
    return int(out.strip())


def load(binary, m, seconds, think, db=None, extra=()):
    spec = binary + ("@--db=" + db if db else "")
    cmd = [sys.executable, os.path.join(HERE, "server_load.py"), spec, "--tables", str(m), "--seconds",
           str(seconds), "--warmup", "3" if not think else "5"] + list(extra)
    if think:
        cmd += ["--think-ms", str(think)]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)


def result(proc):
    out, _ = proc.communicate()
    lines = [line for line in out.splitlines() if line.startswith("{")]
    return json.loads(lines[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("binary")
    ap.add_argument("--tables", default="10,1000")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--think-ms", type=float, default=0)
    ap.add_argument("--nodes", type=int, default=1, choices=(1, 2))
    args = ap.parse_args()
    pg_fixture.exit_on_signals()
    with pg_fixture.postgres() as uri:
        base = uri.split("host=")[1].split("&")[0]
        for rnd in range(args.rounds):
            for m in [int(x) for x in args.tables.split(",")]:
                if args.nodes == 1:
                    r = result(load(args.binary, m, args.seconds, args.think_ms))
                    print(json.dumps(dict(r, backend="sqlite", round=rnd + 1)), flush=True)
                cpu0, c0 = postmaster_cpu(base), commits(uri)
                procs = [load(args.binary, m // args.nodes, args.seconds, args.think_ms, uri)
                         for _ in range(args.nodes)]
                rs = [result(p) for p in procs]
                time.sleep(1.5)  # the backends' statistics reach pg_stat_database
                cpu1, c1 = postmaster_cpu(base), commits(uri)
                actions = sum(r["actions_per_s"] for r in rs) * args.seconds
                window = args.seconds + (3 if not args.think_ms else 5) + 2  # the warm-up and start too
                for i, r in enumerate(rs):
                    print(json.dumps(dict(r, backend="postgresql", node=i + 1, nodes=args.nodes, round=rnd + 1)),
                          flush=True)
                print(json.dumps({"tables": m, "nodes": args.nodes, "round": rnd + 1,
                                  "actions_per_s_all_nodes": round(sum(r["actions_per_s"] for r in rs), 1),
                                  "pg_cpu_ms_per_1000_actions": round((cpu1 - cpu0) * 1e6 / max(actions, 1), 1),
                                  "pg_commits_per_s": round((c1 - c0) / window, 1),
                                  "actions_per_commit": round(actions / max(c1 - c0, 1), 2)}), flush=True)


if __name__ == "__main__":
    main()
