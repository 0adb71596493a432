"""env.py — the games as multi-agent environments in PettingZoo's AEC conventions (without depending on it)."""
import random

from . import encode
from .state import AsobiError, IllegalAction, game, new_game


class Discrete:
    """The action space: ids 0..n-1 (gymnasium's Discrete, in miniature)."""

    def __init__(self, n, seed=None):
        self.n = n
        self.shape = ()
        self._rng = random.Random(seed)

    def seed(self, seed=None):
        self._rng = random.Random(seed)

    def contains(self, x):
        return not isinstance(x, bool) and hasattr(x, "__index__") and 0 <= x.__index__() < self.n

    def sample(self, mask=None):
        """A uniform id; with a mask (0/1 per id), a uniform id where it is 1.
        A numpy mask is searched by numpy (flatnonzero), not id by id."""
        if mask is None:
            return self._rng.randrange(self.n)
        if encode.numpy is not None and isinstance(mask, encode.numpy.ndarray):
            allowed = encode.numpy.flatnonzero(mask)
        else:
            allowed = [i for i in range(self.n) if mask[i]]
        if not len(allowed):
            raise ValueError("the mask allows no action")
        return int(allowed[self._rng.randrange(len(allowed))])

    def __repr__(self):
        return "Discrete(%d)" % self.n


class Box:
    """A fixed-length vector of numbers in [low, high] (gymnasium's Box, in miniature)."""

    def __init__(self, low, high, length, dtype):
        self.low, self.high, self.shape, self.dtype = low, high, (length,), dtype

    def contains(self, x):
        try:
            values = list(x)
        except TypeError:
            return False
        return len(values) == self.shape[0] and all(self.low <= float(v) <= self.high for v in values)

    def __repr__(self):
        return "Box(%g, %g, %s, %s)" % (self.low, self.high, self.shape, self.dtype)


class DictSpace:
    """An observation: named parts (gymnasium's Dict, in miniature); "view" is not checked."""

    def __init__(self, spaces):
        self.spaces = spaces

    def __getitem__(self, key):
        return self.spaces[key]

    def contains(self, x):
        return isinstance(x, dict) and all(key in x and space.contains(x[key])
                                           for key, space in self.spaces.items())

    def __repr__(self):
        return "Dict(%s)" % ", ".join("%s: %r" % kv for kv in self.spaces.items())


class AECEnv:
    """One asobi game as an AEC environment: agents "player_0".."player_{n-1}"
    act one at a time, in the order the game asks for them.

    Simultaneous choices (PSYCLE's cards) are taken in turn, lowest seat
    first: each agent is selected once per round and its choice is committed
    face down, exactly as the game itself holds it, so the agents selected
    after it observe that it has chosen but never what (the view hides it).
    The round resolves when the last of them has stepped.

    Rewards come once, when the game ends: every agent gets State.returns()
    (+1/-1/0 in 2-player games; in general the seats it finished ahead of
    minus those it finished behind, over players-1). Games always end, so
    truncations stay False (each game's own safety cap ends it as a normal
    finish)."""

    def __init__(self, name, players=None, options=None, seed=None, render_mode=None):
        self._game = game(name)
        self.players = self._game.min_players if players is None else players
        self.options = options
        self.render_mode = render_mode
        self.metadata = {"name": "asobi_%s_v0" % name, "render_modes": ["ansi"],
                         "is_parallelizable": False}
        self.possible_agents = ["player_%d" % i for i in range(self.players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._size = encode.size(name, self.players)
        self._action_space = Discrete(self._game.max_actions)
        self._observation_space = DictSpace({
            "observation": Box(-1e9, 1e9, self._size, "float32"),
            "action_mask": Box(0, 1, self._game.max_actions, "int8")})
        self._seeds = random.Random(seed)
        self.game_state = None
        self.agents = []
        self.rewards, self._cumulative_rewards = {}, {}
        self.terminations, self.truncations, self.infos = {}, {}, {}
        self.agent_selection = None
        # Check the arguments now rather than at the first reset.
        new_game(name, players=self.players, seed=0, options=options)

    # --- spaces ---------------------------------------------------------------
    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    @property
    def unwrapped(self):
        """PettingZoo's base environment under any wrappers: this one."""
        return self

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    # --- the AEC cycle ----------------------------------------------------------
    def reset(self, seed=None, options=None):
        """A new game. With a seed, the same game every time; without, the
        next game of the generator seeded when the env was made."""
        if seed is not None:
            self._seeds = random.Random(seed)
            # the action space's sample() too: the same seed, the same run
            self._action_space.seed(self._seeds.getrandbits(63))
        self.game_state = new_game(self._game.name, players=self.players,
                                   seed=self._seeds.getrandbits(63), options=self.options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._next_to_move()

    def _next_to_move(self):
        seats = self.game_state.current_players()
        return self.possible_agents[seats[0]]

    def observe(self, agent):
        """agent's observation: {"observation": the fixed-size vector of its
        view, "action_mask": 1 for each id it may play now (all 0 when it is
        not the selected agent: in THE OCTAL the seat that may still call
        Octo! late is not selected, and steps only when selected), "view":
        its JSON view as a dict}. Only what its seat sees."""
        seat = self._seat[agent]
        view = self.game_state.view(seat)
        return {"observation": encode.as_array(encode.encode_view(self._game.name, self.players, view)),
                "action_mask": self._mask(seat if agent == self.agent_selection else None), "view": view}

    def _mask(self, seat):
        """The action mask of seat (None: all zeros), a numpy array set by
        one fancy-index assignment when numpy is there."""
        n = self._game.max_actions
        ids = self.game_state.legal_actions(seat) if seat is not None and not self.game_state.is_terminal() else []
        np = encode.numpy
        if np is None:
            mask = [0] * n
            for a in ids:
                mask[a] = 1
            return mask
        mask = np.zeros(n, dtype=np.int8)
        mask[ids] = 1
        return mask

    def last(self, observe=True):
        """(observation, reward, termination, truncation, info) of the
        selected agent; reward is what it gathered since it last acted."""
        agent = self.agent_selection
        if agent is None:
            raise AsobiError("bad_argument", "no agent is selected: call reset() first")
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action):
        """The selected agent plays action (an id from its action mask);
        a finished agent must be stepped with None, which removes it."""
        agent = self.agent_selection
        if agent is None:
            raise AsobiError("bad_argument", "no agent is selected: call reset() first")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction("illegal_action", "%s is still playing: it needs an action, not None"
                                % agent)
        seat = self._seat[agent]
        self.game_state.apply(seat, action)  # raises IllegalAction, leaving everything as it was
        self._cumulative_rewards[agent] = 0.0
        if self.game_state.is_terminal():
            returns = self.game_state.returns()
            self.rewards = {a: returns[self._seat[a]] for a in self.agents}
            self.terminations = {a: True for a in self.agents}
            # Every agent is now stepped with None once, from the next one on.
            order = self.agents
            self.agent_selection = order[(order.index(agent) + 1) % len(order)]
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self._next_to_move()
        for a, r in self.rewards.items():
            self._cumulative_rewards[a] += r

    def _was_dead_step(self, action):
        """PettingZoo's rule for a finished agent: None removes it; the
        next finished agent (if any) is selected."""
        if action is not None:
            raise IllegalAction("illegal_action", "%s has finished: the only action is None"
                                % self.agent_selection)
        agent = self.agent_selection
        for table in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards,
                      self.infos):
            del table[agent]
        i = self.agents.index(agent)
        self.agents.remove(agent)
        dead = [a for a in self.agents[i:] + self.agents[:i]
                if self.terminations[a] or self.truncations[a]]
        self.agent_selection = dead[0] if dead else None
        self.rewards = {a: 0.0 for a in self.agents}

    def agent_iter(self, max_iter=2 ** 63):
        """The selected agent, again after every step, while any agent is left."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def render(self):
        """The all-seeing table as text (render_mode "ansi"), for people watching."""
        if self.render_mode is None:
            return None
        return self.game_state.render(None)

    def close(self):
        self.game_state = None

    def __repr__(self):
        return "<asobi.AECEnv %s, %d players>" % (self._game.name, self.players)


class ParallelEnv:
    """One asobi game in PettingZoo's Parallel API: every agent whose turn
    it is acts in the same step(). Made for PSYCLE, where every seat
    chooses its card at once each round; in the turn-based games one agent
    acts per step (the others' masks are all zeros and their actions are
    not read). Rewards and observations as AECEnv's; the agents all leave
    together when the game ends."""

    def __init__(self, name, players=None, options=None, seed=None, render_mode=None):
        self.aec = AECEnv(name, players=players, options=options, seed=seed, render_mode=render_mode)
        self.metadata = dict(self.aec.metadata, is_parallelizable=True)
        self.possible_agents = list(self.aec.possible_agents)
        self.render_mode = render_mode
        self.agents = []

    @property
    def unwrapped(self):
        return self

    def observation_space(self, agent):
        return self.aec.observation_space(agent)

    def action_space(self, agent):
        return self.aec.action_space(agent)

    @property
    def game_state(self):
        return self.aec.game_state

    def _observations(self):
        state, aec = self.aec.game_state, self.aec
        turn = set(state.current_players())
        out = {}
        for agent in self.agents:
            seat = aec._seat[agent]
            view = state.view(seat)
            out[agent] = {"observation": encode.as_array(encode.encode_view(aec._game.name, aec.players, view)),
                          "action_mask": aec._mask(seat if seat in turn else None), "view": view}
        return out

    def reset(self, seed=None, options=None):
        """(observations, infos) of a new game; a seed makes it the same game every time."""
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions):
        """actions: {agent: id} for (at least) every agent whose turn it is.
        (observations, rewards, terminations, truncations, infos). A refused
        action raises IllegalAction; the actions of that step applied before
        it stay applied (PSYCLE's choices are face down until all are in)."""
        state, aec = self.aec.game_state, self.aec
        for seat in state.current_players():
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise IllegalAction("illegal_action", "%s is to act: step() needs its action" % agent)
            state.apply(seat, actions[agent])
        done = state.is_terminal()
        returns = state.returns() if done else [0.0] * aec.players
        rewards = {a: float(returns[aec._seat[a]]) for a in self.agents}
        observations = self._observations()
        terminations = {a: done for a in self.agents}
        truncations = {a: False for a in self.agents}
        infos = {a: {} for a in self.agents}
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self):
        return self.aec.render()

    def close(self):
        self.aec.close()

    def __repr__(self):
        return "<asobi.ParallelEnv %s, %d players>" % (self.aec._game.name, self.aec.players)


def parallel_env(name, players=None, options=None, seed=None, render_mode=None):
    """A Parallel API environment of game name (see ParallelEnv)."""
    return ParallelEnv(name, players=players, options=options, seed=seed, render_mode=render_mode)


def env(name, players=None, options=None, seed=None, render_mode=None):
    """An AEC environment of game name (see AECEnv)."""
    return AECEnv(name, players=players, options=options, seed=seed, render_mode=render_mode)
