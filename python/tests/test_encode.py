"""test_encode.py — the fixed-size observation vectors: their length never changes, values stay bounded."""
import math
import unittest

from _support import asobi, player_counts, random_states, reps, sparse
from asobi import encode


class TestEncoding(unittest.TestCase):
    def test_every_observation_of_a_game_has_its_fixed_length(self):
        for name, players in player_counts():
            n = encode.size(name, players)
            for seed in range(reps(2)):
                for state in random_states(name, players, seed, every=sparse(4)):
                    for seat in range(players):
                        v = encode.encode(state, seat)
                        self.assertEqual(len(v), n, (name, players))
                        self.assertTrue(all(math.isfinite(x) and -100 <= x <= 100 for x in v))

    def test_sizes_depend_on_the_player_count_as_documented(self):
        self.assertEqual(encode.size("psycle", 2), 73)
        self.assertEqual(encode.size("psycle", 3) - encode.size("psycle", 2), 24)

    def test_time_masters_names_are_all_in_the_vocabulary(self):
        """Every card our set shows lands in its own slot, none in "other"."""
        seen = set()

        def walk(x):
            if isinstance(x, dict):
                for k, v in x.items():
                    if k in ("hand", "deck_cards", "discard", "removed", "gained", "released",
                             "spells", "delay_cards", "spell_zone") and v:
                        seen.update(v)
                    elif k in ("top", "timer", "resolving") and isinstance(v, str):
                        seen.add(v)
                    else:
                        walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)
        for seed in range(reps(4)):
            for state in random_states("timemasters", 3, seed, every=5):
                walk(state.view(None))
        self.assertGreater(len(seen), 10)
        self.assertEqual(seen - set(encode.TM_NAMES), set())

    def test_the_observer_comes_first(self):
        """Seats are rotated: the same table seen from two seats swaps the
        per-seat blocks (psycle's block: 3 + 6 + 1 + 1 + 6 + 6 = 23 numbers)."""
        s = asobi.new_game("psycle", players=2, seed=3)
        s.apply(0, "play 2")
        s.apply(1, "play 4")
        a, b = encode.encode(s, 0), encode.encode(s, 1)
        block = 23
        head = len(a) - 2 * block
        self.assertEqual(a[head + block - 6:head + block], b[head + 2 * block - 6:])  # seat 0's played card
        self.assertEqual(a[head + block - 6:head + block], [0, 0, 1, 0, 0, 0])

    def test_lists_without_numpy(self):
        s = asobi.new_game("octal", players=3, seed=1)
        kept, encode.numpy = encode.numpy, None
        try:
            v = s.observation_tensor(0)
        finally:
            encode.numpy = kept
        self.assertIsInstance(v, list)
        self.assertEqual(len(v), encode.size("octal", 3))

    def test_numpy_arrays(self):
        # scripts/setup.sh installs python3-numpy: without it this path would never run (issue 32)
        self.assertIsNotNone(encode.numpy, "numpy is missing: install python3-numpy (scripts/setup.sh does)")
        s = asobi.new_game("octal", players=3, seed=1)
        v = s.observation_tensor(0)
        self.assertEqual(v.shape, (encode.size("octal", 3),))
        self.assertEqual(str(v.dtype), "float32")
        env = asobi.env("octal", players=3)
        env.reset(seed=1)
        self.assertEqual(str(env.observe("player_0")["action_mask"].dtype), "int8")
        # numpy integers work wherever ints do (seats, ids, env actions)
        np = encode.numpy
        seat = np.int64(s.current_players()[0])
        ids = s.legal_actions(seat)
        self.assertEqual(s.action_to_string(seat, np.int32(ids[0])), s.legal_action_texts(seat)[0])
        s.apply(seat, np.int64(ids[0]))
        self.assertEqual(s.history(), [(int(seat), ids[0])])
        agent = env.agent_selection
        env.step(np.argmax(env.observe(agent)["action_mask"]))
        self.assertNotEqual(env.agent_selection, agent)


if __name__ == "__main__":
    unittest.main()
