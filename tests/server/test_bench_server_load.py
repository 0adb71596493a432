# test_bench_server_load.py — bench/server_load.py itself: two rounds of a tiny load give two runs and their medians.
#
# Usage: python3 test_bench_server_load.py PATH/TO/asobi   (CTest runs it; build/bench_server_load must be beside it)
import json
import os
import subprocess
import sys

BINARY = sys.argv[1] if len(sys.argv) > 1 else "build/asobi"
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "server_load.py")


def main():
    out = subprocess.run([sys.executable, SCRIPT, BINARY, BINARY + "@--event-loop=poll", "--tables", "2",
                          "--seconds", "1.5", "--warmup", "1", "--rounds", "2"],
                         capture_output=True, text=True, timeout=240)
    if out.returncode != 0:
        print(out.stdout + out.stderr)
        return 1
    lines = out.stdout.splitlines()
    runs = [json.loads(line) for line in lines if line.startswith("{")]
    table = [line for line in lines if line.startswith("|")]
    problems = []
    # every round runs every binary, interleaved: A B A B
    if [(r["round"], r["server"]) for r in runs] != [(1, BINARY), (1, BINARY + "@--event-loop=poll"),
                                                     (2, BINARY), (2, BINARY + "@--event-loop=poll")]:
        problems.append("runs: %s" % [(r.get("round"), r.get("server")) for r in runs])
    for r in runs:
        if not (r["actions_per_s"] > 0 and r["server_cpu_ms_per_1000_actions"] > 0 and r["peak_rss_mb"] > 0):
            problems.append("a run measured nothing: %s" % r)
    if runs and runs[1].get("server_args") != "--event-loop=poll":
        problems.append("the second server's own option was not passed: %s" % runs[1])
    # the medians: a header, a rule, one line per binary, each of 2 runs at 2 tables
    rows = [row.split("|")[1:-1] for row in table[2:]]
    if len(table) != 4 or [(c[0].strip(), c[1].strip(), c[2].strip()) for c in rows] != [
            (BINARY, "2", "2"), (BINARY + "@--event-loop=poll", "2", "2")]:
        problems.append("the table of medians:\n" + "\n".join(table))
    for p in problems:
        print("FAIL " + p)
    if problems:
        print(out.stdout + out.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
