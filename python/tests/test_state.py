"""test_state.py — the OpenSpiel-style state API: moves, refusals, clones, results, views, records."""
import json
import random
import subprocess
import unittest

from _support import asobi, player_counts, random_states, random_step, reps
import os


class TestGames(unittest.TestCase):
    def test_games_lists_the_four_games(self):
        self.assertEqual(sorted(asobi.games()), ["ninja", "octal", "psycle", "timemasters"])
        g = asobi.game("psycle")
        self.assertEqual((g.min_players, g.max_players), (2, 4))
        self.assertGreater(g.num_distinct_actions(), 0)

    def test_bad_arguments_raise_the_library_codes(self):
        cases = [(("chess",), {}, "unknown_game"),
                 (("psycle",), {"players": 9}, "bad_players"),
                 (("psycle",), {"players": 2 ** 32 + 2}, "bad_players"),
                 (("psycle",), {"players": "2"}, "bad_players"),
                 (("psycle",), {"options": {"no_such": 1}}, "bad_option"),
                 (("psycle",), {"options": {"max_cycles": 0}}, "bad_option")]
        for args, kwargs, code in cases:
            with self.assertRaises(asobi.AsobiError) as caught:
                asobi.new_game(*args, **kwargs)
            self.assertEqual(caught.exception.code, code)
            self.assertTrue(str(caught.exception))

    def test_seeds_beyond_64_bits_are_refused(self):
        """Issue 45 §7: seed=2**70 was silently the game of seed 0."""
        for seed in (2 ** 64, 2 ** 70, -2 ** 63 - 1, 1.5, "7", True):
            with self.assertRaises(asobi.AsobiError) as caught:
                asobi.new_game("psycle", players=2, seed=seed)
            self.assertEqual(caught.exception.code, "bad_argument", seed)
            with self.assertRaises(asobi.AsobiError):
                asobi.new_game("psycle", players=2, seed=1).determinize(0, seed)
            with self.assertRaises(asobi.AsobiError):
                asobi.Bot("random", seed=seed)
        # the edges of the range are seeds, a negative one the two's complement a record writes
        self.assertEqual(asobi.new_game("psycle", players=2, seed=-1),
                         asobi.new_game("psycle", players=2, seed=2 ** 64 - 1))
        self.assertEqual(asobi.new_game("psycle", players=2, seed=-2 ** 63).record()["seed"], -2 ** 63)

    def test_legal_actions_of_a_seat_that_does_not_exist_raise(self):
        """Issue 45 §7: legal_actions(7) of a 2-player game returned []."""
        s = asobi.new_game("psycle", players=2, seed=1)
        for seat in (2, 7, -1, 2 ** 40):
            with self.assertRaises(asobi.IllegalAction) as caught:
                s.legal_actions(seat)
            self.assertEqual(caught.exception.code, "bad_seat", seat)
        s = asobi.new_game("octal", players=3, seed=1)
        waiting = [k for k in range(3) if k not in s.current_players()]
        self.assertEqual(s.legal_actions(waiting[0]), [])  # a seat that exists but waits: no actions

    def test_defaults_are_the_smallest_player_count_and_filled_options(self):
        s = asobi.new_game("octal", seed=4)
        self.assertEqual(s.num_players(), 3)
        self.assertEqual(s.record()["options"], {"mode": "auto", "ranks": 1, "max_turns": 1000, "twin_same_condition": "exchange"})


class TestMoves(unittest.TestCase):
    def test_psycle_starts_with_everybody_choosing_at_once(self):
        s = asobi.new_game("psycle", players=3, seed=1)
        self.assertEqual(s.current_players(), (0, 1, 2))
        self.assertEqual(s.current_player(), asobi.SIMULTANEOUS)
        self.assertTrue(s.is_simultaneous_node())
        s.apply(1, "play 2")
        self.assertEqual(s.current_players(), (0, 2))

    def test_texts_and_ids_match_and_both_apply(self):
        for name, players in player_counts():
            s = asobi.new_game(name, players=players, seed=3)
            seat = s.current_players()[0]
            ids, texts = s.legal_actions(seat), s.legal_action_texts(seat)
            self.assertEqual(len(ids), len(texts))
            for i, t in zip(ids, texts):
                self.assertEqual(s.string_to_action(seat, t), i)
                self.assertEqual(s.action_to_string(seat, i), t)
            idle = [x for x in range(players) if x not in s.current_players()]
            for bad_seat, bad_id in [(seat, -1), (seat, 2 ** 40 + ids[0]), (2 ** 40 + seat, ids[0])] + \
                    [(x, ids[0]) for x in idle[:1]]:
                with self.assertRaises(asobi.IllegalAction):
                    s.action_to_string(bad_seat, bad_id)
            with self.assertRaises(asobi.IllegalAction):
                s.string_to_action(2 ** 32 + seat, texts[0])
            by_id, by_text = s.clone(), s.clone()
            by_id.apply(seat, ids[-1])
            by_text.apply(seat, texts[-1])
            self.assertEqual(by_id, by_text)
            self.assertEqual(by_id.history(), [(seat, ids[-1])])

    def test_a_seat_not_to_move_has_no_legal_actions(self):
        s = asobi.new_game("octal", players=3, seed=2)
        idle = [x for x in range(3) if x not in s.current_players()][0]
        self.assertEqual(s.legal_actions(idle), [])
        for seat in (17, 2 ** 40):  # issue 45 §7: no such seat is an error, not an empty list
            with self.assertRaises(asobi.IllegalAction):
                s.legal_actions(seat)
        with self.assertRaises(asobi.IllegalAction):
            s.legal_actions("0")
        self.assertEqual(s.legal_actions_mask(idle), [0] * asobi.game("octal").max_actions)

    def test_refusals_raise_illegal_action_and_change_nothing(self):
        s = asobi.new_game("psycle", players=2, seed=5)
        s.apply(0, "play 3")
        before, record, view = s.clone(), s.record(), s.view(None)
        cases = [(1, "play 6", "illegal_action", "no card 6"),
                 (1, 99, "illegal_action", None),
                 (1, "dance", "illegal_action", None),
                 (0, "play 1", "not_your_turn", None),
                 (5, 1, "bad_seat", None),
                 (1, None, "illegal_action", None),
                 (1, True, "illegal_action", None),
                 (1, 2.0, "illegal_action", None),
                 (1, 2 ** 40, "illegal_action", None),
                 (2 ** 40, 1, "bad_seat", None),
                 ("1", 1, "bad_seat", None),
                 (None, "play 1", "bad_seat", None)]
        for seat, action, code, words in cases:
            with self.assertRaises(asobi.IllegalAction) as caught:
                s.apply(seat, action)
            self.assertEqual(caught.exception.code, code, (seat, action))
            if words:
                self.assertIn(words, str(caught.exception))
            self.assertEqual(s, before)
            self.assertEqual(s.record(), record)
            self.assertEqual(s.view(None), view)
        self.assertIsInstance(caught.exception, ValueError)

    def test_game_over_refuses_every_action(self):
        for state in random_states("psycle", 2, 8):
            pass
        self.assertTrue(state.is_terminal())
        self.assertEqual(state.current_players(), ())
        self.assertEqual(state.current_player(), asobi.TERMINAL)
        with self.assertRaises(asobi.IllegalAction) as caught:
            state.apply(0, 0)
        self.assertEqual(caught.exception.code, "game_over")

    def test_clone_is_independent(self):
        s = asobi.new_game("ninja", players=3, seed=6)
        c = s.clone()
        self.assertEqual(s, c)
        random_step(c, random.Random(1))
        self.assertNotEqual(s, c)
        self.assertEqual(s.history(), [])
        self.assertEqual(len(c.history()), 1)


class TestResults(unittest.TestCase):
    def test_returns_are_zero_sum_and_follow_the_ranks(self):
        for name, players in player_counts():
            for seed in range(reps(3)):
                for s in random_states(name, players, seed, every=1000):
                    pass
                result, returns = s.result(), s.returns()
                self.assertTrue(result["terminal"])
                self.assertAlmostEqual(sum(returns), 0.0)
                for a in range(players):
                    self.assertTrue(-1.0 <= returns[a] <= 1.0)
                    for b in range(players):
                        if result["ranks"][a] < result["ranks"][b]:
                            self.assertGreater(returns[a], returns[b])
                for w in result["winners"]:
                    self.assertEqual(result["ranks"][w], 1)

    def test_two_player_returns_are_win_loss(self):
        for s in random_states("psycle", 2, 11, every=1000):
            pass
        self.assertEqual(sorted(s.returns()), [-1.0, 1.0])
        self.assertEqual(s.returns()[s.result()["winners"][0]], 1.0)

    def test_returns_are_zero_while_playing(self):
        self.assertEqual(asobi.new_game("octal", players=4, seed=1).returns(), [0.0] * 4)


class TestViews(unittest.TestCase):
    def test_a_seat_sees_its_own_hand_only(self):
        s = asobi.new_game("psycle", players=2, seed=1)
        mine = s.view(0)
        self.assertEqual(mine["seat"], 0)
        self.assertIsNotNone(mine["players"][0]["hand"])
        self.assertIsNone(mine["players"][1]["hand"])
        s.apply(1, "play 4")
        self.assertTrue(s.view(0)["players"][1]["chosen"])
        self.assertNotIn("4", json.dumps(s.view(0)["players"][1]))
        self.assertEqual(s.view(None)["players"][1]["choice"], "4")

    def test_the_viewer_must_be_a_seat_or_none(self):
        s = asobi.new_game("psycle", players=2, seed=1)
        for bad in (2, -1, "0", 1.0):
            with self.assertRaises(asobi.AsobiError):
                s.view(bad)
        self.assertIsNone(s.view(None)["seat"])
        self.assertIn("0", s.render(0))


class TestRecords(unittest.TestCase):
    def test_records_load_to_the_same_state(self):
        for name, players in player_counts():
            s = list(random_states(name, players, 21, every=1000))[-1]
            record = s.record()
            self.assertEqual(record["game"], name)
            loaded = asobi.load(record)
            self.assertEqual(loaded, s)
            self.assertEqual(loaded.record(), record)
            self.assertEqual(asobi.load(json.dumps(record)), s)
            self.assertEqual(asobi.load(s.serialize()), s)

    def test_records_match_the_asobi_command(self):
        binary = os.environ.get("ASOBI_BINARY")
        if not binary:
            self.skipTest("ASOBI_BINARY is not set")
        s = list(random_states("octal", 4, 3, every=1000))[-1]
        out = subprocess.run([binary, "engine"], input=json.dumps({"cmd": "load", "record": s.record()})
                             + "\n" + json.dumps({"cmd": "view"}) + "\n", capture_output=True, text=True,
                             check=True).stdout.splitlines()
        self.assertTrue(json.loads(out[0])["ok"], out[0])
        self.assertEqual(json.loads(out[1])["view"], s.view(None))

    def test_bad_records_raise_bad_record(self):
        good = asobi.new_game("psycle", players=2, seed=1)
        good.apply(0, "play 1")
        record = good.record()
        record["actions"].append({"seat": 0, "action": "play 2"})  # seat 0 has chosen already
        for bad in (record, "{not json", {"game": "psycle"}, [1, 2], {"game": "chess", "actions": []}):
            with self.assertRaises(asobi.AsobiError) as caught:
                asobi.load(bad)
            self.assertIn(caught.exception.code, ("bad_record", "unknown_game"))

    def test_a_determinized_state_has_no_record(self):
        s = asobi.new_game("octal", players=3, seed=1)
        s.determinize(0, 5)
        with self.assertRaises(asobi.AsobiError):
            s.record()

    def test_seeds_above_two_to_the_63_round_trip(self):
        s = asobi.new_game("psycle", players=2, seed=2 ** 64 - 5)
        self.assertEqual(asobi.load(s.record()), s)


class TestEvents(unittest.TestCase):
    """Events (docs/protocol.md, "Events"): what an action made happen, per viewer."""

    def test_psycle_round_reveal_is_told_to_everybody(self):
        s = asobi.new_game("psycle", players=2, seed=7)
        self.assertEqual(s.apply_and_tell(0, "play 3", 0), [])  # a face-down choice: nothing happens yet
        before = s.clone()
        s.apply(1, "play 2")
        for viewer in (0, 1, None, "spectator"):
            events = s.events(before, 1, "play 2", viewer)
            self.assertEqual(events[0]["type"], "reveal")
            self.assertEqual(events[0]["cards"], [3, 2])
            self.assertTrue(all(e["text"] for e in events))

    def test_timemasters_draws_are_named_to_the_drawer_only(self):
        s, rng = asobi.new_game("timemasters", players=2, seed=3), random.Random(5)
        for _ in range(400):  # random actions until one draws cards
            seat = s.current_player()
            before, action = s.clone(), rng.choice(s.legal_actions(seat))
            mine = [e for e in s.apply_and_tell(seat, action, seat) if e["type"] == "draw"]
            if mine:
                break
        self.assertEqual(len(mine[0]["cards"]), mine[0]["count"])
        theirs = [e for e in s.events(before, seat, action, 1 - seat) if e["type"] == "draw"]
        self.assertEqual(theirs[0]["count"], mine[0]["count"])
        self.assertNotIn("cards", theirs[0])

    def test_bad_viewer_is_refused(self):
        s = asobi.new_game("psycle", players=2, seed=7)
        before = s.clone()
        s.apply(0, 3)
        with self.assertRaises(asobi.AsobiError):
            s.events(before, 0, 3, 5)


if __name__ == "__main__":
    unittest.main()
