"""test_samples.py — samples for external bots that search (issue 45 §1): what the arena sends, how they load, what is refused."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from _support import PYTHON_DIR, asobi, random_states

KEY = "k" * 32

# An exec bot that checks every sample it gets against its request and writes what it found.
CHECKER = """import json, os, sys
sys.path.insert(0, %r)
import asobi
out = open(sys.argv[1], "a")
for line in sys.stdin:
    r = json.loads(line)
    if r["cmd"] == "hello":
        print(json.dumps({"ok": True, "id": r["id"]}), flush=True)
    elif r["cmd"] == "choose":
        states = [asobi.State.load_sample(s) for s in r["samples"]]
        out.write(json.dumps({
            "count": len(states),
            "views_equal": all(s.view(r["seat"]) == r["view"] for s in states),
            "legal_equal": all(s.legal_actions(r["seat"]) == [a["id"] for a in r["legal"]] for s in states),
            "distinct": len({json.dumps(s.view(None), sort_keys=True) for s in states}),
            "distinct_bytes": len(set(r["samples"])),
            "key": os.environ["ASOBI_SAMPLE_KEY"],
            "sample": r["samples"][0]}) + "\\n")
        out.flush()
        print(json.dumps({"ok": True, "id": r["id"], "action": r["legal"][0]["id"]}), flush=True)
    elif r["cmd"] == "quit":
        break
""" % PYTHON_DIR


class TestArenaSamples(unittest.TestCase):
    def setUp(self):
        self.binary = os.environ.get("ASOBI_BINARY")
        if not self.binary:
            self.skipTest("ASOBI_BINARY is not set")

    def test_each_sample_is_a_state_the_seat_cannot_tell_from_the_real_one(self):
        """Every sample's view for the seat equals the request's view (and its legal actions the request's);
        over a game, samples differ where the seat cannot see, in every game."""
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "checker.py")
            with open(script, "w") as f:
                f.write(CHECKER)
            for name in asobi.games():
                log = os.path.join(tmp, name)
                spec = "exec:cmd=%s %s %s,samples=5,startup=60" % (sys.executable, script, log)
                done = subprocess.run([self.binary, "sim", name, "--bots", spec + ",random", "--games", "2",
                                       "--jobs", "1", "--json"], capture_output=True, text=True, timeout=300)
                self.assertEqual(done.returncode, 0, done.stderr)
                self.assertEqual(json.loads(done.stdout)["seats"][0]["forfeits"], 0, name)
                with open(log) as f:
                    found = [json.loads(line) for line in f]
                self.assertTrue(found, name)
                self.assertTrue(all(r["count"] == 5 for r in found), name)
                self.assertTrue(all(r["views_equal"] for r in found), name)
                self.assertTrue(all(r["legal_equal"] for r in found), name)
                # what the seat cannot see differs between samples: the others' cards (all-seeing views), and
                # in PSYCLE, whose hands are public to a seat that chooses first, the shuffles to come
                self.assertTrue(all(r["distinct_bytes"] > 1 for r in found if r["count"] > 1), name)
                if name != "psycle":
                    self.assertGreater(max(r["distinct"] for r in found), 1, name)
                # the key is one per run, and never an arena's constant
                self.assertGreaterEqual(len(found[0]["key"]), 32)
                # a sample of that run does not load under another key
                with self.assertRaises(asobi.AsobiError) as caught:
                    asobi.State.load_sample(found[0]["sample"], KEY)
                self.assertEqual(caught.exception.code, "bad_sample")

    def test_no_samples_without_the_option(self):
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "requests")
            script = os.path.join(tmp, "rec.py")
            with open(script, "w") as f:
                f.write("import json, os, sys\n"
                        "out = open(sys.argv[1], 'a')\n"
                        "for line in sys.stdin:\n"
                        "    r = json.loads(line)\n"
                        "    out.write(json.dumps([r['cmd'], 'samples' in r, 'ASOBI_SAMPLE_KEY' in os.environ]) + '\\n')\n"
                        "    if r['cmd'] in ('hello', 'choose'):\n"
                        "        a = {'ok': True, 'id': r['id']}\n"
                        "        if r['cmd'] == 'choose':\n"
                        "            a['action'] = r['legal'][0]['id']\n"
                        "        print(json.dumps(a), flush=True)\n")
            spec = "exec:cmd=%s %s %s,startup=60" % (sys.executable, script, log)
            done = subprocess.run([self.binary, "sim", "psycle", "--bots", spec + ",random", "--games", "1",
                                   "--jobs", "1"], capture_output=True, text=True, timeout=120,
                                  env={k: v for k, v in os.environ.items() if k != "ASOBI_SAMPLE_KEY"})
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(log) as f:
                rows = [json.loads(line) for line in f]
            self.assertTrue(rows)
            self.assertFalse(any(has or key for _, has, key in rows))


class TestLoading(unittest.TestCase):
    def samples(self):
        for name in asobi.games():
            for state in random_states(name, asobi.game(name).min_players, 3, every=15):
                yield state

    def test_a_sample_loads_to_the_byte_identical_state_and_plays_on(self):
        for state in self.samples():
            loaded = asobi.State.load_sample(state.to_sample(KEY), KEY)
            self.assertEqual(loaded, state)
            self.assertEqual(loaded.view(None), state.view(None))
            if not loaded.is_terminal():
                seat = loaded.current_players()[0]
                loaded.apply(seat, loaded.legal_actions(seat)[0])
                loaded.clone().random_playout(1)
            with self.assertRaises(asobi.AsobiError) as caught:
                loaded.record()
            self.assertEqual(caught.exception.code, "bad_record")

    def test_a_changed_or_made_up_sample_is_refused(self):
        state = asobi.new_game("timemasters", players=2, seed=3)
        good = state.to_sample(KEY)
        tag, name, players, data, mac = good.split(".")
        flipped = data[:40] + ("A" if data[40] != "A" else "B") + data[41:]
        bad = [".".join([tag, name, players, flipped, mac]),
               ".".join([tag, name, players, data, ("0" if mac[0] != "0" else "1") + mac[1:]]),
               ".".join([tag, name, "3", data, mac]),
               ".".join([tag, "octal", players, data, mac]),
               ".".join(["S2", name, players, data, mac]),
               ".".join([tag, name, players, data[:-4], mac]),
               ".".join([tag, name, players, data, mac[:-2]]),
               ".".join([tag, name, players, data, mac, ""]),
               good[:-1], good + "0", "", ".", "....", "S1.psycle.2..", "S1.psycle.9.AAAA." + "0" * 64,
               "\x00" * 100, good.replace(".", "", 1)]
        for text in bad:
            with self.assertRaises(asobi.AsobiError, msg=text[:60]) as caught:
                asobi.State.load_sample(text, KEY)
            self.assertEqual(caught.exception.code, "bad_sample")
        for key in ("", "short", "k" * 31 + "j"):
            with self.assertRaises(asobi.AsobiError) as caught:
                asobi.State.load_sample(good, key)
            self.assertEqual(caught.exception.code, "bad_sample")
        self.assertEqual(asobi.State.load_sample(good, KEY), state)

    def test_the_engine_loads_a_sample_with_the_arenas_key_only(self):
        binary = os.environ.get("ASOBI_BINARY")
        if not binary:
            self.skipTest("ASOBI_BINARY is not set")
        state = asobi.new_game("octal", players=3, seed=8)
        sample = state.to_sample(KEY)
        seat = state.current_player()
        requests = [{"cmd": "load", "sample": sample}, {"cmd": "view", "seat": seat},
                    {"cmd": "act", "seat": seat, "action": {"id": state.legal_actions(seat)[0]}},
                    {"cmd": "record"}, {"cmd": "load", "sample": sample[:-1] + "x"},
                    {"cmd": "load", "sample": 7}, {"cmd": "view", "seat": seat}]
        text = "".join(json.dumps(r) + "\n" for r in requests)
        env = dict(os.environ, ASOBI_SAMPLE_KEY=KEY)
        done = subprocess.run([binary, "engine"], input=text, capture_output=True, text=True, env=env, timeout=60)
        replies = [json.loads(line) for line in done.stdout.splitlines()]
        self.assertEqual(len(replies), len(requests))
        self.assertEqual((replies[0]["ok"], replies[0]["game"], replies[0]["players"]), (True, "octal", 3))
        self.assertEqual(replies[1]["view"], state.view(seat))
        self.assertTrue(replies[2]["ok"], replies[2])
        self.assertEqual(replies[3]["error"]["code"], "bad_record")
        self.assertEqual(replies[4]["error"]["code"], "bad_sample")
        self.assertEqual(replies[5]["error"]["code"], "bad_request")
        # the refusals left the loaded sample (one action on) as it was
        after = state.clone()
        after.apply(seat, state.legal_actions(seat)[0])
        self.assertEqual(replies[6]["view"], after.view(seat))
        env.pop("ASOBI_SAMPLE_KEY")
        done = subprocess.run([binary, "engine"], input=text, capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(json.loads(done.stdout.splitlines()[0])["error"]["code"], "bad_sample")


if __name__ == "__main__":
    unittest.main()
