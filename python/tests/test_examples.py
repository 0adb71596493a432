"""test_examples.py — python/examples and the manual's random-play loop run on every game and player count (issue 45 §6)."""
import os
import random
import subprocess
import sys
import unittest

from _support import asobi, player_counts

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")


def run_example(name, *args, timeout=300):
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, name), *args], capture_output=True, text=True,
                          timeout=timeout)


class TestGenericLoops(unittest.TestCase):
    def test_the_manuals_loop_plays_every_game(self):
        """The loop of docs/python.md and asobi's docstring: THE OCTAL's late Octo! window raised IndexError."""
        for name, players in player_counts():
            for seed in range(3):
                rng = random.Random(seed)
                state = asobi.new_game(name, players=players, seed=seed)
                while not state.is_terminal():
                    for seat in state.current_players():
                        state.apply(seat, rng.choice(state.legal_actions(seat)))
                self.assertTrue(state.result()["terminal"], (name, players))

    def test_openspiels_loop_plays_every_game(self):
        """current_player() is one seat, SIMULTANEOUS (PSYCLE) or TERMINAL: never a seat that may not act."""
        for name, players in player_counts():
            rng = random.Random(players)
            state = asobi.new_game(name, players=players, seed=5)
            while not state.is_terminal():
                player = state.current_player()
                if player == asobi.SIMULTANEOUS:
                    self.assertTrue(state.is_simultaneous_node())
                    for seat in state.current_players():
                        state.apply(seat, rng.choice(state.legal_actions(seat)))
                else:
                    self.assertGreaterEqual(player, 0)
                    state.apply(player, rng.choice(state.legal_actions(player)))
            self.assertEqual(state.current_player(), asobi.TERMINAL)

    def test_the_late_octo_is_offered_to_the_seat_that_forgot(self):
        """THE OCTAL §⑦: while the window is open, the turn is the next seat's (current_player), and the seat
        that forgot is offered Octo! alone (legal_actions), listed by may_act_players; declaring it works."""
        found = 0
        for seed in range(200):
            rng = random.Random(seed)
            state = asobi.new_game("octal", players=3, seed=seed)
            while not state.is_terminal() and found < 5:
                late = [k for k in state.may_act_players() if k not in state.current_players()]
                if late:
                    (k,) = late
                    self.assertEqual(state.current_players(), (state.current_player(),))
                    self.assertFalse(state.is_simultaneous_node())
                    self.assertEqual(state.legal_action_texts(k), ["Octo!"])
                    self.assertEqual(state.view(None)["undeclared_octo"], k)
                    declared = state.clone()
                    declared.apply(k, "Octo!")
                    self.assertIsNone(declared.view(None)["undeclared_octo"])
                    found += 1
                seat = state.current_player()
                state.apply(seat, rng.choice(state.legal_actions(seat)))
            if found >= 5:
                break
        self.assertEqual(found, 5)


class TestExamples(unittest.TestCase):
    def test_bench_playouts_runs_every_game(self):
        for name, players in player_counts():
            out = run_example("bench_playouts.py", name, "--players", str(players), "--runs", "1", "--seconds",
                              "0.05")
            self.assertEqual(out.returncode, 0, "%s %d: %s" % (name, players, out.stderr))
            self.assertIn("random playouts/s", out.stdout)

    def test_engine_bot_runs_every_game(self):
        binary = os.environ.get("ASOBI_BINARY")
        if not binary:
            self.skipTest("ASOBI_BINARY is not set")
        for name in asobi.games():
            g = asobi.game(name)
            for players in sorted({g.min_players, g.max_players}):
                out = run_example("engine_bot.py", name, "--players", str(players), "--games", "2", "--opponent",
                                  "random", "--asobi", binary)
                self.assertEqual(out.returncode, 0, "%s %d: %s" % (name, players, out.stderr))
                self.assertIn("the Python bot won", out.stdout)

    def test_arena_bot_runs_every_game(self):
        binary = os.environ.get("ASOBI_BINARY")
        if not binary:
            self.skipTest("ASOBI_BINARY is not set")
        bot = "exec:cmd=%s %s,startup=60" % (sys.executable, os.path.join(os.path.abspath(EXAMPLES), "arena_bot.py"))
        for name in asobi.games():
            out = subprocess.run([binary, "arena", name, "--bots", bot + ",random", "--games", "2", "--jobs", "2"],
                                 capture_output=True, text=True, timeout=300)
            self.assertEqual(out.returncode, 0, "%s: %s" % (name, out.stderr))
            self.assertRegex(out.stdout, r"forfeits of exec:\S+ \S+: 0 of [1-9]\d* decisions, 0 stray lines")

    def test_the_searching_bot_plays_over_samples(self):
        """ismcts_exec_bot.py (flat Monte Carlo over samples) plays every game as exec:...,samples=K with
        reuse=1, without a forfeit, a stray line or a refused sample."""
        binary = os.environ.get("ASOBI_BINARY")
        if not binary:
            self.skipTest("ASOBI_BINARY is not set")
        bot = "mc=exec:cmd=%s %s,samples=2,reuse=1,startup=60,timeout=60" % (
            sys.executable, os.path.join(os.path.abspath(EXAMPLES), "ismcts_exec_bot.py"))
        for name in asobi.games():
            out = subprocess.run([binary, "arena", name, "--bots", bot + ",random", "--games", "2", "--jobs", "2"],
                                 capture_output=True, text=True, timeout=600, env=dict(os.environ, MC_PLAYOUTS="1"))
            self.assertEqual(out.returncode, 0, "%s: %s" % (name, out.stderr))
            self.assertRegex(out.stdout, r"forfeits of mc: 0 of [1-9]\d* decisions, 0 stray lines")
            self.assertNotIn("bad_sample", out.stderr)


if __name__ == "__main__":
    unittest.main()
