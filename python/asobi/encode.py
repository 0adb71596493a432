"""encode.py — the fixed-size numeric observation of each game: a flat vector made from one seat's view only.

Every encoder reads nothing but the seat's JSON view (State.view(seat)), so
it cannot carry anything the seat may not see. Seats are rotated so that the
observer is always first ("me, then the next seat, ..."), which lets one
policy play every seat. The layout of each game is in docs/python.md; the
length depends only on the game and the player count (size())."""

PSYCLE_CARDS = 6          # the cards 0-5
NINJA_KINDS = ("fire", "water", "wood", "metal", "earth")
NINJA_VALUES = 7          # 35 cards: kind-1 .. kind-7
NINJA_CARDS = len(NINJA_KINDS) * NINJA_VALUES
NINJA_TILES = (1, 3, 5, 7, 10, -1, -3, -5)
NINJA_PHASES = ("trump", "open", "scroll", "flip", "battle", "over")
OCTAL_CONDITIONS = "大小同異倍約"
OCTAL_ARROWS = "↑↕"
OCTAL_BUCKETS = 8 * len(OCTAL_CONDITIONS) * len(OCTAL_ARROWS) + 1  # number x condition x arrow, + ALL
OCTAL_ACTIONS = ("play", "lay", "override", "pass", "discard", "octo")
TM_PHASES = ("timer", "main", "pass", "access", "over")
TM_CHOICES = ("recover", "remove", "delay", "focus_back", "pay")
# The card names of asobi's own Time Masters set (src/games/timemasters/
# timemasters_cards.c); any other name (a card file's) counts in a last,
# shared "other" slot.
TM_NAMES = (
    "Suggestion", "Recovery", "Energy", "Concentration", "Small Timer", "Cerebral Cleaning", "Insight",
    "Spark", "Second Wind", "Time Lightness", "Glimmer", "Meditation", "Calm Focus", "Hourglass",
    "Sandglass", "Time Heaviness", "Acceleration", "Clarity", "Wellspring", "Surge", "Reminiscence",
    "Deep Cleaning", "Bright Focus", "Clock", "Pendulum", "Slow Down", "Time Warp", "Flow", "Renewal",
    "Vision", "Heavy Hours", "Recollection", "Deep Focus", "Chronometer", "Sundial", "Stasis", "Leap",
    "Torrent", "Mastery", "Revelation", "Purge", "Gravity", "Pure Focus", "Great Clock", "Water Clock",
    "Eternity", "Time Stop", "Omniscience", "Infinity", "Oblivion", "Chronomancy", "Zenith",
    "Featherweight")
TM_INDEX = {name: i for i, name in enumerate(TM_NAMES)}
TM_VOCAB = len(TM_NAMES) + 1
TM_LEVELS = 5


class _Vector:
    """A flat list of floats built field by field."""

    def __init__(self):
        self.v = []

    def scalar(self, x, scale=1.0):
        self.v.append(0.0 if x is None else float(x) / scale)

    def flag(self, x):
        self.v.append(1.0 if x else 0.0)

    def one_hot(self, index, size):
        """size slots, a 1 at index (none when index is None)."""
        block = [0.0] * size
        if index is not None:
            block[index] = 1.0
        self.v.extend(block)

    def counts(self, indices, size):
        """size slots: how many times each index occurs."""
        block = [0.0] * size
        for i in indices or ():
            block[i] += 1.0
        self.v.extend(block)


def _rotation(view, players):
    """seat -> its place counted from the observer (the observer is 0)."""
    me = view["seat"]
    return lambda s: (s - me) % players


def _encode_psycle(view, players):
    out = _Vector()
    rel = _rotation(view, players)
    out.counts([rel(s) for s in view["to_move"]], players)
    out.flag(view["terminal"])
    out.scalar(view["cycle"], 10)
    out.one_hot(view["round"] - 1, 5)
    out.scalar(view["target"], 5)
    out.scalar(view["bonus"], 5)
    revealed = view["revealed"] or []
    for i in range(5):  # this cycle's face-up pairs, oldest first
        pair = revealed[i] if i < len(revealed) else None
        out.flag(pair is not None)
        out.scalar(pair and pair["target"], 5)
        out.scalar(pair and pair["bonus"], 5)
    out.scalar(view["supply"], 50)
    for p in sorted(view["players"], key=lambda p: rel(p["seat"])):
        out.scalar(p["gems"], 10)
        out.scalar(p["points"], 10)
        out.scalar(p["victory_tiles"], 2)
        out.counts([int(c) for c in p["hand"] or ()], PSYCLE_CARDS)
        out.scalar(p["hand_size"], PSYCLE_CARDS)
        out.flag(p["chosen"])
        choice = p.get("choice")
        out.one_hot(None if choice is None else int(choice), PSYCLE_CARDS)
        out.one_hot(None if p["played"] is None else int(p["played"]), PSYCLE_CARDS)
    return out.v


def _ninja_card(text):
    kind, value = text.rsplit("-", 1)
    return NINJA_KINDS.index(kind) * NINJA_VALUES + int(value) - 1


def _ninja_positions(players):
    return players + (1 if players == 2 else 0)  # 2 players: the shadow sits third


def _encode_ninja(view, players):
    out = _Vector()
    positions = _ninja_positions(players)
    rel = _rotation(view, players)

    def place(s):  # the shadow (seat 2 of a 2-player game) keeps place 2
        return s if s >= players else rel(s)

    out.counts([rel(s) for s in view["to_move"]], players)
    out.flag(view["terminal"])
    out.one_hot(view["round"] - 1, 3)
    out.one_hot(NINJA_PHASES.index(view["phase"]), len(NINJA_PHASES))
    out.one_hot(None if view["trump"] is None else NINJA_KINDS.index(view["trump"]), len(NINJA_KINDS))
    out.one_hot(rel(view["start_player"]), players)
    out.one_hot(None if view["leader"] is None else place(view["leader"]), positions)
    out.scalar(view["tricks_played"], 7)
    for cards in (view["trick"], (view["last_trick"] or {}).get("cards", [])):
        # per position: its card, its tile's value, whether the tile is face down
        block = [0.0] * (positions * (NINJA_CARDS + 2))
        for c in cards:
            base = place(c["seat"]) * (NINJA_CARDS + 2)
            block[base + _ninja_card(c["card"])] = 1.0
            if c["scroll"] == "hidden":
                block[base + NINJA_CARDS + 1] = 1.0
            elif c["scroll"] is not None:
                block[base + NINJA_CARDS] = c["scroll"] / 10.0
        out.v.extend(block)
    last = view["last_trick"]
    out.one_hot(None if last is None else place(last["winner"]), positions)
    out.counts([_ninja_card(c) for c in view["discard"]], NINJA_CARDS)
    out.scalar(view["leftover_size"], 10)
    out.scalar(view["pile_size"], 45)
    entries = {place(p["seat"]): p for p in view["players"]}
    for i in range(positions):
        p = entries[i]
        out.counts([_ninja_card(c) for c in p["hand"] or ()], NINJA_CARDS)
        out.scalar(p["hand_size"], 10)
        # open cards: present, face up, tile value known, tile face down (per card)
        present, face_up, value, hidden = ([0.0] * NINJA_CARDS for _ in range(4))
        for o in p["open"]:
            c = _ninja_card(o["card"])
            present[c] = 1.0
            face_up[c] = 1.0 if o["face_up"] else 0.0
            if o["scroll"] == "hidden":
                hidden[c] = 1.0
            elif o["scroll"] is not None:
                value[c] = o["scroll"] / 10.0
        out.v.extend(present + face_up + value + hidden)
        out.counts([NINJA_TILES.index(t) for t in p["scrolls"] or ()], len(NINJA_TILES))
        out.scalar(p["scrolls_held"], 10)
        out.counts([NINJA_TILES.index(t) for t in p["won"]], len(NINJA_TILES))
        out.scalar(p["points"], 50)
        out.scalar(p.get("flips_left"), 5)
        out.counts([NINJA_KINDS.index(k) for k in p.get("void") or ()], len(NINJA_KINDS))
    return out.v


def _octal_card(text):
    """number x condition x arrow, or the last bucket for an ALL card."""
    if text == "ALL":
        return OCTAL_BUCKETS - 1
    number, condition, arrow = int(text[0]), text[1], text[2]
    return ((number - 1) * len(OCTAL_CONDITIONS) + OCTAL_CONDITIONS.index(condition)) * 2 \
        + OCTAL_ARROWS.index(arrow)


def _encode_octal(view, players):
    out = _Vector()
    rel = _rotation(view, players)
    out.counts([rel(s) for s in view["to_move"]], players)
    out.flag(view["terminal"])
    out.flag(view["mode"] == "twin")
    out.flag(view["phase"] == "discard")
    questions = view["questions"]
    for i in range(2):  # the dragon's questions (single mode: the second stays empty)
        q = questions[i] if i < len(questions) else None
        out.flag(q is not None)
        cards = q["cards"] if q else []
        out.one_hot(_octal_card(cards[-1]) if cards else None, OCTAL_BUCKETS)
        out.counts([_octal_card(c) for c in cards], OCTAL_BUCKETS)
        out.one_hot(OCTAL_CONDITIONS.index(q["condition"]) if q and q["condition"] else None,
                    len(OCTAL_CONDITIONS))
        out.one_hot(q["reference"] - 1 if q and q["reference"] is not None else None, 8)
        out.scalar(len(cards), 10)
        out.flag(q and q["all_on_top"])
        out.flag(q and q["below_allowed"])
    out.scalar(view["deck_size"], 34)
    out.scalar(view["discard_size"], 34)
    out.scalar(view["passes_in_a_row"], players)
    out.one_hot(None if view["last_placer"] is None else rel(view["last_placer"]), players)
    out.flag(view["lay_allowed"])
    out.scalar(view["lay_passes_needed"], 2 * players)
    undeclared = view["undeclared_octo"]
    out.one_hot(None if undeclared is None else rel(undeclared), players)
    out.scalar(view["turns"], view["max_turns"])
    for p in sorted(view["players"], key=lambda p: rel(p["seat"])):
        out.counts([_octal_card(c) for c in p["hand"] or ()], OCTAL_BUCKETS)
        out.scalar(p["hand_size"], 5)
        out.scalar(p["finished_rank"], players)
        out.counts([_octal_card(c) for c in p["discards"] or ()], OCTAL_BUCKETS)
        out.scalar(p["discard_count"], 10)
    last = view["last"]
    out.flag(last is not None)
    out.one_hot(rel(last["seat"]) if last else None, players)
    out.one_hot(OCTAL_ACTIONS.index(last["action"]) if last else None, len(OCTAL_ACTIONS))
    out.one_hot(last["question"] - 1 if last and last["question"] is not None else None, 2)  # 1 or 2
    out.counts([_octal_card(c) for c in (last or {}).get("cards") or ()], OCTAL_BUCKETS)
    for key in ("point_below", "octo", "drew"):
        out.flag(last and last[key])
    out.scalar(last and last["penalty"], 2)
    out.one_hot(rel(last["penalty_seat"]) if last and last["penalty_seat"] is not None else None, players)
    out.scalar(last and last["refilled"], 5)
    out.scalar(last and last["refilled_discards"], 5)
    return out.v


def _tm(name):
    return TM_INDEX.get(name, TM_VOCAB - 1)


def _encode_timemasters(view, players):
    out = _Vector()
    rel = _rotation(view, players)
    out.counts([rel(s) for s in view["to_move"]], players)
    out.flag(view["terminal"])
    out.one_hot(TM_PHASES.index(view["phase"]), len(TM_PHASES))
    out.scalar(view["turn"], view["max_turns"])
    out.one_hot(None if view["active"] is None else rel(view["active"]), players)
    for sphere in view["spheres"]:  # levels 1-5
        out.one_hot(None if sphere["top"] is None else _tm(sphere["top"]), TM_VOCAB)
        out.scalar(sphere["size"], 10)
        out.scalar(sphere["set_aside"], 10)
    out.counts([_tm(n) for n in view["spell_zone"]], TM_VOCAB)
    out.scalar(view["access_points"], 5)
    out.counts([level - 1 for level in view["taken"]], TM_LEVELS)
    choice = view["choice"]
    out.one_hot(TM_CHOICES.index(choice["kind"]) if choice else None, len(TM_CHOICES))
    out.scalar(choice and choice.get("left"), 5)
    out.one_hot(None if view["resolving"] is None else _tm(view["resolving"]), TM_VOCAB)
    for p in sorted(view["players"], key=lambda p: rel(p["seat"])):
        for key in ("hand", "deck_cards", "discard", "removed", "gained", "released"):
            out.counts([_tm(n) for n in p[key] or ()], TM_VOCAB)
        out.scalar(p["hand_size"], 10)
        out.scalar(p["deck_size"], 20)
        out.v.extend(float(n) for n in p["gained_unseen"])
        timers = p["timers"]
        out.counts([_tm(t["timer"]) for t in timers], TM_VOCAB)
        out.counts([_tm(n) for t in timers for n in t["spells"]], TM_VOCAB)
        out.counts([_tm(n) for t in timers for n in t["delay_cards"] or ()], TM_VOCAB)
        out.scalar(sum(t["slots"] for t in timers), 10)
        out.scalar(sum(t["delay"] for t in timers), 10)
        out.scalar(sum(1 for t in timers if t["full"]), 5)
        for key in ("ke_ready", "ke_spent", "ke_ephemeral", "ke_spent_this_turn"):
            out.scalar(p[key], 10)
        reminders = p["reminders"]
        out.scalar(reminders["cost"], 5)
        for key in ("ke_limit", "ke_limit_next"):
            out.flag(reminders[key] is not None)
            out.scalar(reminders[key], 10)
        out.flag(p["points"] is not None)
        out.scalar(p["points"], 20)
    return out.v


ENCODERS = {"psycle": _encode_psycle, "ninja": _encode_ninja, "octal": _encode_octal,
            "timemasters": _encode_timemasters}


def encode_view(game, players, view):
    """The flat vector (a list of floats) of a seat's view of game."""
    if view.get("seat") is None:
        raise ValueError("asobi: observations are made for a seat, not from the all-seeing view")
    return ENCODERS[game](view, players)


def encode(state, seat):
    """The flat vector (a list of floats) of seat's view of state."""
    return encode_view(state.game().name, state.num_players(), state.view(seat))


_SIZES = {}


def size(game, players):
    """The length of the observation vector of game with players seats."""
    key = (game, players)
    if key not in _SIZES:
        from .state import new_game
        _SIZES[key] = len(encode(new_game(game, players=players, seed=0), 0))
    return _SIZES[key]


import array  # noqa: E402  (as_array's fast path)

try:  # numpy is optional: with it, observations and masks are arrays
    import numpy
except ImportError:  # pragma: no cover - depends on the machine
    numpy = None


_TYPECODES = {"float32": "f", "int8": "b"}


def as_array(values, dtype="float32"):
    """values as a numpy array when numpy is installed, else the list itself.
    Through the standard library's array (one C loop over the list), then
    numpy's view of its buffer: half the time of numpy.asarray on a list."""
    if numpy is None:
        return values
    code = _TYPECODES.get(dtype)
    if code is None:
        return numpy.asarray(values, dtype=dtype)
    return numpy.frombuffer(array.array(code, values), dtype=dtype)
