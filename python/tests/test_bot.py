"""test_bot.py — the library's bots from Python: choices are legal, seeded, and refusals are clear."""
import random
import unittest

from _support import asobi, player_counts


class TestBots(unittest.TestCase):
    def test_the_bots_are_listed(self):
        names = asobi.bots()
        for name in ("random", "heuristic", "ismcts"):
            self.assertIn(name, names)
            self.assertTrue(names[name])

    def test_bots_play_legal_moves_in_every_game(self):
        for name, players in player_counts():
            s = asobi.new_game(name, players=players, seed=2)
            for spec in ("random", "heuristic", "ismcts:iters=20"):
                b = asobi.bot(spec, seed=1)
                seat = s.current_players()[0]
                self.assertIn(b.choose(s, seat), s.legal_actions(seat))

    def test_a_full_game_between_a_python_policy_and_ismcts(self):
        s = asobi.new_game("psycle", players=2, seed=4)
        ismcts = asobi.bot("ismcts:iters=50", seed=3)
        rng = random.Random(0)
        while not s.is_terminal():
            for seat in s.current_players():
                if seat == 0:
                    s.apply(seat, rng.choice(s.legal_actions(seat)))
                else:
                    ismcts.step(s, seat)
        self.assertEqual(sorted(s.returns()), [-1.0, 1.0])

    def test_the_same_seed_gives_the_same_choices(self):
        s = asobi.new_game("octal", players=3, seed=7)
        seat = s.current_players()[0]
        a = [asobi.bot("ismcts:iters=30", seed=5).choose(s, seat) for _ in range(2)]
        self.assertEqual(a[0], a[1])

    def test_bad_specs_and_seats_are_refused(self):
        for spec in ("nobody", "ismcts:iters=-3", "ismcts:colour=blue"):
            with self.assertRaises(asobi.AsobiError) as caught:
                asobi.bot(spec).choose(asobi.new_game("psycle", players=2, seed=1), 0)
            self.assertEqual(caught.exception.code, "bad_bot", spec)
        s = asobi.new_game("octal", players=3, seed=2)
        idle = [x for x in range(3) if x not in s.current_players()][0]
        with self.assertRaises(asobi.AsobiError) as caught:
            asobi.bot("random").choose(s, idle)
        self.assertEqual(caught.exception.code, "not_your_turn")
        with self.assertRaises(asobi.AsobiError):
            asobi.bot("random").choose(s, 3)


if __name__ == "__main__":
    unittest.main()
