"""bot.py — the library's bots (random, heuristic, ismcts, ...) made from spec strings, choosing for a seat."""
from ctypes import byref

from . import _lib
from ._lib import Error
from .state import AsobiError, State, _raise, _seed64


def bots():
    """The bot names, and a help text for each: {name: help}."""
    names = _lib.bot_names()
    out = {}
    i = 0
    while names[i]:
        out[names[i].decode("utf-8")] = (_lib.bot_help(names[i]) or b"").decode("utf-8")
        i += 1
    return out


class Bot:
    """A bot of the library, named by a spec as on the command line:
    "random", "heuristic", "ismcts:iters=500", "ismcts:time=0.5,c=0.7".

    choose(state, seat) returns the id the bot plays for seat. Like every
    asobi bot, it only ever sees a copy of the state determinized for seat:
    it cannot read hidden information. The C bot of each (game, players,
    seat) is made on first use, seeded from seed and the seat, and kept (so
    the same seed gives the same choices)."""

    def __init__(self, spec, seed=0):
        if not isinstance(spec, str):
            raise AsobiError("bad_bot", "a bot spec is a string such as \"ismcts:iters=500\"")
        name = spec.split(":", 1)[0]
        known = bots()
        if name not in known:
            raise AsobiError("bad_bot", "there is no bot called %r (the bots: %s)"
                             % (name, ", ".join(known)))
        self.spec = spec
        self.seed = _seed64(seed)  # refused rather than cut to 64 bits
        self._bots = {}

    def _bot_for(self, state, seat):
        setup = state._setup
        key = (setup.game.name, setup.players, seat)
        handle = self._bots.get(key)
        if handle is None:
            err = Error()
            seed = (self.seed * 1000003 + seat) & 0xFFFFFFFFFFFFFFFF
            handle = _lib.bot_new(self.spec.encode("utf-8"), setup.game._def, setup.players, seat,
                                  seed, byref(err))
            if not handle:
                _raise(err)
            self._bots[key] = handle
        return handle

    def choose(self, state, seat):
        """The id of the action this bot plays for seat (which must be to move)."""
        if not isinstance(state, State):
            raise TypeError("choose() takes an asobi state")
        if type(seat) is not int or not 0 <= seat < state.num_players():
            raise AsobiError("bad_seat", "seat %r does not exist: this game has seats 0 to %d"
                             % (seat, state.num_players() - 1))
        err = Error()
        if _lib.state_may_act(state._h, seat, byref(err)):
            _raise(err)
        action = _lib.bot_choose(self._bot_for(state, seat), state._h, byref(err))
        if action < 0:
            _raise(err)
        return action

    def step(self, state, seat):
        """Choose for seat and apply it; returns the id played."""
        action = self.choose(state, seat)
        state.apply(seat, action)
        return action

    def __del__(self):
        for handle in getattr(self, "_bots", {}).values():
            _lib.bot_free(handle)
        self._bots = {}

    def __repr__(self):
        return "<asobi.Bot %s>" % self.spec


def bot(spec, seed=0):
    """A Bot from a spec string ("ismcts:iters=500")."""
    return Bot(spec, seed)
