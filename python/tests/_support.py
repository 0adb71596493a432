"""_support.py — shared helpers of the Python tests: import the package from this checkout, play random games."""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(PYTHON_DIR)
if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)

import asobi  # noqa: E402

# Under the sanitizer build every game costs many times more: fewer of them.
SCALE = 0.2 if os.environ.get("ASOBI_SANITIZE") else 1.0


def reps(n):
    """n repetitions, fewer under the sanitizer build."""
    return max(1, int(n * SCALE))


def sparse(every):
    """Look at every `every`-th state, fewer under the sanitizer build."""
    return int(every / SCALE)


def player_counts():
    """(game name, players) for every game and every player count."""
    for name in asobi.games():
        g = asobi.game(name)
        for players in range(g.min_players, g.max_players + 1):
            yield name, players


def random_step(state, rng):
    """Every seat that may act plays a random legal action, THE OCTAL's late
    Octo! included (may_act_players). A seat whose chance an earlier seat's
    action ended is skipped (the next player's placing closes that window)."""
    for seat in state.may_act_players():
        if seat in state.may_act_players():
            state.apply(seat, rng.choice(state.legal_actions(seat)))


def random_states(name, players, seed, every=1):
    """The states of one random game (every `every`-th one, and the last)."""
    rng = random.Random(seed)
    state = asobi.new_game(name, players=players, seed=seed)
    i = 0
    while not state.is_terminal():
        if i % every == 0:
            yield state
        random_step(state, rng)
        i += 1
    yield state


def encode_numpy():
    """Whether the observations are numpy arrays here (numpy installed)."""
    return asobi.encode.numpy is not None
