"""test_arena_bot.py — external bots in `asobi arena`/`asobi sim`: python/examples/arena_bot.py plays, broken programs forfeit."""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ARENA_BOT = os.path.join(HERE, "..", "examples", "arena_bot.py")


class ExternalBotTest(unittest.TestCase):
    def setUp(self):
        self.binary = os.environ.get("ASOBI_BINARY")
        if not self.binary:
            self.skipTest("ASOBI_BINARY is not set")
        # startup=60: python3 can take seconds to start on a loaded machine, and a missed handshake
        # forfeits every decision
        self.python_bot = "exec:cmd=%s %s,startup=60" % (sys.executable, os.path.abspath(ARENA_BOT))

    def run_asobi(self, *args, timeout=120):
        return subprocess.run([self.binary, *args], capture_output=True, text=True, timeout=timeout)

    def arena_json(self, bots, games=4, extra=()):
        done = self.run_asobi("arena", "psycle", "--bots", bots, "--games", str(games), "--jobs", "2",
                              "--json", *extra)
        self.assertEqual(done.returncode, 0, done.stderr)
        return {b["spec"]: b for b in json.loads(done.stdout)["bots"]}

    def test_python_bot_plays_without_forfeits(self):
        """Issue 16: a Python bot plays in `asobi arena` through the protocol."""
        done = self.run_asobi("arena", "psycle", "--bots", self.python_bot + ",random", "--games", "4")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("exec:cmd=", done.stdout)
        self.assertIn("random", done.stdout)
        self.assertRegex(done.stdout,
                         r"forfeits of exec:cmd=\S+ \S+arena_bot\.py,startup=60: 0 of [1-9]\d* decisions, 0 stray lines")
        bots = self.arena_json(self.python_bot + ",random")
        mine = bots[self.python_bot]
        self.assertEqual(mine["games"], 4)
        self.assertGreater(mine["decisions"], 0)
        self.assertEqual(mine["forfeits"], 0)
        self.assertEqual(mine["stray"], 0)
        self.assertEqual(bots["random"]["forfeits"], 0)
        # it plays PSYCLE's target card when it holds it: better than random
        self.assertGreater(mine["wins"], bots["random"]["wins"])

    def test_program_answering_garbage_forfeits_every_decision(self):
        """cat echoes each request back: never a valid answer, so each decision is a forfeit, and the arena ends."""
        bots = self.arena_json("exec:cmd=cat,random")
        self.assertGreater(bots["exec:cmd=cat"]["decisions"], 0)
        self.assertEqual(bots["exec:cmd=cat"]["forfeits"], bots["exec:cmd=cat"]["decisions"])

    def test_illegal_answers_crash_and_timeout_are_forfeits(self):
        """An illegal id, a program that exits and a program that never answers all forfeit; nothing hangs."""
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "illegal.py")
            with open(script, "w") as f:
                f.write("import json, sys\n"
                        "for line in sys.stdin:\n"
                        "    print(json.dumps({'ok': True, 'id': json.loads(line)['id'], 'action': 9999}),"
                        " flush=True)\n")
            self.check_every_decision_forfeited("exec:cmd=%s %s" % (sys.executable, script))
        self.check_every_decision_forfeited("exec:cmd=true")
        self.check_every_decision_forfeited("exec:cmd=sleep 30,timeout=0.2,startup=0.2")

    def check_every_decision_forfeited(self, spec):
        start = time.monotonic()
        bots = self.arena_json(spec + ",random", games=2)
        self.assertLess(time.monotonic() - start, 60, spec)  # a generous bound: only "it never hangs"
        self.assertGreater(bots[spec]["decisions"], 0, spec)
        self.assertEqual(bots[spec]["forfeits"], bots[spec]["decisions"], spec)

    def test_bot_sees_only_its_seat(self):
        """Each choose request holds that seat's view and public log only: a recording program checks them."""
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "record.py")
            with open(script, "w") as f:
                f.write("import json, sys\n"
                        "out = open(sys.argv[1], 'a')\n"
                        "for line in sys.stdin:\n"
                        "    r = json.loads(line)\n"
                        "    out.write(line)\n"
                        "    out.flush()\n"
                        "    if r['cmd'] == 'hello':\n"
                        "        print(json.dumps({'ok': True, 'id': r['id']}), flush=True)\n"
                        "    if r['cmd'] == 'choose':\n"
                        "        print(json.dumps({'ok': True, 'id': r['id'], 'action': r['legal'][0]['text']}),"
                        " flush=True)\n"
                        "    elif r['cmd'] == 'quit':\n"
                        "        break\n")
            log = os.path.join(tmp, "requests")
            spec = "exec:cmd=%s %s %s,startup=60" % (sys.executable, script, log)
            # seat 1: the runner asks seat 0 first, so seat 0 always commits
            # its card while seat 1 is still to choose, face down
            done = self.run_asobi("sim", "psycle", "--bots", "random," + spec, "--games", "1", "--jobs", "1",
                                  "--json")
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(json.loads(done.stdout)["seats"][1]["forfeits"], 0)
            with open(log) as f:
                requests = [json.loads(line) for line in f]
        self.assertEqual([r["cmd"] for r in requests[-2:]], ["over", "quit"])
        chooses = [r for r in requests if r["cmd"] == "choose"]
        self.assertGreater(len(chooses), 0)
        for r in chooses:
            self.assertEqual((r["game"], r["players"], r["seat"]), (0, 2, 1))
            self.assertEqual(r["view"]["seat"], 1)
            self.assertTrue(r["legal"])
        # the opponent's plays are face down when they happen: their text never names the card
        others = [e["text"] for r in chooses for e in r["log"] if e["seat"] == 0]
        self.assertTrue(others)
        self.assertEqual(set(others), {"chooses face down"})
        self.assertIn("ranks", requests[-2]["result"])
        # issue 45 §2: every request is numbered, in order, from the handshake on
        self.assertEqual(requests[0]["cmd"], "hello")
        self.assertEqual(requests[1], {"cmd": "new", "game": 0, "players": 2, "seat": 1, "id": 1})
        self.assertEqual([r["id"] for r in requests], list(range(len(requests))))

    def write_script(self, tmp, name, body):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(body)
        return "exec:cmd=%s %s,startup=60" % (sys.executable, path)

    def test_stray_lines_are_skipped_and_counted(self):
        """Issue 45 §2: a program that prints two stray lines before each answer (text, and JSON naming no
        request) loses no decision; the lines are counted per bot and warned of once on stderr."""
        with tempfile.TemporaryDirectory() as tmp:
            spec = self.write_script(tmp, "chatty.py", STRAY_BOT)
            done = self.run_asobi("arena", "psycle", "--bots", spec + ",random", "--games", "2", "--jobs", "1",
                                  "--json")
            self.assertEqual(done.returncode, 0, done.stderr)
            mine = {b["spec"]: b for b in json.loads(done.stdout)["bots"]}[spec]
            self.assertEqual(mine["forfeits"], 0)
            # hello's answer came after one stray line in each game; each decision's after two
            self.assertEqual(mine["stray"], 2 + 2 * mine["decisions"])
            self.assertEqual(done.stderr.count("stray"), 1, done.stderr)
            done = self.run_asobi("arena", "psycle", "--bots", spec + ",random", "--games", "2", "--jobs", "1")
            self.assertRegex(done.stdout, r"forfeits of exec:\S+ \S+: 0 of \d+ decisions, %d stray lines"
                             % mine["stray"])

    def test_reuse_keeps_one_program_and_startup_is_not_a_decision(self):
        """Issue 45 §3: with reuse=1 one program plays every game of a thread ("new" and "over" between them);
        a program that takes 2.5 s to start, with timeout=2, forfeits nothing, and its ms per move leaves the
        start-up out."""
        with tempfile.TemporaryDirectory() as tmp:
            pids = os.path.join(tmp, "pids")
            spec = self.write_script(tmp, "slow.py", SLOW_BOT % pids) + ",timeout=2"
            for reuse, programs in ((",reuse=1", 1), ("", 3)):
                if os.path.exists(pids):
                    os.unlink(pids)
                done = self.run_asobi("sim", "psycle", "--bots", spec + reuse + ",random", "--games", "3",
                                      "--jobs", "1", "--json")
                self.assertEqual(done.returncode, 0, done.stderr)
                seat = json.loads(done.stdout)["seats"][0]
                self.assertEqual(seat["forfeits"], 0, reuse)
                self.assertLess(seat["ms_per_move"], 500, reuse)
                with open(pids) as f:
                    lines = f.read().split()
                self.assertEqual(len(set(lines)), programs, reuse)
                self.assertEqual(len(lines), 3, reuse)  # one "new" per game

    def test_no_hello_answer_is_a_forfeit_of_every_decision(self):
        """Issue 45 §3: the handshake has its own time limit (startup=); a program that misses it plays no
        decision."""
        with tempfile.TemporaryDirectory() as tmp:
            spec = self.write_script(tmp, "mute.py", "import sys, time\ntime.sleep(30)\n") + ",startup=0.3"
            self.assertEqual(spec.count("startup="), 2)  # the later key wins
            self.check_every_decision_forfeited(spec)

    def test_bad_exec_specs_are_refused(self):
        for spec, message in (("exec:cmd=x,reuse=2", "reuse is 0 or 1"), ("exec:cmd=x,startup=0", "startup"),
                              ("exec:cmd=x,color=red", "unknown key")):
            done = self.run_asobi("arena", "psycle", "--bots", spec + ",random", "--games", "2")
            self.assertEqual(done.returncode, 2, spec)
            self.assertIn(message, done.stderr, spec)


# Before every answer: a line of text and a JSON line that names no request.
STRAY_BOT = """import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if r["cmd"] in ("hello", "choose"):
        print("thinking about request", r["id"], flush=True)
    if r["cmd"] == "choose":
        print(json.dumps({"ok": True, "action": r["legal"][0]["id"]}), flush=True)
    if r["cmd"] in ("hello", "choose"):
        answer = {"ok": True, "id": r["id"]}
        if r["cmd"] == "choose":
            answer["action"] = r["legal"][-1]["id"]
        print(json.dumps(answer), flush=True)
    elif r["cmd"] == "quit":
        break
"""

# Sleeps 2.5 s before its handshake; writes its pid to a file at each "new".
SLOW_BOT = """import json, os, sys, time
time.sleep(2.5)
for line in sys.stdin:
    r = json.loads(line)
    if r["cmd"] == "new":
        with open(%r, "a") as f:
            f.write("%%d\\n" %% os.getpid())
    elif r["cmd"] in ("hello", "choose"):
        answer = {"ok": True, "id": r["id"]}
        if r["cmd"] == "choose":
            answer["action"] = r["legal"][0]["id"]
        print(json.dumps(answer), flush=True)
    elif r["cmd"] == "quit":
        break
"""


if __name__ == "__main__":
    unittest.main()
