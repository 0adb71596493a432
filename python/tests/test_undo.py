"""test_undo.py — State.can_undo() and State.undo(): the library's take-back rule from Python (issue 44)."""
import unittest

from _support import asobi


class TestUndo(unittest.TestCase):
    def test_a_psycle_choice_is_withdrawn_until_the_last_seat_has_chosen(self):
        s = asobi.new_game("psycle", players=3, seed=42)
        fresh = s.clone()
        self.assertFalse(s.can_undo(0))
        s.apply(0, "play 3")
        self.assertTrue(s.can_undo(0))
        self.assertFalse(s.can_undo(1))
        s.apply(1, "play 2")
        views_both = [s.view(k) for k in range(3)]
        self.assertTrue(s.can_undo(0))  # seat 1 chose without seeing it
        self.assertEqual(s.undo(0), (0, 3))
        self.assertEqual(s.current_players(), (0, 2))
        self.assertEqual(s.history(), [(1, 2)])
        self.assertEqual(s.record()["actions"], [{"seat": 1, "action": "play 2"}])
        only_seat_1 = fresh.clone()
        only_seat_1.apply(1, "play 2")
        self.assertEqual(s, only_seat_1)
        self.assertEqual(asobi.load(s.record()), s)
        s.apply(0, "play 3")  # chosen again: the step is as if chosen in the first order
        self.assertEqual([s.view(k) for k in range(3)], views_both)
        s.apply(2, "play 1")  # the last choice reveals the round: final
        for seat in range(3):
            self.assertFalse(s.can_undo(seat))

    def test_a_refusal_raises_undo_not_allowed_and_changes_nothing(self):
        s = asobi.new_game("psycle", players=2, seed=5)
        s.apply(0, "play 4")
        s.apply(1, "play 1")
        before, record = s.clone(), s.record()
        for seat in (0, 1, 5, -1):
            with self.assertRaises(asobi.AsobiError) as caught:
                s.undo(seat)
            self.assertEqual(caught.exception.code, "undo_not_allowed")
            self.assertTrue(caught.exception.message)
        self.assertEqual(s, before)
        self.assertEqual(s.record(), record)
        d = s.clone()
        d.determinize(0, 1)
        self.assertFalse(d.can_undo(0))
        with self.assertRaises(asobi.AsobiError):
            d.undo(0)

    def test_ninja_scroll_tiles_are_taken_back_one_by_one(self):
        s = asobi.new_game("ninja", players=3, seed=2)
        while not any(t.startswith("scroll") for t in s.legal_action_texts(s.current_player())):
            seat = s.current_player()
            s.apply(seat, s.legal_actions(seat)[0])
        seat = s.current_player()
        states = [s.clone()]
        for _ in range(2):
            s.apply(seat, s.legal_actions(seat)[0])
            states.append(s.clone())
        self.assertTrue(s.can_undo(seat))
        s.undo(seat)
        self.assertEqual(s, states[1])
        s.undo(seat)
        self.assertEqual(s, states[0])
        self.assertEqual([s.view(k) for k in range(3)], [states[0].view(k) for k in range(3)])
        self.assertEqual(asobi.load(s.record()), s)


if __name__ == "__main__":
    unittest.main()
