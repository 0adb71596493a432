"""test_openspiel_pettingzoo.py — OpenSpiel's names on asobi.State, C playouts, and the PettingZoo environments' conventions (issue 45 §5)."""
import random
import unittest

from _support import asobi, encode_numpy


class TestOpenSpielNames(unittest.TestCase):
    def test_openspiels_loop_with_its_names(self):
        for name in asobi.games():
            game = asobi.load_game(name)
            state = game.new_initial_state(seed=4)
            rng = random.Random(4)
            while not state.is_terminal():
                if state.is_simultaneous_node():
                    state.apply_actions([rng.choice(state.legal_actions(s)) for s in state.current_players()])
                else:
                    self.assertEqual(state.legal_actions(), state.legal_actions(state.current_player()))
                    state.apply_action(rng.choice(state.legal_actions()))
            self.assertEqual(state.legal_actions(), [])
            self.assertAlmostEqual(sum(state.returns()), 0.0)
            with self.assertRaises(asobi.IllegalAction):
                state.apply_action(0)

    def test_apply_action_refuses_a_simultaneous_node(self):
        state = asobi.new_game("psycle", players=2, seed=1)
        self.assertEqual(state.legal_actions(), [])
        with self.assertRaises(asobi.IllegalAction) as caught:
            state.apply_action(0)
        self.assertEqual(caught.exception.code, "not_your_turn")
        with self.assertRaises(asobi.IllegalAction):
            state.apply_actions([3])

    def test_resample_from_infostate_keeps_the_seats_view(self):
        state = asobi.new_game("ninja", players=3, seed=2)
        for seed in (1, random.Random(5)):
            other = state.resample_from_infostate(1, seed)
            self.assertEqual(other.view(1), state.view(1))
            self.assertNotEqual(other.view(None), state.view(None))
        self.assertEqual(list(state.information_state_tensor(0)), list(state.observation_tensor(0)))

    def test_c_playouts(self):
        for name in asobi.games():
            state = asobi.new_game(name, seed=3)
            copy = state.clone()
            self.assertGreater(copy.random_playout(9), 0)
            self.assertTrue(copy.is_terminal())
            again = state.clone()
            again.random_playout(9)
            self.assertEqual(again, copy)
            returns = state.playout_returns(10, 5)
            self.assertEqual(len(returns), state.num_players())
            self.assertTrue(all(-1 <= r <= 1 for r in returns))
            self.assertEqual(returns, state.playout_returns(10, 5))
            self.assertFalse(state.is_terminal())  # the playouts ran on copies


class TestEnvironments(unittest.TestCase):
    def test_unwrapped_and_seeded_action_spaces(self):
        a, b = asobi.env("octal", players=3), asobi.env("octal", players=3)
        self.assertIs(a.unwrapped, a)
        for env in (a, b):
            env.reset(seed=11)
        draws = []
        for env in (a, b):
            mask = env.last()[0]["action_mask"]
            draws.append([env.action_space(env.agent_selection).sample(mask) for _ in range(20)])
        self.assertEqual(draws[0], draws[1])

    def test_masks_are_zero_for_agents_not_selected(self):
        """THE OCTAL's late Octo! too: the seat that may still call it is not selected, so its mask is empty."""
        env = asobi.env("octal", players=3, seed=2)
        env.reset(seed=2)
        seen_late = False
        for agent in env.agent_iter(3000):
            obs, _, term, trunc, _ = env.last()
            for other in env.agents:
                if other != agent:
                    self.assertEqual(sum(env.observe(other)["action_mask"]), 0)
            state = env.game_state
            seen_late = seen_late or len(state.may_act_players()) > len(state.current_players())
            env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
        self.assertTrue(seen_late)

    def test_parallel_psycle_plays_every_seat_at_once(self):
        env = asobi.parallel_env("psycle", players=3)
        self.assertIs(env.unwrapped, env)
        obs, infos = env.reset(seed=7)
        self.assertEqual(set(obs), set(env.possible_agents))
        steps = 0
        while env.agents:
            actions = {a: env.action_space(a).sample(obs[a]["action_mask"]) for a in env.agents}
            obs, rewards, terms, truncs, infos = env.step(actions)
            steps += 1
        self.assertTrue(all(terms.values()))
        self.assertAlmostEqual(sum(rewards.values()), 0.0)
        rounds = env.game_state.history()
        self.assertEqual(len(rounds), 3 * steps)  # each step: every seat's card

    @unittest.skipUnless(encode_numpy(), "numpy is not installed")
    def test_masks_and_observations_are_numpy_arrays(self):
        import numpy
        env = asobi.env("timemasters", players=2, seed=1)
        env.reset(seed=1)
        obs = env.last()[0]
        self.assertIsInstance(obs["action_mask"], numpy.ndarray)
        self.assertEqual(obs["action_mask"].dtype, numpy.int8)
        self.assertEqual(obs["observation"].dtype, numpy.float32)
        self.assertEqual(list(numpy.flatnonzero(obs["action_mask"])), env.game_state.legal_actions(0))


if __name__ == "__main__":
    unittest.main()
