"""test_env.py — the AEC environment checked against PettingZoo's own rules (its api_test), without pettingzoo."""
import math
import random
import unittest

from _support import asobi, player_counts, reps


def mask_of(obs):
    return [int(m) for m in obs["action_mask"]]


def play_episode(test, env, seed, policy_seed=0):
    """Run one episode by PettingZoo's loop, checking its invariants at every
    step; return [(agent, reward, termination)] as last() gave them."""
    rng = random.Random(policy_seed)
    env.reset(seed=seed)
    for agent in env.possible_agents:
        env.action_space(agent).seed(policy_seed)
    trace = []
    test.assertEqual(env.agents, env.possible_agents)
    for table in (env.rewards, env.terminations, env.truncations, env.infos, env._cumulative_rewards):
        test.assertEqual(sorted(table), sorted(env.agents))
    removed = set()
    for agent in env.agent_iter():
        test.assertIn(agent, env.agents)
        test.assertEqual(agent, env.agent_selection)
        test.assertTrue(set(env.agents) <= set(env.possible_agents))
        test.assertEqual(env.num_agents, len(env.agents))
        test.assertEqual(env.max_num_agents, len(env.possible_agents))
        for table in (env.rewards, env.terminations, env.truncations, env.infos):
            test.assertEqual(sorted(table), sorted(env.agents))
        obs, reward, termination, truncation, info = env.last()
        test.assertTrue(env.observation_space(agent).contains(obs))
        test.assertIsInstance(info, dict)
        test.assertFalse(truncation)
        test.assertTrue(math.isfinite(reward))
        test.assertEqual(reward, env._cumulative_rewards[agent])
        observe_only = env.last(observe=False)
        test.assertIsNone(observe_only[0])
        trace.append((agent, reward, termination))
        mask = mask_of(obs)
        if termination:
            test.assertEqual(sum(mask), 0)
            with test.assertRaises(asobi.IllegalAction):  # a finished agent takes only None
                env.step(0)
            env.step(None)
            removed.add(agent)
            test.assertNotIn(agent, env.agents)
            continue
        # the selected agent always has a move, and the mask is exactly its legal ids
        test.assertGreater(sum(mask), 0)
        seat = env.possible_agents.index(agent)
        test.assertEqual([i for i, m in enumerate(mask) if m], env.game_state.legal_actions(seat))
        with test.assertRaises(asobi.IllegalAction):
            env.step(None)
        illegal = [i for i, m in enumerate(mask) if not m]
        if illegal:
            before = env.game_state.clone()
            with test.assertRaises(asobi.IllegalAction):
                env.step(illegal[0])
            test.assertEqual(env.game_state, before)
            test.assertEqual(env.agent_selection, agent)
        env.step(env.action_space(agent).sample(mask) if rng.random() < 0.5
                 else rng.choice([i for i, m in enumerate(mask) if m]))
    test.assertEqual(env.agents, [])
    test.assertEqual(removed, set(env.possible_agents))
    return trace


class TestAEC(unittest.TestCase):
    def test_every_game_follows_the_aec_rules(self):
        for name, players in player_counts():
            env = asobi.env(name, players=players)
            for seed in range(reps(1)):
                trace = play_episode(self, env, seed)
                final = {agent: reward for agent, reward, done in trace if done}
                self.assertEqual(sorted(final), sorted(env.possible_agents))
                self.assertAlmostEqual(sum(final.values()), 0.0)

    def test_final_rewards_are_the_game_returns(self):
        env = asobi.env("octal", players=4)
        trace = play_episode(self, env, 3)
        returns = env.game_state.returns()
        final = {agent: reward for agent, reward, done in trace if done}
        self.assertEqual(final, {"player_%d" % i: returns[i] for i in range(4)})
        # before the end nobody is rewarded
        self.assertTrue(all(r == 0 for _, r, done in trace if not done))

    def test_the_same_seed_replays_the_same_episode(self):
        env = asobi.env("ninja", players=3)
        a = play_episode(self, env, 42, policy_seed=1)
        rec_a = env.game_state.record()
        b = play_episode(self, env, 42, policy_seed=1)
        self.assertEqual(a, b)
        self.assertEqual(env.game_state.record(), rec_a)
        env.reset(seed=43)
        self.assertNotEqual(env.game_state.record()["seed"], rec_a["seed"])

    def test_observations_have_the_documented_parts(self):
        env = asobi.env("octal", players=4)
        env.reset(seed=1)
        obs = env.observe(env.agent_selection)
        self.assertEqual(set(obs), {"observation", "action_mask", "view"})
        self.assertEqual(len(obs["observation"]), asobi.encode.size("octal", 4))
        self.assertEqual(len(obs["action_mask"]), asobi.game("octal").max_actions)
        self.assertEqual(env.action_space("player_0").n, asobi.game("octal").max_actions)
        idle = [a for a in env.agents if a != env.agent_selection][0]
        self.assertEqual(sum(mask_of(env.observe(idle))), 0)
        self.assertEqual(env.observe(idle)["view"]["seat"], env.possible_agents.index(idle))

    def test_psycle_simultaneous_choices_are_taken_in_turn_and_stay_hidden(self):
        """Both agents are selected every round, lowest seat first; what the
        first chose changes nothing in the second's observation."""
        seen = []
        for card in (0, 5):
            env = asobi.env("psycle", players=2)
            env.reset(seed=9)
            self.assertEqual(env.agent_selection, "player_0")
            env.step(card)
            self.assertEqual(env.agent_selection, "player_1")
            obs = env.observe("player_1")
            self.assertTrue(obs["view"]["players"][0]["chosen"])
            seen.append(obs)
            env.step(3)
            self.assertEqual(env.agent_selection, "player_0")  # the next round
        self.assertEqual(list(seen[0]["observation"]), list(seen[1]["observation"]))
        self.assertEqual(seen[0]["view"], seen[1]["view"])

    def test_bad_construction_is_refused(self):
        with self.assertRaises(asobi.AsobiError):
            asobi.env("octal", players=2)
        with self.assertRaises(asobi.AsobiError):
            asobi.env("psycle", options={"max_cycles": "many"})
        env = asobi.env("psycle")
        with self.assertRaises(asobi.AsobiError):
            env.step(0)  # before reset

    def test_render_shows_the_table_in_ansi_mode(self):
        env = asobi.env("psycle", players=2, render_mode="ansi")
        env.reset(seed=1)
        self.assertIsInstance(env.render(), str)
        self.assertIsNone(asobi.env("psycle").render())


if __name__ == "__main__":
    unittest.main()
