"""state.py — games, game states and records: the OpenSpiel-style state API over libasobi's flat C state."""
import ctypes
import json
import os
import random
import threading
from ctypes import byref, c_int, c_void_p, create_string_buffer

from . import _lib
from ._lib import Error, Result, Rng, ALL_SEEING, SPECTATOR, MAX_SEATS


class AsobiError(Exception):
    """A refusal of the library: `code` is its stable name ("bad_option",
    "bad_record", ...), the message is the library's sentence for a person."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class IllegalAction(AsobiError, ValueError):
    """apply() refused an action (illegal_action, not_your_turn, bad_seat,
    game_over); the state is unchanged."""


def _raise(err, kind=AsobiError):
    code, message = _lib.describe_error(err)
    raise kind(code, message)


# The seats in every bitmask of up to 8 seats, as tuples: current_players()
# is one C call and one tuple lookup.
_SEATS = tuple(tuple(s for s in range(MAX_SEATS) if mask >> s & 1) for mask in range(1 << MAX_SEATS))

# OpenSpiel's special player ids, for current_player().
SIMULTANEOUS = -2
TERMINAL = -4


class Game:
    """One registered game: its name, player range, action space and options."""

    __slots__ = ("name", "title", "min_players", "max_players", "max_actions", "options", "_def",
                 "_description")

    def __init__(self, handle):
        self._def = handle
        d = _lib.take_json(_lib.game_describe(handle))
        self._description = d
        self.name = d["name"]
        self.title = d["title"]
        self.min_players = d["min_players"]
        self.max_players = d["max_players"]
        self.max_actions = d["max_actions"]
        self.options = d["options"]

    def describe(self):
        """The game as `asobi games --json` and the engine's "games" list it."""
        return json.loads(json.dumps(self._description))

    def new_initial_state(self, players=None, seed=None, options=None):
        """OpenSpiel's name: a new game of this Game (new_game's arguments)."""
        return new_game(self.name, players=players, seed=seed, options=options)

    def num_distinct_actions(self):
        """The size of the fixed action space (OpenSpiel's name): ids are 0..n-1."""
        return self.max_actions

    def __repr__(self):
        return "<asobi.Game %s %d-%d players, %d actions>" % (
            self.name, self.min_players, self.max_players, self.max_actions)


_GAMES = {}
for _i in range(_lib.game_count()):
    _g = Game(_lib.game_at(_i))
    _GAMES[_g.name] = _g
_MAX_ACTIONS = max(g.max_actions for g in _GAMES.values())


def games():
    """The names of the games, in the library's order."""
    return list(_GAMES)


def load_game(name):
    """OpenSpiel's name for game(name)."""
    return game(name)


def game(name):
    """The Game called name; AsobiError unknown_game if there is none."""
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise AsobiError("unknown_game", "there is no game called %r (the games: %s)"
                         % (name, ", ".join(_GAMES))) from None


_to_move, _turn, _legal, _apply = _lib.fast_to_move, _lib.fast_turn, _lib.fast_legal, _lib.fast_apply


def _seat_index(seat):
    """A seat as a C int: a Python int, or anything with __index__ (numpy
    integers); IllegalAction bad_seat otherwise."""
    if isinstance(seat, bool) or not hasattr(seat, "__index__"):
        raise IllegalAction("bad_seat", "a seat is a number, not %r" % (seat,))
    return seat.__index__()


def _fits_c_int(n):
    return -(1 << 31) <= n < 1 << 31


# Each thread gets its own buffer for legal ids: ctypes lets other Python
# threads run during a C call, so a shared buffer could be overwritten
# between the call and the read.
_tls = threading.local()


def _ids_buffer():
    try:
        return _tls.ids
    except AttributeError:
        _tls.ids = (c_int * _MAX_ACTIONS)()
        return _tls.ids


class _Setup:
    """What a state was made from (shared by a state and its clones)."""

    __slots__ = ("game", "players", "seed", "options")

    def __init__(self, game_, players, seed, options):
        self.game, self.players, self.seed, self.options = game_, players, seed, options


class State:
    """A game in progress: a flat C state plus the ids played, for record().

    Every method that a playout calls makes exactly one C call. Seats are
    0..num_players()-1; several may be to move at once (PSYCLE's cards are
    chosen simultaneously: each seat applies its own action, in any order,
    and the round resolves when the last one has chosen)."""

    __slots__ = ("_h", "_setup", "_history", "_determinized", "__weakref__")

    def __init__(self, handle, setup, history=None, determinized=False):
        self._h = c_void_p(handle)  # a c_void_p object: the untyped fast calls take it as is
        self._setup = setup
        self._history = history  # a linked list: (previous, seat, id) or None
        self._determinized = determinized

    def __del__(self):
        h = getattr(self, "_h", None)
        if h is not None and h.value:
            self._h = None
            _lib.state_free(h)

    # --- who moves ------------------------------------------------------------
    def num_players(self):
        return self._setup.players

    def game(self):
        """The Game this state plays."""
        return self._setup.game

    def current_players(self):
        """The seats whose turn it is, ascending (a tuple; empty once over):
        each must act, in any order. THE OCTAL's late Octo! is not a turn:
        the seat that forgot may still declare it (legal_actions offers it,
        may_act_players() lists the seat) while the next seat plays."""
        return _SEATS[_turn(self._h)]

    def may_act_players(self):
        """Every seat that may act now: current_players() and a seat with an
        optional action open (THE OCTAL's late Octo!)."""
        return _SEATS[_to_move(self._h)]

    def current_player(self):
        """OpenSpiel's form: the one seat whose turn it is, SIMULTANEOUS (-2)
        when several choose at once (PSYCLE), TERMINAL (-4) once over."""
        seats = _SEATS[_turn(self._h)]
        if len(seats) == 1:
            return seats[0]
        return SIMULTANEOUS if seats else TERMINAL

    def is_terminal(self):
        return not _to_move(self._h)

    def is_simultaneous_node(self):
        return len(_SEATS[_turn(self._h)]) > 1

    # --- actions --------------------------------------------------------------
    def legal_actions(self, seat=None):
        """The legal action ids of seat, ascending; [] when it may not act.
        IllegalAction bad_seat for a seat the game does not have. Without a
        seat (OpenSpiel's form), those of current_player(): [] at a
        simultaneous node or once over."""
        if seat is None:
            seat = self.current_player()
            if seat < 0:
                return []
        if type(seat) is not int or seat >> 31:  # not a small non-negative int: check it
            seat = _seat_index(seat)
            if not _fits_c_int(seat):
                self._bad_seat(seat)
        buf = _ids_buffer()
        n = _legal(self._h, seat, buf)
        if not n and not 0 <= seat < self._setup.players:  # checked only when empty: playouts pay nothing
            self._bad_seat(seat)
        return buf[:n]

    def _bad_seat(self, seat):
        raise IllegalAction("bad_seat", "seat %d does not exist: this game has seats 0 to %d"
                            % (seat, self._setup.players - 1))

    def legal_actions_mask(self, seat):
        """A list of max_actions 0/1 flags: 1 where the id is legal for seat."""
        mask = [0] * self._setup.game.max_actions
        for a in self.legal_actions(seat):
            mask[a] = 1
        return mask

    def action_to_string(self, seat, action):
        """The text of seat's legal action id ("play 3"); IllegalAction if it
        is not one (the library writes texts of legal actions only)."""
        if action not in self.legal_actions(seat):
            raise IllegalAction("illegal_action", "%r is not a legal action id of seat %r now"
                                % (action, seat))
        seat, action = _seat_index(seat), _seat_index(action)  # plain ints for the typed call
        buf = create_string_buffer(256)
        _lib.state_action_text(self._h, seat, action, buf, 256)
        return buf.value.decode("utf-8")

    def legal_action_texts(self, seat):
        """The texts of seat's legal actions, in the order of legal_actions(seat)."""
        ids = self.legal_actions(seat)
        if ids:
            seat = _seat_index(seat)  # a plain int for the typed call
        buf = create_string_buffer(256)
        out = []
        for a in ids:
            _lib.state_action_text(self._h, seat, a, buf, 256)
            out.append(buf.value.decode("utf-8"))
        return out

    def string_to_action(self, seat, text):
        """The id of seat's legal action written as text (case and spaces do
        not matter; the games' aliases work); IllegalAction otherwise."""
        seat = _seat_index(seat)
        if not _fits_c_int(seat):
            raise IllegalAction("bad_seat", "seat %d does not exist" % seat)
        if not isinstance(text, str):
            raise IllegalAction("illegal_action", "an action text is a str, not %r" % (text,))
        err = Error()
        action = c_int(-1)
        if _lib.state_parse_action(self._h, seat, text.encode("utf-8"), byref(action), byref(err)):
            _raise(err, IllegalAction)
        return action.value

    def apply(self, seat, action):
        """seat plays action (an id, or its text). A refusal raises
        IllegalAction with the library's reason and leaves the state as it was."""
        if type(action) is not int or type(seat) is not int or (action | seat) >> 31:
            seat, action = self._checked_arguments(seat, action)
        if _apply(self._h, seat, action, None):
            self._refuse(seat, action)
        self._history = (self._history, seat, action)

    def apply_action(self, action):
        """OpenSpiel's form: current_player() plays action. At a simultaneous
        node use apply_actions; IllegalAction otherwise."""
        seat = self.current_player()
        if seat < 0:
            raise IllegalAction("not_your_turn" if seat == SIMULTANEOUS else "game_over",
                                "apply_action needs one player to move (simultaneous node: apply_actions)")
        self.apply(seat, action)

    def apply_actions(self, actions):
        """OpenSpiel's joint action at a simultaneous node: actions[i] is
        played for the i-th seat of current_players() (every seat, in
        PSYCLE, in seat order)."""
        seats = self.current_players()
        if len(actions) != len(seats):
            raise IllegalAction("illegal_action", "%d actions for the %d seats to move %r"
                                % (len(actions), len(seats), seats))
        for seat, action in zip(seats, actions):
            self.apply(seat, action)

    def _checked_arguments(self, seat, action):
        """seat and action as C ints, or the refusal. The untyped C call
        would silently cut a Python int to 32 bits, so anything beyond a C
        int is refused here; the rest (negative numbers too) goes to the
        library, which says what is wrong with it."""
        seat = _seat_index(seat)
        if not _fits_c_int(seat):
            raise IllegalAction("bad_seat", "seat %d does not exist: this game has seats 0 to %d"
                                % (seat, self._setup.players - 1))
        action = self._action_id(seat, action)
        if not _fits_c_int(action):
            raise IllegalAction("illegal_action", "there is no action %d: the ids are 0 to %d"
                                % (action, self._setup.game.max_actions - 1))
        return seat, action

    def _action_id(self, seat, action):
        if type(action) is int:
            return action
        if isinstance(action, bool):
            raise IllegalAction("illegal_action", "an action is an id (int) or its text (str), not %r"
                                % (action,))
        if isinstance(action, str):
            return self.string_to_action(seat, action)
        if hasattr(action, "__index__"):  # int subclasses, numpy integers
            return action.__index__()
        raise IllegalAction("illegal_action", "an action is an id (int) or its text (str), not %r"
                            % (action,))

    def _refuse(self, seat, action):
        # The fast path passed no error struct; the state is unchanged, so
        # asking again gives the same refusal, this time with its reason.
        err = Error()
        if not _lib.state_apply(self._h, seat, action, byref(err)):
            raise AssertionError("asobi: an action refused once was accepted on the second try")
        _raise(err, IllegalAction)

    def history(self):
        """The actions played so far: a list of (seat, id)."""
        out = []
        node = self._history
        while node is not None:
            node, seat, action = node
            out.append((seat, action))
        out.reverse()
        return out

    # --- copies ---------------------------------------------------------------
    def clone(self):
        """An independent copy (the C state is one block: a memcpy)."""
        return State(_lib.state_clone(self._h), self._setup, self._history, self._determinized)

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __eq__(self, other):
        """Byte equality of the C states (same game, same everything)."""
        if not isinstance(other, State):
            return NotImplemented
        return (self._setup.game is other._setup.game and self._setup.players == other._setup.players
                and bool(_lib.state_equal(self._h, other._h)))

    __hash__ = None

    # --- results --------------------------------------------------------------
    def result(self):
        """{"terminal", "scores", "ranks", "winners"}, as the engine's result:
        scores are meaningful during play, ranks (1 is best, ties share) and
        winners (several seats may share a victory, or none win) once over."""
        r = Result()
        _lib.state_result(self._h, byref(r))
        n = r.players
        return {"terminal": bool(r.terminal), "scores": list(r.score[:n]), "ranks": list(r.rank[:n]),
                "winners": [s for s in range(n) if r.winners >> s & 1]}

    def returns(self):
        """Each seat's utility once over, 0 before: the seats it finished
        ahead of minus those it finished behind, divided by players-1 (so +1
        for a 2-player win, -1 for a loss, 0 for a tie; the sum is 0). It is
        how `asobi arena` counts a game."""
        r = Result()
        _lib.state_result(self._h, byref(r))
        n = r.players
        if not r.terminal:
            return [0.0] * n
        ranks = r.rank[:n]
        return [sum((mine < other) - (mine > other) for other in ranks) / (n - 1) for mine in ranks]

    def rewards(self):
        """OpenSpiel's per-step rewards: returns() at the end, 0 before."""
        return self.returns()

    # --- what a seat sees -----------------------------------------------------
    @staticmethod
    def _viewer(seat):
        return ALL_SEEING if seat is None else seat

    def _check_viewer(self, seat):
        if seat is not None and (type(seat) is not int or not 0 <= seat < self._setup.players):
            raise AsobiError("bad_seat", "seat %r does not exist: this game has seats 0 to %d"
                             % (seat, self._setup.players - 1))

    def view(self, seat):
        """The JSON view of seat as a dict: only what that seat may see.
        view(None) is the all-seeing view (replays, debugging). The seat is
        required so that nothing hidden is shown by accident."""
        self._check_viewer(seat)
        text = _lib.take_string(_lib.state_view_text(self._h, self._viewer(seat), None))
        if text is None:
            raise MemoryError("asobi: the view could not be written")
        return json.loads(text)

    def events(self, before, seat, action, viewer):
        """What seat's action (an id), taken in the state before and giving
        this one, made happen, as viewer may know it: a list of dicts
        {"type", "text", ...fields} (docs/protocol.md, "Events"). viewer is a
        seat, None (all-seeing) or "spectator"; a seat learns the cards it
        drew, the others how many."""
        if viewer == "spectator":
            who = SPECTATOR
        else:
            self._check_viewer(viewer)
            who = self._viewer(viewer)
        if not isinstance(before, State):
            raise AsobiError("bad_request", "before must be a State")
        action = before._action_id(seat, action)
        events = _lib.take_json(_lib.state_events(before._h, seat, action, self._h, who))
        if events is None:
            raise AsobiError("bad_request", "no events for these states and viewer")
        return events

    def apply_and_tell(self, seat, action, viewer):
        """apply(seat, action), then return its events as viewer may know
        them (see events)."""
        before = self.clone()
        action = before._action_id(seat, action)
        self.apply(seat, action)
        return self.events(before, seat, action, viewer)

    def render(self, seat):
        """The terminal rendering of seat's view (None: all-seeing)."""
        self._check_viewer(seat)
        return _lib.take_string(_lib.state_render(self._h, self._viewer(seat)))

    def observation_tensor(self, seat):
        """The fixed-size numeric encoding of seat's view (docs/python.md):
        a list of floats, or a numpy array when numpy is installed."""
        from . import encode
        return encode.as_array(encode.encode(self, seat))

    def information_state_tensor(self, seat):
        """OpenSpiel's name; here the observation_tensor: a seat's view holds
        what the game lets it remember (the cards played, the scores), not
        the whole history of its observations."""
        return self.observation_tensor(seat)

    def resample_from_infostate(self, seat, seed):
        """OpenSpiel's name: a copy of this state with everything seat cannot
        see drawn anew (determinize on a clone). seed: an int, or a
        random.Random (its next 64 bits)."""
        if hasattr(seed, "getrandbits"):
            seed = seed.getrandbits(64)
        copy = self.clone()
        copy.determinize(seat, seed)
        return copy

    def determinize(self, seat, seed):
        """Resample, in place, everything seat cannot see (other hands, deck
        order, the generator of future shuffles) consistently with its view.
        The view of seat does not change. Such a state no longer follows from
        its seed and history, so record() refuses it afterwards."""
        self._check_viewer(seat)
        rng = Rng()
        _lib.rng_seed(byref(rng), _seed64(seed))
        _lib.state_determinize(self._h, self._viewer(seat), byref(rng))
        self._determinized = True

    def retract_unseen(self, seat):
        """Withdraw the simultaneous choices seat has not seen (PSYCLE's
        face-down cards of others): those seats are to move again."""
        self._check_viewer(seat)
        _lib.state_retract_unseen(self._h, self._viewer(seat))
        self._determinized = True

    # --- taking back ----------------------------------------------------------
    # The rule is the library's (docs/protocol.md, "Taking back"): this state
    # asks a match replayed from its record, so apply() pays nothing for it.
    # Each call replays the game once: for tools and tests, not for search.
    def _undo_index(self, seat):
        """The index in history() of the action seat may take back, or None;
        with the match that judged it (the caller frees it)."""
        if self._determinized:
            return None, None
        seat = _seat_index(seat)
        if not _fits_c_int(seat):
            return None, None
        err = Error()
        handle = _lib.make_json(self.record())
        try:
            match = _lib.match_load(handle, byref(err))
        finally:
            _lib.json_delete(handle)
        if not match:
            _raise(err)
        index = _lib.match_undo_index(match, seat)
        return (index if index >= 0 else None), match

    def can_undo(self, seat):
        """Whether seat may take back its last action now: nobody else has
        acted since, it is still to move, and the action made nothing known
        beyond itself (no card drawn or turned, no chance, no hidden choice
        shown); a face-down choice of a simultaneous step (PSYCLE) until the
        last seat has chosen."""
        index, match = self._undo_index(seat)
        if match:
            _lib.match_free(match)
        return index is not None

    def undo(self, seat):
        """Take back seat's last action (see can_undo): every view is again
        what it was before it, and record() no longer holds it. Returns the
        (seat, id) taken back. AsobiError undo_not_allowed otherwise, with the
        library's reason, and the state unchanged."""
        if self._determinized:
            raise AsobiError("undo_not_allowed", "a determinized state takes nothing back: it no longer "
                             "follows from its seed and actions")
        index, match = self._undo_index(seat)
        if match is None:
            raise AsobiError("undo_not_allowed", "seat %r does not exist" % (seat,))
        try:
            err = Error()
            if _lib.match_undo(match, _seat_index(seat), byref(err)):
                _raise(err)
            _lib.state_copy(self._h, _lib.match_state(match))
        finally:
            _lib.match_free(match)
        actions = self.history()
        taken = actions.pop(index)
        node = None
        for s, a in actions:
            node = (node, s, a)
        self._history = node
        return taken

    # --- playouts at C speed ---------------------------------------------------
    def random_playout(self, seed):
        """In place: play uniformly random legal actions for every seat to
        the end, in C (the library's asobi_state_random_playout, about 100x
        a Python loop); the number of actions played. Such a state no longer
        has a record (its actions are not kept)."""
        rng = Rng()
        _lib.rng_seed(byref(rng), _seed64(seed))
        self._determinized = True
        return _lib.state_random_playout(self._h, byref(rng))

    def playout_returns(self, n, seed):
        """The mean returns() of n random playouts from this state (each on a
        copy, in C), a list per seat: the value estimate of flat Monte Carlo."""
        if type(n) is not int or n < 1:
            raise AsobiError("bad_argument", "n is a positive int, not %r" % (n,))
        rng = Rng()
        _lib.rng_seed(byref(rng), _seed64(seed))
        copy = State(_lib.state_clone(self._h), self._setup, None, True)
        totals = [0.0] * self._setup.players
        for _ in range(n):
            _lib.state_copy(copy._h, self._h)
            _lib.state_random_playout(copy._h, byref(rng))
            for seat, value in enumerate(copy.returns()):
                totals[seat] += value
        return [t / n for t in totals]

    # --- samples --------------------------------------------------------------
    @staticmethod
    def load_sample(sample, key=None):
        """The state a sample holds: one of the "samples" of an external
        bot's choose request (docs/protocol.md, "Samples"), a whole game
        drawn for its seat. key defaults to the environment's
        ASOBI_SAMPLE_KEY, which `asobi arena` gives the bots it starts.
        AsobiError bad_sample if the text was changed in any way, made up,
        or signed by another run or build: it never becomes a state then.
        The state has no record (record() refuses it)."""
        if key is None:
            key = os.environ.get("ASOBI_SAMPLE_KEY", "")
        if not isinstance(sample, str):
            raise AsobiError("bad_sample", "a sample is a str, not %r" % (type(sample).__name__,))
        data = sample.encode("utf-8")
        err = Error()
        h = _lib.state_from_sample(data, len(data), key.encode("utf-8"), byref(err))
        if not h:
            _raise(err)
        name = _lib.game_name(_lib.state_game(h)).decode("utf-8")
        return State(h, _Setup(game(name), _lib.state_players(h), None, None), None, True)

    def to_sample(self, key):
        """This state as a sample signed with key (at least 16 characters),
        as `asobi arena` writes them."""
        text = _lib.take_string(_lib.state_sample(self._h, key.encode("utf-8")))
        if text is None:
            raise AsobiError("bad_argument", "a sample key has at least 16 characters")
        return text

    # --- records --------------------------------------------------------------
    def record(self):
        """The record {"game","players","options","seed","actions":[{"seat","action"}]}
        that asobi.load() (and `asobi replay`, the engine's load) replays to
        this very state."""
        if self._determinized:
            raise AsobiError("bad_record", "a determinized state has no record: its hidden "
                             "information no longer follows from its seed and actions")
        s = self._setup
        replay = _new_state(s.game, s.players, s.seed, s.options)
        buf = create_string_buffer(256)
        actions = []
        for seat, action in self.history():
            _lib.state_action_text(replay._h, seat, action, buf, 256)
            actions.append({"seat": seat, "action": buf.value.decode("utf-8")})
            replay.apply(seat, action)
        # JSON integers are signed 64-bit for the library: seeds above
        # 2^63-1 are written as their two's-complement negative, as the
        # engine writes them.
        seed = s.seed - (1 << 64) if s.seed >= 1 << 63 else s.seed
        return {"game": s.game.name, "players": s.players, "options": json.loads(json.dumps(s.options)),
                "seed": seed, "actions": actions}

    def serialize(self):
        """record() as JSON text."""
        return json.dumps(self.record())

    def __repr__(self):
        s = self._setup
        return "<asobi.State %s, %d players, seed %s, to move %s>" % (
            s.game.name, s.players, s.seed, list(self.current_players()))


def _seed64(seed):
    """A seed as the library's unsigned 64 bits: an integer in [-2^63, 2^64)
    (a negative one is the two's complement that records write for seeds
    above 2^63-1). Anything else is refused rather than cut to 64 bits,
    which would make seed=2**70 silently the game of seed 0."""
    if isinstance(seed, bool) or not hasattr(seed, "__index__"):
        raise AsobiError("bad_argument", "seed must be an integer, not %r" % (seed,))
    seed = seed.__index__()
    if not -(1 << 63) <= seed < 1 << 64:
        raise AsobiError("bad_argument", "seed must be in [-2**63, 2**64), not %d" % seed)
    return seed & 0xFFFFFFFFFFFFFFFF


def _new_state(game_, players, seed, options_full):
    err = Error()
    handle_options = _lib.make_json(options_full)
    try:
        h = _lib.state_new(game_._def, players, handle_options, seed, byref(err))
    finally:
        if handle_options:
            _lib.json_delete(handle_options)
    if not h:
        _raise(err)
    return State(h, _Setup(game_, players, seed, options_full))


def new_game(name, players=None, seed=None, options=None):
    """A new game of name (asobi.games()) for players seats (default: the
    game's smallest count), dealt from seed (default: a fresh random one),
    with options (a dict; missing options take their defaults).
    AsobiError unknown_game, bad_players, bad_option on bad arguments."""
    g = game(name)
    if players is None:
        players = g.min_players
    if type(players) is not int or not _fits_c_int(players):
        raise AsobiError("bad_players", "players must be a small integer, not %r" % (players,))
    seed = random.SystemRandom().getrandbits(63) if seed is None else _seed64(seed)
    if options is not None and not isinstance(options, dict):
        raise AsobiError("bad_option", "options must be a dict, not %r" % (options,))
    err = Error()
    given = _lib.make_json(options)
    try:
        full = _lib.game_options(g._def, given, byref(err))
    finally:
        if given:
            _lib.json_delete(given)
    if not full:
        _raise(err)
    return _new_state(g, players, seed, _lib.take_json(full))


def load(record):
    """The state a record (a dict, or its JSON text) replays to.
    AsobiError bad_record (naming the failing action) if it does not replay."""
    if isinstance(record, (str, bytes)):
        try:
            record = json.loads(record)
        except ValueError as e:
            raise AsobiError("bad_record", "a record is a JSON object: %s" % e) from None
    err = Error()
    try:
        handle = _lib.make_json(record)
    except (TypeError, ValueError) as e:
        raise AsobiError("bad_record", "a record is a JSON object: %s" % e) from None
    try:
        match = _lib.match_load(handle, byref(err))  # the library's own checks and messages
    finally:
        if handle:
            _lib.json_delete(handle)
    if not match:
        _raise(err)
    try:
        state = _lib.match_state(match)
        players = _lib.state_players(state)
        seed = _lib.match_seed(match)
        options = json.loads(json.dumps(_json_borrowed(_lib.match_options(match))))
        texts = [(_lib.match_action_seat(match, i), _lib.match_action_text(match, i).decode("utf-8"))
                 for i in range(_lib.match_length(match))]
        name = _lib.game_name(_lib.state_game(state)).decode("utf-8")
    finally:
        _lib.match_free(match)
    s = _new_state(game(name), players, seed, options)
    for seat, text in texts:
        s.apply(seat, text)  # cannot fail: the library has just replayed the same
    return s


def _json_borrowed(handle):
    """The Python value of a json_t * owned by someone else."""
    text = _lib._json_dumps(handle, _lib.JSON_COMPACT | _lib.JSON_ENCODE_ANY)
    try:
        return json.loads(ctypes.string_at(text).decode("utf-8"))
    finally:
        _lib._free(text)
