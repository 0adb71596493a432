"""test_hidden.py — nothing a seat may not see crosses the binding: views and observations of determinized twins."""
import unittest

from _support import asobi, player_counts, random_states, reps, sparse


class TestHiddenInformation(unittest.TestCase):
    def test_states_differing_only_in_hidden_things_look_the_same_to_the_seat(self):
        """Two states that differ only in what seat cannot see (determinized
        for seat with different seeds) give seat identical views and
        identical observation vectors; and somewhere they do differ for
        another seat or the all-seeing view, so the test can fail."""
        for name, players in player_counts():
            differed = 0
            for seed in range(reps(1)):
                for state in random_states(name, players, seed, every=sparse(9)):
                    for seat in range(players):
                        a, b = state.clone(), state.clone()
                        a.determinize(seat, 1)
                        b.determinize(seat, 2)
                        self.assertEqual(a.view(seat), state.view(seat), (name, players, seat))
                        self.assertEqual(a.view(seat), b.view(seat))
                        obs_a, obs_b = asobi.encode.encode(a, seat), asobi.encode.encode(b, seat)
                        self.assertEqual(obs_a, obs_b)
                        self.assertEqual(obs_a, asobi.encode.encode(state, seat))
                        self.assertEqual(a.legal_actions(seat), b.legal_actions(seat))
                        if a != b:  # byte comparison: the hidden things were resampled
                            differed += 1
            self.assertGreater(differed, 0, "%s %d: determinization never changed anything" % (name, players))

    def test_a_committed_psycle_card_is_resampled_and_unseen(self):
        """Seat 0 has chosen face down: for seat 1 that card is hidden, so
        its determinizations may hold any card of seat 0's hand while seat 1
        sees the same; seat 0 itself keeps its own card."""
        s = asobi.new_game("psycle", players=2, seed=3)
        s.apply(0, "play 5")
        choices = set()
        for seed in range(40):
            d = s.clone()
            d.determinize(1, seed)
            self.assertEqual(d.view(1), s.view(1))
            self.assertEqual(asobi.encode.encode(d, 1), asobi.encode.encode(s, 1))
            choices.add(d.view(None)["players"][0]["choice"])
            own = s.clone()
            own.determinize(0, seed)
            self.assertEqual(own.view(None)["players"][0]["choice"], "5")
        self.assertGreater(len(choices), 1)

    def test_an_env_observation_is_the_seat_view_only(self):
        env = asobi.env("octal", players=3)
        env.reset(seed=5)
        obs = env.observe("player_1")
        self.assertEqual(obs["view"], env.game_state.view(1))
        hands = [p["hand"] for p in obs["view"]["players"]]
        self.assertIsNotNone(hands[1])
        self.assertIsNone(hands[0])
        self.assertIsNone(hands[2])

    def test_encoders_refuse_the_all_seeing_view(self):
        s = asobi.new_game("psycle", players=2, seed=1)
        with self.assertRaises(ValueError):
            asobi.encode.encode_view("psycle", 2, s.view(None))


if __name__ == "__main__":
    unittest.main()
