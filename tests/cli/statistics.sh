#!/usr/bin/env bash
# statistics.sh — sim's and arena's statistics as numbers on known counts (issue 41): the Wilson interval, the
# Bradley-Terry Elo and its bootstrap interval, against the formulas written out here.
# Usage: statistics.sh PATH/TO/asobi   (CTest runs it as cli_statistics)
#
# Every game i of a run uses seed S+i, so the counts below are fixed: sim psycle --seed 13 gives seat 0 seven
# wins in ten; heuristic beats random in all ten of arena's PSYCLE games at --seed 3.
set -euo pipefail
asobi=${1:-build/asobi}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$asobi" sim psycle --games 10 --seed 13 --json >"$tmp/sim"
"$asobi" arena psycle --bots random,heuristic --games 10 --seed 3 --json >"$tmp/arena2"
"$asobi" arena psycle --bots random,heuristic,ismcts:iters=20 --games 30 --seed 3 --json >"$tmp/arena3"
exec python3 - "$tmp" <<'EOF'
import json
import math
import sys

folder = sys.argv[1]
sim, arena2, arena3 = (json.load(open("%s/%s" % (folder, name))) for name in ("sim", "arena2", "arena3"))
failed, checks = 0, 0


def check(cond, what):
    global failed, checks
    checks += 1
    if not cond:
        failed += 1
        print("FAILED:", what, file=sys.stderr)


def close(a, b, eps=1e-6):
    return abs(a - b) <= eps


def wilson(k, n, z=1.959963984540054):
    centre = (k + z * z / 2) / (n + z * z)
    half = z * math.sqrt(k * (n - k) / n + z * z / 4) / (n + z * z)
    return centre - half, centre + half


# Wilson: 7 of 10 is [0.397, 0.892] (the textbook figure); every seat's interval is the formula's for its wins
seat0 = sim["seats"][0]
check(seat0["wins"] == 7 and sim["games"] == 10, "sim psycle --seed 13: seat 0 wins 7 of 10 (%s)" % seat0["wins"])
low, high = seat0["ci95"]
check(round(low, 3) == 0.397 and round(high, 3) == 0.892, "Wilson for 7 of 10 is [0.397, 0.892]: %s" % seat0["ci95"])
for seat in sim["seats"]:
    want = wilson(seat["wins"], sim["games"])
    check(close(seat["ci95"][0], want[0]) and close(seat["ci95"][1], want[1]),
          "seat %d: Wilson of %s in %d is %s, not %s" % (seat["seat"], seat["wins"], sim["games"], want, seat["ci95"]))


def bradley_terry(names, pairs):
    """Elo by Bradley-Terry with arena's prior (one drawn game between every two bots), centred on 0."""
    n = len(names)
    wins = [[0.0] * n for _ in names]
    for p in pairs:
        a, b = names.index(p["a"]), names.index(p["b"])
        wins[a][b] += p["a_wins"] + p["draws"] / 2
        wins[b][a] += p["b_wins"] + p["draws"] / 2
    r = [1.0] * n
    for _ in range(100000):
        change = 0
        for i in range(n):
            w = sum(wins[i][j] + 0.5 for j in range(n) if j != i)
            denom = sum((wins[i][j] + wins[j][i] + 1) / (r[i] + r[j]) for j in range(n) if j != i)
            nxt = w / denom
            change = max(change, abs(math.log(nxt) - math.log(r[i])))
            r[i] = nxt
        mean = sum(math.log(x) for x in r) / n
        r = [x / math.exp(mean) for x in r]
        if change < 1e-13:
            break
    return [400 * math.log10(x) for x in r]


# a 2-bot arena with a fixed outcome: 10-0, so Elo +-200 log10(10.5 / 0.5); every bootstrap resample is the same,
# so the interval is the one Wilson's interval of the score (10.5 of 11) gives, put in Elo around the rating (half of
# a change in a bot's performance moves its rating, centred on the mean of two; cmd_arena.c, elo_intervals): never
# zero-width (issue 45)
names = [b["spec"] for b in arena2["bots"]]
pair = arena2["pairs"][0]
check(names == ["random", "heuristic"] and (pair["a_wins"], pair["b_wins"], pair["draws"]) == (0, 10, 0),
      "arena psycle --seed 3: heuristic beats random 10-0 (%s)" % pair)
gap = 200 * math.log10(10.5 / 0.5)
for bot, want in zip(arena2["bots"], (-gap, gap)):
    check(close(bot["elo"], want), "%s: Elo %s, not %s" % (bot["spec"], bot["elo"], want))
    score = 10.5 if want > 0 else 0.5
    lo, hi = wilson(score, 11)
    lo, hi = max(lo, 1e-6), min(hi, 1 - 1e-6)
    elo_of = lambda p: 400 * math.log10(p / (1 - p))
    span = (min(want, want + (elo_of(lo) - elo_of(score / 11)) / 2), max(want, want + (elo_of(hi) - elo_of(score / 11)) / 2))
    check(close(bot["elo_ci95"][0], span[0], 1e-6) and close(bot["elo_ci95"][1], span[1], 1e-6) and span[1] - span[0] > 100,
          "%s: a fixed outcome's interval is Wilson's, in Elo around the rating: %s, not %s" % (bot["spec"], bot["elo_ci95"], span))

# three bots: the ratings are Bradley-Terry's on the pairs' counts; each interval holds its rating, and is no wider
# than the widest a resample could make it (every game won by one side: the rating of n-0 or 0-n)
names = [b["spec"] for b in arena3["bots"]]
want = bradley_terry(names, arena3["pairs"])
for bot, elo in zip(arena3["bots"], want):
    check(close(bot["elo"], elo, 1e-4), "%s: Elo %s, not Bradley-Terry's %s" % (bot["spec"], bot["elo"], elo))
    low, high = bot["elo_ci95"]
    check(low <= bot["elo"] + 1e-9 and bot["elo"] <= high + 1e-9, "%s: the interval %s holds %s" % (bot["spec"], bot["elo_ci95"], bot["elo"]))
    check(low < high or bot["wins"] in (0, bot["games"]), "%s: a mixed record's interval has a width: %s" % (bot["spec"], bot["elo_ci95"]))
    check(-1000 < low and high < 1000, "%s: the interval %s stays within a resample's reach" % (bot["spec"], bot["elo_ci95"]))
check(abs(sum(b["elo"] for b in arena3["bots"])) < 1e-6, "the ratings are centred on 0")
print("statistics: %d checks, %d failed" % (checks, failed))
sys.exit(1 if failed or checks < 15 else 0)
EOF
