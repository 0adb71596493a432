"""asobi — the four card games of libasobi for Python: states (OpenSpiel-style), bots, and AEC environments.

    import asobi
    state = asobi.new_game("psycle", players=2, seed=1)
    while not state.is_terminal():
        for seat in state.current_players():
            state.apply(seat, random.choice(state.legal_actions(seat)))
    print(state.returns())

docs/python.md is the manual."""
from ._lib import path as library_path
from .state import (AsobiError, Game, IllegalAction, SIMULTANEOUS, State, TERMINAL, game, games, load,
                    load_game, new_game)
from .bot import Bot, bot, bots
from .env import AECEnv, ParallelEnv, env, parallel_env
from .review import review
from . import encode

__version__ = "0.1.0"
ALL_SEEING = None  # view(None): the all-seeing view

__all__ = ["AsobiError", "IllegalAction", "Game", "State", "Bot", "AECEnv", "ParallelEnv", "SIMULTANEOUS",
           "TERMINAL", "games", "game", "load_game", "new_game", "load", "bot", "bots", "env", "parallel_env",
           "encode", "library_path", "review"]
