"""test_review.py — asobi.review from Python: the review of a record, seeded, from a dict, text or state; refusals."""
import json
import random
import unittest

from _support import asobi

JUDGE = "ismcts:iters=100"  # small budgets: fast and the same everywhere


def played(game, players, seed):
    s = asobi.new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        seat = s.current_players()[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    return s


class TestReview(unittest.TestCase):
    def test_a_review_of_every_decision_with_a_choice(self):
        s = played("psycle", 3, 2)
        r = asobi.review(s.record(), 1, bot=JUDGE, seed=3)
        self.assertEqual((r["game"], r["players"], r["seat"], r["bot"], r["seed"]), ("psycle", 3, 1, JUDGE, 3))
        self.assertTrue(r["decisions"])
        for d in r["decisions"]:
            self.assertEqual(s.record()["actions"][d["index"]]["seat"], 1)
            self.assertGreaterEqual(d["loss"], 0)
            self.assertTrue(0 <= d["best_value"] <= 1)
            if d["played"] == d["best"]:
                self.assertEqual(d["loss"], 0)
            self.assertEqual({m["action"] for m in d["moves"]} >= {d["played"], d["best"]}, True)
        self.assertEqual(r["summary"]["decisions"], len(r["decisions"]))

    def test_the_same_seed_the_same_review_from_a_dict_its_text_or_the_state(self):
        s = played("ninja", 3, 4)
        record = s.record()
        a = asobi.review(record, 0, bot=JUDGE, seed=5)
        self.assertEqual(a, asobi.review(json.dumps(record), 0, bot=JUDGE, seed=5, jobs=2))
        self.assertEqual(a, asobi.review(s, 0, bot=JUDGE, seed=5))
        self.assertNotEqual(a, asobi.review(record, 0, bot=JUDGE, seed=6))

    def test_refusals(self):
        record = played("psycle", 2, 1).record()
        for args, code in (((record, 2), "bad_seat"), ((record, -1), "bad_seat"), (("{", 0), "bad_record"),
                           (([], 0), "bad_record")):
            with self.assertRaises(asobi.AsobiError) as e:
                asobi.review(*args, bot=JUDGE)
            self.assertEqual(e.exception.code, code)
        with self.assertRaises(asobi.AsobiError) as e:
            asobi.review(record, 0, bot="random")
        self.assertEqual(e.exception.code, "bad_bot")
        with self.assertRaises(asobi.AsobiError) as e:
            asobi.review(record, 0, bot=JUDGE, jobs=0)
        self.assertEqual(e.exception.code, "bad_argument")


if __name__ == "__main__":
    unittest.main()
